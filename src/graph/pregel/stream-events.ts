import {
  type CallbackHandler,
  InvalidArgumentError,
  mergeOf,
  NODE_RUN_IDS,
  notifyHandlers,
  notifyRaising,
  randomId,
  recordEnsuredMetadata,
} from "../../shared/index.js";
import { isCheckpointSaver } from "../checkpoint/index.js";
import {
  CHECKPOINT_NAMESPACE_SEPARATOR,
  GraphInterrupt,
  INTERRUPT,
  type Interrupt,
  isGraphInterrupt,
  TAG_HIDDEN,
} from "../core/index.js";
import {
  gateNodeStart,
  HIDDEN_TASK_EVENT,
  type InnerRun,
  type InnerRunName,
  TASK_ATTEMPT_HOOKS,
  TASK_NOT_RUN,
  TASK_RUN_ERROR,
  TASK_RUN_INFO,
  TASK_RUN_METADATA,
  TASK_RUN_OUTPUT,
} from "../loop/index.js";
import {
  IterableReadableStream,
  normalizeStreamModes,
  type StreamMode,
  type StreamSink,
} from "../stream/index.js";
import { tokenChunk } from "./messages-stream.js";
import { METADATA_FROM_CONFIGURABLE } from "./run-config.js";
import { withCheckpointEnvelopes } from "./stream-events-v3.js";

/**
 * One event of `streamEvents` (LangChain.js's `StreamEvent`, schema v2): what started, streamed
 * or ended, with its run id, name, tags, metadata and data (`input`, `chunk`, `output`).
 *
 * - `on_chain_start` / `on_chain_stream` / `on_chain_end`: the graph (named after it,
 *   `"LangGraph"` by default; its stream chunks are what `stream()` yields by default) and each
 *   node it runs, in subgraphs too (`data.input`, then `data.output` and `data.input`);
 * - `on_chat_model_start` / `on_chat_model_stream` / `on_chat_model_end`: model calls made in
 *   nodes (`data.input.messages`, `data.chunk` an `AIMessageChunk`, `data.output`);
 * - `on_tool_start` / `on_tool_end` / `on_tool_error`: tool calls (`data.input`, `data.output`,
 *   `data.error` the error's message and stack as text, as LangChain.js's tracers record it).
 */
export interface StreamEvent {
  event: string;
  name: string;
  run_id: string;
  tags: string[];
  metadata: Record<string, unknown>;
  data: { input?: unknown; output?: unknown; chunk?: unknown; error?: unknown };
}

/**
 * A run's inputs or outputs as LangChain.js hands them to chain callbacks: an object as it is,
 * anything else (an array, a string, `null`, `undefined`…) under `key`.
 */
function runDict(value: unknown, key: "input" | "output"): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date)
    ? (value as Record<string, unknown>)
    : { [key]: value };
}

/** The `data` of a node's `on_chain_start`, from its inputs (LangChain.js's event stream unwraps `{ input }`). */
function startEventData(inputs: Record<string, unknown>): StreamEvent["data"] {
  if (inputs.input === "" && Object.keys(inputs).length === 1) return {};
  return { input: inputs.input !== undefined ? inputs.input : inputs };
}

/** The `data.input` of a node's `on_chain_end`, from its inputs. */
function endEventInput(inputs: Record<string, unknown>): unknown {
  return inputs.input && Object.keys(inputs).length === 1 ? inputs.input : inputs;
}

/** The `data.output` of an `on_chain_end`, from what the run returned (`{ output }` unwrapped). */
function endEventOutput(output: unknown): unknown {
  const outputs = runDict(output, "output");
  return outputs.output ?? outputs;
}

/** What a node returned, from its `task_result` debug payload (its writes when they were replayed). */
function nodeOutputOf(task: { result?: unknown }): unknown {
  return Object.hasOwn(task, TASK_RUN_OUTPUT)
    ? (task as { [TASK_RUN_OUTPUT]?: unknown })[TASK_RUN_OUTPUT]
    : task.result;
}

/** Options of `streamEvents`: the run's options, and the event schema version. */
export interface StreamEventsOptions {
  /** The event schema: `"v2"` (LangChain.js's current one) or `"v1"` (the same events here). */
  version: "v1" | "v2";
}

/** Which events to keep (LangChain.js's `streamEvents` filters); a run type is `chain`, `chat_model` or `tool`. */
export interface StreamEventsFilter {
  includeNames?: string[];
  includeTypes?: string[];
  includeTags?: string[];
  excludeNames?: string[];
  excludeTypes?: string[];
  excludeTags?: string[];
}

/** The private option through which `streamEvents` adds its callback handler to a run's stream. */
export const EVENTS_HANDLER: unique symbol = Symbol("agentgraph.streamEvents.handler") as never;

/**
 * The private option through which `streamEvents`, which runs the graph with `subgraphs: true`
 * to see every node, gives the `messages` stream the caller's `subgraphs` (without it, a nested
 * graph's messages stream as its parent node's, as `stream()` streams them).
 */
export const MESSAGES_SUBGRAPHS: unique symbol = Symbol("agentgraph.streamEvents.messagesSubgraphs") as never;

/** The stream "mode" the events handler reports under (never requested by users). */
const EVENTS_MODE = "events" as StreamMode;

interface RunInfo {
  name: string;
  tags: string[];
  metadata: Record<string, unknown>;
  input: unknown;
  /** The run's type for `streamEvents` filters (`chain` when not given). */
  type?: "chat_model" | "tool";
}

/**
 * The run an `on_custom_event` belongs to, which `streamEvents` filters read (as LangChain.js
 * filters a custom event by its run's name, type and tags, not by the event's name).
 */
const CUSTOM_EVENT_RUN: unique symbol = Symbol("agentgraph.streamEvents.customEventRun") as never;

/** Marks `event` as a custom event of the run named `name`, of type `type` (see {@link CUSTOM_EVENT_RUN}). */
function customEventOf(event: StreamEvent, name: string, type: string): StreamEvent {
  Object.defineProperty(event, CUSTOM_EVENT_RUN, { value: { name, type } });
  return event;
}

/** What `streamEvents` hears of the runs inside a node (see {@link ChainReporter}). */
export interface InnerRunEvents extends Pick<NestedGraphEvents, "nestedGraphStart" | "nestedGraphStopped"> {
  /**
   * A runnable inside a node (a routing function, an entrypoint's pluck), started and stopped as a
   * nested graph run is, ended: `on_chain_end` with its output as it is (a route, a plucked value).
   */
  innerRunEnd(runId: string, output: unknown): void;
  /**
   * A functional-API call returned (or failed): its end event comes as it returns, as in
   * LangChain.js, before what its caller does next (an entrypoint's plucks, say).
   */
  callSettled(taskId: string, error: unknown, output: unknown): void;
}

/** Marks the `events` chunk by which a call's end reaches `streamEvents` (see {@link InnerRunEvents.callSettled}). */
const CALL_SETTLED: unique symbol = Symbol("agentgraph.streamEvents.callSettled") as never;

interface CallSettled {
  [CALL_SETTLED]: true;
  id: string;
  failed: boolean;
  output: unknown;
}

/**
 * Marks the `events` chunk of a custom event dispatched in a node's run (`dispatchCustomEvent`):
 * the node's run is known to the event stream, which gives it the node's tags and metadata.
 */
const NODE_CUSTOM_EVENT: unique symbol = Symbol("agentgraph.streamEvents.nodeCustomEvent") as never;

interface NodeCustomEvent {
  [NODE_CUSTOM_EVENT]: true;
  runId: string;
  name: string;
  data: unknown;
}

/** What a nested graph run reports its start and end to (see {@link nestedGraphEventsOf}). */
export interface NestedGraphEvents {
  nestedGraphStart(
    runId: string,
    name: string,
    tags: string[],
    metadata: Record<string, unknown>,
    input: unknown,
  ): void;
  nestedGraphEnd(runId: string, output: unknown): void;
  nestedGraphStopped(runId: string): void;
}

/** Turns model and tool callbacks into events, reported through the run's stream (so they keep their order). */
export class EventsHandler implements CallbackHandler, NestedGraphEvents, InnerRunEvents {
  readonly name = "StreamEventsHandler";
  readonly lc_prefer_streaming = true;
  private readonly runs = new Map<string, RunInfo>();

  constructor(private readonly sink: StreamSink) {}

  private emit(event: string, runId: string, info: RunInfo, data: StreamEvent["data"]): void {
    const out: StreamEvent = {
      event,
      name: info.name,
      run_id: runId,
      tags: info.tags,
      metadata: info.metadata,
      data,
    };
    this.sink.push([], EVENTS_MODE, out);
  }

  handleChatModelStart(
    llm: { id: string[]; name?: string },
    messages: unknown[][],
    runId: string,
    _parentRunId?: string,
    _extra?: Record<string, unknown>,
    tags?: string[],
    metadata?: Record<string, unknown>,
    runName?: string,
  ): void {
    const info: RunInfo = {
      name: runName ?? llm.name ?? llm.id.at(-1) ?? "chat_model",
      tags: tags ?? [],
      metadata: metadata ?? {},
      input: { messages },
      type: "chat_model",
    };
    this.runs.set(runId, info);
    this.emit("on_chat_model_start", runId, info, { input: info.input });
  }

  handleLLMNewToken(
    token: string,
    _idx: unknown,
    runId: string,
    _parentRunId?: string,
    _tags?: string[],
    fields?: { chunk?: { message: unknown } },
  ): void {
    const info = this.runs.get(runId);
    if (info === undefined) return;
    // a token reported without its chunk streams as a chunk of its own, as in LangChain.js
    const chunk = fields?.chunk === undefined ? tokenChunk(token, `run-${runId}`) : fields.chunk.message;
    if (chunk === undefined) return;
    this.emit("on_chat_model_stream", runId, info, { chunk });
  }

  handleLLMEnd(output: { generations: { message: unknown }[][] }, runId: string): void {
    const info = this.runs.get(runId);
    if (info === undefined) return;
    this.runs.delete(runId);
    this.emit("on_chat_model_end", runId, info, {
      output: output.generations?.[0]?.[0]?.message,
      input: info.input,
    });
  }

  /**
   * A custom event of a run (a model's, a tool's, a node's): an `on_custom_event` named after it,
   * with the run's tags and metadata. A node's run is the event stream's own (see
   * {@link NodeCustomEvent}).
   */
  handleCustomEvent(eventName: string, data: unknown, runId: string): void {
    const info = this.runs.get(runId);
    if (info === undefined) {
      const event: NodeCustomEvent = { [NODE_CUSTOM_EVENT]: true, runId, name: eventName, data };
      this.sink.push([], EVENTS_MODE, event);
      return;
    }
    const event: StreamEvent = {
      event: "on_custom_event",
      name: eventName,
      run_id: runId,
      tags: info.tags,
      metadata: info.metadata,
      data: data as StreamEvent["data"],
    };
    this.sink.push([], EVENTS_MODE, customEventOf(event, info.name, info.type ?? "chain"));
  }

  /**
   * A graph run nested in a node (a compiled graph added as a node, or invoked inside a node's
   * function) starts: LangChain.js reports it as a chain run of its own, between the node's start
   * and its children, named after the nested graph, with the node's metadata and the run's
   * inherited tags.
   */
  nestedGraphStart(
    runId: string,
    name: string,
    tags: string[],
    metadata: Record<string, unknown>,
    input: unknown,
  ): void {
    const info: RunInfo = { name, tags, metadata, input: runDict(input, "input") };
    this.runs.set(runId, info);
    this.emit("on_chain_start", runId, info, startEventData(info.input as Record<string, unknown>));
  }

  /** The nested graph run ended with its output values (a run that failed or paused reports no end). */
  nestedGraphEnd(runId: string, output: unknown): void {
    const info = this.runs.get(runId);
    if (info === undefined) return;
    this.runs.delete(runId);
    this.emit("on_chain_end", runId, info, {
      output: endEventOutput(output ?? {}),
      input: endEventInput(info.input as Record<string, unknown>),
    });
  }

  /**
   * A runnable inside a node (a routing function, an entrypoint's pluck; see
   * {@link ChainReporter}), started by {@link nestedGraphStart}, ended: `on_chain_end` with its
   * output as it is (a route, a plucked value).
   */
  innerRunEnd(runId: string, output: unknown): void {
    const info = this.runs.get(runId);
    if (info === undefined) return;
    this.runs.delete(runId);
    const inputs = info.input as Record<string, unknown>;
    this.emit("on_chain_end", runId, info, { output, input: endEventInput(inputs) });
  }

  /** The nested graph run failed or paused: it has no end event, as in LangChain.js. */
  nestedGraphStopped(runId: string): void {
    this.runs.delete(runId);
  }

  callSettled(taskId: string, error: unknown, output: unknown): void {
    const settled: CallSettled = { [CALL_SETTLED]: true, id: taskId, failed: error !== undefined, output };
    this.sink.push([], EVENTS_MODE, settled);
  }

  /** A failed model call reports no event (LangChain.js has no `on_chat_model_error`). */
  handleLLMError(_error: unknown, runId: string): void {
    this.runs.delete(runId);
  }

  handleToolStart(
    tool: { id: string[] },
    input: string,
    runId: string,
    _parentRunId?: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
    runName?: string,
  ): void {
    let parsed: unknown = input;
    try {
      parsed = JSON.parse(input);
    } catch {
      // a string-input tool's input is its text
    }
    const info: RunInfo = {
      // LangChain.js names a run without a run name after the tool's class (a StructuredTool
      // subclass; the Dynamic tools' runs carry the tool's name)
      name: runName ?? tool.id[tool.id.length - 1] ?? "tool",
      tags: tags ?? [],
      metadata: metadata ?? {},
      input: parsed,
      type: "tool",
    };
    this.runs.set(runId, info);
    this.emit("on_tool_start", runId, info, { input: parsed });
  }

  handleToolEnd(output: unknown, runId: string): void {
    const info = this.runs.get(runId);
    if (info === undefined) return;
    this.runs.delete(runId);
    this.emit("on_tool_end", runId, info, { output, input: info.input });
  }

  handleToolError(error: unknown, runId: string): void {
    const info = this.runs.get(runId);
    if (info === undefined) return;
    this.runs.delete(runId);
    this.emit("on_tool_error", runId, info, { input: info.input, error: errorText(error) });
  }
}

/** The `streamEvents` handler among a nested run's callbacks, which reports that run (else `undefined`). */
export function nestedGraphEventsOf(
  callbacks: readonly CallbackHandler[] | undefined,
): NestedGraphEvents | undefined {
  if (callbacks === undefined) return undefined;
  for (const handler of callbacks) if (handler instanceof EventsHandler) return handler;
  return undefined;
}

/** An error as LangChain.js's tracers record it: the message, then the stack. */
function errorText(error: unknown): string {
  if (error instanceof Error) return error.stack ? `${error.message}\n\n${error.stack}` : error.message;
  return String(error);
}

/** What `streamEvents` needs from the graph. */
export interface EventSource {
  readonly name: string | undefined;
  /** The modes `stream()` uses when the call names none (the graph's `on_chain_stream` chunks). */
  readonly streamMode?: StreamMode;
  /** The graph's `withConfig` defaults (their callbacks hear the chain events too). */
  readonly config?:
    | {
        callbacks?: CallbackHandler[];
        metadata?: Record<string, unknown>;
        tags?: string[];
        runName?: string;
        configurable?: Record<string, unknown>;
      }
    | undefined;
  /** The graph's checkpointer (`stream()`'s `checkpoints` envelopes describe its checkpoints). */
  readonly checkpointer?: unknown;
  /** The run's stream; cancelling it stops the run. */
  stream(input: unknown, options: Record<string | symbol, unknown>): Promise<RunChunks>;
}

/** What {@link EventSource.stream} resolves to. */
type RunChunks = AsyncIterable<unknown> & { cancel(reason?: unknown): Promise<void> };

/**
 * Namespace segments (`node:<taskId>`) of nodes running a nested graph given callbacks of its
 * own, which replace the node's: chain reporters above them skip that graph's chunks.
 */
export const DETACHED_SEGMENTS = new Set<string>();

/**
 * The run id of the graph run nested in a node (a compiled graph added as a node, or one invoked
 * in a node's function), by the node's task's `executionInfo`, while it runs: chain callbacks
 * hear the nested graph's nodes as its children, as in LangChain.js.
 */
const NESTED_GRAPH_RUN_IDS = new WeakMap<object, string>();

/** What a graph run nested in a reported node tells chain callbacks as it ends. */
export interface NestedGraphChainRun {
  end(output: unknown): void;
  error(error: unknown): void;
}

/**
 * Reports a graph run nested in a node to the chain callbacks that hear that node (a run of its
 * own, the node's child, named after the graph, with the node's tags and metadata), as
 * LangChain.js reports it; `undefined` when no chain callback hears the node.
 */
export function nestedGraphChainRun(
  className: string,
  name: string,
  config: {
    callbacks?: readonly CallbackHandler[] | undefined;
    tags?: string[] | undefined;
    metadata?: Record<string, unknown> | undefined;
  },
  task: object | undefined,
  input: unknown,
): NestedGraphChainRun | undefined {
  const info = (task as { config?: { executionInfo?: object } } | undefined)?.config?.executionInfo;
  if (info === undefined) return undefined;
  const parent = NODE_RUN_IDS.get(info);
  if (parent === undefined) return undefined;
  const handlers = chainHandlersOf(config.callbacks);
  if (handlers === undefined) return undefined;
  const runId = randomId();
  const tags = [...(config.tags ?? [])];
  NESTED_GRAPH_RUN_IDS.set(info, runId);
  notifyHandlers(
    handlers,
    "handleChainStart",
    graphSerialized(className),
    runDict(input, "input"),
    runId,
    parent,
    tags,
    { ...config.metadata },
    undefined,
    name,
    undefined,
  );
  return {
    end(output) {
      if (NESTED_GRAPH_RUN_IDS.get(info) === runId) NESTED_GRAPH_RUN_IDS.delete(info);
      notifyHandlers(handlers, "handleChainEnd", output ?? {}, runId, parent, tags, undefined);
    },
    error(error) {
      if (NESTED_GRAPH_RUN_IDS.get(info) === runId) NESTED_GRAPH_RUN_IDS.delete(info);
      notifyHandlers(handlers, "handleChainError", error, runId, parent, tags, undefined);
    },
  };
}

/** The handlers among `lists` that listen to chain events (`handleChainStart` / `End` / `Error`). */
export function chainHandlersOf(
  ...lists: (readonly CallbackHandler[] | undefined)[]
): CallbackHandler[] | undefined {
  let found: CallbackHandler[] | undefined;
  for (const list of lists) {
    if (list === undefined) continue;
    for (const handler of list) {
      if (
        handler.ignoreChain === true ||
        (typeof handler.handleChainStart !== "function" &&
          typeof handler.handleChainEnd !== "function" &&
          typeof handler.handleChainError !== "function")
      ) {
        continue;
      }
      found ??= [];
      if (!found.includes(handler)) found.push(handler);
    }
  }
  return found;
}

/** Why a task of a `task_result` debug event did not end: its error, or its interrupts as a `GraphInterrupt`. */
function taskFailure(task: {
  error?: unknown;
  interrupts?: Interrupt[];
  [TASK_RUN_ERROR]?: unknown;
}): unknown {
  // the error itself (the payload shows `{ message, name }`)
  if (task[TASK_RUN_ERROR] !== undefined) return task[TASK_RUN_ERROR];
  if (task.error !== undefined && task.error !== null) return task.error;
  return task.interrupts !== undefined && task.interrupts.length > 0
    ? new GraphInterrupt(task.interrupts)
    : undefined;
}

/** A graph as LangChain.js serializes it for chain callbacks (see `Pregel.drawnClassName`). */
function graphSerialized(className: string): { lc: number; type: string; id: string[] } {
  return { lc: 1, type: "not_implemented", id: ["langgraph", "pregel", className] };
}
const NODE_ID = ["langgraph", "RunnableCallable"];
/** A routing function as LangChain.js serializes it: the `RunnableLambda` it is wrapped in. */
const ROUTER = { lc: 1, type: "not_implemented", id: ["langchain_core", "runnables", "RunnableLambda"] };
/** An entrypoint's `pluckReturnValue` / `pluckSaveValue` as LangGraph.js serializes them. */
const PLUCK = { lc: 1, type: "not_implemented", id: ["langgraph", "RunnableCallable"] };

/**
 * Reports a root `invoke` run to chain callbacks: the graph's start and end (or error), and each
 * node's, from the run's `debug` chunks (`subgraphs: true`, so nodes of subgraphs too).
 */
export class ChainReporter {
  readonly runId: string;
  /** The node runs under way, by task id (each with the id its current run is reported under). */
  private readonly open = new Map<string, NodeRun>();
  /** A node failed: the run fails with its error, and the nodes still running were aborted. */
  private nodeFailed = false;
  /** How many leading segments of a chunk's namespace are the graph's own (known once a chunk came, for a nested run). */
  private baseDepth: number | undefined;

  constructor(
    private readonly handlers: readonly CallbackHandler[],
    /** The graph's class as LangChain.js serializes it (`CompiledStateGraph`, `LangGraph`…). */
    private readonly className: string,
    private readonly name: string,
    private readonly tags: string[],
    private readonly metadata: Record<string, unknown>,
    runId: string | undefined,
    /** A node's first run has its task's id (the run id of its `streamEvents` events). */
    private readonly taskIdsAsRunIds = false,
    /**
     * The graph runs nested in a node: its chunks' namespaces start with the namespace of its own
     * nodes, which its first chunk (one of its own nodes') shows.
     */
    nested = false,
    /** `streamEvents`' handler, which reports the runs inside nodes (it reports the nodes itself). */
    private readonly innerEvents?: InnerRunEvents,
  ) {
    this.baseDepth = nested ? undefined : 0;
    this.runId = runId ?? randomId();
  }

  /**
   * The run starts. A handler with `raiseError` and `awaitHandlers` that fails hearing it fails
   * the run before it does anything, as in LangChain.js: the result is then to wait for (`undefined`
   * when there is nothing to wait for), and so are {@link end}'s and {@link error}'s.
   */
  start(input: unknown): Promise<void> | undefined {
    return notifyRaising(
      this.handlers,
      "handleChainStart",
      graphSerialized(this.className),
      runDict(input, "input"),
      this.runId,
      undefined,
      this.tags,
      this.metadata,
      undefined,
      this.name,
      undefined,
    );
  }

  /** One chunk of the run's `[namespace, "debug", event]` stream. */
  chunk(fullNamespace: readonly string[], event: unknown): void {
    this.baseDepth ??= fullNamespace.length;
    const namespace = this.baseDepth === 0 ? fullNamespace : fullNamespace.slice(this.baseDepth);
    if (DETACHED_SEGMENTS.size > 0 && namespace.some((segment) => DETACHED_SEGMENTS.has(segment))) return;
    const { step, type, payload } = event as {
      step: number;
      type: string;
      payload: {
        id: string;
        name: string;
        input?: unknown;
        result?: unknown;
        error?: unknown;
        interrupts?: Interrupt[];
      };
    };
    if (type === "task" && !Object.hasOwn(payload, TASK_NOT_RUN)) {
      // a node of a subgraph is a child of the run of the node that runs the subgraph
      const parentTask = parentTaskOf(namespace);
      // the hidden `__start__` node's run is tagged hidden, and so are the runs inside it
      const inherited =
        (event as { [HIDDEN_TASK_EVENT]?: unknown })[HIDDEN_TASK_EVENT] === true
          ? [...this.tags, TAG_HIDDEN]
          : this.tags;
      const run: NodeRun = {
        runId: this.taskIdsAsRunIds ? payload.id : randomId(),
        parent: parentTask === undefined ? this.runId : this.parentOfNested(parentTask),
        tags: [`graph:step:${step}`, ...inherited],
        inherited,
        input: payload.input,
        name: payload.name,
        metadata: runMetadataOf(payload) ?? nodeMetadata(this.metadata, undefined, step, payload.name),
        ended: false,
        info: (payload as { [TASK_RUN_INFO]?: object })[TASK_RUN_INFO],
      };
      const taskId = payload.id;
      this.open.set(taskId, run);
      // registered by the task's own executionInfo: runs resumed from one checkpoint share task ids
      const info = run.info;
      if (info !== undefined) {
        NODE_RUN_IDS.set(info, run.runId);
        TASK_ATTEMPT_HOOKS.set(info, {
          failed: (error) => {
            run.ended = true;
            this.nodeEnded(run, error, undefined);
          },
          restarted: () => {
            run.runId = randomId();
            run.ended = false;
            NODE_RUN_IDS.set(info, run.runId);
            this.nodeStarted(run);
          },
          settled: (error, output) => {
            if (run.ended) return;
            run.ended = true;
            if (error !== undefined && !isGraphInterrupt(error)) this.nodeFailed = true;
            this.innerEvents?.callSettled(taskId, error, output);
            this.nodeEnded(run, error, output);
          },
          innerRunStarted: (name, input) => this.innerRunStarted(run, name, input),
        });
      }
      this.nodeStarted(run);
    } else if (type === "task_result") {
      const run = this.open.get(payload.id);
      if (run === undefined) return;
      this.forget(payload.id);
      // an interrupted node ends with its GraphInterrupt, as in LangGraph.js
      const error = taskFailure(payload);
      if (error !== undefined && !isGraphInterrupt(error)) this.nodeFailed = true;
      // a last attempt that failed before its retry started has been reported already
      if (!run.ended) this.nodeEnded(run, error, nodeOutputOf(payload));
    }
  }

  /** The run ended with `output`: the graph's output values (`undefined` when none was written). */
  end(output: unknown): Promise<void> | undefined {
    for (const taskId of [...this.open.keys()]) this.forget(taskId);
    return notifyRaising(
      this.handlers,
      "handleChainEnd",
      output ?? {},
      this.runId,
      undefined,
      this.tags,
      undefined,
    );
  }

  /**
   * The run failed (or was aborted): the nodes still running fail first, in the order they
   * started, then the graph.
   */
  error(error: unknown): Promise<void> | undefined {
    const nodeError = this.nodeFailed ? siblingAbortError() : error;
    for (const [taskId, run] of [...this.open]) {
      this.forget(taskId);
      if (!run.ended) this.nodeEnded(run, nodeError, undefined);
    }
    return notifyRaising(
      this.handlers,
      "handleChainError",
      error,
      this.runId,
      undefined,
      this.tags,
      undefined,
    );
  }

  private nodeStarted(run: NodeRun): void {
    const raised = notifyRaising(
      this.handlers,
      "handleChainStart",
      { lc: 1, type: "not_implemented", id: NODE_ID, name: run.name },
      runDict(run.input, "input"),
      run.runId,
      run.parent,
      run.tags,
      run.metadata,
      undefined,
      run.name,
      undefined,
    );
    // the node waits for it; failing, it fails the node, whose run never started (no chain error)
    if (raised === undefined || run.info === undefined) return;
    gateNodeStart(
      run.info,
      raised.catch((error: unknown) => {
        run.ended = true;
        this.nodeFailed = true;
        throw error;
      }),
    );
  }

  /** A runnable inside `node`'s run (a routing function, an entrypoint's pluck): a run of its own, its child. */
  private innerRunStarted(node: NodeRun, name: InnerRunName, input: unknown): InnerRun {
    const runId = randomId();
    const parent = node.runId;
    const router = name === "RunnableLambda";
    // an entrypoint's plucks are hidden runs (their own tag first, as LangGraph.js lists it)
    const tags = router ? [...node.inherited] : [TAG_HIDDEN, ...node.inherited];
    const handlers = this.handlers;
    const events = this.innerEvents;
    events?.nestedGraphStart(runId, name, tags, { ...node.metadata }, input);
    notifyHandlers(
      handlers,
      "handleChainStart",
      router ? ROUTER : PLUCK,
      runDict(input, "input"),
      runId,
      parent,
      tags,
      node.metadata,
      undefined,
      name,
      undefined,
    );
    return {
      end(output) {
        events?.innerRunEnd(runId, output);
        notifyHandlers(handlers, "handleChainEnd", runDict(output, "output"), runId, parent, tags, undefined);
      },
      error(error) {
        // a run that failed has no end event, as in LangChain.js
        events?.nestedGraphStopped(runId);
        notifyHandlers(handlers, "handleChainError", error, runId, parent, tags, undefined);
      },
    };
  }

  private nodeEnded(run: NodeRun, error: unknown, output: unknown): void {
    if (error !== undefined) {
      notifyHandlers(this.handlers, "handleChainError", error, run.runId, run.parent, run.tags, undefined);
    } else {
      const outputs = runDict(output, "output");
      notifyHandlers(this.handlers, "handleChainEnd", outputs, run.runId, run.parent, run.tags, undefined);
    }
  }

  /** The run a node of a nested graph is a child of: the nested graph's, else its node's. */
  private parentOfNested(parentTask: string): string {
    const node = this.open.get(parentTask);
    if (node === undefined) return parentTask;
    return (node.info === undefined ? undefined : NESTED_GRAPH_RUN_IDS.get(node.info)) ?? node.runId;
  }

  private forget(taskId: string): void {
    const info = this.open.get(taskId)?.info;
    this.open.delete(taskId);
    if (info === undefined) return;
    NODE_RUN_IDS.delete(info);
    TASK_ATTEMPT_HOOKS.delete(info);
  }
}

/** A node's run as {@link ChainReporter} reports it. */
interface NodeRun {
  /** The id of its current run (a retried attempt is a run of its own). */
  runId: string;
  parent: string;
  tags: string[];
  /** The tags the runs inside it inherit (the graph's, and `langsmith:hidden` for `__start__`). */
  inherited: string[];
  input: unknown;
  name: string;
  metadata: Record<string, unknown>;
  /** Its current run was reported ended (its attempt failed, and it will be retried). */
  ended: boolean;
  /** The task's `executionInfo` object, under which its run id and attempt hooks are registered. */
  info: object | undefined;
}

/** The task of the node that runs the graph at `namespace` (`undefined` for the root graph). */
function parentTaskOf(namespace: readonly string[]): string | undefined {
  const last = namespace.at(-1);
  return last === undefined ? undefined : (last.split(":").at(-1) ?? last);
}

/**
 * What a node still running when the run fails hears it failed with, when the run failed because
 * another node did: it was aborted (LangGraph.js's nodes fail with their signal's `AbortError`).
 * When the run itself was aborted or failed, they hear the run's error.
 */
function siblingAbortError(): unknown {
  return new DOMException("This operation was aborted", "AbortError");
}

/** Whether a `values` chunk is the one reporting an interrupt (`{ __interrupt__: [...] }`). */
function isInterruptChunk(payload: unknown): boolean {
  return typeof payload === "object" && payload !== null && Object.hasOwn(payload, INTERRUPT);
}

/** A task's whole run metadata, which its task-start payload carries under a hidden key. */
function runMetadataOf(payload: object): Record<string, unknown> | undefined {
  const metadata = (payload as { [TASK_RUN_METADATA]?: Record<string, unknown> })[TASK_RUN_METADATA];
  return metadata === undefined ? undefined : { ...metadata };
}

function runType(event: string): string {
  if (event.startsWith("on_chat_model")) return "chat_model";
  if (event.startsWith("on_tool")) return "tool";
  return "chain";
}

function keep(event: StreamEvent, filter: StreamEventsFilter | undefined): boolean {
  if (filter === undefined) return true;
  // a custom event is kept or left out as its run is
  const run = (event as { [CUSTOM_EVENT_RUN]?: { name: string; type: string } })[CUSTOM_EVENT_RUN];
  const type = run?.type ?? runType(event.event);
  const name = run?.name ?? event.name;
  const includes = [filter.includeNames, filter.includeTypes, filter.includeTags].some(
    (list) => list !== undefined,
  );
  let kept = !includes;
  if (filter.includeNames?.includes(name)) kept = true;
  if (filter.includeTypes?.includes(type)) kept = true;
  if (filter.includeTags?.some((tag) => event.tags.includes(tag))) kept = true;
  if (filter.excludeNames?.includes(name)) kept = false;
  if (filter.excludeTypes?.includes(type)) kept = false;
  if (filter.excludeTags?.some((tag) => event.tags.includes(tag))) kept = false;
  return kept;
}

/**
 * Runs `graph` and yields its events (LangChain.js `streamEvents`, schema v2): the graph's
 * start, its stream chunks as `on_chain_stream` (those `stream()` yields for the call's
 * `streamMode` and `subgraphs`: `updates` by default) and its end with the final state; each node's
 * start and end; the model and tool calls made inside nodes, tokens included.
 */
export function streamGraphEvents(
  graph: EventSource,
  input: unknown,
  options: StreamEventsOptions & Record<string, unknown>,
  filter?: StreamEventsFilter,
): IterableReadableStream<StreamEvent> {
  if (options?.version !== "v1" && options?.version !== "v2") {
    throw new InvalidArgumentError(
      `Only versions "v1" and "v2" of the schema are currently supported: call streamEvents(input, { version: "v2" }) (or { version: "v3" } on a compiled graph, for the streaming protocol's GraphRunStream).`,
    );
  }
  const { version: _version, ...runOptions } = options;
  const runId = (runOptions.runId as string | undefined) ?? randomId();
  // the graph's `withConfig` defaults name and tag the run too, as the call's own options do
  const name =
    (runOptions.runName as string | undefined) ?? graph.config?.runName ?? graph.name ?? "LangGraph";
  const tags = [
    ...new Set([...(graph.config?.tags ?? []), ...((runOptions.tags as string[] | undefined) ?? [])]),
  ];
  // the graph's own events carry the run's metadata as its nodes see it (LangGraph.js's
  // `ls_integration` tag, the thread's ids)
  // (the graph's own `withConfig` metadata too: an agent's `ls_integration` and `lc_agent_name`)
  const metadata: Record<string, unknown> = {
    ls_integration: "langgraph",
    ...graph.config?.metadata,
    ...(runOptions.metadata as Record<string, unknown> | undefined),
  };
  // the thread's ids, from the call's `configurable` or the graph's `withConfig` one
  const configurable: Record<string, unknown> = {
    ...graph.config?.configurable,
    ...(runOptions.configurable as Record<string, unknown> | undefined),
  };
  // and what LangChain.js's `ensureConfig` records, as the run's config does (run-config.ts)
  recordEnsuredMetadata(metadata, configurable, runOptions.timeout);
  for (const key of METADATA_FROM_CONFIGURABLE) {
    if (!(key in metadata) && configurable[key] !== undefined) metadata[key] = configurable[key];
  }
  const root = (event: string, data: StreamEvent["data"]): StreamEvent => ({
    event,
    name,
    run_id: runId,
    tags,
    metadata,
    data,
  });

  // the graph's `on_chain_stream` chunks are what `stream()` would yield with the call's
  // `streamMode` and `subgraphs` (as in LangChain.js, which streams through `stream()`)
  const asked = normalizeStreamModes(
    runOptions.streamMode as StreamMode | StreamMode[] | undefined,
    graph.streamMode ?? "updates",
  );
  const askedModes = new Set<string>(asked.modes);
  const askedSubgraphs = runOptions.subgraphs === true;
  // With `subgraphs` and `values`, LangGraph.js 1.7.3 also streams each snapshot's checkpoint
  // envelope (`{ id, parent_id?, step, source }`, as `streamEvents` v3 sends it) before it
  const envelopes = askedSubgraphs && askedModes.has("values") && !askedModes.has("checkpoints");
  const streamChunk = (namespace: string[], mode: string, payload: unknown): unknown => {
    if (askedSubgraphs) return asked.multi ? [namespace, mode, payload] : [namespace, payload];
    return asked.multi ? [mode, payload] : payload;
  };

  /** The run's own stream, once open; `cancelled` when the consumer left before it was. */
  let run: RunChunks | undefined;
  let cancelled: { reason: unknown } | undefined;

  async function* events(): AsyncGenerator<StreamEvent> {
    yield root("on_chain_start", { input });
    /** Node runs under way, by task id, for their end events and their children's parent ids. */
    const running = new Map<string, { event: StreamEvent; inputs: Record<string, unknown> }>();
    const stream = await graph.stream(input, {
      ...runOptions,
      // the run's id (graph callback handlers hear it) is the graph's events' run_id
      runId,
      streamMode: [
        ...new Set<StreamMode>([
          "updates",
          "values",
          "debug",
          ...asked.modes,
          ...(envelopes ? (["checkpoints", "tasks"] as const) : []),
        ]),
      ],
      subgraphs: true,
      [EVENTS_HANDLER]: (sink: StreamSink) => new EventsHandler(sink),
      [MESSAGES_SUBGRAPHS]: askedSubgraphs,
    });
    run = stream;
    if (cancelled !== undefined) await stream.cancel(cancelled.reason);
    let output: unknown;
    const held: StreamEvent[] = [];
    /**
     * Where the held chunks of a step whose last node ended wait: for the next step's nodes to
     * start (`"starts"`), then for the first event after those starts (`"started"`).
     */
    let holding: "no" | "starts" | "started" = "no";
    /** How many of the held chunks are the ended step's (those after them are the next step's). */
    let stepHeld = 0;
    /** The held chunks, the first `count` of them (all by default), given up now. */
    const release = (count = held.length): StreamEvent[] => {
      holding = "no";
      return held.splice(0, count);
    };
    const chunks: AsyncIterable<unknown> = envelopes
      ? withCheckpointEnvelopes(stream, isCheckpointSaver(graph.checkpointer))
      : stream;
    for await (const chunk of chunks) {
      const [namespace, mode, payload] = chunk as [string[], string, unknown];
      // the hidden `__start__` node's debug events show its run only, never as a stream chunk
      const hidden =
        mode === "debug" && (payload as { [HIDDEN_TASK_EVENT]?: unknown })[HIDDEN_TASK_EVENT] === true;
      // (the `tasks` chunks the envelopes count steps by, when not asked for, change nothing)
      if (holding !== "no" && (mode !== "tasks" || askedModes.has("tasks"))) {
        const starts = mode === "debug" && (payload as { type?: unknown }).type === "task";
        if (starts) {
          if (holding === "starts") stepHeld = held.length;
          holding = "started";
        } else if (
          holding === "started" &&
          !(mode === "updates" || mode === "values" || mode === "checkpoints")
        ) {
          // LangGraph.js's graph stream events come a step late: after the next nodes started
          yield* release(stepHeld);
        }
      }
      const shown = askedModes.has(mode) || (envelopes && mode === "checkpoints");
      if (!hidden && shown && (askedSubgraphs || namespace.length === 0)) {
        const event = root("on_chain_stream", { chunk: streamChunk(namespace, mode, payload) });
        // a step's `updates` and `values` follow the end of the node that made them (the last
        // node of its step: the start of the next step's nodes, see `holding`); what a node
        // streams while it runs (custom, messages, …) comes as it happens
        if (mode === "updates" || mode === "values" || mode === "checkpoints") held.push(event);
        else {
          yield* release();
          yield event;
        }
      }
      if (mode === "events" && (payload as Partial<CallSettled>)[CALL_SETTLED] === true) {
        // a call returned: it ends now, not with its step's results
        const { id, failed, output: returned } = payload as CallSettled;
        const run = running.get(id);
        running.delete(id);
        if (run !== undefined && !failed) {
          yield* release();
          const outputs = runDict(returned, "output");
          yield {
            ...run.event,
            event: "on_chain_end",
            data: { output: outputs.output ?? outputs, input: endEventInput(run.inputs) },
          };
        }
      } else if (mode === "events" && (payload as Partial<NodeCustomEvent>)[NODE_CUSTOM_EVENT] === true) {
        // a custom event of a node's run carries the node's tags and metadata
        const { runId: nodeRunId, name: eventName, data } = payload as NodeCustomEvent;
        const node = running.get(nodeRunId)?.event;
        if (node !== undefined) {
          yield* release();
          const event = {
            ...node,
            event: "on_custom_event",
            name: eventName,
            data: data as StreamEvent["data"],
          };
          yield customEventOf(event, node.name, "chain");
        }
      } else if (mode === "events") {
        yield* release();
        yield payload as StreamEvent;
      } else if (mode === "debug") {
        const {
          step,
          type,
          payload: task,
        } = payload as {
          step: number;
          type: string;
          payload: {
            id: string;
            name: string;
            input?: unknown;
            result?: unknown;
            metadata?: Record<string, unknown>;
          };
        };
        // a task that does not run (cached, or replayed from before an interrupt) has no run
        if (type === "task" && !Object.hasOwn(task, TASK_NOT_RUN)) {
          const inputs = runDict(task.input, "input");
          const event: StreamEvent = {
            event: "on_chain_start",
            name: task.name,
            run_id: task.id,
            tags: hidden ? [`graph:step:${step}`, ...tags, TAG_HIDDEN] : [`graph:step:${step}`, ...tags],
            metadata:
              runMetadataOf(task) ??
              nodeMetadata(
                metadata,
                task.metadata,
                step,
                task.name,
                [...namespace, `${task.name}:${task.id}`].join(CHECKPOINT_NAMESPACE_SEPARATOR),
              ),
            data: startEventData(inputs),
          };
          running.set(task.id, { event, inputs });
          if (holding === "no") yield* release();
          yield event;
        } else if (type === "task_result") {
          const run = running.get(task.id);
          running.delete(task.id);
          if (run !== undefined) {
            const { event: started, inputs } = run;
            // a node that failed or was interrupted has no end event (as in LangChain.js)
            const failure = taskFailure(task as { error?: unknown; interrupts?: Interrupt[] });
            if (failure === undefined) {
              // what the node returned, as LangChain.js reports a runnable's output
              const outputs = runDict(nodeOutputOf(task), "output");
              yield {
                ...started,
                event: "on_chain_end",
                data: { output: outputs.output ?? outputs, input: endEventInput(inputs) },
              };
            }
          }
          // the last node of a step: its step's chunks come once the next step's nodes started
          if (running.size === 0) holding = "starts";
          else yield* release();
        }
      } else if (namespace.length === 0 && mode === "values") {
        // the graph's output is its state: the chunk reporting an interrupt is not
        if (!isInterruptChunk(payload)) output = payload;
      }
    }
    yield* held;
    // the graph's output values (`{}` when none was written), as LangGraph.js ends its run
    yield root("on_chain_end", { output: endEventOutput(output ?? {}) });
  }

  const source = events();
  // As LangChain.js's event stream (schema v2) does, the first event yielded carries the call's input as its
  // `data.input` and its run's end event carries none. Without filters that is the graph's own
  // start and end; with filters (`includeTags`, …) the first kept event can be a model's or a
  // tool's start, whose `data.input` is then the graph's input.
  let firstRunId: string | undefined;
  const shown = (event: StreamEvent): StreamEvent => {
    if (options.version !== "v2") return event;
    if (firstRunId === undefined) {
      firstRunId = event.run_id;
      return event.data.input === input ? event : { ...event, data: { ...event.data, input } };
    }
    if (event.run_id === firstRunId && event.event.endsWith("_end") && event.data.input) {
      const { input: _input, ...data } = event.data;
      return { ...event, data };
    }
    return event;
  };
  // chain callbacks hear the graph and its nodes from the run itself (see `Pregel.stream`)
  const generator = (async function* (): AsyncGenerator<StreamEvent> {
    for await (const event of source) if (keep(event, filter)) yield shown(event);
  })();
  // The generator may be waiting for the run's next chunk (the stream reads one event ahead, and
  // a tool can run for minutes): `return()` would wait behind that read. Cancelling the run's
  // stream first stops the run now (its nodes' signals abort with the reason), which ends the
  // wait; the cancel settles once the run's stream says the run is over (its last saves made).
  return IterableReadableStream.fromAsyncGenerator(generator, (reason) => {
    if (run !== undefined) return run.cancel(reason);
    cancelled = { reason };
    return undefined;
  });
}

/**
 * A node event's metadata: the run's, the task's, then the step and node (and namespace, when
 * given), merged with mergeOf rather than spreads extended with new keys (see object-copy.ts in
 * shared/: each event would get a hidden class of its own).
 */
function nodeMetadata(
  metadata: Record<string, unknown> | undefined,
  taskMetadata: Record<string, unknown> | undefined,
  step: number,
  node: string,
  checkpointNs?: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = mergeOf(metadata, taskMetadata);
  out.langgraph_step = step;
  out.langgraph_node = node;
  if (checkpointNs !== undefined) out.langgraph_checkpoint_ns = checkpointNs;
  return out;
}
