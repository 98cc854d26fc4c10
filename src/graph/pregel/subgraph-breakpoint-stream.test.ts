import { describe, expect, it } from "vitest";
import { Annotation, Command, END, interrupt, MemorySaver, START, StateGraph } from "../../index.js";

const Text = Annotation.Root({
  text: Annotation<string>({ reducer: (a, b) => a + b, default: () => "" }),
});

async function collect<T>(stream: Promise<AsyncIterable<T>>): Promise<T[]> {
  const chunks: T[] = [];
  for await (const chunk of await stream) chunks.push(chunk);
  return chunks;
}

describe("a breakpoint inside a subgraph, as streamed by the parent", () => {
  // the innermost graph stops before its second node; the middle graph only passes the stop on
  const innermost = new StateGraph(Text)
    .addNode("first", () => ({ text: "a" }))
    .addNode("second", () => ({ text: "b" }))
    .addEdge(START, "first")
    .addEdge("first", "second")
    .compile({ interruptBefore: ["second"] });
  const middle = new StateGraph(Text).addNode("deep", innermost).addEdge(START, "deep").compile();

  it("reports the empty interrupt once, from the root graph only", async () => {
    const graph = new StateGraph(Text)
      .addNode("mid", middle)
      .addEdge(START, "mid")
      .compile({ checkpointer: new MemorySaver() });
    const chunks = await collect(
      graph.stream({ text: "" }, { configurable: { thread_id: "t" }, subgraphs: true }),
    );
    expect(chunks).toEqual([
      [[expect.stringMatching(/^mid:/), expect.stringMatching(/^deep:/)], { first: { text: "a" } }],
      [[], { __interrupt__: [] }],
    ]);
  });

  it("streams the values of the step's finished siblings before the interrupt", async () => {
    const graph = new StateGraph(Text)
      .addNode("mid", middle)
      .addNode("side", () => ({ text: "s" }))
      .addEdge(START, "mid")
      .addEdge(START, "side")
      .compile({ checkpointer: new MemorySaver() });
    const chunks = await collect(
      graph.stream({ text: "" }, { configurable: { thread_id: "t" }, streamMode: "values" }),
    );
    expect(chunks).toEqual([{ text: "" }, { text: "s" }, { __interrupt__: [] }]);
  });
});

describe("a subgraph that, once resumed, stops at a static breakpoint", () => {
  it("leaves the answered interrupt in the parent's task and checkpoint, as LangGraph.js", async () => {
    const inner = new StateGraph(Text)
      .addNode("ask", () => ({ text: `a:${interrupt("q?")}` }))
      .addNode("after", () => ({ text: "b" }))
      .addEdge(START, "ask")
      .addEdge("ask", "after")
      .addEdge("after", END)
      .compile({ interruptBefore: ["after"] });
    const saver = new MemorySaver();
    const graph = new StateGraph(Text)
      .addNode("sub", inner)
      .addEdge(START, "sub")
      .compile({ checkpointer: saver });
    const config = { configurable: { thread_id: "t" } };
    const first = (await graph.invoke({ text: "" }, config)) as { __interrupt__?: unknown };
    const asked = first.__interrupt__;
    expect(asked).toEqual([{ id: expect.any(String), value: "q?" }]);
    expect(await graph.invoke(new Command({ resume: "yes" }), config)).toEqual({
      text: "",
      __interrupt__: [],
    });
    const state = await graph.getState(config, { subgraphs: true });
    expect(state.next).toEqual(["sub"]);
    // LangGraph.js 1.7.3 lists the interrupt just answered; the subgraph waits before "after"
    expect(state.tasks.map((t) => [t.name, t.interrupts])).toEqual([["sub", asked]]);
    expect((state.tasks[0]?.state as { next?: string[] } | undefined)?.next).toEqual(["after"]);
    const tuple = await saver.getTuple(config);
    expect(tuple?.pendingWrites?.map(([, channel, value]) => [channel, value])).toEqual([
      ["__resume__", "yes"],
      ["__interrupt__", asked],
    ]);
    expect(await graph.invoke(null, config)).toEqual({ text: "a:yesb" });
    expect((await graph.getState(config)).tasks).toEqual([]);
  });
});
