// What a list channel's items read back as, where the saver stores each item on its own.
// Expected values: @langchain/langgraph 1.7.3 with its MemorySaver and SqliteSaver.
import { describe, expect, it } from "vitest";
import { Annotation, emptyCheckpoint, MemorySaver, START, StateGraph } from "../../../index.js";

describe("list items that JSON has no text for", () => {
  it("stores a function or symbol item of a list as null, as inside any other array", async () => {
    const saver = new MemorySaver();
    const config = { configurable: { thread_id: "t", checkpoint_ns: "" } };
    const values = { list: [() => 1, Symbol("s"), 2, undefined], nested: { list: [() => 1, 2] } };
    await saver.put(
      config,
      { ...emptyCheckpoint(), id: "c1", channel_values: values, channel_versions: { list: 1, nested: 1 } },
      { source: "loop", step: 0, parents: {} },
      { list: 1, nested: 1 },
    );
    const tuple = await saver.getTuple(config);
    expect(tuple?.checkpoint.channel_values).toEqual({
      list: [null, null, 2, undefined],
      nested: { list: [null, 2] },
    });
  });

  it("a node's list with a function reads back with null in its place", async () => {
    const State = Annotation.Root({ v: Annotation<unknown[]>() });
    const graph = new StateGraph(State)
      .addNode("a", () => ({ v: [() => 1, "x"] }))
      .addEdge(START, "a")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    await graph.invoke({ v: [] }, config);
    expect((await graph.getState(config)).values).toEqual({ v: [null, "x"] });
  });
});
