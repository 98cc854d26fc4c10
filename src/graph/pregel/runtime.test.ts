import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  Annotation,
  Command,
  InvalidContextError,
  type LangGraphRunnableConfig,
  MemorySaver,
  START,
  StateGraph,
} from "../index.js";

const State = Annotation.Root({ i: Annotation<number> });

/** A one-node graph that records the config its node receives. */
function recorder(options: { metadata?: Record<string, unknown>; tags?: string[] } = {}) {
  const seen: LangGraphRunnableConfig[] = [];
  const graph = new StateGraph(State)
    .addNode(
      "a",
      (_s, config) => {
        seen.push(config);
        return {};
      },
      options,
    )
    .addEdge(START, "a")
    .compile();
  return { graph, seen };
}

describe("the config a node receives", () => {
  it("carries the langgraph_* metadata of its task", async () => {
    const seen: Record<string, unknown>[] = [];
    const graph = new StateGraph(State)
      .addNode("a", (_s, config) => {
        seen.push(config.metadata ?? {});
        return {};
      })
      .addNode("b", (_s, config) => {
        seen.push(config.metadata ?? {});
        return {};
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    await graph.invoke({ i: 1 });
    expect(seen).toEqual([
      {
        ls_integration: "langgraph",
        langgraph_step: 1,
        langgraph_node: "a",
        langgraph_triggers: ["branch:to:a"],
        langgraph_path: ["__pregel_pull", "a"],
        langgraph_checkpoint_ns: expect.stringMatching(/^a:/),
        checkpoint_ns: expect.stringMatching(/^a:/),
      },
      {
        ls_integration: "langgraph",
        langgraph_step: 2,
        langgraph_node: "b",
        langgraph_triggers: ["branch:to:b"],
        langgraph_path: ["__pregel_pull", "b"],
        langgraph_checkpoint_ns: expect.stringMatching(/^b:/),
        checkpoint_ns: expect.stringMatching(/^b:/),
      },
    ]);
  });

  it("merges the run's metadata and the node's metadata, without copying configurable values", async () => {
    const { graph, seen } = recorder({ metadata: { m: 1 } });
    await graph.invoke({ i: 0 }, { metadata: { user: "x" }, configurable: { thread: "t", n: 3 } });
    expect(seen[0]?.metadata).toEqual({
      ls_integration: "langgraph",
      user: "x",
      langgraph_step: 1,
      langgraph_node: "a",
      langgraph_triggers: ["branch:to:a"],
      langgraph_path: ["__pregel_pull", "a"],
      langgraph_checkpoint_ns: expect.any(String),
      checkpoint_ns: expect.any(String),
      m: 1,
    });
  });

  it("carries the thread id in its metadata, as LangGraph.js", async () => {
    const { graph, seen } = recorder();
    await graph.invoke({ i: 0 }, { configurable: { thread_id: "t-7" } });
    expect(seen[0]?.metadata).toMatchObject({ thread_id: "t-7", langgraph_node: "a" });
  });

  it("carries interrupt(): the node can pause through its config and get the answer on resume", async () => {
    const answers: unknown[] = [];
    const graph = new StateGraph(State)
      .addNode("ask", (_s, config) => {
        answers.push(config.interrupt?.({ question: "go?" }));
        return { i: 1 };
      })
      .addEdge(START, "ask")
      .compile({ checkpointer: new MemorySaver() });
    const thread = { configurable: { thread_id: "ask" } };
    const paused = (await graph.invoke({ i: 0 }, thread)) as { __interrupt__?: { value: unknown }[] };
    expect(paused.__interrupt__?.map((i) => i.value)).toEqual([{ question: "go?" }]);
    expect(await graph.invoke(new Command({ resume: "yes" }), thread)).toEqual({ i: 1 });
    expect(answers).toEqual(["yes"]);
  });

  it("carries the run's configurable, tags, runName and recursionLimit", async () => {
    const { graph, seen } = recorder({ tags: ["node-tag"] });
    await graph.invoke({ i: 0 }, { configurable: { user_id: "u1", obj: { a: 1 } }, tags: ["run-tag"] });
    const config = seen[0] as LangGraphRunnableConfig;
    expect(config.configurable).toMatchObject({ user_id: "u1", obj: { a: 1 } });
    expect(config.configurable?.checkpoint_ns).toBe(config.metadata?.checkpoint_ns);
    expect(config.tags).toEqual(expect.arrayContaining(["run-tag", "node-tag"]));
    expect(config.runName).toBe("a");
    expect(config.recursionLimit).toBe(25);
  });

  it("carries executionInfo ids of the running task", async () => {
    const { graph, seen } = recorder();
    await graph.invoke({ i: 0 }, { configurable: { thread_id: "t1" } });
    const info = seen[0]?.executionInfo;
    expect(info).toMatchObject({
      checkpointId: expect.any(String),
      checkpointNs: seen[0]?.metadata?.checkpoint_ns,
      taskId: expect.any(String),
      threadId: "t1",
      nodeAttempt: 1,
      nodeFirstAttemptTime: expect.any(Number),
    });
    expect(info?.checkpointNs).toBe(`a:${info?.taskId}`);
  });

  it("carries an AbortSignal, even when the caller passed none", async () => {
    const { graph, seen } = recorder();
    await graph.invoke({ i: 0 });
    expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);
    expect(seen[0]?.signal?.aborted).toBe(false);
  });

  it("carries a signal that aborts when the caller's signal aborts", async () => {
    const controller = new AbortController();
    let aborted: boolean | undefined;
    const graph = new StateGraph(State)
      .addNode("a", async (_s, config) => {
        expect(config.signal?.aborted).toBe(false);
        controller.abort(new Error("stop"));
        aborted = config.signal?.aborted;
        return {};
      })
      .addEdge(START, "a")
      .compile();
    await expect(graph.invoke({ i: 0 }, { signal: controller.signal })).rejects.toThrow("stop");
    expect(aborted).toBe(true);
  });

  it("carries the run's context", async () => {
    const { graph, seen } = recorder();
    await graph.invoke({ i: 0 }, { context: { user: "u1" } });
    expect(seen[0]?.context).toEqual({ user: "u1" });
  });

  it("gets the defaults of withConfig, overridden by the call's options", async () => {
    const { graph, seen } = recorder();
    const configured = graph.withConfig({
      configurable: { foo: "bar", baz: 0 },
      metadata: { user: "u" },
      tags: ["wc"],
      recursionLimit: 7,
    });
    await configured.invoke({ i: 1 }, { configurable: { baz: 1 } });
    expect(seen[0]?.configurable).toMatchObject({ foo: "bar", baz: 1 });
    expect(seen[0]?.metadata?.user).toBe("u");
    expect(seen[0]?.tags).toEqual(["wc"]);
    expect(seen[0]?.recursionLimit).toBe(7);
    await graph.invoke({ i: 1 });
    expect(seen[1]?.configurable?.foo).toBeUndefined();
  });

  it("withConfig on a configured graph adds to its defaults (LangChain.js mergeConfigs)", async () => {
    const { graph, seen } = recorder();
    const twice = graph
      .withConfig({ configurable: { foo: "bar" }, metadata: { a: 1 }, tags: ["one"], recursionLimit: 7 })
      .withConfig({ configurable: { baz: 2 }, metadata: { b: 2 }, tags: ["two", "one"] });
    await twice.invoke({ i: 1 });
    expect(seen[0]?.configurable).toMatchObject({ foo: "bar", baz: 2 });
    expect(seen[0]?.metadata).toMatchObject({ a: 1, b: 2 });
    expect(seen[0]?.tags).toEqual(["one", "two"]);
    expect(seen[0]?.recursionLimit).toBe(7);
  });
});

describe("contextSchema", () => {
  const Context = z.object({ user: z.string() });

  function contextGraph(schema: z.ZodType) {
    const seen: unknown[] = [];
    const graph = new StateGraph(State, schema)
      .addNode("a", (_s, config) => {
        seen.push(config.context);
        return {};
      })
      .addEdge(START, "a")
      .compile();
    return { graph, seen };
  }

  it("accepts a context that matches", async () => {
    const { graph, seen } = contextGraph(Context);
    await graph.invoke({ i: 0 }, { context: { user: "u1" } });
    expect(seen).toEqual([{ user: "u1" }]);
  });

  it("rejects a context that does not match with InvalidContextError, before any node runs", async () => {
    const { graph, seen } = contextGraph(Context);
    const error = await graph.invoke({ i: 0 }, { context: { user: 5 } as never }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(InvalidContextError);
    expect(error?.message).toContain("user");
    expect(seen).toEqual([]);
  });

  it("gives nodes the context as passed (the reference does not apply schema defaults)", async () => {
    const { graph, seen } = contextGraph(z.object({ user: z.string().default("anon") }));
    await graph.invoke({ i: 0 }, { context: {} });
    expect(seen).toEqual([{}]);
  });
});
