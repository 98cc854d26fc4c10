import { AgentGraphError, type RunnableConfig } from "../../../shared/index.js";
import { type ChannelVersion, contentHash, TASKS } from "../../core/index.js";
import {
  BaseCheckpointSaver,
  type CheckpointListOptions,
  type CheckpointTuple,
  maxChannelVersion,
  putOneByOne,
  type SaverBatchOp,
  WRITES_IDX_MAP,
} from "../base-saver.js";
import {
  decodeJsonList,
  decodeKeyedJson,
  JsonPlusSerializer,
  type SerializerProtocol,
} from "../serde/index.js";
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointMetadata,
  CheckpointPendingWrite,
  PendingWrite,
} from "../types.js";
import { applyStoredSplice, diffLists, encodeSplice, worthSplicing } from "./list-delta.js";
import { MemoryCheckpointStorage } from "./memory-storage.js";
import {
  applyBookkeepingDelta,
  type Bookkeeping,
  CHECKPOINT_CHAIN_LIMIT,
  type CheckpointRecord,
  copyBookkeeping,
  diffBookkeeping,
  encodeRecord,
  hasExactMillis,
  isFullRecord,
  parseRecord,
  recordRowTime,
  resolveRecord,
  type StoredRecordView,
} from "./record-delta.js";
import {
  type BlobRow,
  BlobRowIndex,
  type CheckpointRow,
  type CheckpointStorage,
  checkpointKey,
  type ItemRow,
  type StorageBatch,
  type WriteRow,
  writesFingerprint,
} from "./storage.js";

/** Turns values into text and back (the checkpoint serializer's synchronous interface). */
export interface ValueCodec {
  encode(value: unknown): string;
  decode(text: string): unknown;
}

function isSerializer(codec: ValueCodec): codec is ValueCodec & SerializerProtocol {
  const candidate = codec as Partial<SerializerProtocol>;
  return typeof candidate.dumpsTyped === "function" && typeof candidate.loadsTyped === "function";
}

/** Retention settings of a saver. */
export interface SaverRetentionOptions {
  /**
   * Delete threads that have not been written for `minutes`, checking every
   * `sweepIntervalMinutes` (default: `minutes`, at most 60).
   */
  ttl?: { minutes: number; sweepIntervalMinutes?: number };
}

/** A stored checkpoint could not be read back: the message names the thread and checkpoint. */
export class CheckpointCorruptError extends AgentGraphError {
  static override readonly brandName: string = "CheckpointCorruptError";
  readonly threadId: string;
  readonly checkpointId: string;
  constructor(threadId: string, ns: string, checkpointId: string, detail: string, cause?: unknown) {
    super(
      `Checkpoint ${checkpointId} of thread "${threadId}"${ns === "" ? "" : ` (namespace "${ns}")`} is corrupt or incomplete: ${detail}. Restore the saver's storage from a backup, or fork the thread from an earlier checkpoint.`,
      { code: "CHECKPOINT_CORRUPT", cause },
    );
    this.threadId = threadId;
    this.checkpointId = checkpointId;
  }
}

/** A saver was called with a config that lacks what the call needs. */
export class CheckpointConfigError extends AgentGraphError {
  static override readonly brandName: string = "CheckpointConfigError";
}

/**
 * A version of a stored list, as the saver remembers it. A list that only grows at its end (a
 * history, step after step) extends the arrays of the version before it instead of copying them:
 * copying the whole history at every step would allocate it once per step. So a state's arrays
 * may be longer than the state: only their first `length` entries are its own, and `refs` and
 * `values` are read up to `length` (or copied with {@link refsOf}), never as whole arrays.
 */
interface ListState {
  /** The references of the list's elements (the first `length` of them), in order. */
  refs: string[];
  /** How many elements the list has. */
  length: number;
  depth: number;
  /**
   * The elements `refs` stand for, index for index (those this saver saved, or read back whole),
   * in an array of the saver's own (its first `length` entries): the next save of the list finds
   * what it kept by identity, without looking up each element's reference. Only the batch being
   * prepared and the most recently used thread keep theirs (see {@link ThreadCaches.get}), so the
   * cache holds one thread's elements at most.
   */
  values?: unknown[];
  /**
   * The thread's {@link ThreadCache.changes} when {@link values} were taken: once a task writes
   * an object back changed in place, the elements no longer stand for their references.
   */
  changes?: number;
}

/**
 * The references of a list state, as an array of their own: for a use that outlives the moment
 * (a read that waits on storage while a save may extend the state's array).
 */
function refsOf(state: ListState): string[] {
  return state.refs.slice(0, state.length);
}

/** The first `length` of `refs`, the array itself when it holds no more: for a use at once. */
function upTo(refs: string[], length: number): string[] {
  return refs.length === length ? refs : refs.slice(0, length);
}

/**
 * The elements a new list state keeps (see {@link ListState.values}) when `value` is the list's
 * new version and `kept` how many of its first elements are the previous state's. When the list
 * only grew at its end, the previous state's array is extended in place, unless something else
 * (another branch from the same state) extended it already: copying a long history at every step
 * would allocate the whole history once per step. Otherwise a copy.
 */
function keptValues(value: readonly unknown[], prev: ListState | undefined, kept: number): unknown[] {
  const before = prev?.values;
  if (before === undefined || prev === undefined) return value.slice();
  const length = prev.length;
  if (kept !== length || before.length !== length || value.length < length) return value.slice();
  for (let i = length; i < value.length; i++) before.push(value[i]);
  return before;
}

interface LastCheckpoint {
  id: string;
  bookkeeping: Bookkeeping;
  depth: number;
  /** The channel values kept inline (see {@link CheckpointRecord.inline}) that are current. */
  inline: Record<string, string | null>;
}

/** What the saver remembers of one thread between calls (bounded: see {@link ThreadCaches}). */
class ThreadCache {
  readonly last = new Map<string, LastCheckpoint>();
  /**
   * The newest list state known of each list channel (keyed by namespace and channel), with its
   * version: what the next save diffs against. One per channel, not one per version: a thread's
   * every version would hold a copy of its list, quadratic in the thread's length.
   */
  private readonly listSlots = new Map<string, { version: string; state: ListState }>();
  /** Items known to be stored (written by this saver, or read back), by hash. */
  items = new Set<string>();
  /**
   * The stored text of items, by hash, while this is the most recently used thread (see
   * {@link ThreadCaches.get}) and {@link storedCount} is known: reading the thread back then
   * decodes them without fetching their rows. Items are content-addressed, so a hash's text
   * never changes. Emptied, and no longer filled, once the count is unknown.
   */
  texts: Map<string, string> | undefined;
  /**
   * How many items the storage holds for the thread, as far as this saver can tell: 0 when it
   * found the thread empty, plus the items it wrote since; unknown once it has read the thread
   * from storage (other savers may have written to it). Reads decode from {@link texts} only
   * while the storage's count agrees.
   */
  storedCount: number | undefined;
  /**
   * How many times a task of the thread wrote back an object whose stored form changed since it
   * was stored (changed in place): list states taken before the last such write find their
   * elements by reference again (see {@link ListState.changes}).
   */
  changes = 0;
  /**
   * The encodings {@link EncodedCheckpointSaver.preserve} took of list elements and written
   * objects of this thread not stored yet, until they are (then dropped).
   */
  readonly heldItems = new Map<object, string>();
  /**
   * List states whose elements were read back and not yet recorded as stored under their
   * references (see {@link registerValues}).
   */
  unregistered: ListState[] = [];

  /**
   * Records the elements of the list states read back under their references, so that a task
   * that writes one of them back changed in place is seen to have changed it. Done before a
   * task's writes are stored rather than on every read: a read alone never needs it.
   */
  registerValues(): void {
    for (const state of this.unregistered) {
      const values = state.values;
      if (values === undefined) continue;
      for (let i = 0; i < values.length; i++) {
        const value = values[i];
        if (typeof value === "object" && value !== null && !itemRefs.has(value)) {
          itemRefs.set(value, state.refs[i] as string);
        }
      }
    }
    this.unregistered.length = 0;
  }

  /** The cached state of the list channel `slot` ({@link listSlot}) at `version`, if it is the one cached. */
  list(slot: string, version: string): ListState | undefined {
    const cached = this.listSlots.get(slot);
    return cached !== undefined && cached.version === version ? cached.state : undefined;
  }

  setList(slot: string, version: string, state: ListState): void {
    this.listSlots.set(slot, { version, state });
  }

  /** Gives the cached state of `slot` at `version` the elements it was read as (an array of its own). */
  attachValues(slot: string, version: string, values: unknown[]): void {
    const cached = this.listSlots.get(slot);
    if (cached === undefined || cached.version !== version || cached.state.length !== values.length) return;
    const { refs, length, depth } = cached.state;
    cached.state = { refs, length, depth, values, changes: this.changes };
    this.unregistered.push(cached.state);
  }

  /** Lets go of the elements the list states keep (see {@link ListState.values}) and of the items' texts. */
  releaseValues(): void {
    for (const slot of this.listSlots.values()) {
      if (slot.state.values === undefined) continue;
      const { refs, length, depth } = slot.state;
      slot.state = { refs, length, depth };
    }
    this.unregistered.length = 0;
    this.texts = undefined;
  }
}

/** Per-thread caches, least recently used thread evicted first. */
class ThreadCaches {
  private readonly threads = new Map<string, ThreadCache>();
  /**
   * @param keepTexts whether the most recently used thread keeps its items' texts (worth it
   *   when the storage can count a thread's items: see {@link CheckpointStorage.itemCount})
   */
  constructor(
    private readonly capacity: number,
    private readonly keepTexts: boolean,
  ) {}

  private recent: { threadId: string; cache: ThreadCache } | undefined;

  get(threadId: string): ThreadCache {
    const recent = this.recent;
    if (recent !== undefined && recent.threadId === threadId) return recent.cache;
    // only the most recently used thread keeps its lists' elements and its items' texts
    recent?.cache.releaseValues();
    let cache = this.threads.get(threadId);
    if (cache !== undefined) {
      this.threads.delete(threadId);
      this.threads.set(threadId, cache);
      this.recent = { threadId, cache };
      // texts serve reads only while the storage's count is known (see itemsFromTexts)
      if (this.keepTexts && cache.storedCount !== undefined) cache.texts = new Map();
      return cache;
    }
    cache = new ThreadCache();
    if (this.keepTexts) cache.texts = new Map();
    this.threads.set(threadId, cache);
    if (this.threads.size > this.capacity) {
      const oldest = this.threads.keys().next().value as string;
      this.threads.delete(oldest);
    }
    this.recent = { threadId, cache };
    return cache;
  }

  drop(threadId: string): void {
    this.threads.delete(threadId);
    if (this.recent?.threadId === threadId) this.recent = undefined;
  }
}

/** Write values (objects) whose encoding is longer than this are stored as items. */
const WRITE_ITEM_MIN = 64;

/** How many times `prune` reads a thread that keeps getting new checkpoints before it gives up. */
const PRUNE_ATTEMPTS = 5;

/** How a write stored as items names them: a list's references, or one object's. */
interface WriteRefs {
  refs: string[];
  single: boolean;
}

/** Checkpoint sources whose plain metadata is stored compactly (see `encodeMetadata`). */
const COMPACT_SOURCES: ReadonlySet<string> = new Set(["input", "loop", "update", "fork"]);
const COMPACT_METADATA = /^(input|loop|update|fork):(-?\d+)$/;

/** The counter of a version's first part, in any of the forms {@link EncodedCheckpointSaver.getNextVersion} reads. */
function versionCounter(head: string): number {
  if (head.length === 32) return Number.parseInt(head, 10) || 0; // LangGraph's
  if (head.startsWith("0")) return Number.parseInt(head, 36) || 0; // zero-padded (earlier versions)
  const length = Number.parseInt(head.slice(0, 1), 36);
  return (head.length === length + 1 ? Number.parseInt(head.slice(1), 36) : Number.parseInt(head, 36)) || 0;
}

/** 36^8: the range of a version's random part. */
const VERSION_RANDOM_RANGE = 36 ** 8;

/**
 * How many versions the saver remembers minting (with their counters), so that bumping one of
 * them does not parse it again: the channels a run's steps update, many times over.
 */
const MINTED_KEPT = 1024;

/**
 * Channel values whose encoding is at most this long are stored inside the checkpoint's record
 * (triggers, flags, counters) rather than as a row of their own.
 */
const INLINE_LIMIT = 128;

/**
 * On storages that keep short lists inline ({@link CheckpointStorage.inlineShortLists}): lists of
 * at most this many elements are stored inside the record when their encoding is short enough,
 * and write values (objects) are stored as items only from {@link INLINE_LIMIT} characters on, so
 * that a `Send` the next checkpoint's tasks channel keeps inline is kept in its write too, and a
 * larger one is an item both share.
 */
const INLINE_LIST_MAX = 4;

/**
 * A blob row, written out as one literal: spread from a shared base, the copy would grow a
 * separate property store for the fields added after it (see "Cold runs" in bench/README.md).
 */
function blobRow(
  threadId: string,
  ns: string,
  channel: string,
  version: string,
  kind: BlobRow["kind"],
  data: string,
  prev: string | null,
  depth: number,
): BlobRow {
  return { threadId, ns, channel, version, kind, data, prev, depth };
}

/** `threadId` and a key within the thread, as one map key. */
const threadKey = (threadId: string, key: string) => `${threadId}\u0001${key}`;

function splitThreadKey(key: string): [threadId: string, rest: string] {
  const at = key.indexOf("\u0001");
  return [key.slice(0, at), key.slice(at + 1)];
}

/**
 * What a batch of saves has prepared and not yet written: the rows, and what the caches will
 * learn once they are written (later saves of the batch read it, as a step reads its parent).
 */
class PendingBatch {
  readonly rows: StorageBatch = { checkpoints: [], blobs: [], items: [], writes: [] };
  /** The last checkpoint prepared, by thread and namespace. */
  readonly last = new Map<string, LastCheckpoint>();
  /** Every checkpoint prepared, by thread, namespace and id (a later save may fork from any). */
  readonly prepared = new Map<string, LastCheckpoint>();
  /** List states prepared, by {@link pendingListKey}. */
  readonly lists = new Map<string, PendingList>();
  /** Items being stored, by thread. */
  readonly sending = new Map<string, Set<string>>();

  sendingFor(threadId: string): Set<string> {
    let refs = this.sending.get(threadId);
    if (refs === undefined) {
      refs = new Set();
      this.sending.set(threadId, refs);
    }
    return refs;
  }
}

/**
 * The address of an item: 96 bits of its encoding's hash, as 16 characters. Items are addressed
 * within one thread, where even a million items collide with odds below 10^-16; the 6 characters
 * saved appear in every item row, its index entry and every reference to it. (Items written by
 * earlier versions have 22-character addresses; both kinds read the same way.)
 */
const itemHash = (data: string): string => contentHash(data).slice(0, 16);

/** Item references of objects already hashed (objects in state are treated as immutable). */
const itemRefs = new WeakMap<object, string>();

/**
 * What {@link EncodedCheckpointSaver.preserve} took of a save when it was queued, kept on the
 * queued save itself (under a symbol: a weak map keyed by each step's objects would cost more
 * than the encodings): the encodings of a checkpoint's other values and the lengths of its lists,
 * by channel, or those of a task's writes (for each write, its encoding or its elements').
 */
interface Held {
  values?: Record<string, string>;
  lengths?: Record<string, number>;
  writes?: (string | string[])[];
}
const HELD = Symbol("agentgraph.saver.held");
const heldOf = (op: SaverBatchOp): Held | undefined => (op as { [HELD]?: Held })[HELD];

/** A function or symbol: JSON has no text for either. */
function isUnstorable(value: unknown): boolean {
  return typeof value === "function" || typeof value === "symbol";
}

/** A list channel of a namespace, as the thread cache keys it. */
const listSlot = (ns: string, channel: string) => `${ns}\u0000${channel}`;

/** A list state a batch has prepared, with where it goes in the cache once the batch is written. */
interface PendingList {
  threadId: string;
  slot: string;
  version: string;
  state: ListState;
}

const pendingListKey = (threadId: string, slot: string, version: string) =>
  `${threadId}\u0001${slot}\u0000${version}`;

/** Where the rows read hold the list node (full or splice) of `channel` at `version`, if they do. */
function listNodeAt(index: BlobRowIndex, channel: string, version: string): number | undefined {
  const at = index.position(channel, version);
  const kind = at === undefined ? undefined : index.rows[at]?.kind;
  return kind === "list" || kind === "splice" ? at : undefined;
}

/**
 * The values of item texts a JSON serializer wrote, decoded with one parse (see
 * `decodeJsonList`), in their order; `undefined` for fewer than two, or when the texts do not
 * make one array, so that they are decoded one by one and the corrupt one is named.
 */
function decodeTogether(texts: string[]): unknown[] | undefined {
  return texts.length < 2 ? undefined : decodeJsonList(`[${texts.join(",")}]`, texts.length);
}

/** The texts of `refs` decoded together (see {@link decodeTogether}), in the order of `refs`. */
function decodeTextsTogether(
  refs: ReadonlySet<string>,
  texts: ReadonlyMap<string, string>,
): unknown[] | undefined {
  const parts = new Array<string>(refs.size);
  let i = 0;
  refs.forEach((ref) => {
    parts[i++] = texts.get(ref) as string;
  });
  return decodeTogether(parts);
}

/** The texts of `rows` decoded together (see {@link decodeTogether}), in their order. */
function decodeRowsTogether(rows: readonly ItemRow[]): unknown[] | undefined {
  const texts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) texts[i] = (rows[i] as ItemRow).data;
  return decodeTogether(texts);
}

/**
 * A stored list item that cannot be decoded. Items are decoded under one `try` per list, not
 * through `decode` (a call per item costs a quarter of a millisecond over a 1,001-message
 * history read by a freshly opened saver).
 */
function itemDecodeError(threadId: string, ns: string, checkpointId: string, error: unknown) {
  return new CheckpointCorruptError(threadId, ns, checkpointId, "a list item cannot be decoded", error);
}

/** A saver call that needs a config's ids (see {@link EncodedCheckpointSaver.configErrorText}). */
export type SaverWriteOperation = "put" | "putWrites";

/**
 * What a config given to a saver lacks: its `configurable` object altogether, or one of its ids
 * (see {@link EncodedCheckpointSaver.configErrorText}).
 */
export type MissingConfigField = "configurable" | "thread_id" | "checkpoint_id";

/** How to fix a config without a `thread_id` (the end of the error's message). */
const THREAD_ID_HINT =
  'When using a checkpointer, you must pass a "thread_id" so the checkpointer knows which conversation thread to persist state for. Example: graph.stream(input, { configurable: { thread_id: "my-thread-id" } })';

/**
 * The error a save on `saver` throws for `config` when it names no thread (`undefined` when it
 * names one), as a graph run or `updateState` meets it: the saver's own
 * ({@link EncodedCheckpointSaver.missingThreadIdError}) for the config's `configurable` (a graph
 * always has one), or for a saver from elsewhere LangGraph.js's `MemorySaver` text when the thread
 * id is absent.
 */
export function threadIdErrorFor(
  saver: object,
  config: RunnableConfig | undefined,
  operation: SaverWriteOperation = "put",
): CheckpointConfigError | undefined {
  const own = (saver as { missingThreadIdError?: unknown }).missingThreadIdError;
  if (typeof own === "function") {
    // a graph hands its saver a `configurable` always (so the text is the missing thread's)
    const probe: RunnableConfig = { configurable: config?.configurable ?? {} };
    type Check = (
      config: RunnableConfig,
      operation: SaverWriteOperation,
    ) => CheckpointConfigError | undefined;
    return (own as Check).call(saver, probe, operation);
  }
  const value = config?.configurable?.thread_id;
  if (value !== undefined && value !== null) return undefined;
  return new CheckpointConfigError(`${memorySaverConfigText(operation, "thread_id")} ${THREAD_ID_HINT}`);
}

/** LangGraph.js's `MemorySaver` text for a config that lacks `missing` (the savers' default). */
function memorySaverConfigText(operation: SaverWriteOperation, missing: MissingConfigField): string {
  const action = operation === "put" ? "put checkpoint" : "put writes";
  const key = missing === "configurable" ? "thread_id" : missing;
  return `Failed to ${action}. The passed RunnableConfig is missing a required "${key}" field in its "configurable" property.`;
}

/** The fields of the checkpoint format; others are kept as the record's `extra`. */
const CHECKPOINT_FIELDS: ReadonlySet<string> = new Set([
  "v",
  "id",
  "ts",
  "channel_values",
  "channel_versions",
  "versions_seen",
]);

/** Structural equality of JSON-like values (what a metadata filter compares). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const keysB = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * Whether JSON-like `a` contains `b` as PostgreSQL's `jsonb @>` has it: an object the entries of
 * `b` (values contained in turn), an array an element containing each element of `b` (order and
 * repeats aside), any other value only an equal one.
 */
function containsJson(a: unknown, b: unknown): boolean {
  if (typeof b !== "object" || b === null) return a === b;
  if (typeof a !== "object" || a === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(b)) {
    const elements = a as unknown[];
    return b.every((wanted) => elements.some((element) => containsJson(element, wanted)));
  }
  for (const key in b) {
    const wanted = (b as Record<string, unknown>)[key];
    if (wanted === undefined) continue;
    if (!Object.hasOwn(a, key) || !containsJson((a as Record<string, unknown>)[key], wanted)) return false;
  }
  return true;
}

/**
 * Whether checkpoint metadata has every `filter` entry (an `undefined` filter value is no
 * condition): values compared structurally, so `{ parents: { "": id } }` matches, as LangGraph.js's
 * SqliteSaver compares them; or, with `contains`, as LangGraph.js's PostgresSaver compares them
 * (`metadata @> filter`, so `{ parents: {} }` matches any parents).
 */
function metadataMatches(
  metadata: Record<string, unknown>,
  filter: Record<string, unknown>,
  contains: boolean,
): boolean {
  for (const key in filter) {
    const wanted = filter[key];
    if (wanted === undefined) continue;
    if (contains ? !containsJson(metadata[key], wanted) : !sameJson(metadata[key], wanted)) return false;
  }
  return true;
}

/** Ids LangGraph.js's MemorySaver refuses: they would reach `Object.prototype` in its storage. */
const RESERVED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/**
 * LangGraph.js's MemorySaver checks of an id, with its messages. Numbers are accepted (they are
 * stored as their text); LangGraph.js 1.x's MemorySaver refuses them.
 */
function checkStorageKey(field: string, value: unknown, allowEmpty: boolean): void {
  if (typeof value === "number") return;
  if (typeof value !== "string") {
    const observed =
      value === null
        ? "null"
        : value === undefined
          ? "undefined"
          : Array.isArray(value)
            ? "array"
            : typeof value;
    throw new CheckpointConfigError(
      `Invalid configurable value for key "${field}": expected a string identifier (got ${observed}). This guard protects MemorySaver from prototype pollution.`,
    );
  }
  if (!allowEmpty && value === "") {
    throw new CheckpointConfigError(
      `Invalid configurable value for key "${field}": empty string is not permitted as an in-memory storage key.`,
    );
  }
  if (RESERVED_KEYS.has(value)) {
    throw new CheckpointConfigError(
      `Invalid configurable value for key "${field}": value "${value}" is reserved (would mutate Object.prototype). This guard protects MemorySaver from prototype pollution.`,
    );
  }
}

function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One checkpoint to encode, with what it is diffed against. */
interface CheckpointSave {
  threadId: string;
  ns: string;
  parentId: string | undefined;
  parent: LastCheckpoint | undefined;
  checkpoint: Checkpoint;
  metadata: CheckpointMetadata;
  newVersions: ChannelVersions;
  cache: ThreadCache;
  /** The state of the previous version of each list channel it changes, where there is one (by channel). */
  prevLists: Map<string, ListState>;
  /** What was encoded when the save was queued (see {@link EncodedCheckpointSaver.preserve}). */
  held?: Held | undefined;
}

/** A checkpoint's bookkeeping if a batch prepared it or the cache holds it (no storage read). */
function knownBookkeeping(
  threadId: string,
  ns: string,
  id: string,
  cache: ThreadCache,
  pending: PendingBatch,
): LastCheckpoint | undefined {
  const prepared = pending.prepared.get(threadKey(threadId, `${ns}\u0000${id}`));
  if (prepared !== undefined) return prepared;
  const last = cache.last.get(ns);
  return last?.id === id ? last : undefined;
}

/** A list version's state if a batch prepared it or the cache holds it. */
function cachedListState(
  threadId: string,
  slot: string,
  version: string,
  cache: ThreadCache,
  pending: PendingBatch,
): ListState | undefined {
  return pending.lists.get(pendingListKey(threadId, slot, version))?.state ?? cache.list(slot, version);
}

/**
 * The states of the previous versions of the list channels a checkpoint changes that the batch
 * or the cache holds (by channel), and the versions that must be read first. A channel whose
 * parent value was kept inline (a value that was not a list, or none) has no previous list.
 */
function previousLists(
  threadId: string,
  ns: string,
  checkpoint: Checkpoint,
  newVersions: ChannelVersions,
  parent: LastCheckpoint | undefined,
  cache: ThreadCache,
  pending: PendingBatch,
): { found: Map<string, ListState>; missing: [channel: string, version: string][] } {
  const found = new Map<string, ListState>();
  const missing: [string, string][] = [];
  if (parent === undefined) return { found, missing };
  for (const channel in newVersions) {
    if (!Array.isArray(checkpoint.channel_values[channel]) || Object.hasOwn(parent.inline, channel)) continue;
    const prevVersion = parent.bookkeeping.versions[channel];
    if (prevVersion === undefined) continue;
    const version = String(prevVersion);
    const state = cachedListState(threadId, listSlot(ns, channel), version, cache, pending);
    if (state === undefined) missing.push([channel, version]);
    else found.set(channel, state);
  }
  return { found, missing };
}

/**
 * A checkpoint saver over a {@link CheckpointStorage}, storing checkpoints incrementally:
 * bookkeeping as deltas, list values as splices of content-addressed items. Full checkpoints go
 * in and come out, as the LangGraph.js saver interface requires. `MemorySaver`, `SqliteSaver`
 * and `PostgresSaver` are this class over their own storage.
 */
export class EncodedCheckpointSaver extends BaseCheckpointSaver<string | number> {
  protected readonly storage: CheckpointStorage;
  protected readonly codec: ValueCodec;
  private readonly caches: ThreadCaches;
  /** The storage keeps short lists inline (fixed for a storage, so a version's form never changes). */
  private readonly inlineShortLists: boolean;
  /** Write values (objects) whose encoding is longer than this are stored as items. */
  private readonly writeItemMin: number;
  /**
   * The codec is the JSON serializer as shipped (its `decode` not overridden): items read
   * together are then decoded with one parse (see {@link loadItems}).
   */
  private readonly jsonItems: boolean;
  /** The random part of the last version minted (see {@link getNextVersion}). */
  private suffix = Math.floor(Math.random() * VERSION_RANDOM_RANGE);
  /** The counters of the versions this saver minted last (at most {@link MINTED_KEPT}). */
  private readonly minted = new Map<string, number>();
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(storage: CheckpointStorage, codec: ValueCodec, options: SaverRetentionOptions = {}) {
    // the codec is the saver's serializer when it is one (`codecOf` gives a JsonPlusSerializer)
    super(isSerializer(codec) ? codec : undefined);
    this.storage = storage;
    this.codec = codec;
    this.jsonItems =
      codec instanceof JsonPlusSerializer && codec.decode === JsonPlusSerializer.prototype.decode;
    this.inlineShortLists = storage.inlineShortLists === true;
    this.writeItemMin = this.inlineShortLists ? INLINE_LIMIT : WRITE_ITEM_MIN;
    this.caches = new ThreadCaches(512, storage.itemCount !== undefined);
    const ttl = options.ttl;
    if (ttl !== undefined) {
      if (!(ttl.minutes > 0))
        throw new CheckpointConfigError(
          `ttl.minutes must be a positive number (got ${String(ttl.minutes)}).`,
        );
      const every = (ttl.sweepIntervalMinutes ?? Math.min(ttl.minutes, 60)) * 60_000;
      const timer = setInterval(() => {
        this.deleteStaleThreads(ttl.minutes * 60_000).catch((error: unknown) => {
          console.error("agentgraph: deleting expired threads failed:", error);
        });
      }, every);
      (timer as { unref?: () => void }).unref?.();
      this.sweeper = timer;
    }
  }

  /** Stops the time-to-live sweeper (if any). Savers with connections close them too. */
  async close(): Promise<void> {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /**
   * Versions unique across forks: `<counter>.<8 random base-36 digits>`, the counter in base 36
   * after one base-36 digit giving its length (`11`, `12`, …, `1z`, `210`, …), so that versions
   * sort by counter as strings while staying short. Two branches forked from one checkpoint
   * never mint the same version. Versions minted before (the counter as 10 zero-padded base-36
   * digits) and LangGraph's (32 decimal digits) are read as their counter, and sort below.
   */
  override getNextVersion(current: string | number | undefined): string {
    let counter = 0;
    if (typeof current === "number") counter = current;
    else if (typeof current === "string") {
      // a run bumps the versions this saver minted at its previous steps: their counters are known
      counter = this.minted.get(current) ?? versionCounter(current.split(".")[0] ?? "");
    }
    // distinct suffixes: a random start, then one step per version this saver mints (another
    // process starts elsewhere at random), so two branches never mint the same version
    this.suffix = (this.suffix + 1) % VERSION_RANDOM_RANGE;
    const digits = (counter + 1).toString(36);
    const version = `${digits.length.toString(36)}${digits}.${this.suffix.toString(36).padStart(8, "0")}`;
    if (this.minted.size >= MINTED_KEPT) this.minted.clear();
    this.minted.set(version, counter + 1);
    return version;
  }

  /**
   * The first sentence of the `CheckpointConfigError` thrown when `operation` gets a config that
   * lacks `missing`: LangGraph.js's text for this saver (its `MemorySaver`'s by default). A
   * missing `thread_id` (or `configurable`) is followed by how to pass one.
   */
  protected configErrorText(operation: SaverWriteOperation, missing: MissingConfigField): string {
    return memorySaverConfigText(operation, missing);
  }

  /**
   * Whether {@link getTuple} answers a request naming a `checkpoint_id` with the config it was
   * given, as LangGraph.js's `MemorySaver` and `SqliteSaver` do (extra keys, tags and a missing
   * `checkpoint_ns` included); otherwise the tuple's config holds the thread, namespace and
   * checkpoint ids, as LangGraph.js's `PostgresSaver` answers.
   */
  protected readonly returnsRequestedConfig: boolean = false;

  /**
   * The fields of the tuples {@link getTuple} and {@link list} answer, in their order, as each of
   * LangGraph.js's savers builds them: `"memory"` (`MemorySaver`: `config`, `checkpoint`,
   * `metadata`, `pendingWrites`, then `parentConfig` when there is a parent, and the latest
   * checkpoint's config as `{ thread_id, checkpoint_id, checkpoint_ns }`), `"sql"`
   * (`PostgresSaver`: `parentConfig` always a key, `undefined` without a parent, before
   * `pendingWrites`) or `"sqlite"` (`SqliteSaver`: as `"sql"`, with `checkpoint` first in
   * `getTuple`'s answers).
   */
  protected readonly tupleLayout: "memory" | "sql" | "sqlite" = "sql";

  /**
   * Whether `list`'s `filter` matches metadata values that contain the filter's (PostgreSQL's
   * `jsonb @>`, as LangGraph.js's `PostgresSaver` filters) rather than equal ones.
   */
  protected readonly filtersByContainment: boolean = false;

  /**
   * Whether fields a checkpoint carries beyond the format's (an older format's `pending_sends`,
   * fields of its own) are saved and read back, as LangGraph.js's `PostgresSaver` does; its
   * `MemorySaver` and `SqliteSaver` save only the format's fields.
   */
  protected readonly keepsExtraFields: boolean = true;

  /**
   * Whether values of channels a checkpoint has no version for (a checkpoint put by hand, or by
   * LangGraph.js's engine for channels nothing wrote yet) are saved with it, as LangGraph.js's
   * `MemorySaver` and `SqliteSaver` save them; its `PostgresSaver` saves values by version only,
   * so it reads them back without those.
   */
  protected readonly keepsUnversionedValues: boolean = true;

  /**
   * Whether a checkpoint of a format before v4 whose parent saved no sends still gets an (empty)
   * tasks channel, as LangGraph.js's `MemorySaver` and `SqliteSaver` give it; its
   * `PostgresSaver` leaves such a checkpoint as it is.
   */
  protected readonly migratesWithoutSends: boolean = false;

  /**
   * Whether an empty `thread_id` counts as none, as LangGraph.js's `SqliteSaver` counts it
   * (`!thread_id`); its `MemorySaver` and `PostgresSaver` store a thread named `""`.
   */
  protected readonly refusesEmptyThreadId: boolean = false;

  /**
   * The error `put` (or `operation`) throws for `config` when it names no thread (`undefined`
   * when it names one). A run asks before it starts, so a run given no thread fails at once with
   * this saver's text for its first save (LangGraph.js's fails at that save: `putWrites` for a
   * `Command`, `put` otherwise); `updateState` asks too.
   *
   * @example
   * ```ts
   * const error = saver.missingThreadIdError({ configurable: {} });
   * if (error !== undefined) throw error;
   * ```
   */
  missingThreadIdError(
    config: RunnableConfig | undefined,
    operation: SaverWriteOperation = "put",
  ): CheckpointConfigError | undefined {
    return this.threadIdProblem(config, operation);
  }

  /** The thread id of `config`, as text; throws a `CheckpointConfigError` when it has none. */
  private requireThreadId(config: RunnableConfig, operation: SaverWriteOperation): string {
    const problem = this.threadIdProblem(config, operation);
    if (problem !== undefined) throw problem;
    return String(config.configurable?.thread_id);
  }

  /** The error of `operation` when `config` names no thread (see {@link refusesEmptyThreadId}). */
  private threadIdProblem(
    config: RunnableConfig | undefined,
    operation: SaverWriteOperation,
  ): CheckpointConfigError | undefined {
    const configurable = config?.configurable;
    const value = configurable?.thread_id;
    if (
      typeof value === "number" ||
      (typeof value === "string" && (value !== "" || !this.refusesEmptyThreadId))
    )
      return undefined;
    const missing: MissingConfigField = configurable === undefined ? "configurable" : "thread_id";
    return new CheckpointConfigError(`${this.configErrorText(operation, missing)} ${THREAD_ID_HINT}`);
  }

  /**
   * Whether the ids of configs are checked as LangGraph.js's MemorySaver checks them (see
   * {@link EncodedCheckpointSaver.checkIds}); MemorySaver does, for parity.
   */
  protected readonly checksIds: boolean = false;

  /**
   * Throws for an id LangGraph.js's MemorySaver refuses (the savers store any id safely), checked
   * where and in the order its methods check them: `put` and `putWrites` first report a missing
   * thread (or checkpoint) id as a missing field; `getTuple` and `put` take a `null` namespace for
   * `""`, `list` and `putWrites` refuse it; `put` refuses an empty checkpoint id.
   */
  protected checkIds(
    config: RunnableConfig | undefined,
    operation: "put" | "writes" | "read" | "list",
    checkpointId?: unknown,
    taskId?: unknown,
  ): void {
    const configurable = config?.configurable;
    const threadId = configurable?.thread_id;
    const configId = configurable?.checkpoint_id;
    if ((operation === "put" || operation === "writes") && threadId === undefined) return;
    if (operation === "writes" && configId === undefined) {
      // a thread id that is there but no text (null) is not reported missing
      if (threadId === null)
        throw new CheckpointConfigError(this.configErrorText("putWrites", "checkpoint_id"));
      return;
    }
    if (threadId !== undefined) checkStorageKey("thread_id", threadId, false);
    const ns = configurable?.checkpoint_ns;
    if (operation === "put" || operation === "read") checkStorageKey("checkpoint_ns", ns ?? "", true);
    else if (operation === "writes" || ns !== undefined) checkStorageKey("checkpoint_ns", ns, true);
    if (operation === "put") checkStorageKey("checkpoint_id", checkpointId, false);
    else if (operation === "writes") checkStorageKey("checkpoint_id", configId, false);
    else if (configId !== undefined && configId !== null && configId !== "")
      checkStorageKey("checkpoint_id", configId, false);
    if (operation === "writes") checkStorageKey("task_id", taskId, false);
  }

  /**
   * Saves a checkpoint. Without `newVersions` (LangGraph.js's `MemorySaver.put` takes three
   * arguments) every channel the checkpoint has a version for is saved.
   */
  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions?: ChannelVersions,
  ): Promise<RunnableConfig> {
    if (this.checksIds) this.checkIds(config, "put", checkpoint.id);
    const pending = new PendingBatch();
    const saved = await this.prepareCheckpoint(
      pending,
      config,
      checkpoint,
      metadata,
      newVersions ?? checkpoint.channel_versions,
    );
    await this.commit(pending);
    return saved;
  }

  async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath = "",
  ): Promise<void> {
    if (this.checksIds) this.checkIds(config, "writes", undefined, taskId);
    const pending = new PendingBatch();
    this.prepareWrites(pending, config, writes, taskId, taskPath);
    await this.commit(pending);
  }

  /**
   * Encodes now what a save queued for a later {@link putBatch} stores (`async` durability queues
   * a step's saves and writes them after the next steps have started): a node that changes an
   * object of the state in place then cannot change what the checkpoints saved before it hold,
   * as LangGraph.js's savers copy a checkpoint's values when it is put. Only what the saver has
   * not stored yet is encoded (the new elements of a list, the other values that changed, a
   * task's writes), once: `putBatch` uses these encodings. Synchronous.
   */
  preserve(op: SaverBatchOp): void {
    const threadValue = op.config.configurable?.thread_id;
    if (threadValue === undefined || threadValue === null) return;
    const cache = this.caches.get(String(threadValue));
    // elements read back are known by reference once registered: they are not encoded again
    if (cache.unregistered.length > 0) cache.registerValues();
    if (op.kind === "writes") {
      const encoded: (string | string[])[] = new Array(op.writes.length);
      for (let i = 0; i < op.writes.length; i++) {
        const value = (op.writes[i] as PendingWrite)[1];
        if (Array.isArray(value)) {
          const items: string[] = new Array(value.length);
          for (let j = 0; j < value.length; j++) items[j] = this.holdItem(value[j], cache);
          encoded[i] = items;
        } else {
          const data = this.codec.encode(value);
          encoded[i] = data;
          // the next checkpoint may list it (a Send): it is not encoded again before then
          if (typeof value === "object" && value !== null) cache.heldItems.set(value, data);
        }
      }
      (op as { [HELD]?: Held })[HELD] = { writes: encoded };
      return;
    }
    const values = op.checkpoint.channel_values;
    let held: Record<string, string> | undefined;
    let lengths: Record<string, number> | undefined;
    for (const channel in op.newVersions) {
      if (!Object.hasOwn(values, channel)) continue;
      const value = values[channel];
      if (Array.isArray(value) && !(this.inlineShortLists && value.length <= INLINE_LIST_MAX)) {
        // its length, not a copy (a copy at every step would allocate the whole history each
        // time): what a node appends to the list in place is left out when it is stored
        const length = value.length;
        lengths ??= {};
        lengths[channel] = length;
        // the new elements are the list's tail: walked back to the first element known (stored,
        // or encoded with the task writes that brought it) or not an object, so a step costs
        // what it added, not the length of the history; an element that is new elsewhere (one
        // replaced in the middle) is encoded when it is stored, as every element was before
        for (let i = length - 1; i >= 0; i--) {
          const item: unknown = value[i];
          if (typeof item !== "object" || item === null || itemRefs.has(item) || cache.heldItems.has(item))
            break;
          const data = this.codec.encode(item);
          itemRefs.set(item, itemHash(data));
          cache.heldItems.set(item, data);
        }
      } else {
        held ??= {};
        held[channel] = this.codec.encode(value);
      }
    }
    if (held !== undefined || lengths !== undefined) {
      const kept: Held = {};
      if (held !== undefined) kept.values = held;
      if (lengths !== undefined) kept.lengths = lengths;
      (op as { [HELD]?: Held })[HELD] = kept;
    }
  }

  /** A list element's encoding (a function or symbol as null, see {@link itemize}). */
  private encodeItem(value: unknown): string {
    const isObject = typeof value === "object" && value !== null;
    return this.codec.encode(isObject || !isUnstorable(value) ? value : null);
  }

  /** {@link encodeItem}, the encoding of an object kept for when it is stored. */
  private holdItem(value: unknown, cache: ThreadCache): string {
    const data = this.encodeItem(value);
    if (typeof value === "object" && value !== null) cache.heldItems.set(value, data);
    return data;
  }

  /**
   * Saves the checkpoints and writes of `ops`, in order, in one storage write (one transaction):
   * each checkpoint may be the parent of the next, as the steps of a run are. When that write
   * fails (a full disk, a lost connection, a value that cannot be encoded), it stored nothing:
   * the saves are then made one at a time, in order, so that those before the one that fails
   * are kept (as they are when each is saved on its own), and that one's error is thrown.
   */
  override async putBatch(ops: readonly SaverBatchOp[]): Promise<void> {
    // a subclass that overrides `put` or `putWrites` (to log, delay or decorate saves, as tests
    // and wrappers do) sees every save through its own methods, as with LangGraph.js's savers
    if (
      this.put !== EncodedCheckpointSaver.prototype.put ||
      this.putWrites !== EncodedCheckpointSaver.prototype.putWrites
    ) {
      await putOneByOne(this, ops);
      return;
    }
    if (ops.length < 2) {
      await this.writeBatch(ops);
      return;
    }
    try {
      await this.writeBatch(ops);
    } catch {
      // a failed write teaches the caches nothing (see commit): each save starts from what is stored
      for (let i = 0; i < ops.length; i++) await this.writeBatch([ops[i] as SaverBatchOp]);
    }
  }

  /** {@link putBatch}'s one storage write of `ops`. */
  private async writeBatch(ops: readonly SaverBatchOp[]): Promise<void> {
    const pending = new PendingBatch();
    // indexed loops here and in `commit`: a `for…of` step allocates before the engine optimizes
    // this code, which a run's saves mostly run before
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i] as SaverBatchOp;
      if (this.checksIds) {
        if (op.kind === "checkpoint") this.checkIds(op.config, "put", op.checkpoint.id);
        else this.checkIds(op.config, "writes", undefined, op.taskId);
      }
      if (op.kind === "checkpoint") {
        const prepared = this.prepareCheckpoint(
          pending,
          op.config,
          op.checkpoint,
          op.metadata,
          op.newVersions,
          heldOf(op),
        );
        if (prepared instanceof Promise) await prepared;
      } else {
        this.prepareWrites(pending, op.config, op.writes, op.taskId, op.taskPath, heldOf(op));
      }
    }
    await this.commit(pending);
  }

  /** Writes what a batch prepared; only then do the caches learn it (a failed write teaches them nothing). */
  private async commit(pending: PendingBatch): Promise<void> {
    const rows = pending.rows;
    if (rows.checkpoints.length + rows.blobs.length + rows.items.length + rows.writes.length === 0) return;
    await this.storage.write(rows);
    pending.sending.forEach((refs, threadId) => {
      const known = this.caches.get(threadId).items;
      refs.forEach((ref) => {
        known.add(ref);
      });
    });
    const items = rows.items;
    for (let i = 0; i < items.length; i++) {
      const row = items[i] as ItemRow;
      const cache = this.caches.get(row.threadId);
      // texts are read only while the count is known (see itemsFromTexts)
      if (cache.storedCount !== undefined) {
        cache.texts?.set(row.hash, row.data);
        cache.storedCount += 1;
      }
    }
    pending.lists.forEach((list) => {
      this.caches.get(list.threadId).setList(list.slot, list.version, list.state);
    });
    pending.last.forEach((last, key) => {
      const [threadId, ns] = splitThreadKey(key);
      this.caches.get(threadId).last.set(ns, last);
    });
  }

  /**
   * Prepares the rows of one checkpoint. Synchronous when what it diffs against is at hand (the
   * parent's bookkeeping and list states, cached or prepared earlier in the batch), as it is for
   * every step of a run after the first: a run's saves then cost no storage reads and no turns.
   */
  private prepareCheckpoint(
    pending: PendingBatch,
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
    held?: Held,
  ): RunnableConfig | Promise<RunnableConfig> {
    const threadId = this.requireThreadId(config, "put");
    const ns = String(config.configurable?.checkpoint_ns ?? "");
    const parentValue = config.configurable?.checkpoint_id;
    const parentId =
      parentValue === undefined || parentValue === null || parentValue === ""
        ? undefined
        : String(parentValue);
    const cache = this.caches.get(threadId);
    // A checkpoint put again with itself as its parent (its own config) is stored in full, every
    // value included: the row it replaces, which held some of them, is no base to build on.
    const base = parentId === String(checkpoint.id) ? undefined : parentId;
    if (base === undefined && parentId !== undefined) newVersions = checkpoint.channel_versions;
    const known = base === undefined ? undefined : knownBookkeeping(threadId, ns, base, cache, pending);
    const encode = (parent: LastCheckpoint | undefined): RunnableConfig | Promise<RunnableConfig> => {
      const { found, missing } = previousLists(threadId, ns, checkpoint, newVersions, parent, cache, pending);
      const write = () =>
        this.encodeCheckpoint(pending, {
          threadId,
          ns,
          parentId,
          parent,
          checkpoint,
          metadata,
          newVersions,
          cache,
          prevLists: found,
          held,
        });
      return missing.length === 0
        ? write()
        : this.loadListStates(threadId, ns, missing, cache, found).then(write);
    };
    if (base !== undefined && known === undefined) {
      return this.bookkeepingOf(threadId, ns, base, cache).then(encode);
    }
    return encode(known);
  }

  /** Reads the list states `previousLists` found missing into `found` (a version stored whole adds nothing). */
  private async loadListStates(
    threadId: string,
    ns: string,
    missing: readonly (readonly [channel: string, version: string])[],
    cache: ThreadCache,
    found: Map<string, ListState>,
  ): Promise<void> {
    for (const [channel, version] of missing) {
      const state = await this.listState(threadId, ns, channel, version, cache);
      if (state !== undefined) found.set(channel, state);
    }
  }

  private encodeCheckpoint(pending: PendingBatch, save: CheckpointSave): RunnableConfig {
    const { threadId, ns, parentId, parent, checkpoint, metadata, newVersions, cache, prevLists } = save;
    const held = save.held?.values;
    const heldLength = save.held?.lengths;
    const bookkeeping: Bookkeeping = {
      versions: checkpoint.channel_versions,
      seen: checkpoint.versions_seen,
    };
    const depth = parent !== undefined && parent.depth + 1 < CHECKPOINT_CHAIN_LIMIT ? parent.depth + 1 : 0;
    const full = depth === 0 || parent === undefined;
    const record: CheckpointRecord = full
      ? { v: checkpoint.v, ts: checkpoint.ts, full: copyBookkeeping(bookkeeping) }
      : { v: checkpoint.v, ts: checkpoint.ts, delta: diffBookkeeping(parent.bookkeeping, bookkeeping) };
    // Small values go inside the record rather than in rows of their own: those of the channels
    // in newVersions (an empty channel as null). A full record also carries the inline values of
    // its parent that are still current (the records before it are not read any more).
    const inline: Record<string, string | null> = {};
    const current: Record<string, string | null> = {};
    if (parent !== undefined) {
      for (const channel in parent.inline) {
        const version = checkpoint.channel_versions[channel];
        if (version === undefined || Object.hasOwn(newVersions, channel)) continue;
        if (version !== parent.bookkeeping.versions[channel]) continue;
        current[channel] = parent.inline[channel] ?? null;
      }
    }
    const inlineValue = (channel: string): boolean => {
      let data: string | null = null;
      if (Object.hasOwn(checkpoint.channel_values, channel)) {
        const value = checkpoint.channel_values[channel];
        // a short list is a value like any other (a step's one `Send`); the choice depends on the
        // value alone, so a version is stored in the same form whoever stores it (a prune's rebuild)
        if (Array.isArray(value) && (!this.inlineShortLists || value.length > INLINE_LIST_MAX)) return false;
        data = held?.[channel] ?? this.codec.encode(value);
        if (data.length > INLINE_LIMIT) return false;
      }
      inline[channel] = data;
      current[channel] = data;
      return true;
    };

    const rows = pending.rows;
    const sending = pending.sendingFor(threadId);
    for (const channel in newVersions) {
      const version = checkpoint.channel_versions[channel] ?? (newVersions[channel] as ChannelVersion);
      const versionKey = String(version);
      if (inlineValue(channel)) continue;
      let value = checkpoint.channel_values[channel];
      const queuedLength = heldLength?.[channel];
      // grown in place since it was queued (see preserve)
      if (queuedLength !== undefined && Array.isArray(value) && value.length > queuedLength)
        value = value.slice(0, queuedLength);
      if (!Array.isArray(value)) {
        const data = held?.[channel] ?? this.codec.encode(value);
        rows.blobs.push(blobRow(threadId, ns, channel, versionKey, "value", data, null, 0));
        continue;
      }
      const prevVersion = parent?.bookkeeping.versions[channel];
      const prev = prevLists.get(channel);
      const { refs, length, kept, appended } = this.itemizeAgainst(
        value,
        prev,
        threadId,
        cache,
        rows.items,
        sending,
      );
      let state: ListState;
      const splice =
        prev === undefined
          ? undefined
          : appended !== undefined
            ? { start: prev.length, del: 0, ins: appended }
            : diffLists(upTo(prev.refs, prev.length), upTo(refs, length), kept);
      if (prev !== undefined && splice !== undefined && worthSplicing(splice, length, prev.depth)) {
        rows.blobs.push(
          blobRow(
            threadId,
            ns,
            channel,
            versionKey,
            "splice",
            encodeSplice(splice),
            String(prevVersion),
            prev.depth + 1,
          ),
        );
        state = {
          refs,
          length,
          depth: prev.depth + 1,
          values: keptValues(value, prev, kept),
          changes: cache.changes,
        };
      } else {
        const full = upTo(refs, length);
        rows.blobs.push(blobRow(threadId, ns, channel, versionKey, "list", JSON.stringify(full), null, 0));
        state = { refs, length, depth: 0, values: keptValues(value, prev, kept), changes: cache.changes };
      }
      const slot = listSlot(ns, channel);
      pending.lists.set(pendingListKey(threadId, slot, versionKey), {
        threadId,
        slot,
        version: versionKey,
        state,
      });
    }
    const stored = full ? current : inline;
    for (const _ in stored) {
      record.inline = stored;
      break;
    }
    if (this.keepsUnversionedValues) {
      for (const channel in checkpoint.channel_values) {
        if (Object.hasOwn(checkpoint.channel_versions, channel)) continue;
        // a value without a version (a checkpoint put by hand) is kept with this checkpoint
        record.loose ??= {};
        record.loose[channel] = this.codec.encode(checkpoint.channel_values[channel]);
      }
    }
    let extra: Record<string, unknown> | undefined;
    for (const field in checkpoint) {
      if (!this.keepsExtraFields || CHECKPOINT_FIELDS.has(field)) continue;
      // fields a checkpoint carries beyond the format's (an older format's `pending_sends`)
      extra ??= {};
      extra[field] = (checkpoint as unknown as Record<string, unknown>)[field];
    }
    if (extra !== undefined) record.extra = this.codec.encode(extra);
    const createdAt = recordRowTime(record.ts);
    rows.checkpoints.push({
      threadId,
      ns,
      id: checkpoint.id,
      parentId: parentId ?? null,
      record: encodeRecord(record, parent?.bookkeeping, createdAt),
      metadata: this.encodeMetadata(metadata),
      depth,
      createdAt,
    });
    const prepared: LastCheckpoint = {
      id: checkpoint.id,
      bookkeeping: copyBookkeeping(bookkeeping),
      depth,
      inline: current,
    };
    pending.last.set(threadKey(threadId, ns), prepared);
    pending.prepared.set(threadKey(threadId, `${ns}\u0000${checkpoint.id}`), prepared);
    return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  private prepareWrites(
    pending: PendingBatch,
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath: string,
    kept?: Held,
  ): void {
    const threadId = this.requireThreadId(config, "putWrites");
    const checkpointId = config.configurable?.checkpoint_id;
    if (checkpointId === undefined || checkpointId === null || checkpointId === "") {
      throw new CheckpointConfigError(this.configErrorText("putWrites", "checkpoint_id"));
    }
    const ns = String(config.configurable?.checkpoint_ns ?? "");
    const cache = this.caches.get(threadId);
    const rows = pending.rows;
    const sending = pending.sendingFor(threadId);
    const held = kept?.writes;
    // the pair read by index, not destructured (each destructuring steps an iterator before the
    // engine optimizes this code)
    writes.forEach((write, index) => {
      const heldWrite = held?.[index];
      const channel = write[0];
      const value = write[1];
      const row: WriteRow = {
        threadId,
        ns,
        checkpointId: String(checkpointId),
        taskId,
        idx: WRITES_IDX_MAP[channel] ?? index,
        channel,
        kind: "value",
        data: "",
        taskPath,
      };
      if (Array.isArray(value)) {
        row.kind = "list";
        const encoded = Array.isArray(heldWrite) ? heldWrite : undefined;
        row.data = JSON.stringify(this.itemizeWritten(value, threadId, cache, rows.items, sending, encoded));
      } else {
        row.data = typeof heldWrite === "string" ? heldWrite : this.codec.encode(value);
        if (heldWrite !== undefined && typeof value === "object" && value !== null)
          cache.heldItems.delete(value);
        if (row.data.length > this.writeItemMin && typeof value === "object" && value !== null) {
          // a larger object is stored once as an item: a Send written by a task is also an
          // element of the next checkpoint's tasks channel, which then shares it
          row.kind = "list";
          row.data = JSON.stringify({
            item: this.itemizeWritten([value], threadId, cache, rows.items, sending, [row.data])[0],
          });
        }
      }
      rows.writes.push(row);
    });
  }

  /**
   * The checkpoint `config` names (or the latest of its thread and namespace). A read takes
   * several queries, each seeing the storage as it is then; when another saver (another process)
   * deletes or prunes the thread between them, rows the checkpoint's first row needs can be gone
   * by the time they are read. A read that misses rows looks again whether that checkpoint is
   * still stored: when it is not, the read answers as if it came after the deletion (the new
   * latest checkpoint, or none) rather than reporting a damaged thread; when it is, the rows
   * really are missing and the `CheckpointCorruptError` stands.
   */
  getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return this.readTuple(config, true);
  }

  /**
   * What a read answers when the checkpoint it started from was deleted before it finished (see
   * {@link getTuple}): the latest checkpoint is read again (once: the thread may have been pruned
   * or started over); one named by id is gone.
   */
  private afterDeletion(
    config: RunnableConfig,
    threadId: string,
    latest: boolean,
    again: boolean,
  ): Promise<CheckpointTuple | undefined> | undefined {
    this.caches.drop(threadId);
    return latest && again ? this.readTuple(config, false) : undefined;
  }

  /** Whether the checkpoint a read started from is still stored (see {@link getTuple}). */
  private async stillStored(threadId: string, ns: string, id: string): Promise<boolean> {
    const rows = await this.storage.checkpointChain(threadId, ns, id, id);
    return rows.length > 0;
  }

  private async readTuple(config: RunnableConfig, again: boolean): Promise<CheckpointTuple | undefined> {
    if (this.checksIds) this.checkIds(config, "read");
    const threadValue = config.configurable?.thread_id;
    if (threadValue === undefined || threadValue === null) return undefined;
    const threadId = String(threadValue);
    const ns = String(config.configurable?.checkpoint_ns ?? "");
    const idValue = config.configurable?.checkpoint_id;
    const id = idValue === undefined || idValue === null || idValue === "" ? undefined : String(idValue);
    const cache = this.caches.get(threadId);
    // the chain may stop at the checkpoint this saver last wrote there: its bookkeeping is cached
    const known = cache.last.get(ns);
    const chain = await this.storage.checkpointChain(threadId, ns, id, known?.id);
    const head = chain[0];
    // Reading a thread's latest root checkpoint (what a run does first) re-bases this saver's
    // cache of stored items on the storage: another saver on the same storage (another process)
    // may have deleted or pruned the thread since this one cached it.
    const rebase = id === undefined && ns === "";
    if (head === undefined) {
      if (rebase) {
        this.caches.drop(threadId);
        // a thread without checkpoints holds no items: what this saver writes next is all of them
        this.caches.get(threadId).storedCount = 0;
      } else if (id !== undefined) {
        // A checkpoint named by id is gone: another saver deleted or pruned the thread since this
        // one cached it (what it knows of the thread's items and of the checkpoints it wrote last
        // may be gone too). A save on top of it (an updateState of that config) then stores its
        // values and items in full.
        this.caches.drop(threadId);
      }
      return undefined;
    }
    let missing = false;
    try {
      const { bookkeeping, record, inline } = this.rebuildBookkeeping(chain, known);
      const versions = bookkeeping.versions;
      const wanted: [string, string][] = [];
      for (const channel in versions) {
        if (!Object.hasOwn(inline, channel)) wanted.push([channel, String(versions[channel])]);
      }
      // a list version this saver knows (versions are never reused) needs no rows: only its items
      // (copies: a save while this read waits may extend a state's arrays)
      const lists = new Map<string, string[]>();
      const fetch: [string, string][] = [];
      for (const entry of wanted) {
        const known = cache.list(listSlot(ns, entry[0]), entry[1]);
        if (known === undefined) fetch.push(entry);
        else lists.set(entry[0], refsOf(known));
      }
      const blobRows = fetch.length === 0 ? [] : await this.storage.blobs(threadId, ns, fetch);
      const writeRows = await this.storage.writes(threadId, ns, head.id);
      const index = new BlobRowIndex(blobRows);

      const needed = new Set<string>();
      for (const [channel, version] of fetch) {
        const at = listNodeAt(index, channel, version);
        if (at === undefined) continue;
        const state = this.rebuildList(at, index, threadId, ns, head.id, cache);
        lists.set(channel, refsOf(state));
      }
      // `forEach` and indexed loops over the items: a long history is a thousand references, and
      // each `for…of` step of a first read (before the engine optimizes this code) allocates
      let referenced = 0;
      const need = (refs: readonly string[]): void => {
        referenced += refs.length;
        for (let i = 0; i < refs.length; i++) needed.add(refs[i] as string);
      };
      lists.forEach(need);
      const writeRefs = new Map<WriteRow, WriteRefs>();
      for (const row of writeRows) {
        if (row.kind !== "list") continue;
        const refs = this.writeRefs(row, threadId, ns, head.id);
        writeRefs.set(row, refs);
        need(refs.refs);
      }
      let items = await this.itemsFromTexts(threadId, needed, ns, head.id, cache);
      const fromStorage = items === undefined;
      if (items === undefined) {
        // read from storage: the saver no longer knows how many items the storage holds, and the
        // texts it keeps could not be used again (see itemsFromTexts)
        cache.storedCount = undefined;
        cache.texts?.clear();
        items = await this.loadItems(threadId, needed, ns, head.id);
      }
      // What the checkpoint references is stored. A rebase, or any read the storage answered (the
      // texts could not: another saver may have pruned or deleted items this one knew of since),
      // leaves the saver knowing just that (the set itself: it is not used again here), so that
      // it stores such an item again when it writes it; a read from the texts adds to what it knows.
      if (rebase || fromStorage) cache.items = needed;
      else for (const ref of needed) cache.items.add(ref);

      // equal items are stored once; each place that holds one gets an object of its own
      const take = this.itemTaker(items, referenced > needed.size);
      const channelValues: Record<string, unknown> = {};
      for (const channel in inline) {
        const data = inline[channel];
        if (data === null || data === undefined || !Object.hasOwn(versions, channel)) continue;
        channelValues[channel] = this.decode(data, threadId, ns, head.id, `channel "${channel}"`);
      }
      for (const [channel, version] of wanted) {
        const row = lists.has(channel) ? undefined : index.row(channel, version);
        if (row === undefined && !lists.has(channel)) {
          missing = true;
          continue;
        }
        if (row?.kind === "empty") continue;
        if (row?.kind === "value") {
          channelValues[channel] = this.decode(row.data ?? "", threadId, ns, head.id, `channel "${channel}"`);
        } else {
          const values = (lists.get(channel) ?? []).map(take);
          channelValues[channel] = values;
          // the next save of this list (a run resumed from here) finds these elements by identity
          cache.attachValues(listSlot(ns, channel), version, values.slice());
        }
      }
      for (const channel in record.loose) {
        if (Object.hasOwn(channelValues, channel)) continue;
        const data = record.loose[channel] as string;
        channelValues[channel] = this.decode(data, threadId, ns, head.id, `channel "${channel}"`);
      }
      // a value whose row is gone: deleted since the first row was read, or never stored
      if (missing && !(await this.stillStored(threadId, ns, head.id)))
        return this.afterDeletion(config, threadId, id === undefined, again);
      const pendingWrites = this.decodeWrites(writeRows, writeRefs, take, threadId, ns, head.id);
      const extra =
        record.extra === undefined
          ? undefined
          : (this.decode(record.extra, threadId, ns, head.id, "its extra fields") as Record<string, unknown>);
      const checkpoint: Checkpoint = {
        ...extra,
        v: record.v,
        id: head.id,
        ts: record.ts,
        channel_values: channelValues,
        channel_versions: versions,
        versions_seen: bookkeeping.seen,
      };
      if (record.v < 4 && head.parentId !== null)
        await this.migratePendingSends(checkpoint, threadId, ns, head.parentId);
      const layout = this.tupleLayout;
      const tupleConfig: RunnableConfig =
        this.returnsRequestedConfig && id !== undefined
          ? config
          : layout === "memory"
            ? { configurable: { thread_id: threadId, checkpoint_id: head.id, checkpoint_ns: ns } }
            : { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: head.id } };
      const metadata = this.decodeMetadata(head.metadata, threadId, ns, head.id);
      const parentConfig: RunnableConfig | undefined =
        head.parentId === null
          ? undefined
          : { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: head.parentId } };
      if (layout === "sqlite")
        return { checkpoint, config: tupleConfig, metadata, parentConfig, pendingWrites };
      if (layout === "sql") return { config: tupleConfig, checkpoint, metadata, parentConfig, pendingWrites };
      const tuple: CheckpointTuple = { config: tupleConfig, checkpoint, metadata, pendingWrites };
      if (parentConfig !== undefined) tuple.parentConfig = parentConfig;
      return tuple;
    } catch (error) {
      if (error instanceof CheckpointCorruptError && !(await this.stillStored(threadId, ns, head.id)))
        return this.afterDeletion(config, threadId, id === undefined, again);
      throw error;
    }
  }

  async *list(
    config: RunnableConfig | undefined,
    options: CheckpointListOptions = {},
  ): AsyncGenerator<CheckpointTuple> {
    if (this.checksIds) {
      this.checkIds(config, "list");
      const before = options.before?.configurable?.checkpoint_id;
      if (before !== undefined && before !== null && before !== "")
        checkStorageKey("checkpoint_id", before, false);
    }
    // LangGraph.js's savers list every thread when the config names none (or is left out)
    const threadValue = config?.configurable?.thread_id;
    const nsValue = config?.configurable?.checkpoint_ns;
    const idValue = config?.configurable?.checkpoint_id;
    const beforeValue = options.before?.configurable?.checkpoint_id;
    const listings = await this.storage.listCheckpoints({
      threadId:
        threadValue === undefined || threadValue === null || threadValue === ""
          ? undefined
          : String(threadValue),
      ns: nsValue === undefined || nsValue === null ? undefined : String(nsValue),
      beforeId:
        beforeValue === undefined || beforeValue === null || beforeValue === ""
          ? undefined
          : String(beforeValue),
      id: idValue === undefined || idValue === null || idValue === "" ? undefined : String(idValue),
      // with a metadata filter, the storage cannot know which rows count toward the limit
      limit:
        options.filter === undefined && Number.isInteger(options.limit) && (options.limit as number) >= 0
          ? options.limit
          : undefined,
    });
    let remaining = options.limit;
    for (const listing of listings) {
      if (idValue !== undefined && idValue !== null && idValue !== "" && listing.id !== String(idValue))
        continue;
      if (options.filter !== undefined) {
        const metadata = this.decodeMetadata(
          listing.metadata,
          listing.threadId,
          listing.ns,
          listing.id,
        ) as unknown as Record<string, unknown>;
        if (!metadataMatches(metadata, options.filter, this.filtersByContainment)) continue;
      }
      if (remaining !== undefined) {
        if (remaining <= 0) return;
        remaining -= 1;
      }
      const tuple = await this.getTuple({
        configurable: { thread_id: listing.threadId, checkpoint_ns: listing.ns, checkpoint_id: listing.id },
      });
      if (tuple === undefined) continue;
      // LangGraph.js's SqliteSaver lists its tuples with `config` first
      yield this.tupleLayout === "sqlite" ? Object.assign({ config: tuple.config }, tuple) : tuple;
    }
  }

  async deleteThread(threadId: string): Promise<void> {
    if (this.checksIds) checkStorageKey("thread_id", threadId, false);
    await this.storage.deleteThread(String(threadId));
    this.caches.drop(String(threadId));
  }

  /**
   * Keeps only the newest `keepLast` checkpoints of each namespace of the given threads (with
   * their writes), and everything they need; the rest is deleted. The kept history is re-encoded
   * from scratch (its oldest checkpoint becomes a full one with no parent) and swapped in atomically,
   * unless a checkpoint, or a write of a kept checkpoint, was saved meanwhile: the thread is then
   * read again (a few times at most, then a `CheckpointConfigError`).
   */
  async prune(threadIds: readonly string[], options: { keepLast: number }): Promise<void> {
    const keepLast = options.keepLast;
    if (!Number.isInteger(keepLast) || keepLast < 1) {
      throw new CheckpointConfigError(
        `prune() needs keepLast to be a positive integer (got ${String(keepLast)}).`,
      );
    }
    for (const threadId of threadIds) {
      // a checkpoint or a kept checkpoint's write saved while the thread was read (a run in
      // another process) makes the replacement refuse: the thread is read again, a few times at most
      let attempts = 0;
      while (!(await this.pruneThread(threadId, keepLast))) {
        if (++attempts >= PRUNE_ATTEMPTS) {
          throw new CheckpointConfigError(
            `prune() could not prune thread "${threadId}": new checkpoints or writes were saved to it while it was pruned, ${PRUNE_ATTEMPTS} times. Prune threads that are not running.`,
          );
        }
      }
    }
  }

  /** Prunes one thread (see {@link prune}); false when the storage refused (the thread changed meanwhile). */
  private async pruneThread(threadId: string, keepLast: number): Promise<boolean> {
    const listings = await this.storage.listCheckpoints({ threadId });
    const byNs = new Map<string, string[]>();
    for (const listing of listings) {
      const ids = byNs.get(listing.ns) ?? [];
      ids.push(listing.id);
      byNs.set(listing.ns, ids);
    }
    const scratch = new MemoryCheckpointStorage();
    const rebuilt = new EncodedCheckpointSaver(scratch, this.codec);
    // Kept checkpoints keep their age, so that pruning never makes a thread look recently used.
    const createdAt = new Map<string, number>();
    const readWrites = new Map<string, string>();
    for (const [ns, ids] of byNs) {
      const kept = ids.slice(0, keepLast).reverse();
      const keptSet = new Set(kept);
      let previousVersions: ChannelVersions = {};
      for (const id of kept) {
        // the writes are read before the checkpoint, so that a write saved in between makes the
        // replacement refuse (and the thread read again) rather than be lost
        const stored = await this.storage.writes(threadId, ns, id);
        readWrites.set(checkpointKey(ns, id), writesFingerprint(stored));
        const tuple = await this.getTuple({
          configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id },
        });
        if (tuple === undefined) continue;
        const parentId = tuple.parentConfig?.configurable?.checkpoint_id as string | undefined;
        const parentKept = parentId !== undefined && keptSet.has(parentId);
        const newVersions: ChannelVersions = {};
        for (const [channel, version] of Object.entries(tuple.checkpoint.channel_versions)) {
          if (!parentKept || previousVersions[channel] !== version) newVersions[channel] = version;
        }
        const config: RunnableConfig = { configurable: { thread_id: threadId, checkpoint_ns: ns } };
        if (parentKept) (config.configurable as Record<string, unknown>).checkpoint_id = parentId;
        await rebuilt.put(config, tuple.checkpoint, tuple.metadata as CheckpointMetadata, newVersions);
        const writes = new Map<string, PendingWrite[]>();
        for (const [taskId, channel, value] of tuple.pendingWrites ?? []) {
          const list = writes.get(taskId) ?? [];
          list.push([channel, value]);
          writes.set(taskId, list);
        }
        const at: RunnableConfig = {
          configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id },
        };
        const paths = new Map<string, string>();
        for (const row of stored) paths.set(row.taskId, row.taskPath);
        for (const [taskId, list] of writes)
          await rebuilt.putWrites(at, list, taskId, paths.get(taskId) ?? "");
        const [head] = await this.storage.checkpointChain(threadId, ns, id);
        // a checkpoint whose time is exact in milliseconds is stored with that time as its row's
        // (its age already); others get their original row time back
        if (head !== undefined && !hasExactMillis(tuple.checkpoint.ts))
          createdAt.set(checkpointKey(ns, id), head.createdAt);
        previousVersions = tuple.checkpoint.channel_versions;
      }
    }
    const batch = scratch.exportThread(threadId);
    for (const row of batch.checkpoints)
      row.createdAt = createdAt.get(checkpointKey(row.ns, row.id)) ?? row.createdAt;
    const read = new Set(listings.map((listing) => listing.id));
    const replaced = await this.storage.replaceThread(threadId, batch, read, readWrites);
    this.caches.drop(threadId);
    return replaced !== false;
  }

  /** Deletes threads whose newest checkpoint is older than `maxAgeMs`; returns their ids. */
  async deleteStaleThreads(maxAgeMs: number): Promise<string[]> {
    const stale = await this.storage.staleThreads(Date.now() - maxAgeMs);
    for (const threadId of stale) await this.deleteThread(threadId);
    return stale;
  }

  /**
   * {@link itemize} for a new version of a list whose previous version is `prev`: the elements
   * it kept at its start and end (the same objects, found through `prev.values`) keep their
   * references without a lookup. `kept` is the length of that common start.
   */
  private itemizeAgainst(
    values: readonly unknown[],
    prev: ListState | undefined,
    threadId: string,
    cache: ThreadCache,
    items: ItemRow[],
    sending: Set<string>,
  ): { refs: string[]; length: number; kept: number; appended?: string[] } {
    // elements taken before a task wrote an object back changed in place no longer stand for
    // their references (that object's is new): the list is itemized by reference
    const before = prev?.changes === cache.changes ? prev.values : undefined;
    const length = prev === undefined ? 0 : prev.length;
    if (prev === undefined || before === undefined || before.length < length) {
      const refs = this.itemize(values, threadId, cache, items, sending, prev?.refs, length);
      return { refs, length: refs.length, kept: 0 };
    }
    const max = Math.min(length, values.length);
    let start = 0;
    while (start < max && values[start] === before[start]) start++;
    let end = 0;
    while (end < max - start && values[values.length - 1 - end] === before[length - 1 - end]) end++;
    if (start === values.length && values.length === length) return { refs: prev.refs, length, kept: start };
    const middle = this.itemize(values.slice(start, values.length - end), threadId, cache, items, sending);
    const prevRefs = prev.refs;
    if (start === length && prevRefs.length === length) {
      // the list grew at its end, and nothing else extended the previous state's references:
      // extend them (that state still reads only its first `length`)
      for (let i = 0; i < middle.length; i++) prevRefs.push(middle[i] as string);
      return { refs: prevRefs, length: length + middle.length, kept: start, appended: middle };
    }
    // one array of the final length (pushing onto a copy of the kept start would grow it, copying
    // the whole history again)
    const head = start === prevRefs.length ? prevRefs : prevRefs.slice(0, start);
    const refs = end === 0 ? head.concat(middle) : head.concat(middle, prevRefs.slice(length - end, length));
    return { refs, length: refs.length, kept: start };
  }

  /**
   * The references of a list's elements; elements this thread has not stored yet are added to
   * `items` (once per batch: `sending`). The cache learns them only once the batch is written, so
   * a failed write never leaves it believing they are stored. `before`: the previous version's
   * references (its first `beforeLength`), index for index (an element found there is stored
   * already).
   */
  private itemize(
    values: readonly unknown[],
    threadId: string,
    cache: ThreadCache,
    items: ItemRow[],
    sending: Set<string>,
    before?: readonly string[],
    beforeLength = 0,
  ): string[] {
    const refs: string[] = new Array(values.length);
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      const isObject = typeof value === "object" && value !== null;
      let ref = isObject ? itemRefs.get(value) : undefined;
      // encoded when its save was queued (see preserve), as it was then
      let data = isObject ? cache.heldItems.get(value as object) : undefined;
      if (data !== undefined) cache.heldItems.delete(value as object);
      if (ref === undefined) {
        // a function or symbol in a list is stored as null, as JSON (and LangGraph.js) stores it
        // inside an array; alone it would be stored as undefined
        data ??= this.codec.encode(isObject || !isUnstorable(value) ? value : null);
        ref = itemHash(data);
        if (isObject) itemRefs.set(value, ref);
      } else if (before !== undefined && i < beforeLength && before[i] === ref) {
        // where the previous version of the list had it: stored, or being stored
        refs[i] = ref;
        continue;
      }
      if (!cache.items.has(ref) && !sending.has(ref)) {
        items.push({ threadId, hash: ref, data: data ?? this.codec.encode(value) });
        sending.add(ref);
      }
      refs[i] = ref;
    }
    return refs;
  }

  /**
   * {@link itemize} for the values a task wrote: each is encoded as it is now, not found by
   * identity, because a node may write back an object of the state it changed in place
   * (`message.content = …; return { messages: [message] }`). Such an object gets its new
   * reference, and the thread's list states taken before find their elements by reference
   * again ({@link ThreadCache.changes}), so the change is stored as LangGraph.js stores it.
   * A task's writes are mostly new objects, which are encoded either way.
   */
  private itemizeWritten(
    values: readonly unknown[],
    threadId: string,
    cache: ThreadCache,
    items: ItemRow[],
    sending: Set<string>,
    encoded?: readonly string[],
  ): string[] {
    if (cache.unregistered.length > 0) cache.registerValues();
    const refs: string[] = new Array(values.length);
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      const isObject = typeof value === "object" && value !== null;
      const data = encoded?.[i] ?? this.encodeItem(value);
      const ref = itemHash(data);
      if (isObject) {
        cache.heldItems.delete(value);
        const known = itemRefs.get(value);
        if (known !== ref) {
          if (known !== undefined) cache.changes += 1;
          itemRefs.set(value, ref);
        }
      }
      if (!cache.items.has(ref) && !sending.has(ref)) {
        items.push({ threadId, hash: ref, data });
        sending.add(ref);
      }
      refs[i] = ref;
    }
    return refs;
  }

  /** The bookkeeping of checkpoint `id`, read from storage (callers look in the batch and the cache first: {@link knownBookkeeping}). */
  private async bookkeepingOf(
    threadId: string,
    ns: string,
    id: string,
    cache: ThreadCache,
  ): Promise<LastCheckpoint | undefined> {
    const last = cache.last.get(ns);
    const chain = await this.storage.checkpointChain(threadId, ns, id, last?.id);
    if (chain.length === 0) return undefined;
    const { bookkeeping, inline } = this.rebuildBookkeeping(chain, last);
    return { id, bookkeeping, depth: (chain[0] as CheckpointRow).depth, inline };
  }

  /**
   * The bookkeeping of the head of `chain` (newest first, down to a full record, or to `known`:
   * a checkpoint whose bookkeeping this saver holds, which then stands for its ancestors), its
   * record, and the channel values kept inline in the records: the entry of the newest record
   * that changed each channel (a record that changes a channel without an inline entry stored it
   * as a row).
   */
  private rebuildBookkeeping(
    chain: CheckpointRow[],
    known: LastCheckpoint | undefined,
  ): {
    bookkeeping: Bookkeeping;
    record: CheckpointRecord;
    inline: Record<string, string | null>;
  } {
    const head = chain[0] as CheckpointRow;
    const views = chain.map((row) => {
      try {
        return parseRecord(row.record);
      } catch (error) {
        throw new CheckpointCorruptError(row.threadId, row.ns, row.id, "its record is not valid JSON", error);
      }
    });
    let bookkeeping: Bookkeeping | undefined;
    let inline: Record<string, string | null> = {};
    let record: CheckpointRecord | undefined;
    let first = views.length - 1;
    const base = chain[first] as CheckpointRow;
    if (known !== undefined && base.id === known.id) {
      // copies: what getTuple returns is the caller's to change
      bookkeeping = copyBookkeeping(known.bookkeeping);
      inline = { ...known.inline };
      record = resolveRecord(views[first] as StoredRecordView, undefined, base.createdAt);
      first -= 1;
    } else if (!isFullRecord(views[first] as StoredRecordView)) {
      throw new CheckpointCorruptError(
        head.threadId,
        head.ns,
        head.id,
        "its chain of deltas does not reach a full record",
      );
    }
    for (let i = first; i >= 0; i--) {
      record = resolveRecord(
        views[i] as StoredRecordView,
        bookkeeping,
        (chain[i] as CheckpointRow).createdAt,
      );
      if (record.full !== undefined) {
        bookkeeping = copyBookkeeping(record.full);
        inline = { ...record.inline };
      } else if (record.delta !== undefined && bookkeeping !== undefined) {
        bookkeeping = applyBookkeepingDelta(bookkeeping, record.delta);
        for (const channel in record.delta.versions) delete inline[channel];
        for (const channel in record.inline) inline[channel] = record.inline[channel] ?? null;
      } else {
        const row = chain[i] as CheckpointRow;
        throw new CheckpointCorruptError(
          row.threadId,
          row.ns,
          row.id,
          "its record has neither bookkeeping nor delta",
        );
      }
    }
    return { bookkeeping: bookkeeping as Bookkeeping, record: record as CheckpointRecord, inline };
  }

  /** The list whose head is row `at` of `index`: its full node with its splices applied. */
  private rebuildList(
    at: number,
    index: BlobRowIndex,
    threadId: string,
    ns: string,
    checkpointId: string,
    cache: ThreadCache,
  ): ListState {
    const row = index.rows[at] as BlobRow;
    const slot = listSlot(ns, row.channel);
    const cached = cache.list(slot, row.version);
    if (cached !== undefined) return cached;
    // the splices, newest first, down to the full node
    const { nodes } = index.chainBelow(at);
    const node = nodes.length === 0 ? row : (nodes[nodes.length - 1] as BlobRow);
    const chain: BlobRow[] = [];
    if (row.kind === "splice") {
      chain.push(row);
      for (let i = 0; i < nodes.length - 1; i++) chain.push(nodes[i] as BlobRow);
    }
    if (node.kind !== "list") {
      throw new CheckpointCorruptError(
        threadId,
        ns,
        checkpointId,
        `the stored list of channel "${row.channel}" is missing a node`,
      );
    }
    let refs = this.parseJson<string[]>(
      node.data ?? "[]",
      threadId,
      ns,
      checkpointId,
      `channel "${row.channel}"`,
    );
    // one parse for the whole chain (a splice is a short JSON array); node by node only to find
    // which one is damaged
    let parsed: unknown[] | undefined;
    if (chain.length > 1) {
      try {
        parsed = JSON.parse(`[${chain.map((node) => node.data ?? "").join(",")}]`) as unknown[];
        if (parsed.length !== chain.length) parsed = undefined;
      } catch {
        parsed = undefined;
      }
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const stored =
        parsed !== undefined
          ? parsed[i]
          : this.parseJson<unknown>(
              (chain[i] as BlobRow).data ?? "",
              threadId,
              ns,
              checkpointId,
              `channel "${row.channel}"`,
            );
      try {
        refs = applyStoredSplice(refs, stored);
      } catch (error) {
        throw new CheckpointCorruptError(
          threadId,
          ns,
          checkpointId,
          `a splice of channel "${row.channel}" does not apply`,
          error,
        );
      }
    }
    const state = { refs, length: refs.length, depth: row.depth };
    cache.setList(slot, row.version, state);
    return state;
  }

  /** The state of a list version read from storage (callers look in the caches first). */
  private async listState(
    threadId: string,
    ns: string,
    channel: string,
    version: string,
    cache: ThreadCache,
  ): Promise<ListState | undefined> {
    const rows = await this.storage.blobs(threadId, ns, [[channel, version]]);
    const index = new BlobRowIndex(rows);
    const at = listNodeAt(index, channel, version);
    return at === undefined ? undefined : this.rebuildList(at, index, threadId, ns, "(parent)", cache);
  }

  /**
   * The items `refs` decoded from the texts the thread's cache holds ({@link ThreadCache.texts}),
   * when it holds them all and the storage holds as many items of the thread as this saver
   * wrote to it ({@link ThreadCache.storedCount}): a row deleted behind the saver's back, or
   * added by another saver, changes the count and sends the read to the storage (which then
   * reports what is missing). `undefined` when the storage must be read.
   */
  private async itemsFromTexts(
    threadId: string,
    refs: Set<string>,
    ns: string,
    checkpointId: string,
    cache: ThreadCache,
  ): Promise<Map<string, unknown> | undefined> {
    const texts = cache.texts;
    const expected = cache.storedCount;
    if (
      texts === undefined ||
      expected === undefined ||
      refs.size === 0 ||
      this.storage.itemCount === undefined
    )
      return undefined;
    // `forEach`, not `for…of`: a first read runs this over a thousand items before the engine
    // optimizes it, where each iteration step would allocate
    let complete = true;
    refs.forEach((ref) => {
      if (!texts.has(ref)) complete = false;
    });
    if (!complete) return undefined;
    const counted = this.storage.itemCount(threadId);
    const stored = typeof counted === "number" ? counted : await counted;
    if (stored !== expected) return undefined;
    const out = new Map<string, unknown>();
    const codec = this.codec;
    try {
      const values = this.jsonItems ? decodeTextsTogether(refs, texts) : undefined;
      let i = 0;
      refs.forEach((ref) => {
        out.set(ref, values === undefined ? codec.decode(texts.get(ref) as string) : values[i++]);
      });
    } catch (error) {
      throw itemDecodeError(threadId, ns, checkpointId, error);
    }
    return out;
  }

  private async loadItems(
    threadId: string,
    refs: Set<string>,
    ns: string,
    checkpointId: string,
  ): Promise<Map<string, unknown>> {
    if (refs.size === 0) return new Map<string, unknown>();
    // the items decoded together: from the storage's one text, else from its rows' texts
    let together = this.jsonItems;
    if (together && this.storage.itemsJson !== undefined) {
      const { text, count } = await this.storage.itemsJson(threadId, refs);
      let decoded: Map<string, unknown> | undefined;
      try {
        decoded = text === null ? new Map<string, unknown>() : decodeKeyedJson(text, count, refs);
      } catch (error) {
        throw itemDecodeError(threadId, ns, checkpointId, error);
      }
      if (decoded !== undefined) return this.checkItems(decoded, refs, threadId, ns, checkpointId);
      // a text that is not such an array: the items one by one name the one that is damaged
      together = false;
    }
    const rows = await this.storage.items(threadId, refs);
    const out = new Map<string, unknown>();
    const codec = this.codec;
    try {
      const values = together ? decodeRowsTogether(rows) : undefined;
      // indexed, not iterated: a long history is a thousand rows
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i] as ItemRow;
        out.set(row.hash, values === undefined ? codec.decode(row.data) : values[i]);
      }
    } catch (error) {
      throw itemDecodeError(threadId, ns, checkpointId, error);
    }
    return this.checkItems(out, refs, threadId, ns, checkpointId);
  }

  /** `out`, when it holds every item of `refs`; else a CheckpointCorruptError saying how many are missing. */
  private checkItems(
    out: Map<string, unknown>,
    refs: Set<string>,
    threadId: string,
    ns: string,
    checkpointId: string,
  ): Map<string, unknown> {
    if (out.size !== refs.size) {
      const missing = [...refs].filter((ref) => !out.has(ref));
      throw new CheckpointCorruptError(
        threadId,
        ns,
        checkpointId,
        `${missing.length} stored list item(s) are missing`,
      );
    }
    return out;
  }

  /** The item references of a write stored as items: a list's, or one object's (`{ item }`). */
  private writeRefs(row: WriteRow, threadId: string, ns: string, checkpointId: string): WriteRefs {
    const parsed = this.parseJson<unknown>(row.data, threadId, ns, checkpointId, "a pending write");
    if (Array.isArray(parsed)) return { refs: parsed as string[], single: false };
    const item = (parsed as { item?: unknown } | null)?.item;
    if (typeof item !== "string") {
      throw new CheckpointCorruptError(
        threadId,
        ns,
        checkpointId,
        `a pending write of task ${row.taskId} names no stored item`,
      );
    }
    return { refs: [item], single: true };
  }

  /**
   * How a read turns item references into values: the decoded item, and, when the read meets an
   * item again (`repeats`: equal values in two places, such as two equal messages without an id
   * written by two tasks), a copy of its own for each later place, as separately stored values
   * would be. Two places sharing one object would otherwise change together: the messages
   * reducer naming the first would name the second, which then replaced it.
   */
  private itemTaker(items: Map<string, unknown>, repeats: boolean): (ref: string) => unknown {
    if (!repeats) return (ref) => items.get(ref);
    const taken = new Set<string>();
    const codec = this.codec;
    return (ref) => {
      const value = items.get(ref);
      if (!taken.has(ref)) {
        taken.add(ref);
        return value;
      }
      return codec.decode(codec.encode(value));
    };
  }

  private decodeWrites(
    rows: WriteRow[],
    refs: Map<WriteRow, WriteRefs>,
    take: (ref: string) => unknown,
    threadId: string,
    ns: string,
    checkpointId: string,
  ): CheckpointPendingWrite[] {
    const sorted = [...rows].sort(
      (a, b) =>
        compareCodePoints(a.taskPath, b.taskPath) || compareCodePoints(a.taskId, b.taskId) || a.idx - b.idx,
    );
    return sorted.map((row) => {
      const stored = row.kind === "list" ? refs.get(row) : undefined;
      const value =
        stored === undefined
          ? this.decode(row.data, threadId, ns, checkpointId, `a write of task ${row.taskId}`)
          : stored.single
            ? take(stored.refs[0] as string)
            : stored.refs.map(take);
      return [row.taskId, row.channel, value];
    });
  }

  /** Checkpoints older than format v4 kept pending `Send`s as writes of their parent. */
  private async migratePendingSends(
    checkpoint: Checkpoint,
    threadId: string,
    ns: string,
    parentId: string,
  ): Promise<void> {
    const rows = (await this.storage.writes(threadId, ns, parentId)).filter((row) => row.channel === TASKS);
    if (rows.length === 0 && !this.migratesWithoutSends) return;
    const refs = new Map<WriteRow, WriteRefs>();
    const needed = new Set<string>();
    for (const row of rows) {
      if (row.kind !== "list") continue;
      const stored = this.writeRefs(row, threadId, ns, parentId);
      refs.set(row, stored);
      for (const ref of stored.refs) needed.add(ref);
    }
    const items = await this.loadItems(threadId, needed, ns, parentId);
    const cache = this.caches.get(threadId);
    for (const ref of needed) cache.items.add(ref);
    const sends = this.decodeWrites(rows, refs, this.itemTaker(items, true), threadId, ns, parentId).map(
      ([, , value]) => value,
    );
    checkpoint.channel_values[TASKS] = sends;
    // as LangGraph.js's savers: the newest version the checkpoint has (a new one if it has none)
    checkpoint.channel_versions[TASKS] =
      maxChannelVersion(...Object.values(checkpoint.channel_versions)) ?? this.getNextVersion(undefined);
  }

  /**
   * The loop's usual metadata, `{ source, step, parents: {} }` and nothing else, is stored as
   * `"<source>:<step>"` (a checkpoint of each step carries it); anything else is encoded whole
   * (its text starts with `{`).
   */
  private encodeMetadata(metadata: CheckpointMetadata): string {
    const { source, step, parents } = metadata as { source?: unknown; step?: unknown; parents?: unknown };
    let keys = 0;
    for (const _ in metadata) keys++;
    if (
      keys === 3 &&
      typeof source === "string" &&
      COMPACT_SOURCES.has(source) &&
      Number.isSafeInteger(step) &&
      typeof parents === "object" &&
      parents !== null &&
      Object.getPrototypeOf(parents) === Object.prototype &&
      Object.keys(parents).length === 0
    ) {
      return `${source}:${step as number}`;
    }
    return this.codec.encode(metadata);
  }

  private decodeMetadata(
    text: string,
    threadId: string,
    ns: string,
    checkpointId: string,
  ): CheckpointMetadata {
    const compact = COMPACT_METADATA.exec(text);
    if (compact !== null) {
      return { source: compact[1], step: Number(compact[2]), parents: {} } as CheckpointMetadata;
    }
    return this.decode(text, threadId, ns, checkpointId, "metadata") as CheckpointMetadata;
  }

  private decode(text: string, threadId: string, ns: string, checkpointId: string, what: string): unknown {
    try {
      return this.codec.decode(text);
    } catch (error) {
      throw new CheckpointCorruptError(threadId, ns, checkpointId, `${what} cannot be decoded`, error);
    }
  }

  private parseJson<T>(text: string, threadId: string, ns: string, checkpointId: string, what: string): T {
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new CheckpointCorruptError(threadId, ns, checkpointId, `${what} is not valid JSON`, error);
    }
  }
}
