/** The statements of `PostgresSaver` for one schema (the tables live in saver-migrations.ts). */

import type { BlobDbFields } from "../../graph/index.js";

/** A schema name quoted as a SQL identifier. */
export function quoteSchema(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

const CHECKPOINT_COLUMNS =
  "thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, depth, created_at, record, metadata";
const WRITE_COLUMNS = "thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, kind, data, task_path";

/**
 * The statements, for a quoted schema. Every step of a walk is a `LATERAL … LIMIT 1` subquery
 * on the full primary key, and the latest checkpoint an `ORDER BY … DESC LIMIT 1`: PostgreSQL
 * cannot flatten them, so they stay single index lookups even when the table statistics are
 * missing or stale (a new table, a fast-growing thread), where a plain join is planned as a scan
 * of the thread's rows per step.
 * Reads of a thread take `$1` = thread id, `$2` = namespace.
 * Recursive walks take a bound (the last parameter) so that a damaged chain (a cycle) cannot loop forever.
 */
export function checkpointSql(schema: string) {
  const checkpoints = `${schema}.agentgraph_checkpoints`;
  const blobs = `${schema}.agentgraph_checkpoint_blobs`;
  const items = `${schema}.agentgraph_checkpoint_items`;
  const writes = `${schema}.agentgraph_checkpoint_writes`;
  const migrations = `${schema}.agentgraph_checkpoint_migrations`;

  /**
   * A checkpoint chain: the first row, then parents while the row is a delta (`depth` > 0) and
   * not `stop` (a checkpoint the saver knows the bookkeeping of; null for none).
   */
  const chain = (first: string, limit: string, stop: string) => `WITH RECURSIVE chain AS (
      SELECT ${CHECKPOINT_COLUMNS}, 0 AS n FROM ${checkpoints}
        WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = ${first}
      UNION ALL
      SELECT c.thread_id, c.checkpoint_ns, c.checkpoint_id, c.parent_checkpoint_id, c.depth, c.created_at,
          c.record, c.metadata, chain.n + 1
        FROM chain CROSS JOIN LATERAL (
          SELECT * FROM ${checkpoints} p
            WHERE p.thread_id = $1 AND p.checkpoint_ns = $2 AND p.checkpoint_id = chain.parent_checkpoint_id
            LIMIT 1
        ) c
        WHERE chain.depth <> 0 AND chain.n < ${limit} AND chain.checkpoint_id IS DISTINCT FROM ${stop}::text
    )
    SELECT ${CHECKPOINT_COLUMNS} FROM chain ORDER BY n`;

  // the blobs asked for: `$3` channels and `$4` versions, in pairs, one primary-key lookup each
  const wantedBlobs = "SELECT b.channel, b.version, b.kind, b.data, b.prev, b.depth";
  const wantedFrom = `FROM unnest($3::text[], $4::text[]) AS w (channel, version)
          CROSS JOIN LATERAL (
            SELECT * FROM ${blobs} x
              WHERE x.thread_id = $1 AND x.checkpoint_ns = $2 AND x.channel = w.channel AND x.version = w.version
              LIMIT 1
          ) b`;

  return {
    lockMigrations: "SELECT pg_advisory_xact_lock(hashtext($1))",
    createSchema: `CREATE SCHEMA IF NOT EXISTS ${schema}`,
    createMigrationsTable: `CREATE TABLE IF NOT EXISTS ${migrations} (v INTEGER PRIMARY KEY)`,
    selectMigrationVersion: `SELECT max(v) AS v FROM ${migrations}`,
    insertMigrationVersion: `INSERT INTO ${migrations} (v) VALUES ($1)`,

    /**
     * Everything a `put` or `putWrites` stores, in one statement (so one round trip and one
     * transaction): each table's rows come as parallel arrays. Checkpoints replace, but for the
     * writes packed in them (`$38`), which a checkpoint stored again adds to those it holds
     * (unless it holds those lines already: a read keeps a key's first write, so they would add
     * nothing); blobs and items are kept if present (immutable by construction: versions are
     * unique across forks); writes with `idx >= 0` are kept if present, control writes (`idx < 0`)
     * replace. So the statement run twice (again after a lost connection, which may have
     * committed it) stores what it stores once.
     */
    write: `WITH
      new_checkpoints AS (
        INSERT INTO ${checkpoints} (${CHECKPOINT_COLUMNS}, writes)
        SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::bigint[], $7::text[], $8::text[], $38::text[])
        ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id) DO UPDATE SET
          parent_checkpoint_id = excluded.parent_checkpoint_id,
          depth = excluded.depth,
          created_at = excluded.created_at,
          record = excluded.record,
          metadata = excluded.metadata,
          writes = CASE
            WHEN excluded.writes IS NULL THEN ${checkpoints}.writes
            WHEN ${checkpoints}.writes IS NULL THEN excluded.writes
            WHEN position(E'\n' || excluded.writes || E'\n' IN E'\n' || ${checkpoints}.writes || E'\n') > 0
              THEN ${checkpoints}.writes
            ELSE ${checkpoints}.writes || E'\n' || excluded.writes
          END
      ),
      new_blobs AS (
        INSERT INTO ${blobs} (thread_id, checkpoint_ns, channel, version, kind, data, prev, depth)
        SELECT * FROM unnest($9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::int[])
        ON CONFLICT DO NOTHING
      ),
      new_items AS (
        INSERT INTO ${items} (thread_id, hash, data)
        SELECT * FROM unnest($17::text[], $18::text[], $19::text[])
        ON CONFLICT DO NOTHING
      ),
      new_writes AS (
        INSERT INTO ${writes} (${WRITE_COLUMNS})
        SELECT * FROM unnest($20::text[], $21::text[], $22::text[], $23::text[], $24::int[], $25::text[], $26::text[], $27::text[], $28::text[])
          AS w (${WRITE_COLUMNS})
        -- a write its checkpoint's row holds packed already is kept there (the first of its key)
        WHERE NOT EXISTS (
          SELECT 1 FROM ${checkpoints} c
            CROSS JOIN LATERAL (SELECT t::json AS line FROM regexp_split_to_table(c.writes, E'\n') AS t) p
            CROSS JOIN LATERAL generate_series(2, json_array_length(p.line) - 1, 4) AS i
            WHERE c.thread_id = w.thread_id AND c.checkpoint_ns = w.checkpoint_ns
              AND c.checkpoint_id = w.checkpoint_id AND c.writes IS NOT NULL
              AND p.line->>0 = w.task_id AND (p.line->>i)::int = w.idx
        )
        ON CONFLICT DO NOTHING
      ),
      control_writes AS (
        INSERT INTO ${writes} (${WRITE_COLUMNS})
        SELECT * FROM unnest($29::text[], $30::text[], $31::text[], $32::text[], $33::int[], $34::text[], $35::text[], $36::text[], $37::text[])
        ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) DO UPDATE SET
          channel = excluded.channel,
          kind = excluded.kind,
          data = excluded.data,
          task_path = excluded.task_path
      )
    SELECT 1`,
    /** `$3` checkpoint id, `$4` bound, `$5` the id to stop at (or null). */
    chainById: chain("$3", "$4", "$5"),
    /** `$3` bound, `$4` the id to stop at (or null). */
    chainLatest: chain(
      `(SELECT checkpoint_id FROM ${checkpoints} WHERE thread_id = $1 AND checkpoint_ns = $2
        ORDER BY checkpoint_id DESC LIMIT 1)`,
      "$3",
      "$4",
    ),
    /** The blobs asked for (`$3` channels, `$4` versions, in pairs) and their splice chains (bounded by `$5`). */
    blobs: `WITH RECURSIVE node AS (
        ${wantedBlobs}, 0 AS n
          ${wantedFrom}
        UNION ALL
        SELECT b.channel, b.version, b.kind, b.data, b.prev, b.depth, node.n + 1
          FROM node CROSS JOIN LATERAL (
            SELECT * FROM ${blobs} x
              WHERE x.thread_id = $1 AND x.checkpoint_ns = $2 AND x.channel = node.channel AND x.version = node.prev
              LIMIT 1
          ) b
          WHERE node.kind = 'splice' AND node.n < $5
      )
      SELECT channel, version, kind, data, prev, depth FROM node`,
    /**
     * The blobs asked for (`$3` channels, `$4` versions) and, below each splice, the versions of
     * its channel just under it (at most its depth + 1, bounded by `$5`): one backward range
     * scan of the primary key per chain instead of one lookup per node. A chain is the run of
     * versions just below its head (each version of a channel is minted from the one before);
     * versions of other branches in the range come along and are skipped by the reader, which
     * falls back on {@link blobs} from the first node the range did not hold.
     */
    blobRanges: `WITH heads AS (
        ${wantedBlobs}
          ${wantedFrom}
      )
      SELECT channel, version, kind, data, prev, depth FROM heads
      UNION ALL
      SELECT r.channel, r.version, r.kind, r.data, r.prev, r.depth
        FROM heads h CROSS JOIN LATERAL (
          SELECT * FROM ${blobs} x
            WHERE h.kind = 'splice' AND x.thread_id = $1 AND x.checkpoint_ns = $2
              AND x.channel = h.channel AND x.version <= h.prev
            ORDER BY x.version DESC
            LIMIT LEAST(h.depth, $5) + 1
        ) r`,
    /** How many items thread `$1` holds (a scan of its range of the primary key). */
    itemCount: `SELECT count(*)::int AS n FROM ${items} WHERE thread_id = $1`,
    /** Items by hash (`$2`, an array): one primary-key lookup each. */
    items: `SELECT i.hash, i.data FROM unnest($2::text[]) AS h (hash)
      CROSS JOIN LATERAL (SELECT hash, data FROM ${items} x WHERE x.thread_id = $1 AND x.hash = h.hash LIMIT 1) i`,
    /** A checkpoint's writes: its packed ones (one row, `packed` set), then the rows of the writes table. */
    writes: `SELECT writes AS packed, NULL AS task_id, NULL::int AS idx, NULL AS channel, NULL AS kind,
          NULL AS data, NULL AS task_path
        FROM ${checkpoints}
        WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3 AND writes IS NOT NULL
      UNION ALL
      SELECT NULL, task_id, idx, channel, kind, data, task_path FROM ${writes}
        WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3`,
    /** Everything of a thread, in one statement. */
    deleteThread: `WITH
      a AS (DELETE FROM ${checkpoints} WHERE thread_id = $1),
      b AS (DELETE FROM ${blobs} WHERE thread_id = $1),
      c AS (DELETE FROM ${items} WHERE thread_id = $1)
    DELETE FROM ${writes} WHERE thread_id = $1`,
    /**
     * {@link deleteThread} for a replacement: answers the ids of the checkpoints it deleted (those
     * committed before it started; one committed later is kept, and so are its rows), and the
     * writes it deleted of the checkpoints `$2` (namespaces) and `$3` (ids), as {@link writes}
     * reads them (with `checkpoint_ns` and `checkpoint_id`; `task_id` NULL on a checkpoint's row).
     */
    deleteThreadReturning: `WITH
      a AS (DELETE FROM ${checkpoints} WHERE thread_id = $1 RETURNING checkpoint_ns, checkpoint_id, writes),
      b AS (DELETE FROM ${blobs} WHERE thread_id = $1),
      c AS (DELETE FROM ${items} WHERE thread_id = $1),
      d AS (DELETE FROM ${writes} WHERE thread_id = $1
        RETURNING checkpoint_ns, checkpoint_id, task_id, idx, channel, kind, data, task_path),
      k AS (SELECT * FROM unnest($2::text[], $3::text[]) AS k (ns, id))
    SELECT checkpoint_ns, checkpoint_id,
        CASE WHEN (checkpoint_ns, checkpoint_id) IN (SELECT ns, id FROM k) THEN writes END AS packed,
        NULL AS task_id, NULL::int AS idx, NULL AS channel, NULL AS kind, NULL AS data, NULL AS task_path
      FROM a
    UNION ALL
    SELECT checkpoint_ns, checkpoint_id, NULL, task_id, idx, channel, kind, data, task_path
      FROM d WHERE (checkpoint_ns, checkpoint_id) IN (SELECT ns, id FROM k)`,
    /** Threads with no checkpoint written at or after `$1` (threads with only writes included). */
    staleThreads: `SELECT t.thread_id FROM (
        SELECT thread_id FROM ${checkpoints}
        UNION SELECT thread_id FROM ${writes}
      ) AS t
      WHERE NOT EXISTS (
        SELECT 1 FROM ${checkpoints} c WHERE c.thread_id = t.thread_id AND c.created_at >= $1
      )`,
    /**
     * Stored bytes of one thread (`$1`) or all (`$1` NULL): UTF-8 bytes of the stored text, with the
     * per-item overhead `MemoryCheckpointStorage.storedBytes` adds, so both agree on ASCII content.
     * A packed write counts as the row it stands for (data, channel and task id).
     */
    storedBytes: `SELECT
        (SELECT coalesce(sum(octet_length(record) + octet_length(metadata) + octet_length(checkpoint_id)), 0)
          FROM ${checkpoints} WHERE $1::text IS NULL OR thread_id = $1)
      + (SELECT coalesce(sum(octet_length(w.line->>(i + 3)) + octet_length(w.line->>(i + 1)) + octet_length(w.line->>0)), 0)
          FROM ${checkpoints} c
            CROSS JOIN LATERAL (SELECT t::json AS line FROM regexp_split_to_table(c.writes, E'\n') AS t) w
            CROSS JOIN LATERAL generate_series(2, json_array_length(w.line) - 1, 4) AS i
          WHERE c.writes IS NOT NULL AND ($1::text IS NULL OR c.thread_id = $1))
      + (SELECT coalesce(sum(coalesce(octet_length(data), 0) + octet_length(version) + octet_length(channel)), 0)
          FROM ${blobs} WHERE $1::text IS NULL OR thread_id = $1)
      + (SELECT coalesce(sum(octet_length(data) + octet_length(hash)), 0) FROM ${items} WHERE $1::text IS NULL OR thread_id = $1)
      + (SELECT coalesce(sum(octet_length(data) + octet_length(channel) + octet_length(task_id)), 0)
          FROM ${writes} WHERE $1::text IS NULL OR thread_id = $1) AS bytes`,
    /**
     * The listing statement for the filters present (each combination is its own statement, so
     * that the primary key serves a thread's listing). Newest first, by checkpoint id.
     */
    /** Parameters in this order: thread, ns, before, id, limit (those present). */
    list(filters: { thread: boolean; ns: boolean; before: boolean; id: boolean; limit: boolean }): string {
      const where: string[] = [];
      let n = 0;
      if (filters.thread) where.push(`thread_id = $${++n}`);
      if (filters.ns) where.push(`checkpoint_ns = $${++n}`);
      if (filters.before) where.push(`checkpoint_id < $${++n}`);
      if (filters.id) where.push(`checkpoint_id = $${++n}`);
      const limit = filters.limit ? ` LIMIT $${++n}` : "";
      return `SELECT thread_id, checkpoint_ns, checkpoint_id, metadata FROM ${checkpoints}
        ${where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`}
        ORDER BY checkpoint_id DESC, thread_id, checkpoint_ns${limit}`;
    },
  };
}

/** The statements of one schema. */
export type CheckpointSql = ReturnType<typeof checkpointSql>;

/** A row of `agentgraph_checkpoints` (`pg` returns `BIGINT` as a string). */
export interface CheckpointDbRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  depth: number;
  created_at: string | number;
  record: string;
  metadata: string;
}

/** A row of `agentgraph_checkpoint_blobs`, as the blob statements select it. */
export type BlobDbRow = BlobDbFields;

/**
 * A row of the writes statement: a checkpoint's packed writes (`packed` set, the rest null), or a
 * row of `agentgraph_checkpoint_writes` (`packed` null).
 */
export type WriteDbRow =
  | { packed: string; task_id: null; idx: null; channel: null; kind: null; data: null; task_path: null }
  | {
      packed: null;
      task_id: string;
      idx: number;
      channel: string;
      kind: string;
      data: string;
      task_path: string;
    };

/**
 * A row of `deleteThreadReturning`: a deleted checkpoint (its packed writes when asked for), or a
 * deleted write row of a checkpoint asked for.
 */
export type DeletedDbRow = { checkpoint_ns: string; checkpoint_id: string } & (
  | WriteDbRow
  | { packed: null; task_id: null; idx: null; channel: null; kind: null; data: null; task_path: null }
);

/** A listing row. */
export interface ListingDbRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  metadata: string;
}
