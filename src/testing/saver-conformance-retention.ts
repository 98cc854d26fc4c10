/**
 * Conformance cases about retention and cost: `prune`, time-to-live deletion, several savers on
 * one storage, linear growth, bounded reads and damaged rows. See saver-conformance.ts.
 */
import {
  type BaseCheckpointSaver,
  CheckpointCorruptError,
  type CheckpointPendingWrite,
  EncodedCheckpointSaver,
} from "../graph/index.js";
import { AIMessage, HumanMessage } from "../messages/index.js";
import type { CaseBody } from "./saver-conformance-cases.js";
import { SaverConformanceSkipped } from "./saver-conformance-context.js";
import {
  check,
  checkEqual,
  countingStorage,
  internalsOf,
  SaverConformanceError,
  show,
  sleep,
  Timeline,
  threadIdFor,
} from "./saver-conformance-support.js";

/** `prune(threadIds, { keepLast })` keeps exactly the newest K checkpoints of each namespace, intact. */
export const prune: CaseBody = async (context) => {
  const saver = await context.create();
  const retention = context.retention(saver);
  const threadId = threadIdFor("prune");
  const root = new Timeline(saver, threadId, "");
  const child = new Timeline(saver, threadId, "child:1");
  const untouched = new Timeline(saver, threadIdFor("prune-untouched"));
  let messages: unknown[] = [];
  for (let i = 0; i < 90; i++) {
    messages =
      i % 30 === 29
        ? [messages[messages.length - 1]]
        : [...messages, new HumanMessage({ content: `turn ${i}`, id: `p-${i}` })];
    await root.put({ messages, step: i });
    if (i >= 84) {
      // Task paths that sort differently from task ids: their order must survive pruning.
      await root.write(
        "z-task",
        [["messages", [new AIMessage({ content: `z ${i}`, id: `z-${i}` })]]],
        root.last,
        "~a",
      );
      await root.write(
        "a-task",
        [
          ["step", i],
          ["__interrupt__", [{ id: `int-${i}`, value: "ok?" }]],
        ],
        root.last,
        "~b",
      );
    }
    if (i % 6 === 0) await child.put({ list: [i, i + 1], flag: i % 12 === 0 });
    if (i % 9 === 0) await untouched.put({ list: Array.from({ length: i }, (_, k) => k) });
  }
  const keepLast = 5;
  const before = new Map<string, CheckpointPendingWrite[] | undefined>();
  for (const id of [...root.order.slice(-keepLast), ...child.order.slice(-keepLast)]) {
    const ns = root.expected.has(id) ? "" : child.ns;
    const tuple = await saver.getTuple({
      configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id },
    });
    before.set(id, tuple?.pendingWrites);
  }
  const bytesBefore = await context.storedBytes(saver, threadId).catch(() => undefined);

  let rejected = false;
  try {
    await retention.prune([threadId], { keepLast: 0 });
  } catch {
    rejected = true;
  }
  check(
    rejected,
    "prune() with keepLast 0 did not throw: it must reject a keepLast that is not a positive integer",
  );
  await retention.prune([threadId], { keepLast });

  const cold = context.canReopen(saver) ? await context.reopen(saver) : saver;
  for (const timeline of [root, child]) {
    const kept = timeline.order.slice(-keepLast);
    const listed: string[] = [];
    for await (const tuple of saver.list(timeline.config()))
      listed.push(String(tuple.config.configurable?.checkpoint_id));
    checkEqual(
      listed,
      [...kept].reverse(),
      `checkpoints of namespace "${timeline.ns}" after prune(keepLast ${keepLast})`,
    );
    // The oldest kept checkpoint loses its (deleted) parent.
    const oldest = timeline.expected.get(kept[0] as string);
    if (oldest !== undefined) oldest.parentId = undefined;
    for (const id of kept) {
      await timeline.verify(id, saver, "after prune");
      const tuple = await timeline.verify(id, cold, "after prune, second saver");
      checkEqual(
        tuple.pendingWrites,
        before.get(id),
        `pending writes (in order) of checkpoint ${id} after prune`,
      );
    }
    for (const id of timeline.order.slice(0, -keepLast)) {
      const gone = await saver.getTuple(timeline.config(id));
      check(
        gone === undefined,
        () => `checkpoint ${id} of namespace "${timeline.ns}" survived prune(keepLast ${keepLast})`,
      );
    }
  }
  await untouched.verifyAll(cold, "thread not pruned");
  if (bytesBefore !== undefined) {
    const bytesAfter = await context.storedBytes(saver, threadId);
    check(
      bytesAfter < bytesBefore,
      () => `storedBytes(${threadId}) did not shrink with prune: ${bytesBefore} → ${bytesAfter}`,
    );
  }
  // The thread goes on from its latest checkpoint.
  await root.put({
    messages: [...messages, new HumanMessage({ content: "after prune", id: "after" })],
    step: 1000,
  });
  await root.verify(root.last as string, cold, "continued after prune");
  // keepLast above the number of checkpoints changes nothing.
  await retention.prune([untouched.threadId], { keepLast: 1000 });
  await untouched.verifyAll(cold, "prune with keepLast above the count");
};

/** `deleteStaleThreads(maxAgeMs)` deletes threads idle longer than that, and pruning does not make a thread young again. */
export const timeToLive: CaseBody = async (context) => {
  const saver = await context.create();
  const retention = context.retention(saver);
  const old = new Timeline(saver, threadIdFor("ttl-old"));
  const pruned = new Timeline(saver, threadIdFor("ttl-pruned"));
  for (let i = 0; i < 3; i++) {
    await old.put({ n: i, list: [i] });
    await pruned.put({ n: i, list: [i] });
  }
  await sleep(400);
  // A thread written just before the sweep must survive it. The sweep's cut-off is 200 ms, so
  // this holds whenever the put and the sweep take less than that; on a machine too loaded for
  // that, the attempt says nothing and is made again with a new thread.
  const maxAgeMs = 200;
  await retention.prune([pruned.threadId], { keepLast: 1 });
  let fresh: Timeline | undefined;
  let deleted: string[] = [];
  for (let attempt = 0; attempt < 5 && fresh === undefined; attempt++) {
    const candidate = new Timeline(saver, threadIdFor("ttl-fresh"));
    const started = Date.now();
    await candidate.put({ n: 1 });
    const swept = await retention.deleteStaleThreads(maxAgeMs);
    if (attempt === 0) deleted = swept;
    if (Date.now() - started >= maxAgeMs) continue;
    check(
      !swept.includes(candidate.threadId),
      () => `deleteStaleThreads(${maxAgeMs}) deleted thread ${candidate.threadId}, written just now`,
    );
    fresh = candidate;
  }
  if (fresh === undefined) {
    throw new SaverConformanceError(
      `a put and deleteStaleThreads(${maxAgeMs}) took ${maxAgeMs} ms or more five times over: the case cannot tell a fresh thread from a stale one`,
    );
  }
  check(
    deleted.includes(old.threadId),
    () =>
      `deleteStaleThreads(${maxAgeMs}) after 400 ms did not delete thread ${old.threadId} (returned ${show(deleted)})`,
  );
  check(
    deleted.includes(pruned.threadId),
    () =>
      `deleteStaleThreads(${maxAgeMs}) did not delete thread ${pruned.threadId}, last written 400 ms earlier and pruned since: pruning must keep the age of the checkpoints it keeps (returned ${show(deleted)})`,
  );
  check(
    (await saver.getTuple(old.config())) === undefined,
    () => `thread ${old.threadId} still has checkpoints after deleteStaleThreads`,
  );
  check(
    (await saver.getTuple(pruned.config())) === undefined,
    () => `thread ${pruned.threadId} still has checkpoints after deleteStaleThreads`,
  );
  await fresh.verifyAll();
};

/**
 * Two savers on one storage (two processes on one database): a thread deleted or pruned through
 * one can be written again through the other, including values it had stored before.
 */
export const sharedStorage: CaseBody = async (context) => {
  const first = await context.create();
  if (!context.canReopen(first)) throw new SaverConformanceSkipped("reopen", "no reopen hook");
  const second = await context.reopen(first);
  const threadId = threadIdFor("shared");
  const hello = () => new HumanMessage({ content: "hello", id: "greeting" });

  const before = new Timeline(first, threadId);
  await before.put({ messages: [hello()], words: ["yes"] });
  await second.deleteThread(threadId);
  // A new conversation on the same thread id, through the first saver: the engine reads first.
  check(
    (await first.getTuple(before.config())) === undefined,
    () => `thread ${threadId} still readable after deleteThread() through another saver`,
  );
  const after = new Timeline(first, threadId);
  await after.put({ messages: [hello()], words: ["yes"] });
  await after.verifyAll(await context.reopen(first), "re-created after another saver deleted the thread");

  const candidate = second as Partial<{ prune: unknown }>;
  if (typeof candidate.prune !== "function") return;
  const retention = context.retention(second);
  const x = () => new AIMessage({ content: "removed, then back", id: "x" });
  const y = new HumanMessage({ content: "kept", id: "y" });
  await after.put({ messages: [x(), y] });
  await after.put({ messages: [y] });
  await retention.prune([threadId], { keepLast: 1 });
  await first.getTuple(after.config());
  const oldest = after.expected.get(after.last as string);
  if (oldest !== undefined) oldest.parentId = undefined;
  await after.put({ messages: [y, x()] });
  await after.verify(
    after.last as string,
    await context.reopen(first),
    "after another saver pruned the thread",
  );
};

async function appendOnlyBytes(
  saver: BaseCheckpointSaver,
  measure: (threadId: string) => Promise<number>,
  versions: number,
): Promise<number> {
  const timeline = new Timeline(saver, threadIdFor(`growth-${versions}`));
  let messages: unknown[] = [];
  for (let i = 0; i < versions; i++) {
    const message = new AIMessage({
      content: `Reply ${i}: ${"The quick brown fox jumps over the lazy dog. ".repeat(4)}`,
      id: `growth-${i}`,
    });
    if (timeline.last !== undefined) await timeline.write(`task-${i}`, [["messages", [message]]]);
    messages = [...messages, message];
    await timeline.put({ messages, step: i });
  }
  return (await measure(timeline.threadId)) / versions;
}

/** Stored bytes per version of an append-only list do not grow with the list (linear storage). */
export const linearGrowth: CaseBody = async (context) => {
  const saver = await context.create();
  const measure = (threadId: string) => context.storedBytes(saver, threadId);
  await measure(threadIdFor("growth-probe"));
  const small = await appendOnlyBytes(saver, measure, 50);
  const large = await appendOnlyBytes(saver, measure, 500);
  check(
    large <= small * 1.25,
    () =>
      `an append-only list took ${large.toFixed(0)} stored bytes per version over 500 versions, against ${small.toFixed(0)} over 50 (+${((large / small - 1) * 100).toFixed(0)}%, limit +25%): storage grows faster than linearly`,
  );
};

/** Reading the latest (or any) checkpoint takes the same, small number of storage calls whatever the thread's length. */
export const boundedReads: CaseBody = async (context) => {
  const saver = await context.create();
  const internals = internalsOf(saver);
  if (internals === undefined) throw new SaverConformanceSkipped("storage", "not an EncodedCheckpointSaver");
  const counts: { versions: number; latest: number; middle: number }[] = [];
  for (const versions of [20, 300]) {
    const timeline = new Timeline(saver, threadIdFor(`reads-${versions}`));
    let messages: unknown[] = [];
    for (let i = 0; i < versions; i++) {
      messages = [...messages, new HumanMessage({ content: `m ${i}`, id: `r-${versions}-${i}` })];
      await timeline.put({ messages, step: i, [`channel_${i % 7}`]: i });
      if (i % 10 === 0) await timeline.write(`task-${i}`, [["messages", [messages[messages.length - 1]]]]);
    }
    const counted = countingStorage(internals.storage);
    const reader = new EncodedCheckpointSaver(counted.storage, internals.codec);
    const total = () => [...counted.calls.values()].reduce((a, b) => a + b, 0);
    await timeline.verify(timeline.last as string, reader, "latest, counted");
    const latest = total();
    counted.calls.clear();
    await timeline.verify(timeline.order[Math.floor(versions / 2) + 3] as string, reader, "middle, counted");
    counts.push({ versions, latest, middle: total() });
  }
  const [short, long] = counts as [(typeof counts)[0], (typeof counts)[0]];
  check(
    long.latest === short.latest && long.middle === short.middle && long.latest <= 6 && long.middle <= 6,
    () =>
      `storage calls to read a checkpoint: ${show(counts)}; expected the same small number (at most 6) whatever the thread's length`,
  );
};

/** A damaged stored row is reported as a CheckpointCorruptError that names the thread and checkpoint. */
export const corruptRows: CaseBody = async (context) => {
  const saver = await context.create();
  const timeline = new Timeline(saver, threadIdFor("corrupt"));
  let messages: unknown[] = [];
  for (let i = 0; i < 12; i++) {
    messages = [...messages, new HumanMessage({ content: `m ${i}`, id: `c-${i}` })];
    // `doc` is large enough to be stored as a value of its own (small values live in the record)
    await timeline.put({ messages, step: i, meta: { i }, doc: `document ${i}: ${"text ".repeat(60)}` });
  }
  await timeline.write("task", [["messages", [new AIMessage({ content: "pending", id: "pending" })]]]);
  await context.corrupt(saver, timeline.threadId);
  const reader = context.canReopen(saver) ? await context.reopen(saver) : saver;
  let failure: unknown;
  try {
    await reader.getTuple(timeline.config());
  } catch (error) {
    failure = error;
  }
  if (failure === undefined) {
    throw new SaverConformanceError(
      `getTuple() of thread ${timeline.threadId} succeeded after its stored rows were damaged`,
    );
  }
  check(
    failure instanceof CheckpointCorruptError,
    () => `reading a damaged thread threw ${show(String(failure))}, expected a CheckpointCorruptError`,
  );
  const message = failure.message;
  check(
    message.includes(timeline.threadId),
    () => `the error does not name thread ${timeline.threadId}: ${message}`,
  );
  check(
    timeline.order.some((id) => message.includes(id)),
    () => `the error does not name a checkpoint of thread ${timeline.threadId}: ${message}`,
  );
};
