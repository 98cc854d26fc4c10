/**
 * `streamEvents` gives the graph's stream events where LangGraph.js 1.7.3 does: a step's
 * `on_chain_stream` once the next step's node has started (its graph stream events reach the
 * consumer a step late), and, with `subgraphs` and `values`, each snapshot's checkpoint envelope
 * before it. Each expected sequence is what LangGraph.js printed for the same program.
 */
import { describe, expect, it } from "vitest";
import { Annotation, MemorySaver, START, StateGraph } from "../../index.js";

const State = Annotation.Root({
  v: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
});

/** A chain of `n` nodes `n0 → n1 → …`, each adding 1 (synchronous, or returning a promise). */
function linear(n: number, async: boolean) {
  const graph = new StateGraph(State);
  for (let i = 0; i < n; i++) graph.addNode(`n${i}`, async ? async () => ({ v: 1 }) : () => ({ v: 1 }));
  graph.addEdge(START, "n0" as never);
  for (let i = 1; i < n; i++) graph.addEdge(`n${i - 1}` as never, `n${i}` as never);
  return graph;
}

describe("streamEvents and the graph's stream events", () => {
  it("streamEvents gives a step's stream event once the next step's node started", async () => {
    const graph = linear(3, false).compile();
    const events: string[] = [];
    for await (const event of graph.streamEvents({ v: 0 }, { version: "v2" })) {
      events.push(`${event.event.slice("on_chain_".length)}:${event.name}`);
    }
    expect(events.join(" ")).toBe(
      "start:LangGraph start:__start__ end:__start__ start:n0 end:n0 start:n1 stream:LangGraph end:n1 " +
        "start:n2 stream:LangGraph end:n2 stream:LangGraph end:LangGraph",
    );
  });

  it("streamEvents with subgraphs and values gives each snapshot's checkpoint envelope before it", async () => {
    for (const checkpointer of [undefined, new MemorySaver()]) {
      const graph = linear(2, true).compile({ checkpointer });
      const chunks: unknown[] = [];
      for await (const event of graph.streamEvents(
        { v: 0 },
        { version: "v2", subgraphs: true, streamMode: "values", configurable: { thread_id: "e" } },
      )) {
        if (event.event === "on_chain_stream") chunks.push(event.data.chunk);
      }
      // LangGraph.js 1.7.3: [[], envelope], [[], values] for each superstep
      expect(chunks.filter((_, i) => i % 2 === 1)).toEqual([
        [[], { v: 0 }],
        [[], { v: 1 }],
        [[], { v: 2 }],
      ]);
      const envelopes = chunks
        .filter((_, i) => i % 2 === 0)
        .map((chunk) => (chunk as [string[], Record<string, unknown>])[1]);
      expect(envelopes.map(({ step, source }) => [step, source])).toEqual([
        [0, "loop"],
        [1, "loop"],
        [2, "loop"],
      ]);
      for (let i = 0; i < envelopes.length; i++) {
        const envelope = envelopes[i] as Record<string, unknown>;
        expect(envelope.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-6[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        // with a checkpointer each names its parent, as the checkpoints do
        if (checkpointer !== undefined && i > 0) expect(envelope.parent_id).toBe(envelopes[i - 1]?.id);
        if (checkpointer === undefined)
          expect(Object.keys(envelope).sort()).toEqual(["id", "source", "step"]);
      }
    }
  });
});
