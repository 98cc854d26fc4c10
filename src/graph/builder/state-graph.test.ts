import { describe, expect, expectTypeOf, it, vi } from "vitest";
import { Annotation, Command, END, MemorySaver, Send, START, StateGraph } from "../index.js";

const State = Annotation.Root({
  a: Annotation<string>,
  log: Annotation<string[]>({ reducer: (x, y) => x.concat(y), default: () => [] }),
});

async function collect<T>(stream: Promise<AsyncIterable<T>>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of await stream) out.push(chunk);
  return out;
}

describe("addNode forms", () => {
  it("rejects an empty object, an empty list or a bare function as providing no nodes", () => {
    const builder = new StateGraph(State);
    const message = /^No nodes provided in `addNode`/;
    expect(() => builder.addNode({})).toThrow(message);
    expect(() => builder.addNode([])).toThrow(message);
    expect(() => builder.addNode((() => ({})) as never)).toThrow(message);
    expect(Object.keys(builder.nodes)).toEqual([]);
  });

  it("runs sync and async functions, streaming one update per node", async () => {
    const graph = new StateGraph(State)
      .addNode("one", () => ({ log: ["one"] }))
      .addNode("two", async () => ({ log: ["two"] }))
      .addEdge(START, "one")
      .addEdge("one", "two")
      .addEdge("two", END)
      .compile();
    expect(await graph.invoke({ a: "x" })).toEqual({ a: "x", log: ["one", "two"] });
    expect(await collect(graph.stream({ a: "x" }))).toEqual([
      { one: { log: ["one"] } },
      { two: { log: ["two"] } },
    ]);
  });

  it("accepts an object of nodes", async () => {
    const graph = new StateGraph(State)
      .addNode({ one: () => ({ log: ["1"] }), two: () => ({ log: ["2"] }) })
      .addEdge(START, "one")
      .addEdge(START, "two")
      .compile();
    expect(await graph.invoke({ a: "x" })).toEqual({ a: "x", log: ["1", "2"] });
  });

  it("accepts a list of [name, fn, options] entries", async () => {
    let seen: unknown;
    const graph = new StateGraph(State)
      .addNode([
        ["one", () => ({ log: ["1"] })],
        [
          "two",
          (_s, config) => {
            seen = config.metadata?.kind;
            return { log: ["2"] };
          },
          { metadata: { kind: "second" } },
        ],
      ])
      .addEdge(START, "one")
      .addEdge("one", "two")
      .compile();
    expect(await graph.invoke({ a: "x" })).toEqual({ a: "x", log: ["1", "2"] });
    expect(Object.keys(graph.nodes)).toEqual(["__start__", "one", "two"]);
    expect(seen).toBe("second");
  });

  it("treats null and undefined returns as empty updates", async () => {
    const graph = new StateGraph(State)
      .addNode("one", () => null)
      .addNode("two", () => undefined)
      .addEdge(START, "one")
      .addEdge("one", "two")
      .compile();
    expect(await graph.invoke({ a: "q" })).toEqual({ a: "q", log: [] });
    expect(await collect(graph.stream({ a: "q" }))).toEqual([{ one: {} }, { two: {} }]);
  });

  it("drops returned keys that are not in the state", async () => {
    const graph = new StateGraph(State)
      .addNode("one", () => ({ a: "b", zz: 1 }) as never)
      .addEdge(START, "one")
      .compile();
    expect(await graph.invoke({ a: "q", yy: 2 } as never)).toEqual({ a: "b", log: [] });
    expect(await collect(graph.stream({ a: "q" }))).toEqual([{ one: { a: "b" } }]);
  });

  it("passes the node only the keys of its input schema", async () => {
    const Input = Annotation.Root({ a: Annotation<string> });
    const seen: unknown[] = [];
    const graph = new StateGraph(State)
      .addNode(
        "x",
        (s) => {
          seen.push(s);
          return { log: ["x"] };
        },
        { input: Input },
      )
      .addNode("y", (s) => {
        seen.push(s);
        return {};
      })
      .addEdge(START, "x")
      .addEdge("x", "y")
      .compile();
    await graph.invoke({ a: "A" });
    expect(seen).toEqual([{ a: "A" }, { a: "A", log: ["x"] }]);
    expect(graph.nodes.x?.channels).toEqual({ a: "a" });
  });

  it("keeps keys that only a node's input schema declares out of the graph's input and output", async () => {
    // Reference: the extra key gets a channel, but the graph's input and output stay the state schema.
    const Input = Annotation.Root({ a: Annotation<string>, extra: Annotation<number> });
    const graph = new StateGraph(State)
      .addNode("x", () => ({ log: ["x"], extra: 5 }) as never, { input: Input })
      .addEdge(START, "x")
      .compile();
    expect(Object.keys(graph.channels)).toContain("extra");
    expect(await graph.invoke({ a: "A", extra: 1 } as never)).toEqual({ a: "A", log: ["x"] });
    expect(graph.outputChannels).toEqual(["a", "log"]);
  });
});

describe("edges", () => {
  it("setEntryPoint and setFinishPoint are edges from START and to END", async () => {
    const graph = new StateGraph(State)
      .addNode("one", () => ({ log: ["1"] }))
      .setEntryPoint("one")
      .setFinishPoint("one")
      .compile();
    expect(await graph.invoke({ a: "q" })).toEqual({ a: "q", log: ["1"] });
  });

  it("a waiting edge runs the target once, after all its sources finished", async () => {
    const graph = new StateGraph(State)
      .addNode("a1", () => ({ log: ["a1"] }))
      .addNode("a2", () => ({ log: ["a2"] }))
      .addNode("a3", () => ({ log: ["a3"] }))
      .addNode("j", (s) => ({ log: [`j:${s.log.join(",")}`] }))
      .addEdge(START, "a1")
      .addEdge(START, "a2")
      .addEdge("a2", "a3")
      .addEdge(["a1", "a3"], "j")
      .compile();
    expect(await graph.invoke({ a: "q" })).toEqual({ a: "q", log: ["a1", "a2", "a3", "j:a1,a2,a3"] });
    expect(await collect(graph.stream({ a: "q" }))).toEqual([
      { a1: { log: ["a1"] } },
      { a2: { log: ["a2"] } },
      { a3: { log: ["a3"] } },
      { j: { log: ["j:a1,a2,a3"] } },
    ]);
  });

  it("plain edges from branches of different lengths run the target once per branch", async () => {
    const graph = new StateGraph(State)
      .addNode("a1", () => ({ log: ["a1"] }))
      .addNode("a2", () => ({ log: ["a2"] }))
      .addNode("a3", () => ({ log: ["a3"] }))
      .addNode("j", () => ({ log: ["j"] }))
      .addEdge(START, "a1")
      .addEdge(START, "a2")
      .addEdge("a2", "a3")
      .addEdge("a1", "j")
      .addEdge("a3", "j")
      .compile();
    expect((await graph.invoke({ a: "q" })).log).toEqual(["a1", "a2", "a3", "j", "j"]);
  });

  it("a deferred node waits until nothing else is pending and runs once", async () => {
    for (const join of [false, true]) {
      let builder = new StateGraph(State)
        .addNode("a1", () => ({ log: ["a1"] }))
        .addNode("a2", () => ({ log: ["a2"] }))
        .addNode("a3", () => ({ log: ["a3"] }))
        .addNode("j", () => ({ log: ["j"] }), { defer: true })
        .addEdge(START, "a1")
        .addEdge(START, "a2")
        .addEdge("a2", "a3");
      builder = join ? builder.addEdge(["a1", "a3"], "j") : builder.addEdge("a1", "j").addEdge("a3", "j");
      const graph = builder.compile();
      expect((await graph.invoke({ a: "q" })).log).toEqual(["a1", "a2", "a3", "j"]);
    }
  });

  it("a deferred node also waits for pending Sends (deliberate: the reference runs it earlier)", async () => {
    const graph = new StateGraph(State)
      .addNode("start", () => ({ log: ["start"] }))
      .addNode("w", ((arg: { k: number }) =>
        arg.k < 3
          ? new Command({ update: { log: [`w${arg.k}`] }, goto: new Send("w", { k: arg.k + 1 }) })
          : { log: [`w${arg.k}`] }) as never)
      .addNode("d", (s) => ({ log: [`d:${s.log.join(",")}`] }), { defer: true })
      .addEdge(START, "start")
      .addConditionalEdges("start", () => [new Send("w", { k: 1 }), "d"])
      .compile();
    expect((await graph.invoke({ a: "" })).log).toEqual(["start", "w1", "w2", "w3", "d:start,w1,w2,w3"]);
  });

  it("a self-loop with a conditional exit loops until the router says END", async () => {
    const Counter = Annotation.Root({ n: Annotation<number> });
    const graph = new StateGraph(Counter)
      .addNode("inc", (s) => ({ n: s.n + 1 }))
      .addEdge(START, "inc")
      .addConditionalEdges("inc", (s) => (s.n < 5 ? "inc" : END))
      .compile();
    expect(await graph.invoke({ n: 0 })).toEqual({ n: 5 });
  });
});

describe("addSequence", () => {
  it("chains a list of [name, fn] entries", async () => {
    const graph = new StateGraph(State)
      .addSequence([
        ["s1", () => ({ log: ["s1"] })],
        ["s2", () => ({ log: ["s2"] })],
      ])
      .addEdge(START, "s1")
      .compile();
    expect(await graph.invoke({ a: "q" })).toEqual({ a: "q", log: ["s1", "s2"] });
    expect(await collect(graph.stream({ a: "q" }))).toEqual([
      { s1: { log: ["s1"] } },
      { s2: { log: ["s2"] } },
    ]);
  });

  it("chains an object of nodes in key order", async () => {
    const graph = new StateGraph(State)
      .addSequence({ s1: () => ({ log: ["s1"] }), s2: () => ({ log: ["s2"] }) })
      .addEdge(START, "s1")
      .compile();
    expect((await graph.invoke({ a: "q" })).log).toEqual(["s1", "s2"]);
  });

  it("shows its nodes and edges on the builder as LangGraph.js does (nodes by name, edges as a Set)", () => {
    const builder = new StateGraph(State)
      .addSequence({ s1: () => ({ log: ["s1"] }), s2: () => ({ log: ["s2"] }) })
      .addNode("s3", () => ({}))
      .addEdge(START, "s1")
      .addEdge(["s1", "s2"], "s3");
    expect(Object.keys(builder.nodes)).toEqual(["s1", "s2", "s3"]);
    expect(builder.nodes.s2?.defer).toBe(false);
    expect(builder.edges).toEqual(
      new Set([
        ["s1", "s2"],
        [START, "s1"],
      ]),
    );
    expect(builder.waitingEdges).toEqual(new Set([[["s1", "s2"], "s3"]]));
  });

  it("rejects an empty sequence with the reference message", () => {
    expect(() => new StateGraph(State).addSequence([])).toThrow(/^Sequence requires at least one node\./);
  });

  it("rejects duplicate names with the reference message", () => {
    expect(() =>
      new StateGraph(State).addSequence([
        ["s1", () => ({})],
        ["s1", () => ({})],
      ]),
    ).toThrow(/^Node names must be unique: node with the name "s1" already exists\./);
  });

  it("rejects a name the graph already has with the same message, adding nothing", () => {
    const builder = new StateGraph(State).addNode("s1", () => ({}));
    expect(() =>
      builder.addSequence([
        ["s0", () => ({})],
        ["s1", () => ({})],
      ]),
    ).toThrow(/^Node names must be unique: node with the name "s1" already exists\./);
    expect(Object.keys(builder.nodes)).toEqual(["s1"]);
  });

  it("checks each name in order: a state key named twice is reported as a state key", () => {
    const attempt = () =>
      new StateGraph(State).addSequence([
        ["log", () => ({})],
        ["log", () => ({})],
      ]);
    expect(attempt).toThrow(/^log is already being used as a state attribute \(a\.k\.a\. a channel\)/);
  });
});

describe("compiling twice", () => {
  it("warns when a node is added to a graph that was already compiled", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const builder = new StateGraph(State).addNode("x", () => ({})).addEdge(START, "x");
      builder.compile();
      builder.addNode("y", () => ({}));
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(
        /^Adding a node to a graph that has already been compiled\. This will not be reflected in the compiled graph\./,
      );
    } finally {
      warn.mockRestore();
    }
  });

  it("each compiled graph keeps the nodes it was compiled with", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const builder = new StateGraph(State).addNode("x", () => ({ log: ["x"] })).addEdge(START, "x");
      const first = builder.compile();
      builder.addNode("y", () => ({ log: ["y"] })).addEdge("x", "y");
      const second = builder.compile();
      expect((await first.invoke({ a: "" })).log).toEqual(["x"]);
      expect((await second.invoke({ a: "" })).log).toEqual(["x", "y"]);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("StateGraph state snapshots", () => {
  it("types getState's and getStateHistory's values as the graph's state", async () => {
    const State = Annotation.Root({
      count: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
      label: Annotation<string>,
    });
    const graph = new StateGraph(State)
      .addNode("bump", () => ({ count: 2, label: "bumped" }))
      .addEdge(START, "bump")
      .addEdge("bump", END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "typed" } };
    await graph.invoke({ count: 1 }, config);
    const snapshot = await graph.getState(config);
    expectTypeOf(snapshot.values.count).toEqualTypeOf<number>();
    expectTypeOf(snapshot.values.label).toEqualTypeOf<string>();
    expect(snapshot.values).toEqual({ count: 3, label: "bumped" });
    const counts: number[] = [];
    for await (const past of graph.getStateHistory(config)) counts.push(past.values.count ?? 0);
    expect(counts).toEqual([3, 1, 0]);
    // @ts-expect-error not a key of this graph's state
    void snapshot.values.missing;
  });
});

describe("setNodeDefaults and allEdges", () => {
  const State = Annotation.Root({ n: Annotation<number> });

  it("gives nodes without their own policy the default retry policy", async () => {
    let calls = 0;
    let ownCalls = 0;
    const graph = new StateGraph(State)
      .addNode("flaky", () => {
        calls += 1;
        if (calls < 3) throw new Error("try again");
        return { n: calls };
      })
      .addNode(
        "own",
        () => {
          ownCalls += 1;
          if (ownCalls < 2) throw new Error("once more");
          return {};
        },
        { retryPolicy: { maxAttempts: 2, initialInterval: 1, jitter: false, retryOn: () => true } },
      )
      .addEdge(START, "flaky")
      .addEdge("flaky", "own")
      .setNodeDefaults({
        retryPolicy: { maxAttempts: 3, initialInterval: 1, jitter: false, retryOn: () => true },
      })
      .compile();
    expect(await graph.invoke({ n: 0 })).toEqual({ n: 3 });
    expect([calls, ownCalls]).toEqual([3, 2]);
    expect(() => new StateGraph(State).setNodeDefaults({ timeout: 0 })).toThrow(
      "runTimeout must be greater than 0",
    );
  });

  it("lists static and waiting edges", () => {
    const graph = new StateGraph(State)
      .addNode("a", () => ({}))
      .addNode("b", () => ({}))
      .addNode("c", () => ({}))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .addEdge(["a", "b"], "c");
    expect([...graph.allEdges]).toEqual([
      [START, "a"],
      [START, "b"],
      ["a", "c"],
      ["b", "c"],
    ]);
  });
});
