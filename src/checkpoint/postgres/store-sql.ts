/** The statements of `PostgresStore` for one schema (the tables live in store-migrations.ts). */

/** A schema name quoted as a SQL identifier. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

const COLUMNS = "seq, prefix, key, value, created_at, updated_at, ttl_minutes";
const LIVE = "(expires_at IS NULL OR expires_at > $1)";
/** A namespace and everything under it: the path itself, or texts from `path.` up to `path/` (`/` follows `.`). */
const UNDER = "(prefix = $2 OR (prefix >= $3 AND prefix < $4))";
/** {@link UNDER}, or every namespace when the path `$2` is empty. */
const UNDER_OR_ALL = `($2 = '' OR ${UNDER})`;
/**
 * Full-text relevance of an item to a query, as LangGraph.js's PostgresStore ranks its text
 * search: `$5` is the text-search configuration (e.g. `english`), `$6` the query.
 */
const RANK = "ts_rank(to_tsvector($5::regconfig, value), plainto_tsquery($5::regconfig, $6))";
/** An item matches a text query when its words match, or its JSON text contains the query (`$7`, a LIKE pattern). */
const MATCHES = "(to_tsvector($5::regconfig, value) @@ plainto_tsquery($5::regconfig, $6) OR value ILIKE $7)";

/**
 * The statements, for a quoted schema. Parameters: `$1` is always "now"; searches and listings
 * under a prefix take the path and its range as `$2…$4`.
 */
export function storeSql(schema: string) {
  const table = `${schema}.agentgraph_store`;
  const migrations = `${schema}.agentgraph_store_migrations`;
  return {
    lockMigrations: "SELECT pg_advisory_xact_lock(hashtext($1))",
    createSchema: `CREATE SCHEMA IF NOT EXISTS ${schema}`,
    createMigrationsTable: `CREATE TABLE IF NOT EXISTS ${migrations} (v INTEGER PRIMARY KEY)`,
    selectMigrationVersion: `SELECT max(v) AS v FROM ${migrations}`,
    insertMigrationVersion: `INSERT INTO ${migrations} (v) VALUES ($1)`,
    get: `SELECT ${COLUMNS} FROM ${table} WHERE ${LIVE} AND prefix = $2 AND key = $3`,
    /** Most recently written first, as LangGraph.js's PostgresStore (`ORDER BY updated_at DESC`). */
    searchAll: `SELECT ${COLUMNS} FROM ${table} WHERE ${LIVE} ORDER BY seq DESC LIMIT $2 OFFSET $3`,
    searchUnder: `SELECT ${COLUMNS} FROM ${table} WHERE ${LIVE} AND ${UNDER} ORDER BY seq DESC LIMIT $5 OFFSET $6`,
    /** Keyset pages for filtered searches: rows before seq `$2` (`$5` under a prefix; null: from the newest). */
    scanAll: `SELECT ${COLUMNS} FROM ${table} WHERE ${LIVE} AND ($2::bigint IS NULL OR seq < $2::bigint) ORDER BY seq DESC LIMIT $3`,
    scanUnder: `SELECT ${COLUMNS} FROM ${table} WHERE ${LIVE} AND ${UNDER} AND ($5::bigint IS NULL OR seq < $5::bigint) ORDER BY seq DESC LIMIT $6`,
    /**
     * Text search (a `query` without vector search): matching items, most relevant first, then
     * most recently written. `$1` now, `$2…$4` the prefix (`$2` empty: everything), `$5…$7` the
     * query (see {@link RANK}, {@link MATCHES}), `$8` limit, `$9` offset.
     */
    textSearch: `SELECT ${COLUMNS}, ${RANK} AS rank FROM ${table}
      WHERE ${LIVE} AND ${UNDER_OR_ALL} AND ${MATCHES}
      ORDER BY rank DESC, seq DESC LIMIT $8 OFFSET $9`,
    /** Keyset pages of {@link textSearch} for filtered searches: rows after rank `$8` and seq `$9` (null: from the top), `$10` per page. */
    textScan: `SELECT ${COLUMNS}, ${RANK} AS rank FROM ${table}
      WHERE ${LIVE} AND ${UNDER_OR_ALL} AND ${MATCHES}
        AND ($8::real IS NULL OR (${RANK}, seq) < ($8::real, $9::bigint))
      ORDER BY rank DESC, seq DESC LIMIT $10`,
    namespacesAll: `SELECT DISTINCT prefix FROM ${table} WHERE ${LIVE}`,
    namespacesUnder: `SELECT DISTINCT prefix FROM ${table} WHERE ${LIVE} AND ${UNDER}`,
    deleteExpiredItem: `DELETE FROM ${table} WHERE expires_at <= $1 AND prefix = $2 AND key = $3`,
    upsert: `INSERT INTO ${table} (prefix, key, value, created_at, updated_at, expires_at, ttl_minutes)
      VALUES ($2, $3, $4, $1, $1, $5, $6)
      ON CONFLICT (prefix, key) DO UPDATE SET
        seq = nextval(pg_get_serial_sequence('${table.replaceAll("'", "''")}', 'seq')),
        value = excluded.value,
        updated_at = excluded.updated_at,
        expires_at = excluded.expires_at,
        ttl_minutes = excluded.ttl_minutes`,
    delete: `DELETE FROM ${table} WHERE prefix = $1 AND key = $2`,
    /**
     * Locks the items a batch writes (`$2` paths and `$3` keys, in pairs) for its transaction,
     * one advisory lock each under the store's name `$1`, taken in the order of their hashes:
     * batches writing the same items in different orders then wait for one another rather than
     * deadlock on the rows.
     */
    lockItems: `SELECT pg_advisory_xact_lock(hashtext($1), h) FROM (
        SELECT DISTINCT hashtext(p || chr(31) || k) AS h FROM unnest($2::text[], $3::text[]) AS w (p, k)
        ORDER BY h OFFSET 0
      ) locks`,
    /**
     * Restarts the TTLs of the rows `$2` (seqs) a batch read, from `$1`. Rows another transaction
     * has locked are skipped rather than waited for: that transaction writes, deletes or refreshes
     * them itself, and a batch that never waits once it holds these locks cannot deadlock on them.
     */
    refresh: `UPDATE ${table} SET expires_at = $1::timestamptz + ttl_minutes * interval '1 minute'
      WHERE seq IN (
        SELECT seq FROM ${table} WHERE seq = ANY($2::bigint[]) AND ttl_minutes IS NOT NULL
        FOR UPDATE SKIP LOCKED
      )`,
    /**
     * Counts for `getStats()`: every stored row (expired ones not yet swept too, as LangGraph.js
     * counts them), those expired at `$1`, the namespaces, and the oldest and newest creation times.
     */
    stats: `SELECT count(*) AS total_items,
        count(*) FILTER (WHERE expires_at IS NOT NULL AND expires_at <= $1) AS expired_items,
        count(DISTINCT prefix) AS namespace_count,
        min(created_at) AS oldest_item, max(created_at) AS newest_item
      FROM ${table}`,
    /** Deletes the items expired at `$1`, skipping those another transaction has locked (the next sweep takes them). */
    sweep: `DELETE FROM ${table} WHERE seq IN (
        SELECT seq FROM ${table} WHERE expires_at <= $1 FOR UPDATE SKIP LOCKED
      )`,
  } as const;
}

/** The statements of one schema. */
export type StoreSql = ReturnType<typeof storeSql>;

/** A row of `agentgraph_store` as the statements above select it (`seq` is a bigint: a string). */
export interface StoreRow {
  seq: string;
  prefix: string;
  key: string;
  value: string;
  created_at: Date;
  updated_at: Date;
  ttl_minutes: number | null;
}

/** A row of a text search: a {@link StoreRow} and its relevance (`real`, parsed as a number). */
export interface RankedStoreRow extends StoreRow {
  rank: number;
}
