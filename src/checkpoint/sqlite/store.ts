import Database from "better-sqlite3";
import {
  BaseStore,
  defaultSerializer,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  matchesFilter,
  namespaceToPath,
  type Operation,
  type OperationResults,
  type PutOperation,
  pathToNamespace,
  planStoreBatch,
  type SearchItem,
  type SearchOperation,
  type StoreRead,
  StoreTtlPolicy,
  selectNamespaces,
  type TTLConfig,
} from "../../graph/index.js";
import { AgentGraphError } from "../../shared/index.js";
import { decodeStoreValue, describeStoreBatch, literalPrefix, storeItem } from "../store-rows.js";
import { migrationVersion, newerSchemaText, sqliteHint } from "./saver-storage.js";
import { STORE_MIGRATIONS } from "./store-migrations.js";
import { CREATE_MIGRATIONS_TABLE, INSERT_MIGRATION_VERSION, SQL, type StoreRow } from "./store-sql.js";

/**
 * Options of {@link SqliteStore}.
 *
 * @example
 * ```ts
 * const options: SqliteStoreOptions = { ttl: { defaultTtl: 60 * 24, sweepIntervalMinutes: 30 } };
 * ```
 */
export interface SqliteStoreOptions {
  /** Expiry of items. */
  ttl?: TTLConfig | undefined;
}

/**
 * The SQLite database under a `SqliteStore` failed (locked for longer than `busy_timeout`,
 * read-only, closed, …). The message names the operation and the namespace, and how to fix the
 * cause; `cause` is the driver's error. The batch that failed was rolled back.
 *
 * @example
 * ```ts
 * try {
 *   await store.put(["users", "u1"], "prefs", { theme: "dark" });
 * } catch (e) {
 *   if (e instanceof SqliteStoreError) console.error(e.message, e.cause);
 * }
 * ```
 */
export class SqliteStoreError extends AgentGraphError {
  static override readonly brandName: string = "SqliteStoreError";
}

/** A typed error for a driver error (errors of agentgraph's own pass as they are). */
function storeFailure(error: unknown, action: string): AgentGraphError {
  if (error instanceof AgentGraphError) return error;
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  const message = error instanceof Error ? error.message : String(error);
  return new SqliteStoreError(
    `SqliteStore could not ${action}: ${message}${code === "" ? "" : ` (${code})`}. ${sqliteHint(code, message, "SqliteStore")}`,
    { cause: error },
  );
}

type Statement = Database.Statement<[Record<string, unknown>]>;
type Statements = { -readonly [K in keyof typeof SQL]: Statement };

/** The last migration applied to SqliteStore's tables in `db`. */
const storeSchemaVersion = (db: Database.Database) => migrationVersion(db, "agentgraph_store_migrations");

/** Bindings selecting a namespace and everything under it (see store-sql.ts). */
const under = (path: string) => ({ path, from: `${path}.`, to: `${path}/` });

/**
 * A store in a SQLite database (better-sqlite3), for single-machine apps and tests. Items are
 * stored with the checkpoint serializer, so Dates, Maps and registered classes come back as
 * such. Search filters run in process over the items of the namespace prefix; there is no
 * vector search (a `query` leaves results unranked). A batch runs in one transaction.
 *
 * @example
 * ```ts
 * import { SqliteStore } from "agentgraph/checkpoint/sqlite";
 *
 * const store = SqliteStore.fromConnString("./memory.db");
 * await store.put(["users", "u1"], "prefs", { theme: "dark" });
 * const graph = builder.compile({ store });
 * // …
 * await store.stop(); // closes the database it opened
 * ```
 */
export class SqliteStore extends BaseStore {
  /** The database connection. */
  readonly db: Database.Database;
  private readonly ownsDb: boolean;
  private readonly ttl: StoreTtlPolicy;
  private statements: Statements | undefined;

  /** A store on an open better-sqlite3 database, or on the database file at a path (`":memory:"` too). */
  constructor(database: string | Database.Database, options: SqliteStoreOptions = {}) {
    super();
    this.ttl = new StoreTtlPolicy(options.ttl);
    if (typeof database === "string") {
      this.db = new Database(database);
      this.ownsDb = true;
      if (database !== ":memory:" && database !== "") this.db.pragma("journal_mode = WAL");
      this.db.pragma("busy_timeout = 5000");
    } else {
      this.db = database;
      this.ownsDb = false;
    }
  }

  /**
   * A store on the SQLite database file at `path` (created if needed; `":memory:"` for a
   * private in-memory database).
   */
  static fromConnString(path: string, options: SqliteStoreOptions = {}): SqliteStore {
    return new SqliteStore(path, options);
  }

  /** Creates or upgrades the tables (runs pending migrations). Every operation calls it first. */
  async setup(): Promise<void> {
    this.prepareFor("set up its tables");
  }

  /**
   * Sets the tables up and starts the TTL sweep (when configured), again after a {@link stop} on
   * a database that stays open (one passed in). Nothing else restarts a stopped sweep.
   */
  override async start(): Promise<void> {
    this.prepareFor("set up its tables");
    if (this.db.open) this.ttl.restartSweeper(() => this.sweepExpiredItems());
  }

  /**
   * Stops the TTL sweeper, which no later operation restarts, and closes the database when the
   * store opened it.
   */
  override async stop(): Promise<void> {
    this.ttl.stopSweeper();
    if (this.ownsDb && this.db.open) this.db.close();
  }

  /** Deletes expired items now; returns how many. (Expired items are never returned anyway.) */
  async sweepExpiredItems(): Promise<number> {
    const action = "delete expired items";
    const statements = this.prepareFor(action);
    try {
      return statements.sweep.run({ now: Date.now() }).changes;
    } catch (error) {
      throw storeFailure(error, action);
    }
  }

  async batch<Op extends readonly Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const plan = planStoreBatch(operations);
    let statements: Statements;
    try {
      statements = this.prepare();
    } catch (error) {
      throw storeFailure(error, describeStoreBatch(operations));
    }
    const writes = plan.puts.map((op) => ({
      op,
      path: namespaceToPath(op.namespace),
      text: op.value === null ? undefined : defaultSerializer.encode(op.value),
    }));
    const results: unknown[] = new Array(operations.length).fill(undefined);
    const now = Date.now();
    // A batch of reads only reads in a deferred transaction, which other connections' writes do
    // not wait for; the TTLs it restarts are written after it, under the write lock (upgrading
    // the read would fail at once with SQLITE_BUSY while another connection writes).
    const refreshed: number[] | undefined = writes.length > 0 ? undefined : [];
    const run = this.db.transaction(() => {
      for (const read of plan.reads) results[read.index] = this.read(statements, read, now, refreshed);
      for (const write of writes) this.write(statements, write.op, write.path, write.text, now);
    });
    try {
      if (writes.length > 0) run.immediate();
      else run();
      if (refreshed !== undefined && refreshed.length > 0) {
        this.db
          .transaction(() => {
            for (const seq of refreshed) statements.refresh.run({ seq, now });
          })
          .immediate();
      }
    } catch (error) {
      throw storeFailure(error, describeStoreBatch(operations));
    }
    if (writes.length > 0) this.ttl.startSweeper(() => this.sweepExpiredItems());
    return results as OperationResults<Op>;
  }

  /** {@link prepare}, its driver errors reported as failures of `action`. */
  private prepareFor(action: string): Statements {
    if (this.statements !== undefined) return this.statements;
    try {
      return this.prepare();
    } catch (error) {
      throw storeFailure(error, action);
    }
  }

  private prepare(): Statements {
    if (this.statements !== undefined) return this.statements;
    const { db } = this;
    // an up-to-date database needs no write lock (which a reader would wait for while another
    // connection writes): only a pending migration takes it
    if (storeSchemaVersion(db) !== STORE_MIGRATIONS.length - 1) {
      db.transaction(() => {
        db.exec(CREATE_MIGRATIONS_TABLE);
        const current = storeSchemaVersion(db) ?? -1;
        if (current >= STORE_MIGRATIONS.length) {
          throw new SqliteStoreError(newerSchemaText("SqliteStore", current, STORE_MIGRATIONS.length));
        }
        const insert = db.prepare(INSERT_MIGRATION_VERSION);
        for (let v = current + 1; v < STORE_MIGRATIONS.length; v++) {
          db.exec(STORE_MIGRATIONS[v] as string);
          insert.run(v);
        }
      }).immediate();
    }
    const statements = {} as Statements;
    for (const [name, sql] of Object.entries(SQL)) statements[name as keyof Statements] = db.prepare(sql);
    this.statements = statements;
    return statements;
  }

  private read(
    statements: Statements,
    read: StoreRead,
    now: number,
    refreshed: number[] | undefined,
  ): unknown {
    if (read.kind === "get") return this.getItem(statements, read.op, now, refreshed);
    if (read.kind === "search") return this.searchItems(statements, read.op, now, refreshed);
    return this.listNamespacesNow(statements, read.op, now);
  }

  private getItem(
    statements: Statements,
    op: GetOperation,
    now: number,
    refreshed: number[] | undefined,
  ): Item | null {
    const row = statements.get.get({ path: namespaceToPath(op.namespace), key: op.key, now }) as
      | StoreRow
      | undefined;
    if (row === undefined) return null;
    this.refresh(statements, [row], op.refreshTtl, now, refreshed);
    return storeItem(row);
  }

  private searchItems(
    statements: Statements,
    op: SearchOperation,
    now: number,
    refreshed: number[] | undefined,
  ): SearchItem[] {
    const path = namespaceToPath(op.namespacePrefix);
    const statement = path === "" ? statements.searchAll : statements.searchUnder;
    const bindings = { ...under(path), now };
    const limit = op.limit ?? 10;
    const offset = op.offset ?? 0;
    let found: { row: StoreRow; value: Record<string, unknown> }[];
    if (op.filter === undefined || Object.keys(op.filter).length === 0) {
      const rows = statement.all({ ...bindings, limit, offset }) as StoreRow[];
      found = rows.map((row) => ({ row, value: decodeStoreValue(row) }));
    } else {
      // Filters run here, over the rows of the prefix in order, stopping once the page is full.
      found = [];
      let skipped = 0;
      for (const row of statement.iterate({
        ...bindings,
        limit: -1,
        offset: 0,
      }) as IterableIterator<StoreRow>) {
        if (found.length >= limit) break;
        const value = decodeStoreValue(row);
        if (!matchesFilter(value, op.filter)) continue;
        if (skipped < offset) skipped++;
        else found.push({ row, value });
      }
    }
    this.refresh(
      statements,
      found.map(({ row }) => row),
      op.refreshTtl,
      now,
      refreshed,
    );
    // unranked: the `score` key is there, undefined (as in LangGraph.js)
    return found.map(({ row, value }) => ({ ...storeItem(row, value), score: undefined }));
  }

  private listNamespacesNow(statements: Statements, op: ListNamespacesOperation, now: number): string[][] {
    const path = namespaceToPath(literalPrefix(op));
    const rows =
      path === ""
        ? (statements.namespacesAll.all({ now }) as { prefix: string }[])
        : (statements.namespacesUnder.all({ ...under(path), now }) as { prefix: string }[]);
    return selectNamespaces(
      rows.map((row) => pathToNamespace(row.prefix)),
      op,
    );
  }

  private refresh(
    statements: Statements,
    rows: StoreRow[],
    requested: boolean | undefined,
    now: number,
    refreshed: number[] | undefined,
  ): void {
    if (!this.ttl.refreshOnRead(requested)) return;
    for (const row of rows) {
      if (row.ttl_minutes === null) continue;
      // in a batch of reads only, the refresh is written after the reads (see batch)
      if (refreshed !== undefined) refreshed.push(row.seq);
      else statements.refresh.run({ seq: row.seq, now });
    }
  }

  private write(
    statements: Statements,
    op: PutOperation,
    path: string,
    text: string | undefined,
    now: number,
  ): void {
    if (text === undefined) {
      statements.delete.run({ path, key: op.key });
      return;
    }
    statements.deleteExpiredItem.run({ path, key: op.key, now });
    const ttlMinutes = this.ttl.ttlOf(op);
    statements.upsert.run({
      path,
      key: op.key,
      value: text,
      now,
      expiresAt: this.ttl.expiresAt(ttlMinutes, now) ?? null,
      ttlMinutes: ttlMinutes ?? null,
    });
  }
}
