/**
 * The statements of `SqliteSaver` (the schema lives in saver-migrations.ts). Parameters are
 * named: `@thread`, `@ns`, `@id`, …; `@limit` bounds recursive walks so that a damaged chain
 * (a cycle) cannot loop forever.
 */

import type { BlobDbFields } from "../../graph/index.js";

/** Value of a lowercase hex digit by char code (-1: not one). */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) HEX_VALUE["0123456789abcdef".charCodeAt(i)] = i;
/** Two lowercase hex digits by byte value. */
const HEX_PAIR = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
/** Where each of a UUID's 16 bytes starts in its text (the dashes sit at 8, 13, 18 and 23). */
const UUID_BYTE_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/** A checkpoint or task id as stored: a lowercase UUID as its 16 bytes, any other id as text. */
export function toStoredId(id: string): string | Buffer {
  if (id.length !== 36) return id;
  // a save converts each id more than once (a checkpoint's id, then as the next one's parent and
  // as the key of its tasks' writes): the last few conversions are kept. The driver copies a
  // bound buffer, so sharing one between statements is safe.
  const known = storedIds.get(id);
  if (known !== undefined) return known;
  const stored = uuidBytes(id);
  if (storedIds.size >= MEMO_SIZE) storedIds.clear();
  storedIds.set(id, stored);
  return stored;
}

/** How many conversions {@link toStoredId} and {@link toStoredPath} keep (then start over). */
const MEMO_SIZE = 256;
const storedIds = new Map<string, string | Buffer>();
const storedPaths = new Map<string, string>();

/** A UUID's 16 bytes, or the id itself when it is not a lowercase UUID. */
function uuidBytes(id: string): string | Buffer {
  // 45: "-"
  const dashes =
    id.charCodeAt(8) === 45 &&
    id.charCodeAt(13) === 45 &&
    id.charCodeAt(18) === 45 &&
    id.charCodeAt(23) === 45;
  if (!dashes) return id;
  const bytes = Buffer.allocUnsafe(16);
  for (let b = 0; b < 16; b++) {
    const i = UUID_BYTE_AT[b] as number;
    const high = HEX_VALUE[id.charCodeAt(i)] ?? -1;
    const low = HEX_VALUE[id.charCodeAt(i + 1)] ?? -1;
    if (high < 0 || low < 0) return id;
    bytes[b] = (high << 4) | low;
  }
  return bytes;
}

/** The id a stored id stands for (the inverse of {@link toStoredId}). */
export function fromStoredId(stored: StoredId): string {
  if (typeof stored === "string") return stored;
  if (stored.byteLength !== 16) {
    throw new DamagedIdError(
      `a stored checkpoint or task id is a ${stored.byteLength}-byte blob; only UUIDs (16 bytes) are stored as blobs, so the row is damaged`,
    );
  }
  let text = "";
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) text += "-";
    text += HEX_PAIR[stored[i] as number];
  }
  return text;
}

/** A stored id that cannot be one this saver wrote (see {@link fromStoredId}). */
export class DamagedIdError extends Error {}

/** A stored checkpoint or task id, as the driver returns it. */
export type StoredId = string | Uint8Array;

/**
 * A task path as stored: LangGraph's form (`~__pregel_push, 0000000000, 0000000003`) with its
 * two markers and its zero-padded numbers written as one character each plus digits, which
 * halves the path stored with every task's writes. Paths that already hold those characters are
 * stored verbatim after a U+0004. Paths of earlier versions read unchanged.
 */
export function toStoredPath(path: string): string {
  // tasks of every step repeat a handful of paths (one per node, one per pushed call)
  const known = storedPaths.get(path);
  if (known !== undefined) return known;
  const stored = compactPath(path);
  if (storedPaths.size >= MEMO_SIZE) storedPaths.clear();
  storedPaths.set(path, stored);
  return stored;
}

function compactPath(path: string): string {
  if (hasCodeIn(path, 1, 4)) return `${VERBATIM}${path}`;
  return path
    .replaceAll("__pregel_pull", PULL)
    .replaceAll("__pregel_push", PUSH)
    .replace(
      /(^~|, )(\d{10})(?=,|$)/g,
      (_match, before: string, digits: string) => `${before}${NUMBER}${Number(digits)}`,
    );
}

/** The task path a stored path stands for (the inverse of {@link toStoredPath}). */
export function fromStoredPath(stored: string): string {
  if (stored.startsWith(VERBATIM)) return stored.slice(1);
  if (!hasCodeIn(stored, 1, 3)) return stored;
  const [head = "", ...numbered] = stored
    .replaceAll(PULL, "__pregel_pull")
    .replaceAll(PUSH, "__pregel_push")
    .split(NUMBER);
  let out = head;
  for (const part of numbered) {
    let end = 0;
    while (end < part.length && part.charCodeAt(end) >= 48 && part.charCodeAt(end) <= 57) end++;
    out += part.slice(0, end).padStart(10, "0") + part.slice(end);
  }
  return out;
}

const PULL = String.fromCharCode(1);
const PUSH = String.fromCharCode(2);
const NUMBER = String.fromCharCode(3);
const VERBATIM = String.fromCharCode(4);

function hasCodeIn(text: string, from: number, to: number): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= from && code <= to) return true;
  }
  return false;
}

/** SQL for the bytes an id column counts in stored bytes: its text form's (36 for a UUID). */
const idBytes = (column: string) =>
  `(CASE typeof(${column}) WHEN 'blob' THEN 36 ELSE length(CAST(${column} AS BLOB)) END)`;

export const CREATE_MIGRATIONS_TABLE =
  "CREATE TABLE IF NOT EXISTS agentgraph_checkpoint_migrations (v INTEGER PRIMARY KEY)";
export const INSERT_MIGRATION_VERSION = "INSERT INTO agentgraph_checkpoint_migrations (v) VALUES (?)";

const CHECKPOINT_COLUMNS =
  "thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, depth, created_at, record, metadata";

/**
 * A checkpoint chain: the first row, then parents while the row is a delta (`depth` > 0) and
 * not `@stop` (a checkpoint the saver knows the bookkeeping of; null for none).
 */
function chainSql(first: string): string {
  return `WITH RECURSIVE chain (${CHECKPOINT_COLUMNS}, n) AS (
    SELECT ${CHECKPOINT_COLUMNS}, 0 FROM agentgraph_checkpoints
      WHERE thread_id = @thread AND checkpoint_ns = @ns AND checkpoint_id = ${first}
    UNION ALL
    SELECT c.thread_id, c.checkpoint_ns, c.checkpoint_id, c.parent_checkpoint_id, c.depth, c.created_at,
        c.record, c.metadata, chain.n + 1
      FROM chain JOIN agentgraph_checkpoints c
        ON c.thread_id = chain.thread_id AND c.checkpoint_ns = chain.checkpoint_ns
          AND c.checkpoint_id = chain.parent_checkpoint_id
      WHERE chain.depth <> 0 AND chain.n < @limit AND chain.checkpoint_id IS NOT @stop
  )
  SELECT ${CHECKPOINT_COLUMNS} FROM chain ORDER BY n`;
}

export const SQL = {
  // The statements a save runs for every row (this one and the next four) take positional
  // parameters, in their column order: binding an object's named parameters looks each name up
  // in the object, which costs more than the insert's own work on a small row.
  upsertCheckpoint: `INSERT INTO agentgraph_checkpoints (${CHECKPOINT_COLUMNS})
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id) DO UPDATE SET
      parent_checkpoint_id = excluded.parent_checkpoint_id,
      depth = excluded.depth,
      created_at = excluded.created_at,
      record = excluded.record,
      metadata = excluded.metadata`,
  /** A checkpoint was written: the thread's age is its newest checkpoint's. */
  touchThread: `INSERT INTO agentgraph_checkpoint_threads (thread_id, updated_at) VALUES (?, ?)
    ON CONFLICT (thread_id) DO UPDATE SET updated_at = max(updated_at, excluded.updated_at)`,
  /** Writes only: the thread is known, with no checkpoint time (-1: it expires at the next sweep). */
  registerThread: `INSERT INTO agentgraph_checkpoint_threads (thread_id, updated_at) VALUES (@thread, -1)
    ON CONFLICT (thread_id) DO NOTHING`,
  insertBlob: `INSERT INTO agentgraph_checkpoint_blobs (thread_id, checkpoint_ns, channel, version, kind, data, prev, depth)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT DO NOTHING`,
  insertItem: `INSERT INTO agentgraph_checkpoint_items (thread_id, hash, data) VALUES (?, ?, ?)
    ON CONFLICT DO NOTHING`,
  /** A task's writes (a task saving more writes later merges them: see the storage). */
  insertWrites: `INSERT INTO agentgraph_checkpoint_writes
      (thread_id, checkpoint_ns, checkpoint_id, task_id, task_path, writes)
    VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT DO NOTHING`,
  taskWrites: `SELECT task_path, writes FROM agentgraph_checkpoint_writes
    WHERE thread_id = @thread AND checkpoint_ns = @ns AND checkpoint_id = @checkpointId AND task_id = @taskId`,
  replaceWrites: `UPDATE agentgraph_checkpoint_writes SET task_path = @taskPath, writes = @writes
    WHERE thread_id = @thread AND checkpoint_ns = @ns AND checkpoint_id = @checkpointId AND task_id = @taskId`,
  chainById: chainSql("@id"),
  chainLatest: chainSql(
    "(SELECT max(checkpoint_id) FROM agentgraph_checkpoints WHERE thread_id = @thread AND checkpoint_ns = @ns)",
  ),
  /**
   * The blobs asked for (`@wanted`: JSON `[[channel, version], …]`) and their splice chains.
   * `CROSS JOIN` keeps the wanted list as the outer loop (SQLite does not reorder it), so each
   * row is one primary-key lookup.
   */
  blobs: `WITH RECURSIVE
    node (channel, version, kind, data, prev, depth, n) AS (
      SELECT b.channel, b.version, b.kind, b.data, b.prev, b.depth, 0
        FROM json_each(@wanted) AS w CROSS JOIN agentgraph_checkpoint_blobs b
          ON b.thread_id = @thread AND b.checkpoint_ns = @ns
            AND b.channel = json_extract(w.value, '$[0]') AND b.version = json_extract(w.value, '$[1]')
      UNION ALL
      SELECT b.channel, b.version, b.kind, b.data, b.prev, b.depth, node.n + 1
        FROM node CROSS JOIN agentgraph_checkpoint_blobs b
          ON b.thread_id = @thread AND b.checkpoint_ns = @ns AND b.channel = node.channel AND b.version = node.prev
        WHERE node.kind = 'splice' AND node.n < @limit
    )
    SELECT channel, version, kind, data, prev, depth FROM node`,
  /** The wanted blobs themselves (`@wanted` as for {@link SQL.blobs}), without their chains. */
  blobHeads: `SELECT b.channel, b.version, b.kind, b.data, b.prev, b.depth
    FROM json_each(@wanted) AS w CROSS JOIN agentgraph_checkpoint_blobs b
      ON b.thread_id = @thread AND b.checkpoint_ns = @ns
        AND b.channel = json_extract(w.value, '$[0]') AND b.version = json_extract(w.value, '$[1]')`,
  /**
   * The versions of a channel at or below `@version`, newest first: one walk along the primary
   * key. A splice chain is the run of versions just below its head (each version of a channel is
   * minted from the one before), so this reads a whole chain in one range scan; versions of other
   * branches in the range are read too and skipped.
   */
  blobRange: `SELECT version, kind, data, prev, depth FROM agentgraph_checkpoint_blobs
    WHERE thread_id = @thread AND checkpoint_ns = @ns AND channel = @channel AND version <= @version
    ORDER BY version DESC LIMIT @limit`,
  /**
   * Items by hash (`@hashes`: a JSON array, so any number of them fits one statement), each as
   * one text: its hash, a space, its data (see `itemRowOf` in saver-storage.ts).
   */
  items: `SELECT hash || ' ' || data FROM agentgraph_checkpoint_items
    WHERE thread_id = @thread AND hash IN (SELECT value FROM json_each(@hashes))`,
  /**
   * The same items as one JSON text, `["hash",item,"hash",item,…]` (`NULL` when there are none),
   * and their count: one string from the driver and one parse for a whole history (see
   * `ItemsJson` in encoding/storage.ts).
   */
  itemsJson: `SELECT '[' || group_concat(json_quote(hash) || ',' || data, ',') || ']' AS text, count(*) AS count
    FROM agentgraph_checkpoint_items
    WHERE thread_id = @thread AND hash IN (SELECT value FROM json_each(@hashes))`,
  /** Every item of a thread as one JSON text, as {@link SQL.itemsJson} gives them. */
  threadItemsJson: `SELECT '[' || group_concat(json_quote(hash) || ',' || data, ',') || ']' AS text, count(*) AS count
    FROM agentgraph_checkpoint_items WHERE thread_id = @thread`,
  /** How many items a thread has (a walk of the primary key's index). */
  itemCount: "SELECT count(*) FROM agentgraph_checkpoint_items WHERE thread_id = @thread",
  /** Every item of a thread, in one walk of the primary key (each as {@link SQL.items} gives it). */
  threadItems: "SELECT hash || ' ' || data FROM agentgraph_checkpoint_items WHERE thread_id = @thread",
  writes: `SELECT task_id, task_path, writes FROM agentgraph_checkpoint_writes
    WHERE thread_id = @thread AND checkpoint_ns = @ns AND checkpoint_id = @checkpointId`,
  deleteCheckpoints: "DELETE FROM agentgraph_checkpoints WHERE thread_id = @thread",
  threadCheckpointIds: "SELECT checkpoint_id FROM agentgraph_checkpoints WHERE thread_id = @thread",
  deleteBlobs: "DELETE FROM agentgraph_checkpoint_blobs WHERE thread_id = @thread",
  deleteItems: "DELETE FROM agentgraph_checkpoint_items WHERE thread_id = @thread",
  deleteWrites: "DELETE FROM agentgraph_checkpoint_writes WHERE thread_id = @thread",
  deleteThread: "DELETE FROM agentgraph_checkpoint_threads WHERE thread_id = @thread",
  /** Threads with no checkpoint written at or after `@cutoff` (threads with only writes included). */
  staleThreads: "SELECT thread_id FROM agentgraph_checkpoint_threads WHERE updated_at < @cutoff",
  /**
   * Stored bytes: UTF-8 bytes of the stored text (keys and payloads; an id counts as its text
   * form, whatever form it is stored in), as `MemoryCheckpointStorage.storedBytes` counts them, so
   * both agree on ASCII content.
   */
  storedBytesOfThread: `SELECT
      (SELECT coalesce(sum(length(CAST(record AS BLOB)) + length(CAST(metadata AS BLOB)) + ${idBytes("checkpoint_id")}), 0)
        FROM agentgraph_checkpoints WHERE thread_id = @thread)
    + (SELECT coalesce(sum(coalesce(length(CAST(data AS BLOB)), 0) + length(CAST(version AS BLOB)) + length(CAST(channel AS BLOB))), 0)
        FROM agentgraph_checkpoint_blobs WHERE thread_id = @thread)
    + (SELECT coalesce(sum(length(CAST(data AS BLOB)) + length(hash)), 0) FROM agentgraph_checkpoint_items WHERE thread_id = @thread)
    + (SELECT coalesce(sum(length(CAST(json_extract(e.value, '$[3]') AS BLOB))
          + length(CAST(json_extract(e.value, '$[1]') AS BLOB)) + ${idBytes("w.task_id")}), 0)
        FROM agentgraph_checkpoint_writes w, json_each(w.writes) e WHERE w.thread_id = @thread) AS bytes`,
  storedBytes: `SELECT
      (SELECT coalesce(sum(length(CAST(record AS BLOB)) + length(CAST(metadata AS BLOB)) + ${idBytes("checkpoint_id")}), 0) FROM agentgraph_checkpoints)
    + (SELECT coalesce(sum(coalesce(length(CAST(data AS BLOB)), 0) + length(CAST(version AS BLOB)) + length(CAST(channel AS BLOB))), 0)
        FROM agentgraph_checkpoint_blobs)
    + (SELECT coalesce(sum(length(CAST(data AS BLOB)) + length(hash)), 0) FROM agentgraph_checkpoint_items)
    + (SELECT coalesce(sum(length(CAST(json_extract(e.value, '$[3]') AS BLOB))
          + length(CAST(json_extract(e.value, '$[1]') AS BLOB)) + ${idBytes("w.task_id")}), 0)
        FROM agentgraph_checkpoint_writes w, json_each(w.writes) e) AS bytes`,
} as const;

/**
 * The listing statement for the filters present (each combination is its own statement, so that
 * SQLite uses the primary key when a thread is given). Newest first, by checkpoint id.
 */
export function listSql(filters: ListFilters): string {
  const where: string[] = [];
  if (filters.thread) where.push("thread_id = @thread");
  if (filters.ns) where.push("checkpoint_ns = @ns");
  if (filters.before) where.push("checkpoint_id < @before");
  if (filters.id) where.push("checkpoint_id = @id");
  return `SELECT thread_id, checkpoint_ns, checkpoint_id, metadata FROM agentgraph_checkpoints
    ${where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`}
    ORDER BY checkpoint_id DESC, thread_id, checkpoint_ns${filters.limit ? " LIMIT @limit" : ""}`;
}

/** Which filters a listing statement applies. */
export interface ListFilters {
  thread: boolean;
  ns: boolean;
  before: boolean;
  id: boolean;
  limit: boolean;
}

/** A row of `agentgraph_checkpoints`. */
export interface CheckpointDbRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: StoredId;
  parent_checkpoint_id: StoredId | null;
  depth: number | bigint;
  created_at: number | bigint;
  record: string;
  metadata: string;
}

/** A row of `agentgraph_checkpoint_blobs`, as the blob statements select it. */
export type BlobDbRow = BlobDbFields;

/** A row of `agentgraph_checkpoint_writes`, as {@link SQL.writes} selects it. */
export interface WriteDbRow {
  task_id: StoredId;
  task_path: string;
  /** JSON array of {@link StoredWrite}. */
  writes: string;
}

/**
 * One write in a task's row: `[idx, channel, "v", encoded value]`, or `[idx, channel, "l",
 * item references]` (the references as a JSON array, not a string, to save the escaping).
 */
export type StoredWrite =
  | [idx: number, channel: string, kind: "v", data: string]
  | [idx: number, channel: string, kind: "l", refs: unknown[]];

/** The stored form of a write row's kind and data. */
export function storedWrite(row: {
  idx: number;
  channel: string;
  kind: "value" | "list";
  data: string;
}): StoredWrite {
  return row.kind === "list"
    ? [row.idx, row.channel, "l", JSON.parse(row.data) as unknown[]]
    : [row.idx, row.channel, "v", row.data];
}

/**
 * `JSON.stringify(storedWrite(row))` without parsing the references only to write them again:
 * the encoder writes them as `JSON.stringify` does (an array, or `{"item": …}`), so the text is
 * the same. Anything else goes through {@link storedWrite} (and fails there if it is not JSON).
 */
export function storedWriteText(row: {
  idx: number;
  channel: string;
  kind: "value" | "list";
  data: string;
}): string {
  const head = `[${JSON.stringify(row.idx)},${JSON.stringify(row.channel)},`;
  if (row.kind !== "list") return `${head}"v",${JSON.stringify(row.data)}]`;
  const data = row.data;
  const first = data.charCodeAt(0);
  const last = data.charCodeAt(data.length - 1);
  // [ … ] or { … }, without white space at either end
  if ((first === 91 && last === 93) || (first === 123 && last === 125)) return `${head}"l",${data}]`;
  return JSON.stringify(storedWrite(row));
}

/**
 * Merges writes saved again for a task into its row: an ordinary write (`idx >= 0`) is kept if
 * the task already has one at that index; a control write (`idx < 0`: error, interrupt, resume)
 * replaces the previous one.
 */
export function mergeWrites(existing: StoredWrite[], added: StoredWrite[]): StoredWrite[] {
  const out = [...existing];
  for (const write of added) {
    const at = out.findIndex((w) => w[0] === write[0]);
    if (at === -1) out.push(write);
    else if (write[0] < 0) out[at] = write;
  }
  return out;
}

/** A listing row. */
export interface ListingDbRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: StoredId;
  metadata: string;
}
