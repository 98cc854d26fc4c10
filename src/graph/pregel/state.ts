import type { RunnableConfig } from "../../shared/index.js";
import {
  applyWrites,
  type Channels,
  initialWriteState,
  prepareNextTasks,
  readChannels,
  readWithWrites,
} from "../algorithm/index.js";
import type { BaseChannel } from "../channels/index.js";
import {
  type BaseCheckpointSaver,
  type CheckpointMetadata,
  type CheckpointTuple,
  copyCheckpoint,
  emptyCheckpoint,
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
  RETURN,
  START,
} from "../core/index.js";
import {
  groupSavedWrites,
  LoopPersistence,
  mapInput,
  type PregelNode,
  type RunningTask,
  taskResultPayload,
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
  const noVersion = () => 0;
  const nullWrites = (tuple.pendingWrites ?? [])
    .filter(([taskId]) => taskId === NULL_TASK_ID)
    .map(([, channel, value]): [string, unknown] => [channel, value]);
  if (nullWrites.length > 0) {
    applyWrites(
      checkpoint,
      channels,
      [{ name: INPUT, path: [], triggers: [], writes: nullWrites }],
      noVersion,
      graph.triggerToNodes,
      writeState,
    );
  }
  const metadata = tuple.metadata;
  const step = typeof metadata?.step === "number" ? metadata.step + 1 : 0;
  const ns = String(tuple.config.configurable?.checkpoint_ns ?? "");
  const threadId = tuple.config.configurable?.thread_id;
  const tasks = prepareNextTasks(checkpoint, graph.nodes, channels, {
    step,
    parentNs: ns,
    updatedChannels: undefined,
    triggerToNodes: graph.triggerToNodes,
    deterministicIds: true,
  });
  const saved = groupSavedWrites(tuple.pendingWrites ?? [], NULL_TASK_ID, RESUME);
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
    const description: PregelTaskDescription = { id: task.id, name: task.name, path: task.path, interrupts };
    if (error !== undefined) description.error = error;
    if (output.length > 0) {
      const returned = output.find(([c]) => c === RETURN);
      description.result =
        returned !== undefined
          ? returned[1]
          : taskResultPayload(
              { ...task, writes: output } as unknown as RunningTask,
              graph.streamChannels,
              undefined,
            ).result;
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
    if (task.node.subgraphs !== undefined && task.node.subgraphs.length > 0) {
      const childConfig: RunnableConfig = {
        configurable: { thread_id: threadId, checkpoint_ns: task.checkpointNs },
      };
      const nested = withSubgraphs ? await subgraphState(task.node, childConfig) : undefined;
      description.state = nested ?? childConfig;
    }
    descriptions.push(description);
  }
  if (finished.length > 0) {
    applyWrites(checkpoint, channels, finished as never, noVersion, graph.triggerToNodes, writeState);
  }
  const parents = metadata?.parents;
  const snapshotConfig: RunnableConfig =
    parents !== undefined && Object.keys(parents).length > 0
      ? {
          configurable: {
            ...tuple.config.configurable,
            checkpoint_map: { ...parents, [ns]: checkpoint.id },
          },
        }
      : tuple.config;
  const snapshot: StateSnapshot = {
    values: readValues(graph, channels),
    next,
    config: snapshotConfig,
    metadata: metadata === undefined ? undefined : { ...metadata, thread_id: threadId },
    createdAt: checkpoint.ts,
    parentConfig: tuple.parentConfig,
    tasks: descriptions,
  };
  return snapshot;
}

/** The node an update is attributed to when the caller names none. */
function inferAsNode(graph: StateGraphView, tuple: CheckpointTuple | undefined): string {
  const names = Object.keys(graph.nodes).filter((n) => n !== START);
  if (names.length === 1) return names[0] as string;
  const seen = tuple?.checkpoint.versions_seen ?? {};
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

/**
 * Applies `values` to the thread's state as if node `asNode` had returned them (its edges and
 * routers decide what runs next), and saves the result as a new checkpoint (`source: "update"`).
 * `asNode` `"__copy__"` forks the checkpoint unchanged; `"__input__"` applies the values as new
 * graph input.
 */
export async function updateThreadState(
  graph: StateGraphView,
  saver: BaseCheckpointSaver,
  config: RunnableConfig,
  values: unknown,
  asNode: string | undefined,
): Promise<RunnableConfig> {
  const tuple = await saver.getTuple(config);
  const threadId = String(config.configurable?.thread_id ?? "");
  const ns = String(config.configurable?.checkpoint_ns ?? "");
  const parents = (config.configurable?.checkpoint_map as Record<string, string> | undefined) ?? {};
  const persistence = new LoopPersistence({
    saver,
    threadId,
    ns,
    // a copy is a sibling of the checkpoint it copies: it has the same parent
    checkpointId:
      asNode === COPY
        ? (tuple?.parentConfig?.configurable?.checkpoint_id as string | undefined)
        : tuple?.checkpoint.id,
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

  if (asNode === COPY) {
    for (const key in checkpoint.channel_versions) state.changed.add(key);
    persistence.saveCheckpoint(checkpoint, channels, state.changed, channelValues, "fork", step + 1);
    await persistence.flush();
    return persistence.config;
  }
  if (asNode === INPUT) {
    const writes = mapInput(graph.inputChannels, values);
    applyWrites(
      checkpoint,
      channels,
      [{ name: INPUT, path: [], triggers: [], writes }],
      nextVersion,
      graph.triggerToNodes,
      state,
    );
    persistence.saveCheckpoint(
      checkpoint,
      channels,
      state.changed,
      channelValues,
      "input",
      tuple === undefined ? -1 : step + 1,
    );
    await persistence.flush();
    return persistence.config;
  }
  const node = asNode ?? inferAsNode(graph, tuple);
  const spec = graph.nodes[node];
  if (spec === undefined || node === END) {
    throw new InvalidUpdateError(
      `Node ${JSON.stringify(node)} does not exist: updateState needs asNode to be one of the graph's nodes (${Object.keys(
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
      name: node,
      writes,
      config: { configurable: { thread_id: threadId, checkpoint_ns: ns } },
      readFresh: (keys: readonly string[]) => readWithWrites(channels, keys, writes),
    } as unknown as RunningTask;
    await spec.writers(values, task);
  }
  const seenBefore = checkpoint.versions_seen[node];
  applyWrites(
    checkpoint,
    channels,
    [{ name: node, path: [], triggers: [], writes }],
    nextVersion,
    graph.triggerToNodes,
    state,
  );
  // the node counts as having seen its triggers: it does not run again on the state it "produced"
  const seen: Record<string, ChannelVersion> = { ...seenBefore };
  for (const trigger of spec.triggers) {
    const version = checkpoint.channel_versions[trigger];
    if (version !== undefined) seen[trigger] = version;
  }
  checkpoint.versions_seen[node] = seen;
  persistence.saveCheckpoint(checkpoint, channels, state.changed, channelValues, "update", step + 1);
  await persistence.flush();
  return persistence.config;
}
