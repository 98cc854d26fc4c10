/**
 * Conformance cases about what a saver stores and reads back: value types, list channels,
 * forks, namespaces, threads, `list()` and `deleteThread()`. See saver-conformance.ts.
 */
import type { BaseCheckpointSaver, CheckpointTuple, PendingWrite } from "../graph/index.js";
import { AIMessage, HumanMessage, ToolMessage } from "../messages/index.js";
import type { CaseContext } from "./saver-conformance-context.js";
import {
  check,
  checkEqual,
  EMPTY,
  SaverConformanceError,
  seededRandom,
  show,
  Timeline,
  threadIdFor,
} from "./saver-conformance-support.js";
import { sampleList, serializableSamples } from "./saver-conformance-values.js";

/** A case body. */
export type CaseBody = (context: CaseContext) => Promise<void>;

/** Adds the hint about message registration to a failure that involves message classes. */
async function withMessageHint(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    if (error instanceof SaverConformanceError && /Message, got a plain object/.test(error.message)) {
      throw new SaverConformanceError(
        `${error.message}\nMessages come back as class instances only once the message classes are registered with the serializer: import "agentgraph" (the root entry) before running the suite.`,
      );
    }
    throw error;
  }
}

/** A checkpoint read through a second saver over the same storage (cold caches) when possible, else the same. */
async function coldSaver(context: CaseContext, saver: BaseCheckpointSaver): Promise<BaseCheckpointSaver> {
  return context.canReopen(saver) ? context.reopen(saver) : saver;
}

async function collect(iterable: AsyncIterable<CheckpointTuple>): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = [];
  for await (const tuple of iterable) out.push(tuple);
  return out;
}

const idsOf = (tuples: CheckpointTuple[]) => tuples.map((t) => String(t.config.configurable?.checkpoint_id));

export const valueTypesInCheckpoints: CaseBody = (context) =>
  withMessageHint(async () => {
    const saver = await context.create();
    const timeline = new Timeline(saver, threadIdFor("values"));
    const samples = serializableSamples();
    const changes: Record<string, unknown> = { list: sampleList() };
    for (const [name, value] of Object.entries(samples)) changes[`v_${name}`] = value;
    await timeline.put(changes);
    await timeline.put({
      v_date: new Date(1),
      list: [...sampleList(), "appended"],
      v_map: new Map([["z", 0]]),
    });
    await timeline.put({ v_string: EMPTY, list: [] });
    await timeline.verifyAll();
    await timeline.verifyAll(await coldSaver(context, saver), "second saver on the same storage");
  });

export const valueTypesInWrites: CaseBody = (context) =>
  withMessageHint(async () => {
    const saver = await context.create();
    const timeline = new Timeline(saver, threadIdFor("write-values"));
    await timeline.put({ count: 1 });
    const samples = Object.entries(serializableSamples());
    await timeline.write(
      "task-values",
      samples.map(([name, value]) => [`ch_${name}`, value]),
    );
    await timeline.write("task-list", [
      ["messages", sampleList()],
      ["messages", []],
    ]);
    const error = new Error("node failed");
    await timeline.write("task-error", [["__error__", error]]);
    await timeline.write("task-interrupt", [
      ["__interrupt__", [{ id: "interrupt-1", value: { question: "ok?" } }]],
    ]);
    await timeline.verifyAll();
    await timeline.verifyAll(await coldSaver(context, saver), "second saver on the same storage");
  });

export const writeIndexes: CaseBody = async (context) => {
  const saver = await context.create();
  const timeline = new Timeline(saver, threadIdFor("write-idx"));
  const id = await timeline.put({ count: 1 });
  await saver.putWrites(
    timeline.config(id),
    [
      ["a", "first"],
      ["b", "first"],
    ],
    "task-1",
  );
  await saver.putWrites(timeline.config(id), [["a", "second"]], "task-1");
  await saver.putWrites(timeline.config(id), [["__interrupt__", ["first interrupt"]]], "task-2");
  await saver.putWrites(timeline.config(id), [["__interrupt__", ["second interrupt"]]], "task-2");
  const tuple = await saver.getTuple(timeline.config(id));
  const writes = (tuple?.pendingWrites ?? [])
    .map(([task, channel, value]) => `${task}/${channel}=${show(value)}`)
    .sort();
  checkEqual(
    writes,
    ['task-1/a="first"', 'task-1/b="first"', 'task-2/__interrupt__=["second interrupt"]'],
    `pending writes of ${timeline.threadId} (ordinary writes keep the first value per index; control writes keep the last)`,
  );
};

let messageCounter = 0;

function newMessage(random: () => number, label: string): HumanMessage | AIMessage | ToolMessage {
  messageCounter += 1;
  const id = `m-${label}-${messageCounter}`;
  const text = `${label} ${messageCounter} ${"lorem ipsum ".repeat(1 + Math.floor(random() * 4))}`;
  const kind = Math.floor(random() * 3);
  if (kind === 0) return new HumanMessage({ content: text, id });
  if (kind === 1) {
    return new AIMessage({
      content: text,
      id,
      tool_calls: [{ name: "lookup", args: { q: text.slice(0, 10) }, id: `call-${id}`, type: "tool_call" }],
    });
  }
  return new ToolMessage({ content: text, tool_call_id: `call-${id}`, id });
}

/**
 * Many versions of list channels: appends, replace-by-id, removals, moves, duplicated elements,
 * remove-all, overwrites, unchanged new versions and emptied channels, past both chain limits.
 */
export const listChannels: CaseBody = (context) =>
  withMessageHint(async () => {
    const saver = await context.create();
    const random = seededRandom(1812);
    const timeline = new Timeline(saver, threadIdFor("lists"));
    let messages: unknown[] = [];
    let words: string[] = [];
    const STEPS = 220;
    for (let step = 0; step < STEPS; step++) {
      const roll = random();
      const next = [...messages];
      if (roll < 0.5 || next.length === 0) {
        const n = 1 + Math.floor(random() * 3);
        for (let i = 0; i < n; i++) next.push(newMessage(random, "append"));
      } else if (roll < 0.6) {
        const at = Math.floor(random() * next.length);
        const old = next[at] as { id?: string };
        next[at] = new AIMessage({ content: `replaced at step ${step}`, id: old.id ?? `r-${step}` });
      } else if (roll < 0.7) {
        next.splice(Math.floor(random() * next.length), 1 + Math.floor(random() * 2));
      } else if (roll < 0.75 && next.length > 1) {
        const [moved] = next.splice(0, 1);
        next.push(moved);
      } else if (roll < 0.8) {
        next.push(next[Math.floor(random() * next.length)]);
      } else if (roll < 0.83) {
        next.length = 0;
      } else if (roll < 0.85) {
        next.length = 0;
        for (let i = 0; i < 5; i++) next.push(newMessage(random, "overwrite"));
      }
      const changes: Record<string, unknown> = { messages: next, step };
      if (step % 3 === 0) {
        words = [...words, random() < 0.5 ? "yes" : "no"];
        changes.words = words;
      }
      if (step % 50 === 25) changes.scratch = EMPTY;
      else if (step % 50 === 30) changes.scratch = [step, step + 1];
      messages = next;
      await timeline.put(changes);
      if (step % 20 === 0) await timeline.write(`task-${step}`, [["messages", next.slice(-2)]]);
    }
    await timeline.verifyAll();
    await timeline.verifyAll(await coldSaver(context, saver), "second saver on the same storage");
  });

/** Two children of one checkpoint (and a fork of a fork) never see each other's values; versions are unique. */
export const forks: CaseBody = (context) =>
  withMessageHint(async () => {
    const saver = await context.create();
    const timeline = new Timeline(saver, threadIdFor("forks"));
    const random = seededRandom(7);
    let base: unknown[] = [];
    for (let i = 0; i < 6; i++) {
      base = [...base, newMessage(random, "base")];
      await timeline.put({ messages: base, count: i });
    }
    const forkPoint = timeline.order[3] as string;
    const baseAtFork = timeline.values(forkPoint).messages as unknown[];
    const mainBranch = timeline.order.slice(4);

    // Branch A from the fork point, then branch B from the same point: both append and set `count`.
    let a = baseAtFork;
    let b = baseAtFork;
    const branchA: string[] = [];
    const branchB: string[] = [];
    let parentA = forkPoint;
    let parentB = forkPoint;
    for (let i = 0; i < 70; i++) {
      a = [...a, newMessage(random, "a")];
      parentA = await timeline.put({ messages: a, count: 100 + i }, { parent: parentA });
      branchA.push(parentA);
      b = i % 10 === 9 ? [newMessage(random, "b-reset")] : [...b, newMessage(random, "b")];
      parentB = await timeline.put(
        { messages: b, count: 200 + i },
        { parent: parentB, metadata: { source: "fork" } },
      );
      branchB.push(parentB);
    }
    // A fork of a fork, changing only a scalar (its list stays branch A's).
    const deep = await timeline.put(
      { count: -1 },
      { parent: branchA[10] as string, metadata: { source: "update" } },
    );

    for (const [x, y] of [
      [branchA[0], branchB[0]],
      [branchA[0], mainBranch[0]],
      [branchB[0], mainBranch[0]],
    ] as [string, string][]) {
      for (const channel of ["messages", "count"]) {
        const vx = timeline.expected.get(x)?.checkpoint.channel_versions[channel];
        const vy = timeline.expected.get(y)?.checkpoint.channel_versions[channel];
        check(
          vx !== vy,
          () =>
            `checkpoints ${x} and ${y} are two children of one checkpoint, yet getNextVersion() gave channel "${channel}" the same version (${show(vx)}) in both: versions must be unique across forks, or one branch can read the other's values (langgraphjs#1812)`,
        );
      }
    }
    const latest = await saver.getTuple(timeline.config());
    check(
      latest?.config.configurable?.checkpoint_id === deep,
      () =>
        `getTuple() without checkpoint_id returned ${show(latest?.config.configurable?.checkpoint_id)}, expected the newest checkpoint ${deep}`,
    );
    await timeline.verifyAll();
    await timeline.verifyAll(await coldSaver(context, saver), "second saver on the same storage");
  });

/** Namespaces of one thread (subgraphs) are kept apart. */
export const namespaces: CaseBody = async (context) => {
  const saver = await context.create();
  const threadId = threadIdFor("namespaces");
  const root = new Timeline(saver, threadId, "");
  const child = new Timeline(saver, threadId, "child:task-1");
  const grandchild = new Timeline(saver, threadId, "child:task-1|inner:task-2");
  for (let i = 0; i < 40; i++) {
    await root.put({ items: Array.from({ length: i + 1 }, (_, k) => `root-${k}`), n: i });
    if (i % 2 === 0)
      await child.put({ items: Array.from({ length: i / 2 + 1 }, (_, k) => `child-${k}`), n: -i });
    if (i % 4 === 0) await grandchild.put({ items: [`gc-${i}`], n: i * 1000 });
    if (i % 8 === 0) {
      await root.write("shared-task", [["items", [`root-write-${i}`]]]);
      await child.write("shared-task", [["items", [`child-write-${i}`]]]);
    }
  }
  for (const timeline of [root, child, grandchild]) {
    await timeline.verifyAll();
    const latest = await saver.getTuple(timeline.config());
    check(
      latest?.config.configurable?.checkpoint_id === timeline.last,
      () =>
        `latest checkpoint of namespace "${timeline.ns}" is ${show(latest?.config.configurable?.checkpoint_id)}, expected ${timeline.last}`,
    );
    const listed = idsOf(await collect(saver.list(timeline.config())));
    checkEqual(listed, [...timeline.order].reverse(), `list() of namespace "${timeline.ns}"`);
  }
  const all = await collect(saver.list({ configurable: { thread_id: threadId } }));
  check(
    all.length === root.order.length + child.order.length + grandchild.order.length,
    () =>
      `list() of thread ${threadId} without checkpoint_ns returned ${all.length} checkpoints, expected every namespace's`,
  );
  await saver.deleteThread(threadId);
  for (const timeline of [root, child, grandchild]) {
    check(
      (await saver.getTuple(timeline.config())) === undefined,
      () => `deleteThread(${threadId}) left namespace "${timeline.ns}"`,
    );
  }
};

/** Threads are kept apart, even with identical checkpoint ids and the same value objects. */
export const threads: CaseBody = (context) =>
  withMessageHint(async () => {
    const saver = await context.create();
    const shared = [
      new HumanMessage({ content: "same object in two threads", id: "shared-1" }),
      "shared string",
    ];
    const one = new Timeline(saver, threadIdFor("thread-one"));
    const two = new Timeline(saver, threadIdFor("thread-two"));
    for (let i = 0; i < 5; i++) {
      await one.put({ list: [...shared, `one-${i}`], value: { thread: 1, i } });
      await two.put({ list: [...shared, `two-${i}`], value: { thread: 2, i } });
    }
    // The same checkpoint id in both threads.
    const sameId = one.last as string;
    const checkpoint = {
      v: 4,
      id: sameId,
      ts: new Date().toISOString(),
      channel_values: { value: "two's copy" },
      channel_versions: { value: saver.getNextVersion(undefined) },
      versions_seen: {},
    };
    await saver.put(
      two.config(two.last),
      checkpoint,
      { source: "update", step: 99, parents: {} },
      checkpoint.channel_versions,
    );
    const fromTwo = await saver.getTuple(two.config(sameId));
    checkEqual(
      fromTwo?.checkpoint.channel_values,
      { value: "two's copy" },
      `thread ${two.threadId} checkpoint ${sameId}`,
    );
    await one.verifyAll();
    await saver.deleteThread(one.threadId);
    check(
      (await saver.getTuple(one.config())) === undefined,
      () => `deleteThread(${one.threadId}) left a checkpoint`,
    );
    const cold = await coldSaver(context, saver);
    for (const id of two.order) await two.verify(id, cold, "after deleting the other thread");
  });

/** `list()`: newest first; `filter`, `before`, `limit`; all threads. */
export const listing: CaseBody = async (context) => {
  const saver = await context.create();
  const timeline = new Timeline(saver, threadIdFor("list"));
  const other = new Timeline(saver, threadIdFor("list-other"));
  for (let i = 0; i < 12; i++) {
    await timeline.put(
      { n: i },
      {
        metadata: {
          parity: i % 2 === 0 ? "even" : "odd",
          source: i === 0 ? "input" : "loop",
          nested: { at: new Date(i) },
        },
      },
    );
  }
  await other.put({ n: 0 });
  const newestFirst = [...timeline.order].reverse();
  const list = async (options: Parameters<BaseCheckpointSaver["list"]>[1], config = timeline.config()) =>
    idsOf(await collect(saver.list(config, options)));

  checkEqual(await list(undefined), newestFirst, "list() ids, newest first");
  checkEqual(await list({ limit: 3 }), newestFirst.slice(0, 3), "list({ limit: 3 })");
  const before = timeline.order[8] as string;
  checkEqual(
    await list({ before: timeline.config(before) }),
    newestFirst.slice(4),
    `list({ before: ${before} })`,
  );
  const even = newestFirst.filter((id) => timeline.expected.get(id)?.metadata.parity === "even");
  checkEqual(await list({ filter: { parity: "even" } }), even, 'list({ filter: { parity: "even" } })');
  checkEqual(
    await list({ filter: { parity: "even", source: "loop" }, before: timeline.config(before), limit: 2 }),
    even.filter((id) => id < before && id !== timeline.order[0]).slice(0, 2),
    "list() with filter, before and limit",
  );
  checkEqual(await list({ filter: { parity: "none" } }), [], 'list({ filter: { parity: "none" } })');
  const tuples = await collect(saver.list(timeline.config(), { limit: 1 }));
  const first = tuples[0];
  check(first !== undefined, "list({ limit: 1 }) returned nothing");
  checkEqual(
    first.metadata,
    timeline.expected.get(newestFirst[0] as string)?.metadata,
    "metadata of the listed checkpoint",
  );
  checkEqual(
    first.config.configurable,
    { thread_id: timeline.threadId, checkpoint_ns: "", checkpoint_id: newestFirst[0] },
    "config of the listed checkpoint",
  );
  // Across threads the order is the saver's (MemorySaver groups by thread, the SQL savers sort by
  // id, as their LangGraph.js counterparts do); each thread's checkpoints still come newest first.
  const everything = await list(undefined, { configurable: {} });
  for (const id of [...newestFirst, other.last]) {
    check(everything.includes(id as string), () => `list() over all threads lacks checkpoint ${id}`);
  }
  checkEqual(
    everything.filter((id) => timeline.expected.has(id)),
    newestFirst,
    `checkpoints of thread ${timeline.threadId} in list() over all threads`,
  );
};

/** `getTuple()` of what does not exist, and `deleteThread()` of one thread. */
export const missingAndDeleted: CaseBody = async (context) => {
  const saver = await context.create();
  const timeline = new Timeline(saver, threadIdFor("delete"));
  const keep = new Timeline(saver, threadIdFor("delete-keep"));
  check(
    (await saver.getTuple(timeline.config())) === undefined,
    "getTuple() of a thread never written returned a checkpoint",
  );
  for (let i = 0; i < 5; i++) {
    await timeline.put({ list: Array.from({ length: i + 1 }, (_, k) => k) });
    await keep.put({ list: Array.from({ length: i + 1 }, (_, k) => -k) });
  }
  await timeline.write("task", [["list", [1]]] as PendingWrite[]);
  check(
    (await saver.getTuple(timeline.config("1ef00000-0000-6000-8000-000000000000"))) === undefined,
    "getTuple() of an unknown checkpoint id returned a checkpoint",
  );
  await saver.deleteThread(timeline.threadId);
  await saver.deleteThread(threadIdFor("never-written"));
  check(
    (await saver.getTuple(timeline.config())) === undefined,
    "getTuple() after deleteThread() found a checkpoint",
  );
  check(
    (await saver.getTuple(timeline.config(timeline.order[2]))) === undefined,
    "getTuple(checkpoint_id) after deleteThread() found a checkpoint",
  );
  checkEqual(idsOf(await collect(saver.list(timeline.config()))), [], "list() after deleteThread()");
  await keep.verifyAll();
  // The thread id can be used again from scratch.
  const again = new Timeline(saver, timeline.threadId);
  await again.put({ list: [0] });
  await again.put({ list: [0, 1] });
  await again.verifyAll();
};
