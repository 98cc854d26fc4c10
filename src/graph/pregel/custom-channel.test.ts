import { describe, expect, it } from "vitest";
import {
  Annotation,
  BaseChannel,
  EmptyChannelError,
  END,
  MemorySaver,
  START,
  StateGraph,
} from "../../index.js";

/**
 * A channel written the LangGraph.js way: it holds the last write of a step, forgets it after a
 * step without writes, and `checkpoint()` throws `EmptyChannelError` when it is empty.
 */
class LatestOfStep extends BaseChannel<string, string, string> {
  readonly lc_graph_name = "LatestOfStep";
  private value: string[] = [];

  fromCheckpoint(snapshot?: string): this {
    const channel = new LatestOfStep() as this;
    if (snapshot !== undefined) channel.value = [snapshot];
    return channel;
  }

  update(values: string[]): boolean {
    const had = this.value.length > 0;
    this.value = values.length === 0 ? [] : [values[values.length - 1] as string];
    return had || values.length > 0;
  }

  get(): string {
    if (this.value.length === 0) throw new EmptyChannelError();
    return this.value[0] as string;
  }

  checkpoint(): string {
    if (this.value.length === 0) throw new EmptyChannelError();
    return this.value[0] as string;
  }

  isAvailable(): boolean {
    return this.value.length > 0;
  }
}

const State = Annotation.Root({
  note: new LatestOfStep(),
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

describe("a custom channel whose checkpoint() throws EmptyChannelError when empty", () => {
  it("is saved as empty once it clears, as LangGraph.js does", async () => {
    const graph = new StateGraph(State)
      .addNode("a", (s) => ({ note: "A", log: [`a:${String(s.note)}`] }))
      .addNode("b", (s) => ({ log: [`b:${String(s.note)}`] }))
      .addNode("c", (s) => ({ log: [`c:${String(s.note)}`] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", "c")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    expect(await graph.invoke({ log: [] }, config)).toEqual({ log: ["a:undefined", "b:A", "c:undefined"] });
    expect((await graph.getState(config)).values).toEqual({ log: ["a:undefined", "b:A", "c:undefined"] });
  });

  it("can be written while empty by a node whose conditional edge reads the state", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => ({ note: "A" }))
      .addNode("b", (s) => ({ log: [`b:${String(s.note)}`] }))
      .addEdge(START, "a")
      .addConditionalEdges("a", (s) => (s.log.length === 0 ? "b" : END))
      .compile({ checkpointer: new MemorySaver() });
    expect(await graph.invoke({ log: [] }, { configurable: { thread_id: "t" } })).toEqual({ log: ["b:A"] });
  });
});
