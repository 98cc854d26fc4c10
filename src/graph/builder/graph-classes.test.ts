import { describe, expect, it } from "vitest";
import {
  CompiledGraph,
  END,
  Graph,
  InvalidGraphError,
  MemorySaver,
  MessageGraph,
  MessagesAnnotation,
  START,
  StateGraph,
  UnreachableNodeError,
} from "../../index.js";
import { AIMessage, type BaseMessage, HumanMessage } from "../../messages/index.js";

async function collect(stream: Promise<AsyncIterable<unknown>>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const chunk of await stream) out.push(chunk);
  return out;
}

function chain() {
  return new Graph()
    .addNode("a", (x: unknown) => (x as number) + 1)
    .addNode("b", (x: unknown) => (x as number) * 10)
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", END)
    .compile();
}

describe("Graph (each node receives the previous node's output)", () => {
  it("invoke returns the output of the node with an edge to END", async () => {
    const graph = chain();
    expect(graph).toBeInstanceOf(CompiledGraph);
    expect(await graph.invoke(1)).toBe(20);
  });

  it("streams { node: output } values by default and { node: { node: output } } updates", async () => {
    const graph = chain();
    expect(await collect(graph.stream(1))).toEqual([{ a: 2 }, { b: 20 }]);
    expect(await collect(graph.stream(1, { streamMode: "values" }))).toEqual([{ a: 2 }, { b: 20 }]);
    expect(await collect(graph.stream(1, { streamMode: "updates" }))).toEqual([
      { a: { a: 2 } },
      { b: { b: 20 } },
    ]);
    expect(await collect(graph.stream(1, { streamMode: ["values", "updates"] }))).toEqual([
      ["updates", { a: { a: 2 } }],
      ["values", { a: 2 }],
      ["updates", { b: { b: 20 } }],
      ["values", { b: 20 }],
    ]);
  });

  it("has one channel per node, fed by the edges into it", () => {
    const graph = chain();
    expect(Object.keys(graph.channels).sort()).toEqual(["__end__", "__pregel_tasks", "__start__", "a", "b"]);
    expect(graph.nodes.b?.triggers).toEqual(["a"]);
    expect(graph.nodes.b?.channels).toEqual(["a"]);
    expect(graph.inputChannels).toBe("__start__");
    expect(graph.outputChannels).toBe("__end__");
    expect(graph.streamChannels).toEqual(["a", "b"]);
    expect(graph.getName()).toBe("LangGraph");
    // as in LangGraph.js, `name` is what compile() was given; getName() falls back to "LangGraph"
    expect(graph.name).toBeUndefined();
  });

  it("setEntryPoint / setFinishPoint; no finish point returns undefined", async () => {
    const g = new Graph().addNode("a", (x: unknown) => (x as number) * 2).setEntryPoint("a");
    expect(await g.compile().invoke(4)).toBeUndefined();
    g.compiled = false;
    expect(await g.setFinishPoint("a").compile().invoke(4)).toBe(8);
  });

  it("conditional edges route on the source's output (see docs/differences.md)", async () => {
    const graph = new Graph()
      .addNode("a", (x: unknown) => `${x}a`)
      .addNode("b", (x: unknown) => `${x}b`)
      .addEdge(START, "a")
      .addConditionalEdges("a", (x) => ((x as string).length > 3 ? "done" : "again"), {
        again: "b",
        done: END,
      })
      .addEdge("b", "a")
      .compile();
    expect(await graph.invoke("x")).toBe("xaba");
    expect(graph.getGraph().drawMermaid()).toContain(
      "\ta -. &nbsp;again&nbsp; .-> b;\n\ta -. &nbsp;done&nbsp; .-> __end__;",
    );
  });

  it("pauses and resumes with a checkpointer; the state is the node channels", async () => {
    const graph = new Graph()
      .addNode("a", (x: unknown) => (x as number) + 1)
      .addNode("b", (x: unknown) => (x as number) * 2)
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ["b"] });
    const config = { configurable: { thread_id: "t" } };
    expect(await graph.invoke(3, config)).toEqual({ __interrupt__: [] });
    const paused = await graph.getState(config);
    expect(paused.values).toEqual({ a: 4 });
    expect(paused.next).toEqual(["b"]);
    expect(await graph.invoke(null, config)).toBe(8);
    expect((await graph.getState(config)).values).toEqual({ b: 8 });
  });

  it("keeps no subgraphs option: only a node that is a compiled graph is a subgraph (as LangGraph.js)", () => {
    const inner = new StateGraph(MessagesAnnotation)
      .addNode("p", () => ({}))
      .addNode("q", () => ({}))
      .addEdge(START, "p")
      .addEdge("p", "q")
      .compile();
    const graph = new Graph()
      .addNode("a", (x: unknown) => x, { subgraphs: [inner] })
      .addNode("b", inner)
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    expect([...graph.getSubgraphs()].map(([name]) => name)).toEqual(["b"]);
    expect(graph.getGraph({ xray: true }).drawMermaid({ withStyles: false })).toBe(
      "graph TD;\n\t__start__ --> a;\n\ta --> b_p;\n\tb_q --> __end__;\n\tsubgraph b\n\tb_p --> b_q;\n\tend\n",
    );
  });

  it("adds the START node of a conditional entry after the graph's nodes, as LangGraph.js", () => {
    const graph = new Graph<typeof START | typeof END, number, number>()
      .addNode("a", (x: number) => x + 1)
      .addNode("b", (x: number) => x * 2)
      .addConditionalEdges(START, (x: number) => (x > 0 ? "a" : "b"), ["a", "b"])
      .addEdge("a", END)
      .addEdge("b", END)
      .compile();
    expect(Object.keys(graph.nodes)).toEqual(["a", "b", "__start__"]);
  });

  it("draws as the reference does", () => {
    expect(chain().getGraph().drawMermaid()).toBe(
      "%%{init: {'flowchart': {'curve': 'linear'}}}%%\ngraph TD;\n\t__start__([<p>__start__</p>]):::first\n\ta(a)\n\tb(b)\n\t__end__([<p>__end__</p>]):::last\n\t__start__ --> a;\n\ta --> b;\n\tb --> __end__;\n\tclassDef default fill:#f2f0ff,line-height:1.2;\n\tclassDef first fill-opacity:0;\n\tclassDef last fill:#bfb6fc;\n",
    );
  });

  it("rejects malformed graphs with LangGraph.js's messages", () => {
    const id = (x: unknown) => x;
    expect(() => new Graph().addNode("a", id).addNode("b", id).addEdge("a", "b").addEdge("a", END)).toThrow(
      "Already found path for a. For multiple edges, use StateGraph.",
    );
    expect(() => new Graph().addNode("a", id).addNode("a", id)).toThrow("Node `a` already present.");
    expect(() => new Graph().addNode(END, id)).toThrow("Node `__end__` is reserved.");
    expect(() => new Graph().addNode("a|b", id)).toThrow('"|" is a reserved character');
    expect(() => new Graph().addEdge(END as never, "a" as never)).toThrow("END cannot be a start node");
    expect(() => new Graph().addEdge("a" as never, START as never)).toThrow("START cannot be an end node");
    expect(() => new Graph().addEdge(START, END).compile()).toThrow("Cannot have an edge from START to END");
    expect(() =>
      new Graph()
        .addNode("a", id)
        .addEdge("zz" as never, "a")
        .compile(),
    ).toThrow("Found edge starting at unknown node `zz`");
    expect(() => new Graph().addNode("a", id).compile()).toThrow(UnreachableNodeError);
    expect(() =>
      new Graph()
        .addNode("a", id)
        .addEdge(START, "a")
        .addEdge("a", "zz" as never)
        .compile(),
    ).toThrow("Found edge ending at unknown node `zz`");
    expect(() =>
      new Graph()
        .addNode("a", id)
        .addEdge(START, "a")
        .compile({ interruptBefore: ["q" as never] }),
    ).toThrow("Interrupt node `q` is not present");
    expect(() => new Graph().compile()).toThrow(InvalidGraphError);
    expect(() => new Graph().compile()).toThrow("Input channel __start__ is not subscribed to by any node");
  });
});

describe("MessageGraph (deprecated: the state is a message list)", () => {
  const summary = (messages: unknown) =>
    (messages as BaseMessage[]).map((m) => [m.getType(), m.content, m.id]);
  function build(checkpointer?: MemorySaver) {
    return new MessageGraph()
      .addNode("a", () => new AIMessage({ content: "from a", id: "a1" }))
      .addNode("b", () => [
        new AIMessage({ content: "b1", id: "b1" }),
        { role: "user", content: "b2", id: "b2" },
      ])
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile(checkpointer === undefined ? {} : { checkpointer });
  }
  const expected = [
    ["human", "hi", "h1"],
    ["ai", "from a", "a1"],
    ["ai", "b1", "b1"],
    ["human", "b2", "b2"],
  ];

  it("is a StateGraph whose nodes receive and extend the message list", async () => {
    expect(new MessageGraph()).toBeInstanceOf(StateGraph);
    const seen: unknown[] = [];
    const graph = new MessageGraph()
      .addNode("a", (messages) => {
        seen.push(summary(messages));
        return new AIMessage({ content: "ok", id: "x" });
      })
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    expect(summary(await graph.invoke([new HumanMessage({ content: "hi", id: "h1" })]))).toEqual([
      ["human", "hi", "h1"],
      ["ai", "ok", "x"],
    ]);
    expect(seen).toEqual([[["human", "hi", "h1"]]]);
    expect(summary(await build().invoke([new HumanMessage({ content: "hi", id: "h1" })]))).toEqual(expected);
    expect(summary(await build().invoke({ role: "user", content: "hi", id: "h1" } as never))).toEqual(
      expected,
    );
  });

  it("streams the returned value as the update and the list as the values", async () => {
    const input = [new HumanMessage({ content: "hi", id: "h1" })];
    const updates = (await collect(build().stream(input))) as Record<string, unknown>[];
    expect(Object.keys(updates[0] ?? {})).toEqual(["a"]);
    expect((updates[0]?.a as BaseMessage | undefined)?.content).toBe("from a");
    expect((updates[1]?.b as unknown[] | undefined)?.[1]).toEqual({ role: "user", content: "b2", id: "b2" });
    const values = await collect(build().stream(input, { streamMode: "values" }));
    expect(values.map(summary)).toEqual([expected.slice(0, 1), expected.slice(0, 2), expected]);
  });

  it("replaces a message with the same id; routers read the list", async () => {
    const replaced = new MessageGraph()
      .addNode("a", () => new AIMessage({ content: "replaced", id: "h1" }))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    expect(summary(await replaced.invoke([new HumanMessage({ content: "hi", id: "h1" })]))).toEqual([
      ["ai", "replaced", "h1"],
    ]);
    const loop = new MessageGraph()
      .addNode("a", (m) => new AIMessage({ content: `n${m.length}`, id: `x${m.length}` }))
      .addEdge(START, "a")
      .addConditionalEdges("a", (m) => (m.length >= 4 ? END : "a"))
      .compile();
    expect(summary(await loop.invoke([new HumanMessage({ content: "q", id: "q" })]))).toEqual([
      ["human", "q", "q"],
      ["ai", "n1", "x1"],
      ["ai", "n2", "x2"],
      ["ai", "n3", "x3"],
    ]);
    expect(loop.outputChannels).toBe("__root__");
  });

  it("keeps the list across runs of a thread", async () => {
    const graph = build(new MemorySaver());
    const config = { configurable: { thread_id: "1" } };
    await graph.invoke([new HumanMessage({ content: "hi", id: "h1" })], config);
    const second = await graph.invoke([new HumanMessage({ content: "again", id: "h2" })], config);
    expect(summary(second)).toEqual([...expected, ["human", "again", "h2"]]);
    expect(summary((await graph.getState(config)).values)).toEqual([...expected, ["human", "again", "h2"]]);
  });
});
