/** The statements of `SqliteStore` (the schema lives in store-migrations.ts). */

export const CREATE_MIGRATIONS_TABLE =
  "CREATE TABLE IF NOT EXISTS agentgraph_store_migrations (v INTEGER PRIMARY KEY)";
export const INSERT_MIGRATION_VERSION = "INSERT INTO agentgraph_store_migrations (v) VALUES (?)";

const COLUMNS = "seq, prefix, key, value, created_at, updated_at, ttl_minutes";
const LIVE = "(expires_at IS NULL OR expires_at > @now)";
/** A namespace and everything under it: the path itself, or texts from `path.` up to `path/` (`/` follows `.`). */
const UNDER = "(prefix = @path OR (prefix >= @from AND prefix < @to))";

export const SQL = {
  get: `SELECT ${COLUMNS} FROM agentgraph_store WHERE prefix = @path AND key = @key AND ${LIVE}`,
  searchAll: `SELECT ${COLUMNS} FROM agentgraph_store WHERE ${LIVE} ORDER BY seq DESC LIMIT @limit OFFSET @offset`,
  searchUnder: `SELECT ${COLUMNS} FROM agentgraph_store WHERE ${UNDER} AND ${LIVE} ORDER BY seq DESC LIMIT @limit OFFSET @offset`,
  namespacesAll: `SELECT DISTINCT prefix FROM agentgraph_store WHERE ${LIVE}`,
  namespacesUnder: `SELECT DISTINCT prefix FROM agentgraph_store WHERE ${UNDER} AND ${LIVE}`,
  deleteExpiredItem:
    "DELETE FROM agentgraph_store WHERE prefix = @path AND key = @key AND expires_at <= @now",
  upsert: `INSERT INTO agentgraph_store (prefix, key, value, created_at, updated_at, expires_at, ttl_minutes)
    VALUES (@path, @key, @value, @now, @now, @expiresAt, @ttlMinutes)
    ON CONFLICT (prefix, key) DO UPDATE SET
      seq = (SELECT max(seq) + 1 FROM agentgraph_store),
      value = excluded.value,
      updated_at = excluded.updated_at,
      expires_at = excluded.expires_at,
      ttl_minutes = excluded.ttl_minutes`,
  delete: "DELETE FROM agentgraph_store WHERE prefix = @path AND key = @key",
  refresh:
    "UPDATE agentgraph_store SET expires_at = @now + ttl_minutes * 60000 WHERE seq = @seq AND ttl_minutes IS NOT NULL",
  sweep: "DELETE FROM agentgraph_store WHERE expires_at <= @now",
} as const;

/** A row of the `agentgraph_store` table as the statements above select it. */
export interface StoreRow {
  seq: number;
  prefix: string;
  key: string;
  value: string;
  created_at: number;
  updated_at: number;
  ttl_minutes: number | null;
}
