import { describe, expect, it } from "vitest";
import { Annotation, MemorySaver, START, StateGraph } from "../../index.js";

const Value = Annotation.Root({ value: Annotation<string> });

describe("ids in a run's configurable become its metadata", () => {
  it("copies the known ids (not other keys) into every node's metadata, nested graphs too", async () => {
    let innerMeta: Record<string, unknown> = {};
    let outerMeta: Record<string, unknown> = {};
    const inner = new StateGraph(Value)
      .addNode("leaf", (_state, config) => {
        innerMeta = { ...config.metadata };
        return { value: "leaf" };
      })
      .addEdge(START, "leaf")
      .compile();
    const graph = new StateGraph(Value)
      .addNode("top", (_state, config) => {
        outerMeta = { ...config.metadata };
        return { value: "top" };
      })
      .addNode("nested", inner)
      .addEdge(START, "top")
      .addEdge("top", "nested")
      .compile();
    await graph.invoke(
      { value: "" },
      { configurable: { assistant_id: "asst", graph_id: "gr", run_id: "r1", task_id: "t1", extra: "no" } },
    );
    for (const meta of [outerMeta, innerMeta]) {
      expect(meta).toMatchObject({ assistant_id: "asst", graph_id: "gr", run_id: "r1", task_id: "t1" });
      expect(meta).not.toHaveProperty("extra");
      expect(meta).not.toHaveProperty("checkpoint_id");
    }
  });

  it("keeps a value already in the metadata", async () => {
    let seen: Record<string, unknown> = {};
    const graph = new StateGraph(Value)
      .addNode("only", (_state, config) => {
        seen = { ...config.metadata };
        return { value: "x" };
      })
      .addEdge(START, "only")
      .compile();
    await graph.invoke(
      { value: "" },
      { configurable: { assistant_id: "a" }, metadata: { assistant_id: "mine" } },
    );
    expect(seen.assistant_id).toBe("mine");
  });

  it("shows the addressed checkpoint in the debug stream's checkpoint config metadata", async () => {
    const graph = new StateGraph(Value)
      .addNode("only", () => ({ value: "x" }))
      .addEdge(START, "only")
      .compile({ checkpointer: new MemorySaver() });
    const thread = { configurable: { thread_id: "m" } };
    await graph.invoke({ value: "" }, thread);
    const head = await graph.getState(thread);
    const chunks: { type: string; payload: { config?: { metadata?: unknown } } }[] = [];
    for await (const chunk of await graph.stream(null, { ...head.config, streamMode: "debug" })) {
      chunks.push(chunk as (typeof chunks)[number]);
    }
    const checkpoint = chunks.find((c) => c.type === "checkpoint");
    expect(checkpoint?.payload.config?.metadata).toEqual({
      ls_integration: "langgraph",
      thread_id: "m",
      checkpoint_ns: "",
      checkpoint_id: head.config.configurable?.checkpoint_id,
    });
  });
});

describe("a run's runId", () => {
  it("names the run alone: nodes, nested graphs and checkpoint configs do not carry it (LangGraph.js)", async () => {
    const seen: unknown[] = [];
    const inner = new StateGraph(Value)
      .addNode("leaf", (_state, config) => {
        seen.push(["leaf", config.runId, config.executionInfo?.runId]);
        return { value: "leaf" };
      })
      .addEdge(START, "leaf")
      .compile();
    const graph = new StateGraph(Value)
      .addNode("top", (_state, config) => {
        seen.push(["top", config.runId, config.executionInfo?.runId]);
        return { value: "top" };
      })
      .addNode("nested", inner)
      .addEdge(START, "top")
      .addEdge("top", "nested")
      .compile({ checkpointer: new MemorySaver() });
    const configs: Record<string, unknown>[] = [];
    for await (const [mode, chunk] of await graph.stream(
      { value: "" },
      { configurable: { thread_id: "r" }, runId: "run-1", streamMode: ["checkpoints", "debug"] },
    )) {
      const event = chunk as {
        config?: Record<string, unknown>;
        payload?: { config?: Record<string, unknown> };
      };
      const config = mode === "checkpoints" ? event.config : event.payload?.config;
      if (config !== undefined) configs.push(config);
    }
    expect(seen).toEqual([
      ["top", undefined, undefined],
      ["leaf", undefined, undefined],
    ]);
    expect(configs.length).toBeGreaterThan(0);
    for (const config of configs) expect(config).not.toHaveProperty("run_id");
  });
});

describe("a graph invoked inside a node with its own metadata or tags", () => {
  async function nested(options: { metadata?: Record<string, unknown>; tags?: string[] }) {
    let seen: { metadata?: Record<string, unknown>; tags?: string[] | undefined } = {};
    const inner = new StateGraph(Value)
      .addNode("leaf", (_state, config) => {
        seen = { metadata: { ...config.metadata }, tags: config.tags };
        return { value: "leaf" };
      })
      .addEdge(START, "leaf")
      .compile();
    const graph = new StateGraph(Value)
      .addNode("call", async () => inner.invoke({ value: "" }, options))
      .addEdge(START, "call")
      .compile();
    await graph.invoke({ value: "" }, { tags: ["outer"], metadata: { outer: 1 } });
    return seen;
  }

  it("takes the given metadata instead of the node's (LangGraph.js replaces, not merges, it)", async () => {
    const { metadata, tags } = await nested({ metadata: { mine: 2 } });
    expect(metadata).toMatchObject({ mine: 2, langgraph_node: "leaf" });
    expect(metadata).not.toHaveProperty("outer");
    expect(tags).toEqual(["outer"]);
  });

  it("takes the given tags instead of the node's", async () => {
    const { metadata, tags } = await nested({ tags: ["t"] });
    expect(tags).toEqual(["t"]);
    expect(metadata).toMatchObject({ outer: 1 });
  });

  it("keeps the node's metadata and tags when it is given neither", async () => {
    const { metadata, tags } = await nested({});
    expect(tags).toEqual(["outer"]);
    expect(metadata).toMatchObject({ outer: 1 });
  });
});

describe("keys of no config given to a run", () => {
  it("are not passed on to the nodes (a model option such as stop stays out), as LangGraph.js keeps only config keys", async () => {
    const seen: Record<string, unknown>[] = [];
    const graph = new StateGraph(Value)
      .addNode("n", (_state, config) => {
        seen.push({ ...config });
        return { value: "n" };
      })
      .addEdge(START, "n")
      .compile()
      .withConfig({ tags: ["bound"], foo: "bound" } as Record<string, unknown>);
    await graph.invoke({ value: "" }, { stop: ["X"], bar: 1, tags: ["t"] } as Record<string, unknown>);
    const [config] = seen;
    expect(config).toBeDefined();
    expect(config).not.toHaveProperty("stop");
    expect(config).not.toHaveProperty("bar");
    expect(config).not.toHaveProperty("foo");
    expect(config?.tags).toEqual(["bound", "t"]);
  });
});
