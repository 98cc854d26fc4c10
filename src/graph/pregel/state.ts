import type { RunnableConfig } from "../../shared/index.js";
import { copyWith } from "../../shared/index.js";
import {
  applyWrites,
  type Channels,
  initialWriteState,
  type NextVersion,
  prepareNextTasks,
  readChannels,
  readWithWrites,
  type WriteState,
} from "../algorithm/index.js";
import type { BaseChannel } from "../channels/index.js";
import {
  type BaseCheckpointSaver,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointSource,
  type CheckpointTuple,
  copyCheckpoint,
  emptyCheckpoint,
  SCHEDULED,
  threadIdErrorFor,
} from "../checkpoint/index.js";
import {
  type ChannelVersion,
  COPY,
  compareVersions,
  END,
  ERROR,
  INPUT,
  INTERRUPT,
  type Interrupt,
  InvalidUpdateError,
  NULL_TASK_ID,
  RESUME,
  START,
} from "../core/index.js";
import {
  groupSavedWrites,
  LoopPersistence,
  mapInput,
  type PregelNode,
  type RunningTask,
  savedTaskResult,
} from "../loop/index.js";

/** One task of a {@link StateSnapshot}: what will run (or ran) from that checkpoint. */
export interface PregelTaskDescription {
  id: string;
  name: string;
  path: readonly unknown[];
  error?: unknown;
  interrupts: Interrupt[];
  /** For a subgraph task: its state (with `subgraphs: true`) or the config to read it. */
  state?: RunnableConfig | StateSnapshot;
  /** What the task wrote, when it has finished. */
  result?: unknown;
}

/**
 * The state of a thread at one checkpoint (`graph.getState(config)`). `Values` is the graph's
 * state type for a compiled `StateGraph` (and an agent), so `snapshot.values.messages` is typed as
 * the graph declares it; a graph whose state is not known to the type system reads `unknown`.
 */
/** The options of `graph.getState(config, options)`: `subgraphs` includes the states of the subgraphs a pending task runs. */
export interface GetStateOptions {
  /** Include the state of each subgraph a pending task runs (default `false`). */
  subgraphs?: boolean;
}

export interface StateSnapshot<Values = unknown> {
  values: Values;
  /** Nodes that run next (empty when the run is over). */
  next: string[];
  config: RunnableConfig;
  metadata?: CheckpointMetadata | undefined;
  createdAt?: string | undefined;
  parentConfig?: RunnableConfig | undefined;
  tasks: PregelTaskDescription[];
}

/** What the state API needs to know of a graph. */
export interface StateGraphView {
  readonly nodes: Readonly<Record<string, PregelNode>>;
  readonly channels: Readonly<Record<string, BaseChannel>>;
  readonly streamChannels: string | readonly string[];
  readonly triggerToNodes: Readonly<Record<string, readonly string[]>>;
  readonly inputChannels: string | readonly string[];
}

function restoreChannels(graph: StateGraphView, values: Record<string, unknown>): Channels {
  const channels: Channels = {};
  for (const key in graph.channels)
    channels[key] = (graph.channels[key] as BaseChannel).fromCheckpoint(values[key]);
  return channels;
}

function readValues(graph: StateGraphView, channels: Channels): unknown {
  const keys = graph.streamChannels;
  if (typeof keys === "string") {
    const channel = channels[keys];
    // a single-channel graph (an entrypoint) that has not written its value yet reads as null
    return channel?.isAvailable() ? channel.get() : null;
  }
  return readChannels(channels, keys);
}

/** Builds the snapshot of a checkpoint tuple. */
export async function snapshotOf(
  graph: StateGraphView,
  tuple: CheckpointTuple | undefined,
  config: RunnableConfig,
  subgraphState: (node: PregelNode, config: RunnableConfig) => Promise<StateSnapshot | undefined>,
  withSubgraphs: boolean,
  applyPending: boolean,
): Promise<StateSnapshot> {
  if (tuple === undefined) return { values: {}, next: [], config, tasks: [] };
  const checkpoint = copyCheckpoint(tuple.checkpoint);
  const channels = restoreChannels(graph, checkpoint.channel_values);
  const writeState = initialWriteState(checkpoint, channels);
  const metadata = tuple.metadata;
  const ns = String(tuple.config.configurable?.checkpoint_ns ?? "");
  const threadId = tuple.config.configurable?.thread_id;
  const { tasks, saved } = pausedStep(graph, tuple, checkpoint, channels, writeState, undefined);
  const next: string[] = [];
  const descriptions: PregelTaskDescription[] = [];
  const finished: {
    name: string;
    path: readonly unknown[];
    triggers: readonly string[];
    writes: [string, unknown][];
  }[] = [];
  for (const task of tasks) {
    const writes = saved.byTask.get(task.id) ?? [];
    const interrupts = writes.filter(([c]) => c === INTERRUPT).flatMap(([, v]) => v as Interrupt[]);
    const error = writes.find(([c]) => c === ERROR)?.[1];
    const output = writes.filter(([c]) => c !== ERROR && c !== INTERRUPT && c !== RESUME);
    // keys in LangGraph.js's order; `result` is always present (undefined until the task has
    // finished), and a failed task has its `error` but no subgraph `state`
    const description: PregelTaskDescription =
      error === undefined
        ? { id: task.id, name: task.name, path: task.path, interrupts }
        : { id: task.id, name: task.name, path: task.path, error, interrupts };
    // a subgraph compiled with `checkpointer: false` keeps no state to point to (LangGraph.js
    // lists no `state` for its task)
    const subgraph = task.node.subgraphs?.[0] as { checkpointer?: unknown } | undefined;
    if (subgraph !== undefined && subgraph.checkpointer !== false) {
      const childConfig: RunnableConfig = {
        configurable: { thread_id: threadId, checkpoint_ns: task.checkpointNs },
      };
      // a failed task's subgraph state is read too, as LangGraph.js reads it (so a state that
      // cannot be built, say from conflicting saved writes, fails the call), but not listed
      const nested = withSubgraphs ? await subgraphState(task.node, childConfig) : undefined;
      if (error === undefined) description.state = nested ?? childConfig;
    }
    description.result = undefined;
    if (output.length > 0) {
      description.result = savedTaskResult(task as unknown as RunningTask, output, graph.streamChannels);
      if (applyPending)
        finished.push({
          name: task.name,
          path: task.path,
          triggers: task.triggers,
          writes: output as [string, unknown][],
        });
    }
    // The latest checkpoint counts finished tasks as done; a past one lists every task it ran.
    if (!applyPending || output.length === 0) next.push(task.name);
    descriptions.push(description);
  }
  if (finished.length > 0) {
    applyWrites(checkpoint, channels, finished as never, undefined, graph.triggerToNodes, writeState);
  }
  const parents = metadata?.parents;
  const snapshotConfig: RunnableConfig =
    parents !== undefined && Object.keys(parents).length > 0
      ? {
          configurable: copyWith(
            tuple.config.configurable,
            "checkpoint_map",
            copyWith(parents, ns, checkpoint.id),
          ),
        }
      : tuple.config;
  // keys in LangGraph.js's order
  const snapshot: StateSnapshot = {
    values: readValues(graph, channels),
    next,
    tasks: descriptions,
    metadata: metadata === undefined ? undefined : copyWith(metadata, "thread_id", threadId),
    config: snapshotConfig,
    createdAt: checkpoint.ts,
    parentConfig: tuple.parentConfig,
  };
  return snapshot;
}

/** The node an update is attributed to when the caller names none. */
function inferAsNode(graph: StateGraphView, checkpoint: Checkpoint | undefined): string {
  const names = Object.keys(graph.nodes);
  // a graph of one node (an entrypoint). A StateGraph's `__start__` is a node as in LangGraph.js:
  // it counts here, and an update of a checkpoint its input task ran last counts as new input
  if (names.length === 1) return names[0] as string;
  const seen = checkpoint?.versions_seen ?? {};
  let best: { node: string; version: ChannelVersion } | undefined;
  let tie = false;
  for (const node of names) {
    const versions = seen[node];
    if (versions === undefined) continue;
    for (const version of Object.values(versions)) {
      if (best === undefined || compareVersions(version, best.version) > 0) {
        best = { node, version };
        tie = false;
      } else if (compareVersions(version, best.version) === 0 && best.node !== node) {
        tie = true;
      }
    }
  }
  if (best === undefined) return START;
  if (tie) {
    throw new InvalidUpdateError(
      'Ambiguous update, specify "asNode": several nodes ran last; pass the node the update should count as, e.g. updateState(config, values, "my_node").',
    );
  }
  return best.node;
}

/** One update of a {@link bulkUpdateThreadState} superstep: `values` as if node `asNode` returned them. */
export interface StateUpdate {
  values: unknown;
  asNode?: string | undefined;
  /** The id of the update's task (kept for LangGraph.js's signature; updates are not tasks that run). */
  taskId?: string | undefined;
}

/** Writes saved for tasks that are not channel values (what a task's failure or pause recorded). */
const CONTROL_WRITES: ReadonlySet<string> = new Set([ERROR, INTERRUPT, SCHEDULED, RESUME]);

/**
 * The step a checkpoint leads to, as its saved writes leave it: the writes made without a task
 * applied to `checkpoint`, and the step's tasks (ids as the loop makes them) with the saved writes
 * grouped by task. What `getState` and `updateState` both start from.
 */
function pausedStep(
  graph: StateGraphView,
  tuple: CheckpointTuple,
  checkpoint: Checkpoint,
  channels: Channels,
  state: WriteState,
  nextVersion: NextVersion | undefined,
) {
  const saved = groupSavedWrites(tuple.pendingWrites ?? [], NULL_TASK_ID, RESUME);
  if (saved.nullWrites.length > 0) {
    // for a snapshot (no `nextVersion`) the channels keep their versions, as in LangGraph.js: a
    // goto's trigger makes its node next only if the trigger had a version the node had not seen
    applyWrites(
      checkpoint,
      channels,
      [{ name: INPUT, path: [], triggers: [], writes: saved.nullWrites }],
      nextVersion,
      graph.triggerToNodes,
      state,
    );
  }
  const step = typeof tuple.metadata?.step === "number" ? tuple.metadata.step + 1 : 0;
  const tasks = prepareNextTasks(checkpoint, graph.nodes, channels, {
    step,
    parentNs: String(tuple.config.configurable?.checkpoint_ns ?? ""),
    updatedChannels: undefined,
    triggerToNodes: graph.triggerToNodes,
    deterministicIds: true,
  });
  return { tasks, saved };
}

/**
 * Applies the writes saved for the tasks of `tuple`'s step to `checkpoint`: the writes made without
 * a task, then those of the tasks that finished (`all`: every task of the step counts as done,
 * those without writes included, which ends the step).
 */
function applyPendingWrites(
  graph: StateGraphView,
  tuple: CheckpointTuple,
  checkpoint: Checkpoint,
  channels: Channels,
  state: WriteState,
  nextVersion: (current: ChannelVersion | undefined) => ChannelVersion,
  all: boolean,
): void {
  const { tasks, saved } = pausedStep(graph, tuple, checkpoint, channels, state, nextVersion);
  const done = [];
  for (const task of tasks) {
    const writes = (saved.byTask.get(task.id) ?? []).filter(([channel]) => !CONTROL_WRITES.has(channel));
    if (all || writes.length > 0)
      done.push({ name: task.name, path: task.path, triggers: task.triggers, writes });
  }
  if (done.length > 0) applyWrites(checkpoint, channels, done, nextVersion, graph.triggerToNodes, state);
}

/**
 * Applies `values` to the thread's state as if node `asNode` had returned them (its edges and
 * routers decide what runs next), and saves the result as a new checkpoint (`source: "update"`).
 * See {@link bulkUpdateThreadState}.
 */
export async function updateThreadState(
  graph: StateGraphView,
  saver: BaseCheckpointSaver,
  config: RunnableConfig,
  values: unknown,
  asNode: string | undefined,
): Promise<RunnableConfig> {
  return bulkUpdateThreadState(graph, saver, config, [{ updates: [{ values, asNode }] }]);
}

/**
 * Applies supersteps of updates, each saved as a checkpoint, as LangGraph.js's `bulkUpdateState`
 * does. In one superstep:
 * - on the thread's latest checkpoint (no `checkpoint_id` in `config`), the writes of the tasks
 *   of the paused step that finished are applied first, as the step would have;
 * - each update counts as a task of node `asNode` (inferred from the last node that ran when a
 *   single update names none); the nodes' edges and routers decide what runs next, and like any
 *   step it ends the triggers nobody wrote again (a pending task not updated does not run);
 * - `values` `null` or `undefined` with no `asNode` saves a copy of the checkpoint; `null` with
 *   `asNode` `END` ends the paused step (its tasks count as done); `"__copy__"` forks the
 *   checkpoint (then applies `values` if they are `[values, asNode]` pairs); `"__input__"` applies
 *   the values as new graph input.
 */
export async function bulkUpdateThreadState(
  graph: StateGraphView,
  saver: BaseCheckpointSaver,
  config: RunnableConfig,
  supersteps: readonly { updates: readonly StateUpdate[] }[],
): Promise<RunnableConfig> {
  if (supersteps.length === 0) throw new InvalidUpdateError("No supersteps provided");
  if (supersteps.some((superstep) => superstep.updates.length === 0))
    throw new InvalidUpdateError("No updates provided");
  // a thread is needed to save the update: the saver's own error, before anything is read
  const missingThread = threadIdErrorFor(saver, config);
  if (missingThread !== undefined) throw missingThread;
  let current = config;
  let first = true;
  for (const { updates } of supersteps) {
    current = await updateSuperstep(graph, saver, current, updates, first);
    first = false;
  }
  return current;
}

async function updateSuperstep(
  graph: StateGraphView,
  saver: BaseCheckpointSaver,
  config: RunnableConfig,
  updates: readonly StateUpdate[],
  first: boolean,
): Promise<RunnableConfig> {
  const tuple = await saver.getTuple(config);
  const threadId = String(config.configurable?.thread_id ?? "");
  const ns = String(config.configurable?.checkpoint_ns ?? "");
  // the checkpoints of the graphs above this one: those the saved checkpoint names (a subgraph's
  // state read without `subgraphs: true` has no map), else the config's map, which also names
  // this one's own
  const parents = {
    ...(tuple?.metadata?.parents ??
      (config.configurable?.checkpoint_map as Record<string, string> | undefined) ??
      {}),
  };
  delete parents[ns];
  const [{ values, asNode } = { values: undefined }] = updates;
  const persistence = new LoopPersistence({
    saver,
    threadId,
    ns,
    // a copy is a sibling of the checkpoint it copies: it has the same parent
    // (an update of a checkpoint_id the thread does not have names that id as its parent, as in
    // LangGraph.js)
    checkpointId:
      asNode === COPY
        ? (tuple?.parentConfig?.configurable?.checkpoint_id as string | undefined)
        : (tuple?.checkpoint.id ?? (config.configurable?.checkpoint_id as string | undefined)),
    durability: "sync",
    parents,
  });
  const checkpoint = tuple === undefined ? emptyCheckpoint("") : copyCheckpoint(tuple.checkpoint);
  const step = typeof tuple?.metadata?.step === "number" ? tuple.metadata.step : -1;
  const channels = restoreChannels(graph, checkpoint.channel_values);
  const state = initialWriteState(checkpoint, channels);
  const channelValues = { ...checkpoint.channel_values };
  const nextVersion = (current: ChannelVersion | undefined) =>
    saver.getNextVersion(current as never) as ChannelVersion;
  const save = async (source: CheckpointSource, savedStep: number): Promise<RunnableConfig> => {
    persistence.saveCheckpoint(checkpoint, channels, state.changed, channelValues, source, savedStep);
    await persistence.flush();
    const saved = persistence.config;
    // a subgraph's checkpoint is named with those of the graphs above it, as getState names it
    if (Object.keys(parents).length === 0) return saved;
    const id = String(saved.configurable?.checkpoint_id ?? "");
    return { configurable: copyWith(saved.configurable, "checkpoint_map", copyWith(parents, ns, id)) };
  };

  if ((values === null || values === undefined) && asNode === undefined) {
    if (updates.length > 1)
      throw new InvalidUpdateError("Cannot create empty checkpoint with multiple updates");
    return save("update", step + 1);
  }
  if (values === null && asNode === END) {
    if (updates.length > 1) throw new InvalidUpdateError("Cannot apply multiple updates when clearing state");
    if (tuple !== undefined) applyPendingWrites(graph, tuple, checkpoint, channels, state, nextVersion, true);
    return save("update", step + 1);
  }
  if (asNode === COPY) {
    if (updates.length > 1) throw new InvalidUpdateError("Cannot copy checkpoint with multiple updates");
    if (tuple === undefined) throw new InvalidUpdateError("Cannot copy a non-existent checkpoint");
    for (const key in checkpoint.channel_versions) state.changed.add(key);
    const copied = await save("fork", step + 1);
    const pairs = copyUpdates(values);
    return pairs === undefined ? copied : updateSuperstep(graph, saver, copied, pairs, false);
  }
  if (asNode === INPUT) {
    if (updates.length > 1)
      throw new InvalidUpdateError("Cannot apply multiple updates when updating as input");
    const writes = mapInput(graph.inputChannels, values);
    if (writes.length === 0) {
      throw new InvalidUpdateError(
        `Received no input writes for ${JSON.stringify(graph.inputChannels, null, 2)}`,
      );
    }
    applyWrites(
      checkpoint,
      channels,
      [{ name: INPUT, path: [], triggers: [], writes }],
      nextVersion,
      graph.triggerToNodes,
      state,
    );
    return save("input", tuple === undefined ? -1 : step + 1);
  }

  const latest = first && config.configurable?.checkpoint_id === undefined;
  if (latest && tuple !== undefined && (tuple.pendingWrites?.length ?? 0) > 0) {
    applyPendingWrites(graph, tuple, checkpoint, channels, state, nextVersion, false);
  }
  const named: { values: unknown; asNode: string }[] = [];
  if (updates.length === 1) {
    named.push({ values, asNode: asNode ?? inferAsNode(graph, checkpoint) });
  } else {
    for (const update of updates) {
      if (update.asNode === undefined || update.asNode === null)
        throw new InvalidUpdateError('"asNode" is required when applying multiple updates');
      named.push({ values: update.values, asNode: update.asNode });
    }
  }
  const tasks = [];
  for (const [i, update] of named.entries()) {
    const spec = graph.nodes[update.asNode];
    if (spec === undefined || update.asNode === END) {
      throw new InvalidUpdateError(
        `Node ${JSON.stringify(update.asNode)} does not exist: updateState needs asNode to be one of the graph's nodes (${Object.keys(
          graph.nodes,
        )
          .filter((n) => n !== START)
          .map((n) => JSON.stringify(n))
          .join(", ")}).`,
      );
    }
    const writes: [string, unknown][] = [];
    if (spec.writers !== undefined) {
      const task = {
        name: update.asNode,
        writes,
        config: { configurable: { thread_id: threadId, checkpoint_ns: ns } },
        readFresh: (keys: readonly string[]) => readWithWrites(channels, keys, writes),
      } as unknown as RunningTask;
      await spec.writers(update.values, task);
    }
    // an update is a task of its own step: like any step, it ends the triggers nobody wrote again
    tasks.push({ name: update.asNode, path: [INTERRUPT, i], triggers: [INTERRUPT], writes });
  }
  applyWrites(checkpoint, channels, tasks, nextVersion, graph.triggerToNodes, state);
  return save("update", step + 1);
}

/** The `[values, asNode]` pairs a `"__copy__"` update may carry, as updates. */
function copyUpdates(values: unknown): StateUpdate[] | undefined {
  if (!Array.isArray(values) || values.length === 0) return undefined;
  if (!values.every((pair) => Array.isArray(pair) && pair.length === 2)) return undefined;
  return values.map(([pairValues, pairNode]: unknown[]) => ({
    values: pairValues,
    asNode: typeof pairNode === "string" ? pairNode : undefined,
  }));
}
