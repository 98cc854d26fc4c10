import type { RunnableConfig } from "../../shared/index.js";
import { copyOf, setOwn } from "../../shared/index.js";
import { type Channels, snapshotChannel } from "../algorithm/index.js";
import type {
  BaseCheckpointSaver,
  ChannelVersions,
  Checkpoint,
  CheckpointMetadata,
  CheckpointPendingWrite,
  CheckpointSource,
  CheckpointTuple,
  PendingWrite,
  SaverBatchOp,
} from "../checkpoint/index.js";
import { putOneByOne } from "../checkpoint/index.js";
import { isoNow, timeOrderedId } from "../core/index.js";

/** When checkpoints are written. */
export type Durability = "sync" | "async" | "exit";

/** Where a run keeps its checkpoints, and how eagerly. */
export interface PersistenceParams {
  readonly saver: BaseCheckpointSaver;
  readonly threadId: string;
  readonly ns: string;
  /** The checkpoint to start from (`undefined`: the thread's latest). */
  readonly checkpointId: string | undefined;
  readonly durability: Durability;
  /** Checkpoint ids of the parent graphs, by namespace (for subgraph checkpoints' `parents`). */
  readonly parents: Record<string, string>;
  /**
   * `async` durability: the queue of the root run, which the runs of its subgraphs share (their
   * saves then land in the order they were made, batched together). A new one when absent.
   */
  readonly queue?: SaveQueue | undefined;
  /**
   * The run's `configurable`: its own fields (not the engine's `__…` keys) travel with the
   * configs handed to `put` and `putWrites`, as in LangGraph.js, so a saver can read them.
   */
  readonly runConfigurable?: Readonly<Record<string, unknown>> | undefined;
}

/** The fields of a run's `configurable` that the configs given to the saver carry. */
function runFields(
  configurable: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> | undefined {
  if (configurable === undefined) return undefined;
  let fields: Record<string, unknown> | undefined;
  for (const key in configurable) {
    if (key.startsWith("__") || key === "thread_id" || key === "checkpoint_ns" || key === "checkpoint_id")
      continue;
    const value = configurable[key];
    if (value === undefined) continue;
    if (fields === undefined) fields = {};
    fields[key] = value;
  }
  return fields;
}

/** Saves a run has handed over and not yet written. */
interface Unwritten {
  /** Settles once the saves handed over so far are written (or failed). */
  written(): Promise<void>;
}

/**
 * What runs of this process have handed to each saver and not yet written (`async` durability
 * batches, `sync` saves under way), so that reading a thread through a graph sees every step a
 * run has taken, as it does in LangGraph.js, whose saves start as each step ends.
 */
const unwritten = new WeakMap<object, Set<Unwritten>>();

function track(saver: object, pending: Unwritten): void {
  let set = unwritten.get(saver);
  if (set === undefined) {
    set = new Set();
    unwritten.set(saver, set);
  }
  set.add(pending);
}

function untrack(saver: object, pending: Unwritten): void {
  unwritten.get(saver)?.delete(pending);
}

/**
 * Waits until what runs have handed to `saver` so far is written (saves handed over meanwhile
 * are not waited for): `getState`, `getStateHistory` and `updateState` call it before they read,
 * so a read made while a run streams (or from inside one of its nodes) sees the steps the run has
 * taken. A save that fails fails its run; the read goes on.
 *
 * @example
 * ```ts
 * await writtenSaves(saver);
 * const tuple = await saver.getTuple(config);
 * ```
 */
export async function writtenSaves(saver: object): Promise<void> {
  const set = unwritten.get(saver);
  if (set === undefined || set.size === 0) return;
  for (const pending of [...set]) {
    try {
      await pending.written();
    } catch {
      // the run that made the save reports its failure
    }
  }
}

/** Saves queued by `async` durability before a batch is started without waiting for the loop to pause. */
const ASYNC_BATCH_OPS = 64;

/**
 * The saves `async` durability has queued, written in batches (`saver.putBatch`: one
 * transaction for several steps on agentgraph's savers). A batch starts when the run pauses (a
 * node awaits, or the loop yields) or when {@link ASYNC_BATCH_OPS} saves are queued; batches are
 * written one after the other, in order. The first failure stops the writing and is kept.
 */
export class SaveQueue implements Unwritten {
  readonly saver: BaseCheckpointSaver;
  private queued: SaverBatchOp[] = [];
  /** Saves ever queued, and those written (or given up after a failure). */
  private pushed = 0;
  private done = 0;
  /** Reads waiting for the saves queued before them ({@link written}). */
  private waiters: { target: number; resolve(): void }[] = [];
  /** Writing (or waiting to write) the queued saves, until the queue is empty. */
  private draining: Promise<void> | undefined;
  /** A flush is waiting: write without pausing. */
  private urgent = false;
  /** Ends the pause before the next batch (set while paused). */
  private wake: (() => void) | undefined;
  /** The first failed save (then nothing more is written). */
  failure: { error: unknown } | undefined;

  /**
   * The saver's `preserve` (agentgraph's savers): encodes a queued save at once, so that nodes
   * of later steps that change state objects in place do not change what it stores.
   */
  private readonly preserve: ((op: SaverBatchOp) => void) | undefined;

  constructor(saver: BaseCheckpointSaver) {
    this.saver = saver;
    const preserve = (saver as { preserve?: unknown }).preserve;
    this.preserve = typeof preserve === "function" ? (preserve as (op: SaverBatchOp) => void) : undefined;
  }

  push(op: SaverBatchOp): void {
    if (this.failure !== undefined) return;
    if (this.preserve !== undefined) {
      try {
        this.preserve.call(this.saver, op);
      } catch {
        // a value that cannot be encoded fails the save when it is written, as before
      }
    }
    this.queued.push(op);
    this.pushed++;
    if (this.draining === undefined) {
      track(this.saver, this);
      this.draining = this.drain();
    } else if (this.queued.length >= ASYNC_BATCH_OPS) this.wake?.();
  }

  /** Writes everything queued, and waits until it is written (or a save failed). */
  async flush(): Promise<void> {
    if (this.draining === undefined) return;
    this.urgent = true;
    this.wake?.();
    await this.draining;
  }

  /** Settles once the saves queued so far are written: they are written without pausing. */
  written(): Promise<void> {
    if (this.draining === undefined || this.done >= this.pushed) return Promise.resolve();
    const target = this.pushed;
    this.urgent = true;
    this.wake?.();
    return new Promise<void>((resolve) => {
      this.waiters.push({ target, resolve });
    });
  }

  /** Answers the reads whose saves are written (every read once nothing more will be). */
  private answer(all: boolean): void {
    if (this.waiters.length === 0) return;
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) {
      if (all || waiter.target <= this.done) waiter.resolve();
      else this.waiters.push(waiter);
    }
  }

  /** Until the next macrotask (the run paused), or until enough saves are queued. */
  private pause(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.wake?.(), 0);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }

  private async drain(): Promise<void> {
    const saver = this.saver as BaseCheckpointSaver & {
      putBatch?: (ops: readonly SaverBatchOp[]) => Promise<void>;
    };
    try {
      while (this.queued.length > 0 && this.failure === undefined) {
        if (!this.urgent && this.queued.length < ASYNC_BATCH_OPS) await this.pause();
        const ops = this.queued;
        this.queued = [];
        try {
          // a saver from elsewhere (LangGraph.js's) gets the same saves, one call each
          if (typeof saver.putBatch === "function") await saver.putBatch(ops);
          else await putOneByOne(saver, ops);
        } catch (error) {
          this.failure = { error };
        }
        this.done += ops.length;
        this.answer(false);
      }
    } finally {
      this.draining = undefined;
      this.urgent = false;
      untrack(this.saver, this);
      this.answer(true);
    }
  }
}

/**
 * The loop's link to its checkpointer: loads the starting checkpoint, and saves checkpoints and
 * task writes in order. In `async` durability saves run in the background, in batches (see
 * {@link SaveQueue}); in `sync` each step waits for its saves; in `exit` nothing is saved until
 * the run ends, then the last checkpoint and its writes are.
 */
export class LoopPersistence {
  readonly params: PersistenceParams;
  /** Config of the checkpoint the run is at (writes of the running step are saved against it). */
  config: RunnableConfig;
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown;
  private failed = false;
  /** `exit` durability: the checkpoint and writes to save at the end. */
  private deferred:
    | {
        parentConfig: RunnableConfig;
        checkpoint: Checkpoint;
        metadata: CheckpointMetadata;
        newVersions: ChannelVersions;
      }
    | undefined;
  private deferredWrites: [taskId: string, writes: PendingWrite[], path: string][] = [];
  private stepSaves: Promise<void>[] = [];
  /** `async` durability: where saves wait to be written. */
  readonly queue: SaveQueue;
  /** See {@link PersistenceParams.runConfigurable}. */
  private readonly runFields: Record<string, unknown> | undefined;

  constructor(params: PersistenceParams) {
    this.params = params;
    this.runFields = runFields(params.runConfigurable);
    this.queue = params.queue?.saver === params.saver ? params.queue : new SaveQueue(params.saver);
    this.config = this.configFor(params.checkpointId);
  }

  configFor(checkpointId: string | undefined): RunnableConfig {
    // the run's fields copied, not spread, before the saver's keys are set (see copyOf)
    const configurable: Record<string, unknown> = copyOf(this.runFields);
    configurable.thread_id = this.params.threadId;
    configurable.checkpoint_ns = this.params.ns;
    if (checkpointId !== undefined) configurable.checkpoint_id = checkpointId;
    return { configurable };
  }

  /** Loads the checkpoint to start from. */
  async load(): Promise<CheckpointTuple | undefined> {
    return this.params.saver.getTuple(this.config);
  }

  /** Loads the last checkpoint of the namespace saved before checkpoint `checkpointId` (by id, as ids grow with time). */
  async loadBefore(checkpointId: string): Promise<CheckpointTuple | undefined> {
    const before = { configurable: { checkpoint_id: checkpointId } };
    for await (const tuple of this.params.saver.list(this.configFor(undefined), { before, limit: 1 })) {
      return tuple;
    }
    return undefined;
  }

  /** Saves the writes of a finished task (against the current checkpoint). */
  saveWrites(taskId: string, writes: PendingWrite[], taskPath: string): void {
    if (this.params.durability === "exit") {
      this.deferredWrites.push([taskId, writes, taskPath]);
      return;
    }
    const config = this.config;
    if (this.params.durability === "async") {
      this.queue.push({ kind: "writes", config, writes, taskId, taskPath });
      return;
    }
    this.enqueue(() => this.params.saver.putWrites(config, writes, taskId, taskPath));
  }

  /**
   * Takes a checkpoint of the channels: a new id, a snapshot of their values, versions and
   * `versions_seen`, saved with `newVersions` = the channels that changed since the last one.
   */
  saveCheckpoint(
    working: Checkpoint,
    channels: Channels,
    changed: Set<string>,
    values: Record<string, unknown>,
    source: CheckpointSource,
    step: number,
  ): Checkpoint {
    const newVersions: ChannelVersions = {};
    changed.forEach((key) => {
      const version = working.channel_versions[key];
      if (version !== undefined) newVersions[key] = version;
      const channel = channels[key];
      // an empty channel is kept as undefined and left out of the snapshot below: deleting the
      // key would turn `values` into a dictionary, which every later copy of it pays for
      values[key] = channel === undefined ? undefined : snapshotChannel(channel);
    });
    const seen: Checkpoint["versions_seen"] = {};
    for (const node in working.versions_seen) seen[node] = definedEntries(working.versions_seen[node]);
    working.id = timeOrderedId();
    working.ts = isoNow();
    const snapshot: Checkpoint = {
      v: working.v,
      id: working.id,
      ts: working.ts,
      channel_values: definedEntries(values),
      channel_versions: { ...working.channel_versions },
      versions_seen: seen,
    };
    const metadata: CheckpointMetadata = { source, step, parents: { ...this.params.parents } };
    const parentConfig = this.config;
    this.config = this.configFor(snapshot.id);
    if (this.params.durability === "exit") {
      const merged =
        this.deferred === undefined ? newVersions : { ...this.deferred.newVersions, ...newVersions };
      this.deferred = {
        parentConfig: this.deferred?.parentConfig ?? parentConfig,
        checkpoint: snapshot,
        metadata,
        newVersions: merged,
      };
      this.deferredWrites = [];
    } else if (this.params.durability === "async") {
      this.queue.push({
        kind: "checkpoint",
        config: parentConfig,
        checkpoint: snapshot,
        metadata,
        newVersions,
      });
    } else {
      this.enqueue(async () => {
        await this.params.saver.put(parentConfig, snapshot, metadata, newVersions);
      });
    }
    changed.clear();
    return snapshot;
  }

  /** `sync` durability: waits for the saves of the step. */
  endStep(): Promise<void> | undefined {
    if (this.params.durability !== "sync") return undefined;
    const saves = this.stepSaves;
    this.stepSaves = [];
    return Promise.all(saves).then(() => this.throwIfFailed());
  }

  /**
   * `exit` durability: leaves `channel` out of the writes kept back for `taskId` (a scalar resume
   * answer the run used up is not saved, as LangGraph.js drops it before its exit save).
   */
  dropDeferredWrite(taskId: string, channel: string): void {
    for (const entry of this.deferredWrites) {
      if (entry[0] === taskId) entry[1] = entry[1].filter(([key]) => key !== channel);
    }
  }

  /**
   * Waits for every save, after writing what `exit` durability kept back. A subgraph under a
   * task (its namespace names the task) that ended without failing saves nothing at exit, as in
   * LangGraph.js: its parent keeps its output, and its saved state stays where it last paused.
   */
  async flush(failed = false): Promise<void> {
    if (this.params.durability === "exit") {
      if (!failed && this.params.ns.includes(":")) {
        this.deferred = undefined;
        this.deferredWrites = [];
      }
      const deferred = this.deferred;
      const writes = this.deferredWrites;
      this.deferred = undefined;
      this.deferredWrites = [];
      if (deferred !== undefined) {
        await this.params.saver.put(
          deferred.parentConfig,
          deferred.checkpoint,
          deferred.metadata,
          deferred.newVersions,
        );
      }
      for (const [taskId, list, path] of writes)
        if (list.length > 0) await this.params.saver.putWrites(this.config, list, taskId, path);
    }
    await this.queue.flush();
    await this.chain;
    this.throwIfFailed();
  }

  private enqueue(save: () => Promise<unknown>): void {
    const saver = this.params.saver;
    if (this.chain === this.settled) track(saver, this.pendingSaves);
    const next = this.chain.then(async () => {
      if (this.failed) return;
      try {
        await save();
      } catch (error) {
        this.failed = true;
        this.failure = error;
      }
    });
    this.chain = next;
    // the last save of the chain written: nothing of this run waits any more
    this.settled = next.then(() => {
      if (this.chain === next) {
        this.settled = next;
        untrack(saver, this.pendingSaves);
      }
    });
    if (this.params.durability === "sync") this.stepSaves.push(next);
  }

  /** The chain once written to its end (the chain itself when nothing is under way). */
  private settled: Promise<void> = this.chain;

  /** This run's saves under way, for {@link writtenSaves}. */
  private readonly pendingSaves: Unwritten = {
    written: () => this.chain,
  };

  private throwIfFailed(): void {
    if (this.failed) throw this.failure;
    const queued = this.queue.failure;
    if (queued !== undefined) throw queued.error;
  }
}

/**
 * The entries of `source` that hold a value, as a new ordinary object: a checkpoint's values (the
 * run keeps an empty channel as undefined; see saveCheckpoint) and each node's `versions_seen`,
 * which the engine keeps in dictionary mode (see applyWrites). A spread of a dictionary takes V8's
 * slow path (about 450 bytes for three keys, against 140 for this loop); a snapshot's copies are
 * read, not extended.
 */
function definedEntries<T>(source: Readonly<Record<string, T | undefined>> | undefined): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key in source) {
    const value = source[key];
    if (value !== undefined) setOwn(out, key, value);
  }
  return out;
}

/** The writes saved for each task of a checkpoint, and the answers waiting for interrupts. */
export interface SavedWrites {
  readonly byTask: Map<string, PendingWrite[]>;
  /** Scalar answers (`Command({ resume: value })`) not addressed to a task. */
  readonly nullResume: unknown[];
  /** State updates and routes a `Command` given as input saved (applied before the step). */
  readonly nullWrites: PendingWrite[];
}

/** Groups a checkpoint's pending writes by task. */
export function groupSavedWrites(
  pending: readonly CheckpointPendingWrite[],
  nullTaskId: string,
  resumeChannel: string,
): SavedWrites {
  const byTask = new Map<string, PendingWrite[]>();
  const nullResume: unknown[] = [];
  const nullWrites: PendingWrite[] = [];
  for (const [taskId, channel, value] of pending) {
    if (taskId === nullTaskId) {
      if (channel === resumeChannel) nullResume.push(value);
      else nullWrites.push([channel, value]);
      continue;
    }
    const list = byTask.get(taskId);
    if (list === undefined) byTask.set(taskId, [[channel, value]]);
    else list.push([channel, value]);
  }
  return { byTask, nullResume, nullWrites };
}
