import {
  applyWrites,
  type Channels,
  type PreparedTask,
  prepareNextTasks,
  readChannels,
  readWithWrites,
  taskNamespace,
  type WriteState,
} from "../algorithm/index.js";
import type { BaseChannel } from "../channels/index.js";
import { CHECKPOINT_FORMAT_VERSION, type Checkpoint } from "../checkpoint/index.js";
import {
  BRANCH_PREFIX,
  CHECKPOINT_NAMESPACE_SEPARATOR,
  type ChannelVersion,
  type Command,
  commandGotoList,
  commandUpdateEntries,
  EmptyInputError,
  END,
  ERROR,
  GraphRecursionError,
  GraphValueError,
  InvalidUpdateError,
  isCommand,
  isSend,
  NO_WRITES,
  nextIntegerVersion,
  PREVIOUS,
  PUSH,
  RETURN,
  TASKS,
  uniqueId,
} from "../core/index.js";
import type { StreamMode, StreamSink } from "../stream/index.js";
import { printStep, printTasks } from "./debug-print.js";
import { executeTask } from "./execute-task.js";
import { taskResultPayload, taskStartPayload, updatesPayload } from "./output.js";
import { runTasks } from "./runner.js";
import {
  type CallOptions,
  CURRENT_TASK,
  type LangGraphRunnableConfig,
  PARENT_RUN,
  type ParentRunLink,
  PREVIOUS_STATE,
  type PregelNode,
  type RetryPolicy,
  type RunningTask,
  type StreamWriter,
} from "./types.js";

/** The compiled graph, as the loop sees it. */
export interface LoopGraph {
  readonly nodes: Readonly<Record<string, PregelNode>>;
  /** Channel prototypes: each run restores fresh channels from them. */
  readonly channels: Readonly<Record<string, BaseChannel>>;
  readonly inputChannels: string | readonly string[];
  readonly outputChannels: string | readonly string[];
  readonly streamChannels: string | readonly string[];
  readonly triggerToNodes: Readonly<Record<string, readonly string[]>>;
  /** State keys a node's conditional edges read (for fresh reads). */
  readonly stateKeys: readonly string[];
  /** Channels with a `finish()` of their own (deferred-node triggers). */
  readonly finishable: readonly string[];
  /** Channels that hold a value when fresh and clear after an idle step. */
  readonly initiallyIdle: readonly string[];
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
  /** Where to stream (undefined: nobody listens). */
  readonly sink: StreamSink | undefined;
  readonly link: ParentRunLink;
  readonly maxConcurrency: number | undefined;
  readonly retryPolicy: RetryPolicy | undefined;
  /** Print each superstep to the console. */
  readonly debug: boolean;
  /** The caller's signal (the run stops as soon as it aborts); nodes get `config.signal`. */
  readonly abortSignal: AbortSignal | undefined;
}

/**
 * One run of a graph, superstep by superstep (Pregel / bulk-synchronous parallel):
 * `tick()` prepares the tasks of the next step, the runner executes them, and `afterTick()`
 * commits their writes. The loop alone owns emission (and persistence, with a checkpointer).
 */
export class PregelLoop {
  readonly params: LoopParams;
  readonly channels: Channels = {};
  readonly checkpoint: Checkpoint;
  /** Stream namespace of this graph (`[]` for the root). */
  readonly namespace: readonly string[];
  private readonly depth: number;
  private readonly writeState: WriteState;
  private updatedChannels: Set<string> | undefined;
  private step: number;
  private readonly stop: number;
  private tasks: RunningTask[] = [];
  private outputWritten = false;
  private readonly wantsUpdates: boolean;
  private readonly wantsValues: boolean;
  private readonly wantsTasks: boolean;
  private readonly wantsDebug: boolean;
  private readonly writer: StreamWriter;
  private readonly baseTaskConfig: LangGraphRunnableConfig<unknown>;
  /** Keys of the run config copied as they are into each task's config. */
  private readonly baseExtraKeys: string[];
  private readonly baseMetadataEntries: [string, unknown][];
  private readonly threadId: string | undefined;
  private readonly outputKeys: readonly string[];
  private readonly streamKeys: readonly string[];

  constructor(params: LoopParams) {
    this.params = params;
    const graph = params.graph;
    const channels = this.channels;
    const prototypes = graph.channels;
    for (const key in prototypes) channels[key] = (prototypes[key] as BaseChannel).fromCheckpoint(undefined);
    this.checkpoint = {
      v: CHECKPOINT_FORMAT_VERSION,
      id: uniqueId(),
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
    const sink = params.sink;
    const wants = (mode: StreamMode) => sink?.wants(mode, this.depth) === true;
    this.wantsUpdates = wants("updates");
    this.wantsValues = wants("values");
    this.wantsTasks = wants("tasks");
    this.wantsDebug = wants("debug");
    const namespace = this.namespace;
    this.writer = sink?.wants("custom", this.depth)
      ? (chunk: unknown) => sink.push(namespace, "custom", chunk)
      : () => {};
    this.outputKeys =
      typeof graph.outputChannels === "string" ? [graph.outputChannels] : graph.outputChannels;
    this.streamKeys =
      typeof graph.streamChannels === "string" ? [graph.streamChannels] : graph.streamChannels;
    this.baseTaskConfig = params.config;
    const derived = derivedConfig(params.config);
    this.baseExtraKeys = derived.extraKeys;
    this.baseMetadataEntries = derived.metadataEntries;
    this.threadId = params.config.configurable?.thread_id as string | undefined;
  }

  /** Runs the graph to completion (or until it fails). */
  async run(): Promise<void> {
    this.first();
    let lastYield = Date.now();
    while (this.tick()) {
      const pending = this.runStep();
      if (pending !== undefined) {
        await pending;
        lastYield = Date.now();
      } else if (this.params.sink !== undefined) {
        // let stream consumers see each step as it completes
        await undefined;
      } else if (Date.now() - lastYield > YIELD_INTERVAL_MS) {
        // a long run of synchronous nodes still lets timers (and aborts) through
        await new Promise<void>((resolve) => setTimeout(resolve, 0));
        lastYield = Date.now();
        const signal = this.params.abortSignal;
        if (signal?.aborted) throw signal.reason;
      }
      if (this.callFailure !== undefined) throw this.callFailure.error;
      this.afterTick();
    }
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
      return channel?.isAvailable() ? channel.get() : undefined;
    }
    return readChannels(this.channels, outputs);
  }

  private nextVersion = (current: ChannelVersion | undefined): ChannelVersion => nextIntegerVersion(current);

  /** Applies the input as the writes of step -1 (a `Command` as input updates state and routes). */
  private first(): void {
    const input = this.params.input;
    let writes: [string, unknown][];
    if (isCommand(input)) {
      writes = this.commandWrites(input);
    } else {
      writes = mapInput(this.params.graph.inputChannels, input);
      if (writes.length === 0) {
        throw new EmptyInputError(
          `Received no input writes for ${JSON.stringify(this.params.graph.inputChannels)}: pass the graph's input to invoke()/stream() (null only resumes a saved run, which needs a checkpointer).`,
        );
      }
    }
    this.updatedChannels = applyWrites(
      this.checkpoint,
      this.channels,
      [{ name: INPUT_TASK, path: [], triggers: [], writes }],
      this.nextVersion,
      this.params.graph.triggerToNodes,
      this.writeState,
    );
    if (writes.some(([key]) => this.outputKeys.includes(key))) this.outputWritten = true;
    this.step += 1;
  }

  /** The writes of a `Command` given as input: its update, and its `goto` as triggers or sends. */
  private commandWrites(command: Command): [string, unknown][] {
    const writes: [string, unknown][] = [];
    for (const [key, value] of commandUpdateEntries(command)) writes.push([key, value]);
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
    const resume = (command as { resume?: unknown }).resume;
    if (resume !== undefined) {
      throw new GraphValueError(
        "Cannot use Command(resume=...) without checkpointer. Compile the graph with a checkpointer to pause and resume runs.",
        { code: "MISSING_CHECKPOINTER" },
      );
    }
    if (writes.length === 0)
      throw new EmptyInputError(
        "Received empty Command input: give it an update, a goto, or a resume value.",
      );
    return writes;
  }

  /** Prepares the next superstep; returns false when the run is done. */
  private tick(): boolean {
    if (this.step > this.stop) {
      throw new GraphRecursionError(
        `Recursion limit of ${this.params.recursionLimit} reached without hitting a stop condition. You can increase the limit by setting the "recursionLimit" config key.`,
      );
    }
    const graph = this.params.graph;
    const prepared = prepareNextTasks(this.checkpoint, graph.nodes, this.channels, {
      step: this.step,
      parentNs: this.params.parentNs,
      updatedChannels: this.updatedChannels,
      triggerToNodes: graph.triggerToNodes,
      deterministicIds: false,
    });
    if (prepared.length === 0) return false;
    const stepController = prepared.length > 1 ? linkedController(this.params.abortSignal) : undefined;
    const signal = stepController?.signal ?? this.params.abortSignal;
    const tasks: RunningTask[] = new Array(prepared.length);
    for (let i = 0; i < prepared.length; i++) {
      tasks[i] = this.toRunningTask(prepared[i] as PreparedTask<PregelNode>, signal);
    }
    this.tasks = tasks;
    this.stepController = stepController;
    const messages = this.params.link.messagesHandler;
    if (messages !== undefined) for (const task of tasks) messages.taskStarted(task.input);
    if (this.params.debug) printTasks(this.step, tasks);
    if (this.wantsTasks || this.wantsDebug) {
      for (const task of tasks) {
        if (task.node.hidden) continue;
        const payload = taskStartPayload(task);
        if (this.wantsTasks) this.push("tasks", payload);
        if (this.wantsDebug)
          this.push("debug", { step: this.step, type: "task", timestamp: nowIso(), payload });
      }
    }
    return true;
  }

  private stepController: AbortController | undefined;

  private runSignal: AbortSignal | undefined;

  /** The run's own signal (never aborted by the caller, who passed none), made on first use. */
  private readonly lazySignal = (): AbortSignal => {
    this.runSignal ??= new AbortController().signal;
    return this.runSignal;
  };

  /** Runs the step's tasks; returns `undefined` when they all completed synchronously. */
  private runStep(): void | Promise<void> {
    const controller = this.stepController;
    const signal = this.params.abortSignal;
    if (signal?.aborted) throw signal.reason;
    let running: void | Promise<void>;
    try {
      running = runTasks(this.tasks, {
        step: this.step,
        maxConcurrency: this.params.maxConcurrency,
        retryPolicy: this.params.retryPolicy,
        stepController: controller,
        commit: this.commit,
      });
    } catch (error) {
      if (controller !== undefined) releaseController(controller);
      throw error;
    }
    if (running === undefined) {
      if (controller !== undefined) releaseController(controller);
      return undefined;
    }
    const raced = signal === undefined ? running : raceAbort(running, signal);
    return controller === undefined ? raced : raced.finally(() => releaseController(controller));
  }

  /** Records a finished task and streams what it did. */
  private commit = (task: RunningTask, error: unknown): void => {
    if (error !== undefined) {
      task.writes.length = 0;
      task.writes.push([ERROR, error]);
    } else if (task.writes.length === 0) {
      task.writes.push([NO_WRITES, null]);
    }
    if (task.node.hidden) return;
    const messages = this.params.link.messagesHandler;
    if (messages !== undefined && error === undefined) {
      messages.nodeFinished(task.config.metadata, task.config.tags, task.name, task.output);
    }
    if (this.wantsUpdates && error === undefined) {
      const payload = updatesPayload(task, this.params.graph.streamChannels);
      if (payload !== undefined) this.push("updates", payload);
    }
    if (this.wantsTasks || this.wantsDebug) {
      const payload = taskResultPayload(task, this.params.graph.streamChannels, error);
      if (this.wantsTasks) this.push("tasks", payload);
      if (this.wantsDebug)
        this.push("debug", { step: this.step, type: "task_result", timestamp: nowIso(), payload });
    }
  };

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
    this.tasks = [];
    this.step += 1;
  }

  private touches(tasks: readonly RunningTask[], keys: readonly string[]): boolean {
    for (const task of tasks) {
      for (const [key] of task.writes) {
        if (keys.length === 1 ? key === keys[0] : keys.includes(key)) return true;
      }
    }
    return false;
  }

  /** The values the `values` stream mode shows: every state key (even with an output schema). */
  private readStream(): unknown {
    const keys = this.params.graph.streamChannels;
    if (typeof keys === "string") {
      const channel = this.channels[keys];
      return channel?.isAvailable() ? channel.get() : undefined;
    }
    return readChannels(this.channels, keys);
  }

  private push(mode: StreamMode, payload: unknown): void {
    (this.params.sink as StreamSink).push(this.namespace, mode, payload);
  }

  private toRunningTask(prepared: PreparedTask<PregelNode>, signal: AbortSignal | undefined): RunningTask {
    const node = prepared.node;
    const base = this.baseTaskConfig;
    const step = this.step;
    const ns = prepared.checkpointNs;
    const metadata: Record<string, unknown> = {};
    const baseMetadata = this.baseMetadataEntries;
    for (let i = 0; i < baseMetadata.length; i++) {
      const entry = baseMetadata[i] as [string, unknown];
      metadata[entry[0]] = entry[1];
    }
    metadata.langgraph_step = step;
    metadata.langgraph_node = prepared.name;
    metadata.langgraph_triggers = prepared.triggers;
    metadata.langgraph_path = prepared.path;
    metadata.langgraph_checkpoint_ns = ns;
    metadata.checkpoint_ns = ns;
    if (node.metadata !== undefined) Object.assign(metadata, node.metadata);
    // Nodes always get a signal to check; without the caller's, the run's own is made on first use.
    const config = (
      signal === undefined ? new LazySignalConfig(this.lazySignal) : { signal }
    ) as LangGraphRunnableConfig<unknown>;
    config.configurable = { ...base.configurable, checkpoint_ns: ns };
    config.metadata = metadata;
    config.runName = prepared.name;
    config.recursionLimit = base.recursionLimit as number;
    config.writer = this.writer;
    config.executionInfo = {
      checkpointId: this.checkpoint.id,
      checkpointNs: ns,
      taskId: prepared.id,
      threadId: this.threadId,
      runId: base.runId,
      nodeAttempt: 1,
      nodeFirstAttemptTime: Date.now(),
    };
    const extra = this.baseExtraKeys;
    for (let i = 0; i < extra.length; i++) {
      const key = extra[i] as keyof LangGraphRunnableConfig<unknown>;
      (config as Record<string, unknown>)[key] = base[key];
    }
    if (node.tags !== undefined)
      config.tags = base.tags === undefined ? [...node.tags] : [...base.tags, ...node.tags];
    else if (base.tags !== undefined) config.tags = base.tags;
    (config as Record<symbol, unknown>)[PARENT_RUN] = this.params.link;
    const previous = this.channels[PREVIOUS];
    if (previous?.isAvailable()) (config as Record<symbol, unknown>)[PREVIOUS_STATE] = previous.get();
    const task = new Task(prepared, config, step, this.channels, this.callTask);
    (config as Record<symbol, unknown>)[CURRENT_TASK] = task;
    return task;
  }

  /** Runs a functional-API task called by `parent`, as a PUSH task of the current superstep. */
  private callTask = (
    parent: Task,
    name: string,
    fn: (...args: unknown[]) => unknown,
    args: unknown[],
    options: CallOptions,
  ): Promise<unknown> => {
    const index = parent.callCount++;
    const node: PregelNode = {
      name,
      triggers: [PUSH],
      channels: [],
      bound: () => fn(...args),
      writers: (output, task) => {
        task.writes.push([RETURN, output]);
      },
      retryPolicy: options.retryPolicy,
      cachePolicy: undefined,
      metadata: undefined,
      tags: undefined,
      hidden: false,
      subgraphs: undefined,
    };
    const id = uniqueId();
    const prepared: PreparedTask<PregelNode> = {
      id,
      name,
      path: [PUSH, parent.path, index, parent.id, "call"],
      input: args,
      triggers: [PUSH],
      node,
      checkpointNs: taskNamespace(this.params.parentNs, name, id),
      writes: [],
    };
    const task = this.toRunningTask(prepared, parent.config.signal);
    this.tasks.push(task);
    if (!node.hidden && (this.wantsTasks || this.wantsDebug)) {
      const payload = taskStartPayload(task);
      if (this.wantsTasks) this.push("tasks", payload);
      if (this.wantsDebug)
        this.push("debug", { step: this.step, type: "task", timestamp: nowIso(), payload });
    }
    let pending: void | Promise<void>;
    try {
      pending = executeTask(task, this.params.retryPolicy);
    } catch (error) {
      this.commit(task, error);
      if (this.callFailure === undefined) this.callFailure = { error };
      return Promise.reject(error);
    }
    return Promise.resolve(pending).then(
      () => {
        this.commit(task, undefined);
        return task.output;
      },
      (error: unknown) => {
        this.commit(task, error);
        // a failed task fails the run, even if the calling code catches the error
        if (this.callFailure === undefined) this.callFailure = { error };
        throw error;
      },
    );
  };

  /** The first failure of a functional-API task in the current step. */
  private callFailure: { error: unknown } | undefined;
}

/** A task while it runs (see {@link RunningTask}). */
class Task implements RunningTask {
  readonly id: string;
  readonly name: string;
  readonly path: PreparedTask["path"];
  readonly input: unknown;
  readonly triggers: readonly string[];
  readonly node: PregelNode;
  readonly checkpointNs: string;
  readonly writes: [string, unknown][];
  readonly config: LangGraphRunnableConfig<unknown>;
  readonly step: number;
  output: unknown = undefined;
  callCount = 0;
  private readonly channels: Channels;
  private readonly caller: CallScheduler;

  constructor(
    prepared: PreparedTask<PregelNode>,
    config: LangGraphRunnableConfig<unknown>,
    step: number,
    channels: Channels,
    caller: CallScheduler,
  ) {
    this.id = prepared.id;
    this.name = prepared.name;
    this.path = prepared.path;
    this.input = prepared.input;
    this.triggers = prepared.triggers;
    this.node = prepared.node;
    this.checkpointNs = prepared.checkpointNs;
    this.writes = prepared.writes as [string, unknown][];
    this.config = config;
    this.step = step;
    this.channels = channels;
    this.caller = caller;
  }

  call(
    name: string,
    fn: (...args: unknown[]) => unknown,
    args: unknown[],
    options: CallOptions,
  ): Promise<unknown> {
    return this.caller(this, name, fn, args, options);
  }

  readFresh(keys: readonly string[]): Record<string, unknown> {
    return readWithWrites(this.channels, keys, this.writes);
  }
}

type CallScheduler = (
  parent: Task,
  name: string,
  fn: (...args: unknown[]) => unknown,
  args: unknown[],
  options: CallOptions,
) => Promise<unknown>;

/** Longest stretch of synchronous supersteps before the loop yields to the event loop. */
const YIELD_INTERVAL_MS = 20;

/**
 * A task config whose `signal` is made on first read (an `AbortController` costs more than the rest
 * of a task together). The signal is an accessor of the prototype, so copies of the config made
 * by spreading do not carry it: a graph run with such a copy makes its own.
 */
class LazySignalConfig {
  readonly #makeSignal: () => AbortSignal;
  constructor(makeSignal: () => AbortSignal) {
    this.#makeSignal = makeSignal;
  }
  get signal(): AbortSignal {
    return this.#makeSignal();
  }
  set signal(value: AbortSignal) {
    Object.defineProperty(this, "signal", { value, writable: true, enumerable: true, configurable: true });
  }
}

/** What a run's config implies for task configs (memoised per config object: runs without options share one). */
interface DerivedConfig {
  readonly extraKeys: string[];
  readonly metadataEntries: [string, unknown][];
}

const derivedConfigs = new WeakMap<object, DerivedConfig>();

function derivedConfig(config: LangGraphRunnableConfig<unknown>): DerivedConfig {
  let derived = derivedConfigs.get(config);
  if (derived === undefined) {
    derived = {
      extraKeys: Object.keys(config).filter((key) => !TASK_OWN_KEYS.has(key)),
      metadataEntries: Object.entries(config.metadata ?? {}),
    };
    derivedConfigs.set(config, derived);
  }
  return derived;
}

/** Config keys every task sets itself (the others are copied from the run config). */
const TASK_OWN_KEYS = new Set([
  "configurable",
  "metadata",
  "runName",
  "recursionLimit",
  "writer",
  "executionInfo",
  "tags",
  "signal",
]);

/** Name of the pseudo-task that carries the run's input writes. */
const INPUT_TASK = "__input__";

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

/** Settles like `work`, or rejects with the signal's reason as soon as it aborts. */
function raceAbort(work: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      work.catch(() => {});
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function nowIso(): string {
  return new Date().toISOString();
}

/** An AbortController that also aborts when `parent` does (the listener is removed by {@link releaseController}). */
function linkedController(parent: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  if (parent !== undefined) {
    if (parent.aborted) controller.abort(parent.reason);
    else {
      const onAbort = () => controller.abort(parent.reason);
      parent.addEventListener("abort", onAbort, { once: true });
      links.set(controller, () => parent.removeEventListener("abort", onAbort));
    }
  }
  return controller;
}

const links = new WeakMap<AbortController, () => void>();

function releaseController(controller: AbortController): void {
  const unlink = links.get(controller);
  if (unlink !== undefined) {
    unlink();
    links.delete(controller);
  }
}
