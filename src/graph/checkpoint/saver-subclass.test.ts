import { describe, expect, it } from "vitest";
import type { RunnableConfig } from "../../shared/index.js";
import { Annotation, START, StateGraph } from "../index.js";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  JsonPlusSerializer,
  MemorySaver,
  type PendingWrite,
  type SerializerProtocol,
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

/**
 * A saver written as LangGraph.js's docs show it: it extends BaseCheckpointSaver and stores what
 * `this.serde.dumpsTyped` gives (here in a Map, as a database would hold rows).
 */
class SerdeRowSaver extends BaseCheckpointSaver {
  readonly rows = new Map<string, { checkpoint: [string, Uint8Array]; metadata: [string, Uint8Array] }>();
  readonly writes = new Map<string, [string, string, [string, Uint8Array]][]>();

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId = String(config.configurable?.thread_id);
    const id =
      (config.configurable?.checkpoint_id as string | undefined) ??
      [...this.rows.keys()]
        .filter((key) => key.startsWith(`${threadId}/`))
        .sort()
        .at(-1)
        ?.slice(threadId.length + 1);
    const row = id === undefined ? undefined : this.rows.get(`${threadId}/${id}`);
    if (row === undefined || id === undefined) return undefined;
    const pendingWrites = await Promise.all(
      (this.writes.get(`${threadId}/${id}`) ?? []).map(
        async ([taskId, channel, [type, bytes]]) =>
          [taskId, channel, await this.serde.loadsTyped(type, bytes)] as [string, string, unknown],
      ),
    );
    return {
      config: { configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: id } },
      checkpoint: (await this.serde.loadsTyped(...row.checkpoint)) as Checkpoint,
      metadata: (await this.serde.loadsTyped(...row.metadata)) as CheckpointMetadata,
      pendingWrites,
    };
  }

  async *list(config: RunnableConfig, _options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const threadId = String(config.configurable?.thread_id);
    const ids = [...this.rows.keys()]
      .filter((key) => key.startsWith(`${threadId}/`))
      .sort()
      .reverse();
    for (const key of ids) {
      const tuple = await this.getTuple({
        configurable: { thread_id: threadId, checkpoint_id: key.slice(threadId.length + 1) },
      });
      if (tuple !== undefined) yield tuple;
    }
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
  ): Promise<RunnableConfig> {
    const threadId = String(config.configurable?.thread_id);
    this.rows.set(`${threadId}/${checkpoint.id}`, {
      checkpoint: await this.serde.dumpsTyped(checkpoint),
      metadata: await this.serde.dumpsTyped(metadata),
    });
    return { configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    const key = `${String(config.configurable?.thread_id)}/${String(config.configurable?.checkpoint_id)}`;
    const saved = this.writes.get(key) ?? [];
    for (const [channel, value] of writes) saved.push([taskId, channel, await this.serde.dumpsTyped(value)]);
    this.writes.set(key, saved);
  }

  async deleteThread(threadId: string): Promise<void> {
    for (const key of [...this.rows.keys()]) if (key.startsWith(`${threadId}/`)) this.rows.delete(key);
  }
}

describe("savers that encode with this.serde, as LangGraph.js's do", () => {
  it("get the default JsonPlusSerializer without one, and run a graph", async () => {
    const saver = new SerdeRowSaver();
    expect(saver.serde).toBeInstanceOf(JsonPlusSerializer);
    const graph = new StateGraph(State)
      .addNode("a", () => ({ value: "a" }))
      .addEdge(START, "a")
      .compile({ checkpointer: saver });
    const config = { configurable: { thread_id: "t" } };
    await graph.invoke({ value: "x" }, config);
    expect((await graph.getState(config)).values).toEqual({ value: "a" });
    expect(saver.rows.size).toBe(3);
  });

  it("keep the serializer given to the constructor (MemorySaver's too)", async () => {
    const calls: string[] = [];
    const inner = new JsonPlusSerializer();
    const serde: SerializerProtocol = {
      dumpsTyped: (data) => {
        calls.push("dumps");
        return inner.dumpsTyped(data);
      },
      loadsTyped: (type, data) => inner.loadsTyped(type, data),
    };
    const saver = new SerdeRowSaver(serde);
    expect(saver.serde).toBe(serde);
    await saver.put(
      { configurable: { thread_id: "t" } },
      { id: "1" } as Checkpoint,
      {} as CheckpointMetadata,
    );
    expect(calls).toEqual(["dumps", "dumps"]);
    const memorySerde = new JsonPlusSerializer();
    expect(new MemorySaver(memorySerde).serde).toBe(memorySerde);
    expect(new MemorySaver().serde).toBeInstanceOf(JsonPlusSerializer);
  });
});
