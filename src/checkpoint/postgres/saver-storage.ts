import type pg from "pg";
import {
  type BlobRow,
  blobRowOf,
  CHECKPOINT_CHAIN_LIMIT,
  CheckpointCorruptError,
  type CheckpointListing,
  type CheckpointRow,
  type CheckpointStorage,
  checkpointKey,
  followSpliceChain,
  type ItemRow,
  LIST_CHAIN_MAX,
  type ListQuery,
  type StorageBatch,
  type WriteRow,
  writesFingerprint,
} from "../../graph/index.js";
import { AgentGraphError } from "../../shared/index.js";
import { splitWrites, unpackWrites } from "./packed-writes.js";
import { checkpointMigrations } from "./saver-migrations.js";
import {
  type BlobDbRow,
  type CheckpointDbRow,
  type CheckpointSql,
  checkpointSql,
  type DeletedDbRow,
  type ListingDbRow,
  quoteSchema,
  type WriteDbRow,
} from "./saver-sql.js";
import { inTransaction, postgresHint, retryOnLostConnection, runMigrations } from "./transactions.js";

/**
 * The PostgreSQL database under a `PostgresSaver` failed (unreachable, missing tables, no
 * permission, …). The message names the operation and thread, and how to fix the cause; `cause`
 * is the driver's error.
 *
 * @example
 * ```ts
 * try {
 *   await saver.getTuple(config);
 * } catch (e) {
 *   if (e instanceof PostgresSaverError) console.error(e.message, e.cause);
 * }
 * ```
 */
export class PostgresSaverError extends AgentGraphError {
  static override readonly brandName: string = "PostgresSaverError";
}

/** Bounds of the recursive walks: far above the encoder's chain limits, so only a damaged (cyclic) chain hits them. */
const CHAIN_WALK_LIMIT = CHECKPOINT_CHAIN_LIMIT * 4 + 16;
const LIST_WALK_LIMIT = LIST_CHAIN_MAX * 4 + 16;

/** A short, stable name for a prepared statement (by its text, so that different texts never share one). */
function statementName(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return `agentgraph_cp_${(a >>> 0).toString(16).padStart(8, "0")}${(b >>> 0).toString(16).padStart(8, "0")}`;
}

/** Thrown to roll back a replacement that found checkpoints written since the thread was read. */
const REPLACE_CONFLICT = new Error("the thread changed since it was read");

/** Keeps the first (or last) row of each key. */
function dedupe<T>(rows: readonly T[], key: (row: T) => string, keep: "first" | "last"): T[] {
  if (rows.length < 2) return [...rows];
  const byKey = new Map<string, T>();
  for (const row of rows) {
    const k = key(row);
    if (keep === "last" || !byKey.has(k)) byKey.set(k, row);
  }
  return [...byKey.values()];
}

/**
 * Options of {@link PostgresCheckpointStorage}.
 *
 * @example
 * ```ts
 * const options: PostgresCheckpointStorageOptions = { schema: "agents", preparedStatements: false };
 * ```
 */
export interface PostgresCheckpointStorageOptions {
  /** The database schema of the tables (default `"public"`); created by `setup()` if needed. */
  schema?: string | undefined;
  /**
   * Name the statements, so each connection parses and plans them once (default `true`). Turn
   * off behind a pooler that cannot keep prepared statements (PgBouncer < 1.21 in transaction mode).
   */
  preparedStatements?: boolean | undefined;
}

/**
 * `CheckpointStorage` on a `pg` pool: each `write` is one statement (one round trip, one
 * transaction), chains are read with recursive queries. See saver-migrations.ts for the tables.
 * `PostgresSaver` is the encoder over it; use it directly to wrap it (to count or log storage calls).
 *
 * @example
 * ```ts
 * const storage = new PostgresCheckpointStorage(pool, { schema: "agents" });
 * await storage.setup();
 * const saver = new EncodedCheckpointSaver(storage, defaultSerializer);
 * ```
 */
export class PostgresCheckpointStorage implements CheckpointStorage {
  /** A row costs a tuple header and index entries: a step's small `Send` stays in its record. */
  readonly inlineShortLists = true;
  readonly pool: pg.Pool;
  readonly schema: string;
  private readonly sql: CheckpointSql;
  private readonly prepared: boolean;
  private settingUp: Promise<void> | undefined;
  private readonly listStatements = new Map<string, string>();

  constructor(pool: pg.Pool, options: PostgresCheckpointStorageOptions = {}) {
    const schema = options.schema ?? "public";
    if (typeof schema !== "string" || schema === "") {
      throw new PostgresSaverError(
        `PostgresSaver: schema must be a non-empty string, got ${JSON.stringify(schema)}. Pass { schema: "my_schema" } or leave it out for "public".`,
      );
    }
    this.pool = pool;
    this.schema = schema;
    this.sql = checkpointSql(quoteSchema(schema));
    this.prepared = options.preparedStatements ?? true;
  }

  /**
   * Creates the schema and tables, or upgrades them: runs pending migrations in one transaction,
   * under an advisory lock, so concurrent setups (several processes starting) are safe. Idempotent.
   */
  async setup(): Promise<void> {
    this.settingUp ??= this.migrate().catch((error: unknown) => {
      this.settingUp = undefined;
      throw this.failure(error, "set up its tables", undefined, undefined);
    });
    await this.settingUp;
  }

  async write(batch: StorageBatch): Promise<void> {
    const first = batch.checkpoints[0] ?? batch.writes[0] ?? batch.blobs[0] ?? batch.items[0];
    if (first === undefined) return;
    const checkpointId = batch.checkpoints[0]?.id ?? batch.writes[0]?.checkpointId;
    await this.run(
      "save a checkpoint",
      first.threadId,
      checkpointId,
      this.sql.write,
      this.writeParams(batch),
    );
  }

  async checkpointChain(
    threadId: string,
    ns: string,
    id: string | undefined,
    stopAt?: string,
  ): Promise<CheckpointRow[]> {
    const stop = stopAt ?? null;
    const rows = await this.run<CheckpointDbRow>(
      "read a checkpoint",
      threadId,
      id,
      id === undefined ? this.sql.chainLatest : this.sql.chainById,
      id === undefined ? [threadId, ns, CHAIN_WALK_LIMIT, stop] : [threadId, ns, id, CHAIN_WALK_LIMIT, stop],
    );
    return rows.map((row) => ({
      threadId: row.thread_id,
      ns: row.checkpoint_ns,
      id: row.checkpoint_id,
      parentId: row.parent_checkpoint_id,
      createdAt: Number(row.created_at),
      record: row.record,
      metadata: row.metadata,
      depth: Number(row.depth),
    }));
  }

  async blobs(
    threadId: string,
    ns: string,
    wanted: readonly (readonly [channel: string, version: string])[],
  ): Promise<BlobRow[]> {
    if (wanted.length === 0) return [];
    const rows = await this.run<BlobDbRow>("read channel values", threadId, undefined, this.sql.blobRanges, [
      threadId,
      ns,
      wanted.map(([channel]) => channel),
      wanted.map(([, version]) => version),
      LIST_WALK_LIMIT,
    ]);
    const byKey = new Map<string, BlobDbRow>();
    for (const row of rows) byKey.set(`${row.channel}\u0000${row.version}`, row);
    // each chain from its head down through the range read; where a fork's versions left a gap,
    // the rest of that chain comes from the node-by-node walk
    const gaps: [string, string][] = [];
    for (const [channel, version] of wanted) {
      const head = byKey.get(`${channel}\u0000${version}`);
      if (head === undefined) continue;
      const { missing } = followSpliceChain(head, (v) => byKey.get(`${channel}\u0000${v}`), LIST_WALK_LIMIT);
      if (missing !== undefined) gaps.push([channel, missing]);
    }
    if (gaps.length > 0) {
      const rest = await this.run<BlobDbRow>("read channel values", threadId, undefined, this.sql.blobs, [
        threadId,
        ns,
        gaps.map(([channel]) => channel),
        gaps.map(([, version]) => version),
        LIST_WALK_LIMIT,
      ]);
      for (const row of rest) byKey.set(`${row.channel}\u0000${row.version}`, row);
    }
    return [...byKey.values()].map((row) => blobRowOf(threadId, ns, row));
  }

  async itemCount(threadId: string): Promise<number> {
    const rows = await this.run<{ n: number }>("count list items", threadId, undefined, this.sql.itemCount, [
      threadId,
    ]);
    return Number(rows[0]?.n ?? 0);
  }

  async items(threadId: string, hashes: ReadonlySet<string>): Promise<ItemRow[]> {
    if (hashes.size === 0) return [];
    const rows = await this.run<{ hash: string; data: string }>(
      "read list items",
      threadId,
      undefined,
      this.sql.items,
      [threadId, [...hashes]],
    );
    return rows.map((row) => ({ threadId, hash: row.hash, data: row.data }));
  }

  async writes(threadId: string, ns: string, checkpointId: string): Promise<WriteRow[]> {
    const rows = await this.run<WriteDbRow>("read pending writes", threadId, checkpointId, this.sql.writes, [
      threadId,
      ns,
      checkpointId,
    ]);
    return writeRowsOf(rows, threadId, ns, checkpointId);
  }

  async replaceThread(
    threadId: string,
    batch: StorageBatch,
    read?: ReadonlySet<string>,
    readWrites?: ReadonlyMap<string, string>,
  ): Promise<boolean> {
    await this.ready();
    const action = "replace a thread's checkpoints";
    try {
      // Done again when the connection is lost. If the first attempt committed (its COMMIT's
      // answer lost), the second finds only the replacement's checkpoints, which reuse the ids read,
      // and stores the same rows again, or answers a conflict (the caller reads the thread again).
      return await retryOnLostConnection(() => this.replaceOnce(threadId, batch, read, readWrites));
    } catch (error) {
      if (error === REPLACE_CONFLICT) return false;
      throw this.failure(error, action, threadId, undefined);
    }
  }

  /** One attempt of {@link replaceThread}; throws {@link REPLACE_CONFLICT} on a conflict. */
  private async replaceOnce(
    threadId: string,
    batch: StorageBatch,
    read: ReadonlySet<string> | undefined,
    readWrites: ReadonlyMap<string, string> | undefined,
  ): Promise<boolean> {
    const client = await this.pool.connect();
    return await inTransaction(client, async () => {
      if (read !== undefined) {
        const keys = [...(readWrites?.keys() ?? [])].map((key) => key.split("\u0000"));
        const deleted = await client.query<DeletedDbRow>(
          this.config(this.sql.deleteThreadReturning, [
            threadId,
            keys.map(([ns]) => ns ?? ""),
            keys.map(([, id]) => id ?? ""),
          ]),
        );
        // a checkpoint written since the caller read the thread: leave the thread as it was
        if (deleted.rows.some((row) => row.task_id === null && !read.has(row.checkpoint_id)))
          throw REPLACE_CONFLICT;
        // likewise a write saved since the caller read its checkpoint (one saved after the
        // deletion started is not deleted: it stays, as it was)
        if (readWrites !== undefined && !sameWrites(threadId, deleted.rows, readWrites))
          throw REPLACE_CONFLICT;
      } else {
        await client.query(this.config(this.sql.deleteThread, [threadId]));
      }
      await client.query(this.config(this.sql.write, this.writeParams(batch)));
      return true;
    });
  }

  async listCheckpoints(query: ListQuery): Promise<CheckpointListing[]> {
    const filters = {
      thread: query.threadId !== undefined,
      ns: query.ns !== undefined,
      before: query.beforeId !== undefined,
      id: query.id !== undefined,
      limit: query.limit !== undefined,
    };
    const key = `${filters.thread}${filters.ns}${filters.before}${filters.id}${filters.limit}`;
    let text = this.listStatements.get(key);
    if (text === undefined) {
      text = this.sql.list(filters);
      this.listStatements.set(key, text);
    }
    const params: unknown[] = [];
    if (query.threadId !== undefined) params.push(query.threadId);
    if (query.ns !== undefined) params.push(query.ns);
    if (query.beforeId !== undefined) params.push(query.beforeId);
    if (query.id !== undefined) params.push(query.id);
    if (query.limit !== undefined) params.push(query.limit);
    const rows = await this.run<ListingDbRow>("list checkpoints", query.threadId, undefined, text, params);
    return rows.map((row) => ({
      threadId: row.thread_id,
      ns: row.checkpoint_ns,
      id: row.checkpoint_id,
      metadata: row.metadata,
    }));
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.run("delete a thread", threadId, undefined, this.sql.deleteThread, [threadId]);
  }

  async staleThreads(cutoff: number): Promise<string[]> {
    const rows = await this.run<{ thread_id: string }>(
      "find expired threads",
      undefined,
      undefined,
      this.sql.staleThreads,
      [Math.trunc(cutoff)],
    );
    return rows.map((row) => row.thread_id);
  }

  /** UTF-8 bytes of the stored text (for one thread, or all); equal to `MemorySaver.storedBytes` on ASCII content. */
  async storedBytes(threadId?: string): Promise<number> {
    const rows = await this.run<{ bytes: string | number }>(
      "measure storage",
      threadId,
      undefined,
      this.sql.storedBytes,
      [threadId ?? null],
    );
    return Number(rows[0]?.bytes ?? 0);
  }

  private writeParams(batch: StorageBatch): unknown[] {
    const checkpoints = dedupe(batch.checkpoints, (r) => `${r.threadId}\u0000${r.ns}\u0000${r.id}`, "last");
    const blobs = dedupe(
      batch.blobs,
      (r) => `${r.threadId}\u0000${r.ns}\u0000${r.channel}\u0000${r.version}`,
      "first",
    );
    const items = dedupe(batch.items, (r) => `${r.threadId}\u0000${r.hash}`, "first");
    const writeKey = (r: WriteRow) =>
      `${r.threadId}\u0000${r.ns}\u0000${r.checkpointId}\u0000${r.taskId}\u0000${r.idx}`;
    const split = splitWrites(checkpoints, batch.writes);
    const ordinary = dedupe(split.ordinary, writeKey, "first");
    const control = dedupe(split.control, writeKey, "last");
    const writeColumns = (rows: WriteRow[]) => [
      rows.map((r) => r.threadId),
      rows.map((r) => r.ns),
      rows.map((r) => r.checkpointId),
      rows.map((r) => r.taskId),
      rows.map((r) => r.idx),
      rows.map((r) => r.channel),
      rows.map((r) => r.kind),
      rows.map((r) => r.data),
      rows.map((r) => r.taskPath),
    ];
    return [
      checkpoints.map((r) => r.threadId),
      checkpoints.map((r) => r.ns),
      checkpoints.map((r) => r.id),
      checkpoints.map((r) => r.parentId),
      checkpoints.map((r) => r.depth),
      checkpoints.map((r) => Math.trunc(r.createdAt)),
      checkpoints.map((r) => r.record),
      checkpoints.map((r) => r.metadata),
      blobs.map((r) => r.threadId),
      blobs.map((r) => r.ns),
      blobs.map((r) => r.channel),
      blobs.map((r) => r.version),
      blobs.map((r) => r.kind),
      blobs.map((r) => r.data),
      blobs.map((r) => r.prev),
      blobs.map((r) => r.depth),
      items.map((r) => r.threadId),
      items.map((r) => r.hash),
      items.map((r) => r.data),
      ...writeColumns(ordinary),
      ...writeColumns(control),
      split.packed,
    ];
  }

  private config(text: string, values: unknown[]): pg.QueryConfig {
    return this.prepared ? { name: statementName(text), text, values } : { text, values };
  }

  private async run<R extends pg.QueryResultRow>(
    action: string,
    threadId: string | undefined,
    checkpointId: string | undefined,
    text: string,
    values: unknown[],
  ): Promise<R[]> {
    await this.ready();
    const query = this.config(text, values);
    try {
      // every statement run here may run twice: reads, deletions, and writes whose rows are kept
      // if present or replaced by the same (see the write statement)
      const result = await retryOnLostConnection(() => this.pool.query<R>(query));
      return result.rows;
    } catch (error) {
      throw this.failure(error, action, threadId, checkpointId);
    }
  }

  private async ready(): Promise<void> {
    if (this.settingUp === undefined) await this.setup();
    else await this.settingUp;
  }

  private migrate(): Promise<void> {
    return runMigrations(
      this.pool,
      this.sql,
      {
        schema: this.schema,
        lockKey: `agentgraph_checkpoint_migrations:${this.schema}`,
        component: "PostgresSaver",
        error: (message) => new PostgresSaverError(message),
      },
      checkpointMigrations(quoteSchema(this.schema)),
    );
  }

  /** A typed error for a driver error, naming the thread and checkpoint. */
  private failure(
    error: unknown,
    action: string,
    threadId: string | undefined,
    checkpointId: string | undefined,
  ): AgentGraphError {
    if (error instanceof AgentGraphError) return error;
    const code = String((error as { code?: unknown } | null)?.code ?? "");
    const message = error instanceof Error ? error.message : String(error);
    if (code === "XX001" || code === "XX002") {
      return new CheckpointCorruptError(
        threadId ?? "(any)",
        "",
        checkpointId ?? "(latest)",
        `PostgreSQL reports damaged data (${code}: ${message})`,
        error,
      );
    }
    const where =
      threadId === undefined
        ? ""
        : ` of thread "${threadId}"${checkpointId === undefined ? "" : ` (checkpoint ${checkpointId})`}`;
    return new PostgresSaverError(
      `PostgresSaver (schema "${this.schema}") could not ${action}${where}: ${message}${code === "" ? "" : ` (${code})`}. ${postgresHint(code, message, "PostgresSaver")}`,
      { cause: error },
    );
  }
}

/**
 * Whether the writes `deleteThreadReturning` deleted (`rows`) of each checkpoint of `readWrites`
 * have the fingerprint the caller read.
 */
function sameWrites(
  threadId: string,
  rows: readonly DeletedDbRow[],
  readWrites: ReadonlyMap<string, string>,
): boolean {
  const byCheckpoint = new Map<string, WriteDbRow[]>();
  for (const row of rows) {
    if (row.packed === null && row.task_id === null) continue;
    const key = checkpointKey(row.checkpoint_ns, row.checkpoint_id);
    const list = byCheckpoint.get(key) ?? [];
    list.push(row);
    byCheckpoint.set(key, list);
  }
  for (const [key, fingerprint] of readWrites) {
    const [ns = "", checkpointId = ""] = key.split("\u0000");
    const found = writeRowsOf(byCheckpoint.get(key) ?? [], threadId, ns, checkpointId);
    if (writesFingerprint(found) !== fingerprint) return false;
  }
  return true;
}

/** The writes of a checkpoint from the rows {@link CheckpointSql.writes} reads (packed ones, then rows). */
function writeRowsOf(
  rows: readonly WriteDbRow[],
  threadId: string,
  ns: string,
  checkpointId: string,
): WriteRow[] {
  const packed: WriteRow[] = [];
  for (const row of rows) {
    if (row.packed !== null) packed.push(...unpackWrites(row.packed, threadId, ns, checkpointId));
  }
  // a key's first write is kept: the packed ones were stored first (later writes of the
  // checkpoint get rows), and a checkpoint stored again appends what it packs
  const key = (taskId: string, idx: number) => `${taskId}\u0000${idx}`;
  const kept = dedupe(packed, (w) => key(w.taskId, w.idx), "first");
  const seen = new Set(kept.map((w) => key(w.taskId, w.idx)));
  for (const row of rows) {
    if (row.packed !== null || seen.has(key(row.task_id, row.idx))) continue;
    kept.push({
      threadId,
      ns,
      checkpointId,
      taskId: row.task_id,
      idx: Number(row.idx),
      channel: row.channel,
      kind: row.kind === "list" ? "list" : "value",
      data: row.data,
      taskPath: row.task_path,
    });
  }
  return kept;
}
