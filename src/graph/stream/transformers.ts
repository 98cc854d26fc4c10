/**
 * The built-in transformers of a v3 run stream: values (`run.values` / `run.output`), messages
 * (`run.messages`), subgraph discovery (`run.subgraphs`) and lifecycle (`run.lifecycle` and the
 * `lifecycle` events).
 */

import { hasPrefix, nsKey } from "../../shared/index.js";
import { ChatModelStreamImpl } from "./chat-model-stream.js";
import type {
  NativeStreamTransformer,
  StreamEmitter,
  StreamMux,
  StreamTransformer,
  SubgraphDiscovery,
} from "./mux.js";
import {
  type AgentStatus,
  isRecord,
  type LifecycleCause,
  type LifecycleData,
  type MessagesEventData,
  type Namespace,
  type ProtocolEvent,
} from "./protocol.js";
import { StreamChannel } from "./stream-channel.js";

/** A message of `run.messages`: a {@link ChatModelStreamImpl} with the namespace and node it came from. */
export type ChatModelStreamHandle = ChatModelStreamImpl & {
  /** Namespace of the node task that produced the message. */
  readonly namespace: Namespace;
  /** The graph node that produced the message, when known. */
  readonly node: string | undefined;
};

/**
 * What `run.messages` yields: a {@link ChatModelStreamHandle} typed without its `then`, as in
 * LangGraph.js. `for await` types its loop variable as the awaited value, so a thenable item would
 * be typed as the message it resolves to instead of the stream; the object is the same.
 */
export type ChatModelStreamItem = Omit<ChatModelStreamHandle, "then">;

/** A `lifecycle` entry, as `run.lifecycle` yields it. */
export interface LifecycleEntry extends LifecycleData {
  readonly namespace: Namespace;
  readonly timestamp: number;
}

/** Options of {@link createLifecycleTransformer}. */
export interface LifecycleTransformerOptions {
  /** `graph_name` of the root (default `"root"`). */
  rootGraphName?: string;
  /** Status the root starts with (default `"running"`). */
  initialStatus?: AgentStatus;
  /** Emit the root's first status as an event when registered (default true). */
  emitRootOnRegister?: boolean;
  /** `graph_name` of a namespace (default: its last segment without the task id). */
  getGraphName?: (ns: Namespace) => string;
  /** Terminal status to report instead of `completed` / `interrupted`. */
  getTerminalStatusOverride?: () => Promise<AgentStatus | undefined>;
  /** Text of the `error` of a `failed` entry (default: the error's message). */
  serializeError?: (error: unknown) => string;
}

/** Projection of {@link createLifecycleTransformer}. */
export interface LifecycleProjection {
  _lifecycleLog: StreamChannel<LifecycleEntry>;
  lifecycle: AsyncIterable<LifecycleEntry>;
}

/** Options of {@link createSubgraphDiscoveryTransformer}. */
export interface SubgraphDiscoveryTransformerOptions<TStream = unknown> {
  /** Makes the stream handle of a newly seen subgraph namespace. */
  createStream: (path: Namespace, discoveryStart: number, eventStart: number) => TStream;
}

/** Projection of {@link createSubgraphDiscoveryTransformer}. */
export interface SubgraphDiscoveryProjection<TStream = unknown> {
  _discoveries: StreamChannel<SubgraphDiscovery<TStream>>;
  subgraphs: AsyncIterable<TStream>;
}

/** Projection of {@link createValuesTransformer}. */
export interface ValuesTransformerProjection {
  _valuesLog: StreamChannel<unknown>;
}

/** Projection of {@link createMessagesTransformer}. */
export interface MessagesTransformerProjection {
  messages: AsyncIterable<ChatModelStreamItem>;
}

/** Async iterable over `log` from `startAt`, keeping what `pick` maps to a value. */
function filtered<TIn, TOut>(
  log: StreamChannel<TIn>,
  startAt: number,
  pick: (item: TIn) => { value: TOut } | undefined,
): AsyncIterable<TOut> {
  return {
    [Symbol.asyncIterator]() {
      const base = log.iterate(startAt);
      return {
        async next(): Promise<IteratorResult<TOut>> {
          while (true) {
            const result = await base.next();
            if (result.done === true) return { value: undefined, done: true };
            const picked = pick(result.value);
            if (picked !== undefined) return { value: picked.value, done: false };
          }
        },
      };
    },
  };
}

/** The `values` snapshots of namespace `path` exactly (not of its subgraphs), in a local channel. */
export function createValuesTransformer(path: Namespace): StreamTransformer<ValuesTransformerProjection> {
  const log = StreamChannel.local<unknown>();
  return {
    init: () => ({ _valuesLog: log }),
    process(event) {
      const ns = event.params.namespace;
      if (event.method === "values" && ns.length === path.length && hasPrefix(ns, path)) {
        log.push(event.params.data);
      }
      return true;
    },
    finalize: () => log.close(),
    fail: (error) => log.fail(error),
  };
}

/** Key grouping the events of one message: its model run, else its id. */
function messageKey(data: MessagesEventData): string {
  if (typeof data.run_id === "string") return `run:${data.run_id}`;
  if (data.event === "message-start" && typeof data.id === "string") return `message:${data.id}`;
  return "__default__";
}

/**
 * Groups the `messages` events of the node tasks directly under `path` (optionally of one node
 * only) into one {@link ChatModelStreamImpl} per message, from `message-start` to `message-finish`
 * with its content blocks and errors (not its `usage` and `provider` events). Tool messages are
 * left out.
 */
export function createMessagesTransformer(
  path: Namespace,
  nodeFilter?: string,
): StreamTransformer<MessagesTransformerProjection> {
  const log = StreamChannel.local<ChatModelStreamHandle>();
  const active = new Map<string, StreamChannel<MessagesEventData>>();
  const ignored = new Set<string>();
  return {
    init: () => ({ messages: log.toAsyncIterable() }),
    process(event) {
      if (event.method !== "messages") return true;
      const ns = event.params.namespace;
      if (ns.length !== path.length + 1 || !hasPrefix(ns, path)) return true;
      if (nodeFilter !== undefined && event.params.node !== nodeFilter) return true;
      const data = event.params.data as MessagesEventData;
      const key = messageKey(data);
      switch (data.event) {
        case "message-start": {
          if (data.role === "tool") {
            ignored.add(key);
            break;
          }
          const source = StreamChannel.local<MessagesEventData>();
          const stream = Object.assign(new ChatModelStreamImpl(source.toAsyncIterable()), {
            namespace: ns,
            node: event.params.node,
          });
          active.set(key, source);
          source.push(data);
          log.push(stream);
          break;
        }
        case "message-finish": {
          if (ignored.delete(key)) break;
          const source = active.get(key);
          if (source !== undefined) {
            source.push(data);
            source.close();
            active.delete(key);
          }
          break;
        }
        case "content-block-start":
        case "content-block-delta":
        case "content-block-finish":
        case "error":
          if (!ignored.has(key)) active.get(key)?.push(data);
          break;
        default:
          // `usage` snapshots and `provider` events stay on the run's `messages` channel: a
          // message's stream has its usage from `message-start` and `message-finish`, as in
          // LangGraph.js
          break;
      }
      return true;
    },
    finalize() {
      for (const source of active.values()) {
        source.push({ event: "message-finish" });
        source.close();
      }
      active.clear();
      ignored.clear();
      log.close();
    },
    fail(error) {
      for (const source of active.values()) source.fail(error);
      active.clear();
      ignored.clear();
      log.fail(error);
    },
  };
}

/** The subgraph streams of `log` that are direct children of `path`, from `startAt`. */
export function filterSubgraphHandles<TStream>(
  log: StreamChannel<SubgraphDiscovery<TStream>>,
  path: Namespace,
  startAt = 0,
): AsyncIterable<TStream> {
  return filtered(log, startAt, ({ ns, stream }) =>
    ns.length === path.length + 1 && hasPrefix(ns, path) ? { value: stream } : undefined,
  );
}

/**
 * Announces a stream handle (made by `options.createStream`) for each new top-level namespace
 * (`["<node>:<taskId>"]`) the run's events come from, on the mux's discovery log.
 */
export function createSubgraphDiscoveryTransformer<TStream>(
  mux: StreamMux,
  options: SubgraphDiscoveryTransformerOptions<TStream>,
): NativeStreamTransformer<SubgraphDiscoveryProjection<TStream>> {
  const seen = new Set<string>();
  const discoveries = mux.discoveries as StreamChannel<SubgraphDiscovery<TStream>>;
  return {
    __native: true,
    init: () => ({ _discoveries: discoveries, subgraphs: filterSubgraphHandles(discoveries, [], 0) }),
    process(event) {
      const top = event.params.namespace.slice(0, 1);
      if (top.length === 0) return true;
      const key = nsKey(top);
      if (seen.has(key)) return true;
      seen.add(key);
      const stream = options.createStream(top, discoveries.size, mux.events.size);
      const settleable = stream as { settleOutput?: unknown };
      if (typeof settleable.settleOutput === "function") {
        mux.register(top, stream as unknown as Parameters<StreamMux["register"]>[1]);
      }
      discoveries.push({ ns: top, stream });
      return true;
    },
  };
}

/** The entries of `log` within the subtree at `path`, from `startAt`. */
export function filterLifecycleEntries(
  log: StreamChannel<LifecycleEntry>,
  path: Namespace,
  startAt = 0,
): AsyncIterable<LifecycleEntry> {
  return filtered(log, startAt, (entry) => (hasPrefix(entry.namespace, path) ? { value: entry } : undefined));
}

function defaultGraphName(ns: Namespace): string {
  const last = ns[ns.length - 1];
  if (last === undefined) return "root";
  const colon = last.indexOf(":");
  return colon === -1 ? last : last.slice(0, colon);
}

function defaultSerializeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

interface NamespaceRecord {
  namespace: Namespace;
  graphName: string;
  status: AgentStatus | undefined;
}

interface PendingCompletion {
  namespace: Namespace;
  /** A node's update (dropped if the node's task result comes first), or a task result. */
  source: { type: "node"; parent: Namespace; node: string } | { type: "task" };
}

/**
 * Tracks the status of the run and of every namespace its events come from: the root starts
 * `running`; a namespace is `started` at its first event and `completed` once its parent
 * reports the node's update or task result (just after that event); at the end, whatever is
 * still started ends with the run (`completed`, `interrupted` or `failed`, with the error).
 * Each change is a `lifecycle` event and a {@link LifecycleEntry}.
 */
export function createLifecycleTransformer(
  options: LifecycleTransformerOptions = {},
): NativeStreamTransformer<LifecycleProjection> {
  const rootGraphName = options.rootGraphName ?? "root";
  const initialStatus = options.initialStatus ?? "running";
  const emitRootOnRegister = options.emitRootOnRegister ?? true;
  const graphNameOf = options.getGraphName ?? defaultGraphName;
  const serializeError = options.serializeError ?? defaultSerializeError;
  const statusOverride = options.getTerminalStatusOverride;
  const log = StreamChannel.local<LifecycleEntry>();
  const records = new Map<string, NamespaceRecord>();
  const causes = new Map<string, LifecycleCause>();
  const agentNames = new Map<string, string | undefined>();
  const toolCallOfTask = new Map<string, string>();
  const pendingInterrupts = new Set<string>();
  const pending: PendingCompletion[] = [];
  let emitter: StreamEmitter | undefined;
  let emitting = 0;
  let ended = false;

  const nameOf = (ns: Namespace): string => {
    if (ns.length === 0) return rootGraphName;
    const agent = agentNames.get(nsKey(ns));
    return agent !== undefined && agent !== "" ? agent : graphNameOf(ns);
  };

  const toolCallCause = (ns: Namespace): LifecycleCause | undefined => {
    const agent = agentNames.get(nsKey(ns));
    const last = ns[ns.length - 1];
    if (agent === undefined || agent === "" || last === undefined) return undefined;
    const colon = last.indexOf(":");
    if (colon === -1) return undefined;
    const toolCallId = toolCallOfTask.get(last.slice(colon + 1));
    return toolCallId === undefined || toolCallId === ""
      ? undefined
      : { type: "toolCall", tool_call_id: toolCallId };
  };

  const emit = (
    ns: Namespace,
    status: AgentStatus,
    extras?: { cause?: LifecycleCause; error?: string },
  ): void => {
    const key = nsKey(ns);
    let record = records.get(key);
    const graphName = record?.graphName ?? nameOf(ns);
    if (record !== undefined && record.status === status && extras?.error === undefined) return;
    if (record === undefined) {
      record = { namespace: ns, graphName, status };
      records.set(key, record);
    } else {
      record.status = status;
    }
    const data: LifecycleData = {
      event: status,
      graph_name: graphName,
      ...(extras?.cause !== undefined ? { cause: extras.cause } : {}),
      ...(extras?.error !== undefined ? { error: extras.error } : {}),
    };
    const timestamp = Date.now();
    log.push({ namespace: ns, timestamp, ...data });
    if ((ns.length === 0 && !emitRootOnRegister) || emitter === undefined) return;
    emitting += 1;
    try {
      emitter.push(ns, {
        type: "event",
        seq: 0,
        method: "lifecycle",
        params: { namespace: ns, timestamp, data },
      });
    } finally {
      emitting -= 1;
    }
  };

  const track = (ns: Namespace): void => {
    const key = nsKey(ns);
    if (!records.has(key)) records.set(key, { namespace: ns, graphName: nameOf(ns), status: undefined });
  };

  const ensureStarted = (ns: Namespace): void => {
    for (let length = 1; length <= ns.length; length += 1) {
      const prefix = ns.slice(0, length);
      if (records.has(nsKey(prefix))) continue;
      track(prefix);
      const cause = causes.get(nsKey(prefix)) ?? toolCallCause(prefix);
      emit(prefix, "started", cause === undefined ? undefined : { cause });
    }
  };

  const isStarted = (ns: Namespace): boolean => records.get(nsKey(ns))?.status === "started";

  const flush = (): void => {
    for (const completion of pending.splice(0)) {
      if (isStarted(completion.namespace)) emit(completion.namespace, "completed");
    }
  };

  const enqueue = (completion: PendingCompletion): void => {
    if (!isStarted(completion.namespace)) return;
    const key = nsKey(completion.namespace);
    if (pending.some((p) => nsKey(p.namespace) === key)) return;
    pending.push(completion);
  };

  const startedChild = (parent: Namespace, matches: (segment: string) => boolean): Namespace | undefined => {
    for (const record of records.values()) {
      const ns = record.namespace;
      const last = ns[ns.length - 1];
      if (ns.length !== parent.length + 1 || record.status !== "started" || last === undefined) continue;
      if (hasPrefix(ns, parent) && matches(last)) return ns;
    }
    return undefined;
  };

  const recordTaskStart = (ns: Namespace, data: unknown): void => {
    if (!isRecord(data)) return;
    const key = nsKey(ns);
    if (!agentNames.has(key)) {
      const agent = isRecord(data.metadata) ? data.metadata.lc_agent_name : undefined;
      agentNames.set(key, typeof agent === "string" ? agent : undefined);
    }
    if (typeof data.id !== "string") return;
    const input = data.input;
    let toolCallId: string | undefined;
    if (isRecord(input) && isRecord(input.tool_call) && typeof input.tool_call.id === "string") {
      toolCallId = input.tool_call.id;
    } else if (Array.isArray(input)) {
      const call = input.find((c): c is { id: string } => isRecord(c) && typeof c.id === "string");
      toolCallId = call?.id;
    }
    if (toolCallId !== undefined) toolCallOfTask.set(data.id, toolCallId);
  };

  const end = (status: AgentStatus): void => {
    for (const record of records.values()) {
      if (record.namespace.length > 0 && record.status === "started") emit(record.namespace, status);
    }
    emit([], status);
    log.close();
  };

  const terminalStatus = (): AgentStatus => (pendingInterrupts.size > 0 ? "interrupted" : "completed");

  return {
    __native: true,
    init: () => ({ _lifecycleLog: log, lifecycle: filterLifecycleEntries(log, [], 0) }),
    onRegister(handle) {
      emitter = handle;
      track([]);
      if (emitRootOnRegister) emit([], initialStatus);
    },
    process(event: ProtocolEvent) {
      if (emitting > 0) return true;
      const ns = event.params.namespace;
      const data = event.params.data;
      const taskResult =
        event.method === "tasks" &&
        isRecord(data) &&
        "result" in data &&
        typeof data.name === "string" &&
        typeof data.id === "string" &&
        !data.name.startsWith("__")
          ? { name: data.name, id: data.id }
          : undefined;
      if (taskResult !== undefined) {
        // the node's task result came first: its update no longer completes the child
        for (let i = pending.length - 1; i >= 0; i -= 1) {
          const source = (pending[i] as PendingCompletion).source;
          if (
            source.type === "node" &&
            source.node === taskResult.name &&
            nsKey(source.parent) === nsKey(ns)
          ) {
            pending.splice(i, 1);
          }
        }
      } else if (event.method === "tasks") {
        recordTaskStart(ns, data);
      }
      flush();
      if (event.method === "lifecycle") {
        // a lifecycle event from elsewhere only lends its cause: this transformer reports statuses
        if (
          isRecord(data) &&
          data.event === "started" &&
          isRecord(data.cause) &&
          typeof data.cause.type === "string"
        ) {
          causes.set(nsKey(ns), data.cause as LifecycleCause);
        }
        ensureStarted(ns);
        return false;
      }
      ensureStarted(ns);
      if (
        event.method === "input" &&
        isRecord(data) &&
        data.event === "requested" &&
        typeof data.id === "string"
      ) {
        pendingInterrupts.add(data.id);
      }
      if (taskResult !== undefined) {
        const child = [...ns, `${taskResult.name}:${taskResult.id}`];
        if (isStarted(child)) enqueue({ namespace: child, source: { type: "task" } });
      }
      const node = event.params.node;
      if (event.method === "updates" && typeof node === "string" && !node.startsWith("__")) {
        const child = startedChild(ns, (segment) => segment === node || segment.startsWith(`${node}:`));
        if (child !== undefined) enqueue({ namespace: child, source: { type: "node", parent: ns, node } });
      }
      return true;
    },
    finalize() {
      if (ended) return;
      ended = true;
      flush();
      if (statusOverride === undefined) {
        end(terminalStatus());
        return;
      }
      return statusOverride()
        .then(
          (status) => status ?? terminalStatus(),
          () => terminalStatus(),
        )
        .then(end, (error: unknown) => log.fail(error));
    },
    fail(error) {
      if (ended) return;
      ended = true;
      for (const record of records.values()) {
        if (record.namespace.length > 0 && record.status === "started") emit(record.namespace, "failed");
      }
      emit([], "failed", { error: serializeError(error) });
      log.fail(error);
    },
  };
}
