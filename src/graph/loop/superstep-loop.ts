import {
  AbortError,
  copyWith,
  markStreamedRun,
  neverAborted,
  promiseTry,
  type RunnableConfig,
  raceSignal,
  randomId,
  runInAsyncContext,
} from "../../shared/index.js";
import {
  applyWrites,
  type Channels,
  type CommittedTask,
  initialWriteState,
  type PreparedTask,
  prepareNextTasks,
  readChannels,
  taskId,
  taskNamespace,
  taskPathKey,
  type WriteState,
} from "../algorithm/index.js";
import type { BaseCache, CacheFullKey } from "../cache/index.js";
import { type BaseChannel, BinaryOperatorAggregate, DeltaChannel } from "../channels/index.js";
import {
  CHECKPOINT_FORMAT_VERSION,
  type Checkpoint,
  type CheckpointMetadata,
  copyCheckpoint,
  isCheckpointSaver,
  type PendingWrite,
} from "../checkpoint/index.js";
import {
  BRANCH_PREFIX,
  CHECKPOINT_NAMESPACE_SEPARATOR,
  type ChannelVersion,
  Command,
  commandGotoList,
  commandUpdateEntries,
  compareVersions,
  contentHash,
  EmptyInputError,
  END,
  ERROR,
  GraphDrained,
  GraphInterrupt,
  GraphRecursionError,
  GraphValueError,
  INTERRUPT,
  type Interrupt,
  InvalidUpdateError,
  isCommand,
  isGraphBubbleUp,
  isGraphDrained,
  isGraphInterrupt,
  isoNow,
  isParentCommand,
  isSend,
  NO_WRITES,
  NodeError,
  NULL_TASK_ID,
  nextIntegerVersion,
  PUSH,
  RESUME,
  RETURN,
  TASKS,
  timeOrderedId,
  uniqueId,
} from "../core/index.js";
import type { StreamMode, StreamSink } from "../stream/index.js";
import { abortErrorOf, linkedController, releaseController } from "./abort.js";
import { printStep, printTasks } from "./debug-print.js";
import { executeTask } from "./execute-task.js";
import {
  dispatchGraphEvent,
  type GraphCallbackHandler,
  type GraphLifecycleStatus,
  graphHandlersOf,
  taskAttemptHooks,
} from "./graph-callbacks.js";
import {
  CONFIG_KEY_STRICT_RESUME,
  markNestedRunPause,
  NO_RESUME,
  NO_SCALAR_ANSWER,
  pendingInterruptIds,
  refuseUnmatchedResume,
  SCRATCHPAD,
  type ScalarAnswer,
  Scratchpad,
} from "./interrupts.js";
import {
  errorRecord,
  HIDDEN_TASK_EVENT,
  savedTaskResult,
  TASK_NOT_RUN,
  taskResultPayload,
  taskStartPayload,
  updatesPayload,
} from "./output.js";
import { groupSavedWrites, type LoopPersistence, type SavedWrites } from "./persistence.js";
import { afterTurns, runTasks, waitTurns } from "./runner.js";
import { type Task, TaskFactory } from "./task-factory.js";
import {
  type CallOptions,
  CURRENT_TASK,
  type LangGraphRunnableConfig,
  NODE_ERROR,
  type ParentRunLink,
  type PregelNode,
  RESUMING,
  type RetryPolicy,
  type RunningTask,
  type StreamWriter,
  SubgraphReplay,
} from "./types.js";

/** The compiled graph, as the loop sees it. */
export interface LoopGraph {
  readonly nodes: Readonly<Record<string, PregelNode>>;
  /** Channel prototypes: each run restores fresh channels from them. */
  readonly channels: Readonly<Record<string, BaseChannel>>;
  readonly inputChannels: string | readonly string[];
  readonly outputChannels: string | readonly string[];
  readonly streamChannels: string | readonly string[];
  /**
   * The keys `values` and `updates` chunks show, when not `streamChannels`: the output keys of a
   * run started by `invoke` (a subgraph node's included) or given `outputKeys`, as in LangGraph.js.
   */
  readonly valuesChannels?: string | readonly string[] | undefined;
  readonly triggerToNodes: Readonly<Record<string, readonly string[]>>;
  /** State keys a node's conditional edges read (for fresh reads). */
  readonly stateKeys: readonly string[];
  /** Channels with a `finish()` of their own (deferred-node triggers). */
  readonly finishable: readonly string[];
  /** Channels that hold a value when fresh and clear after an idle step. */
  readonly initiallyIdle: readonly string[];
  /** Channels never saved (their writes are left out of checkpoints too). */
  readonly untracked: ReadonlySet<string>;
  /** Parses the graph input (not a `Command`) before the run writes or saves it; returns what to write. */
  readonly validateInput?: ((input: unknown) => unknown) | undefined;
  /** Validates the update of a `Command` given as the graph input; returns the entries to write. */
  readonly commandInputUpdate?: ((entries: [string, unknown][]) => [string, unknown][]) | undefined;
}

/** Everything one run needs. */
export interface LoopParams {
  readonly graph: LoopGraph;
  readonly input: unknown;
  /** The run's config (user options merged over the graph's defaults); nodes see a copy of it. */
  readonly config: LangGraphRunnableConfig<unknown>;
  readonly recursionLimit: number;
  /** Namespace of this graph: `""` for a root run, the running task's namespace for a nested one. */
  readonly parentNs: string;
  /**
   * Microtask turns a run nested in a node spends in its first step: its hidden `__start__`
   * step takes them before it commits, or a first step that runs a node waits them before it
   * starts (see the pregel's `NESTED_START_TURNS`).
   */
  readonly startTurns?: number | undefined;
  /** Where to stream (undefined: nobody listens). */
  readonly sink: StreamSink | undefined;
  readonly link: ParentRunLink;
  readonly maxConcurrency: number | undefined;
  readonly retryPolicy: RetryPolicy | undefined;
  /** Print each superstep to the console. */
  readonly debug: boolean;
  /** The caller's signal (the run stops as soon as it aborts); nodes get `config.signal`. */
  readonly abortSignal: AbortSignal | undefined;
  /** The run's checkpointer link, when the graph is persisted. */
  readonly persistence: LoopPersistence | undefined;
  /** Pause before these nodes (`"*"`: all). */
  readonly interruptBefore: readonly string[] | "*" | undefined;
  /** Pause after these nodes (`"*"`: all). */
  readonly interruptAfter: readonly string[] | "*" | undefined;
  /** The checkpoint to start from was named explicitly (`checkpoint_id`): replaying it forks the thread. */
  readonly explicitCheckpoint: boolean;
  /** Cache for nodes with a `cachePolicy`. */
  readonly cache: BaseCache | undefined;
  /** Milliseconds a superstep may take (the graph's `stepTimeout`). */
  readonly stepTimeout?: number | undefined;
  /** The caller's `runId` (see `ResolvedRun.runId`): the id graph callback handlers hear. */
  readonly runId?: string | undefined;
}

/** Namespace of node results in the cache. */
const CACHE_NS_WRITES = "__pregel_ns_writes";

/** Longest stretch of synchronous supersteps before the loop yields to the event loop. */
const YIELD_INTERVAL_MS = 20;

/** The `configurable` keys a streamed checkpoint config sets itself rather than copying from the run. */
const FORMATTED_KEYS: ReadonlySet<string> = new Set(["checkpoint_id", "checkpoint_ns", "checkpoint_map"]);

/** Name of the pseudo-task that carries the run's input writes. */
const INPUT_TASK = "__input__";

/** Saved write marking a failure that went to the node's error handler (LangGraph.js's channel). */
const ERROR_SOURCE_NODE = "__error_source_node__";
/** The error saved for a task aborted because a sibling failed (the record of a DOM `AbortError`). */
const ABORTED_SIBLING = { message: "This operation was aborted", name: "AbortError" } as const;

/**
 * Microtask turns a graph run nested in a node waits after each step. A nested run's step takes
 * about 60 turns in LangGraph.js 1.7.3 and about 35 here; waiting 10 more keeps a nested graph's
 * later steps (a subgraph that pauses at its second or third node, its chunks) about where they
 * fall there relative to a sibling node that awaits, with its first steps (see the pregel's
 * `NESTED_START_TURNS`, chosen with it on the same differential grids).
 */
const NESTED_STEP_TURNS = 10;

/** Microtask turns LangGraph.js's `gatherIterator` takes over a generator of no events, and per event. */
const EVENTS_GATHER_TURNS = 4;
const EVENTS_GATHER_ITEM_TURNS = 2;

/**
 * Microtask turns LangGraph.js's loop spends between preparing a step's `tasks` and streaming
 * their start: it gathers the checkpoint's event (when it streamed one, `reported`) and then the
 * tasks' events through async iteration, 4 turns plus 2 per event (measured on 1.7.3). Only a
 * run streaming `tasks` or `debug` waits them: parallel subgraphs (a `Send` to each) then take
 * turns the same way, each streaming its checkpoint (or values) before either announces the
 * tasks of its next step, as there.
 */
function gatherTurns(tasks: readonly RunningTask[], reported: boolean): number {
  let events = 0;
  for (let i = 0; i < tasks.length; i++) if (!(tasks[i] as RunningTask).node.hidden) events += 1;
  return (
    (reported ? EVENTS_GATHER_TURNS + EVENTS_GATHER_ITEM_TURNS : 0) +
    EVENTS_GATHER_TURNS +
    EVENTS_GATHER_ITEM_TURNS * events
  );
}

/** Microtask turns between a functional-API call and the start of its function (see `runCall`). */
const CALL_START_TURNS = 2;
/**
 * Microtask turns between the end of a functional-API call and its commit: a caller awaiting the
 * call resumes in between (see `runCall`).
 */
const CALL_COMMIT_TURNS = 3;

/** Path segment of error-handler tasks. */
const NODE_ERROR_HANDLER = "node_error_handler";

/** Whether a failure goes to the failed node's error handler (interrupts and other signals never do). */
function handlesFailure(task: RunningTask, error: unknown): boolean {
  return task.node.errorHandler !== undefined && error !== undefined && !isGraphBubbleUp(error);
}

/**
 * One run of a graph, superstep by superstep (Pregel / bulk-synchronous parallel):
 * `tick()` prepares the tasks of the next step, the runner executes them, and `afterTick()`
 * commits their writes. The loop alone owns emission and persistence.
 */
export class PregelLoop {
  readonly params: LoopParams;
  readonly channels: Channels = {};
  checkpoint: Checkpoint;
  /** Stream namespace of this graph (`[]` for the root). */
  readonly namespace: readonly string[];
  /** Interrupts that paused the run (set when it ends paused). */
  interrupts: Interrupt[] | undefined;
  /** The run's `GraphCallbackHandler`s (see graph-callbacks.ts), when it has any. */
  private readonly graphHandlers: GraphCallbackHandler[] | undefined;
  /** Where the run stands for those handlers: a breakpoint sets it as it pauses. */
  private lifecycleStatus: GraphLifecycleStatus = "pending";
  /** The checkpoint a resumed run resumed from (set only when there are graph handlers). */
  private resumedFrom: string | undefined;
  private lifecycleRunId: string | undefined;
  private readonly depth: number;
  private writeState: WriteState;
  private updatedChannels: Set<string> | undefined;
  private step: number;
  private stop: number;
  private tasks: RunningTask[] = [];
  private outputWritten = false;
  private readonly wantsUpdates: boolean;
  private readonly wantsValues: boolean;
  private readonly wantsTasks: boolean;
  private readonly wantsDebug: boolean;
  /** The sink reports to chain callbacks, which hear hidden tasks too (the `__start__` node). */
  private readonly hearsHidden: boolean;
  private readonly wantsCheckpoints: boolean;
  private readonly writer: StreamWriter;
  /** A root run streamed to a consumer (see `RunnerContext.gatherAlone`). */
  private readonly streamed: boolean;
  private readonly outputKeys: readonly string[];
  /** What `values` and `updates` chunks show (`LoopGraph.valuesChannels`), and as a list. */
  private readonly valuesChannels: string | readonly string[];
  private readonly streamKeys: readonly string[];
  private readonly factory: TaskFactory;
  private stepController: AbortController | undefined;
  private runSignal: AbortSignal | undefined;
  /** The first failure of a functional-API call in the current step (see {@link callFailed}). */
  private callFailure: CallFailure | undefined;
  /** Functional-API calls of the current step still running, each with what fails it at once. */
  private readonly runningCalls = new Map<Task, (error: AbortError) => void>();
  /**
   * With a cache, the cache lookups of the functional-API calls made so far, one after the other:
   * each call starts once the calls made before it looked theirs up (see {@link callTask}).
   */
  private callLookups: Promise<void> | undefined;
  /** How many calls wait in {@link callLookups}. */
  private callLookupsPending = 0;
  /** Functional-API calls running, each as a promise settled when it settles. */
  private readonly callsInFlight = new Set<Promise<void>>();
  /** Functional-API calls that finished and wait for their commit, in the order they finished. */
  private readonly pendingCalls: { task: Task; error: unknown }[] = [];
  /** Values of the last checkpoint (kept up to date from changed channels). */
  private channelValues: Record<string, unknown> = {};
  /** Writes saved for the checkpoint the run resumes from (consumed by the first step). */
  private saved: SavedWrites | undefined;
  /** Answers to interrupts given with this run's input. */
  private resumeMap: Readonly<Record<string, unknown>> | undefined;
  private nullResume: { value: unknown } | undefined;
  /** Writes saved for the tasks of the current step (functional-API calls look theirs up here). */
  private stepSaved: Map<string, PendingWrite[]> | undefined;
  /**
   * What the thread's latest checkpoint, made by updateState or a fork and named by id, saved for
   * its tasks: they run again from scratch, but the checkpoints/debug streams describe that
   * checkpoint as it was saved (its tasks' errors, interrupts and results), as LangGraph.js does.
   */
  private rerunSaved: Map<string, PendingWrite[]> | undefined;
  /** Whether a checkpoint was loaded (the thread has history). */
  private restored = false;
  /** A nested graph that started from its checkpoint before its root run's replay point (see {@link SubgraphReplay}). */
  private replayedFrom = false;
  /**
   * A nested graph that saves nothing (`checkpointer: false`) in a run that does: as in
   * LangGraph.js, each of its steps still has a checkpoint id (never saved), which the graphs
   * its nodes run list among their checkpoints' parents (`checkpoint_map`, `metadata.parents`).
   */
  private readonly unsavedUnderSaver: boolean;
  /** The id of this step's unsaved checkpoint (see {@link unsavedUnderSaver}), minted on first use. */
  private unsavedStep: { step: number; id: string } | undefined;

  /** The checkpoint id the tasks of this step are made from. */
  private taskCheckpointId(): string {
    if (!this.unsavedUnderSaver) return this.checkpoint.id;
    if (this.unsavedStep?.step !== this.step) this.unsavedStep = { step: this.step, id: timeOrderedId() };
    return this.unsavedStep.id;
  }
  /** The next step is the one a resume runs again. */
  private resumedStep = false;
  /**
   * The scalar resume answer of the current step, while tasks created now can still take it:
   * every task of the step gets its own chance (as the tasks LangGraph.js prepares together do),
   * and once one has used it, calls made afterwards do not see it.
   */
  private stepNullResume: { readonly value: unknown; available: boolean } | undefined;

  constructor(params: LoopParams) {
    this.params = params;
    this.unsavedUnderSaver =
      params.persistence === undefined &&
      params.parentNs !== "" &&
      isCheckpointSaver(params.link.checkpointer);
    const graph = params.graph;
    const channels = this.channels;
    const prototypes = graph.channels;
    for (const key in prototypes) channels[key] = (prototypes[key] as BaseChannel).fromCheckpoint(undefined);
    this.checkpoint = {
      v: CHECKPOINT_FORMAT_VERSION,
      id: params.persistence === undefined ? uniqueId() : "",
      ts: "",
      channel_values: {},
      channel_versions: {},
      versions_seen: {},
    };
    this.writeState = {
      maxVersion: undefined,
      idle: new Set(graph.initiallyIdle),
      changed: new Set(),
      finishable: graph.finishable,
    };
    this.step = -1;
    this.stop = this.step + params.recursionLimit + 1;
    this.namespace = params.parentNs === "" ? [] : params.parentNs.split(CHECKPOINT_NAMESPACE_SEPARATOR);
    this.depth = this.namespace.length;
    this.graphHandlers = graphHandlersOf(params.config.callbacks);
    const sink = params.sink;
    const wants = (mode: StreamMode) => sink?.wants(mode, this.depth) === true;
    this.wantsUpdates = wants("updates");
    this.wantsValues = wants("values");
    this.wantsTasks = wants("tasks");
    this.wantsDebug = wants("debug");
    this.hearsHidden = this.wantsDebug && sink?.hearsHidden() === true;
    this.wantsCheckpoints = wants("checkpoints");
    const namespace = this.namespace;
    const writer = sink?.wants("custom", this.depth)
      ? (chunk: unknown) => sink.push(namespace, "custom", chunk)
      : () => {};
    // the model and tool calls made in a root run streamed to a consumer reach the model or the
    // tool's function as late as LangChain.js's do (see streamed-run.ts in shared/)
    this.streamed = sink !== undefined && params.parentNs === "";
    this.writer = this.streamed ? markStreamedRun(writer) : writer;
    this.outputKeys =
      typeof graph.outputChannels === "string" ? [graph.outputChannels] : graph.outputChannels;
    this.valuesChannels = graph.valuesChannels ?? graph.streamChannels;
    this.streamKeys = typeof this.valuesChannels === "string" ? [this.valuesChannels] : this.valuesChannels;
    this.factory = new TaskFactory({
      config: params.config,
      writer: this.writer,
      link: params.link,
      channels: this.channels,
      call: this.callTask,
      lazySignal: this.lazySignal,
      persistent: params.persistence !== undefined || this.unsavedUnderSaver,
      parentNs: params.parentNs,
      lastStep: () => this.stop,
    });
  }

  /** Runs the graph to completion, until it pauses (see {@link interrupts}), or until it fails. */
  async run(): Promise<void> {
    let failure: { error: unknown } | undefined;
    try {
      // a run aborted before it starts saves nothing (as in LangGraph.js); nor does a subgraph
      // whose parent was aborted while it was being started (its task abandoned, the parent's
      // run over: what it saved would land after the parent's last save)
      const signal = this.params.abortSignal;
      if (signal?.aborted) throw abortErrorOf(signal);
      if (this.params.persistence !== undefined) await this.restore();
      if (signal?.aborted) throw abortErrorOf(signal);
      await this.first();
      if (this.graphHandlers !== undefined && this.resumedFrom !== undefined) {
        await dispatchGraphEvent(this.graphHandlers, {
          runId: this.graphRunId(),
          status: this.lifecycleStatus,
          checkpointId: this.resumedFrom,
          checkpointNs: [...this.namespace],
        });
      }
      let lastYield = Date.now();
      let startWait = this.params.startTurns ?? 0;
      while (this.tick()) {
        // a nested run's first step: its hidden `__start__` step is announced, then runs that
        // much later; a step that runs a node waits before anything (see LoopParams.startTurns)
        const hiddenStart = startWait > 0 && this.tasks.every((task) => task.node.hidden);
        if (startWait > 0 && !hiddenStart) await waitTurns(startWait);
        // cached tasks are known before the step's tasks are announced (their start then says
        // they do not run), and their updates follow the announcement, as in LangGraph.js
        if (this.params.cache === undefined) {
          if (this.toAnnounce !== undefined) {
            await waitTurns(this.announceTurns);
            this.announceTasks();
          }
        } else {
          const cached = await this.findCachedWrites(this.params.cache);
          this.announceTasks();
          for (let i = 0; i < cached.length; i++) this.commit(cached[i] as Task, undefined);
        }
        if (hiddenStart) await waitTurns(startWait);
        startWait = 0;
        const pending = this.runStep();
        /** An abort that came once every task of the step had finished: the step is kept. */
        let abortedAfter: { error: unknown } | undefined;
        if (pending !== undefined) {
          try {
            await pending;
          } catch (error) {
            // a task paused: the calls still running finish first (one may fail the run)
            if (isGraphInterrupt(error) && this.callsInFlight.size > 0 && !this.abandoned) {
              await this.waitForCalls();
              if (this.pendingCalls.length > 0) this.flushCallCommits();
            }
            if (this.callFailure !== undefined && !isGraphBubbleUp(this.callFailure.error)) {
              // the calls it aborted that still retry finish first
              if (this.callsInFlight.size > 0 && !this.abandoned) await this.waitForCalls();
              throw this.callFailureError(this.callFailure);
            }
            if (!this.finishedBeforeAbort()) throw error;
            abortedAfter = { error };
          }
          lastYield = Date.now();
        } else if (this.params.sink !== undefined) {
          // let stream consumers see each step as it completes
          await undefined;
        } else if (Date.now() - lastYield > YIELD_INTERVAL_MS) {
          // a long run of synchronous nodes still lets timers (and aborts) through
          await new Promise<void>((resolve) => setTimeout(resolve, 0));
          lastYield = Date.now();
          const signal = this.params.abortSignal;
          if (signal?.aborted) throw abortErrorOf(signal);
        }
        if (this.callsInFlight.size > 0 && !this.abandoned) await this.waitForCalls();
        if (this.pendingCalls.length > 0) this.flushCallCommits();
        if (this.callFailure !== undefined) throw this.callFailureError(this.callFailure);
        this.afterTick();
        const ended = this.params.persistence?.endStep();
        if (ended !== undefined) await ended;
        if (abortedAfter !== undefined) throw abortedAfter.error;
        // a nested run's steps take about as many turns as there (see NESTED_STEP_TURNS)
        if (this.params.parentNs !== "") await waitTurns(NESTED_STEP_TURNS);
      }
    } catch (error) {
      failure = { error };
    }
    if (this.cacheWrites.length > 0) {
      try {
        await Promise.all(this.cacheWrites);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (this.params.persistence !== undefined) {
      if (this.stepNullResume?.available === false)
        this.params.persistence.dropDeferredWrite(NULL_TASK_ID, RESUME);
      try {
        await this.params.persistence.flush(failure !== undefined);
      } catch (error) {
        // A failed save outranks a pause: the interrupt's checkpoint was not saved, so the run
        // could not be resumed from it.
        if (failure === undefined || isGraphInterrupt(failure.error)) failure = { error };
      }
    }
    if (failure === undefined) return;
    if (isGraphInterrupt(failure.error)) {
      this.pause(failure.error.interrupts);
      // A root run ends paused; a nested one passes the interrupt to the task that runs it.
      if (this.params.parentNs === "") {
        if (this.graphHandlers !== undefined) {
          await dispatchGraphEvent(this.graphHandlers, {
            runId: this.graphRunId(),
            status: this.lifecycleStatus,
            checkpointId: this.checkpoint.id,
            checkpointNs: [...this.namespace],
            interrupts: [...failure.error.interrupts],
          });
        }
        return;
      }
      markNestedRunPause(failure.error);
    }
    throw failure.error;
  }

  /** The id graph callback handlers hear: the caller's `runId` (or chain callbacks'), else one made for the run. */
  private graphRunId(): string {
    this.lifecycleRunId ??= this.params.runId ?? randomId();
    return this.lifecycleRunId;
  }

  /** The run's result: the output channels' values (`undefined` when no step ever wrote one). */
  output(): unknown {
    if (!this.outputWritten) return undefined;
    return this.readOutput();
  }

  private readOutput(): unknown {
    const outputs = this.params.graph.outputChannels;
    if (typeof outputs === "string") {
      const channel = this.channels[outputs];
      // empty, it reads as null, as in the values stream (what LangGraph.js's invoke returns)
      return channel?.isAvailable() ? channel.get() : null;
    }
    return readChannels(this.channels, outputs);
  }

  /**
   * The values the `values` stream mode shows: every state key (even with an output schema),
   * except in a run of `invoke` (`valuesChannels`); a checkpoint's values are every state key.
   */
  private readStream(keys: string | readonly string[] = this.valuesChannels): unknown {
    if (typeof keys === "string") {
      const channel = this.channels[keys];
      // an empty single stream channel reads as null, as LangGraph.js reads it
      return channel?.isAvailable() ? channel.get() : null;
    }
    return readChannels(this.channels, keys);
  }

  private nextVersion = (current: ChannelVersion | undefined): ChannelVersion => {
    const persistence = this.params.persistence;
    return persistence === undefined
      ? nextIntegerVersion(current)
      : (persistence.params.saver.getNextVersion(current) as ChannelVersion);
  };

  /** Loads the checkpoint the run starts from (the thread's latest, or the one named). */
  private async restore(): Promise<void> {
    const persistence = this.params.persistence as LoopPersistence;
    const replay = this.params.parentNs === "" ? undefined : this.params.link.replay;
    const replayed =
      replay !== undefined &&
      persistence.params.checkpointId === undefined &&
      replay.firstVisit(this.params.parentNs);
    const tuple = replayed ? await persistence.loadBefore(replay.checkpointId) : await persistence.load();
    // started from before the replay point, it takes its input anew rather than resuming
    this.replayedFrom = replayed;
    if (tuple === undefined) return;
    this.restored = true;
    const checkpoint = copyCheckpoint(tuple.checkpoint);
    this.checkpoint = checkpoint;
    this.channelValues = { ...checkpoint.channel_values };
    for (const key in this.params.graph.channels) {
      const prototype = this.params.graph.channels[key] as BaseChannel;
      this.channels[key] = prototype.fromCheckpoint(checkpoint.channel_values[key]);
    }
    this.writeState = initialWriteState(checkpoint, this.channels);
    persistence.config = persistence.configFor(checkpoint.id);
    const step = typeof tuple.metadata?.step === "number" ? tuple.metadata.step : -1;
    this.step = step + 1;
    this.stop = this.step + this.params.recursionLimit + 1;
    this.saved = groupSavedWrites(tuple.pendingWrites ?? [], NULL_TASK_ID, RESUME);
    this.loaded = {
      metadata: tuple.metadata ?? { source: "loop", step, parents: {} },
      parentConfig: tuple.parentConfig ?? persistence.configFor(undefined),
      savedParentConfig: tuple.parentConfig,
    };
  }

  /**
   * A root run addressed to a checkpoint the thread has moved on from, or to one `updateState`
   * or a fork made, travels back in time: its nested graphs start from their checkpoints saved
   * before the replay point (that checkpoint, or the one the update was made on).
   */
  private async startReplay(persistence: LoopPersistence): Promise<void> {
    const source = this.loaded?.metadata.source;
    const updateOrFork = source === "update" || source === "fork";
    if (!updateOrFork) {
      const latest = await persistence.params.saver.getTuple(persistence.configFor(undefined));
      if (latest === undefined || latest.checkpoint.id === this.checkpoint.id) return;
    }
    const parentId = this.loaded?.savedParentConfig?.configurable?.checkpoint_id;
    const bound = updateOrFork && typeof parentId === "string" ? parentId : this.checkpoint.id;
    this.params.link.replay = new SubgraphReplay(bound);
  }

  /** The loaded checkpoint, as the checkpoints/debug streams report it. */
  private loaded: ReportedCheckpoint | undefined;

  /**
   * Applies the input. New input is written to the input channel and checkpointed (step -1 on a
   * new thread), dropping what the previous run left pending; `null`, or a `Command` with a
   * `resume`, continues the interrupted step of the loaded checkpoint; a `Command`'s update and
   * `goto` are saved as writes of the loaded checkpoint and applied before its step runs again
   * (without a `resume`, they are checkpointed as input and the pending nodes run anew).
   */
  private async first(): Promise<void> {
    const input = this.params.input;
    const persistence = this.params.persistence;
    const command = isCommand(input) ? input : undefined;
    if (command?.graph === Command.PARENT && this.params.parentNs === "") {
      // LangGraph.js's text: a root run has no parent to send the command to
      throw new InvalidUpdateError(
        "There is no parent graph. A Command({ graph: Command.PARENT }) given as a run's input needs a parent graph; leave `graph` out to apply it to this graph.",
      );
    }
    const resume = command === undefined ? undefined : (command as { resume?: unknown }).resume;
    const hasResume = resume !== undefined && resume !== null;
    if (hasResume && persistence === undefined) {
      throw new GraphValueError(
        "Cannot use Command(resume=...) without checkpointer. Compile the graph with a checkpointer to pause and resume runs.",
        { code: "MISSING_CHECKPOINTER" },
      );
    }
    if (hasResume && persistence !== undefined && this.params.parentNs === "") {
      const configurable = this.params.config.configurable as Record<string, unknown> | undefined;
      if (configurable?.[CONFIG_KEY_STRICT_RESUME] === true) {
        // a resume addressed to a past checkpoint forks: it is not checked against pending ids
        const latest = this.params.explicitCheckpoint
          ? await persistence.params.saver.getTuple(persistence.configFor(undefined))
          : undefined;
        if (latest === undefined || latest.checkpoint.id === this.checkpoint.id) {
          refuseUnmatchedResume(resume, pendingInterruptIds(this.saved?.byTask));
        }
      }
    }
    const commandWrites = command === undefined ? [] : this.commandWrites(command);
    // a goto to END writes nothing but is not empty input (LangGraph.js maps it to a write)
    if (
      command !== undefined &&
      commandWrites.length === 0 &&
      !hasResume &&
      commandGotoList(command).length === 0
    ) {
      throw new EmptyInputError(
        "Received empty Command input: give it an update, a goto, or a resume value.",
      );
    }
    const noInput = input === undefined || input === null;
    // A subgraph whose parent task is resuming resumes too (its input is the parent's state again).
    const parentResuming =
      (this.params.config as Record<symbol, unknown>)[RESUMING] === true &&
      this.restored &&
      !this.replayedFrom;
    // A checkpoint no channel was ever written to (one `updateState(config, null)` or an
    // unanswerable resume made on a new thread) has nothing to continue: as in LangGraph.js,
    // `null` is then no input and a `Command` is the run's input.
    const continuable = this.restored && hasChannelVersion(this.checkpoint);
    const resuming = continuable && (parentResuming || noInput || hasResume);
    if (noInput && !continuable) throw this.emptyInput();

    // Writes a Command saved on the loaded checkpoint (a crash may have cut its run short) come
    // first, then this Command's own (saved too, so a retry after a crash finds them).
    const nullWrites = parentResuming ? [] : [...(this.saved?.nullWrites ?? [])];
    if (command !== undefined && !parentResuming) {
      if (this.restored && commandWrites.length > 0) {
        (persistence as LoopPersistence).saveWrites(NULL_TASK_ID, commandWrites, "");
      }
      nullWrites.push(...commandWrites);
    }
    if (hasResume && this.restored) this.takeResume(resume);
    if (nullWrites.length > 0) {
      applyWrites(
        this.checkpoint,
        this.channels,
        [{ name: INPUT_TASK, path: [], triggers: [], writes: nullWrites }],
        this.nextVersion,
        this.params.graph.triggerToNodes,
        this.writeState,
      );
      if (nullWrites.some(([key]) => this.outputKeys.includes(key))) this.outputWritten = true;
    }

    if (persistence !== undefined && this.params.explicitCheckpoint && this.restored && !hasResume) {
      await this.startReplay(persistence);
    }
    if (resuming) {
      // The interrupted step runs again; interruptBefore does not fire again for it.
      this.resumedStep = true;
      // the checkpoint resumed from is the first the checkpoints/debug streams report
      if (this.loaded !== undefined && (this.wantsCheckpoints || this.wantsDebug))
        this.unreported = this.loaded;
      this.checkpoint.versions_seen[INTERRUPT] = { ...this.checkpoint.channel_versions };
      if (persistence !== undefined && this.params.explicitCheckpoint && command === undefined) {
        // Time travel: a run continued from a past checkpoint re-runs its tasks on a fork.
        const latest = await persistence.params.saver.getTuple(persistence.configFor(undefined));
        if (latest !== undefined && latest.checkpoint.id !== this.checkpoint.id) {
          this.saved = undefined;
          this.saveCheckpoint("fork");
          this.step += 1;
        } else {
          // The thread's latest checkpoint named by id re-runs its tasks, answers and all, when
          // updateState or a fork made it (as in LangGraph.js); one a step made is resumed.
          const source = this.loaded?.metadata.source;
          if (source === "update" || source === "fork") {
            if (this.unreported !== undefined) this.rerunSaved = this.saved?.byTask;
            this.saved = undefined;
          }
        }
      }
      if (this.graphHandlers !== undefined) this.resumedFrom = this.checkpoint.id;
      // A resumed run reports the state it resumes from (so its result is never empty).
      this.outputWritten = true;
      if (this.wantsValues) this.push("values", this.readStream());
      return;
    }
    // Not resuming: what the loaded checkpoint left pending is not continued.
    this.saved = undefined;
    if (command !== undefined) {
      // A Command's update or goto is the run's input: nodes it triggers run, and so do the ones
      // the loaded checkpoint left pending (from scratch); breakpoints do not fire on it again.
      this.checkpoint.versions_seen[INTERRUPT] = { ...this.checkpoint.channel_versions };
      this.outputWritten = true;
      if (this.wantsValues) this.push("values", this.readStream());
    } else {
      const validate = this.params.graph.validateInput;
      const writes = mapInput(
        this.params.graph.inputChannels,
        validate === undefined ? input : validate(input),
      );
      if (writes.length === 0) throw this.emptyInput();
      // Tasks the loaded checkpoint left pending are dropped: marked as having seen their triggers.
      const discarded: CommittedTask[] = [];
      if (this.restored) {
        const graph = this.params.graph;
        const pending = prepareNextTasks(this.checkpoint, graph.nodes, this.channels, {
          step: this.step,
          parentNs: this.params.parentNs,
          updatedChannels: undefined,
          triggerToNodes: graph.triggerToNodes,
          deterministicIds: true,
        });
        for (const task of pending) {
          discarded.push({ name: task.name, path: task.path, triggers: task.triggers, writes: [] });
        }
      }
      discarded.push({ name: INPUT_TASK, path: [], triggers: [], writes });
      this.updatedChannels = applyWrites(
        this.checkpoint,
        this.channels,
        discarded,
        this.nextVersion,
        this.params.graph.triggerToNodes,
        this.writeState,
      );
      if (writes.some(([key]) => this.outputKeys.includes(key))) this.outputWritten = true;
    }
    if (persistence !== undefined) this.saveCheckpoint("input");
    this.step += 1;
  }

  private emptyInput(): EmptyInputError {
    return new EmptyInputError(
      `Received no input writes for ${JSON.stringify(this.params.graph.inputChannels)}: pass the graph's input to invoke()/stream() (null only resumes a saved run, which needs a checkpointer and a thread_id with history).`,
    );
  }

  /** Records the answers a `Command({ resume })` gives: a map by interrupt id, or one value for all. */
  private takeResume(resume: unknown): void {
    const persistence = this.params.persistence as LoopPersistence;
    if (isResumeMap(resume)) {
      this.resumeMap = resume;
      return;
    }
    this.nullResume = { value: resume };
    persistence.saveWrites(NULL_TASK_ID, [[RESUME, resume]], "");
  }

  /** The writes of a `Command` given as input: its update, and its `goto` as triggers or sends. */
  private commandWrites(command: Command): [string, unknown][] {
    const entries = commandUpdateEntries(command);
    const validate = this.params.graph.commandInputUpdate;
    const writes: [string, unknown][] =
      validate === undefined || entries.length === 0 ? [...entries] : validate(entries);
    const nodes = this.params.graph.nodes;
    for (const target of commandGotoList(command)) {
      if (isSend(target)) writes.push([TASKS, target]);
      else if (target === END) continue;
      else if (typeof target === "string" && Object.hasOwn(nodes, target))
        writes.push([BRANCH_PREFIX + target, null]);
      else {
        throw new InvalidUpdateError(
          `Command.goto of the graph input names ${JSON.stringify(target)}, which is not a node of this graph.`,
        );
      }
    }
    return writes;
  }

  /** Prepares the next superstep; returns false when the run is done. */
  private tick(): boolean {
    if (this.step > this.stop) {
      throw new GraphRecursionError(
        `Recursion limit of ${this.params.recursionLimit} reached without hitting a stop condition. You can increase the limit by setting the "recursionLimit" config key.`,
        { lc_error_code: "GRAPH_RECURSION_LIMIT" },
      );
    }
    const graph = this.params.graph;
    const persistent = this.params.persistence !== undefined;
    const prepared = prepareNextTasks(this.checkpoint, graph.nodes, this.channels, {
      step: this.step,
      parentNs: this.params.parentNs,
      updatedChannels: this.updatedChannels,
      triggerToNodes: graph.triggerToNodes,
      deterministicIds: persistent,
    });
    if (prepared.length === 0) {
      if (this.unreported !== undefined) this.reportCheckpoint([]);
      return false;
    }
    const stepController =
      prepared.length > 1 || this.params.stepTimeout !== undefined
        ? linkedController(this.params.abortSignal)
        : undefined;
    const signal = stepController?.signal ?? this.params.abortSignal;
    const tasks: Task[] = new Array(prepared.length);
    for (let i = 0; i < prepared.length; i++) {
      tasks[i] = this.factory.create(
        prepared[i] as PreparedTask<PregelNode>,
        this.step,
        this.taskCheckpointId(),
        signal,
      );
    }
    if (persistent) this.attachSavedWrites(tasks);
    const interruptBefore = this.params.interruptBefore;
    if (interruptBefore !== undefined && shouldInterrupt(this.checkpoint, interruptBefore, tasks)) {
      if (stepController !== undefined) releaseController(stepController);
      // the checkpoint the run pauses at is streamed first, as LangGraph.js does
      if (this.unreported !== undefined) this.reportCheckpoint(tasks);
      this.lifecycleStatus = "interrupt_before";
      throw new GraphInterrupt([]);
    }
    const control = this.params.config.control ?? this.params.link.control;
    if (control?.drainRequested === true) {
      // stop at the boundary: the last finished step's checkpoint is the one to resume from
      if (stepController !== undefined) releaseController(stepController);
      throw new GraphDrained(control.drainReason ?? "shutdown");
    }
    const reported = this.unreported !== undefined;
    if (reported) this.reportCheckpoint(tasks);
    this.tasks = tasks;
    if (persistent && this.wantsUpdates) {
      // writes saved before the run was interrupted are replayed, and streamed as cached
      for (const task of tasks) if (task.done && task.writes[0]?.[0] !== ERROR) this.streamCachedUpdate(task);
    }
    this.stepController = stepController;
    const messages = this.params.link.messagesHandler;
    if (messages !== undefined) {
      for (const task of tasks) messages.taskStarted(task.input, task.config.metadata);
    }
    if (this.params.debug) printTasks(this.step, tasks);
    // tasks that finished before the run was interrupted are announced too (as LangGraph.js
    // does), unless none is left to run; announced once the cache was looked up (see run)
    this.toAnnounce =
      (this.wantsTasks || this.wantsDebug) && tasks.some((task) => !(task as Task).done)
        ? tasks.filter((task) => !task.node.hidden || this.hearsHidden)
        : undefined;
    if (this.toAnnounce !== undefined) this.announceTurns = gatherTurns(this.toAnnounce, reported);
    return true;
  }

  /** The step's tasks {@link tick} left to announce. */
  private toAnnounce: RunningTask[] | undefined;

  /** Microtask turns to wait before announcing {@link toAnnounce} (see {@link gatherTurns}). */
  private announceTurns = 0;

  /** Streams the start of the step's tasks (see {@link tick}). */
  private announceTasks(): void {
    const tasks = this.toAnnounce;
    if (tasks === undefined) return;
    this.toAnnounce = undefined;
    for (let i = 0; i < tasks.length; i++) this.emitTaskStart(tasks[i] as RunningTask);
  }

  /**
   * Resuming: tasks whose writes were saved keep them and do not run again; interrupted tasks
   * get the answers so far; the saved writes are used up by this step.
   */
  private attachSavedWrites(tasks: Task[]): void {
    const saved = this.saved;
    const resumingStep = saved !== undefined && this.resumedStep;
    // A subgraph's tasks take its parent task's scalar answer only in the step it resumes (as in
    // LangGraph.js, where it is saved with the checkpoint the subgraph resumes from): a subgraph
    // that starts afresh, or has moved on a step, leaves it.
    const parentScalar = this.resumedStep;
    this.saved = undefined;
    this.stepSaved = saved?.byTask;
    this.resumedStep = false;
    let shared =
      this.nullResume !== undefined
        ? { value: this.nullResume.value, available: true }
        : saved !== undefined && saved.nullResume.length > 0
          ? { value: saved.nullResume[saved.nullResume.length - 1], available: true }
          : undefined;
    // As in LangGraph.js, a subgraph resumed with its parent task's scalar answer saves it as its
    // own: every task of its step (and the calls made together with them) gets it, rather than
    // only the first that asks its parent.
    let ownParentScalar = false;
    if (shared === undefined && parentScalar && this.params.persistence !== undefined) {
      const fromParent = this.parentScratchpad()?.peekScalar() ?? NO_RESUME;
      if (fromParent !== NO_RESUME) {
        shared = { value: fromParent, available: true };
        ownParentScalar = true;
      }
    }
    this.stepNullResume = shared;
    // (handler tasks of failures saved as handled are appended, and attached in turn)
    for (let i = 0; i < tasks.length; i++) {
      const task = tasks[i] as Task;
      const writes = saved?.byTask.get(task.id);
      let answers: unknown[] = [];
      if (writes !== undefined) {
        const output = writes.filter(
          ([channel]) =>
            channel !== ERROR && channel !== INTERRUPT && channel !== RESUME && channel !== ERROR_SOURCE_NODE,
        );
        const resume = writes.find(([channel]) => channel === RESUME);
        if (resume !== undefined && Array.isArray(resume[1])) answers = [...(resume[1] as unknown[])];
        if (output.length > 0) {
          task.writes.push(...(output as [string, unknown][]));
          task.done = true;
        } else if (task.node.errorHandler !== undefined && writes.some(([c]) => c === ERROR_SOURCE_NODE)) {
          // failed and went to its error handler: the handler (not the node) runs again
          const error = savedError(writes.find(([channel]) => channel === ERROR)?.[1]);
          task.writes.push([ERROR, error]);
          task.done = true;
          tasks.push(this.makeErrorHandlerTask(task, error));
        }
      }
      task[SCRATCHPAD] = new Scratchpad(
        answers,
        // (most steps have no scalar answer: no call for them)
        shared === undefined ? NO_SCALAR_ANSWER : shareOf(shared, true, false),
        this.resumeMap,
        this.parentScratchpad(),
        parentScalar && !ownParentScalar,
      );
      if (resumingStep) (task.config as Record<symbol, unknown>)[RESUMING] = true;
    }
    this.nullResume = undefined;
    this.resumeMap = undefined;
  }

  /** Pending stores into the node cache (awaited before the run ends). */
  private readonly cacheWrites: Promise<void>[] = [];

  /**
   * The run's stores into the cache and its lookups for a step's tasks, one after the other (as
   * LangGraph.js queues them): a step's lookup sees what the steps before it stored, so a node
   * that runs again later in the run with the same key is served from the cache.
   */
  private cacheQueue: Promise<unknown> | undefined;

  /** Runs a cache operation after those queued before it. */
  private queueCacheOperation<T>(operation: () => Promise<T>): Promise<T> {
    // (made on first use: a run without a cache makes no promise for it)
    const result = (this.cacheQueue ?? Promise.resolve()).then(operation);
    this.cacheQueue = result.catch(() => undefined);
    return result;
  }

  /** The cache key of each task that needed one, so that `keyFunc` runs once per task. */
  private readonly cacheKeys = new WeakMap<RunningTask, CacheFullKey>();

  /**
   * The cache key of a task, when its node has a cache policy. As in LangGraph.js, a graph
   * node's entries are under `[CACHE_NS_WRITES, "__dynamic__", node]`, a `task()`'s under
   * `[CACHE_NS_WRITES, name]`.
   */
  private cacheKey(task: RunningTask): CacheFullKey | undefined {
    const policy = task.node.cachePolicy;
    if (policy === undefined) return undefined;
    let key = this.cacheKeys.get(task);
    if (key === undefined) {
      const keyFunc = policy.keyFunc ?? ((input: unknown) => JSON.stringify(input));
      const namespace = isCallPath(task.path)
        ? [CACHE_NS_WRITES, task.name]
        : [CACHE_NS_WRITES, "__dynamic__", task.name];
      const text: unknown = keyFunc([task.input]);
      // hashing reads text: any other value would give every input the same entry
      if (typeof text !== "string") {
        throw new TypeError(
          `The cachePolicy keyFunc of "${task.name}" returned ${text === null ? "null" : typeof text}, not a string. Return text that tells inputs apart, e.g. keyFunc: ([input]) => JSON.stringify(input).`,
        );
      }
      key = [namespace, contentHash(text)];
      this.cacheKeys.set(task, key);
    }
    return key;
  }

  /**
   * Tasks whose writes are cached take them instead of running; returns them, for the caller
   * to commit (their `updates` chunk says they were cached).
   */
  private async findCachedWrites(cache: BaseCache): Promise<Task[]> {
    const keyed: [Task, CacheFullKey][] = [];
    for (const task of this.tasks as Task[]) {
      if (task.done) continue;
      const key = this.cacheKey(task);
      if (key !== undefined) keyed.push([task, key]);
    }
    if (keyed.length === 0) return [];
    const found = await this.queueCacheOperation(() => cache.get(keyed.map(([, key]) => key)));
    const byKey = new Map(found.map((entry) => [JSON.stringify(entry.key), entry.value]));
    const cached: Task[] = [];
    for (const [task, key] of keyed) {
      const writes = byKey.get(JSON.stringify(key));
      if (!Array.isArray(writes)) continue;
      task.writes.push(...(writes as [string, unknown][]));
      task.done = true;
      task.cached = true;
      cached.push(task);
    }
    return cached;
  }

  /** The scratchpad of the task this (nested) run belongs to, if any. */
  private parentScratchpad(): Scratchpad | undefined {
    const parentTask = (this.params.config as Record<symbol, unknown>)[CURRENT_TASK] as Task | undefined;
    return parentTask?.[SCRATCHPAD];
  }

  /** The run's own signal (never aborted by the caller, who passed none), made on first use. */
  private readonly lazySignal = (): AbortSignal => {
    this.runSignal ??= neverAborted(new AbortController().signal);
    return this.runSignal;
  };

  /** Runs the step's tasks; returns `undefined` when they all completed synchronously. */
  private runStep(): void | Promise<void> {
    const controller = this.stepController;
    const signal = this.params.abortSignal;
    if (signal?.aborted) throw abortErrorOf(signal);
    const pending = this.tasks.filter((task) => !(task as Task).done);
    this.stepPending = pending.length;
    this.stepFinished = 0;
    if (pending.length === 0) {
      if (controller !== undefined) releaseController(controller);
      return undefined;
    }
    let running: void | Promise<void>;
    try {
      running = runTasks(pending, {
        step: this.step,
        maxConcurrency: this.params.maxConcurrency,
        retryPolicy: this.params.retryPolicy,
        stepController: controller,
        commit: this.commit,
        settled: this.params.link.messagesHandler === undefined ? undefined : this.reportFinished,
        errorHandlerTask: this.errorHandlerTask,
        nested: this.params.parentNs !== "",
        gatherAlone: this.streamed,
        abandon:
          this.params.persistence === undefined && !(this.wantsTasks || this.wantsDebug)
            ? undefined
            : this.abandonRunning,
      });
    } catch (error) {
      if (controller !== undefined) releaseController(controller);
      throw error;
    }
    if (running === undefined) {
      if (controller !== undefined) releaseController(controller);
      return undefined;
    }
    const stepTimeout = this.params.stepTimeout;
    if (stepTimeout !== undefined && controller !== undefined) {
      running = withStepTimeout(running, stepTimeout, controller, this.step);
    }
    let raced: Promise<void> = running;
    if (signal !== undefined) {
      raced = raceSignal(
        running,
        signal,
        () => abortErrorOf(signal),
        () => {
          // once the caller aborted, tasks still running are left to finish in the background
          // and what they do is not recorded (LangGraph.js saves nothing for them): a resumed
          // run runs them again
          if (signal.aborted) this.abandoned = true;
        },
      );
    }
    if (controller !== undefined) {
      // the link goes once the step is over, off the promise the loop awaits: a `finally` there
      // would hold every step of several tasks three microtask turns longer than LangGraph.js's
      const release = (): void => releaseController(controller);
      raced.then(release, release);
    }
    return raced;
  }

  /** The caller aborted the run mid-step: what the step's tasks still running do is ignored. */
  private abandoned = false;

  /** Tasks of the current step still to finish when it started running (see runStep). */
  private stepPending = 0;
  /** Tasks of the current step that finished without an error (see commit). */
  private stepFinished = 0;

  /**
   * The run was aborted, but only after every task of the step had finished (a stream consumer
   * that stops at the step's last chunk, say): the step is committed and checkpointed before the
   * run stops, as in LangGraph.js, whose loop has saved it by then.
   */
  private finishedBeforeAbort(): boolean {
    return (
      this.params.abortSignal?.aborted === true &&
      this.callFailure === undefined &&
      this.stepPending > 0 &&
      this.stepFinished === this.stepPending &&
      this.stepFinished === this.tasks.filter((task) => !(task as Task).done).length
    );
  }

  /**
   * Makes the task that handles `failed`'s error (its node's `errorHandler`), as a task of the
   * current step: it reads `failed`'s input, gets the `NodeError` on its config and runs right
   * away. With a checkpointer its id is derived from `failed`'s, so a resumed step finds it.
   */
  private errorHandlerTask = (failed: RunningTask, error: unknown): RunningTask => {
    const task = this.makeErrorHandlerTask(failed, error);
    if (this.params.persistence !== undefined) {
      task[SCRATCHPAD] = new Scratchpad([], NO_SCALAR_ANSWER, undefined, this.parentScratchpad());
    }
    this.tasks.push(task);
    this.params.link.messagesHandler?.taskStarted(task.input, task.config.metadata);
    if (this.params.debug) printTasks(this.step, [task]);
    if (this.wantsTasks || this.wantsDebug) this.emitTaskStart(task);
    return task;
  };

  private makeErrorHandlerTask(failed: RunningTask, error: unknown): Task {
    const name = failed.node.errorHandler as string;
    const node = this.params.graph.nodes[name];
    if (node === undefined) {
      throw new InvalidUpdateError(
        `Node "${failed.name}" names "${name}" as its error handler, but the graph has no such node. Compile the graph from its StateGraph so that the handler node exists.`,
      );
    }
    const id = this.pushTaskId(name, `${NODE_ERROR_HANDLER}\u0000${failed.id}`);
    const prepared: PreparedTask<PregelNode> = {
      id,
      name,
      path: [
        failed.path[0] ?? PUSH,
        ...failed.path.slice(1, 3),
        NODE_ERROR_HANDLER,
        false,
      ] as PreparedTask["path"],
      input: failed.input,
      triggers: [PUSH],
      node,
      checkpointNs: taskNamespace(this.params.parentNs, name, id),
      writes: [],
    };
    const signal = this.stepController?.signal ?? this.params.abortSignal;
    const task = this.factory.create(prepared, this.step, this.taskCheckpointId(), signal);
    (task.config as Record<symbol, unknown>)[NODE_ERROR] = new NodeError(failed.name, error as Error);
    return task;
  }

  /**
   * A task aborted because a sibling failed: saved with an `AbortError` as its error, as
   * LangGraph.js saves it (what `getState().tasks[i].error` shows; a resumed run runs it again),
   * and, when the runner gave it up (`streamed`), its `tasks`/`debug` result is that error, as
   * LangGraph.js streams it once the abort reaches the task.
   */
  private abandon = (task: RunningTask, streamed = false): void => {
    if (this.abandoned) return;
    this.params.persistence?.saveWrites(task.id, [[ERROR, ABORTED_SIBLING]], taskPathKey(task.path));
    if (streamed) this.streamAborted(task);
  };

  /** The runner gives up a task still running when its step fails (see {@link abandon}). */
  private abandonRunning = (task: RunningTask): void => {
    this.abandon(task, true);
  };

  /** Streams the `tasks`/`debug` result of a task aborted by a sibling's or its call's failure. */
  private streamAborted(task: RunningTask): void {
    if (task.node.hidden || !(this.wantsTasks || this.wantsDebug)) return;
    // its writes are not its result: the run it made was aborted
    const payload = taskResultPayload(
      task,
      this.params.graph.streamChannels,
      new AbortError(ABORTED_SIBLING.message),
      [],
    );
    if (this.wantsTasks) this.push("tasks", payload);
    if (this.wantsDebug)
      this.push("debug", { step: this.step, type: "task_result", timestamp: nowIso(), payload });
  }

  /** Tells the `messages` stream that a task finished (once: as it settles, or at its commit). */
  private reportFinished = (task: RunningTask): void => {
    const messages = this.params.link.messagesHandler;
    if (messages === undefined || task.node.hidden || (task as Task).messagesReported) return;
    (task as Task).messagesReported = true;
    const run = task.node.graphRun;
    if (run === undefined) {
      messages.nodeFinished(task.config.metadata, task.config.tags, task.name, task.output, task.id);
    } else {
      const tags = [...run.tags, ...(task.config.tags ?? [])];
      const metadata = { ...run.metadata, ...task.config.metadata };
      messages.nodeFinished(metadata, tags, task.name, task.output, task.id, false);
    }
  };

  /** Records a finished task: saves its writes, and streams what it did. */
  private commit = (task: RunningTask, failure: unknown): void => {
    if (this.abandoned) return;
    // calls that finished before this task are committed first (checked inline: this runs for
    // every task, and calls are rare)
    if (this.pendingCalls.length > 0 && !isCallPath(task.path)) this.flushCallCommits();
    const callFailure = this.callFailure;
    if (callFailure !== undefined && !isGraphBubbleUp(callFailure.error) && !isCallPath(task.path)) {
      // a failed call aborted the step (as in LangGraph.js): a node or entrypoint that finishes
      // afterwards, its caller included, is saved as aborted; nothing is streamed for a sibling,
      // and the caller's result is an `AbortError` (LangGraph.js aborts the caller's run as the
      // call fails, and streams that, even when the caller's code caught the error)
      this.abandon(task);
      if ((task as Task).callCount > 0 && !this.abandoned) this.streamAborted(task);
      return;
    }
    if (failure === undefined) this.stepFinished++;
    // a task whose functional-API call failed failed too, even if its code caught the error
    // (its result is not saved: the run fails, and a resumed run runs it again); another call's
    // interrupt does not fail it: its result is saved, and a resumed run does not run it again
    let error =
      failure === undefined &&
      this.callFailure !== undefined &&
      !isGraphBubbleUp(this.callFailure.error) &&
      (task as Task).callCount > 0
        ? this.callFailure.error
        : failure;
    // a resumed task that sends a command to a parent graph
    let answered = false;
    // a node that returned a command for the parent graph with other updates: as LangGraph.js,
    // those are saved and streamed as its writes (a result with no error) as the command goes up
    let handedOff = false;
    if (
      error !== undefined &&
      isParentCommand(error) &&
      task.writes.some(([channel]) => channel !== RESUME)
    ) {
      error = undefined;
      answered = true;
      handedOff = true;
      DeltaChannel.prepareWrites(this.channels, task.writes);
    } else if (error !== undefined) {
      const resume = task.writes.filter(([channel]) => channel === RESUME);
      task.writes.length = 0;
      if (isGraphDrained(error)) {
        // a nested graph drained: the task did not finish, and runs again when the run resumes
        task.writes.push(...resume);
        if (resume.length > 0) {
          this.params.persistence?.saveWrites(
            task.id,
            this.trackedWrites(task.writes),
            taskPathKey(task.path),
          );
        }
        return;
      }
      if (isGraphInterrupt(error)) {
        task.writes.push(...resume, [INTERRUPT, error.interrupts]);
      } else if (resume.length > 0 && isGraphBubbleUp(error)) {
        // as LangGraph.js: its answers are saved as its writes, and it is reported as finished
        // (an update with no values, a result with no error); the no-writes mark makes it done
        // for `getState().next` too, which does not count saved answers alone as output
        task.writes.push(...resume, [NO_WRITES, null]);
        error = undefined;
        answered = true;
      }
      // saved as LangGraph.js saves it (what `getState().tasks[i].error` shows)
      else task.writes.push([ERROR, errorRecord(error)]);
    } else if (task.writes.length === 0) {
      task.writes.push([NO_WRITES, null]);
    } else {
      DeltaChannel.prepareWrites(this.channels, task.writes);
      if (this.params.persistence !== undefined) {
        // a saver encodes the writes before the step's end (at once with `sync`, as soon as its
        // queue runs with `async`, which can be while a sibling still runs), and stores a message
        // object once: it must have the id the messages reducer gives it by then. The messages
        // stream sees the task first, as it would before the reducer in LangGraph.js.
        this.reportFinished(task);
        BinaryOperatorAggregate.stampMessageIds(this.channels, task.writes);
      }
    }
    const persistence = this.params.persistence;
    // a task paused without interrupts of its own (a nested graph's static breakpoint) saves
    // nothing, as in LangGraph.js: the writes of the interrupt it was resumed from stay in the
    // checkpoint, so `getState().tasks` lists that interrupt again
    if (
      persistence !== undefined &&
      !(error !== undefined && isGraphInterrupt(error) && error.interrupts.length === 0)
    ) {
      const writes = this.trackedWrites(task.writes);
      persistence.saveWrites(
        task.id,
        // a handled failure is marked, so that a resumed step runs the handler, not the node
        handlesFailure(task, error) ? [...writes, [ERROR_SOURCE_NODE, task.name]] : writes,
        taskPathKey(task.path),
      );
    }
    const cache = this.params.cache;
    if (cache !== undefined && error === undefined && !answered && !(task as Task).cached) {
      const key = this.cacheKey(task);
      if (key !== undefined) {
        const ttl = task.node.cachePolicy?.ttl;
        const value = [...task.writes];
        this.cacheWrites.push(this.queueCacheOperation(() => cache.set([{ key, value, ttl }])));
      }
    }
    if (task.node.hidden) {
      // chain callbacks hear the hidden `__start__` node run, as in LangChain.js (no stream shows it)
      if (this.hearsHidden) {
        const failure = error === undefined || isGraphInterrupt(error) ? undefined : error;
        const payload = taskResultPayload(task, this.params.graph.streamChannels, failure);
        this.pushHidden({ step: this.step, type: "task_result", timestamp: nowIso(), payload });
      }
      return;
    }
    if (error === undefined && !handedOff && this.params.link.messagesHandler !== undefined)
      this.reportFinished(task);
    if (error === undefined) {
      // after the messages stream (which names a node's tool messages after the run), as the
      // messages reducer would before a consumer reads the chunk in LangGraph.js; only for a
      // stream that shows the writes before the step's end (the reducer stamps them then; with a
      // checkpointer they were stamped as the task was committed); not for a task that handed
      // off to the parent graph (its step never ends)
      if (
        persistence === undefined &&
        !handedOff &&
        (this.wantsUpdates || this.wantsTasks || this.wantsDebug)
      )
        BinaryOperatorAggregate.stampMessageIds(this.channels, task.writes);
      if (this.wantsUpdates) {
        const payload = updatesPayload(task, this.valuesChannels);
        if (payload !== undefined) {
          if ((task as Task).cached) payload.__metadata__ = { cached: true };
          this.push("updates", payload);
        }
      }
    } else if (isGraphInterrupt(error) && error.interrupts.length > 0 && !isCallPath(task.path)) {
      // each interrupted task reports its interrupts (a call's reach its caller, which reports them);
      // a subgraph's breakpoint (no interrupts) is reported once, by the root graph, as it pauses
      // one chunk per mode, sharing the interrupts list (as LangGraph.js)
      this.interruptStreamed = true;
      if (this.wantsUpdates) this.push("updates", { [INTERRUPT]: error.interrupts });
      if (this.wantsValues) this.push("values", { [INTERRUPT]: error.interrupts });
    }
    // a task served from the node cache has no result event (its start and update are streamed),
    // nor has a `task()` call that interrupted (its caller's result lists the interrupts) or a
    // task paused without interrupts (a subgraph's breakpoint, a bare `GraphInterrupt`)
    if (
      (this.wantsTasks || this.wantsDebug) &&
      !(task as Task).cached &&
      !(isGraphInterrupt(error) && (error.interrupts.length === 0 || isCallPath(task.path)))
    ) {
      // an interrupted task did not fail: its result lists the interrupts, with no error
      const failure = isGraphInterrupt(error) ? undefined : error;
      const payload = taskResultPayload(task, this.params.graph.streamChannels, failure);
      if (this.wantsTasks) this.push("tasks", payload);
      if (this.wantsDebug)
        this.push("debug", { step: this.step, type: "task_result", timestamp: nowIso(), payload });
    }
  };

  /** Writes to untracked channels are never saved. */
  private trackedWrites(writes: [string, unknown][]): PendingWrite[] {
    const untracked = this.params.graph.untracked;
    if (untracked.size === 0) return writes;
    return writes.filter(([channel]) => !untracked.has(channel));
  }

  /** Commits the superstep. */
  private afterTick(): void {
    const tasks = this.tasks;
    this.updatedChannels = applyWrites(
      this.checkpoint,
      this.channels,
      tasks,
      this.nextVersion,
      this.params.graph.triggerToNodes,
      this.writeState,
    );
    if (this.touches(tasks, this.outputKeys)) this.outputWritten = true;
    if (this.wantsValues && this.touches(tasks, this.streamKeys)) this.push("values", this.readStream());
    if (this.params.debug) printStep(this.step, tasks, this.readOutput());
    if (this.params.persistence !== undefined) this.saveCheckpoint("loop");
    this.tasks = [];
    // calls the step's code left running (never awaited) are not aborted by a later step's failure
    this.runningCalls.clear();
    this.stepSaved = undefined;
    this.stepNullResume = undefined;
    this.step += 1;
    const interruptAfter = this.params.interruptAfter;
    if (interruptAfter !== undefined && shouldInterrupt(this.checkpoint, interruptAfter, tasks)) {
      this.lifecycleStatus = "interrupt_after";
      throw new GraphInterrupt([]);
    }
  }

  private saveCheckpoint(source: "input" | "loop" | "fork"): void {
    const persistence = this.params.persistence as LoopPersistence;
    const parentConfig = persistence.config;
    persistence.saveCheckpoint(
      this.checkpoint,
      this.channels,
      this.writeState.changed,
      this.channelValues,
      source,
      this.step,
    );
    if (this.wantsCheckpoints || this.wantsDebug) {
      this.unreported = {
        metadata: { source, step: this.step, parents: { ...persistence.params.parents } },
        parentConfig,
      };
    }
  }

  /** A checkpoint taken since the `checkpoints`/`debug` streams last heard of one. */
  private unreported: ReportedCheckpoint | undefined;

  /** Streams the last checkpoint with the tasks it leads to (`checkpoints` and `debug` modes). */
  private reportCheckpoint(tasks: readonly RunningTask[]): void {
    const unreported = this.unreported;
    if (unreported === undefined) return;
    this.unreported = undefined;
    const persistence = this.params.persistence as LoopPersistence;
    const checkpointId = String(persistence.config.configurable?.checkpoint_id ?? "");
    const stepSaved = this.stepSaved ?? this.rerunSaved;
    this.rerunSaved = undefined;
    const payload: Record<string, unknown> = {
      config: this.formatConfig(checkpointId),
      values: this.readStream(this.params.graph.streamChannels),
      metadata: unreported.metadata,
      next: tasks.map((task) => task.name),
      tasks: tasks.map((task) => {
        // a checkpoint resumed from lists the interrupts its tasks saved, as getState does, and
        // what its finished tasks saved (their result, or their error); keys in LangGraph.js's
        // order, a failed task without the subgraph `state`
        const saved = stepSaved?.get(task.id);
        const error = saved?.find(([c]) => c === ERROR);
        const description: Record<string, unknown> = { id: task.id, name: task.name, path: task.path };
        if (error !== undefined) description.error = error[1];
        description.interrupts =
          saved === undefined
            ? []
            : saved.filter(([c]) => c === INTERRUPT).flatMap(([, v]) => v as unknown[]);
        // a subgraph's task names where its own checkpoints are, as getState's tasks do
        if (error === undefined && task.node.subgraphs !== undefined && task.node.subgraphs.length > 0) {
          description.state = {
            configurable: { thread_id: persistence.params.threadId, checkpoint_ns: task.checkpointNs },
          };
        }
        description.result = undefined;
        if (saved !== undefined) {
          const output = saved.filter(
            ([c]) => c !== ERROR && c !== INTERRUPT && c !== RESUME && c !== ERROR_SOURCE_NODE,
          );
          if (output.length > 0)
            description.result = savedTaskResult(task, output, this.params.graph.streamChannels);
        }
        return description;
      }),
    };
    if (unreported === this.loaded) {
      // the checkpoint a run resumes from is reported with its saved parent config
      payload.parentConfig = unreported.savedParentConfig;
    } else {
      const parentId = unreported.parentConfig.configurable?.checkpoint_id;
      payload.parentConfig = parentId === undefined ? undefined : this.formatConfig(String(parentId));
    }
    if (this.wantsCheckpoints) this.push("checkpoints", payload);
    if (this.wantsDebug) {
      this.push("debug", {
        step: unreported.metadata.step,
        type: "checkpoint",
        timestamp: nowIso(),
        payload,
      });
    }
  }

  /** A checkpoint's config as the `checkpoints` stream shows it (LangGraph's snake_case keys). */
  private formatConfig(checkpointId: string): Record<string, unknown> {
    const persistence = this.params.persistence as LoopPersistence;
    const config = this.params.config;
    const configurable: Record<string, unknown> = {
      checkpoint_ns: persistence.params.ns,
      thread_id: persistence.params.threadId,
    };
    // the run's own configurable keys (a user's `user_id`, `ls_agent_type`…) are kept, as
    // LangGraph.js keeps them; the engine's internal keys are not shown
    const own = config.configurable as Record<string, unknown> | undefined;
    if (own !== undefined) {
      for (const key of Object.keys(own)) {
        if (key in configurable || key.startsWith("__pregel_") || FORMATTED_KEYS.has(key)) continue;
        configurable[key] = own[key];
      }
    }
    // a subgraph's checkpoints name those of the graphs above them
    const parents = persistence.params.parents;
    for (const _ in parents) {
      configurable.checkpoint_map = { ...parents };
      break;
    }
    configurable.checkpoint_id = checkpointId;
    // keys in LangGraph.js's order
    const out: Record<string, unknown> = { configurable };
    if (config.maxConcurrency !== undefined) out.max_concurrency = config.maxConcurrency;
    out.metadata = copyWith(config.metadata, "thread_id", persistence.params.threadId);
    out.recursion_limit = config.recursionLimit;
    if (config.runName !== undefined) out.run_name = config.runName;
    out.tags = config.tags ?? [];
    return out;
  }

  /**
   * The run stopped at an interrupt: the writes of the step's tasks that did finish are applied
   * (so the result shows them), and the stream reports the interrupts. Nothing more is saved.
   */
  /** A task's interrupt (possibly a subgraph's breakpoint, with none) was streamed. */
  private interruptStreamed = false;

  private pause(interrupts: Interrupt[]): void {
    this.interrupts = interrupts;
    const finished = this.tasks.filter((task) => {
      const first = task.writes[0];
      return first !== undefined && first[0] !== INTERRUPT && first[0] !== ERROR;
    });
    const root = this.params.parentNs === "";
    if (finished.length > 0) {
      applyWrites(
        this.checkpoint,
        this.channels,
        finished.map((task) => ({ name: task.name, path: task.path, triggers: [], writes: task.writes })),
        this.nextVersion,
        this.params.graph.triggerToNodes,
        this.writeState,
      );
      if (this.touches(finished, this.outputKeys)) this.outputWritten = true;
      if (root && this.wantsValues && this.touches(finished, this.streamKeys)) {
        this.push("values", this.readStream());
      }
    }
    // Interrupts raised by tasks were streamed as the tasks stopped (a subgraph's breakpoint too,
    // as its task's); a breakpoint of this graph has none.
    if (root && interrupts.length === 0 && !this.interruptStreamed && this.params.sink !== undefined) {
      // one chunk per mode, each with its own (empty) list, as LangGraph.js
      const namespace = this.breakpointNamespace(this.params.sink as StreamSink);
      if (this.wantsUpdates) (this.params.sink as StreamSink).push(namespace, "updates", { [INTERRUPT]: [] });
      if (this.wantsValues) (this.params.sink as StreamSink).push(namespace, "values", { [INTERRUPT]: [] });
    }
  }

  /**
   * Where the root graph streams the `{ __interrupt__: [] }` of a breakpoint: its own namespace,
   * except in a run streamed with `subgraphs` that travels back into a subgraph (given a
   * subgraph snapshot's config): LangGraph.js then reports it under the deepest namespace the
   * run's `checkpoint_map` names, the subgraph's.
   */
  private breakpointNamespace(sink: StreamSink): readonly string[] {
    if (!sink.subgraphs) return this.namespace;
    const map = this.params.config.configurable?.checkpoint_map;
    if (typeof map !== "object" || map === null) return this.namespace;
    let deepest = "";
    for (const key of Object.keys(map)) if (key.length > deepest.length) deepest = key;
    return deepest === "" ? this.namespace : deepest.split(CHECKPOINT_NAMESPACE_SEPARATOR);
  }

  private touches(tasks: readonly RunningTask[], keys: readonly string[]): boolean {
    // indexed: runs every step, mostly before the engine optimizes it (see applyWrites)
    for (let t = 0; t < tasks.length; t++) {
      const writes = (tasks[t] as RunningTask).writes;
      for (let i = 0; i < writes.length; i++) {
        const key = (writes[i] as (typeof writes)[number])[0];
        if (keys.length === 1 ? key === keys[0] : keys.includes(key)) return true;
      }
    }
    return false;
  }

  private push(mode: StreamMode, payload: unknown): void {
    (this.params.sink as StreamSink).push(this.namespace, mode, payload);
  }

  /** Pushes a hidden task's `debug` event to the sink, for chain callbacks only (see {@link hearsHidden}). */
  private pushHidden(event: Record<string, unknown>): void {
    Object.defineProperty(event, HIDDEN_TASK_EVENT, { value: true });
    this.push("debug", event);
  }

  private emitTaskStart(task: RunningTask): void {
    const payload = taskStartPayload(task);
    if (task.node.hidden) {
      if (!(task as Task).done)
        this.pushHidden({ step: this.step, type: "task", timestamp: nowIso(), payload });
      return;
    }
    if ((task as Task).done) Object.defineProperty(payload, TASK_NOT_RUN, { value: true });
    if (this.wantsTasks) this.push("tasks", payload);
    if (this.wantsDebug) this.push("debug", { step: this.step, type: "task", timestamp: nowIso(), payload });
  }

  /** Streams the replayed (saved) writes of a task as a cached update. */
  private streamCachedUpdate(task: Task): void {
    if (!this.wantsUpdates || task.node.hidden) return;
    const payload = updatesPayload(task, this.valuesChannels);
    if (payload === undefined) return;
    payload.__metadata__ = { cached: true };
    this.push("updates", payload);
  }

  /**
   * The id of a PUSH task made while the step runs (a call, an error handler): with a
   * checkpointer derived from the checkpoint, the step and `key`, so the step run again finds it.
   */
  private pushTaskId(name: string, key: string): string {
    if (this.params.persistence === undefined) return uniqueId();
    return taskId(this.checkpoint.id, this.params.parentNs, this.step, name, `${PUSH}\u0000${key}`);
  }

  /** Runs a functional-API task called by `parent`, as a PUSH task of the current superstep. */
  private callTask = (
    parent: Task,
    name: string,
    fn: (...args: unknown[]) => unknown,
    args: unknown[],
    options: CallOptions,
  ): Promise<unknown> => {
    // once the run is aborted no new task starts (the caller's code may still be running)
    const signal = parent.config.signal;
    if (signal?.aborted) return Promise.reject(abortErrorOf(signal));
    const index = parent.callCount++;
    const node: PregelNode = {
      name,
      triggers: [PUSH],
      channels: [],
      bound: (_input, config) => {
        // LangGraph.js runs a task's function as the first step of a sequence, so the model and
        // tool calls made in it carry the tag `seq:step:1` (the task's own run does not); only
        // callback handlers see tags
        if (config.callbacks === undefined) return fn(...args);
        const inner = Object.assign({}, config, { tags: ["seq:step:1", ...(config.tags ?? [])] });
        return runInAsyncContext(inner, () => fn(...args));
      },
      writers: (output, task) => {
        task.writes.push([RETURN, output]);
      },
      retryPolicy: options.retryPolicy,
      cachePolicy: options.cachePolicy,
      metadata: undefined,
      tags: undefined,
      hidden: false,
      subgraphs: undefined,
      timeout: options.timeout,
    };
    // With a checkpointer the id is the same when the step runs again, so a resumed run finds
    // the call's saved result.
    const id = this.pushTaskId(name, `${taskPathKey(parent.path)}\u0000${index}`);
    const prepared: PreparedTask<PregelNode> = {
      id,
      name,
      path: [PUSH, parent.path, index, true],
      input: args,
      triggers: [PUSH],
      node,
      // a call's namespace nests in its caller's, as in LangGraph.js (`ep:<id>|task:<id>`): what
      // it runs (a subgraph, a model) reports that path
      checkpointNs: taskNamespace(parent.checkpointNs, name, id),
      writes: [],
    };
    const task = this.factory.create(prepared, this.step, this.checkpoint.id, parent.config.signal);
    task.callingTask = parent;
    const sink = this.params.sink;
    if (sink?.wants("custom", this.depth) === true) {
      // a call's custom chunks come from its caller's namespace, as in LangGraph.js
      const namespace = parent.checkpointNs.split(CHECKPOINT_NAMESPACE_SEPARATOR);
      task.config.writer = (chunk: unknown) => sink.push(namespace, "custom", chunk);
    }
    const configurable = task.config.configurable;
    if (this.params.persistence !== undefined && configurable !== undefined) {
      // a call's checkpoint map adds its caller's namespace (as LangGraph.js's does), so a graph
      // it runs lists the caller among its checkpoints' parents
      configurable.checkpoint_map = copyWith(
        parent.config.configurable?.checkpoint_map as Record<string, string> | undefined,
        parent.checkpointNs,
        this.checkpoint.id,
      );
    }
    this.tasks.push(task);
    const savedWrites = this.stepSaved?.get(id);
    if (this.params.persistence !== undefined) {
      // a call may interrupt: its own saved answers first, then whatever answers its caller
      // (the resume value, or the answer for this interrupt's id)
      const resume = savedWrites?.find(([channel]) => channel === RESUME)?.[1];
      // the step's scalar answer, if no task has used it yet: calls made together (Promise.all)
      // all get it, a call made after one used it does not (nor does it take its caller's)
      const shared = this.stepNullResume;
      task[SCRATCHPAD] = new Scratchpad(
        Array.isArray(resume) ? [...(resume as unknown[])] : [],
        shareOf(shared, shared?.available === true, true),
        undefined,
        (parent as Task)[SCRATCHPAD],
        shared === undefined,
      );
    }
    // every call is announced, even one whose result is replayed or cached (as in LangGraph.js),
    // once it is known whether it runs (see emitTaskStart)
    const announce = () => {
      if (this.wantsTasks || this.wantsDebug) this.emitTaskStart(task);
    };
    const saved = savedWrites?.find(([channel]) => channel === RETURN);
    if (saved !== undefined) {
      // finished before the run was interrupted: its saved result is replayed, not re-run
      task.writes.push([RETURN, saved[1]]);
      task.output = saved[1];
      task.done = true;
      task.cached = true;
      announce();
      this.streamCachedUpdate(task);
      return Promise.resolve(saved[1]);
    }
    const cache = this.params.cache;
    let key: CacheFullKey | undefined;
    try {
      key = cache === undefined ? undefined : this.cacheKey(task);
    } catch (error) {
      // the caller gets the failure of its call (a keyFunc that threw), as from a call that ran
      return Promise.reject(error);
    }
    if (cache !== undefined && (key !== undefined || this.callLookupsPending > 0)) {
      // a cached call takes the result stored for the same arguments instead of running. As in
      // LangGraph.js, a call waits for the lookups of the cached calls made before it, so calls
      // start in the order they were made (a plain call does not overtake a cached one)
      this.callLookupsPending++;
      const lookup = (this.callLookups ?? Promise.resolve()).then(() =>
        key === undefined ? undefined : cache.get([key]).then((found) => found[0]?.value),
      );
      this.callLookups = lookup.then(
        () => {
          this.callLookupsPending--;
        },
        () => {
          this.callLookupsPending--;
        },
      );
      return lookup.then((writes) => {
        if (!Array.isArray(writes)) {
          announce();
          return this.runCall(task);
        }
        task.writes.push(...(writes as [string, unknown][]));
        task.output = (writes as [string, unknown][]).find(([channel]) => channel === RETURN)?.[1];
        task.done = true;
        (task as Task).cached = true;
        announce();
        this.flushCallCommits();
        this.commit(task, undefined);
        return task.output;
      });
    }
    announce();
    return this.runCall(task);
  };

  /**
   * Runs the task of a functional-API call (not cached, not replayed) and resolves to its result.
   * As in LangGraph.js, the call's function starts a few turns after the call (so calls made
   * together all start before any of them runs), and the call is committed (its update and
   * result streamed, its result cached, a failure handled) a turn or so after its caller got the
   * result: a caller that goes straight on to its next call starts that call first.
   */
  private runCall(task: Task): Promise<unknown> {
    const running = this.startCall(task);
    this.trackCall(running);
    return running;
  }

  /** Keeps a call's promise among {@link callsInFlight} until it settles: the step waits for it. */
  private trackCall(running: Promise<unknown>): void {
    const settled: Promise<void> = running.then(
      () => {
        this.callsInFlight.delete(settled);
      },
      () => {
        this.callsInFlight.delete(settled);
      },
    );
    this.callsInFlight.add(settled);
  }

  /**
   * As in LangGraph.js, a step ends once the calls its tasks made have settled, even those their
   * code did not await: their updates are streamed, and a failure fails the run.
   */
  private async waitForCalls(): Promise<void> {
    while (this.callsInFlight.size > 0) await Promise.all([...this.callsInFlight]);
  }

  /** Starts a call's task (see {@link runCall}). */
  private startCall(task: Task): Promise<unknown> {
    return new Promise((resolve, reject) => {
      let aborted = false;
      let execution: Promise<unknown> | undefined;
      this.runningCalls.set(task, (error) => {
        aborted = true;
        task.abortedBySibling = true;
        this.runningCalls.delete(task);
        // a call waiting to retry goes on with its retries (see recover), which the step waits
        // for, as LangGraph.js's does
        if (task.pendingRetry !== undefined && execution !== undefined) this.trackCall(execution);
        this.commit(task, error);
        reject(error);
      });
      const settle = (error: unknown): void => {
        this.runningCalls.delete(task);
        taskAttemptHooks(task)?.settled(error, task.output);
        this.pendingCalls.push({ task, error });
        afterTurns(() => {
          // this call, and those that finished before it
          const index = this.pendingCalls.findIndex((pending) => pending.task === task);
          for (let n = 0; n <= index; n++) this.commitNextCall();
        }, CALL_COMMIT_TURNS);
      };
      afterTurns(() => {
        if (aborted) return;
        execution = promiseTry(() =>
          executeTask<unknown>(task, this.params.retryPolicy, {
            done: () => {
              if (aborted) return undefined;
              settle(undefined);
              // the caller resumes a turn later (not two, through the promise chain)
              resolve(task.output);
              return task.output;
            },
            failed: (_task, error) => {
              if (!aborted) settle(error);
              // the failure aborts the step (see callFailed) and so the call or node that made
              // this one, at once as in LangGraph.js: its attempt counts as aborted (see recover),
              // and an entrypoint that caught the error reports no plucks of its result
              if (!isGraphBubbleUp(error) && task.callingTask !== undefined)
                task.callingTask.abortedBySibling = true;
              reject(error);
              throw error;
            },
          }),
        );
        execution.then(resolve, reject);
      }, CALL_START_TURNS);
    });
  }

  /** Commits the calls waiting for their commit (before any other task's commit, and at the step's end). */
  private flushCallCommits(): void {
    while (this.pendingCalls.length > 0) this.commitNextCall();
  }

  /** Commits the first call waiting for its commit; its failure fails the run (see {@link callFailed}). */
  private commitNextCall(): void {
    const next = this.pendingCalls.shift();
    if (next === undefined) return;
    const { task, error } = next;
    const failure = this.callFailure;
    if (failure === undefined || isGraphBubbleUp(error) || isGraphBubbleUp(failure.error)) {
      this.commit(task, error);
      if (error !== undefined) this.callFailed(error);
      return;
    }
    if (error !== undefined && error !== failure.error) {
      // a failure of its own
      failure.errors.add(error);
      this.commit(task, error);
    } else if (error !== undefined || task.callCount > 0) {
      // a caller, which passed the failure on or caught it, was aborted by it
      this.commit(task, abortOf(failure));
    } else this.commit(task, undefined);
  }

  /**
   * A call failed: the run fails, even if the calling code catches the error. As in LangGraph.js
   * the step is aborted: the other calls still running fail at once with an `AbortError` (their
   * callers see it; their code is left to finish in the background, unrecorded), so does a
   * caller that passes the error on, and the run's error then lists every error (an
   * `AggregateError`).
   */
  private callFailed(error: unknown): void {
    const previous = this.callFailure;
    // an error outranks the interrupt of a call made in the same step (as in LangGraph.js, where
    // the step's errors are thrown before its interrupts): the run fails
    if (previous !== undefined && !(isGraphBubbleUp(previous.error) && !isGraphBubbleUp(error))) return;
    const failure: CallFailure = { error, errors: new Set([error]), aborted: undefined };
    this.callFailure = failure;
    if (isGraphBubbleUp(error)) return;
    for (const abort of [...this.runningCalls.values()]) abort(abortOf(failure));
    this.stepController?.abort(error);
  }

  /** The error a run whose call failed ends with (see {@link callFailed}). */
  private callFailureError(failure: CallFailure): unknown {
    if (failure.errors.size === 1) return failure.error;
    return new AggregateError(
      [...failure.errors],
      `Multiple errors occurred during superstep ${this.step}. See the "errors" field of this exception for more details.`,
    );
  }
}

/** The first failure of a functional-API call in a step, and the errors that followed it. */
interface CallFailure {
  readonly error: unknown;
  /** The run's errors: the first, then those of later failures, the abort once. */
  readonly errors: Set<unknown>;
  /** What the calls the failure stopped fail with (made on first use). */
  aborted: AbortError | undefined;
}

/** The `AbortError` of the calls a failure stopped (the same one for all, listed once in the run's errors). */
function abortOf(failure: CallFailure): AbortError {
  if (failure.aborted === undefined) {
    failure.aborted = new AbortError("This operation was aborted");
    failure.errors.add(failure.aborted);
  }
  return failure.aborted;
}

/** A checkpoint the `checkpoints`/`debug` streams are to report. */
interface ReportedCheckpoint {
  readonly metadata: CheckpointMetadata;
  readonly parentConfig: RunnableConfig;
  /** The loaded checkpoint's parent config as the saver returned it (reported as is). */
  readonly savedParentConfig?: RunnableConfig | undefined;
}

/** Whether a static breakpoint fires: a listed node is about to run (or ran) on state it has not paused on yet. */
export function shouldInterrupt(
  checkpoint: Checkpoint,
  nodes: readonly string[] | "*",
  tasks: readonly RunningTask[],
): boolean {
  const seen = checkpoint.versions_seen[INTERRUPT] ?? {};
  let changed = false;
  for (const key in checkpoint.channel_versions) {
    const version = checkpoint.channel_versions[key] as ChannelVersion;
    const last = seen[key];
    if (last === undefined || compareVersions(version, last) > 0) {
      changed = true;
      break;
    }
  }
  if (!changed) return false;
  return tasks.some((task) => (nodes === "*" ? !task.node.hidden : nodes.includes(task.name)));
}

/** Whether a task path is a functional-API call's (`[PUSH, parentPath, index, true]`). */
function isCallPath(path: readonly unknown[]): boolean {
  return path[0] === PUSH && path[path.length - 1] === true;
}

/**
 * A task's share of its step's scalar answer: it can take it once, if `available` to it; taking
 * it uses it up for the step's later tasks, at once or (`usedUpLater`, calls made together with
 * `Promise.all`) after the current turn.
 */
function shareOf(
  shared: { readonly value: unknown; available: boolean } | undefined,
  available: boolean,
  usedUpLater: boolean,
): ScalarAnswer {
  if (shared === undefined) return NO_SCALAR_ANSWER;
  let mine = available;
  return {
    take: () => {
      if (!mine) return NO_RESUME;
      mine = false;
      if (usedUpLater)
        queueMicrotask(() => {
          shared.available = false;
        });
      else shared.available = false;
      return shared.value;
    },
    peek: () => (mine ? shared.value : NO_RESUME),
  };
}

/** Whether some channel of `checkpoint` has a version (was ever written). */
function hasChannelVersion(checkpoint: Checkpoint): boolean {
  for (const _ in checkpoint.channel_versions) return true;
  return false;
}

/** A resume value that answers interrupts by id (every key looks like an interrupt id). */
function isResumeMap(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => /^[0-9a-f]{32}$/.test(key));
}

/** The writes that graph input makes: to the input channel, or to each input key present. */
export function mapInput(inputChannels: string | readonly string[], input: unknown): [string, unknown][] {
  if (input === undefined || input === null) return [];
  if (typeof inputChannels === "string") return [[inputChannels, input]];
  if (typeof input !== "object") return [];
  const writes: [string, unknown][] = [];
  for (const key of inputChannels) {
    if (Object.hasOwn(input, key)) writes.push([key, (input as Record<string, unknown>)[key]]);
  }
  return writes;
}

function nowIso(): string {
  return isoNow();
}

/** The error a failed task saved, as an `Error` again (a saver may give back its fields only). */
function savedError(value: unknown): Error {
  if (value instanceof Error) return value;
  const fields = (typeof value === "object" && value !== null ? value : {}) as {
    message?: unknown;
    name?: unknown;
  };
  const error = new Error(typeof fields.message === "string" ? fields.message : String(value));
  if (typeof fields.name === "string") error.name = fields.name;
  return error;
}

/**
 * Fails the step with an `AbortError` (aborting its tasks) when it runs longer than
 * `stepTimeout` milliseconds (LangGraph.js fails it with `Error("Abort")`).
 */
function withStepTimeout(
  running: Promise<void>,
  ms: number,
  controller: AbortController,
  step: number,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = new AbortError(
        `Abort: superstep ${step} did not finish within the graph's stepTimeout of ${ms}ms. Raise stepTimeout, or give slow nodes a timeout (and a retryPolicy) of their own.`,
      );
      controller.abort(error);
      reject(error);
    }, ms);
    running.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
