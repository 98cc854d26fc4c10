import { describe, expect, it } from "vitest";
import { Annotation, MemorySaver, START, StateGraph } from "../../index.js";

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
