/**
 * Helpers of the saver conformance suite (saver-conformance.ts): a deep comparison that knows
 * the types the checkpoint serializer round-trips, and a `Timeline` that drives a saver the way
 * the engine does (checkpoints with parents, versions from `getNextVersion`, pending writes) while
 * remembering what every checkpoint must read back as.
 */
import {
  type BaseCheckpointSaver,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointStorage,
  type CheckpointTuple,
  EncodedCheckpointSaver,
  type PendingWrite,
  timeOrderedId,
  type ValueCodec,
  WRITES_IDX_MAP,
} from "../graph/index.js";
import type { RunnableConfig } from "../shared/index.js";

/**
 * A conformance case failed: the message says what the saver returned and what was expected.
 *
 * @example
 * ```ts
 * await testCase.run(create).catch((e) => {
 *   if (e instanceof SaverConformanceError) console.error(e.message); // "thread … checkpoint …: channel_values.messages[3]: …"
 * });
 * ```
 */
export class SaverConformanceError extends Error {
  override name = "SaverConformanceError";
}

/** Throws a {@link SaverConformanceError} unless `condition` holds. */
export function check(condition: unknown, message: string | (() => string)): asserts condition {
  if (!condition) throw new SaverConformanceError(typeof message === "string" ? message : message());
}

/** A short, readable rendering of a value for failure messages. */
export function show(value: unknown): string {
  const seen = new WeakSet<object>();
  const text = (() => {
    try {
      return JSON.stringify(value, (_key, v: unknown) => {
        if (typeof v === "bigint") return `${v}n`;
        if (v === undefined) return "<undefined>";
        if (typeof v === "number" && !Number.isFinite(v)) return String(v);
        if (typeof v === "object" && v !== null) {
          if (seen.has(v)) return "<cycle>";
          seen.add(v);
          if (v instanceof Map) return { "<Map>": [...v.entries()] };
          if (v instanceof Set) return { "<Set>": [...v.values()] };
          if (ArrayBuffer.isView(v)) return `<${v.constructor.name} ${v.byteLength} bytes>`;
          if (v instanceof Error) return `<${v.name}: ${v.message}>`;
        }
        return v;
      });
    } catch {
      return String(value);
    }
  })();
  const shown = text ?? String(value);
  return shown.length > 300 ? `${shown.slice(0, 300)}…` : shown;
}

function bytesOf(value: ArrayBuffer | ArrayBufferView): Uint8Array {
  return value instanceof ArrayBuffer
    ? new Uint8Array(value)
    : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Where `actual` differs from `expected` (`undefined`: they are equal), comparing as the
 * serializer promises to round-trip: `Object.is` for primitives (so `NaN`, `-0`), Dates by time,
 * Maps and Sets in order, typed arrays and buffers by type and bytes, errors by name, message,
 * cause and fields (any `Error` subclass comes back as an `Error`), class instances by class
 * name and own fields, array holes as `undefined`, and object keys present with `undefined`.
 *
 * @example
 * ```ts
 * findDifference({ a: new Date(1) }, { a: new Date(2) }); // "value.a: expected Date(2) …"
 * ```
 */
export function findDifference(actual: unknown, expected: unknown, path = "value"): string | undefined {
  if (Object.is(actual, expected)) return undefined;
  const mismatch = () => `${path}: expected ${show(expected)}, got ${show(actual)}`;
  if (typeof expected !== "object" || expected === null || typeof actual !== "object" || actual === null) {
    return mismatch();
  }
  if (expected instanceof Date) {
    return actual instanceof Date && Object.is(actual.getTime(), expected.getTime()) ? undefined : mismatch();
  }
  if (expected instanceof RegExp) {
    return actual instanceof RegExp && actual.source === expected.source && actual.flags === expected.flags
      ? undefined
      : mismatch();
  }
  if (expected instanceof Error) {
    if (!(actual instanceof Error)) return `${path}: expected an Error, got ${show(actual)}`;
    if (actual.name !== expected.name || actual.message !== expected.message) return mismatch();
    if ("cause" in expected) {
      const cause = findDifference((actual as { cause?: unknown }).cause, expected.cause, `${path}.cause`);
      if (cause !== undefined) return cause;
    }
    for (const key of Object.keys(expected)) {
      if (key === "stack") continue;
      const field = findDifference(
        (actual as unknown as Record<string, unknown>)[key],
        (expected as unknown as Record<string, unknown>)[key],
        `${path}.${key}`,
      );
      if (field !== undefined) return field;
    }
    return undefined;
  }
  if (expected instanceof Map) {
    if (!(actual instanceof Map) || actual.size !== expected.size) return mismatch();
    const a = [...actual.entries()];
    const e = [...expected.entries()];
    for (let i = 0; i < e.length; i++) {
      const [ak, av] = a[i] as [unknown, unknown];
      const [ek, ev] = e[i] as [unknown, unknown];
      const diff =
        findDifference(ak, ek, `${path}.<key ${i}>`) ?? findDifference(av, ev, `${path}.get(${show(ek)})`);
      if (diff !== undefined) return diff;
    }
    return undefined;
  }
  if (expected instanceof Set) {
    if (!(actual instanceof Set) || actual.size !== expected.size) return mismatch();
    const a = [...actual.values()];
    const e = [...expected.values()];
    for (let i = 0; i < e.length; i++) {
      const diff = findDifference(a[i], e[i], `${path}.<element ${i}>`);
      if (diff !== undefined) return diff;
    }
    return undefined;
  }
  if (expected instanceof ArrayBuffer || ArrayBuffer.isView(expected)) {
    if (
      expected.constructor !== actual.constructor &&
      expected.constructor.name !== actual.constructor.name
    ) {
      return `${path}: expected a ${expected.constructor.name}, got ${show(actual)}`;
    }
    const a = bytesOf(actual as ArrayBuffer | ArrayBufferView);
    const e = bytesOf(expected);
    if (a.length !== e.length) return mismatch();
    for (let i = 0; i < e.length; i++)
      if (a[i] !== e[i]) return `${path}: byte ${i} differs (${a[i]} ≠ ${e[i]})`;
    return undefined;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return mismatch();
    if (actual.length !== expected.length) {
      return `${path}: expected ${expected.length} elements, got ${actual.length} (${show(actual)})`;
    }
    for (let i = 0; i < expected.length; i++) {
      const diff = findDifference(actual[i], expected[i], `${path}[${i}]`);
      if (diff !== undefined) return diff;
    }
    return undefined;
  }
  if (!isPlainObject(expected)) {
    const name = (expected.constructor as { name?: string } | undefined)?.name;
    const actualName = (actual.constructor as { name?: string } | undefined)?.name;
    if (name !== actualName) {
      return `${path}: expected an instance of ${name ?? "?"}, got ${actualName === "Object" ? "a plain object" : (actualName ?? "?")} (${show(actual)})`;
    }
  }
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  for (const key of Object.keys(e)) {
    if (!Object.hasOwn(a, key)) return `${path}.${key}: missing (expected ${show(e[key])})`;
    const diff = findDifference(a[key], e[key], `${path}.${key}`);
    if (diff !== undefined) return diff;
  }
  for (const key of Object.keys(a)) {
    if (!Object.hasOwn(e, key)) return `${path}.${key}: unexpected key (value ${show(a[key])})`;
  }
  return undefined;
}

/** Throws unless `actual` equals `expected` as {@link findDifference} compares. */
export function checkEqual(actual: unknown, expected: unknown, what: string): void {
  const diff = findDifference(actual, expected, what);
  if (diff !== undefined) throw new SaverConformanceError(diff);
}

/** Pending writes grouped by task, in the order each task wrote them (the order across tasks is the saver's). */
export function writesByTask(
  writes: readonly CheckpointPendingWrite[] | undefined,
): Map<string, [string, unknown][]> {
  const byTask = new Map<string, [string, unknown][]>();
  for (const [taskId, channel, value] of writes ?? []) {
    const list = byTask.get(taskId) ?? [];
    list.push([channel, value]);
    byTask.set(taskId, list);
  }
  return byTask;
}

/** A fresh id for a thread of one case (unique, so cases can share a database). */
export function threadIdFor(label: string): string {
  return `conformance-${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** A pseudo-random generator (mulberry32), so that failures reproduce. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Marks a channel as emptied in {@link Timeline.put}. */
export const EMPTY: unique symbol = Symbol("empty channel");

/** What a saved checkpoint must read back as. */
export interface ExpectedCheckpoint {
  id: string;
  ns: string;
  parentId: string | undefined;
  checkpoint: Checkpoint;
  metadata: CheckpointMetadata;
  /** taskId → writes, in order. */
  writes: Map<string, PendingWrite[]>;
}

/** Options of {@link Timeline.put}. */
export interface TimelinePutOptions {
  /** The parent checkpoint id (default: the last one put; `null`: none). */
  parent?: string | null;
  /** Extra metadata. */
  metadata?: Record<string, unknown>;
}

/**
 * Drives one thread and namespace of a saver as the engine would, and remembers what each
 * checkpoint must read back as.
 */
export class Timeline {
  readonly saver: BaseCheckpointSaver;
  readonly threadId: string;
  readonly ns: string;
  readonly expected = new Map<string, ExpectedCheckpoint>();
  /** Ids in the order they were put. */
  readonly order: string[] = [];
  last: string | undefined;
  private step = 0;

  constructor(saver: BaseCheckpointSaver, threadId: string, ns = "") {
    this.saver = saver;
    this.threadId = threadId;
    this.ns = ns;
  }

  config(checkpointId?: string): RunnableConfig {
    const configurable: Record<string, unknown> = { thread_id: this.threadId, checkpoint_ns: this.ns };
    if (checkpointId !== undefined) configurable.checkpoint_id = checkpointId;
    return { configurable };
  }

  /** The values of a checkpoint (of the last one by default). */
  values(id: string | undefined = this.last): Record<string, unknown> {
    return id === undefined ? {} : { ...(this.expected.get(id)?.checkpoint.channel_values ?? {}) };
  }

  /** Saves a checkpoint whose channels in `changes` changed (to the given value, or emptied with {@link EMPTY}). */
  async put(changes: Record<string, unknown>, options: TimelinePutOptions = {}): Promise<string> {
    const parentId = options.parent === undefined ? this.last : (options.parent ?? undefined);
    const parent = parentId === undefined ? undefined : this.expected.get(parentId);
    const values: Record<string, unknown> = { ...(parent?.checkpoint.channel_values ?? {}) };
    const versions = { ...(parent?.checkpoint.channel_versions ?? {}) };
    const seen: Record<string, Record<string, string | number>> = {};
    for (const node in parent?.checkpoint.versions_seen ?? {}) {
      seen[node] = { ...parent?.checkpoint.versions_seen[node] };
    }
    const newVersions: Record<string, string | number> = {};
    for (const [channel, value] of Object.entries(changes)) {
      const version = this.saver.getNextVersion(versions[channel]);
      versions[channel] = version;
      newVersions[channel] = version;
      if (value === EMPTY) delete values[channel];
      else values[channel] = value;
      const node = `node_${this.step % 3}`;
      seen[node] = { ...seen[node], [channel]: version };
    }
    const id = timeOrderedId();
    const checkpoint: Checkpoint = {
      v: 4,
      id,
      ts: new Date().toISOString(),
      channel_values: values,
      channel_versions: versions,
      versions_seen: seen,
    };
    const metadata: CheckpointMetadata = {
      source: "loop",
      step: this.step,
      parents: {},
      ...options.metadata,
    };
    this.step += 1;
    const saved = await this.saver.put(this.config(parentId), checkpoint, metadata, newVersions);
    check(
      saved.configurable?.checkpoint_id === id,
      () =>
        `put() returned ${show(saved.configurable)} for checkpoint ${id}: expected its checkpoint_id to be ${id}`,
    );
    check(
      saved.configurable?.thread_id === this.threadId,
      () => `put() returned thread_id ${show(saved.configurable?.thread_id)}, expected ${this.threadId}`,
    );
    this.expected.set(id, {
      id,
      ns: this.ns,
      parentId,
      checkpoint: { ...checkpoint, channel_values: { ...values } },
      metadata,
      writes: new Map(),
    });
    this.order.push(id);
    this.last = id;
    return id;
  }

  /** Saves writes of a task against a checkpoint (the last one by default). */
  async write(
    taskId: string,
    writes: PendingWrite[],
    checkpointId = this.last,
    taskPath = "",
  ): Promise<void> {
    if (checkpointId === undefined) throw new SaverConformanceError("write() before any put()");
    await this.saver.putWrites(this.config(checkpointId), writes, taskId, taskPath);
    const expected = this.expected.get(checkpointId);
    if (expected !== undefined && !expected.writes.has(taskId)) {
      // Savers return a task's writes by index: control writes (negative indexes) first.
      const indexed = writes.map((write, i) => [WRITES_IDX_MAP[write[0]] ?? i, write] as const);
      indexed.sort((a, b) => a[0] - b[0]);
      expected.writes.set(
        taskId,
        indexed.map(([, write]) => write),
      );
    }
  }

  /** Reads a checkpoint (through `saver`, default this timeline's) and checks everything against what was put. */
  async verify(id: string, saver: BaseCheckpointSaver = this.saver, label = ""): Promise<CheckpointTuple> {
    const expected = this.expected.get(id);
    if (expected === undefined) throw new SaverConformanceError(`verify(): unknown checkpoint ${id}`);
    const tuple = await saver.getTuple(this.config(id));
    const where = `thread ${this.threadId}${this.ns === "" ? "" : ` ns "${this.ns}"`} checkpoint ${id}${label === "" ? "" : ` (${label})`}`;
    check(tuple !== undefined, () => `getTuple() found nothing for ${where}`);
    checkTuple(tuple, expected, where);
    return tuple;
  }

  /** Verifies every checkpoint put. */
  async verifyAll(saver: BaseCheckpointSaver = this.saver, label = ""): Promise<void> {
    for (const id of this.order) await this.verify(id, saver, label);
  }
}

/** Checks a tuple against what was put. */
export function checkTuple(tuple: CheckpointTuple, expected: ExpectedCheckpoint, where: string): void {
  const { checkpoint } = tuple;
  check(checkpoint.id === expected.id, () => `${where}: checkpoint.id is ${checkpoint.id}`);
  check(
    tuple.config.configurable?.checkpoint_id === expected.id,
    () => `${where}: tuple.config is ${show(tuple.config)}`,
  );
  checkEqual(checkpoint.channel_values, expected.checkpoint.channel_values, `${where}: channel_values`);
  checkEqual(checkpoint.channel_versions, expected.checkpoint.channel_versions, `${where}: channel_versions`);
  checkEqual(checkpoint.versions_seen, expected.checkpoint.versions_seen, `${where}: versions_seen`);
  checkEqual(checkpoint.ts, expected.checkpoint.ts, `${where}: ts`);
  checkEqual(tuple.metadata, expected.metadata, `${where}: metadata`);
  const parent = tuple.parentConfig?.configurable?.checkpoint_id;
  check(
    parent === expected.parentId,
    () => `${where}: parentConfig names checkpoint ${show(parent)}, expected ${show(expected.parentId)}`,
  );
  const actualWrites = writesByTask(tuple.pendingWrites);
  check(
    actualWrites.size === expected.writes.size,
    () =>
      `${where}: pending writes of ${actualWrites.size} task(s) [${[...actualWrites.keys()].join(", ")}], expected ${expected.writes.size} [${[...expected.writes.keys()].join(", ")}]`,
  );
  for (const [taskId, writes] of expected.writes) {
    checkEqual(actualWrites.get(taskId), writes, `${where}: pending writes of task ${taskId}`);
  }
}

/** The storage and codec of one of agentgraph's savers (`undefined` for other savers). */
export function internalsOf(
  saver: BaseCheckpointSaver,
): { storage: CheckpointStorage; codec: ValueCodec } | undefined {
  if (!(saver instanceof EncodedCheckpointSaver)) return undefined;
  const inner = saver as unknown as { storage: CheckpointStorage; codec: ValueCodec };
  return { storage: inner.storage, codec: inner.codec };
}

/** A storage that counts the calls made to it. */
export function countingStorage(storage: CheckpointStorage): {
  storage: CheckpointStorage;
  calls: Map<string, number>;
} {
  const calls = new Map<string, number>();
  const counted = new Proxy(storage, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.set(String(key), (calls.get(String(key)) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { storage: counted, calls };
}
