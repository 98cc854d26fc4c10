import { describe, expect, it } from "vitest";
import type { RunnableConfig } from "../../shared/index.js";
import { Annotation, START, StateGraph } from "../index.js";
import {
  type ChannelVersions,
  type Checkpoint,
  type CheckpointMetadata,
  MemorySaver,
  type PendingWrite,
} from "./index.js";

const State = Annotation.Root({ value: Annotation<string> });

/** A MemorySaver subclass that records every save it is asked for. */
class RecordingSaver extends MemorySaver {
  readonly calls: { method: string; configurable: Record<string, unknown>; source?: string }[] = [];

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    this.calls.push({ method: "put", configurable: { ...config.configurable }, source: metadata.source });
    return super.put(config, checkpoint, metadata, newVersions);
  }

  override async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath?: string,
  ): Promise<void> {
    this.calls.push({ method: "putWrites", configurable: { ...config.configurable } });
    return super.putWrites(config, writes, taskId, taskPath);
  }
}

describe("savers that override put and putWrites", () => {
  it.each(["async", "sync", "exit"] as const)(
    "see every save of a run through their own methods (%s durability)",
    async (durability) => {
      const saver = new RecordingSaver();
      const graph = new StateGraph(State)
        .addNode("a", () => ({ value: "a" }))
        .addEdge(START, "a")
        .compile({ checkpointer: saver });
      await graph.invoke({ value: "x" }, { configurable: { thread_id: "t" }, durability });
      const puts = saver.calls.filter((c) => c.method === "put").map((c) => c.source);
      expect(puts).toEqual(durability === "exit" ? ["loop"] : ["input", "loop", "loop"]);
      expect(saver.calls.some((c) => c.method === "putWrites")).toBe(durability !== "exit");
      expect((await graph.getState({ configurable: { thread_id: "t" } })).values).toEqual({ value: "a" });
    },
  );

  it("receive the run's own configurable fields in the configs they are given", async () => {
    const saver = new RecordingSaver();
    const graph = new StateGraph(State)
      .addNode("a", () => ({ value: "a" }))
      .addEdge(START, "a")
      .compile({ checkpointer: saver });
    await graph.invoke({ value: "x" }, { configurable: { thread_id: "t", user_id: "u-1" } });
    expect(saver.calls.length).toBeGreaterThan(0);
    for (const call of saver.calls) {
      expect(call.configurable.user_id).toBe("u-1");
      expect(call.configurable.thread_id).toBe("t");
      expect(Object.keys(call.configurable).some((k) => k.startsWith("__"))).toBe(false);
    }
  });
});

describe("a failed task in the saved state", () => {
  it("shows its error as LangGraph.js saves it: { message, name }", async () => {
    const saver = new MemorySaver();
    const graph = new StateGraph(State)
      .addNode("a", () => {
        throw new TypeError("broken input");
      })
      .addEdge(START, "a")
      .compile({ checkpointer: saver });
    const config = { configurable: { thread_id: "t" } };
    await expect(graph.invoke({ value: "x" }, config)).rejects.toThrow("broken input");
    const state = await graph.getState(config);
    expect(state.tasks[0]?.error).toEqual({ message: "broken input", name: "TypeError" });
    expect(JSON.stringify(state.tasks[0]?.error)).toContain("broken input");
    const tuple = await saver.getTuple(config);
    expect(tuple?.pendingWrites?.map(([, channel, value]) => [channel, value])).toEqual([
      ["__error__", { message: "broken input", name: "TypeError" }],
    ]);
  });
});
