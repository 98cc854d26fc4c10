/**
 * A subgraph node beside a sibling that awaits for a while: where the sibling's chunks fall among
 * the subgraph's depends on how many microtask turns the nested run takes to start. The expected
 * sequences are what LangGraph.js 1.7.3 streamed for the same program.
 */
import { describe, expect, it } from "vitest";
import { Annotation, MemorySaver, START, StateGraph, type StreamMode } from "../../index.js";

const State = Annotation.Root({
  out: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await undefined;
}

/** The chunks of a run where the sibling `n` awaits `wait` turns, one line each. */
async function streamed(wait: number, streamMode: StreamMode[]): Promise<string[]> {
  const child = new StateGraph(State)
    .addNode("x", (_state, config) => {
      config.writer?.({ x: 1 });
      return { out: ["x"] };
    })
    .addEdge(START, "x")
    .compile();
  const graph = new StateGraph(State)
    .addNode("n", async (_state, config) => {
      await turns(wait);
      config.writer?.({ n: 1 });
      return { out: ["n"] };
    })
    .addNode("child", child)
    .addEdge(START, "n")
    .addEdge(START, "child")
    .compile({ checkpointer: new MemorySaver() });
  const lines: string[] = [];
  const stream = await graph.stream(
    { out: [] },
    { configurable: { thread_id: "t" }, streamMode, subgraphs: true },
  );
  for await (const [ns, mode, chunk] of stream as AsyncIterable<
    [string[], string, Record<string, unknown>]
  >) {
    const where = ns.length > 0 ? "child" : "-";
    const what =
      mode === "values"
        ? JSON.stringify(chunk.out)
        : mode === "updates"
          ? Object.keys(chunk).join(",")
          : JSON.stringify(chunk);
    lines.push(`${where} ${mode} ${what}`);
  }
  return lines;
}

describe("a subgraph beside a sibling that awaits", () => {
  it("streams a sibling that finishes within 20 turns before the subgraph's chunks", async () => {
    expect(await streamed(20, ["updates", "custom"])).toEqual([
      '- custom {"n":1}',
      "- updates n",
      'child custom {"x":1}',
      "child updates x",
      "- updates child",
    ]);
  });

  it("interleaves a sibling that waited 60 turns with the subgraph's first node", async () => {
    expect(await streamed(60, ["updates", "custom"])).toEqual([
      '- custom {"n":1}',
      'child custom {"x":1}',
      "- updates n",
      "child updates x",
      "- updates child",
    ]);
  });

  it("streams the subgraph's first node before a sibling that waited 100 turns", async () => {
    expect(await streamed(100, ["updates", "custom"])).toEqual([
      'child custom {"x":1}',
      '- custom {"n":1}',
      "child updates x",
      "- updates n",
      "- updates child",
    ]);
  });

  it("streams the subgraph's input values and first node before a sibling that waited 110 turns", async () => {
    expect(await streamed(110, ["values", "custom"])).toEqual([
      "- values []",
      "child values []",
      'child custom {"x":1}',
      '- custom {"n":1}',
      'child values ["x"]',
      '- values ["x","n"]',
    ]);
  });
});
