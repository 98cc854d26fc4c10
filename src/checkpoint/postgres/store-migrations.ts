/**
 * The schema of `PostgresStore`, as an ordered list for one database schema: migration `v` is
 * applied once, in order, and recorded in `agentgraph_store_migrations`. Append new
 * migrations; never edit applied ones.
 *
 * `agentgraph_store` holds one row per item: `prefix` is the namespace with its labels joined
 * by `.` (labels cannot contain `.`), compared byte-wise (`COLLATE "C"`) so that a range scan
 * finds a namespace's descendants; `value` is the serializer's JSON text (text, not jsonb, so
 * key order survives); `seq` orders items by their last write (a put of an existing item takes
 * the sequence's next value), so searches list the most recently written items first. The
 * tables are not named `store` so that they never collide with the tables of LangGraph's own
 * Postgres stores in the same schema.
 *
 * @param schema the schema, already quoted as an identifier
 */
export function storeMigrations(schema: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${schema}.agentgraph_store (
      seq BIGSERIAL NOT NULL,
      prefix TEXT COLLATE "C" NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      created_at TIMESTAMPTZ NOT NULL,
      updated_at TIMESTAMPTZ NOT NULL,
      expires_at TIMESTAMPTZ,
      ttl_minutes DOUBLE PRECISION,
      PRIMARY KEY (prefix, key)
    )`,
    `CREATE INDEX IF NOT EXISTS agentgraph_store_seq_idx ON ${schema}.agentgraph_store (seq)`,
    `CREATE INDEX IF NOT EXISTS agentgraph_store_expires_at_idx ON ${schema}.agentgraph_store (expires_at)
      WHERE expires_at IS NOT NULL`,
  ];
}
