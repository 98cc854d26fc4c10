import { BaseChannel } from "../channels/index.js";
import type { Checkpoint } from "../checkpoint/index.js";
import { type ChannelVersion, InvalidUpdateError, RESERVED_WRITE_CHANNELS } from "../core/index.js";
import { taskPathKey } from "./task-id.js";
import type { Channels, PreparedTask } from "./types.js";

/** Mints channel versions: each call returns a version newer than every earlier one. */
export type NextVersion = (current: ChannelVersion | undefined) => ChannelVersion;

/** The part of a task {@link applyWrites} reads. */
export type CommittedTask = Pick<PreparedTask, "name" | "path" | "triggers" | "writes">;

/** Bookkeeping that {@link applyWrites} keeps between supersteps so that a step costs what it touches. */
export interface WriteState {
  /** The newest version minted so far. */
  maxVersion: ChannelVersion | undefined;
  /**
   * Channels that hold a value and drop it after a step without writes (ephemeral triggers,
   * topics). Only these get an empty update at the end of a step.
   */
  readonly idle: Set<string>;
  /** Channels with a `finish()` that can change them (deferred-node triggers). */
  readonly finishable: readonly string[];
  /** Channels whose version moved since the loop last took a checkpoint (it clears this set). */
  readonly changed: Set<string>;
}

/** Builds the {@link WriteState} of freshly restored channels. */
export function initialWriteState(checkpoint: Checkpoint, channels: Channels): WriteState {
  let maxVersion: ChannelVersion | undefined;
  for (const key in checkpoint.channel_versions) {
    const v = checkpoint.channel_versions[key] as ChannelVersion;
    if (maxVersion === undefined || greater(v, maxVersion)) maxVersion = v;
  }
  const idle = new Set<string>();
  const finishable: string[] = [];
  for (const key in channels) {
    const channel = channels[key] as BaseChannel;
    if (channel.clearsWhenIdle && channel.isAvailable()) idle.add(key);
    if (hasOwnFinish(channel)) finishable.push(key);
  }
  return { maxVersion, idle, finishable, changed: new Set() };
}

function hasOwnFinish(channel: BaseChannel): boolean {
  return channel.finish !== BaseChannel.prototype.finish;
}

function greater(a: ChannelVersion, b: ChannelVersion): boolean {
  if (typeof a === "number" && typeof b === "number") return a > b;
  return String(a) > String(b);
}

/** Sorts tasks by path (each key computed once). */
function sortByPath(tasks: CommittedTask[]): void {
  const keyed = tasks.map((task) => ({ task, key: taskPathKey(task.path) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 0; i < keyed.length; i++) tasks[i] = (keyed[i] as { task: CommittedTask }).task;
}

/**
 * Commits one superstep: marks each task's triggers as seen, lets consumed trigger channels
 * reset, applies every write (tasks in path order, so the result does not depend on which
 * task finished first), clears ephemeral channels nobody wrote, and, when nothing would run
 * next, calls `finish()` so deferred nodes get their turn.
 *
 * Mutates `checkpoint.channel_versions`, `checkpoint.versions_seen`, the channels and `state`.
 * Without `nextVersion` the channels keep their versions (a snapshot of a saved step, which
 * LangGraph.js reads without minting versions). Returns the channels that changed and hold a
 * value: the triggers of the next step.
 */
export function applyWrites(
  checkpoint: Checkpoint,
  channels: Channels,
  tasks: CommittedTask[],
  nextVersion: NextVersion | undefined,
  triggerToNodes: Readonly<Record<string, readonly string[]>>,
  state: WriteState,
): Set<string> {
  if (tasks.length > 1) sortByPath(tasks);
  const versions = checkpoint.channel_versions;
  const seenByNode = checkpoint.versions_seen;

  let bumpStep = false;
  let consumedVersion: ChannelVersion | undefined;
  // Indexed loops and `forEach` here and below: a run's first few hundred steps execute before
  // the engine optimizes this code, and each `for…of` step there allocates an iterator result
  // (a cold run pays for the memory it allocates: see "Cold runs" in bench/README.md).
  for (let t = 0; t < tasks.length; t++) {
    const task = tasks[t] as CommittedTask;
    const triggers = task.triggers;
    let seen = seenByNode[task.name];
    if (seen === undefined) {
      // a dictionary from the start: each node's triggers are keys of their own, and objects
      // given them one by one would each grow a hidden class (thousands in a long chain).
      // Every task gets its entry, as in LangGraph.js: one without triggers (the graph input,
      // `__input__`) an empty one.
      seen = Object.create(null) as Record<string, ChannelVersion>;
      seenByNode[task.name] = seen;
    }
    if (triggers.length === 0) continue;
    bumpStep = true;
    for (let i = 0; i < triggers.length; i++) {
      const trigger = triggers[i] as string;
      const version = versions[trigger];
      if (version !== undefined) seen[trigger] = version;
      if (RESERVED_WRITE_CHANNELS.has(trigger)) continue;
      const channel = channels[trigger];
      if (channel?.consume()) {
        if (consumedVersion === undefined && nextVersion !== undefined) {
          consumedVersion = nextVersion(state.maxVersion);
          state.maxVersion = consumedVersion;
        }
        if (consumedVersion !== undefined) versions[trigger] = consumedVersion;
        state.changed.add(trigger);
        if (channel.clearsWhenIdle && !channel.isAvailable()) state.idle.delete(trigger);
      }
    }
  }

  const grouped = groupWrites(tasks, channels);
  const updated = new Set<string>();
  const version = nextVersion === undefined ? undefined : nextVersion(state.maxVersion);
  if (version !== undefined) state.maxVersion = version;
  grouped.forEach((values, key) => {
    const channel = channels[key] as BaseChannel;
    let changed: boolean;
    try {
      changed = channel.update(values);
    } catch (error) {
      throw wrapUpdateError(key, values, error);
    }
    if (!changed) return;
    if (version !== undefined) versions[key] = version;
    state.changed.add(key);
    if (channel.isAvailable()) {
      updated.add(key);
      if (channel.clearsWhenIdle) state.idle.add(key);
    } else {
      state.idle.delete(key);
    }
  });

  if (bumpStep) {
    state.idle.forEach((key) => {
      if (grouped.has(key)) return;
      const channel = channels[key] as BaseChannel;
      if (channel.update([])) {
        if (version !== undefined) versions[key] = version;
        state.changed.add(key);
        if (channel.isAvailable()) updated.add(key);
        else state.idle.delete(key);
      } else if (!channel.isAvailable()) {
        state.idle.delete(key);
      }
    });
    if (!triggersNextStep(updated, triggerToNodes)) {
      const finishable = state.finishable;
      for (let i = 0; i < finishable.length; i++) {
        const key = finishable[i] as string;
        const channel = channels[key] as BaseChannel;
        if (channel.finish()) {
          if (version !== undefined) versions[key] = version;
          state.changed.add(key);
          if (channel.isAvailable()) updated.add(key);
        }
      }
    }
  }
  return updated;
}

function groupWrites(tasks: CommittedTask[], channels: Channels): Map<string, unknown[]> {
  const grouped = new Map<string, unknown[]>();
  for (let t = 0; t < tasks.length; t++) {
    const writes = (tasks[t] as CommittedTask).writes;
    for (let i = 0; i < writes.length; i++) {
      const write = writes[i] as (typeof writes)[number];
      const key = write[0];
      const value = write[1];
      if (RESERVED_WRITE_CHANNELS.has(key) || channels[key] === undefined) continue;
      const list = grouped.get(key);
      if (list === undefined) grouped.set(key, [value]);
      else list.push(value);
    }
  }
  return grouped;
}

/** Whether any updated channel triggers a node (pending `Send`s count as work too). */
function triggersNextStep(
  updated: Set<string>,
  triggerToNodes: Readonly<Record<string, readonly string[]>>,
): boolean {
  let triggers = false;
  updated.forEach((key) => {
    if (triggerToNodes[key] !== undefined || key === "__pregel_tasks") triggers = true;
  });
  return triggers;
}

/**
 * The error of a channel update that failed, as LangGraph.js reports it: an `InvalidUpdateError`
 * naming the channel and the values (and how to fix a concurrent write); other errors as they are.
 */
export function wrapUpdateError(key: string, values: unknown[], error: unknown): unknown {
  if (!(error instanceof InvalidUpdateError)) return error;
  let shown: string;
  try {
    shown = JSON.stringify(values);
  } catch {
    shown = `${values.length} values`;
  }
  const hint =
    error.code === "INVALID_CONCURRENT_GRAPH_UPDATE"
      ? ` Several nodes wrote "${key}" in the same step: give "${key}" a reducer to combine them, e.g. ${key}: Annotation<T[]>({ reducer: (a, b) => a.concat(b), default: () => [] }).`
      : "";
  return new InvalidUpdateError(
    `Invalid update for channel "${key}" with values ${shown}: ${error.message}${hint}`,
    {
      code: error.code,
      lc_error_code: error.lc_error_code,
      cause: error,
    },
  );
}
