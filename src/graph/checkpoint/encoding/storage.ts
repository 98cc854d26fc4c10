/**
 * The rows a saver stores, and the small interface a storage backend implements. The encoding
 * (what goes into the rows) is shared by every saver: see `encoded-saver.ts` and
 * docs/adr/0001-linear-checkpoint-storage.md.
 */

/** A value that is either ready or on its way (SQLite and memory answer synchronously). */
export type MaybePromise<T> = T | Promise<T>;

/** One checkpoint: its bookkeeping (in full, or as a delta against its parent) and metadata. */
export interface CheckpointRow {
  threadId: string;
  ns: string;
  id: string;
  parentId: string | null;
  /** When the row was written (ms since the epoch): what time-to-live deletion looks at. */
  createdAt: number;
  /** The bookkeeping, as JSON (see `encodeRecord` in record-delta.ts). */
  record: string;
  /** The encoded metadata. */
  metadata: string;
  /** Deltas since the last full record (0: this record is full). */
  depth: number;
}

/** How a channel value is stored at one version. */
export type BlobKind = "value" | "empty" | "list" | "splice";

/** One channel at one version. */
export interface BlobRow {
  threadId: string;
  ns: string;
  channel: string;
  version: string;
  kind: BlobKind;
  /** `value`: the encoded value; `list`: JSON array of item references; `splice`: JSON of a splice. */
  data: string | null;
  /** `splice`: the version of the same channel this node splices. */
  prev: string | null;
  /** Splices since the last `list` node. */
  depth: number;
}

/** A list element, stored once per thread under the hash of its encoding. */
export interface ItemRow {
  threadId: string;
  hash: string;
  data: string;
}

/** A write a task made from a checkpoint. */
export interface WriteRow {
  threadId: string;
  ns: string;
  checkpointId: string;
  taskId: string;
  /** Position in the task's writes; negative for control writes that replace earlier ones. */
  idx: number;
  channel: string;
  /** `value`: encoded value; `list`: JSON array of item references. */
  kind: "value" | "list";
  data: string;
  taskPath: string;
}

/** Everything one `put` or `putWrites` stores, written atomically. */
export interface StorageBatch {
  checkpoints: CheckpointRow[];
  blobs: BlobRow[];
  items: ItemRow[];
  writes: WriteRow[];
}

/** A checkpoint key with its metadata, for listing. */
export interface CheckpointListing {
  threadId: string;
  ns: string;
  id: string;
  metadata: string;
}

/** Which checkpoints to list. */
export interface ListQuery {
  threadId?: string | undefined;
  ns?: string | undefined;
  /** Only checkpoints whose id sorts before this one. */
  beforeId?: string | undefined;
  /** Only the checkpoint with this id. */
  id?: string | undefined;
  /** At most this many listings (the first ones in the listing order). */
  limit?: number | undefined;
}

/**
 * What a storage backend provides. Rules every backend follows:
 * - `write` is atomic. Checkpoint rows replace a row with the same key; blob and item rows are
 *   kept if present (they are immutable by construction); write rows with `idx >= 0` are kept if
 *   present, those with `idx < 0` replace.
 * - `checkpointChain` returns the named checkpoint (or the latest of the thread and namespace)
 *   and its ancestors, newest first, down to and including the first row with `depth` 0, or
 *   the row with id `stopAt` (a checkpoint whose bookkeeping the caller holds), whichever
 *   comes first. A backend may ignore `stopAt`.
 * - `blobs` returns the rows asked for plus every row their `splice` chains need.
 */
/**
 * Stored items as one JSON text of hashes and item texts side by side,
 * `["hash",item,"hash",item,…]` (`null` when there are none), and how many items it holds.
 */
export interface ItemsJson {
  text: string | null;
  count: number;
}

export interface CheckpointStorage {
  /**
   * Keep short lists (at most four elements, 128 characters encoded: a step's one `Send`) inside
   * the checkpoint record, and `Send`s of up to 128 characters inside their writes, rather than as
   * items and list rows: for backends where a row costs much more than the bytes it holds
   * (PostgreSQL: a tuple header, an index entry, often a page split). A fixed property of the
   * backend, so that every saver on it stores a version in the same form.
   */
  readonly inlineShortLists?: boolean;
  write(batch: StorageBatch): MaybePromise<void>;
  checkpointChain(
    threadId: string,
    ns: string,
    id: string | undefined,
    stopAt?: string,
  ): MaybePromise<CheckpointRow[]>;
  blobs(
    threadId: string,
    ns: string,
    wanted: readonly (readonly [channel: string, version: string])[],
  ): MaybePromise<BlobRow[]>;
  items(threadId: string, hashes: ReadonlySet<string>): MaybePromise<ItemRow[]>;
  /**
   * Optional: the items of `hashes` as one JSON text (see {@link ItemsJson}; it may hold more of
   * the thread's items), which a saver whose serializer writes JSON decodes with one parse
   * rather than one per item.
   */
  itemsJson?(threadId: string, hashes: ReadonlySet<string>): MaybePromise<ItemsJson>;
  /**
   * How many items a thread holds, for backends where reading items costs more than counting
   * them: the saver then reads items it holds the text of (its own writes, for the thread it
   * used last) only when the count differs from what it knows it stored.
   */
  itemCount?(threadId: string): MaybePromise<number>;
  writes(threadId: string, ns: string, checkpointId: string): MaybePromise<WriteRow[]>;
  listCheckpoints(query: ListQuery): MaybePromise<CheckpointListing[]>;
  deleteThread(threadId: string): MaybePromise<void>;
  /**
   * Replaces everything stored for a thread with `batch`, atomically (used by pruning). With
   * `read` (the ids of the thread's checkpoints the caller read), a thread that now holds a
   * checkpoint not among them (one written meanwhile, which the batch lacks) is left as it is and
   * `false` is answered, so that the caller reads it again; any other answer means replaced.
   * Likewise with `readWrites` (for checkpoints keyed by {@link checkpointKey}, the
   * {@link writesFingerprint} of the writes the caller read): a checkpoint whose writes now differ
   * (a task's writes saved meanwhile) leaves the thread as it is and answers `false`.
   */
  replaceThread(
    threadId: string,
    batch: StorageBatch,
    read?: ReadonlySet<string>,
    readWrites?: ReadonlyMap<string, string>,
    // biome-ignore lint/suspicious/noConfusingVoidType: storages written before `read` existed answer nothing (void)
  ): MaybePromise<boolean | undefined | void>;
  /** Threads whose newest checkpoint was written before `cutoff` (ms since the epoch). */
  staleThreads(cutoff: number): MaybePromise<string[]>;
}

/** A blob row as a SQL driver returns it (the storage's own columns; `depth` may be a bigint). */
export interface BlobDbFields {
  channel: string;
  version: string;
  kind: string;
  data: string | null;
  prev: string | null;
  depth: number | bigint;
}

/** A driver's blob row as a {@link BlobRow} of `threadId` and `ns`. */
export function blobRowOf(threadId: string, ns: string, row: BlobDbFields): BlobRow {
  return {
    threadId,
    ns,
    channel: row.channel,
    version: row.version,
    kind: row.kind as BlobKind,
    data: row.data,
    prev: row.prev,
    depth: Number(row.depth),
  };
}

/**
 * Follows the splice chain below `head` through the rows `find` has (SQL savers read a chain
 * with one range scan of the versions just below its head, which holds the whole chain unless
 * the thread forked there): the nodes found, in order, and the version where the chain left
 * them (`undefined` when it reached its full node). At most `limit` nodes are followed, so a
 * damaged (cyclic) chain ends.
 *
 * @example
 * ```ts
 * const { nodes, missing } = followSpliceChain(head, (version) => byVersion.get(version), 4096);
 * if (missing !== undefined) nodes.push(...readChainFrom(head.channel, missing));
 * ```
 */
export function followSpliceChain<R extends Pick<BlobDbFields, "kind" | "prev">>(
  head: R,
  find: (version: string) => R | undefined,
  limit: number,
): { nodes: R[]; missing: string | undefined } {
  const nodes: R[] = [];
  let node = head;
  for (let walked = 0; node.kind === "splice" && node.prev !== null && walked <= limit; walked++) {
    const next = find(node.prev);
    if (next === undefined) return { nodes, missing: node.prev };
    nodes.push(next);
    node = next;
  }
  return { nodes, missing: undefined };
}

/**
 * The blob rows one read returned, found by channel and version. Storages return each list head
 * followed by the nodes of its chain (each row the previous row's `prev`), so a chain is walked
 * by position, and only the rows that do not continue the row before them (heads, values, the
 * start of a chain a fork interrupted) are indexed up front: a 500-node chain costs no keys. Any
 * row the position and that index miss is looked up in an index of every row, built on first
 * need, so the order rows arrive in never decides what is found.
 *
 * @example
 * ```ts
 * const index = new BlobRowIndex(rows);
 * const at = index.position("messages", version);
 * const { nodes, missing } = at === undefined ? { nodes: [], missing: version } : index.chainBelow(at);
 * ```
 */
export class BlobRowIndex {
  readonly rows: readonly BlobRow[];
  private readonly starts = new Map<string, number>();
  private every: Map<string, number> | undefined;

  constructor(rows: readonly BlobRow[]) {
    this.rows = rows;
    let before: BlobRow | undefined;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as BlobRow;
      // a row `before` splices needs no key (inline: this runs once per row of a long chain)
      const continues =
        before !== undefined &&
        before.kind === "splice" &&
        before.prev === row.version &&
        before.channel === row.channel;
      if (!continues) this.starts.set(rowKey(row.channel, row.version), i);
      before = row;
    }
  }

  /** Where the row of `channel` at `version` is in {@link rows}, if it is there. */
  position(channel: string, version: string): number | undefined {
    const key = rowKey(channel, version);
    const start = this.starts.get(key);
    if (start !== undefined) return start;
    if (this.every === undefined) {
      this.every = new Map();
      for (let i = 0; i < this.rows.length; i++) {
        const row = this.rows[i] as BlobRow;
        const rowAt = rowKey(row.channel, row.version);
        if (!this.every.has(rowAt)) this.every.set(rowAt, i);
      }
    }
    return this.every.get(key);
  }

  /** The row of `channel` at `version`, if it is there. */
  row(channel: string, version: string): BlobRow | undefined {
    const at = this.position(channel, version);
    return at === undefined ? undefined : this.rows[at];
  }

  /** {@link position} of the node below row `at` (`channel` at `version`): usually the next row. */
  below(at: number, channel: string, version: string): number | undefined {
    const next = this.rows[at + 1];
    if (next !== undefined && next.version === version && next.channel === channel) return at + 1;
    return this.position(channel, version);
  }

  /**
   * The nodes below row `at`, down to its full node, and the version where the chain left the
   * rows (`undefined` when it reached its full node): {@link followSpliceChain}'s walk, each node
   * found with {@link below}, written out (no finder call per node: a chain is hundreds long),
   * and at most one node per row, so a damaged, cyclic chain ends.
   */
  chainBelow(at: number): { nodes: BlobRow[]; missing: string | undefined } {
    const nodes: BlobRow[] = [];
    let node = this.rows[at] as BlobRow;
    let position = at;
    for (
      let walked = 0;
      node.kind === "splice" && node.prev !== null && walked <= this.rows.length;
      walked++
    ) {
      const found = this.below(position, node.channel, node.prev);
      if (found === undefined) return { nodes, missing: node.prev };
      position = found;
      node = this.rows[found] as BlobRow;
      nodes.push(node);
    }
    return { nodes, missing: undefined };
  }
}

function rowKey(channel: string, version: string): string {
  return `${channel}\u0000${version}`;
}

/** The key of a checkpoint of a thread in {@link CheckpointStorage.replaceThread}'s `readWrites`. */
export function checkpointKey(ns: string, checkpointId: string): string {
  return `${ns}\u0000${checkpointId}`;
}

/**
 * A text that changes whenever a checkpoint's stored writes do (one added, one replaced), whatever
 * order the storage answers them in: what {@link CheckpointStorage.replaceThread} compares.
 */
export function writesFingerprint(rows: readonly WriteRow[]): string {
  const lines = rows.map((row) => JSON.stringify([row.taskId, row.idx, row.channel, row.kind, row.data]));
  return lines.sort().join("\n");
}

/**
 * Whether the writes of every checkpoint of `readWrites` still have the fingerprint the caller
 * read (see {@link CheckpointStorage.replaceThread}); `writes` reads a checkpoint's writes now.
 */
export function writesUnchanged(
  readWrites: ReadonlyMap<string, string> | undefined,
  writes: (ns: string, checkpointId: string) => readonly WriteRow[],
): boolean {
  if (readWrites === undefined) return true;
  for (const [key, fingerprint] of readWrites) {
    const [ns = "", checkpointId = ""] = key.split("\u0000");
    if (writesFingerprint(writes(ns, checkpointId)) !== fingerprint) return false;
  }
  return true;
}
