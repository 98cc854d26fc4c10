/**
 * What the nodes do and what a `stream()` consumer reads interleave as in LangGraph.js 1.7.3: a
 * consumer that reads at once reads a step's chunks after the next step's nodes have started
 * and before the nodes of the step after (the run keeps about one step ahead of it). Each
 * expected sequence is what LangGraph.js printed for the same program (`n0`: a node ran, `C`: the
 * consumer read a chunk).
 */
import { describe, expect, it } from "vitest";
import { Annotation, END, MemorySaver, Send, START, StateGraph, type StreamMode } from "../../index.js";

const State = Annotation.Root({
  v: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
});

type Kind = "sync" | "async" | "await3";

/** A node that notes its run in `log` and adds 1, returning at once or after awaits. */
function node(log: string[], name: string, kind: Kind) {
  if (kind === "sync")
    return () => {
      log.push(name);
      return { v: 1 };
    };
  return async () => {
    log.push(name);
    for (let i = 0; i < (kind === "await3" ? 3 : 0); i++) await null;
    return { v: 1 };
  };
}

function linear(log: string[], n: number, kind: Kind) {
  const graph = new StateGraph(State);
  for (let i = 0; i < n; i++) graph.addNode(`n${i}`, node(log, `n${i}`, kind));
  graph.addEdge(START, "n0" as never);
  for (let i = 1; i < n; i++) graph.addEdge(`n${i - 1}` as never, `n${i}` as never);
  return graph;
}

async function read(
  graph: { stream(input: unknown, options: object): Promise<AsyncIterable<unknown>> },
  log: string[],
  streamMode: StreamMode | StreamMode[],
): Promise<string> {
  for await (const _chunk of await graph.stream({ v: 0 }, { streamMode, configurable: { thread_id: "t" } })) {
    log.push("C");
  }
  return log.join(" ");
}

describe("a stream() consumer and the nodes", () => {
  it.each([
    ["sync", "updates", "n0 n1 C n2 C C"],
    ["sync", "values", "n0 C n1 C n2 C C"],
    ["async", "updates", "n0 n1 C n2 C C"],
    ["await3", ["updates", "values"], "n0 C n1 C C n2 C C C C"],
  ] as const)("interleave a step apart in a chain (%s nodes, %j)", async (kind, mode, expected) => {
    const log: string[] = [];
    const graph = linear(log, 3, kind).compile();
    expect(await read(graph, log, mode as StreamMode | StreamMode[])).toBe(expected);
  });

  it("interleave a step apart with checkpoints streamed", async () => {
    const log: string[] = [];
    const graph = linear(log, 2, "sync").compile({ checkpointer: new MemorySaver() });
    expect(await read(graph, log, "checkpoints")).toBe("C n0 C n1 C C");
  });

  it("interleave a step apart through a loop, parallel branches and Sends", async () => {
    const loop: string[] = [];
    const looping = new StateGraph(State)
      .addNode("a", node(loop, "a", "sync"))
      .addNode("b", node(loop, "b", "sync"))
      .addEdge(START, "a")
      .addConditionalEdges("a", (s) => (s.v < 3 ? "a" : "b"))
      .addEdge("b", END)
      .compile();
    expect(await read(looping, loop, "updates")).toBe("a a C a C b C C");

    const fan: string[] = [];
    const branching = new StateGraph(State)
      .addNode("a", node(fan, "a", "sync"))
      .addNode("b", node(fan, "b", "sync"))
      .addNode("c", node(fan, "c", "sync"))
      .addNode("d", node(fan, "d", "sync"))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("a", "c")
      .addEdge(["b", "c"], "d")
      .compile();
    expect(await read(branching, fan, "values")).toBe("a C b c C d C C");

    const sent: string[] = [];
    const sending = new StateGraph(State)
      .addNode("a", node(sent, "a", "sync"))
      .addNode("w", node(sent, "w", "sync"))
      .addEdge(START, "a")
      .addConditionalEdges("a", () => [new Send("w", {}), new Send("w", {})])
      .compile();
    expect(await read(sending, sent, "values")).toBe("a C w w C C");
  });

  it.each(["sync", "async"] as const)(
    "interleave a step apart after a step of parallel nodes (%s nodes, updates)",
    async (kind) => {
      const fan: string[] = [];
      const branching = new StateGraph(State)
        .addNode("a", node(fan, "a", kind))
        .addNode("b", node(fan, "b", kind))
        .addNode("c", node(fan, "c", kind))
        .addEdge(START, "a")
        .addEdge(START, "b")
        .addEdge("a", "c")
        .addEdge("b", "c")
        .compile();
      expect(await read(branching, fan, "updates")).toBe("a b c C C C");

      const sent: string[] = [];
      const sending = new StateGraph(State)
        .addNode("w", node(sent, "w", kind))
        .addNode("z", node(sent, "z", kind))
        .addConditionalEdges(START, () => [new Send("w", {}), new Send("w", {})])
        .addEdge("w", "z")
        .compile();
      expect(await read(sending, sent, "updates")).toBe("w w z C C C");
    },
  );

  it("a consumer slower than the nodes reads every chunk, in order", async () => {
    const log: string[] = [];
    const graph = linear(log, 5, "async").compile();
    const chunks: unknown[] = [];
    for await (const chunk of await graph.stream({ v: 0 }, { streamMode: "values" })) {
      chunks.push(chunk);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(chunks).toEqual([{ v: 0 }, { v: 1 }, { v: 2 }, { v: 3 }, { v: 4 }, { v: 5 }]);
    expect(log).toEqual(["n0", "n1", "n2", "n3", "n4"]);
  });
});
