import type Database from "better-sqlite3";
import {
  type BlobKind,
  type BlobRow,
  blobRowOf,
  CHECKPOINT_CHAIN_LIMIT,
  CheckpointCorruptError,
  type CheckpointListing,
  type CheckpointRow,
  type CheckpointStorage,
  followSpliceChain,
  type ItemRow,
  type ItemsJson,
  LIST_CHAIN_MAX,
  type ListQuery,
  type StorageBatch,
  type WriteRow,
  writesUnchanged,
} from "../../graph/index.js";
import { AgentGraphError } from "../../shared/index.js";
import { CHECKPOINT_MIGRATIONS } from "./saver-migrations.js";
import {
  type BlobDbRow,
  type CheckpointDbRow,
  CREATE_MIGRATIONS_TABLE,
  DamagedIdError,
  fromStoredId,
  fromStoredPath,
  INSERT_MIGRATION_VERSION,
  type ListingDbRow,
  listSql,
  mergeWrites,
  SQL,
  type StoredId,
  type StoredWrite,
  storedWrite,
  storedWriteText,
  toStoredId,
  toStoredPath,
  type WriteDbRow,
} from "./saver-sql.js";

/**
 * The SQLite database under a `SqliteSaver` failed (locked, read-only, closed, …). The message
 * names the operation and thread, and how to fix the cause; `cause` is the driver's error.
 *
 * @example
 * ```ts
 * try {
 *   await saver.getTuple(config);
 * } catch (e) {
 *   if (e instanceof SqliteSaverError) console.error(e.message, e.cause);
 * }
 * ```
 */
export class SqliteSaverError extends AgentGraphError {
  static override readonly brandName: string = "SqliteSaverError";
}

type Statement = Database.Statement<[Record<string, unknown>]>;
/** A statement of a save's rows, bound by position (see SQL). */
type Positional = Database.Statement<unknown[]>;
/** The statements that take positional parameters (see `SQL.upsertCheckpoint`). */
type PositionalName = "upsertCheckpoint" | "touchThread" | "insertBlob" | "insertItem" | "insertWrites";
type Statements = {
  -readonly [K in keyof typeof SQL]: K extends PositionalName ? Positional : Statement;
};

/**
 * An item as `SQL.items` reads it: `hash data` in one text, which the driver hands over as one
 * string rather than as a row of two (a history read back is a thousand items: a third less
 * time in the driver). Hashes are the saver's own (base-64 digits, never a space). The parts are
 * slices of the text: the saver keeps the data, and the hashes it keeps are the references it
 * asked for, not these.
 */
function itemRowOf(threadId: string, text: string): ItemRow {
  const cut = text.indexOf(" ");
  return { threadId, hash: text.slice(0, cut), data: text.slice(cut + 1) };
}

/** Reads of at least this many items consider reading the thread's items in one walk. */
const ITEM_SCAN_MIN = 256;

/** Bounds of the recursive walks: far above the encoder's chain limits, so only a damaged (cyclic) chain hits them. */
const CHAIN_WALK_LIMIT = CHECKPOINT_CHAIN_LIMIT * 4 + 16;
const LIST_WALK_LIMIT = LIST_CHAIN_MAX * 4 + 16;

/** The statements `getTuple` runs (see `ready`). */
const READ_STATEMENTS = [
  "chainLatest",
  "chainById",
  "blobHeads",
  "blobRange",
  "blobs",
  "writes",
  "itemCount",
  "threadItems",
  "items",
  "threadItemsJson",
  "itemsJson",
] as const satisfies readonly (keyof Statements)[];

/**
 * How to fix the cause of a better-sqlite3 error (by its code), for the errors of `component`
 * (`SqliteSaver` or `SqliteStore`).
 */
export function sqliteHint(code: string, message: string, component: "SqliteSaver" | "SqliteStore"): string {
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return "Another connection held the database's write lock for longer than busy_timeout: raise it (db.pragma(\"busy_timeout = 10000\")) or shorten that connection's transactions.";
  }
  if (code.startsWith("SQLITE_READONLY"))
    return "Open the database file (and its directory, for the WAL files) with write access.";
  if (code === "SQLITE_FULL") {
    return component === "SqliteSaver"
      ? "The disk is full: free space, or prune old threads (saver.prune / saver.deleteStaleThreads)."
      : "The disk is full: free space, or delete old items (a ttl and store.sweepExpiredItems() do it for you).";
  }
  if (code.startsWith("SQLITE_CANTOPEN") || code.startsWith("SQLITE_IOERR"))
    return "Check that the database file and its directory exist and are accessible.";
  const noun = component === "SqliteSaver" ? "saver" : "store";
  if (/not open/i.test(message))
    return `The ${noun} (or its database) was closed: create a new ${component}.`;
  return `Check the database file, or open a new ${component} on a fresh file.`;
}

/** The message of the error for tables set up by a newer version (with migrations this one does not know). */
export function newerSchemaText(component: string, current: number, known: number): string {
  return `${component}: the tables in this database were set up by a newer version of agentgraph (migration ${current}; this version knows 0 to ${known - 1}). Upgrade agentgraph in this process, or use another database file.`;
}

/**
 * The last migration applied to `db` according to its migrations table `table` (undefined: none,
 * or no such table yet). SqliteSaver's and SqliteStore's tables each keep one.
 */
export function migrationVersion(db: Database.Database, table: string): number | undefined {
  const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(table);
  if (exists === undefined) return undefined;
  const v = (db.prepare(`SELECT max(v) AS v FROM ${table}`).get() as { v: number | bigint | null }).v;
  return v === null ? undefined : Number(v);
}

/** The last migration applied to SqliteSaver's tables in `db`. */
const schemaVersion = (db: Database.Database) => migrationVersion(db, "agentgraph_checkpoint_migrations");

/**
 * `CheckpointStorage` on a better-sqlite3 database: every call is synchronous, each `write` one
 * transaction. See saver-migrations.ts for the tables. `SqliteSaver` is the encoder over it; use
 * it directly to wrap it (to count or log storage calls, say).
 *
 * @example
 * ```ts
 * const storage = new SqliteCheckpointStorage(new Database("checkpoints.db"));
 * const saver = new EncodedCheckpointSaver(storage, defaultSerializer);
 * ```
 */
export class SqliteCheckpointStorage implements CheckpointStorage {
  readonly db: Database.Database;
  private statements: Statements | undefined;
  private readonly listStatements = new Map<string, Statement>();
  private writeTx: ((batch: StorageBatch) => void) | undefined;
  private replaceTx:
    | ((
        threadId: string,
        batch: StorageBatch,
        read: ReadonlySet<string> | undefined,
        readWrites: ReadonlyMap<string, string> | undefined,
      ) => boolean)
    | undefined;
  private deleteTx: ((threadId: string) => void) | undefined;

  constructor(db: Database.Database) {
    this.db = db;
  }

  /**
   * WAL journal, `synchronous = NORMAL` (durable across application crashes; a power loss can
   * undo the last commits but never corrupts the file), then pending migrations, then the
   * statements a checkpoint read runs are prepared. Idempotent.
   */
  setup(): void {
    this.ready();
  }

  write(batch: StorageBatch): void {
    if (batch.checkpoints.length + batch.blobs.length + batch.items.length + batch.writes.length === 0)
      return;
    const first = batch.checkpoints[0] ?? batch.writes[0] ?? batch.blobs[0] ?? batch.items[0];
    this.guard(
      "save a checkpoint",
      first?.threadId,
      batch.checkpoints[0]?.id ?? batch.writes[0]?.checkpointId,
      () => {
        this.ready();
        (this.writeTx as (batch: StorageBatch) => void)(batch);
      },
    );
  }

  checkpointChain(threadId: string, ns: string, id: string | undefined, stopAt?: string): CheckpointRow[] {
    return this.guard("read a checkpoint", threadId, id, () => {
      const s = this.ready();
      const params = {
        thread: threadId,
        ns,
        id: id === undefined ? null : toStoredId(id),
        limit: CHAIN_WALK_LIMIT,
        stop: stopAt === undefined ? null : toStoredId(stopAt),
      };
      const rows = (id === undefined ? s.chainLatest : s.chainById).all(params) as CheckpointDbRow[];
      return rows.map((row) => ({
        threadId: row.thread_id,
        ns: row.checkpoint_ns,
        id: fromStoredId(row.checkpoint_id),
        parentId: row.parent_checkpoint_id === null ? null : fromStoredId(row.parent_checkpoint_id),
        createdAt: Number(row.created_at),
        record: row.record,
        metadata: row.metadata,
        depth: Number(row.depth),
      }));
    });
  }

  blobs(
    threadId: string,
    ns: string,
    wanted: readonly (readonly [channel: string, version: string])[],
  ): BlobRow[] {
    if (wanted.length === 0) return [];
    return this.guard("read channel values", threadId, undefined, () => {
      const s = this.ready();
      const rows: BlobRow[] = [];
      for (const head of s.blobHeads.all({
        thread: threadId,
        ns,
        wanted: JSON.stringify(wanted),
      }) as BlobDbRow[]) {
        const row = blobRowOf(threadId, ns, head);
        rows.push(row);
        if (row.kind === "splice") this.spliceChain(row, rows);
      }
      return rows;
    });
  }

  /**
   * Appends to `out` the nodes below the splice `head`, down to its full node: first from one
   * range scan of the versions just below it (what a chain is, unless the thread forked there),
   * then, from the first node that scan did not hold, with the recursive walk.
   */
  private spliceChain(head: BlobRow, out: BlobRow[]): void {
    const { threadId, ns } = head;
    const s = this.ready();
    const range = s.blobRange.raw(true).all({
      thread: threadId,
      ns,
      channel: head.channel,
      version: head.prev,
      limit: Math.min(Number(head.depth), LIST_WALK_LIMIT) + 1,
    }) as [version: string, kind: string, data: string | null, prev: string | null, depth: number | bigint][];
    const nodeOf = (row: (typeof range)[number]): BlobRow => ({
      threadId,
      ns,
      channel: head.channel,
      version: row[0],
      kind: row[1] as BlobKind,
      data: row[2],
      prev: row[3],
      depth: Number(row[4]),
    });
    // Unless the thread forked below the head, the range is the chain itself, in order: each row
    // the one before it splices, so the next row is looked at first, and the range is keyed by
    // version only when a fork's versions interrupt it. Indexed rows, not destructured: a chain
    // can be hundreds long.
    let at = 0;
    let byVersion: Map<string, BlobRow> | undefined;
    const find = (version: string): BlobRow | undefined => {
      const row = range[at];
      if (row !== undefined && row[0] === version) {
        at += 1;
        return nodeOf(row);
      }
      if (byVersion === undefined) {
        byVersion = new Map();
        for (const other of range) byVersion.set(other[0], nodeOf(other));
      }
      return byVersion.get(version);
    };
    const { nodes, missing } = followSpliceChain(head, find, LIST_WALK_LIMIT);
    for (const node of nodes) out.push(node);
    if (missing === undefined) return;
    const rest = s.blobs.all({
      thread: threadId,
      ns,
      wanted: JSON.stringify([[head.channel, missing]]),
      limit: LIST_WALK_LIMIT,
    }) as BlobDbRow[];
    for (const row of rest) out.push(blobRowOf(threadId, ns, row));
  }

  itemCount(threadId: string): number {
    return this.guard("count list items", threadId, undefined, () =>
      Number(this.ready().itemCount.pluck(true).get({ thread: threadId })),
    );
  }

  items(threadId: string, hashes: ReadonlySet<string>): ItemRow[] {
    if (hashes.size === 0) return [];
    return this.guard("read list items", threadId, undefined, () => {
      const s = this.ready();
      const out: ItemRow[] = [];
      if (this.readsWhole(threadId, hashes)) {
        for (const text of s.threadItems.pluck(true).all({ thread: threadId }) as string[]) {
          const row = itemRowOf(threadId, text);
          if (hashes.has(row.hash)) out.push(row);
        }
        return out;
      }
      for (const text of s.items.pluck(true).all({
        thread: threadId,
        hashes: JSON.stringify([...hashes]),
      }) as string[]) {
        out.push(itemRowOf(threadId, text));
      }
      return out;
    });
  }

  /**
   * Whether to read items by walking all of the thread's: for most of them (a long history read
   * whole), one walk costs less than a lookup per item. Otherwise (few items, or a thread with
   * many others: forks, replaced messages), the lookups.
   */
  private readsWhole(threadId: string, hashes: ReadonlySet<string>): boolean {
    return hashes.size >= ITEM_SCAN_MIN && this.itemCount(threadId) <= hashes.size * 2;
  }

  /**
   * The items of `hashes` as one JSON text: a long history in one walk of the thread's items
   * (and then the thread's others too), as {@link items} reads them.
   */
  itemsJson(threadId: string, hashes: ReadonlySet<string>): ItemsJson {
    if (hashes.size === 0) return { text: null, count: 0 };
    return this.guard("read list items", threadId, undefined, () => {
      const s = this.ready();
      const row = (
        this.readsWhole(threadId, hashes)
          ? s.threadItemsJson.get({ thread: threadId })
          : s.itemsJson.get({ thread: threadId, hashes: JSON.stringify([...hashes]) })
      ) as { text: string | null; count: number | bigint };
      return { text: row.text, count: Number(row.count) };
    });
  }

  writes(threadId: string, ns: string, checkpointId: string): WriteRow[] {
    return this.guard("read pending writes", threadId, checkpointId, () => {
      const rows = this.ready().writes.all({
        thread: threadId,
        ns,
        checkpointId: toStoredId(checkpointId),
      }) as WriteDbRow[];
      const out: WriteRow[] = [];
      for (const row of rows) {
        const taskId = fromStoredId(row.task_id);
        const taskPath = fromStoredPath(row.task_path);
        for (const [idx, channel, kind, data] of JSON.parse(row.writes) as StoredWrite[]) {
          out.push({
            threadId,
            ns,
            checkpointId,
            taskId,
            idx: Number(idx),
            channel,
            kind: kind === "l" ? "list" : "value",
            data: kind === "l" ? JSON.stringify(data) : String(data),
            taskPath,
          });
        }
      }
      return out;
    });
  }

  listCheckpoints(query: ListQuery): CheckpointListing[] {
    return this.guard("list checkpoints", query.threadId, undefined, () => {
      this.ready();
      const filters = {
        thread: query.threadId !== undefined,
        ns: query.ns !== undefined,
        before: query.beforeId !== undefined,
        id: query.id !== undefined,
        limit: query.limit !== undefined,
      };
      const key = `${filters.thread}${filters.ns}${filters.before}${filters.id}${filters.limit}`;
      let statement = this.listStatements.get(key);
      if (statement === undefined) {
        statement = this.db.prepare(listSql(filters));
        this.listStatements.set(key, statement);
      }
      const params: Record<string, unknown> = {};
      if (filters.thread) params.thread = query.threadId;
      if (filters.ns) params.ns = query.ns;
      if (filters.before) params.before = toStoredId(query.beforeId as string);
      if (filters.id) params.id = toStoredId(query.id as string);
      if (filters.limit) params.limit = query.limit;
      return (statement.all(params) as ListingDbRow[]).map((row) => ({
        threadId: row.thread_id,
        ns: row.checkpoint_ns,
        id: fromStoredId(row.checkpoint_id),
        metadata: row.metadata,
      }));
    });
  }

  deleteThread(threadId: string): void {
    this.guard("delete a thread", threadId, undefined, () => {
      this.ready();
      (this.deleteTx as (threadId: string) => void)(threadId);
    });
  }

  replaceThread(
    threadId: string,
    batch: StorageBatch,
    read?: ReadonlySet<string>,
    readWrites?: ReadonlyMap<string, string>,
  ): boolean {
    return this.guard("replace a thread's checkpoints", threadId, undefined, () => {
      this.ready();
      const replace = this.replaceTx as NonNullable<SqliteCheckpointStorage["replaceTx"]>;
      return replace(threadId, batch, read, readWrites);
    });
  }

  staleThreads(cutoff: number): string[] {
    return this.guard("find expired threads", undefined, undefined, () => {
      const rows = this.ready().staleThreads.all({ cutoff }) as { thread_id: string }[];
      return rows.map((row) => row.thread_id);
    });
  }

  /** UTF-8 bytes of the stored text (for one thread, or all); equal to `MemorySaver.storedBytes` on ASCII content. */
  storedBytes(threadId?: string): number {
    return this.guard("measure storage", threadId, undefined, () => {
      const s = this.ready();
      const row = (
        threadId === undefined ? s.storedBytes.get({}) : s.storedBytesOfThread.get({ thread: threadId })
      ) as { bytes: number | bigint } | undefined;
      return Number(row?.bytes ?? 0);
    });
  }

  private ready(): Statements {
    if (this.statements !== undefined) return this.statements;
    const { db } = this;
    if (!db.memory) db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL");
    // an up-to-date database needs no write lock: only a pending migration takes it
    if (schemaVersion(db) !== CHECKPOINT_MIGRATIONS.length - 1) {
      db.transaction(() => {
        db.exec(CREATE_MIGRATIONS_TABLE);
        const current = schemaVersion(db);
        if (current !== undefined && current >= CHECKPOINT_MIGRATIONS.length) {
          throw new SqliteSaverError(newerSchemaText("SqliteSaver", current, CHECKPOINT_MIGRATIONS.length));
        }
        const insert = db.prepare(INSERT_MIGRATION_VERSION);
        for (let v = current === undefined ? 0 : current + 1; v < CHECKPOINT_MIGRATIONS.length; v++) {
          db.exec(CHECKPOINT_MIGRATIONS[v] as string);
          insert.run(v);
        }
      }).immediate();
    }
    // Reading a checkpoint (what every run does first, and getState) needs the statements of
    // READ_STATEMENTS: they are prepared now, with the schema check, so the first read of a
    // freshly opened saver does not pay for compiling them. Every other statement (writes,
    // listing, pruning, deleting) is prepared when first used.
    const prepared: Partial<Statements> = {};
    for (const name of READ_STATEMENTS) prepared[name] = db.prepare(SQL[name]) as Statement;
    const statements = {} as Statements;
    for (const name of Object.keys(SQL) as (keyof Statements)[]) {
      Object.defineProperty(statements, name, {
        enumerable: true,
        get: () => {
          let statement = prepared[name];
          if (statement === undefined) {
            statement = db.prepare(SQL[name]) as Statement;
            prepared[name] = statement;
          }
          return statement;
        },
      });
    }
    const insertAll = (batch: StorageBatch) => {
      // indexed loops: a batch of an async run holds a dozen rows per step
      const checkpoints = batch.checkpoints;
      // one row per thread: its newest checkpoint's time
      const newest = new Map<string, number>();
      // each statement read once per batch (they are getters that prepare on first use)
      const upsertCheckpoint = checkpoints.length > 0 ? statements.upsertCheckpoint : undefined;
      for (let i = 0; i < checkpoints.length; i++) {
        const row = checkpoints[i] as CheckpointRow;
        const at = Math.trunc(row.createdAt);
        (upsertCheckpoint as Positional).run(
          row.threadId,
          row.ns,
          toStoredId(row.id),
          row.parentId === null ? null : toStoredId(row.parentId),
          row.depth,
          at,
          row.record,
          row.metadata,
        );
        if (!(at <= (newest.get(row.threadId) ?? Number.NEGATIVE_INFINITY))) newest.set(row.threadId, at);
      }
      newest.forEach((createdAt, thread) => {
        statements.touchThread.run(thread, createdAt);
      });
      const blobs = batch.blobs;
      const insertBlob = blobs.length > 0 ? statements.insertBlob : undefined;
      for (let i = 0; i < blobs.length; i++) {
        const row = blobs[i] as BlobRow;
        (insertBlob as Positional).run(
          row.threadId,
          row.ns,
          row.channel,
          row.version,
          row.kind,
          row.data,
          row.prev,
          row.depth,
        );
      }
      const items = batch.items;
      const insertItem = items.length > 0 ? statements.insertItem : undefined;
      for (let i = 0; i < items.length; i++) {
        const row = items[i] as ItemRow;
        (insertItem as Positional).run(row.threadId, row.hash, row.data);
      }
      let thread: string | undefined;
      for (let i = 0; i < batch.writes.length; i++) {
        const row = batch.writes[i] as WriteRow;
        if (row.threadId === thread) continue;
        thread = row.threadId;
        // a thread first seen with writes (no checkpoint in this batch) still ages out
        if (!newest.has(thread)) statements.registerThread.run({ thread });
      }
      // one row per task: the writes of a task that come together are stored together
      const writes = batch.writes;
      const insertWrites = writes.length > 0 ? statements.insertWrites : undefined;
      for (let i = 0; i < writes.length; ) {
        const first = writes[i] as WriteRow;
        const group: WriteRow[] = [];
        let replaces = false;
        let j = i;
        for (; j < writes.length; j++) {
          const row = writes[j] as WriteRow;
          if (row.taskId !== first.taskId || row.checkpointId !== first.checkpointId) break;
          if (row.threadId !== first.threadId || row.ns !== first.ns) break;
          // within one save, a repeated index keeps the first ordinary write and the last control one
          let at = -1;
          for (let k = 0; k < group.length && at === -1; k++)
            if ((group[k] as WriteRow).idx === row.idx) at = k;
          if (at === -1) group.push(row);
          else if (row.idx < 0) group[at] = row;
          if (row.idx < 0) replaces = true;
        }
        i = j;
        let text = "[";
        for (let k = 0; k < group.length; k++)
          text += (k === 0 ? "" : ",") + storedWriteText(group[k] as WriteRow);
        text += "]";
        const key = {
          thread: first.threadId,
          ns: first.ns,
          checkpointId: toStoredId(first.checkpointId),
          taskId: toStoredId(first.taskId),
        };
        const inserted = (insertWrites as Positional).run(
          key.thread,
          key.ns,
          key.checkpointId,
          key.taskId,
          toStoredPath(first.taskPath),
          text,
        );
        if (inserted.changes > 0) continue;
        const existing = statements.taskWrites.get(key) as { task_path: string; writes: string };
        statements.replaceWrites.run({
          ...key,
          taskPath: replaces ? toStoredPath(first.taskPath) : existing.task_path,
          writes: JSON.stringify(
            mergeWrites(JSON.parse(existing.writes) as StoredWrite[], group.map(storedWrite)),
          ),
        });
      }
    };
    const deleteAll = (threadId: string) => {
      const params = { thread: threadId };
      statements.deleteCheckpoints.run(params);
      statements.deleteBlobs.run(params);
      statements.deleteItems.run(params);
      statements.deleteWrites.run(params);
      statements.deleteThread.run(params);
    };
    const write = db.transaction(insertAll);
    const remove = db.transaction(deleteAll);
    const replace = db.transaction(
      (
        threadId: string,
        batch: StorageBatch,
        read: ReadonlySet<string> | undefined,
        readWrites: ReadonlyMap<string, string> | undefined,
      ): boolean => {
        // under the write lock: a checkpoint or write saved since the caller read the thread is seen here
        if (read !== undefined) {
          const ids = statements.threadCheckpointIds.pluck(true).all({ thread: threadId }) as StoredId[];
          for (const id of ids) if (!read.has(fromStoredId(id))) return false;
        }
        if (!writesUnchanged(readWrites, (ns, id) => this.writes(threadId, ns, id))) return false;
        deleteAll(threadId);
        insertAll(batch);
        return true;
      },
    );
    this.writeTx = (batch) => write.immediate(batch);
    this.deleteTx = (threadId) => remove.immediate(threadId);
    this.replaceTx = (threadId, batch, read, readWrites) =>
      replace.immediate(threadId, batch, read, readWrites);
    this.statements = statements;
    return statements;
  }

  /** Runs `fn`, turning driver errors into typed errors that name the thread and checkpoint. */
  private guard<T>(
    action: string,
    threadId: string | undefined,
    checkpointId: string | undefined,
    fn: () => T,
  ): T {
    try {
      return fn();
    } catch (error) {
      if (error instanceof AgentGraphError) throw error;
      if (error instanceof DamagedIdError) {
        throw new CheckpointCorruptError(
          threadId ?? "(any)",
          "",
          checkpointId ?? "(latest)",
          error.message,
          error,
        );
      }
      const code = String((error as { code?: unknown } | null)?.code ?? "");
      const message = error instanceof Error ? error.message : String(error);
      if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB") {
        throw new CheckpointCorruptError(
          threadId ?? "(any)",
          "",
          checkpointId ?? "(latest)",
          `the SQLite database is damaged (${code}: ${message})`,
          error,
        );
      }
      const where =
        threadId === undefined
          ? ""
          : ` of thread "${threadId}"${checkpointId === undefined ? "" : ` (checkpoint ${checkpointId})`}`;
      throw new SqliteSaverError(
        `SqliteSaver could not ${action}${where}: ${message}${code === "" ? "" : ` (${code})`}. ${sqliteHint(code, message, "SqliteSaver")}`,
        { cause: error },
      );
    }
  }
}
