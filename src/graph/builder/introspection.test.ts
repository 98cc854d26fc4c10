import { afterEach, describe, expect, it, vi } from "vitest";
import { ToolNode } from "../../prebuilt/index.js";
import { Annotation, END, entrypoint, Graph, Send, START, StateGraph } from "../index.js";

const State = Annotation.Root({
  a: Annotation<string>,
  log: Annotation<string[]>({ reducer: (x, y) => x.concat(y), default: () => [] }),
});
const noop = () => ({});

/** `graph.channels` as "ClassName:channel" strings, in declaration order. */
function channelClasses(graph: { channels: Record<string, object> }): string[] {
  return Object.entries(graph.channels).map(([key, channel]) => `${channel.constructor.name}:${key}`);
}

function nodeShapes(graph: { nodes: Record<string, { triggers: readonly string[]; channels: unknown }> }) {
  return Object.fromEntries(
    Object.entries(graph.nodes).map(([name, node]) => [
      name,
      { triggers: node.triggers, channels: node.channels },
    ]),
  );
}

const HEADER = "%%{init: {'flowchart': {'curve': 'linear'}}}%%\ngraph TD;\n";
const STYLES =
  "\tclassDef default fill:#f2f0ff,line-height:1.2;\n\tclassDef first fill-opacity:0;\n\tclassDef last fill:#bfb6fc;\n";

describe("compiled graph parts", () => {
  it("has one channel per state key, the input channel, the send topic and a trigger per node", () => {
    const graph = new StateGraph(State)
      .addNode("x", noop)
      .addNode("y", noop)
      .addEdge(START, "x")
      .addEdge("x", "y")
      .addEdge("y", END)
      .compile();
    expect(channelClasses(graph)).toEqual([
      "LastValue:a",
      "BinaryOperatorAggregate:log",
      "EphemeralValue:__start__",
      "Topic:__pregel_tasks",
      "EphemeralValue:branch:to:x",
      "EphemeralValue:branch:to:y",
    ]);
    expect(nodeShapes(graph)).toEqual({
      __start__: { triggers: ["__start__"], channels: ["__start__"] },
      x: { triggers: ["branch:to:x"], channels: { a: "a", log: "log" } },
      y: { triggers: ["branch:to:y"], channels: { a: "a", log: "log" } },
    });
    expect(graph.inputChannels).toBe("__start__");
    expect(graph.outputChannels).toEqual(["a", "log"]);
    expect(graph.streamChannels).toEqual(["a", "log"]);
  });

  it("adds a barrier channel per waiting edge, which the target also listens to", () => {
    const graph = new StateGraph(State)
      .addNode("x", noop)
      .addNode("y", noop)
      .addNode("z", noop)
      .addEdge(START, "x")
      .addEdge(START, "y")
      .addEdge(["x", "y"], "z")
      .compile();
    expect(channelClasses(graph)).toContain("NamedBarrierValue:join:x+y:z");
    expect(graph.nodes.z?.triggers).toEqual(["branch:to:z", "join:x+y:z"]);
  });

  it("gives deferred nodes after-finish channels", () => {
    const graph = new StateGraph(State)
      .addNode("a1", noop)
      .addNode("a2", noop)
      .addNode("j", noop, { defer: true })
      .addEdge(START, "a1")
      .addEdge(START, "a2")
      .addEdge(["a1", "a2"], "j")
      .compile();
    expect(channelClasses(graph)).toEqual([
      "LastValue:a",
      "BinaryOperatorAggregate:log",
      "EphemeralValue:__start__",
      "Topic:__pregel_tasks",
      "EphemeralValue:branch:to:a1",
      "EphemeralValue:branch:to:a2",
      "LastValueAfterFinish:branch:to:j",
      "NamedBarrierValueAfterFinish:join:a1+a2:j",
    ]);
  });

  it("with input and output schemas, reads input keys and returns output keys", async () => {
    const Input = Annotation.Root({ q: Annotation<string> });
    const Output = Annotation.Root({ ans: Annotation<string> });
    const Full = Annotation.Root({ q: Annotation<string>, ans: Annotation<string>, tmp: Annotation<string> });
    const graph = new StateGraph({ state: Full, input: Input, output: Output })
      .addNode("x", (s) => ({ tmp: "t", ans: `${s.q}!` }))
      .addEdge(START, "x")
      .compile();
    expect(await graph.invoke({ q: "hi", tmp: "ignored" } as never)).toEqual({ ans: "hi!" });
    expect(graph.inputChannels).toBe("__start__");
    expect(graph.outputChannels).toEqual(["ans"]);
    expect(graph.streamChannels).toEqual(["q", "ans", "tmp"]);
  });

  it("with an output schema, still streams every state key in updates and values", async () => {
    const Input = Annotation.Root({ q: Annotation<string> });
    const Output = Annotation.Root({ ans: Annotation<string> });
    const Full = Annotation.Root({ q: Annotation<string>, ans: Annotation<string>, tmp: Annotation<string> });
    const graph = new StateGraph({ state: Full, input: Input, output: Output })
      .addNode("x", (s) => ({ tmp: "t", ans: `${s.q}!` }))
      .addEdge(START, "x")
      .compile();
    const updates: unknown[] = [];
    for await (const chunk of await graph.stream({ q: "hi" })) updates.push(chunk);
    expect(updates).toEqual([{ x: { tmp: "t", ans: "hi!" } }]);
    const values: unknown[] = [];
    for await (const chunk of await graph.stream({ q: "hi" }, { streamMode: "values" })) values.push(chunk);
    expect(values).toEqual([{ q: "hi" }, { q: "hi", ans: "hi!", tmp: "t" }]);
  });
});

describe("getGraph().drawMermaid()", () => {
  it("draws a chain with START and END (same text as the reference)", () => {
    const graph = new StateGraph(State)
      .addNode("x", noop)
      .addNode("y", noop)
      .addEdge(START, "x")
      .addEdge("x", "y")
      .addEdge("y", END)
      .compile();
    expect(graph.getGraph().drawMermaid()).toBe(
      `${HEADER}\t__start__([<p>__start__</p>]):::first\n\tx(x)\n\ty(y)\n\t__end__([<p>__end__</p>]):::last\n` +
        `\t__start__ --> x;\n\tx --> y;\n\ty --> __end__;\n${STYLES}`,
    );
  });

  it("lists the tools of a node that holds some (a ToolNode), as the reference draws it", () => {
    const toolsNode = {
      tools: [{ name: "search" }, { name: "get_weather" }],
      invoke: async () => ({}),
    };
    const graph = new StateGraph(State)
      .addNode("tools", toolsNode as never)
      .addEdge(START, "tools")
      .addEdge("tools", END)
      .compile();
    expect(graph.getGraph().drawMermaid()).toContain(
      "\ttools(tools<hr/><small><em>__tools = search,get_weather</em></small>)\n",
    );
  });

  it("draws a conditional edge without a path map dotted, to every node and END", () => {
    const graph = new StateGraph(State)
      .addNode("x", noop)
      .addNode("y", noop)
      .addNode("z", noop)
      .addEdge(START, "x")
      .addConditionalEdges("x", () => "y")
      .addEdge("y", END)
      .addEdge("z", END)
      .compile();
    expect(graph.getGraph().drawMermaid()).toBe(
      `${HEADER}\t__start__([<p>__start__</p>]):::first\n\tx(x)\n\ty(y)\n\tz(z)\n\t__end__([<p>__end__</p>]):::last\n` +
        `\t__start__ --> x;\n\ty --> __end__;\n\tz --> __end__;\n\tx -.-> y;\n\tx -.-> z;\n\tx -.-> __end__;\n${STYLES}`,
    );
  });

  it("draws Send fan-outs as conditional edges", () => {
    const graph = new StateGraph(State)
      .addNode("x", noop)
      .addNode("w", noop)
      .addEdge(START, "x")
      .addConditionalEdges("x", () => [new Send("w", {})])
      .addEdge("w", END)
      .compile();
    expect(graph.getGraph().drawMermaid()).toBe(
      `${HEADER}\t__start__([<p>__start__</p>]):::first\n\tx(x)\n\tw(w)\n\t__end__([<p>__end__</p>]):::last\n` +
        `\t__start__ --> x;\n\tw --> __end__;\n\tx -.-> w;\n\tx -.-> __end__;\n${STYLES}`,
    );
  });

  it("labels path-map edges and styles only a unique last node", () => {
    const graph = new StateGraph(State)
      .addNode("x", noop)
      .addNode("y", noop)
      .addEdge(START, "x")
      .addConditionalEdges("x", () => "y", { go: "y", stop: END })
      .compile();
    expect(graph.getGraph().drawMermaid()).toBe(
      `${HEADER}\t__start__([<p>__start__</p>]):::first\n\tx(x)\n\ty(y)\n\t__end__(<p>__end__</p>)\n` +
        `\t__start__ --> x;\n\tx -. &nbsp;go&nbsp; .-> y;\n\tx -. &nbsp;stop&nbsp; .-> __end__;\n${STYLES}`,
    );
  });

  it("draws ends as conditional edges", () => {
    const graph = new StateGraph(State)
      .addNode("x", noop, { ends: ["y", END] })
      .addNode("y", noop)
      .addEdge(START, "x")
      .compile();
    expect(graph.getGraph().drawMermaid()).toBe(
      `${HEADER}\t__start__([<p>__start__</p>]):::first\n\tx(x)\n\ty(y)\n\t__end__(<p>__end__</p>)\n` +
        `\t__start__ --> x;\n\tx -.-> y;\n\tx -.-> __end__;\n${STYLES}`,
    );
  });

  it("draws a waiting edge as one edge per source and ends a node without edges at END", () => {
    const graph = new StateGraph(State)
      .addNode("x", noop)
      .addNode("y", noop)
      .addNode("z", noop)
      .addEdge(START, "x")
      .addEdge(START, "y")
      .addEdge(["x", "y"], "z")
      .compile();
    expect(graph.getGraph().drawMermaid()).toBe(
      `${HEADER}\t__start__([<p>__start__</p>]):::first\n\tx(x)\n\ty(y)\n\tz(z)\n\t__end__([<p>__end__</p>]):::last\n` +
        `\t__start__ --> x;\n\t__start__ --> y;\n\tx --> z;\n\ty --> z;\n\tz --> __end__;\n${STYLES}`,
    );
  });

  it("without styles, draws only the edges", () => {
    const graph = new StateGraph(State).addNode("x", noop).addEdge(START, "x").compile();
    expect(graph.getGraph().drawMermaid({ withStyles: false })).toBe(
      "graph TD;\n\t__start__ --> x;\n\tx --> __end__;\n",
    );
  });

  it('marks the nodes interruptBefore/After name, and none for "*" (as LangGraph.js draws it)', () => {
    const build = () =>
      new StateGraph(State).addNode("x", noop).addNode("y", noop).addEdge(START, "x").addEdge("x", "y");
    const listed = build().compile({ interruptBefore: ["x", "y"], interruptAfter: ["y"] });
    expect(
      listed
        .getGraph()
        .toJSON()
        .nodes.map((node) => ("metadata" in node ? node.metadata : null)),
    ).toEqual([null, { __interrupt: "before" }, { __interrupt: "before,after" }, null]);
    const all = build().compile({ interruptBefore: "*", interruptAfter: "*" });
    expect(all.getGraph().drawMermaid()).toBe(
      `${HEADER}\t__start__([<p>__start__</p>]):::first\n\tx(x)\n\ty(y)\n\t__end__([<p>__end__</p>]):::last\n` +
        `\t__start__ --> x;\n\tx --> y;\n\ty --> __end__;\n${STYLES}`,
    );
  });

  it("quotes a node named subgraph (a Mermaid keyword), as LangGraph.js draws it", () => {
    const inner = new StateGraph(State)
      .addNode("i1", noop)
      .addNode("i2", noop)
      .addEdge(START, "i1")
      .addEdge("i1", "i2")
      .compile();
    const graph = new StateGraph(State)
      .addNode("subgraph", inner)
      .addNode("x", noop)
      .addEdge(START, "x")
      .addConditionalEdges("x", () => "subgraph", { subgraph: "subgraph", other: END })
      .compile();
    expect(Object.keys(graph.getGraph().nodes)).toEqual(["__start__", '"subgraph"', "x", "__end__"]);
    expect(graph.getGraph().drawMermaid({ withStyles: false })).toBe(
      "graph TD;\n\t__start__ --> x;\n\tx -. &nbsp;subgraph&nbsp; .-> _subgraph_;\n\tx -. &nbsp;other&nbsp; .-> __end__;\n",
    );
    expect(graph.getGraph({ xray: true }).drawMermaid({ withStyles: false })).toBe(
      "graph TD;\n\t__start__ --> x;\n\tx -. &nbsp;subgraph&nbsp; .-> _subgraph__i1;\n\tx -. &nbsp;other&nbsp; .-> __end__;\n" +
        '\tsubgraph "subgraph"\n\t_subgraph__i1 --> _subgraph__i2;\n\tend\n',
    );
  });

  it("with xray, leaves out the edges out of a subgraph that has no single last node", () => {
    const inner = new StateGraph(State)
      .addNode("d1", noop)
      .addNode("d2", noop)
      .addNode("d3", noop)
      .addEdge(START, "d1")
      .addConditionalEdges("d1", () => "d2", ["d2", "d3"])
      .compile();
    const graph = new StateGraph(State)
      .addNode("sub", inner)
      .addNode("z", noop)
      .addEdge(START, "sub")
      .addEdge("sub", "z")
      .compile();
    // as LangGraph.js draws it: no `sub → z` edge, so no `z → __end__` either
    expect(graph.getGraph({ xray: true }).drawMermaid({ withStyles: false })).toBe(
      "graph TD;\n\t__start__ --> sub_d1;\n\tsubgraph sub\n\tsub_d1 -.-> sub_d2;\n\tsub_d1 -.-> sub_d3;\n\tend\n",
    );
  });

  it("keeps conditional edges by source in an object, a node named like a number first, as LangGraph.js", () => {
    const inner = new StateGraph(State)
      .addNode("p", noop)
      .addNode("q", noop)
      .addEdge(START, "p")
      .addEdge("p", "q")
      .compile();
    const builder = new StateGraph(State)
      .addNode("r", noop)
      .addNode("2", noop)
      .addNode("sub", inner)
      .addEdge(START, "r")
      .addConditionalEdges("r", () => "2", ["2", "sub"])
      .addConditionalEdges("2", () => END, { again: "2", done: END })
      .addEdge("sub", END);
    expect(Object.keys(builder.branches)).toEqual(["2", "r"]);
    expect(Object.keys(builder.branches.r ?? {})).toEqual(["condition"]);
    const graph = builder.compile();
    expect(graph.getGraph().edges.map((e) => [e.source, e.target, e.data ?? null])).toEqual([
      ["__start__", "r", null],
      ["sub", "__end__", null],
      ["2", "2", "again"],
      ["2", "__end__", "done"],
      ["r", "2", null],
      ["r", "sub", null],
    ]);
    // the self-loop of `2` is grouped under that prefix, which comes before the subgraph's
    expect(graph.getGraph({ xray: true }).drawMermaid({ withStyles: false })).toBe(
      "graph TD;\n\t__start__ --> r;\n\tsub_q --> __end__;\n\t2 -. &nbsp;done&nbsp; .-> __end__;\n" +
        "\tr -.-> 2;\n\tr -.-> sub_p;\n\t2 -. &nbsp;again&nbsp; .-> 2;\n\tsubgraph sub\n\tsub_p --> sub_q;\n\tend\n",
    );
  });

  it("with xray, refuses a subgraph drawn without a single first node, as LangGraph.js does", () => {
    const withHandler = new StateGraph(State)
      .addNode("p", noop, { errorHandler: noop })
      .addEdge(START, "p")
      .compile();
    const graph = new StateGraph(State).addNode("inner", withHandler).addEdge(START, "inner").compile();
    expect(() => graph.getGraph({ xray: true })).toThrow(
      'Could not extend subgraph "inner" due to missing entrypoint.',
    );
    expect(graph.getGraph().drawMermaid({ withStyles: false })).toBe(
      "graph TD;\n\t__start__ --> inner;\n\tinner --> __end__;\n",
    );
  });

  it('with xray, refuses a node id drawn twice (a subgraph node named "" is not prefixed), as LangGraph.js', () => {
    const chain = new StateGraph(State)
      .addNode("x", noop)
      .addNode("y", noop)
      .addEdge(START, "x")
      .addEdge("x", "y")
      .compile();
    const clash = new StateGraph(State)
      .addNode("", chain)
      .addNode("y", noop)
      .addEdge(START, "")
      .addEdge("", "y")
      .compile();
    expect(() => clash.getGraph({ xray: true })).toThrow("Node with id y already exists");
    const loop = new StateGraph(State)
      .addNode("x", noop)
      .addEdge(START, "x")
      .addConditionalEdges("x", () => END, ["x", END])
      .compile();
    const endClash = new StateGraph(State).addNode("", loop).addEdge(START, "").addEdge("", END).compile();
    expect(() => endClash.getGraph({ xray: true })).toThrow("Node with id __end__ already exists");
  });

  it('reads interruptBefore/After "*" as a string, marking the nodes named "*" and "" (as LangGraph.js)', () => {
    const graph = new StateGraph(State)
      .addNode("", noop)
      .addNode("*", noop)
      .addNode("b", noop)
      .addEdge(START, "")
      .addEdge("", "*")
      .addEdge("*", "b")
      .compile({ interruptBefore: "*", interruptAfter: "*" });
    expect(Object.values(graph.getGraph().nodes).map((n) => [n.id, n.metadata])).toEqual([
      ["__start__", undefined],
      ["", { __interrupt: "before,after" }],
      ["*", { __interrupt: "before,after" }],
      ["b", {}],
      ["__end__", undefined],
    ]);
  });

  it("takes nodes in removeNode and addEdge, keeps an edge label as given, as LangChain.js's Graph", () => {
    const drawn = new StateGraph(State)
      .addNode("x", noop)
      .addNode("y", noop)
      .addEdge(START, "x")
      .addEdge("x", "y")
      .addEdge("y", END)
      .compile()
      .getGraph();
    const [start, x, y] = [drawn.nodes.__start__, drawn.nodes.x, drawn.nodes.y];
    if (start === undefined || x === undefined || y === undefined) throw new Error("nodes missing");
    drawn.removeNode(x);
    expect(drawn.addEdge(start, y, "y", true)).toEqual({
      source: "__start__",
      target: "y",
      data: "y",
      conditional: true,
    });
    expect(() => drawn.addEdge(y, { id: "nope" })).toThrow("Target node nope not in graph");
    expect(() => drawn.addEdge({ id: "nope" }, y)).toThrow("Source node nope not in graph");
    expect(drawn.drawMermaid({ withStyles: false })).toBe(
      "graph TD;\n\ty --> __end__;\n\t__start__ -. &nbsp;y&nbsp; .-> y;\n",
    );
  });

  it("shows node metadata under the node name", () => {
    const graph = new StateGraph(State)
      .addNode("x", noop, { metadata: { a: 1 } })
      .addEdge(START, "x")
      .compile();
    expect(graph.getGraph().drawMermaid()).toBe(
      `${HEADER}\t__start__([<p>__start__</p>]):::first\n\tx(x<hr/><small><em>a = 1</em></small>)\n` +
        `\t__end__([<p>__end__</p>]):::last\n\t__start__ --> x;\n\tx --> __end__;\n${STYLES}`,
    );
  });
});

describe("getGraph().toJSON() node data", () => {
  const dataOf = (graph: { getGraph(): { toJSON(): { nodes: { id: string | number; data: unknown }[] } } }) =>
    Object.fromEntries(
      graph
        .getGraph()
        .toJSON()
        .nodes.map((node) => [node.id, node.data]),
    );

  it('draws an entrypoint named "Runnable…" without that prefix, as LangChain.js names runnables', () => {
    const ep = entrypoint("RunnableWorkflow", async (x: unknown) => x);
    expect(Object.values(ep.getGraph().nodes).map((n) => n.name)).toEqual([
      "RunnableWorkflowInput",
      "Workflow",
      "RunnableWorkflowOutput",
    ]);
    expect(ep.getGraph().drawMermaid({ withStyles: false })).toBe(
      "graph TD;\n\tRunnableWorkflowInput --> Workflow;\n\tWorkflow --> RunnableWorkflowOutput;\n",
    );
  });

  it("names each node's runnable as LangGraph.js does: functions, ToolNodes and graphs", () => {
    const inner = new StateGraph(State).addNode("i", noop).addEdge(START, "i").compile();
    const named = new StateGraph(State).addNode("i", noop).addEdge(START, "i").compile({ name: "inner" });
    const ep = entrypoint("ep", async (x: unknown) => x);
    const graph = new StateGraph(State)
      .addNode("fn", noop)
      .addNode("tools", new ToolNode([]))
      .addNode("named_tools", new ToolNode([], { name: "runner" }))
      .addNode("sub", inner)
      .addNode("named", named)
      .addNode("ep", ep)
      .addEdge(START, "fn")
      .addEdge("fn", "tools")
      .addEdge("tools", "named_tools")
      .addEdge("named_tools", "sub")
      .addEdge("sub", "named")
      .addEdge("named", "ep")
      .compile();
    const data = dataOf(graph);
    expect(data.fn).toEqual({ id: ["langgraph", "RunnableCallable"], name: "fn" });
    expect(data.tools).toEqual({ id: ["langgraph", "ToolNode"], name: "func" });
    expect(data.named_tools).toEqual({ id: ["langgraph", "ToolNode"], name: "runner" });
    expect(data.sub).toEqual({ id: ["langgraph", "pregel", "CompiledStateGraph"], name: "LangGraph" });
    expect(data.named).toEqual({ id: ["langgraph", "pregel", "CompiledStateGraph"], name: "inner" });
    expect(data.ep).toEqual({ id: ["langgraph", "pregel", "LangGraph"], name: "ep" });
  });

  it("gives every node of a StateGraph its metadata, {} when it has none, as LangGraph.js does", () => {
    const graph = new StateGraph(State)
      .addNode("x", noop)
      .addNode("y", noop, { metadata: { a: 1 } })
      .addEdge(START, "x")
      .addEdge("x", "y")
      .compile();
    const drawn = graph.getGraph();
    expect(drawn.nodes.x?.metadata).toEqual({});
    expect(drawn.nodes.y?.metadata).toEqual({ a: 1 });
    expect(drawn.nodes.__start__?.metadata).toBeUndefined();
    expect(drawn.toJSON().nodes.map((node) => ("metadata" in node ? node.metadata : "none"))).toEqual([
      "none",
      {},
      { a: 1 },
      "none",
    ]);
  });

  it("draws a Graph's function nodes as the RunnableLambda LangGraph.js wraps them in", () => {
    const inner = new Graph()
      .addNode("x", (v: unknown) => v)
      .addEdge(START, "x")
      .compile();
    const graph = new Graph()
      .addNode("a", (v: unknown) => v)
      .addNode("g", inner)
      .addEdge(START, "a")
      .addEdge("a", "g")
      .compile();
    expect(dataOf(graph).a).toEqual({
      id: ["langchain_core", "runnables", "RunnableLambda"],
      name: "RunnableLambda",
    });
    const outer = new StateGraph(State).addNode("g", graph).addEdge(START, "g").compile();
    expect(dataOf(outer).g).toEqual({ id: ["langgraph", "pregel", "CompiledGraph"], name: "LangGraph" });
  });
});

describe("getGraph().drawMermaidPng()", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("asks Mermaid.INK for the drawing as a PNG, as LangChain.js does", async () => {
    const urls: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      urls.push(url);
      return new Response(new Uint8Array([1, 2, 3]));
    });
    const drawn = new StateGraph(State).addNode("n", noop).addEdge(START, "n").compile().getGraph();
    const image = await drawn.drawMermaidPng({ backgroundColor: "#fff", withStyles: false });
    expect(image).toBeInstanceOf(Blob);
    expect(image.size).toBe(3);
    await drawn.drawMermaidPng();
    expect(urls[0]).toBe(
      "https://mermaid.ink/img/Z3JhcGggVEQ7CglfX3N0YXJ0X18gLS0-IG47CgluIC0tPiBfX2VuZF9fOwo?bgColor=#fff&type=png",
    );
    expect(urls[1]).toMatch(/^https:\/\/mermaid\.ink\/img\/JSV7aW5pdDog[\w-]+\?bgColor=!white&type=png$/);
  });

  it("throws LangChain.js's error when the service fails", async () => {
    vi.stubGlobal("fetch", async () => new Response("x", { status: 503, statusText: "Service Unavailable" }));
    const drawn = new StateGraph(State).addNode("n", noop).addEdge(START, "n").compile().getGraph();
    await expect(drawn.drawMermaidPng()).rejects.toThrow(
      "Failed to render the graph using the Mermaid.INK API.\nStatus code: 503\nStatus text: Service Unavailable",
    );
  });
});

describe("a compiled graph's default stream modes", () => {
  it("are a list, as LangGraph.js's streamMode", () => {
    const graph = new StateGraph(State).addNode("x", noop).addEdge(START, "x").compile();
    expect(graph.streamMode).toEqual(["updates"]);
    expect(new Graph().addNode("x", noop).addEdge(START, "x").compile().streamMode).toEqual(["values"]);
    expect(entrypoint("ep", async (x: unknown) => x).streamMode).toEqual(["updates"]);
  });
});

describe("a compiled graph's name", () => {
  it("is the name compile() was given, undefined without one, as in LangGraph.js; getName() falls back", () => {
    const builder = () =>
      new StateGraph(Annotation.Root({ v: Annotation<number> })).addNode("a", () => ({})).addEdge(START, "a");
    const unnamed = builder().compile();
    expect(unnamed.name).toBeUndefined();
    expect(unnamed.getName()).toBe("LangGraph");
    const named = builder().compile({ name: "planner" });
    expect([named.name, named.getName()]).toEqual(["planner", "planner"]);
  });
});
