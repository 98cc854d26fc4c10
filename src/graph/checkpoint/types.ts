import type { ChannelVersion } from "../core/index.js";

export type { ChannelVersion };

/** The version of each channel, by channel name. */
export type ChannelVersions = Record<string, ChannelVersion>;

/** A write a task made: the channel and the value. */
export type PendingWrite<Channel extends string = string> = [channel: Channel, value: unknown];

/** A stored write: the id of the task that made it, the channel and the value. */
export type CheckpointPendingWrite<TaskId extends string = string> = [
  taskId: TaskId,
  channel: string,
  value: unknown,
];

/**
 * What a channel received on the way to a checkpoint, as
 * {@link BaseCheckpointSaver.getDeltaChannelHistory} returns it: the writes (oldest first) since
 * the nearest ancestor holding a value for the channel, and that value as `seed` (absent when
 * no ancestor holds one).
 *
 * @example
 * ```ts
 * const history: DeltaChannelHistory = { seed: ["hi"], writes: [["task-1", "messages", ["there"]]] };
 * ```
 */
export interface DeltaChannelHistory {
  writes: CheckpointPendingWrite[];
  seed?: unknown;
}

/**
 * The state of a graph between two supersteps, in the LangGraph checkpoint format (v4).
 *
 * `channel_values` holds a snapshot of each non-empty channel, `channel_versions` the version
 * of each channel, and `versions_seen[node][channel]` the version of each trigger channel a
 * node last ran on: a node runs again when one of its trigger channels has a newer version.
 */
export interface Checkpoint {
  v: number;
  id: string;
  ts: string;
  channel_values: Record<string, unknown>;
  channel_versions: ChannelVersions;
  versions_seen: Record<string, ChannelVersions>;
}

/** Why a checkpoint was written. */
export type CheckpointSource = "input" | "loop" | "update" | "fork";

/** Metadata saved with each checkpoint. */
export interface CheckpointMetadata {
  source: CheckpointSource;
  /** Superstep number: -1 for the input checkpoint, 0 for the first loop step. */
  step: number;
  /** Checkpoint ids of the parent graphs, by namespace. */
  parents: Record<string, string>;
  [key: string]: unknown;
}

/** Version of the checkpoint format written by this library. */
export const CHECKPOINT_FORMAT_VERSION = 4;
