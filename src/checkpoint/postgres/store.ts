import pg from "pg";
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
  type SearchOptions,
  type StoreBatchPlan,
  type StoreRead,
  StoreTtlPolicy,
  selectNamespaces,
  type TTLConfig,
} from "../../graph/index.js";
import { AgentGraphError, InvalidArgumentError } from "../../shared/index.js";
import { decodeStoreValue, describeStoreBatch, literalPrefix, storeItem } from "../store-rows.js";
import { storeMigrations } from "./store-migrations.js";
import { quoteIdentifier, type RankedStoreRow, type StoreRow, type StoreSql, storeSql } from "./store-sql.js";
import {
  inTransaction,
  postgresHint,
  retryOnLostConnection,
  runMigrations,
  type TransactionProgress,
} from "./transactions.js";

/**
 * The PostgreSQL database under a `PostgresStore` failed (unreachable, connection lost, missing
 * tables, no permission, pool ended, …). The message names the operation and the namespace, and
 * how to fix the cause; `cause` is the driver's error. The batch that failed was rolled back.
 *
 * @example
 * ```ts
 * try {
 *   await store.put(["users", "u1"], "prefs", { theme: "dark" });
 * } catch (e) {
 *   if (e instanceof PostgresStoreError) console.error(e.message, e.cause);
 * }
 * ```
 */
export class PostgresStoreError extends AgentGraphError {
  static override readonly brandName: string = "PostgresStoreError";
}

/**
 * Settings of {@link PostgresStore}, as LangGraph.js names them.
 *
 * @example
 * ```ts
 * const config: PostgresStoreConfig = { connectionOptions: process.env.DATABASE_URL, schema: "memory" };
 * ```
 */
export interface PostgresStoreConfig {
  /** A pool to use. The store does not end it on `stop()`: its owner does. Wins over `connectionOptions`. */
  pool?: pg.Pool | undefined;
  /** A connection string or `pg` pool settings; the store creates (and on `stop()` ends) its pool. */
  connectionOptions?: string | pg.PoolConfig | undefined;
  /** The database schema of the store's tables (default `"public"`); created by `setup()` if needed. */
  schema?: string | undefined;
  /** Run `setup()` automatically before the first operation (default `true`). */
  ensureTables?: boolean | undefined;
  /** Expiry of items. */
  ttl?: TTLConfig | undefined;
  /**
   * The PostgreSQL text-search configuration of `search` queries (default `"english"`), as in
   * LangGraph.js.
   */
  textSearchLanguage?: string | undefined;
  /**
   * Not supported: this store has no vector search (see docs/differences.md); passing an index
   * configuration throws. Use an `InMemoryStore` with `index` for vector search.
   */
  index?: never;
}

/** A vector distance, as LangGraph.js's PostgresStore names them (its `distanceMetric` search option). */
export type DistanceMetric = "cosine" | "l2" | "inner_product";

/**
 * How `PostgresStore.search` uses a `query`, as LangGraph.js names the modes. Without vector
 * search, `"auto"` (the default) and `"text"` run a full-text search; `"vector"` and `"hybrid"`
 * throw.
 *
 * @example
 * ```ts
 * const mode: PostgresSearchMode = "text";
 * ```
 */
export type PostgresSearchMode = "text" | "vector" | "hybrid" | "auto";

/**
 * Options of `PostgresStore.search`: those of every store, and LangGraph.js's PostgresStore
 * options. With a `query`, items match when their words match it (PostgreSQL full-text search,
 * in the store's `textSearchLanguage`) or their JSON text contains it (case-insensitive); the
 * most relevant come first, with their `score`.
 *
 * @example
 * ```ts
 * const found = await store.search(["docs"], { query: "refund policy", mode: "text", limit: 5 });
 * ```
 */
export interface PostgresSearchOptions extends SearchOptions {
  /** How to use `query` (default `"auto"`, a text search here). Ignored without a `query`. */
  mode?: PostgresSearchMode | undefined;
  /** Vector-search option of LangGraph.js; this store has no vector search, so it is ignored. */
  similarityThreshold?: number | undefined;
  /** Vector-search option of LangGraph.js; this store has no vector search, so it is ignored. */
  distanceMetric?: DistanceMetric | undefined;
  /** Hybrid-search option of LangGraph.js; this store has no vector search, so it is ignored. */
  vectorWeight?: number | undefined;
}

const NO_VECTOR_SEARCH =
  'agentgraph\'s PostgresStore has no vector search (see docs/differences.md). Search with mode "text" (or no mode), or use an InMemoryStore with an index.';

/** Checks a search mode as LangGraph.js's PostgresStore does (only when there is a query). */
const VECTOR_NOT_CONFIGURED = `Vector search not configured. Please provide an IndexConfig when creating the store. ${NO_VECTOR_SEARCH}`;

/** What {@link PostgresStore.getStats} answers. */
export interface PostgresStoreStats {
  totalItems: number;
  expiredItems: number;
  namespaceCount: number;
  oldestItem: Date | null;
  newestItem: Date | null;
}

function checkSearchMode(mode: unknown): void {
  if (mode === undefined || mode === "auto" || mode === "text") return;
  if (mode === "vector") {
    throw new InvalidArgumentError(`Vector search requested but not configured: ${NO_VECTOR_SEARCH}`);
  }
  if (mode === "hybrid") {
    throw new InvalidArgumentError(
      `Hybrid search requested but vector search not configured: ${NO_VECTOR_SEARCH}`,
    );
  }
  throw new InvalidArgumentError(`Unknown search mode: ${String(mode)}. Use "text" or "auto" (the default).`);
}

/** A LIKE pattern matching texts that contain `text` (its `%`, `_` and `\\` taken literally). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The page size of filtered searches, which read the prefix's rows in order until the page is full. */
const SCAN_PAGE = 256;

/** A put of a batch, with its namespace's path and its value's text (none for a deletion). */
interface PlannedPut {
  op: PutOperation;
  path: string;
  text: string | undefined;
}

const under = (path: string) => [path, `${path}.`, `${path}/`];

function isPool(value: unknown): value is pg.Pool {
  return (
    typeof (value as pg.Pool | undefined)?.connect === "function" &&
    typeof (value as pg.Pool).query === "function"
  );
}

/**
 * A store in PostgreSQL (`pg`), for apps that run on several processes or machines. Items are
 * stored with the checkpoint serializer, so Dates, Maps and registered classes come back as
 * such; each batch runs in one transaction (batches writing the same items wait for one another
 * rather than deadlock). Search filters run in process over the items of the
 * namespace prefix (read in pages, stopping once the result page is full). A `query` runs a
 * full-text search, as LangGraph.js's PostgresStore does without a vector index; there is no
 * vector search (`mode: "vector"` or `"hybrid"` throws). Expired items are invisible at once and deleted
 * by `sweepExpiredItems()` or the periodic sweep of `ttl.sweepIntervalMinutes`.
 *
 * @example
 * ```ts
 * import { PostgresStore } from "agentgraph/checkpoint/postgres";
 *
 * const store = PostgresStore.fromConnString(process.env.DATABASE_URL!, { schema: "memory" });
 * await store.setup();
 * const graph = builder.compile({ store });
 * // …
 * await store.end();
 * ```
 */
export class PostgresStore extends BaseStore {
  /** The connection pool. */
  readonly pool: pg.Pool;
  /** The schema of the store's tables. */
  readonly schema: string;
  private readonly ownsPool: boolean;
  private readonly ensureTables: boolean;
  private readonly ttl: StoreTtlPolicy;
  private readonly sql: StoreSql;
  private readonly textSearchLanguage: string;
  private settingUp: Promise<void> | undefined;
  private ended = false;

  /** A store on a `pg` pool, or with the given {@link PostgresStoreConfig}. */
  constructor(config: pg.Pool | PostgresStoreConfig) {
    super();
    const settings: PostgresStoreConfig = isPool(config) ? { pool: config } : config;
    if (settings.pool !== undefined) {
      this.pool = settings.pool;
      this.ownsPool = false;
    } else if (settings.connectionOptions !== undefined) {
      const options = settings.connectionOptions;
      this.pool = new pg.Pool(typeof options === "string" ? { connectionString: options } : options);
      // an idle connection that dies is dropped by the pool; without a listener its 'error' event
      // would crash the process (failed queries still reject)
      this.pool.on("error", () => {});
      this.ownsPool = true;
    } else {
      throw new InvalidArgumentError(
        "PostgresStore needs a pool or connectionOptions: new PostgresStore({ connectionOptions: url }) or PostgresStore.fromConnString(url).",
      );
    }
    const schema = settings.schema ?? "public";
    if (typeof schema !== "string" || schema === "") {
      throw new InvalidArgumentError(
        `PostgresStore: schema must be a non-empty string, got ${JSON.stringify(schema)}.`,
      );
    }
    this.schema = schema;
    if ((settings as { index?: unknown }).index !== undefined) {
      throw new InvalidArgumentError(`PostgresStore: index is not supported. ${NO_VECTOR_SEARCH}`);
    }
    const language = settings.textSearchLanguage ?? "english";
    if (typeof language !== "string" || language === "") {
      throw new InvalidArgumentError(
        `PostgresStore: textSearchLanguage must be the name of a PostgreSQL text-search configuration (e.g. "english"), got ${JSON.stringify(language)}.`,
      );
    }
    this.textSearchLanguage = language;
    this.ensureTables = settings.ensureTables ?? true;
    this.ttl = new StoreTtlPolicy(settings.ttl);
    this.sql = storeSql(quoteIdentifier(schema));
  }

  /** A store that connects with a connection string (`postgresql://user@host:5432/db`). */
  static fromConnString(
    connectionString: string,
    options: Omit<PostgresStoreConfig, "pool" | "connectionOptions"> = {},
  ): PostgresStore {
    return new PostgresStore({ ...options, connectionOptions: connectionString });
  }

  /**
   * Creates the schema and tables, or upgrades them (runs pending migrations, under an advisory
   * lock so that concurrent processes do not race), and starts the TTL sweep when configured.
   */
  async setup(): Promise<void> {
    this.settingUp ??= this.migrate().catch((error: unknown) => {
      this.settingUp = undefined;
      throw this.failure(error, "set up its tables");
    });
    await this.settingUp;
    this.ttl.startSweeper(() => this.sweepExpiredItems());
  }

  /**
   * {@link setup}, and starts the TTL sweep (when configured) again after a {@link stop} on a pool
   * that stays open (one passed in). Nothing else restarts a stopped sweep.
   */
  override async start(): Promise<void> {
    await this.setup();
    if (!this.ended) this.ttl.restartSweeper(() => this.sweepExpiredItems());
  }

  /**
   * Stops the TTL sweep, which no later operation or `setup()` restarts (as in LangGraph.js),
   * and ends the pool when the store created it.
   */
  override async stop(): Promise<void> {
    this.ttl.stopSweeper();
    if (this.ownsPool && !this.ended) {
      this.ended = true;
      await this.pool.end();
    }
  }

  /** Same as {@link stop}. */
  async end(): Promise<void> {
    await this.stop();
  }

  /** Deletes expired items now; returns how many. (Expired items are never returned anyway.) */
  async sweepExpiredItems(): Promise<number> {
    await this.ready();
    try {
      // deleting what expired is the same done twice
      const result = await retryOnLostConnection(() => this.pool.query(this.sql.sweep, [new Date()]));
      return result.rowCount ?? 0;
    } catch (error) {
      throw this.failure(error, "delete expired items");
    }
  }

  /**
   * Counts of the stored items, as LangGraph.js's `PostgresStore.getStats()`: every row
   * (`totalItems`, expired ones not yet swept included), those expired (`expiredItems`), the
   * namespaces holding items (`namespaceCount`) and the oldest and newest creation times (`null`
   * when the store is empty).
   */
  async getStats(): Promise<PostgresStoreStats> {
    await this.ready();
    try {
      const { rows } = await retryOnLostConnection(() =>
        this.pool.query<{
          total_items: string;
          expired_items: string;
          namespace_count: string;
          oldest_item: Date | null;
          newest_item: Date | null;
        }>(this.sql.stats, [new Date()]),
      );
      const row = rows[0];
      return {
        totalItems: Number(row?.total_items ?? 0),
        expiredItems: Number(row?.expired_items ?? 0),
        namespaceCount: Number(row?.namespace_count ?? 0),
        oldestItem: row?.oldest_item ?? null,
        newestItem: row?.newest_item ?? null,
      };
    } catch (error) {
      throw this.failure(error, "count its items");
    }
  }

  /**
   * LangGraph.js's vector search entry point. agentgraph's PostgresStore has no vector index, so
   * this always throws an `InvalidArgumentError` starting with LangGraph.js's text for a store
   * without an index (`Vector search not configured. …`).
   */
  async vectorSearch(
    _namespacePrefix: string[],
    _query: string,
    _options: Record<string, unknown> = {},
  ): Promise<SearchItem[]> {
    await this.ready();
    throw new InvalidArgumentError(VECTOR_NOT_CONFIGURED);
  }

  /** LangGraph.js's hybrid search entry point; throws as {@link vectorSearch} does. */
  async hybridSearch(
    _namespacePrefix: string[],
    _query: string,
    _options: Record<string, unknown> = {},
  ): Promise<SearchItem[]> {
    await this.ready();
    throw new InvalidArgumentError(VECTOR_NOT_CONFIGURED);
  }

  /**
   * Items under a namespace prefix, filtered on their fields. With a `query`, a full-text search
   * (see {@link PostgresSearchOptions}): only matching items, most relevant first, each with its
   * `score` when its words match; `mode` `"vector"` or `"hybrid"` throws (no vector search).
   */
  override async search<Value extends Record<string, unknown> = Record<string, unknown>>(
    namespacePrefix: string[],
    options: PostgresSearchOptions = {},
  ): Promise<SearchItem<Value>[]> {
    const { mode, similarityThreshold, distanceMetric, vectorWeight, ...rest } = options;
    if (rest.query) checkSearchMode(mode);
    return super.search<Value>(namespacePrefix, rest);
  }

  async batch<Op extends readonly Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const plan = planStoreBatch(operations);
    const writes: PlannedPut[] = plan.puts.map((op) => ({
      op,
      path: namespaceToPath(op.namespace),
      text: op.value === null ? undefined : defaultSerializer.encode(op.value),
    }));
    const results: unknown[] = new Array(operations.length).fill(undefined);
    if (operations.length === 0) return results as OperationResults<Op>;
    await this.ready();
    const progress: TransactionProgress = { committing: false };
    try {
      // A batch whose connection is lost before its COMMIT committed nothing: it runs again on a
      // new connection. Once COMMIT is sent it may have committed, and its reads would then see
      // its own writes: its error is thrown.
      await retryOnLostConnection(
        () => this.batchOnce(plan, writes, results, progress),
        () => !progress.committing,
      );
    } catch (error) {
      throw this.failure(error, describeStoreBatch(operations));
    }
    return results as OperationResults<Op>;
  }

  /** One attempt of {@link batch}, in one transaction: its reads' answers go to `results`. */
  private async batchOnce(
    plan: StoreBatchPlan,
    writes: readonly PlannedPut[],
    results: unknown[],
    progress: TransactionProgress,
  ): Promise<void> {
    const client = await this.pool.connect();
    await inTransaction(
      client,
      async () => {
        // a single write cannot deadlock: it holds nothing while it waits
        if (writes.length > 1) {
          await client.query(this.sql.lockItems, [
            `agentgraph_store:${this.schema}`,
            writes.map((write) => write.path),
            writes.map((write) => write.op.key),
          ]);
        }
        const now = new Date();
        const refreshed = new Set<string>();
        for (const read of plan.reads) results[read.index] = await this.read(client, read, now, refreshed);
        for (const write of writes) await this.write(client, write.op, write.path, write.text, now);
        // last, so that the batch waits for no lock once it holds these (see the statement)
        if (refreshed.size > 0) await client.query(this.sql.refresh, [now, [...refreshed]]);
      },
      progress,
    );
  }

  /** A typed error for a driver error (errors of agentgraph's own pass as they are). */
  private failure(error: unknown, action: string): AgentGraphError {
    if (error instanceof AgentGraphError) return error;
    const code = String((error as { code?: unknown } | null)?.code ?? "");
    const message = error instanceof Error ? error.message : String(error);
    return new PostgresStoreError(
      `PostgresStore (schema "${this.schema}") could not ${action}: ${message}${code === "" ? "" : ` (${code})`}. ${postgresHint(code, message, "PostgresStore")}`,
      { cause: error },
    );
  }

  private async ready(): Promise<void> {
    if (this.ensureTables) await this.setup();
  }

  private migrate(): Promise<void> {
    return runMigrations(
      this.pool,
      this.sql,
      {
        schema: this.schema,
        lockKey: `agentgraph_store:${this.schema}`,
        component: "PostgresStore",
        error: (message) => new PostgresStoreError(message),
      },
      storeMigrations(quoteIdentifier(this.schema)),
    );
  }

  /**
   * Runs one read of a batch. The rows whose TTLs it restarts go to `refreshed` (their seqs), which
   * the batch refreshes after its writes.
   */
  private read(client: pg.PoolClient, read: StoreRead, now: Date, refreshed: Set<string>): Promise<unknown> {
    if (read.kind === "get") return this.getItem(client, read.op, now, refreshed);
    if (read.kind === "search") return this.searchItems(client, read.op, now, refreshed);
    return this.listNamespacesNow(client, read.op, now);
  }

  private async getItem(
    client: pg.PoolClient,
    op: GetOperation,
    now: Date,
    refreshed: Set<string>,
  ): Promise<Item | null> {
    const { rows } = await client.query<StoreRow>(this.sql.get, [now, namespaceToPath(op.namespace), op.key]);
    const row = rows[0];
    if (row === undefined) return null;
    this.refresh([row], op.refreshTtl, refreshed);
    return storeItem(row);
  }

  private async searchItems(
    client: pg.PoolClient,
    op: SearchOperation,
    now: Date,
    refreshed: Set<string>,
  ): Promise<SearchItem[]> {
    const path = namespaceToPath(op.namespacePrefix);
    const prefix = path === "" ? [] : under(path);
    const limit = op.limit ?? 10;
    const offset = op.offset ?? 0;
    if (op.query) return this.textSearchItems(client, op, op.query, path, now, refreshed);
    let found: { row: StoreRow; value: Record<string, unknown> }[];
    if (op.filter === undefined || Object.keys(op.filter).length === 0) {
      const sql = path === "" ? this.sql.searchAll : this.sql.searchUnder;
      const { rows } = await client.query<StoreRow>(sql, [now, ...prefix, limit, offset]);
      found = rows.map((row) => ({ row, value: decodeStoreValue(row) }));
    } else {
      const sql = path === "" ? this.sql.scanAll : this.sql.scanUnder;
      found = await filteredPages<StoreRow>(op, async (last) => {
        const { rows } = await client.query<StoreRow>(sql, [now, ...prefix, last?.seq ?? null, SCAN_PAGE]);
        return rows;
      });
    }
    // unranked: the `score` key is there, undefined (as in LangGraph.js)
    return this.searchResult(found, op, refreshed, () => undefined);
  }

  /** Marks what a search found for a TTL refresh (when asked) and returns it as items with their scores. */
  private searchResult<Row extends StoreRow>(
    found: { row: Row; value: Record<string, unknown> }[],
    op: SearchOperation,
    refreshed: Set<string>,
    score: (row: Row) => number | undefined,
  ): SearchItem[] {
    this.refresh(
      found.map(({ row }) => row),
      op.refreshTtl,
      refreshed,
    );
    return found.map(({ row, value }) => ({ ...storeItem(row, value), score: score(row) }));
  }

  /** A search with a query: matching rows in rank order, filtered in process (in keyset pages) when there is a filter. */
  private async textSearchItems(
    client: pg.PoolClient,
    op: SearchOperation,
    query: string,
    path: string,
    now: Date,
    refreshed: Set<string>,
  ): Promise<SearchItem[]> {
    const limit = op.limit ?? 10;
    const offset = op.offset ?? 0;
    const params = [
      now,
      path,
      `${path}.`,
      `${path}/`,
      this.textSearchLanguage,
      query,
      containsPattern(query),
    ];
    let found: { row: RankedStoreRow; value: Record<string, unknown> }[];
    if (op.filter === undefined || Object.keys(op.filter).length === 0) {
      const { rows } = await client.query<RankedStoreRow>(this.sql.textSearch, [...params, limit, offset]);
      found = rows.map((row) => ({ row, value: decodeStoreValue(row) }));
    } else {
      found = await filteredPages<RankedStoreRow>(op, async (last) => {
        const { rows } = await client.query<RankedStoreRow>(this.sql.textScan, [
          ...params,
          last?.rank ?? null,
          last?.seq ?? null,
          SCAN_PAGE,
        ]);
        return rows;
      });
    }
    // as LangGraph.js: the rank is the score, and an item that matched only as a substring has none
    return this.searchResult(found, op, refreshed, (row) => (row.rank > 0 ? row.rank : undefined));
  }

  private async listNamespacesNow(
    client: pg.PoolClient,
    op: ListNamespacesOperation,
    now: Date,
  ): Promise<string[][]> {
    const path = namespaceToPath(literalPrefix(op));
    const { rows } =
      path === ""
        ? await client.query<{ prefix: string }>(this.sql.namespacesAll, [now])
        : await client.query<{ prefix: string }>(this.sql.namespacesUnder, [now, ...under(path)]);
    return selectNamespaces(
      rows.map((row) => pathToNamespace(row.prefix)),
      op,
    );
  }

  /** Adds the rows with a TTL to `refreshed` when the read restarts TTLs (`requested`, else the store's setting). */
  private refresh(rows: StoreRow[], requested: boolean | undefined, refreshed: Set<string>): void {
    if (!this.ttl.refreshOnRead(requested)) return;
    for (const row of rows) if (row.ttl_minutes !== null) refreshed.add(row.seq);
  }

  private async write(
    client: pg.PoolClient,
    op: PutOperation,
    path: string,
    text: string | undefined,
    now: Date,
  ): Promise<void> {
    if (text === undefined) {
      await client.query(this.sql.delete, [path, op.key]);
      return;
    }
    await client.query(this.sql.deleteExpiredItem, [now, path, op.key]);
    const ttlMinutes = this.ttl.ttlOf(op);
    const expiresAt = this.ttl.expiresAt(ttlMinutes, now.getTime());
    await client.query(this.sql.upsert, [
      now,
      path,
      op.key,
      text,
      expiresAt === undefined ? null : new Date(expiresAt),
      ttlMinutes ?? null,
    ]);
  }
}

/**
 * The rows of a search whose filter is applied in process: pages of {@link SCAN_PAGE} rows read
 * in order (`page(last)` reads the page after the last row of the previous one), until `limit`
 * rows pass the filter after skipping `offset` of them.
 */
async function filteredPages<Row extends StoreRow>(
  op: SearchOperation,
  page: (last: Row | undefined) => Promise<Row[]>,
): Promise<{ row: Row; value: Record<string, unknown> }[]> {
  const limit = op.limit ?? 10;
  const offset = op.offset ?? 0;
  const found: { row: Row; value: Record<string, unknown> }[] = [];
  let skipped = 0;
  let last: Row | undefined;
  while (found.length < limit) {
    const rows = await page(last);
    for (const row of rows) {
      if (found.length >= limit) break;
      const value = decodeStoreValue(row);
      if (!matchesFilter(value, op.filter)) continue;
      if (skipped < offset) skipped++;
      else found.push({ row, value });
    }
    if (rows.length < SCAN_PAGE) break;
    last = rows[rows.length - 1];
  }
  return found;
}
