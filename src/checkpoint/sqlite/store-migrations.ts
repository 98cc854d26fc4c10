/**
 * The schema of `SqliteStore`, as an ordered list: migration `v` is applied once, in order,
 * and recorded in `agentgraph_store_migrations`. Append new migrations; never edit applied ones.
 *
 * `agentgraph_store` holds one row per item: `prefix` is the namespace with its labels joined by `.`
 * (labels cannot contain `.`), `value` the serializer's JSON text, times are epoch
 * milliseconds, `seq` (the rowid) orders items by their last write: a put of an existing item
 * gives it the next `seq`, so searches list the most recently written items first.
 */
export const STORE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS agentgraph_store (
    seq INTEGER PRIMARY KEY,
    prefix TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    expires_at INTEGER,
    ttl_minutes REAL,
    UNIQUE (prefix, key)
  )`,
  "CREATE INDEX IF NOT EXISTS agentgraph_store_expires_at_idx ON agentgraph_store (expires_at) WHERE expires_at IS NOT NULL",
];
