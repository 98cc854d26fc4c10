import { AgentGraphError, type RunnableConfig } from "../../../shared/index.js";
import { type ChannelVersion, contentHash, TASKS } from "../../core/index.js";
import {
  BaseCheckpointSaver,
  type CheckpointListOptions,
  type CheckpointTuple,
  WRITES_IDX_MAP,
} from "../base-saver.js";
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointMetadata,
  CheckpointPendingWrite,
  PendingWrite,
} from "../types.js";
import { applySplice, diffLists, type Splice, worthSplicing } from "./list-delta.js";
import { MemoryCheckpointStorage } from "./memory-storage.js";
import {
  applyBookkeepingDelta,
  type Bookkeeping,
  CHECKPOINT_CHAIN_LIMIT,
  copyBookkeeping,
  diffBookkeeping,
} from "./record-delta.js";
import type {
  BlobRow,
  CheckpointRecord,
  CheckpointRow,
  CheckpointStorage,
  ItemRow,
  StorageBatch,
  WriteRow,
} from "./storage.js";

/** Turns values into text and back (the checkpoint serializer's synchronous interface). */
export interface ValueCodec {
  encode(value: unknown): string;
  decode(text: string): unknown;
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

interface ListState {
  refs: string[];
  depth: number;
}

interface LastCheckpoint {
  id: string;
  bookkeeping: Bookkeeping;
  depth: number;
}

/** What the saver remembers of one thread between calls (bounded: see {@link ThreadCaches}). */
class ThreadCache {
  readonly last = new Map<string, LastCheckpoint>();
  readonly lists = new Map<string, ListState>();
  readonly items = new Set<string>();
}

/** Per-thread caches, least recently used thread evicted first. */
class ThreadCaches {
  private readonly threads = new Map<string, ThreadCache>();
  constructor(private readonly capacity: number) {}

  get(threadId: string): ThreadCache {
    let cache = this.threads.get(threadId);
    if (cache !== undefined) {
      this.threads.delete(threadId);
      this.threads.set(threadId, cache);
      return cache;
    }
    cache = new ThreadCache();
    this.threads.set(threadId, cache);
    if (this.threads.size > this.capacity) {
      const oldest = this.threads.keys().next().value as string;
      this.threads.delete(oldest);
    }
    return cache;
  }

  drop(threadId: string): void {
    this.threads.delete(threadId);
  }
}

/** Item references of objects already hashed (objects in state are treated as immutable). */
const itemRefs = new WeakMap<object, string>();

const listKey = (ns: string, channel: string, version: string) => `${ns}\u0000${channel}\u0000${version}`;

function requireString(config: RunnableConfig, key: string, action: string): string {
  const value = config.configurable?.[key];
  if (typeof value !== "string" && typeof value !== "number") {
    throw new CheckpointConfigError(
      `Failed to ${action}. The passed RunnableConfig is missing a required "${key}" field in its "configurable" property. When using a checkpointer, you must pass a "thread_id" so the checkpointer knows which conversation thread to persist state for. Example: graph.stream(input, { configurable: { thread_id: "my-thread-id" } })`,
    );
  }
  return String(value);
}

function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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
  private readonly caches = new ThreadCaches(512);
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(storage: CheckpointStorage, codec: ValueCodec, options: SaverRetentionOptions = {}) {
    super();
    this.storage = storage;
    this.codec = codec;
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
   * Versions unique across forks: `<counter, 32 digits>.<16 random hex digits>`. They sort by
   * counter, and two branches forked from one checkpoint never mint the same version.
   */
  override getNextVersion(current: string | number | undefined): string {
    let counter = 0;
    if (typeof current === "number") counter = current;
    else if (typeof current === "string") counter = Number.parseInt(current.split(".")[0] ?? "0", 10) || 0;
    const random = Math.floor(Math.random() * 2 ** 32)
      .toString(16)
      .padStart(8, "0");
    const random2 = Math.floor(Math.random() * 2 ** 32)
      .toString(16)
      .padStart(8, "0");
    return `${String(counter + 1).padStart(32, "0")}.${random}${random2}`;
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const threadId = requireString(config, "thread_id", "put checkpoint");
    const ns = String(config.configurable?.checkpoint_ns ?? "");
    const parentValue = config.configurable?.checkpoint_id;
    const parentId =
      parentValue === undefined || parentValue === null || parentValue === ""
        ? undefined
        : String(parentValue);
    const cache = this.caches.get(threadId);
    const parent =
      parentId === undefined ? undefined : await this.bookkeepingOf(threadId, ns, parentId, cache);

    const bookkeeping: Bookkeeping = {
      versions: checkpoint.channel_versions,
      seen: checkpoint.versions_seen,
    };
    const depth = parent !== undefined && parent.depth + 1 < CHECKPOINT_CHAIN_LIMIT ? parent.depth + 1 : 0;
    const record: CheckpointRecord =
      depth === 0 || parent === undefined
        ? { v: checkpoint.v, ts: checkpoint.ts, full: copyBookkeeping(bookkeeping) }
        : { v: checkpoint.v, ts: checkpoint.ts, delta: diffBookkeeping(parent.bookkeeping, bookkeeping) };

    const batch: StorageBatch = { checkpoints: [], blobs: [], items: [], writes: [] };
    batch.checkpoints.push({
      threadId,
      ns,
      id: checkpoint.id,
      parentId: parentId ?? null,
      record: JSON.stringify(record),
      metadata: this.codec.encode(metadata),
      depth,
      createdAt: Date.now(),
    });
    const newLists: [string, ListState][] = [];
    const sending = new Set<string>();
    for (const channel in newVersions) {
      const version = checkpoint.channel_versions[channel] ?? (newVersions[channel] as ChannelVersion);
      const versionKey = String(version);
      const base = { threadId, ns, channel, version: versionKey };
      if (!Object.hasOwn(checkpoint.channel_values, channel)) {
        batch.blobs.push({ ...base, kind: "empty", data: null, prev: null, depth: 0 });
        continue;
      }
      const value = checkpoint.channel_values[channel];
      if (!Array.isArray(value)) {
        batch.blobs.push({ ...base, kind: "value", data: this.codec.encode(value), prev: null, depth: 0 });
        continue;
      }
      const refs = this.itemize(value, threadId, cache, batch.items, sending);
      const prevVersion = parent?.bookkeeping.versions[channel];
      const prev =
        prevVersion === undefined
          ? undefined
          : await this.listState(threadId, ns, channel, String(prevVersion), cache);
      let state: ListState;
      const splice = prev === undefined ? undefined : diffLists(prev.refs, refs);
      if (prev !== undefined && splice !== undefined && worthSplicing(splice, refs.length, prev.depth)) {
        batch.blobs.push({
          ...base,
          kind: "splice",
          data: JSON.stringify(splice),
          prev: String(prevVersion),
          depth: prev.depth + 1,
        });
        state = { refs, depth: prev.depth + 1 };
      } else {
        batch.blobs.push({ ...base, kind: "list", data: JSON.stringify(refs), prev: null, depth: 0 });
        state = { refs, depth: 0 };
      }
      newLists.push([listKey(ns, channel, versionKey), state]);
    }
    await this.storage.write(batch);
    for (const item of batch.items) cache.items.add(item.hash);
    for (const [key, state] of newLists) cache.lists.set(key, state);
    cache.last.set(ns, { id: checkpoint.id, bookkeeping: copyBookkeeping(bookkeeping), depth });
    return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath = "",
  ): Promise<void> {
    const threadId = requireString(config, "thread_id", "put writes");
    const checkpointId = config.configurable?.checkpoint_id;
    if (checkpointId === undefined || checkpointId === null || checkpointId === "") {
      throw new CheckpointConfigError(
        'Failed to put writes. The passed RunnableConfig is missing a required "checkpoint_id" field in its "configurable" property.',
      );
    }
    const ns = String(config.configurable?.checkpoint_ns ?? "");
    const cache = this.caches.get(threadId);
    const batch: StorageBatch = { checkpoints: [], blobs: [], items: [], writes: [] };
    const sending = new Set<string>();
    writes.forEach(([channel, value], index) => {
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
        row.data = JSON.stringify(this.itemize(value, threadId, cache, batch.items, sending));
      } else {
        row.data = this.codec.encode(value);
      }
      batch.writes.push(row);
    });
    await this.storage.write(batch);
    for (const item of batch.items) cache.items.add(item.hash);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadValue = config.configurable?.thread_id;
    if (threadValue === undefined || threadValue === null) return undefined;
    const threadId = String(threadValue);
    const ns = String(config.configurable?.checkpoint_ns ?? "");
    const idValue = config.configurable?.checkpoint_id;
    const id = idValue === undefined || idValue === null || idValue === "" ? undefined : String(idValue);
    const cache = this.caches.get(threadId);
    const chain = await this.storage.checkpointChain(threadId, ns, id);
    const head = chain[0];
    // Reading a thread's latest root checkpoint (what a run does first) re-bases this saver's
    // cache of stored items on the storage: another saver on the same storage (another process)
    // may have deleted or pruned the thread since this one cached it.
    const rebase = id === undefined && ns === "";
    if (head === undefined) {
      if (rebase) this.caches.drop(threadId);
      return undefined;
    }
    const { bookkeeping, record } = this.rebuildBookkeeping(chain);
    const versions = bookkeeping.versions;
    const wanted: [string, string][] = [];
    for (const channel in versions) wanted.push([channel, String(versions[channel])]);
    const blobRows = wanted.length === 0 ? [] : await this.storage.blobs(threadId, ns, wanted);
    const writeRows = await this.storage.writes(threadId, ns, head.id);
    const index = new Map<string, BlobRow>();
    for (const row of blobRows) index.set(`${row.channel}\u0000${row.version}`, row);

    const lists = new Map<string, string[]>();
    const needed = new Set<string>();
    for (const [channel, version] of wanted) {
      const row = index.get(`${channel}\u0000${version}`);
      if (row === undefined || (row.kind !== "list" && row.kind !== "splice")) continue;
      const state = this.rebuildList(row, index, threadId, ns, head.id, cache);
      lists.set(channel, state.refs);
      for (const ref of state.refs) needed.add(ref);
    }
    const writeRefs = new Map<WriteRow, string[]>();
    for (const row of writeRows) {
      if (row.kind !== "list") continue;
      const refs = this.parseJson<string[]>(row.data, threadId, ns, head.id, "a pending write");
      writeRefs.set(row, refs);
      for (const ref of refs) needed.add(ref);
    }
    if (rebase) cache.items.clear();
    const items = await this.loadItems(threadId, needed, ns, head.id, cache);

    const channelValues: Record<string, unknown> = {};
    for (const [channel, version] of wanted) {
      const row = index.get(`${channel}\u0000${version}`);
      if (row === undefined || row.kind === "empty") continue;
      if (row.kind === "value") {
        channelValues[channel] = this.decode(row.data ?? "", threadId, ns, head.id, `channel "${channel}"`);
      } else {
        channelValues[channel] = (lists.get(channel) ?? []).map((ref) => items.get(ref));
      }
    }
    const pendingWrites = this.decodeWrites(writeRows, writeRefs, items, threadId, ns, head.id);
    const checkpoint: Checkpoint = {
      v: record.v,
      id: head.id,
      ts: record.ts,
      channel_values: channelValues,
      channel_versions: versions,
      versions_seen: bookkeeping.seen,
    };
    if (record.v < 4 && head.parentId !== null)
      await this.migratePendingSends(checkpoint, threadId, ns, head.parentId);
    const tuple: CheckpointTuple = {
      config: { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: head.id } },
      checkpoint,
      metadata: this.decode(head.metadata, threadId, ns, head.id, "metadata") as CheckpointMetadata,
      pendingWrites,
    };
    if (head.parentId !== null) {
      tuple.parentConfig = {
        configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: head.parentId },
      };
    }
    return tuple;
  }

  async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const threadValue = config.configurable?.thread_id;
    const nsValue = config.configurable?.checkpoint_ns;
    const idValue = config.configurable?.checkpoint_id;
    const beforeValue = options.before?.configurable?.checkpoint_id;
    const listings = await this.storage.listCheckpoints({
      threadId: threadValue === undefined || threadValue === null ? undefined : String(threadValue),
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
        const metadata = this.decode(
          listing.metadata,
          listing.threadId,
          listing.ns,
          listing.id,
          "metadata",
        ) as Record<string, unknown>;
        if (!Object.entries(options.filter).every(([key, value]) => metadata[key] === value)) continue;
      }
      if (remaining !== undefined) {
        if (remaining <= 0) return;
        remaining -= 1;
      }
      const tuple = await this.getTuple({
        configurable: { thread_id: listing.threadId, checkpoint_ns: listing.ns, checkpoint_id: listing.id },
      });
      if (tuple !== undefined) yield tuple;
    }
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.storage.deleteThread(String(threadId));
    this.caches.drop(String(threadId));
  }

  /**
   * Keeps only the newest `keepLast` checkpoints of each namespace of the given threads (with
   * their writes), and everything they need; the rest is deleted. The kept history is re-encoded
   * from scratch (its oldest checkpoint becomes a full one with no parent) and swapped in atomically.
   */
  async prune(threadIds: readonly string[], options: { keepLast: number }): Promise<void> {
    const keepLast = options.keepLast;
    if (!Number.isInteger(keepLast) || keepLast < 1) {
      throw new CheckpointConfigError(
        `prune() needs keepLast to be a positive integer (got ${String(keepLast)}).`,
      );
    }
    for (const threadId of threadIds) {
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
      for (const [ns, ids] of byNs) {
        const kept = ids.slice(0, keepLast).reverse();
        const keptSet = new Set(kept);
        let previousVersions: ChannelVersions = {};
        for (const id of kept) {
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
          if (writes.size > 0) {
            for (const row of await this.storage.writes(threadId, ns, id))
              paths.set(row.taskId, row.taskPath);
          }
          for (const [taskId, list] of writes)
            await rebuilt.putWrites(at, list, taskId, paths.get(taskId) ?? "");
          const [head] = await this.storage.checkpointChain(threadId, ns, id);
          if (head !== undefined) createdAt.set(`${ns}\u0000${id}`, head.createdAt);
          previousVersions = tuple.checkpoint.channel_versions;
        }
      }
      const batch = scratch.exportThread(threadId);
      for (const row of batch.checkpoints)
        row.createdAt = createdAt.get(`${row.ns}\u0000${row.id}`) ?? row.createdAt;
      await this.storage.replaceThread(threadId, batch);
      this.caches.drop(threadId);
    }
  }

  /** Deletes threads whose newest checkpoint is older than `maxAgeMs`; returns their ids. */
  async deleteStaleThreads(maxAgeMs: number): Promise<string[]> {
    const stale = await this.storage.staleThreads(Date.now() - maxAgeMs);
    for (const threadId of stale) await this.deleteThread(threadId);
    return stale;
  }

  /**
   * The references of a list's elements; elements this thread has not stored yet are added to
   * `items` (once per batch: `sending`). The cache learns them only once the batch is written, so
   * a failed write never leaves it believing they are stored.
   */
  private itemize(
    values: readonly unknown[],
    threadId: string,
    cache: ThreadCache,
    items: ItemRow[],
    sending: Set<string>,
  ): string[] {
    const refs: string[] = new Array(values.length);
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      const isObject = typeof value === "object" && value !== null;
      let ref = isObject ? itemRefs.get(value) : undefined;
      let data: string | undefined;
      if (ref === undefined) {
        data = this.codec.encode(value);
        ref = contentHash(data);
        if (isObject) itemRefs.set(value, ref);
      }
      if (!cache.items.has(ref) && !sending.has(ref)) {
        items.push({ threadId, hash: ref, data: data ?? this.codec.encode(value) });
        sending.add(ref);
      }
      refs[i] = ref;
    }
    return refs;
  }

  private async bookkeepingOf(
    threadId: string,
    ns: string,
    id: string,
    cache: ThreadCache,
  ): Promise<LastCheckpoint | undefined> {
    const last = cache.last.get(ns);
    if (last?.id === id) return last;
    const chain = await this.storage.checkpointChain(threadId, ns, id);
    if (chain.length === 0) return undefined;
    const { bookkeeping } = this.rebuildBookkeeping(chain);
    return { id, bookkeeping, depth: (chain[0] as CheckpointRow).depth };
  }

  private rebuildBookkeeping(chain: CheckpointRow[]): { bookkeeping: Bookkeeping; record: CheckpointRecord } {
    const head = chain[0] as CheckpointRow;
    const records = chain.map((row) =>
      this.parseJson<CheckpointRecord>(row.record, row.threadId, row.ns, row.id, "its record"),
    );
    const base = records[records.length - 1] as CheckpointRecord;
    if (base.full === undefined) {
      throw new CheckpointCorruptError(
        head.threadId,
        head.ns,
        head.id,
        "its chain of deltas does not reach a full record",
      );
    }
    let bookkeeping: Bookkeeping = copyBookkeeping(base.full as Bookkeeping);
    for (let i = records.length - 2; i >= 0; i--) {
      const record = records[i] as CheckpointRecord;
      if (record.full !== undefined) bookkeeping = copyBookkeeping(record.full as Bookkeeping);
      else if (record.delta !== undefined) bookkeeping = applyBookkeepingDelta(bookkeeping, record.delta);
      else
        throw new CheckpointCorruptError(
          head.threadId,
          head.ns,
          head.id,
          "a record has neither bookkeeping nor delta",
        );
    }
    return { bookkeeping, record: records[0] as CheckpointRecord };
  }

  private rebuildList(
    row: BlobRow,
    index: Map<string, BlobRow>,
    threadId: string,
    ns: string,
    checkpointId: string,
    cache: ThreadCache,
  ): ListState {
    const key = listKey(ns, row.channel, row.version);
    const cached = cache.lists.get(key);
    if (cached !== undefined) return { refs: [...cached.refs], depth: cached.depth };
    const chain: BlobRow[] = [];
    let node: BlobRow | undefined = row;
    while (node !== undefined && node.kind === "splice") {
      chain.push(node);
      node = node.prev === null ? undefined : index.get(`${node.channel}\u0000${node.prev}`);
    }
    if (node === undefined || node.kind !== "list") {
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
    for (let i = chain.length - 1; i >= 0; i--) {
      const splice = this.parseJson<Splice>(
        (chain[i] as BlobRow).data ?? "",
        threadId,
        ns,
        checkpointId,
        `channel "${row.channel}"`,
      );
      try {
        refs = applySplice(refs, splice);
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
    cache.lists.set(key, { refs: [...refs], depth: row.depth });
    return { refs, depth: row.depth };
  }

  private async listState(
    threadId: string,
    ns: string,
    channel: string,
    version: string,
    cache: ThreadCache,
  ): Promise<ListState | undefined> {
    const cached = cache.lists.get(listKey(ns, channel, version));
    if (cached !== undefined) return cached;
    const rows = await this.storage.blobs(threadId, ns, [[channel, version]]);
    const index = new Map<string, BlobRow>();
    for (const row of rows) index.set(`${row.channel}\u0000${row.version}`, row);
    const row = index.get(`${channel}\u0000${version}`);
    if (row === undefined || (row.kind !== "list" && row.kind !== "splice")) return undefined;
    return this.rebuildList(row, index, threadId, ns, "(parent)", cache);
  }

  private async loadItems(
    threadId: string,
    refs: Set<string>,
    ns: string,
    checkpointId: string,
    cache: ThreadCache,
  ): Promise<Map<string, unknown>> {
    const out = new Map<string, unknown>();
    if (refs.size === 0) return out;
    const rows = await this.storage.items(threadId, [...refs]);
    for (const row of rows) {
      out.set(row.hash, this.decode(row.data, threadId, ns, checkpointId, "a list item"));
      cache.items.add(row.hash);
    }
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

  private decodeWrites(
    rows: WriteRow[],
    refs: Map<WriteRow, string[]>,
    items: Map<string, unknown>,
    threadId: string,
    ns: string,
    checkpointId: string,
  ): CheckpointPendingWrite[] {
    const sorted = [...rows].sort(
      (a, b) =>
        compareCodePoints(a.taskPath, b.taskPath) || compareCodePoints(a.taskId, b.taskId) || a.idx - b.idx,
    );
    return sorted.map((row) => {
      const value =
        row.kind === "list"
          ? (refs.get(row) ?? []).map((ref) => items.get(ref))
          : this.decode(row.data, threadId, ns, checkpointId, `a write of task ${row.taskId}`);
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
    if (rows.length === 0) return;
    const refs = new Map<WriteRow, string[]>();
    const needed = new Set<string>();
    for (const row of rows) {
      if (row.kind !== "list") continue;
      const list = this.parseJson<string[]>(row.data, threadId, ns, parentId, "a pending send");
      refs.set(row, list);
      for (const ref of list) needed.add(ref);
    }
    const items = await this.loadItems(threadId, needed, ns, parentId, this.caches.get(threadId));
    const sends = this.decodeWrites(rows, refs, items, threadId, ns, parentId).map(([, , value]) => value);
    checkpoint.channel_values[TASKS] = sends;
    const versions = Object.values(checkpoint.channel_versions);
    let max: ChannelVersion | undefined;
    for (const v of versions) if (max === undefined || String(v) > String(max)) max = v;
    checkpoint.channel_versions[TASKS] = this.getNextVersion(max);
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
