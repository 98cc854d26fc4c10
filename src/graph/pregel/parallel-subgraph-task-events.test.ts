/**
 * Parallel subgraphs (one `Send` to a subgraph node per item) streamed with `subgraphs: true`
 * and the `tasks` or `debug` mode: each child streams its checkpoint (or its values) before
 * either announces the tasks of its next step, as in LangGraph.js, whose loop gathers those
 * events through async iteration before streaming them. The expected sequences are what
 * LangGraph.js 1.7.3 streamed for the same programs.
 */
import { describe, expect, it } from "vitest";
import { Annotation, END, MemorySaver, Send, START, StateGraph, type StreamMode } from "../../index.js";

const concat = <T>(a: T[], b: T[]) => a.concat(b);

function mapReduce() {
  const Child = Annotation.Root({
    v: Annotation<number>(),
    out: Annotation<string[]>({ reducer: concat, default: () => [] }),
  });
  const child = new StateGraph(Child)
    .addNode("s1", (s) => ({ out: [`s1:${s.v}`] }))
    .addNode("s2", (s) => ({ out: [`s2:${s.v}`] }))
    .addEdge(START, "s1")
    .addEdge("s1", "s2")
    .compile();
  const Parent = Annotation.Root({
    items: Annotation<number[]>(),
    out: Annotation<string[]>({ reducer: concat, default: () => [] }),
  });
  return new StateGraph(Parent)
    .addNode("fan", () => ({}))
    .addNode("child", child)
    .addEdge(START, "fan")
    .addConditionalEdges("fan", (s) => s.items.map((v) => new Send("child", { v })), ["child"])
    .addEdge("child", END)
    .compile({ checkpointer: new MemorySaver() });
}

/** One line per chunk: namespace (node names), mode, and what tells the events apart. */
async function streamed(streamMode: StreamMode[]): Promise<string[]> {
  const graph = mapReduce();
  const lines: string[] = [];
  const stream = await graph.stream(
    { items: [1, 2] },
    { configurable: { thread_id: "t" }, streamMode, subgraphs: true },
  );
  for await (const [ns, mode, chunk] of stream as AsyncIterable<
    [string[], string, Record<string, unknown>]
  >) {
    const where = ns.map((segment) => segment.split(":")[0]).join("/") || "-";
    if (mode === "checkpoints") {
      const metadata = chunk.metadata as { step: number };
      const values = chunk.values as { v?: number };
      lines.push(`${where} checkpoint ${metadata.step} ${values.v ?? ""}`);
    } else if (mode === "tasks") {
      const input = chunk.input as { v?: number } | undefined;
      lines.push(`${where} ${chunk.name} ${"result" in chunk ? "end" : `start ${input?.v ?? ""}`}`);
    } else if (mode === "debug") {
      const payload = chunk.payload as { name?: string; values?: { v?: number } };
      const what = chunk.type === "checkpoint" ? (payload.values?.v ?? "") : payload.name;
      lines.push(`${where} debug ${chunk.type} ${chunk.step} ${what}`);
    } else {
      lines.push(`${where} ${mode} ${JSON.stringify((chunk as { out?: string[] }).out)}`);
    }
  }
  return lines;
}

describe("parallel subgraphs streaming their task events", () => {
  it("stream each child's checkpoint before either announces its next step's tasks", async () => {
    expect(await streamed(["checkpoints", "tasks"])).toEqual([
      "- checkpoint -1 ",
      "- checkpoint 0 ",
      "- fan start ",
      "- fan end",
      "- checkpoint 1 ",
      "- child start 1",
      "- child start 2",
      "child checkpoint -1 ",
      "child checkpoint -1 ",
      "child checkpoint 0 1",
      "child checkpoint 0 2",
      "child s1 start 1",
      "child s1 start 2",
      "child s1 end",
      "child s1 end",
      "child checkpoint 1 1",
      "child checkpoint 1 2",
      "child s2 start 1",
      "child s2 start 2",
      "child s2 end",
      "child s2 end",
      "child checkpoint 2 1",
      "child checkpoint 2 2",
      "- child end",
      "- child end",
      "- checkpoint 2 ",
    ]);
  });

  it("stream each child's values before either announces its next step's tasks", async () => {
    expect(await streamed(["values", "tasks"])).toEqual([
      "- values []",
      "- fan start ",
      "- fan end",
      "- child start 1",
      "- child start 2",
      "child values []",
      "child values []",
      "child s1 start 1",
      "child s1 start 2",
      "child s1 end",
      "child s1 end",
      'child values ["s1:1"]',
      'child values ["s1:2"]',
      "child s2 start 1",
      "child s2 start 2",
      "child s2 end",
      "child s2 end",
      'child values ["s1:1","s2:1"]',
      'child values ["s1:2","s2:2"]',
      "- child end",
      "- child end",
      '- values ["s1:1","s2:1","s1:2","s2:2"]',
    ]);
  });

  it("interleave the same way in the debug stream", async () => {
    const lines = await streamed(["debug"]);
    expect(lines.filter((line) => line.startsWith("child "))).toEqual([
      "child debug checkpoint -1 ",
      "child debug checkpoint -1 ",
      "child debug checkpoint 0 1",
      "child debug checkpoint 0 2",
      "child debug task 1 s1",
      "child debug task 1 s1",
      "child debug task_result 1 s1",
      "child debug task_result 1 s1",
      "child debug checkpoint 1 1",
      "child debug checkpoint 1 2",
      "child debug task 2 s2",
      "child debug task 2 s2",
      "child debug task_result 2 s2",
      "child debug task_result 2 s2",
      "child debug checkpoint 2 1",
      "child debug checkpoint 2 2",
    ]);
  });
});
