import type { CallbackHandler, RunnableConfig } from "../../shared/index.js";
import type { NodeSpec, PreparedTask } from "../algorithm/index.js";
import type { TimeoutPolicy } from "../core/index.js";
import type { BaseStore } from "../store/index.js";
import type { StreamSink } from "../stream/index.js";
import type { InterruptOptions } from "./interrupts.js";
import type { Durability, SaveQueue } from "./persistence.js";
import type { RunControl } from "./run-control.js";

/**
 * How a node retries when it fails. Defaults: 3 attempts, 500 ms first interval doubling up to
 * 128 s, with jitter; errors that look like client errors (HTTP 400–407/409), aborts and
 * `GraphValueError`s are not retried.
 */
export interface RetryPolicy {
  /** Milliseconds before the first retry (default 500). */
  initialInterval?: number;
  /** Multiplier of the interval after each retry (default 2). */
  backoffFactor?: number;
  /** Upper bound of the interval in milliseconds (default 128 000). */
  maxInterval?: number;
  /** Attempts in all, the first included (default 3). */
  maxAttempts?: number;
  /** Add up to one second of random delay (default true). */
  jitter?: boolean;
  /** Which errors to retry (default: see above). */
  retryOn?: (error: unknown) => boolean;
  /** Log each retry with `console.log`, as LangGraph.js does (default true). */
  logWarning?: boolean;
}

/** How long one attempt of a node may take; defined in core so a `Send` can carry one. */
export type { TimeoutPolicy } from "../core/index.js";

/** Caches a node's writes by its input (needs a cache on the graph). */
export interface CachePolicy {
  /** Cache key of an input (default: its JSON). */
  keyFunc?: (input: unknown) => string;
  /** Seconds a cached result stays valid (default: forever). */
  ttl?: number;
}

/** Ids of the task a node is running in: stable across retries and replays. */
export interface ExecutionInfo {
  checkpointId: string;
  checkpointNs: string;
  taskId: string;
  threadId: string | undefined;
  runId: string | undefined;
  /** 1 on the first attempt, 2 on the first retry, … */
  nodeAttempt: number;
  /** When the first attempt started (ms since the epoch). */
  nodeFirstAttemptTime: number;
  /**
   * A key for deduplicating side effects: the same across retries, resumes and crash restarts of
   * this task, different on a fork (it is the task's id, which a persisted run derives from the
   * checkpoint the task runs from).
   */
  idempotencyKey?: string;
  /**
   * How many more supersteps the recursion limit allows after this task's (Python's
   * `RemainingSteps`: the loop's last allowed step minus this one). At `0` this is the last
   * step: the run then fails with `GraphRecursionError` even if nothing else is scheduled, so
   * a node that wants the run to end normally ends it while at least 1 remains.
   *
   * @example
   * ```ts
   * const node = (_state: unknown, config: LangGraphRunnableConfig) =>
   *   (config.executionInfo?.remainingSteps ?? Infinity) < 3 ? new Command({ goto: END }) : {};
   * ```
   */
  remainingSteps?: number;
}

/** Sends a custom chunk to the `custom` stream mode. */
export type StreamWriter = (chunk: unknown) => void;

/**
 * The config a node receives as its second argument: the LangChain.js `RunnableConfig` plus
 * the run's runtime (`context`, `store`, `writer`, `signal`, `interrupt`, `executionInfo`).
 */
export interface LangGraphRunnableConfig<Context = Record<string, unknown>> extends RunnableConfig {
  /** Static context of the run (`invoke(input, { context })`), validated by `contextSchema`. */
  context?: Context;
  /**
   * The graph's long-term store, when it has one (a `BaseStore`; typed by the methods nodes call,
   * so a hand-written store object passed to a runnable type-checks too).
   */
  store?: NodeStore;
  /** Sends a chunk to the `custom` stream mode (a no-op when nobody streams it). */
  writer?: StreamWriter;
  /** Pauses the run and asks for input (needs a checkpointer); see `interrupt()`. */
  interrupt?: (value: unknown, options?: InterruptOptions) => unknown;
  /** Ids of the running task. */
  executionInfo?: ExecutionInfo;
  /**
   * Signals progress to the task's `idleTimeout` (set only on tasks with a `timeout`; a no-op
   * without an `idleTimeout`).
   */
  heartbeat?: () => void;
  /** The run's drain control (see `RunControl`): nodes may read it or request a drain. */
  control?: RunControl;
}

/** The store as nodes see it on their config: `get`, `put`, `delete` and `search` of `BaseStore`. */
export type NodeStore = Pick<BaseStore, "get" | "put" | "delete" | "search">;

/**
 * What a node receives as its second argument (LangGraph.js's `Runtime`): the run's `context`,
 * `store`, `writer`, `interrupt`, `signal` and the rest of its config.
 *
 * @example
 * ```ts
 * const node = (state: typeof State.State, runtime: Runtime<{ userId: string }>) => ({
 *   user: runtime.context?.userId,
 * });
 * ```
 */
export interface Runtime<Context = Record<string, unknown>> extends LangGraphRunnableConfig<Context> {}

/** Key, on an error handler's task config, of the `NodeError` it handles. */
export const NODE_ERROR: unique symbol = Symbol.for("agentgraph.nodeError") as never;

/** Key of the running task on its config (for `getCurrentTaskInput()`, `task()` calls, `interrupt()`). */
export const CURRENT_TASK: unique symbol = Symbol.for("agentgraph.currentTask") as never;

/** Key, on a task's config, marking a task that runs again because its run resumed (its subgraphs resume too). */
export const RESUMING: unique symbol = Symbol.for("agentgraph.resuming") as never;

/** Key of the functional API's previous return value on a task's config (for `getPreviousState()`). */
export const PREVIOUS_STATE: unique symbol = Symbol.for("agentgraph.previousState") as never;

/** Options of a functional-API task call. */
export interface CallOptions {
  readonly retryPolicy?: RetryPolicy | undefined;
  /** Caches the call's result by its arguments (needs a cache on the graph). */
  readonly cachePolicy?: CachePolicy | undefined;
  /** Per-attempt timeout (normalized). */
  readonly timeout?: TimeoutPolicy | undefined;
}

/** Schedules a functional-API task from inside a running task and resolves to its result. */
export type TaskCall = (
  name: string,
  fn: (...args: unknown[]) => unknown,
  args: unknown[],
  options: CallOptions,
) => Promise<unknown>;

/** Internal link from a task's config to the run it belongs to (how nested graphs find their parent). */
export const PARENT_RUN: unique symbol = Symbol.for("agentgraph.parentRun") as never;

/** What the `messages` stream mode needs to know of tasks, besides model callbacks. */
export interface MessagesObserver extends CallbackHandler {
  /** A task (with this metadata) starts with this input (its messages are not new). */
  taskStarted(input: unknown, metadata: Record<string, unknown> | undefined): void;
  /**
   * A task finished with this output (new messages in it are streamed). `runId` is the node's
   * run (its task id): a returned message without an id is given one derived from it.
   */
  nodeFinished(
    metadata: Record<string, unknown> | undefined,
    tags: string[] | undefined,
    name: string,
    output: unknown,
    runId: string,
    stepTag?: boolean,
  ): void;
}

/** What a nested graph inherits from the task that runs it. */
export interface ParentRunLink {
  /** Where the root run streams to (absent when nobody streams). */
  readonly sink: StreamSink | undefined;
  /** Namespace segments of the task running the nested graph (`["node:<taskId>"]`). */
  readonly namespace: readonly string[];
  /** The messages-mode handler of the root run, when `messages` is streamed. */
  readonly messagesHandler: MessagesObserver | undefined;
  /** Recursion limit of the root run, inherited by nested graphs. */
  readonly recursionLimit: number;
  /** The checkpointer of the root run, which nested graphs use too (even one compiled with its own). */
  readonly checkpointer: unknown;
  /** The root run's queue of `async` saves, shared by nested graphs on the same checkpointer. */
  readonly saveQueue?: SaveQueue | undefined;
  /** The root run's durability, which nested graphs use unless their own run names one. */
  readonly durability?: Durability | undefined;
  /** The root run's drain control, which nested graphs obey too (made on first read by a node when the run got none). */
  control?: RunControl | undefined;
  /**
   * Set by a root run that travels back in time (see {@link SubgraphReplay}): where the nested
   * graphs it runs start from.
   */
  replay?: SubgraphReplay | undefined;
}

/**
 * A root run continued from a past checkpoint (`invoke(null, pastConfig)`, new input or a
 * `Command` without a `resume` sent to a checkpoint the thread has moved on from, or to one
 * `updateState` or a fork made): each nested graph with a history of its own (a `checkpointer:
 * true` subgraph, whose namespace has no task id) starts, the first time it runs in that run,
 * from its last checkpoint saved before the replay point, as in LangGraph.js 1.7.3, rather than
 * from its latest; later runs of it in the same run go on from where it got to.
 */
export class SubgraphReplay {
  /** The replay point: checkpoints of nested graphs saved before it are the ones to start from. */
  readonly checkpointId: string;
  private readonly visited = new Set<string>();

  constructor(checkpointId: string) {
    this.checkpointId = checkpointId;
  }

  /** Whether the nested graph of namespace `ns` runs for the first time in this run (and records that it has). */
  firstVisit(ns: string): boolean {
    // the same node run again (a loop) has another task id in its last segment: one graph
    const colon = ns.lastIndexOf(":");
    const stable = colon === -1 ? ns : ns.slice(0, colon);
    if (this.visited.has(stable)) return false;
    this.visited.add(stable);
    return true;
  }
}

/** A node as the engine runs it. */
export interface PregelNode extends NodeSpec {
  /** Runs the node's own code and returns its output (an update, a `Command`, …). */
  readonly bound: (input: unknown, config: LangGraphRunnableConfig<unknown>) => unknown;
  /** Turns the output into writes (state updates, routing) and evaluates conditional edges. */
  readonly writers: ((output: unknown, task: RunningTask) => void | Promise<void>) | undefined;
  /**
   * The microtask turns LangGraph.js spends after this node's code returns before it commits the
   * task (running its edges' writer and its conditional edges' routers): among tasks of a step that
   * finish together, commits come in that order (see `runner.ts`). 0 when absent.
   */
  readonly commitTurns?: number | undefined;
  /**
   * Whether the node is a compiled graph (its run's end is its task's, no node code in between):
   * a graph run inside a node function reaches its task a few turns later (see `runner.ts`).
   */
  readonly isGraph?: boolean | undefined;
  /** How many of the writes of its edges' writer trigger a node (`branch:to:…`); 0 when absent. */
  readonly edgeTriggers?: number | undefined;
  readonly retryPolicy: RetryPolicy | undefined;
  readonly cachePolicy: CachePolicy | undefined;
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
  readonly tags: readonly string[] | undefined;
  /** Hidden nodes (`__start__`) are left out of the `updates`, `tasks` and `debug` streams. */
  readonly hidden: boolean;
  /** Graphs this node runs, for state inspection and drawing. */
  readonly subgraphs: readonly unknown[] | undefined;
  /**
   * The tags and metadata of the compiled graph this node is, when that graph is named after the
   * node: LangGraph.js then streams the messages the node returns (`messages` mode) as that
   * graph's run, with its `withConfig` tags and metadata and without the step's tag.
   */
  readonly graphRun?: GraphRunConfig | undefined;
  /** Per-attempt timeout (normalized: at least one of the two timeouts set). */
  readonly timeout?: TimeoutPolicy | undefined;
  /** Name of the node that handles this node's failures (its `errorHandler`). */
  readonly errorHandler?: string | undefined;
  /** This node is an error handler (its own failures are never handled). */
  readonly isErrorHandler?: boolean | undefined;
}

/** What a compiled graph run as a node adds to its run's tags and metadata (its `withConfig`). */
export interface GraphRunConfig {
  readonly tags: readonly string[];
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** The progress clock of a timed attempt (see {@link TimeoutPolicy}). */
export interface AttemptClock {
  /** False once the attempt timed out: what it does afterwards is dropped. */
  readonly active: boolean;
  /** Records progress from an automatic signal (ignored with `refreshOn: "heartbeat"`). */
  progress(): void;
}

/** A task while it runs: what was prepared, plus its config and a way to read fresh state. */
export interface RunningTask extends PreparedTask<PregelNode> {
  readonly config: LangGraphRunnableConfig<unknown>;
  readonly step: number;
  /** What the node returned (set once it has run). */
  output: unknown;
  /** Schedules a functional-API task call made by this task. */
  call: TaskCall;
  /** The clock of the running attempt, when the task has a timeout (its `Send`'s or its node's). */
  clock: AttemptClock | undefined;
  /** The failure of the last attempt while the task waits to retry it (else `undefined`). */
  pendingRetry: unknown;
  /**
   * A functional-API call that another call's failure aborted: as in LangGraph.js it goes on
   * with its retries, each attempt failing with an `AbortError` (its function still runs).
   */
  abortedBySibling: boolean;
  /**
   * What `getCurrentTaskInput()` answers instead of `input`, when the node set it (see
   * `setTaskInputView`); `undefined` otherwise.
   */
  inputView: (() => unknown) | undefined;
  /** Clears what a failed attempt left behind (writes, call and interrupt counters) before a retry. */
  resetAttempt(): void;
  /**
   * Reads `keys` as they will be once this task's writes so far are applied (`readOnly`: the
   * reader does not modify what it reads; see `readWithWrites`).
   */
  readFresh(keys: readonly string[], readOnly?: boolean): Record<string, unknown>;
}
