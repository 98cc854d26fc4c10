import { describe, expect, it } from "vitest";
import { interrupt } from "../../index.js";
import { Annotation, Command, InvalidUpdateError, MemorySaver, START, StateGraph } from "../index.js";

const appendList = () => Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] });
const Parent = Annotation.Root({ shared: appendList(), parentOnly: Annotation<string> });
const Child = Annotation.Root({ shared: appendList(), priv: Annotation<string> });

const NS = /^[a-z0-9]+:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function collect<T>(stream: Promise<AsyncIterable<T>>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of await stream) out.push(chunk);
  return out;
}

/** Replaces the task ids in namespaces with "<id>". */
function anonymise(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replace(/:[0-9a-f]{8}-[0-9a-f-]{27}/g, ":<id>"));
}

const child = new StateGraph(Child)
  .addNode("c1", (s, config) => {
    config.writer?.({ c1: s.shared });
    return { shared: ["c1"], priv: "secret" };
  })
  .addNode("c2", (s) => ({ shared: [`c2:${s.priv}`] }))
  .addEdge(START, "c1")
  .addEdge("c1", "c2")
  .compile();

const parent = new StateGraph(Parent)
  .addNode("p1", () => ({ shared: ["p1"] }))
  .addNode("sub", child)
  .addNode("p2", (s) => ({ parentOnly: JSON.stringify(s) }))
  .addEdge(START, "p1")
  .addEdge("p1", "sub")
  .addEdge("sub", "p2")
  .compile();

describe("a compiled graph as a node", () => {
  it("reads shared keys, returns its shared keys, keeps private keys inside", async () => {
    const result = await parent.invoke({ shared: ["in"], parentOnly: "x" });
    // The subgraph returns its whole `shared` list, which the parent's reducer appends (as in LangGraph).
    const expected = ["in", "p1", "in", "p1", "c1", "c2:secret"];
    expect(result).toEqual({
      shared: expected,
      parentOnly: JSON.stringify({ shared: expected, parentOnly: "x" }),
    });
  });

  it("streams the subgraph's final state as the node's update", async () => {
    expect(await collect(parent.stream({ shared: ["in"] }))).toEqual([
      { p1: { shared: ["p1"] } },
      { sub: { shared: ["in", "p1", "c1", "c2:secret"] } },
      { p2: { parentOnly: JSON.stringify({ shared: ["in", "p1", "in", "p1", "c1", "c2:secret"] }) } },
    ]);
  });

  it("with subgraphs: true, streams [namespace, chunk] with 'node:<taskId>' namespaces", async () => {
    const chunks = (await collect(parent.stream({ shared: ["in"] }, { subgraphs: true }))) as [
      string[],
      unknown,
    ][];
    expect(chunks.map(([ns]) => ns.length)).toEqual([0, 1, 1, 0, 0]);
    expect(chunks[1]?.[0][0]).toMatch(NS);
    expect(chunks[1]?.[0][0]?.startsWith("sub:")).toBe(true);
    expect(chunks[2]?.[0]).toEqual(chunks[1]?.[0]);
    expect(anonymise(chunks)).toEqual([
      [[], { p1: { shared: ["p1"] } }],
      [["sub:<id>"], { c1: { shared: ["c1"], priv: "secret" } }],
      [["sub:<id>"], { c2: { shared: ["c2:secret"] } }],
      [[], { sub: { shared: ["in", "p1", "c1", "c2:secret"] } }],
      [[], { p2: { parentOnly: JSON.stringify({ shared: ["in", "p1", "in", "p1", "c1", "c2:secret"] }) } }],
    ]);
  });

  it("with subgraphs and several modes, streams [namespace, mode, chunk]", async () => {
    const chunks = await collect(
      parent.stream({ shared: ["in"] }, { subgraphs: true, streamMode: ["updates", "custom"] }),
    );
    expect(anonymise(chunks)).toEqual([
      [[], "updates", { p1: { shared: ["p1"] } }],
      [["sub:<id>"], "custom", { c1: ["in", "p1"] }],
      [["sub:<id>"], "updates", { c1: { shared: ["c1"], priv: "secret" } }],
      [["sub:<id>"], "updates", { c2: { shared: ["c2:secret"] } }],
      [[], "updates", { sub: { shared: ["in", "p1", "c1", "c2:secret"] } }],
      [
        [],
        "updates",
        { p2: { parentOnly: JSON.stringify({ shared: ["in", "p1", "in", "p1", "c1", "c2:secret"] }) } },
      ],
    ]);
  });

  it("streams values of the subgraph under its namespace", async () => {
    const chunks = await collect(
      parent.stream({ shared: ["in"] }, { subgraphs: true, streamMode: "values" }),
    );
    const all = ["in", "p1", "in", "p1", "c1", "c2:secret"];
    expect(anonymise(chunks)).toEqual([
      [[], { shared: ["in"] }],
      [[], { shared: ["in", "p1"] }],
      [["sub:<id>"], { shared: ["in", "p1"] }],
      [["sub:<id>"], { shared: ["in", "p1", "c1"], priv: "secret" }],
      [["sub:<id>"], { shared: ["in", "p1", "c1", "c2:secret"], priv: "secret" }],
      [[], { shared: all }],
      [[], { shared: all, parentOnly: JSON.stringify({ shared: all }) }],
    ]);
  });

  it("custom chunks of a subgraph reach the parent's stream without subgraphs: true", async () => {
    expect(await collect(parent.stream({ shared: ["in"] }, { streamMode: "custom" }))).toEqual([
      { c1: ["in", "p1"] },
    ]);
  });

  it("propagates a subgraph node's error unchanged", async () => {
    const failing = new StateGraph(Child)
      .addNode("c", () => {
        throw new RangeError("deep");
      })
      .addEdge(START, "c")
      .compile();
    const graph = new StateGraph(Parent).addNode("sub", failing).addEdge(START, "sub").compile();
    await expect(graph.invoke({ shared: [] })).rejects.toThrow(RangeError);
    await expect(graph.invoke({ shared: [] })).rejects.toThrow("deep");
  });

  it("counts the subgraph's steps against the run's recursion limit", async () => {
    const looping = new StateGraph(Child)
      .addNode("c", () => ({ shared: ["c"] }))
      .addEdge(START, "c")
      .addEdge("c", "c")
      .compile();
    const graph = new StateGraph(Parent).addNode("sub", looping).addEdge(START, "sub").compile();
    await expect(graph.invoke({ shared: [] }, { recursionLimit: 4 })).rejects.toThrow(
      /^Recursion limit of 4 reached without hitting a stop condition\./,
    );
  });
});

describe("a graph invoked inside a node function", () => {
  const inNode = new StateGraph(Parent)
    .addNode("p1", async (s, config) => {
      const r = await child.invoke({ shared: s.shared }, config);
      return { shared: r.shared.slice(s.shared.length), parentOnly: r.priv };
    })
    .addEdge(START, "p1")
    .compile();

  it("runs with the node's config and returns its state", async () => {
    expect(await inNode.invoke({ shared: ["in"] })).toEqual({
      shared: ["in", "c1", "c2:secret"],
      parentOnly: "secret",
    });
  });

  it("streams under the calling node's namespace", async () => {
    const chunks = await collect(inNode.stream({ shared: ["in"] }, { subgraphs: true }));
    expect(anonymise(chunks)).toEqual([
      [["p1:<id>"], { c1: { shared: ["c1"], priv: "secret" } }],
      [["p1:<id>"], { c2: { shared: ["c2:secret"] } }],
      [[], { p1: { shared: ["c1", "c2:secret"], parentOnly: "secret" } }],
    ]);
    expect(await collect(inNode.stream({ shared: ["in"] }, { streamMode: "custom" }))).toEqual([
      { c1: ["in"] },
    ]);
  });
});

describe("Command.PARENT", () => {
  it("routes and updates the parent graph from a subgraph node", async () => {
    const sub = new StateGraph(Child)
      .addNode(
        "c1",
        () => new Command({ graph: Command.PARENT, goto: "p3", update: { shared: ["from-child"] } }),
      )
      .addEdge(START, "c1")
      .compile();
    const graph = new StateGraph(Parent)
      .addNode("sub", sub, { ends: ["p3"] })
      .addNode("p2", () => ({ shared: ["p2"] }))
      .addNode("p3", () => ({ shared: ["p3"] }))
      .addEdge(START, "sub")
      .addEdge("sub", "p2")
      .compile();
    expect(await graph.invoke({ shared: [] })).toEqual({ shared: ["from-child", "p2", "p3"] });
    expect(await collect(graph.stream({ shared: [] }))).toEqual([
      { sub: { shared: ["from-child"] } },
      { p2: { shared: ["p2"] } },
      { p3: { shared: ["p3"] } },
    ]);
  });

  it("from a grandchild, addresses the middle graph", async () => {
    const grand = new StateGraph(Child)
      .addNode(
        "g1",
        () => new Command({ graph: Command.PARENT, goto: "c2", update: { shared: ["from-grand"] } }),
      )
      .addEdge(START, "g1")
      .compile();
    const mid = new StateGraph(Child)
      .addNode("gsub", grand, { ends: ["c2"] })
      .addNode("c2", () => ({ shared: ["c2"] }))
      .addEdge(START, "gsub")
      .compile();
    const top = new StateGraph(Parent)
      .addNode("mid", mid)
      .addNode("after", () => ({ shared: ["after"] }))
      .addEdge(START, "mid")
      .addEdge("mid", "after")
      .compile();
    expect(await top.invoke({ shared: [] })).toEqual({ shared: ["from-grand", "c2", "after"] });
    expect(anonymise(await collect(top.stream({ shared: [] }, { subgraphs: true })))).toEqual([
      [["mid:<id>"], { gsub: { shared: ["from-grand"] } }],
      [["mid:<id>"], { c2: { shared: ["c2"] } }],
      [[], { mid: { shared: ["from-grand", "c2"] } }],
      [[], { after: { shared: ["after"] } }],
    ]);
  });

  it("sent in a list with updates of the subgraph, streams those updates as the node's", async () => {
    // what a ToolNode returns when one tool hands off to the parent and another answers; the
    // subgraph's own routing (to c2) is not followed
    const sub = new StateGraph(Child)
      .addNode("c1", () => [
        new Command({ graph: Command.PARENT, goto: "p3", update: { shared: ["from-child"] } }),
        { priv: "kept" },
      ])
      .addNode("c2", () => ({ shared: ["c2"] }))
      .addEdge(START, "c1")
      .addEdge("c1", "c2")
      .compile();
    const graph = new StateGraph(Parent)
      .addNode("sub", sub, { ends: ["p3"] })
      .addNode("p3", () => ({ shared: ["p3"] }))
      .addEdge(START, "sub")
      .compile();
    const chunks = await collect(
      graph.stream({ shared: [] }, { streamMode: ["updates", "tasks"], subgraphs: true }),
    );
    const shown = (anonymise(chunks) as [string[], string, Record<string, unknown>][]).map(
      ([ns, mode, chunk]) => [
        ns,
        mode,
        mode === "tasks"
          ? "result" in chunk
            ? { result: chunk.result, error: chunk.error }
            : chunk.name
          : chunk,
      ],
    );
    // LangGraph.js 1.7.3
    expect(shown).toEqual([
      [[], "tasks", "sub"],
      [["sub:<id>"], "tasks", "c1"],
      [["sub:<id>"], "updates", { c1: { priv: "kept" } }],
      [["sub:<id>"], "tasks", { result: { priv: "kept" }, error: null }],
      [[], "updates", { sub: { shared: ["from-child"] } }],
      [[], "tasks", { result: { shared: ["from-child"] }, error: null }],
      [[], "tasks", "p3"],
      [[], "updates", { p3: { shared: ["p3"] } }],
      [[], "tasks", { result: { shared: ["p3"] }, error: null }],
    ]);
    expect(await graph.invoke({ shared: [] })).toEqual({ shared: ["from-child", "p3"] });
  });

  it("from a subgraph compiled with checkpointer: true, routes and updates the parent (deliberate: the reference drops it)", async () => {
    const sub = new StateGraph(Child)
      .addNode(
        "c1",
        () => new Command({ graph: Command.PARENT, goto: "p3", update: { shared: ["from-child"] } }),
      )
      .addEdge(START, "c1")
      .compile({ checkpointer: true });
    const graph = new StateGraph(Parent)
      .addNode("sub", sub, { ends: ["p3"] })
      .addNode("p3", () => ({ shared: ["p3"] }))
      .addEdge(START, "sub")
      .compile({ checkpointer: new MemorySaver() });
    expect(await graph.invoke({ shared: [] }, { configurable: { thread_id: "t" } })).toEqual({
      shared: ["from-child", "p3"],
    });
  });

  it("to a node the parent does not have fails (deliberate: the reference ignores it)", async () => {
    const sub = new StateGraph(Child)
      .addNode("c1", () => new Command({ graph: Command.PARENT, goto: "zz" }))
      .addEdge(START, "c1")
      .compile();
    const graph = new StateGraph(Parent).addNode("sub", sub).addEdge(START, "sub").compile();
    await expect(graph.invoke({ shared: [] })).rejects.toThrow(InvalidUpdateError);
  });

  it("from a root graph's node is a clear InvalidUpdateError (deliberate: the reference ignores it)", async () => {
    const graph = new StateGraph(Child)
      .addNode("c1", () => new Command({ graph: Command.PARENT, goto: "p3", update: { shared: ["x"] } }))
      .addEdge(START, "c1")
      .compile();
    const error = await graph.invoke({ shared: [] }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect(error?.message).toContain("Command.PARENT");
  });
});

describe("a subgraph compiled with a checkpointer of its own", () => {
  it("saves with the parent's checkpointer, which the parent's getState then reads (as LangGraph.js)", async () => {
    const own = new MemorySaver();
    const sub = new StateGraph(Child)
      .addNode("c1", () => ({ shared: ["c1"] }))
      .addNode("c2", () => ({ shared: ["c2"] }))
      .addEdge(START, "c1")
      .addEdge("c1", "c2")
      .compile({ checkpointer: own, interruptBefore: ["c2"] });
    const parentSaver = new MemorySaver();
    const graph = new StateGraph(Parent)
      .addNode("sub", sub)
      .addEdge(START, "sub")
      .compile({ checkpointer: parentSaver });
    const config = { configurable: { thread_id: "t" } };
    await graph.invoke({ shared: [] }, config);
    const state = await graph.getState(config, { subgraphs: true });
    const nested = state.tasks[0]?.state as { values?: unknown; next?: unknown } | undefined;
    expect(nested?.values).toEqual({ shared: ["c1"] });
    expect(nested?.next).toEqual(["c2"]);
    let ownCheckpoints = 0;
    for await (const _ of own.list({ configurable: { thread_id: "t" } })) ownCheckpoints += 1;
    expect(ownCheckpoints).toBe(0);
    expect(await graph.invoke(null, config)).toEqual({ shared: ["c1", "c2"] });
  });

  it("lends its own checkpointer to the graphs it runs when its parent has none (as LangGraph.js)", async () => {
    // parent without a saver > middle graph with its own > inner graph that interrupts
    const inner = new StateGraph(Child)
      .addNode("ask", () => ({ shared: [`answer:${String(interrupt("q?"))}`] }))
      .addEdge(START, "ask")
      .compile();
    const own = new MemorySaver();
    const middle = new StateGraph(Child)
      .addNode("m1", () => ({ shared: ["m1"] }))
      .addNode("inner", inner)
      .addEdge(START, "m1")
      .addEdge("m1", "inner")
      .compile({ checkpointer: own });
    const graph = new StateGraph(Parent).addNode("middle", middle).addEdge(START, "middle").compile();
    const config = { configurable: { thread_id: "t" } };
    const out = await graph.invoke({ shared: [] }, config);
    expect(out).toEqual({ shared: [], __interrupt__: [{ id: expect.any(String), value: "q?" }] });
    const namespaces = new Set<string>();
    for await (const tuple of own.list({ configurable: { thread_id: "t" } }))
      namespaces.add(String(tuple.config.configurable?.checkpoint_ns).replace(/:[^|]*/g, ""));
    expect([...namespaces].sort()).toEqual(["middle", "middle|inner"]);
  });
});
