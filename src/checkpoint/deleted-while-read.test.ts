// A checkpoint read takes several storage calls; another process may delete the thread between
// them. The read then answers as if it came after the deletion, never with a damaged thread.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import {
  type CheckpointStorage,
  codecOf,
  EncodedCheckpointSaver,
  MemoryCheckpointStorage,
} from "../graph/index.js";
import { CheckpointCorruptError, emptyCheckpoint } from "../index.js";
import { SqliteCheckpointStorage } from "./sqlite/index.js";

type ReadStep = "blobs" | "writes" | "items";

/** `storage`, but the first call of `step` first runs `before` (what another process does meanwhile). */
function interrupting(
  storage: CheckpointStorage,
  step: ReadStep,
  before: () => Promise<void>,
): CheckpointStorage {
  let armed = true;
  return new Proxy(storage, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        if (key === step && armed) {
          armed = false;
          await before();
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

const thread = (id: string) => ({ configurable: { thread_id: id, checkpoint_ns: "" } });

/** Stores a thread of three checkpoints holding a long list and a value; returns their ids. */
async function storeThread(
  saver: EncodedCheckpointSaver,
  threadId: string,
  label: string,
): Promise<string[]> {
  const ids: string[] = [];
  let config = thread(threadId);
  for (let step = 0; step < 3; step++) {
    const id = `1f000000-0000-6000-8000-${label}${String(step).padStart(11, "0")}`;
    const messages = Array.from({ length: 20 + step }, (_, i) => ({
      text: `${label} message ${i} `.repeat(8),
    }));
    const checkpoint = {
      ...emptyCheckpoint(),
      id,
      channel_values: { messages, summary: { label, step, text: "s".repeat(300) } },
      channel_versions: { messages: step + 1, summary: step + 1 },
    };
    config = (await saver.put(
      config,
      checkpoint,
      { source: "loop", step, parents: {} },
      {
        messages: step + 1,
        summary: step + 1,
      },
    )) as typeof config;
    await saver.putWrites(config, [["messages", { text: "pending" }]], `task-${step}`);
    ids.push(id);
  }
  return ids;
}

const backends: [string, () => CheckpointStorage][] = [
  ["MemoryCheckpointStorage", () => new MemoryCheckpointStorage()],
  ["SqliteCheckpointStorage", () => new SqliteCheckpointStorage(new Database(":memory:"))],
];

describe.each(backends)("a thread deleted while a read is under way (%s)", (_name, open) => {
  const codec = codecOf(undefined);

  it.each(["blobs", "writes", "items"] as const)(
    "reading the latest checkpoint answers none when the thread is deleted before its %s are read",
    async (step) => {
      const storage = open();
      const writer = new EncodedCheckpointSaver(storage, codec);
      await storeThread(writer, "t", "a");
      const reader = new EncodedCheckpointSaver(
        interrupting(storage, step, () => writer.deleteThread("t")),
        codec,
      );
      expect(await reader.getTuple(thread("t"))).toBeUndefined();
      // what the reader knew of the thread is dropped: a new thread of that id reads back whole
      await storeThread(writer, "t", "b");
      const tuple = await reader.getTuple(thread("t"));
      expect(tuple?.checkpoint.channel_values.summary).toMatchObject({ label: "b" });
      expect(tuple?.checkpoint.channel_values.messages).toHaveLength(22);
    },
  );

  it("reading the latest checkpoint of a thread started over meanwhile answers the new one", async () => {
    const storage = open();
    const writer = new EncodedCheckpointSaver(storage, codec);
    await storeThread(writer, "t", "a");
    const reader = new EncodedCheckpointSaver(
      interrupting(storage, "items", async () => {
        await writer.deleteThread("t");
        await storeThread(writer, "t", "b");
      }),
      codec,
    );
    const tuple = await reader.getTuple(thread("t"));
    expect(tuple?.checkpoint.id).toBe("1f000000-0000-6000-8000-b00000000002");
    expect(tuple?.checkpoint.channel_values.messages).toHaveLength(22);
    expect(tuple?.pendingWrites).toHaveLength(1);
  });

  it("reading a checkpoint by id answers none when it is deleted meanwhile", async () => {
    const storage = open();
    const writer = new EncodedCheckpointSaver(storage, codec);
    const ids = await storeThread(writer, "t", "a");
    const reader = new EncodedCheckpointSaver(
      interrupting(storage, "blobs", () => writer.deleteThread("t")),
      codec,
    );
    const config = { configurable: { thread_id: "t", checkpoint_ns: "", checkpoint_id: ids[1] } };
    expect(await reader.getTuple(config)).toBeUndefined();
  });

  it("rows missing from a thread that is still stored are still a CheckpointCorruptError", async () => {
    const storage = open();
    const writer = new EncodedCheckpointSaver(storage, codec);
    await storeThread(writer, "t", "a");
    const reader = new EncodedCheckpointSaver(
      new Proxy(storage, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver) as unknown;
          if (key === "items") return async () => [];
          return typeof value === "function" ? (value as () => unknown).bind(target) : value;
        },
      }),
      codec,
    );
    await expect(reader.getTuple(thread("t"))).rejects.toBeInstanceOf(CheckpointCorruptError);
  });
});
