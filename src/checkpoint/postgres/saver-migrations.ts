/**
 * The schema of `PostgresSaver`, as an ordered list for one database schema: migration `v` is
 * applied once, in order, and recorded in `agentgraph_checkpoint_migrations`. Append new
 * migrations; never edit applied ones.
 *
 * The tables hold the rows of the shared checkpoint encoding (docs/adr/0001-linear-checkpoint-storage.md,
 * `CheckpointStorage` in graph/checkpoint/encoding/storage.ts):
 *
 * - `agentgraph_checkpoints`: one row per checkpoint; `record` is its bookkeeping in full
 *   (`depth` 0) or as a delta against `parent_checkpoint_id`. The primary key makes "latest
 *   checkpoint of a thread and namespace" (`max(checkpoint_id)`) and each step of the chain walk
 *   index lookups.
 * - `agentgraph_checkpoint_blobs`: a channel's value at one version (`kind` `value`, `empty`,
 *   `list` or `splice`; a splice names the version it splices in `prev`).
 * - `agentgraph_checkpoint_items`: list elements, once per thread under the hash of their encoding.
 * - `agentgraph_checkpoint_writes`: pending writes of tasks, but for those a batch stored with
 *   their checkpoint, which its row holds in `writes` (packed-writes.ts).
 *
 * Keys are `TEXT COLLATE "C"`, so checkpoint ids sort byte-wise (as the other savers sort them)
 * whatever the database's locale. Values are `TEXT`, not `JSONB`: the serializer's JSON is kept
 * byte for byte (key order included), and PostgreSQL compresses long values (TOAST) on its own.
 * Times are epoch milliseconds. The names are prefixed so that they never collide with the tables
 * of LangGraph's own `PostgresSaver` (`checkpoints`, `checkpoint_blobs`, …) in the same schema.
 *
 * @param schema the schema, already quoted as an identifier
 *
 * @example
 * ```ts
 * for (const sql of checkpointMigrations('"agents"')) await client.query(sql); // what setup() runs, once each
 * ```
 */
export function checkpointMigrations(schema: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${schema}.agentgraph_checkpoints (
      thread_id TEXT COLLATE "C" NOT NULL,
      checkpoint_ns TEXT COLLATE "C" NOT NULL DEFAULT '',
      checkpoint_id TEXT COLLATE "C" NOT NULL,
      parent_checkpoint_id TEXT COLLATE "C",
      depth INTEGER NOT NULL CHECK (depth >= 0),
      created_at BIGINT NOT NULL,
      record TEXT NOT NULL,
      metadata TEXT NOT NULL,
      PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
    )`,
    `CREATE TABLE IF NOT EXISTS ${schema}.agentgraph_checkpoint_blobs (
      thread_id TEXT COLLATE "C" NOT NULL,
      checkpoint_ns TEXT COLLATE "C" NOT NULL DEFAULT '',
      channel TEXT COLLATE "C" NOT NULL,
      version TEXT COLLATE "C" NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('value', 'empty', 'list', 'splice')),
      data TEXT,
      prev TEXT COLLATE "C",
      depth INTEGER NOT NULL CHECK (depth >= 0),
      PRIMARY KEY (thread_id, checkpoint_ns, channel, version)
    )`,
    `CREATE TABLE IF NOT EXISTS ${schema}.agentgraph_checkpoint_items (
      thread_id TEXT COLLATE "C" NOT NULL,
      hash TEXT COLLATE "C" NOT NULL,
      data TEXT NOT NULL,
      PRIMARY KEY (thread_id, hash)
    )`,
    `CREATE TABLE IF NOT EXISTS ${schema}.agentgraph_checkpoint_writes (
      thread_id TEXT COLLATE "C" NOT NULL,
      checkpoint_ns TEXT COLLATE "C" NOT NULL DEFAULT '',
      checkpoint_id TEXT COLLATE "C" NOT NULL,
      task_id TEXT COLLATE "C" NOT NULL,
      idx INTEGER NOT NULL,
      channel TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('value', 'list')),
      data TEXT NOT NULL,
      task_path TEXT NOT NULL DEFAULT '',
      PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
    )`,
    // Time-to-live sweeps: the newest checkpoint of each thread, read from the index alone.
    `CREATE INDEX IF NOT EXISTS agentgraph_checkpoints_created_at_idx
      ON ${schema}.agentgraph_checkpoints (thread_id, created_at)`,
    // The pending writes a batch stores with their checkpoint, packed (see packed-writes.ts).
    `ALTER TABLE ${schema}.agentgraph_checkpoints ADD COLUMN IF NOT EXISTS writes TEXT`,
    // A blob is a list's references or a splice: text that compresses poorly, kept in its row
    // up to a page rather than moved out to the TOAST table from 2 KB on.
    `ALTER TABLE ${schema}.agentgraph_checkpoint_blobs SET (toast_tuple_target = 8160)`,
  ];
}
