/**
 * The schema of `SqliteSaver`, as an ordered list: migration `v` is applied once, in order, and
 * recorded in `agentgraph_checkpoint_migrations`. Append new migrations; never edit applied ones.
 *
 * The tables hold the rows of the shared checkpoint encoding (docs/adr/0001-linear-checkpoint-storage.md,
 * `CheckpointStorage` in graph/checkpoint/encoding/storage.ts):
 *
 * - `agentgraph_checkpoints`: one row per checkpoint; `record` is its bookkeeping in full
 *   (`depth` 0) or as a delta against `parent_checkpoint_id`. The primary key makes "latest
 *   checkpoint of a thread and namespace" (`max(checkpoint_id)`) and each step of the chain walk
 *   an index lookup.
 * - `agentgraph_checkpoint_blobs`: a channel's value at one version (`kind` `value`, `empty`,
 *   `list` or `splice`; a splice names the version it splices in `prev`).
 * - `agentgraph_checkpoint_items`: list elements, once per thread under the hash of their encoding.
 * - `agentgraph_checkpoint_writes`: pending writes of tasks, one row per task and checkpoint:
 *   `writes` is a JSON array of `[idx, channel, kind, data]` (`kind` `v`: `data` is the encoded
 *   value; `l`: `data` is the JSON array of item references).
 * - `agentgraph_checkpoint_threads`: when each thread last had a checkpoint written (what
 *   time-to-live deletion reads; one row per thread rather than an index entry per checkpoint).
 *
 * The tables whose keys grow with time (checkpoint ids, versions) are `WITHOUT ROWID`: each row is
 * stored once, in its primary key's B-tree, rather than in a table and again in an index. Items
 * (keyed by hash, so inserted in random order) stay a rowid table, which packs its pages fully.
 *
 * Checkpoint and task ids are stored as 16-byte blobs when they are lowercase UUIDs (what the
 * loop mints: 20 bytes less per id, in every row and key that holds one) and as text otherwise
 * (`ANY` columns, `CHECK`ed to hold one of the two); blob order is the UUIDs' text order, so
 * `max(checkpoint_id)` is still the newest checkpoint. Migrations 6 and 7 converted the tables
 * of earlier versions.
 *
 * The tables are `STRICT` and `CHECK`ed, so a row of the wrong shape cannot be stored; what is left
 * to go wrong (damaged text) is caught by the encoder, which names the thread and checkpoint. The
 * names are prefixed so that they never collide with the tables of LangGraph's own `SqliteSaver`
 * (`checkpoints`, `writes`) in the same file.
 *
 * @example
 * ```ts
 * for (const sql of CHECKPOINT_MIGRATIONS) db.exec(sql); // what SqliteSaver.setup() does, once each
 * ```
 */
/** SQL for the stored form of an id column: a lowercase UUID as its 16 bytes, anything else as is. */
function idToBlob(column: string): string {
  const h = "[0-9a-f]";
  const uuid = `${h.repeat(8)}-${h.repeat(4)}-${h.repeat(4)}-${h.repeat(4)}-${h.repeat(12)}`;
  return `CASE WHEN ${column} GLOB '${uuid}' THEN unhex(replace(${column}, '-', '')) ELSE ${column} END`;
}

const ID_CHECK = (column: string) => `CHECK (typeof(${column}) IN ('text', 'blob'))`;

export const CHECKPOINT_MIGRATIONS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS agentgraph_checkpoints (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL DEFAULT '',
    checkpoint_id TEXT NOT NULL,
    parent_checkpoint_id TEXT,
    depth INTEGER NOT NULL CHECK (depth >= 0),
    created_at INTEGER NOT NULL,
    record TEXT NOT NULL,
    metadata TEXT NOT NULL,
    PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
  ) STRICT, WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS agentgraph_checkpoint_blobs (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL DEFAULT '',
    channel TEXT NOT NULL,
    version TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('value', 'empty', 'list', 'splice')),
    data TEXT,
    prev TEXT,
    depth INTEGER NOT NULL CHECK (depth >= 0),
    PRIMARY KEY (thread_id, checkpoint_ns, channel, version)
  ) STRICT, WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS agentgraph_checkpoint_items (
    thread_id TEXT NOT NULL,
    hash TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (thread_id, hash)
  ) STRICT`,
  `CREATE TABLE IF NOT EXISTS agentgraph_checkpoint_writes (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL DEFAULT '',
    checkpoint_id TEXT NOT NULL,
    task_id TEXT NOT NULL,
    task_path TEXT NOT NULL DEFAULT '',
    writes TEXT NOT NULL CHECK (json_valid(writes) AND json_type(writes) = 'array'),
    PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id)
  ) STRICT, WITHOUT ROWID`,
  // Time-to-live sweeps: when each thread last had a checkpoint written (-1: writes only, never).
  `CREATE TABLE IF NOT EXISTS agentgraph_checkpoint_threads (
    thread_id TEXT NOT NULL PRIMARY KEY,
    updated_at INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID`,
  `CREATE INDEX IF NOT EXISTS agentgraph_checkpoint_threads_updated_at_idx
    ON agentgraph_checkpoint_threads (updated_at)`,
  `CREATE TABLE agentgraph_checkpoints_next (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL DEFAULT '',
    checkpoint_id ANY NOT NULL ${ID_CHECK("checkpoint_id")},
    parent_checkpoint_id ANY CHECK (parent_checkpoint_id IS NULL OR typeof(parent_checkpoint_id) IN ('text', 'blob')),
    depth INTEGER NOT NULL CHECK (depth >= 0),
    created_at INTEGER NOT NULL,
    record TEXT NOT NULL,
    metadata TEXT NOT NULL,
    PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO agentgraph_checkpoints_next
    SELECT thread_id, checkpoint_ns, ${idToBlob("checkpoint_id")}, ${idToBlob("parent_checkpoint_id")},
      depth, created_at, record, metadata
    FROM agentgraph_checkpoints;
  DROP TABLE agentgraph_checkpoints;
  ALTER TABLE agentgraph_checkpoints_next RENAME TO agentgraph_checkpoints`,
  `CREATE TABLE agentgraph_checkpoint_writes_next (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL DEFAULT '',
    checkpoint_id ANY NOT NULL ${ID_CHECK("checkpoint_id")},
    task_id ANY NOT NULL ${ID_CHECK("task_id")},
    task_path TEXT NOT NULL DEFAULT '',
    writes TEXT NOT NULL CHECK (json_valid(writes) AND json_type(writes) = 'array'),
    PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO agentgraph_checkpoint_writes_next
    SELECT thread_id, checkpoint_ns, ${idToBlob("checkpoint_id")}, ${idToBlob("task_id")}, task_path, writes
    FROM agentgraph_checkpoint_writes;
  DROP TABLE agentgraph_checkpoint_writes;
  ALTER TABLE agentgraph_checkpoint_writes_next RENAME TO agentgraph_checkpoint_writes`,
];
