// A checkpoint read, or a prune, takes several storage calls; another process may delete or write
// the thread between them. A read then answers as if it came after the deletion, never with a
// damaged thread; a prune never deletes a checkpoint written while it read the thread.
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

type ReadStep = "blobs" | "writes" | "items" | "replaceThread";

/**
 * `storage`, but the first call of `step` first runs `before` (what another process does
 * meanwhile). "items" stands for either way of reading items (`items`, or `itemsJson` where the
 * storage has it).
 */
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
        if ((key === step || (step === "items" && key === "itemsJson")) && armed) {
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
          if (key === "itemsJson") return async () => ({ text: null, count: 0 });
          return typeof value === "function" ? (value as () => unknown).bind(target) : value;
        },
      }),
      codec,
    );
    await expect(reader.getTuple(thread("t"))).rejects.toBeInstanceOf(CheckpointCorruptError);
  });
});

describe.each(backends)("a prune racing a run on the same thread (%s)", (_name, open) => {
  const codec = codecOf(undefined);

  it("keeps the checkpoint the run wrote while the prune read the thread, and the run goes on", async () => {
    const storage = open();
    const runner = new EncodedCheckpointSaver(storage, codec);
    const ids = await storeThread(runner, "t", "a");
    const latest = { configurable: { thread_id: "t", checkpoint_ns: "", checkpoint_id: ids[2] } };
    const next = async (config: typeof latest, step: number, label: string) => {
      const messages = Array.from({ length: 30 + step }, (_, i) => ({ text: `a message ${i} `.repeat(8) }));
      const checkpoint = {
        ...emptyCheckpoint(),
        id: `1f000000-0000-6000-8000-${label}${String(step).padStart(11, "0")}`,
        channel_values: { messages, summary: { label, step } },
        channel_versions: { messages: step + 1, summary: step + 1 },
      };
      const versions = { messages: step + 1, summary: step + 1 };
      return (await runner.put(
        config,
        checkpoint,
        { source: "loop", step, parents: {} },
        versions,
      )) as typeof latest;
    };
    let written: typeof latest | undefined;
    const pruner = new EncodedCheckpointSaver(
      interrupting(storage, "replaceThread", async () => {
        written = await next(latest, 3, "c");
      }),
      codec,
    );
    await pruner.prune(["t"], { keepLast: 2 });
    // the run's checkpoint is kept (the prune read the thread again), and so is its parent
    const listed: string[] = [];
    for await (const tuple of runner.list(thread("t"))) listed.push(tuple.checkpoint.id);
    expect(listed).toStrictEqual([written?.configurable.checkpoint_id, ids[2]]);
    // the run writes on top of what it knows, and every checkpoint reads back whole
    const after = await next(written as typeof latest, 4, "d");
    const reader = new EncodedCheckpointSaver(storage, codec);
    const tuple = await reader.getTuple(thread("t"));
    expect(tuple?.checkpoint.id).toBe(after.configurable.checkpoint_id);
    expect(tuple?.checkpoint.channel_values.messages).toHaveLength(34);
    expect(tuple?.checkpoint.channel_values.summary).toStrictEqual({ label: "d", step: 4 });
    expect(
      (await reader.getTuple(written as typeof latest))?.checkpoint.channel_values.messages,
    ).toHaveLength(33);
  });

  it("keeps the writes a run saved to a kept checkpoint while the prune read the thread", async () => {
    const storage = open();
    const runner = new EncodedCheckpointSaver(storage, codec);
    const ids = await storeThread(runner, "t", "a");
    const latest = { configurable: { thread_id: "t", checkpoint_ns: "", checkpoint_id: ids[2] } };
    const late = Array.from({ length: 12 }, (_, i) => ({ text: `late message ${i} `.repeat(8) }));
    const pruner = new EncodedCheckpointSaver(
      interrupting(storage, "replaceThread", async () => {
        await runner.putWrites(
          latest,
          [
            ["messages", late],
            ["summary", { late: true }],
          ],
          "task-late",
        );
      }),
      codec,
    );
    await pruner.prune(["t"], { keepLast: 2 });
    const listed: string[] = [];
    for await (const tuple of runner.list(thread("t"))) listed.push(tuple.checkpoint.id);
    expect(listed).toStrictEqual([ids[2], ids[1]]);
    const reader = new EncodedCheckpointSaver(storage, codec);
    expect((await reader.getTuple(latest))?.pendingWrites).toStrictEqual([
      ["task-2", "messages", { text: "pending" }],
      ["task-late", "messages", late],
      ["task-late", "summary", { late: true }],
    ]);
  });

  it("gives up with a CheckpointConfigError on a thread that gets a checkpoint at every attempt", async () => {
    const storage = open();
    const runner = new EncodedCheckpointSaver(storage, codec);
    await storeThread(runner, "t", "a");
    let step = 10;
    const busy = new Proxy(storage, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          if (key === "replaceThread") {
            const checkpoint = {
              ...emptyCheckpoint(),
              id: `1f000000-0000-6000-8000-e${String(step).padStart(11, "0")}`,
              channel_values: { summary: { step } },
              channel_versions: { summary: step },
            };
            await runner.put(
              thread("t"),
              checkpoint,
              { source: "loop", step, parents: {} },
              { summary: step },
            );
            step += 1;
          }
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const pruner = new EncodedCheckpointSaver(busy, codec);
    await expect(pruner.prune(["t"], { keepLast: 1 })).rejects.toThrow(
      /^prune\(\) could not prune thread "t": new checkpoints or writes were saved to it while it was pruned, 5 times\. Prune threads that are not running\.$/,
    );
    const listed: string[] = [];
    for await (const tuple of runner.list(thread("t"))) listed.push(tuple.checkpoint.id);
    expect(listed).toHaveLength(8);
  });
});
