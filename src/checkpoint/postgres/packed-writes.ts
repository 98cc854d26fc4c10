/**
 * Pending writes kept inside their checkpoint's row. A batch of `async` durability holds a step's
 * checkpoint and the writes its tasks made from it; `PostgresSaver` stores those writes in the
 * checkpoint row's `writes` column, as one text, instead of one row each in
 * `agentgraph_checkpoint_writes`: a row of its own costs the thread, namespace, checkpoint and task
 * ids again, a tuple header and a primary-key entry, which together outweigh the write itself
 * (a message's write is the reference of one item). Writes made from a checkpoint stored earlier
 * (`sync` durability, a resume, a `putWrites` of its own) and control writes (negative `idx`,
 * which replace one another) keep their rows.
 */
import { CheckpointCorruptError, type CheckpointRow, type WriteRow } from "../../graph/index.js";

/** How a write's kind is packed. */
const KIND_CODES = { value: 0, list: 1 } as const;

/** A checkpoint's key within a batch. */
const checkpointKey = (threadId: string, ns: string, id: string) => `${threadId}\u0000${ns}\u0000${id}`;

/** A batch's writes, split into those packed into their checkpoint's row and those kept as rows. */
export interface SplitWrites {
  /** For each checkpoint row of the batch, in order: its packed writes, or `null`. */
  packed: (string | null)[];
  /** The ordinary writes (`idx >= 0`) that are not packed. */
  ordinary: WriteRow[];
  /** The control writes (`idx < 0`). */
  control: WriteRow[];
}

/**
 * Packs the ordinary writes whose checkpoint is one of `checkpoints` (the batch's rows, already
 * one per key) and leaves the rest as rows. Of two writes with the same task and `idx`, the first
 * is kept, as the table keeps the first row of a key; control writes are left as they come.
 *
 * @example
 * ```ts
 * const { packed, ordinary, control } = splitWrites(batch.checkpoints, batch.writes);
 * ```
 */
export function splitWrites(checkpoints: readonly CheckpointRow[], writes: readonly WriteRow[]): SplitWrites {
  const ordinary: WriteRow[] = [];
  const control: WriteRow[] = [];
  const at = new Map<string, number>();
  checkpoints.forEach((row, i) => {
    at.set(checkpointKey(row.threadId, row.ns, row.id), i);
  });
  // per checkpoint: its tasks (with their paths) in the order they first wrote, each with its
  // writes, and the task and idx of every write kept
  const tasks: ({ groups: Map<string, WriteRow[]>; kept: Set<string> } | undefined)[] = [];
  for (const write of writes) {
    if (write.idx < 0) {
      control.push(write);
      continue;
    }
    const i = at.get(checkpointKey(write.threadId, write.ns, write.checkpointId));
    if (i === undefined) {
      ordinary.push(write);
      continue;
    }
    let packing = tasks[i];
    if (packing === undefined) {
      packing = { groups: new Map(), kept: new Set() };
      tasks[i] = packing;
    }
    const kept = `${write.taskId}\u0000${write.idx}`;
    if (packing.kept.has(kept)) continue;
    packing.kept.add(kept);
    const group = `${write.taskId}\u0000${write.taskPath}`;
    const list = packing.groups.get(group);
    if (list === undefined) packing.groups.set(group, [write]);
    else list.push(write);
  }
  const packed = checkpoints.map((_, i) => {
    const packing = tasks[i];
    return packing === undefined ? null : packWrites([...packing.groups.values()]);
  });
  return { packed, ordinary, control };
}

/**
 * The text of writes grouped by task: one line per task (and path), a JSON array of the task id,
 * its path, then `idx`, channel, kind (0 value, 1 list) and data for each write. Lines can be
 * joined with `\n` (JSON text never holds a raw line break).
 */
export function packWrites(tasks: readonly (readonly WriteRow[])[]): string {
  const lines: string[] = [];
  for (const writes of tasks) {
    const first = writes[0];
    if (first === undefined) continue;
    const fields: (string | number)[] = [first.taskId, first.taskPath];
    for (const write of writes) fields.push(write.idx, write.channel, KIND_CODES[write.kind], write.data);
    lines.push(JSON.stringify(fields));
  }
  return lines.join("\n");
}

/**
 * The writes a checkpoint row's `writes` column holds, in the order they were packed. A text that
 * is not what {@link packWrites} makes is reported as a corrupt checkpoint.
 */
export function unpackWrites(text: string, threadId: string, ns: string, checkpointId: string): WriteRow[] {
  const corrupt = (detail: string, cause?: unknown) =>
    new CheckpointCorruptError(threadId, ns, checkpointId, `its pending writes ${detail}`, cause);
  const rows: WriteRow[] = [];
  for (const line of text.split("\n")) {
    let fields: unknown;
    try {
      fields = JSON.parse(line);
    } catch (error) {
      throw corrupt("are not valid JSON", error);
    }
    if (
      !Array.isArray(fields) ||
      fields.length < 6 ||
      (fields.length - 2) % 4 !== 0 ||
      typeof fields[0] !== "string" ||
      typeof fields[1] !== "string"
    ) {
      throw corrupt("do not have the packed layout (task id, path, then idx, channel, kind, data per write)");
    }
    const taskId = fields[0];
    const taskPath = fields[1];
    for (let i = 2; i < fields.length; i += 4) {
      const idx: unknown = fields[i];
      const channel: unknown = fields[i + 1];
      const kind: unknown = fields[i + 2];
      const data: unknown = fields[i + 3];
      if (
        typeof idx !== "number" ||
        !Number.isInteger(idx) ||
        idx < 0 ||
        typeof channel !== "string" ||
        (kind !== 0 && kind !== 1) ||
        typeof data !== "string"
      ) {
        throw corrupt(`hold a malformed write of task ${taskId}`);
      }
      rows.push({
        threadId,
        ns,
        checkpointId,
        taskId,
        idx,
        channel,
        kind: kind === 1 ? "list" : "value",
        data,
        taskPath,
      });
    }
  }
  return rows;
}
