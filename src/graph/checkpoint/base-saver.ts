import { InvalidArgumentError, type RunnableConfig } from "../../shared/index.js";
import { ERROR, INTERRUPT, RESUME } from "../core/index.js";
import { defaultSerializer, type SerializerProtocol } from "./serde/index.js";
import type {
  ChannelVersion,
  ChannelVersions,
  Checkpoint,
  CheckpointMetadata,
  CheckpointPendingWrite,
  DeltaChannelHistory,
  PendingWrite,
} from "./types.js";

/** A checkpoint with everything needed to resume from it. */
export interface CheckpointTuple {
  /** `{ configurable: { thread_id, checkpoint_ns, checkpoint_id } }` of this checkpoint. */
  config: RunnableConfig;
  checkpoint: Checkpoint;
  metadata?: CheckpointMetadata;
  /** Config of the checkpoint this one was made from (the SQL savers answer `undefined` without one). */
  parentConfig?: RunnableConfig | undefined;
  /** Writes of the tasks that ran (or started) from this checkpoint: `[taskId, channel, value]`. */
  pendingWrites?: CheckpointPendingWrite[];
}

/** Options of `list()`. */
export interface CheckpointListOptions {
  /** At most this many checkpoints. */
  limit?: number;
  /** Only checkpoints older than this one. */
  before?: RunnableConfig;
  /** Only checkpoints whose metadata has these values. */
  filter?: Record<string, unknown>;
}

/** One save of a {@link BaseCheckpointSaver.putBatch}: a checkpoint, or the writes of a task. */
export type SaverBatchOp =
  | {
      kind: "checkpoint";
      config: RunnableConfig;
      checkpoint: Checkpoint;
      metadata: CheckpointMetadata;
      newVersions: ChannelVersions;
    }
  | { kind: "writes"; config: RunnableConfig; writes: PendingWrite[]; taskId: string; taskPath: string };

/** Channel of a scheduled (not yet run) task, stored with a fixed index like the other control writes. */
export const SCHEDULED = "__scheduled__";

/**
 * Fixed indexes of control writes: a task's error, interrupts and resume values overwrite the
 * previous ones instead of accumulating (other writes are insert-if-absent by index).
 */
export const WRITES_IDX_MAP: Readonly<Record<string, number>> = {
  [ERROR]: -1,
  [SCHEDULED]: -2,
  [INTERRUPT]: -3,
  [RESUME]: -4,
};

/**
 * Where checkpoints are kept. The method shapes are those of LangGraph.js's
 * `BaseCheckpointSaver`, so a saver written for it (or the reference's validation suite) works
 * with agentgraph, and ours work with code written for it.
 *
 * @example
 * ```ts
 * const graph = builder.compile({ checkpointer: new MemorySaver() });
 * await graph.invoke(input, { configurable: { thread_id: "conversation-1" } });
 * ```
 */
export abstract class BaseCheckpointSaver<V extends string | number = string | number> {
  /** Brand, so that savers from another copy of the library are recognised. */
  readonly lg_is_checkpointer = true;

  /**
   * The serializer a saver encodes values with, as in LangGraph.js: a saver written for it
   * stores `await this.serde.dumpsTyped(value)` and reads back with `this.serde.loadsTyped`.
   * The one given to the constructor, else the default {@link JsonPlusSerializer}.
   */
  serde: SerializerProtocol = defaultSerializer;

  constructor(serde?: SerializerProtocol) {
    if (serde) this.serde = serde;
  }

  /** The checkpoint a config points at (its `checkpoint_id`, or the thread's latest). */
  async get(config: RunnableConfig): Promise<Checkpoint | undefined> {
    return (await this.getTuple(config))?.checkpoint;
  }

  /** The checkpoint a config points at, with its metadata, parent and pending writes. */
  abstract getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined>;

  /** Checkpoints, newest first, of a thread (and namespace) or of every thread. */
  abstract list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple>;

  /** Saves a checkpoint; `newVersions` names the channels that changed since its parent. */
  abstract put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig>;

  /** Saves the writes a task made from the checkpoint in `config`. */
  abstract putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath?: string,
  ): Promise<void>;

  /** Deletes everything saved for a thread. */
  abstract deleteThread(threadId: string): Promise<void>;

  /**
   * Saves several checkpoints and task writes, in order, as one operation where the saver can:
   * agentgraph's savers write them in one transaction (one round trip on PostgreSQL). This is how
   * `async` durability groups the saves of several steps. The default makes the calls one by one.
   *
   * @example
   * ```ts
   * await saver.putBatch([
   *   { kind: "writes", config: at, writes: [["messages", [reply]]], taskId, taskPath: "" },
   *   { kind: "checkpoint", config: at, checkpoint, metadata, newVersions },
   * ]);
   * ```
   */
  async putBatch(ops: readonly SaverBatchOp[]): Promise<void> {
    await putOneByOne(this, ops);
  }

  /**
   * What one or more channels received on the way to a checkpoint, as LangGraph.js's (beta)
   * method of the same name returns it: for each channel, walking up the parents of the
   * checkpoint in `config`, the writes saved at each ancestor (oldest first) back to the
   * nearest ancestor that holds a value for the channel, which is returned as `seed` (left out
   * when no ancestor holds one). Writes saved at the checkpoint itself are not included.
   * Only ancestors on the checkpoint's own branch count.
   *
   * agentgraph's channels never need it (every checkpoint holds every channel's value, so the
   * walk stops at the parent); it is here for programs written against LangGraph.js.
   *
   * @example
   * ```ts
   * const { messages } = await saver.getDeltaChannelHistory({ config, channels: ["messages"] });
   * // messages.seed: the parent's value; messages.writes: [[taskId, "messages", value], …]
   * ```
   */
  async getDeltaChannelHistory(options: {
    config: RunnableConfig;
    channels: readonly string[];
  }): Promise<Record<string, DeltaChannelHistory>> {
    const { config, channels } = options;
    const result: Record<string, DeltaChannelHistory> = {};
    if (channels.length === 0) return result;
    // newest first while walking up; reversed at the end
    const collected = new Map<string, CheckpointPendingWrite[]>(channels.map((ch) => [ch, []]));
    const seeds = new Map<string, unknown>();
    const remaining = new Set(channels);
    let cursor = (await this.getTuple(config))?.parentConfig;
    const visited = new Set<string>();
    while (cursor !== undefined && remaining.size > 0) {
      const tuple = await this.getTuple(cursor);
      if (tuple === undefined) break;
      const id = tuple.checkpoint.id;
      if (visited.has(id)) break; // a corrupt parent chain never loops forever
      visited.add(id);
      const writes = tuple.pendingWrites ?? [];
      for (let i = writes.length - 1; i >= 0; i--) {
        const write = writes[i] as CheckpointPendingWrite;
        if (remaining.has(write[1])) collected.get(write[1])?.push(write);
      }
      const values = tuple.checkpoint.channel_values;
      for (const ch of [...remaining]) {
        if (Object.hasOwn(values, ch)) {
          seeds.set(ch, values[ch]);
          remaining.delete(ch);
        }
      }
      cursor = tuple.parentConfig;
    }
    for (const ch of channels) {
      const entry: DeltaChannelHistory = { writes: (collected.get(ch) ?? []).slice().reverse() };
      if (seeds.has(ch)) entry.seed = seeds.get(ch);
      result[ch] = entry;
    }
    return result;
  }

  /** The version after `current` (LangGraph.js: integers). */
  getNextVersion(current: V | undefined): V {
    if (typeof current === "string") {
      throw new InvalidArgumentError(
        "This saver mints numeric versions; override getNextVersion to use string versions.",
      );
    }
    return (current === undefined ? 1 : (current as number) + 1) as V;
  }

  toJSON(): string {
    return `[${this.constructor.name}]`;
  }
}

/** True for a checkpoint saver (ours, or any object with the saver methods). */
/**
 * Saves `ops` in order with one `put` / `putWrites` call each: what `putBatch` does by default,
 * and how a batch reaches a saver that has no `putBatch` (LangGraph.js's own savers).
 *
 * @example
 * ```ts
 * await putOneByOne(langGraphSaver, ops);
 * ```
 */
export async function putOneByOne(
  saver: Pick<BaseCheckpointSaver, "put" | "putWrites">,
  ops: readonly SaverBatchOp[],
): Promise<void> {
  for (const op of ops) {
    if (op.kind === "checkpoint") await saver.put(op.config, op.checkpoint, op.metadata, op.newVersions);
    else await saver.putWrites(op.config, op.writes, op.taskId, op.taskPath);
  }
}

export function isCheckpointSaver(value: unknown): value is BaseCheckpointSaver {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Partial<Record<"getTuple" | "put" | "putWrites" | "list", unknown>>;
  return typeof v.getTuple === "function" && typeof v.put === "function" && typeof v.putWrites === "function";
}

/** The `checkpoint_id` of a config (`""` when absent). */
export function getCheckpointId(config: RunnableConfig): string {
  const configurable = config.configurable ?? {};
  return String(configurable.checkpoint_id ?? configurable.thread_ts ?? "");
}

/** A copy of a checkpoint that shares no mutable structure with it (values themselves are shared). */
export function copyCheckpoint(checkpoint: Checkpoint): Checkpoint {
  const seen: Record<string, ChannelVersions> = {};
  for (const node in checkpoint.versions_seen) seen[node] = { ...checkpoint.versions_seen[node] };
  return {
    v: checkpoint.v,
    id: checkpoint.id,
    ts: checkpoint.ts,
    channel_values: { ...checkpoint.channel_values },
    channel_versions: { ...checkpoint.channel_versions },
    versions_seen: seen,
  };
}

/** The largest of some versions. */
export function maxChannelVersion(...versions: ChannelVersion[]): ChannelVersion | undefined {
  let max: ChannelVersion | undefined;
  for (const v of versions) {
    if (max === undefined) max = v;
    else if (typeof v === "number" && typeof max === "number") max = v > max ? v : max;
    else max = String(v) > String(max) ? v : max;
  }
  return max;
}
