import { CHECKPOINT_CHAIN_LIMIT } from "./record-delta.js";
import type {
  BlobRow,
  CheckpointListing,
  CheckpointRow,
  CheckpointStorage,
  ItemRow,
  ListQuery,
  StorageBatch,
  WriteRow,
} from "./storage.js";
import { writesUnchanged } from "./storage.js";

/** Bound of a chain walk, as the SQL savers': only a damaged (cyclic) chain reaches it. */
const CHAIN_WALK_LIMIT = CHECKPOINT_CHAIN_LIMIT * 4 + 16;

interface ThreadData {
  /** ns → id → row */
  checkpoints: Map<string, Map<string, CheckpointRow>>;
  /** ns → latest checkpoint id */
  latest: Map<string, string>;
  /** `${ns}\0${channel}\0${version}` → row */
  blobs: Map<string, BlobRow>;
  /** hash → encoded item */
  items: Map<string, string>;
  /** `${ns}\0${checkpointId}` → `${taskId}\0${idx}` → row */
  writes: Map<string, Map<string, WriteRow>>;
}

/**
 * Storage in this process's memory, holding only encoded strings (so nothing saved can be
 * changed afterwards by mutating live objects). Used by `MemorySaver`. `inlineShortLists` makes
 * it store what a storage with that setting stores (PostgreSQL's), for comparisons.
 *
 * @example
 * ```ts
 * const saver = new EncodedCheckpointSaver(new MemoryCheckpointStorage({ inlineShortLists: true }), codecOf(undefined));
 * ```
 */
export class MemoryCheckpointStorage implements CheckpointStorage {
  readonly inlineShortLists: boolean;
  private readonly threads = new Map<string, ThreadData>();
  /**
   * The threads that hold checkpoints, in the order of their first checkpoint: the order
   * `list` without a thread goes through them, as LangGraph.js's MemorySaver does (a thread that
   * only has writes so far is not listed, and does not take its place yet).
   */
  private readonly listed = new Set<string>();

  constructor(options: { inlineShortLists?: boolean } = {}) {
    this.inlineShortLists = options.inlineShortLists === true;
  }

  private thread(threadId: string): ThreadData {
    let data = this.threads.get(threadId);
    if (data === undefined) {
      data = {
        checkpoints: new Map(),
        latest: new Map(),
        blobs: new Map(),
        items: new Map(),
        writes: new Map(),
      };
      this.threads.set(threadId, data);
    }
    return data;
  }

  write(batch: StorageBatch): void {
    for (const row of batch.checkpoints) {
      const data = this.thread(row.threadId);
      this.listed.add(row.threadId);
      let byId = data.checkpoints.get(row.ns);
      if (byId === undefined) {
        byId = new Map();
        data.checkpoints.set(row.ns, byId);
      }
      byId.set(row.id, { ...row });
      const latest = data.latest.get(row.ns);
      if (latest === undefined || row.id > latest) data.latest.set(row.ns, row.id);
    }
    for (const row of batch.blobs) {
      const data = this.thread(row.threadId);
      const key = `${row.ns}\u0000${row.channel}\u0000${row.version}`;
      if (!data.blobs.has(key)) data.blobs.set(key, { ...row });
    }
    for (const row of batch.items) {
      const data = this.thread(row.threadId);
      if (!data.items.has(row.hash)) data.items.set(row.hash, row.data);
    }
    for (const row of batch.writes) {
      const data = this.thread(row.threadId);
      const outer = `${row.ns}\u0000${row.checkpointId}`;
      let byTask = data.writes.get(outer);
      if (byTask === undefined) {
        byTask = new Map();
        data.writes.set(outer, byTask);
      }
      const inner = `${row.taskId}\u0000${row.idx}`;
      if (row.idx >= 0 && byTask.has(inner)) continue;
      byTask.set(inner, { ...row });
    }
  }

  checkpointChain(threadId: string, ns: string, id: string | undefined, stopAt?: string): CheckpointRow[] {
    const data = this.threads.get(threadId);
    const byId = data?.checkpoints.get(ns);
    if (data === undefined || byId === undefined) return [];
    const chain: CheckpointRow[] = [];
    let current = byId.get(id ?? data.latest.get(ns) ?? "");
    while (current !== undefined) {
      chain.push({ ...current });
      if (current.depth === 0 || current.parentId === null || current.id === stopAt) break;
      // a cycle: the chain found is reported as not reaching a full record
      if (chain.length >= CHAIN_WALK_LIMIT) break;
      current = byId.get(current.parentId);
    }
    return chain;
  }

  blobs(threadId: string, ns: string, wanted: readonly (readonly [string, string])[]): BlobRow[] {
    const data = this.threads.get(threadId);
    if (data === undefined) return [];
    const out: BlobRow[] = [];
    for (const [channel, version] of wanted) {
      let row = data.blobs.get(`${ns}\u0000${channel}\u0000${version}`);
      while (row !== undefined) {
        out.push({ ...row });
        if (row.kind !== "splice" || row.prev === null) break;
        row = data.blobs.get(`${ns}\u0000${channel}\u0000${row.prev}`);
      }
    }
    return out;
  }

  items(threadId: string, hashes: ReadonlySet<string>): ItemRow[] {
    const data = this.threads.get(threadId);
    if (data === undefined) return [];
    const out: ItemRow[] = [];
    for (const hash of hashes) {
      const item = data.items.get(hash);
      if (item !== undefined) out.push({ threadId, hash, data: item });
    }
    return out;
  }

  writes(threadId: string, ns: string, checkpointId: string): WriteRow[] {
    const byTask = this.threads.get(threadId)?.writes.get(`${ns}\u0000${checkpointId}`);
    return byTask === undefined ? [] : [...byTask.values()].map((row) => ({ ...row }));
  }

  /** Thread by thread, namespace by namespace in the order first written, each newest first (as MemorySaver lists). */
  listCheckpoints(query: ListQuery): CheckpointListing[] {
    const out: CheckpointListing[] = [];
    const threadIds = query.threadId === undefined ? [...this.listed] : [query.threadId];
    for (const threadId of threadIds) {
      const data = this.threads.get(threadId);
      if (data === undefined) continue;
      for (const [ns, byId] of data.checkpoints) {
        if (query.ns !== undefined && ns !== query.ns) continue;
        const rows: CheckpointListing[] = [];
        for (const row of byId.values()) {
          if (query.beforeId !== undefined && row.id >= query.beforeId) continue;
          if (query.id !== undefined && row.id !== query.id) continue;
          rows.push({ threadId, ns, id: row.id, metadata: row.metadata });
        }
        rows.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
        for (const row of rows) out.push(row);
      }
    }
    return query.limit === undefined ? out : out.slice(0, query.limit);
  }

  deleteThread(threadId: string): void {
    this.threads.delete(threadId);
    this.listed.delete(threadId);
  }

  replaceThread(
    threadId: string,
    batch: StorageBatch,
    read?: ReadonlySet<string>,
    readWrites?: ReadonlyMap<string, string>,
  ): boolean {
    const data = this.threads.get(threadId);
    if (read !== undefined && data !== undefined) {
      for (const byId of data.checkpoints.values())
        for (const id of byId.keys()) if (!read.has(id)) return false;
    }
    if (!writesUnchanged(readWrites, (ns, id) => this.writes(threadId, ns, id))) return false;
    this.threads.delete(threadId);
    // the thread keeps its place in listings unless no checkpoint is left
    if (batch.checkpoints.length === 0) this.listed.delete(threadId);
    this.write(batch);
    return true;
  }

  staleThreads(cutoff: number): string[] {
    const out: string[] = [];
    for (const [threadId, data] of this.threads) {
      let newest = Number.NEGATIVE_INFINITY;
      for (const byId of data.checkpoints.values())
        for (const row of byId.values()) newest = Math.max(newest, row.createdAt);
      if (newest < cutoff) out.push(threadId);
    }
    return out;
  }

  /** Everything stored for a thread, as one batch. */
  exportThread(threadId: string): StorageBatch {
    const batch: StorageBatch = { checkpoints: [], blobs: [], items: [], writes: [] };
    const data = this.threads.get(threadId);
    if (data === undefined) return batch;
    for (const byId of data.checkpoints.values())
      for (const row of byId.values()) batch.checkpoints.push({ ...row });
    for (const row of data.blobs.values()) batch.blobs.push({ ...row });
    for (const [hash, item] of data.items) batch.items.push({ threadId, hash, data: item });
    for (const byTask of data.writes.values())
      for (const row of byTask.values()) batch.writes.push({ ...row });
    return batch;
  }

  /** Total bytes of stored strings (for tests and storage benchmarks). */
  storedBytes(threadId?: string): number {
    let total = 0;
    const threads =
      threadId === undefined
        ? [...this.threads.values()]
        : [this.threads.get(threadId)].filter((t) => t !== undefined);
    for (const data of threads as ThreadData[]) {
      for (const byId of data.checkpoints.values())
        for (const row of byId.values()) total += row.record.length + row.metadata.length + row.id.length;
      for (const row of data.blobs.values())
        total += (row.data?.length ?? 0) + row.version.length + row.channel.length;
      for (const [hash, item] of data.items) total += item.length + hash.length;
      for (const byTask of data.writes.values())
        for (const row of byTask.values()) total += row.data.length + row.channel.length + row.taskId.length;
    }
    return total;
  }
}
