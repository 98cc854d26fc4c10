import type { Checkpoint } from "../checkpoint/index.js";
import {
  compareVersions,
  InvalidUpdateError,
  isSend,
  PULL,
  PUSH,
  type Send,
  TASKS,
  uniqueId,
} from "../core/index.js";
import { taskId, taskNamespace } from "./task-id.js";
import type { Channels, NodeSpec, PreparedTask } from "./types.js";

/** What {@link prepareNextTasks} needs besides the checkpoint, nodes and channels. */
export interface PrepareTasksContext {
  /** The superstep the tasks will run in. */
  readonly step: number;
  /** Namespace of the graph being run (`""` for the root graph). */
  readonly parentNs: string;
  /**
   * Channels the previous superstep updated. Only nodes triggered by them are considered; when
   * unknown (the first step of a run) every node is.
   */
  readonly updatedChannels: ReadonlySet<string> | undefined;
  /** Nodes by trigger channel. */
  readonly triggerToNodes: Readonly<Record<string, readonly string[]>>;
  /**
   * Whether task ids must be deterministic (the run is persisted: saved writes find their task
   * by id after a restart). Otherwise cheaper process-unique ids are used.
   */
  readonly deterministicIds: boolean;
}

/**
 * The tasks of the next superstep: one PUSH task per `Send` written in the previous step (in
 * write order), then one PULL task per node that has a trigger channel newer than the version
 * the node last saw. Pure: reads the checkpoint and channels, changes nothing.
 */
export function prepareNextTasks<Node extends NodeSpec>(
  checkpoint: Checkpoint,
  nodes: Readonly<Record<string, Node>>,
  channels: Channels,
  context: PrepareTasksContext,
): PreparedTask<Node>[] {
  const tasks: PreparedTask<Node>[] = [];
  const sends = channels[TASKS];
  if (sends?.isAvailable()) {
    const packets = sends.get() as unknown[];
    for (let i = 0; i < packets.length; i++) {
      tasks.push(prepareSendTask(packets[i], i, checkpoint, nodes, context));
    }
  }
  // indexed loops here: this runs every step, mostly before the engine optimizes it, where each
  // `for…of` step allocates an iterator result
  const names = candidateNodes(nodes, context);
  for (let i = 0; i < names.length; i++) {
    const node = nodes[names[i] as string];
    if (node === undefined) continue;
    const task = preparePullTask(node, checkpoint, channels, context);
    if (task !== undefined) tasks.push(task);
  }
  return tasks;
}

function candidateNodes(
  nodes: Readonly<Record<string, NodeSpec>>,
  context: PrepareTasksContext,
): readonly string[] {
  const updated = context.updatedChannels;
  if (updated === undefined) return Object.keys(nodes);
  const triggerToNodes = context.triggerToNodes;
  if (updated.size === 1) {
    for (const channel of updated) return triggerToNodes[channel] ?? [];
  }
  const names = new Set<string>();
  updated.forEach((channel) => {
    const triggered = triggerToNodes[channel];
    if (triggered !== undefined) for (let i = 0; i < triggered.length; i++) names.add(triggered[i] as string);
  });
  return [...names].sort();
}

/** The first trigger of `node` whose version is newer than the one the node last ran on. */
export function newTrigger(node: NodeSpec, checkpoint: Checkpoint, channels: Channels): string | undefined {
  const seen = checkpoint.versions_seen[node.name];
  const versions = checkpoint.channel_versions;
  const triggers = node.triggers;
  for (let i = 0; i < triggers.length; i++) {
    const trigger = triggers[i] as string;
    const channel = channels[trigger];
    if (channel === undefined || !channel.isAvailable()) continue;
    const version = versions[trigger];
    if (version === undefined) continue;
    const seenVersion = seen?.[trigger];
    if (seenVersion === undefined || compareVersions(version, seenVersion) > 0) return trigger;
  }
  return undefined;
}

function preparePullTask<Node extends NodeSpec>(
  node: Node,
  checkpoint: Checkpoint,
  channels: Channels,
  context: PrepareTasksContext,
): PreparedTask<Node> | undefined {
  const trigger = newTrigger(node, checkpoint, channels);
  if (trigger === undefined) return undefined;
  const input = readNodeInput(node, channels);
  if (input === SKIP) return undefined;
  const name = node.name;
  const id = context.deterministicIds
    ? taskId(checkpoint.id, context.parentNs, context.step, name, `${PULL}\u0000${trigger}`)
    : uniqueId();
  return {
    id,
    name,
    path: [PULL, name],
    input,
    triggers: [trigger],
    node,
    checkpointNs: taskNamespace(context.parentNs, name, id),
    writes: [],
  };
}

function prepareSendTask<Node extends NodeSpec>(
  packet: unknown,
  index: number,
  checkpoint: Checkpoint,
  nodes: Readonly<Record<string, Node>>,
  context: PrepareTasksContext,
): PreparedTask<Node> {
  if (!isSend(packet)) {
    throw new InvalidUpdateError(
      `Invalid packet type, expected a Send, got ${JSON.stringify(packet)}. Only Send objects may be written to "${TASKS}".`,
    );
  }
  const send = packet as Send;
  const node = nodes[send.node];
  if (node === undefined) {
    throw new InvalidUpdateError(
      `Invalid node name "${send.node}" in Send packet. Send to one of the graph's nodes: ${Object.keys(nodes)
        .filter((n) => n !== "__start__")
        .map((n) => `"${n}"`)
        .join(", ")}.`,
    );
  }
  const id = context.deterministicIds
    ? taskId(checkpoint.id, context.parentNs, context.step, send.node, `${PUSH}\u0000${index}`)
    : uniqueId();
  const task: PreparedTask<Node> = {
    id,
    name: send.node,
    path: [PUSH, index, false],
    input: send.args,
    triggers: [PUSH],
    node,
    checkpointNs: taskNamespace(context.parentNs, send.node, id),
    writes: [],
  };
  // the Send's own timeout goes ahead of the node's (LangGraph.js: `packet.timeout ?? proc.timeout`)
  const timeout = send.timeout;
  return timeout === undefined ? task : { ...task, timeout };
}

const SKIP: unique symbol = Symbol("skip");

/**
 * The input of a PULL task: an object of the node's available channels (a missing trigger
 * channel skips the task), or the first available of a list of channels.
 */
function readNodeInput(node: NodeSpec, channels: Channels): unknown {
  const spec = node.channels;
  if (Array.isArray(spec)) {
    for (const key of spec as readonly string[]) {
      const channel = channels[key];
      if (channel?.isAvailable()) return channel.get();
    }
    return SKIP;
  }
  const input: Record<string, unknown> = {};
  const map = spec as Readonly<Record<string, string>>;
  for (const key in map) {
    const channelName = map[key] as string;
    const channel = channels[channelName];
    if (channel === undefined) continue;
    if (channel.isAvailable()) input[key] = channel.get();
    else if (node.triggers.includes(channelName)) return SKIP;
  }
  return input;
}
