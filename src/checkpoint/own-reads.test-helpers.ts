/**
 * A saver reading back a thread it wrote itself (from the start: it found the thread empty)
 * uses what it knows (the bookkeeping of the checkpoint it wrote last, the texts of the items it
 * stored) instead of reading those rows again, and still sees what another saver on the same
 * storage changed since, and still reports a row deleted behind its back. Shared by the SQLite
 * and PostgreSQL saver tests.
 */
import { expect, vi } from "vitest";
import type { CheckpointStorage } from "../graph/index.js";
import type { BaseCheckpointSaver } from "../index.js";
import { CheckpointCorruptError, MessagesAnnotation, START, StateGraph } from "../index.js";
import { AIMessage, HumanMessage, RemoveMessage } from "../messages/index.js";

const storageOf = (saver: BaseCheckpointSaver) =>
  (saver as unknown as { storage: CheckpointStorage }).storage;

const contents = (tuple: Awaited<ReturnType<BaseCheckpointSaver["getTuple"]>>) =>
  (tuple?.checkpoint.channel_values.messages as HumanMessage[] | undefined)?.map((m) => String(m.content));

export async function checkOwnReads(
  saver: BaseCheckpointSaver,
  other: () => BaseCheckpointSaver,
  deleteOneItem: (threadId: string) => Promise<void>,
): Promise<void> {
  await checkThread(saver, other, "own-reads");
  // a row lost behind the saver's back is reported, not papered over from its memory
  const lost = "own-reads-lost";
  const { read } = await writeThread(saver, lost, 20);
  expect(contents(await read(saver))).toHaveLength(20);
  await deleteOneItem(lost);
  await expect(read(saver)).rejects.toBeInstanceOf(CheckpointCorruptError);
  await checkPrunedBehindItsBack(saver, other);
}

/**
 * Another saver prunes or deletes the thread while this one knows an item only the pruned
 * checkpoints held, and the checkpoint it wrote last; this one then writes that item again (an
 * update of a checkpoint named by id, which reads no latest checkpoint first): it stores the
 * item, and a deleted parent's values, again, so every saver reads the thread back (after a
 * delete, the update's values alone, as LangGraph.js's savers give them).
 */
async function checkPrunedBehindItsBack(saver: BaseCheckpointSaver, other: () => BaseCheckpointSaver) {
  const graphOf = (checkpointer: BaseCheckpointSaver) =>
    new StateGraph(MessagesAnnotation)
      .addNode("reply", (s) => ({
        messages: [new AIMessage({ content: `reply ${s.messages.length}`, id: `r-${s.messages.length}` })],
      }))
      .addEdge(START, "reply")
      .compile({ checkpointer });
  const graph = graphOf(saver);
  const text = (values: unknown) =>
    (values as { messages: HumanMessage[] }).messages.map((m) => String(m.content));
  for (const [threadId, behind, want] of [
    ["own-reads-pruned", "prune", ["reply 1", "next", "reply 2", "old text"]],
    ["own-reads-deleted", "delete", ["old text"]],
  ] as const) {
    const config = { configurable: { thread_id: threadId } };
    await graph.invoke({ messages: [new HumanMessage({ content: "old text", id: "old" })] }, config);
    await graph.updateState(config, { messages: [new RemoveMessage({ id: "old" })] });
    await graph.invoke({ messages: [new HumanMessage({ content: "next", id: "next" })] }, config);
    const latest = await graph.getState(config);
    // reading the history teaches the saver that the "old text" item is stored
    for await (const past of graph.getStateHistory(config)) void past;
    // another process keeps only the latest checkpoint (the "old text" item goes with the
    // others), or deletes the thread
    const remover = other() as unknown as { prune(ids: string[], o: { keepLast: number }): Promise<void> };
    if (behind === "prune") await remover.prune([threadId], { keepLast: 1 });
    else await other().deleteThread(threadId);
    await graph.updateState(latest.config, {
      messages: [new HumanMessage({ content: "old text", id: "old" })],
    });
    expect(text((await graph.getState(config)).values)).toEqual(want);
    expect(text((await graphOf(other()).getState(config)).values)).toEqual(want);
  }
}

/** A thread of `count` checkpoints, each adding a message, written by `saver` from empty. */
async function writeThread(saver: BaseCheckpointSaver, threadId: string, count: number) {
  const config = (parent: string | undefined) => ({
    configurable: { thread_id: threadId, checkpoint_ns: "", ...(parent ? { checkpoint_id: parent } : {}) },
  });
  const id = (i: number) => `1ef00000-0000-6000-8000-${String(i).padStart(12, "0")}`;
  let messages: HumanMessage[] = [];
  let version: string | undefined;
  const append = async (writer: BaseCheckpointSaver, i: number) => {
    messages = [...messages, new HumanMessage({ content: `m ${i}`, id: `m-${i}` })];
    version = writer.getNextVersion(version) as string;
    await writer.put(
      config(i === 0 ? undefined : id(i - 1)),
      {
        v: 4,
        id: id(i),
        ts: "2024-01-01T00:00:00.000Z",
        channel_values: { messages, step: i },
        channel_versions: { messages: version, step: version },
        versions_seen: { node: { messages: version } },
      },
      { source: "loop", step: i, parents: {} },
      { messages: version, step: version },
    );
  };
  // a run reads the thread first: the saver then knows it starts empty
  expect(await saver.getTuple(config(undefined))).toBeUndefined();
  for (let i = 0; i < count; i++) await append(saver, i);
  return {
    append,
    messages: () => messages,
    read: (reader: BaseCheckpointSaver) => reader.getTuple(config(undefined)),
  };
}

async function checkThread(saver: BaseCheckpointSaver, other: () => BaseCheckpointSaver, threadId: string) {
  // longer than a chain of record deltas, so the chain has full records in it
  const { append, messages, read } = await writeThread(saver, threadId, 150);
  const storage = storageOf(saver);
  const items = vi.spyOn(storage, "items");
  const chain = vi.spyOn(storage, "checkpointChain");
  const own = await read(saver);
  const fresh = await read(other());
  expect(own?.checkpoint).toEqual(fresh?.checkpoint);
  expect(own?.metadata).toEqual(fresh?.metadata);
  expect(contents(own)).toEqual(messages().map((m) => String(m.content)));
  // nothing but the head row was read: not its items, not the chain below it
  expect(items).not.toHaveBeenCalled();
  expect((await chain.mock.results[0]?.value)?.length).toBe(1);
  // what getTuple returns is the caller's: changing it changes nothing the saver keeps
  (own?.checkpoint.channel_versions as Record<string, unknown>).messages = "changed";
  (own?.checkpoint.versions_seen.node as Record<string, unknown>).messages = "changed";
  expect((await read(saver))?.checkpoint).toEqual(fresh?.checkpoint);
  expect(items).not.toHaveBeenCalled();

  // another saver (another process) continues the thread: this one sees its checkpoints
  const writer = other();
  for (let i = 150; i < 153; i++) await append(writer, i);
  items.mockClear();
  chain.mockClear();
  const after = await read(saver);
  expect(after?.checkpoint).toEqual((await read(other()))?.checkpoint);
  expect(contents(after)).toEqual(messages().map((m) => String(m.content)));
  // the chain stopped at the checkpoint this saver wrote last
  expect((await chain.mock.results[0]?.value)?.length).toBe(4);
  items.mockRestore();
  chain.mockRestore();
}
