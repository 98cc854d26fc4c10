/**
 * A graph run under a `checkpointer: false` subgraph in a persisted run lists that subgraph among
 * its checkpoints' parents, with the id of the (unsaved) checkpoint of the step that ran it.
 * Expected values: @langchain/langgraph 1.7.3.
 */
import { describe, expect, it } from "vitest";
import { Annotation, MemorySaver, START, StateGraph } from "../../index.js";

const State = Annotation.Root({
  l: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

describe("checkpoints of a graph under a checkpointer: false subgraph", () => {
  it("name the unsaved subgraph's step checkpoint in checkpoint_map and metadata.parents", async () => {
    const inner = new StateGraph(State)
      .addNode("leaf", () => ({ l: ["leaf"] }))
      .addEdge(START, "leaf")
      .compile();
    const mid = new StateGraph(State)
      .addNode("inner", inner)
      .addNode("again", inner)
      .addEdge(START, "inner")
      .addEdge("inner", "again")
      .compile({ checkpointer: false });
    const graph = new StateGraph(State)
      .addNode("mid", mid)
      .addEdge(START, "mid")
      .compile({ checkpointer: new MemorySaver() });
    const seen: { map: Record<string, string>; parents: Record<string, string> }[] = [];
    let rootIds: string[] = [];
    for await (const [namespace, chunk] of await graph.stream(
      { l: [] },
      { configurable: { thread_id: "1" }, streamMode: "checkpoints", subgraphs: true },
    )) {
      const { config, metadata } = chunk as {
        config: { configurable: { checkpoint_id: string; checkpoint_map?: Record<string, string> } };
        metadata: { parents: Record<string, string> };
      };
      if (namespace.length === 0) rootIds = [...rootIds, config.configurable.checkpoint_id];
      if (namespace.length === 2)
        seen.push({ map: config.configurable.checkpoint_map ?? {}, parents: metadata.parents });
    }
    // the mid graph saves no checkpoint: it streams none; each inner run streams three
    expect(seen).toHaveLength(6);
    for (const { map, parents } of seen) {
      const midNs = Object.keys(map).find((key) => key.startsWith("mid:"));
      expect(Object.keys(map)).toEqual(["", midNs]);
      expect(map[""]).toBe(rootIds[1]);
      expect(typeof map[midNs ?? ""]).toBe("string");
      expect(rootIds).not.toContain(map[midNs ?? ""]);
      expect(parents).toEqual(map);
    }
    // each step of mid has its own id, the same for the three checkpoints of the graph it ran
    const ids = seen.map(({ map }) => Object.entries(map).find(([key]) => key.startsWith("mid:"))?.[1]);
    expect(new Set(ids.slice(0, 3)).size).toBe(1);
    expect(new Set(ids.slice(3)).size).toBe(1);
    expect(ids[0]).not.toBe(ids[3]);
  });
});
