import { copyWith } from "../../shared/index.js";
import { type Channels, type PreparedTask, readWithWrites } from "../algorithm/index.js";
import type { TimeoutPolicy } from "../core/index.js";
import { type InterruptOptions, interruptTask, SCRATCHPAD, type Scratchpad } from "./interrupts.js";
import { RunControl } from "./run-control.js";
import {
  type AttemptClock,
  type CallOptions,
  CURRENT_TASK,
  type LangGraphRunnableConfig,
  PARENT_RUN,
  type ParentRunLink,
  PREVIOUS_STATE,
  type PregelNode,
  type RunningTask,
  type StreamWriter,
} from "./types.js";

/** Schedules a functional-API call made by a task. */
export type CallScheduler = (
  parent: Task,
  name: string,
  fn: (...args: unknown[]) => unknown,
  args: unknown[],
  options: CallOptions,
) => Promise<unknown>;

/** A task while it runs (see {@link RunningTask}). */
export class Task implements RunningTask {
  readonly id: string;
  readonly name: string;
  readonly path: PreparedTask["path"];
  readonly input: unknown;
  readonly triggers: readonly string[];
  readonly node: PregelNode;
  readonly checkpointNs: string;
  readonly writes: [string, unknown][];
  /** The task's own timeout (a `Send`'s), ahead of its node's. */
  readonly timeout: TimeoutPolicy | undefined;
  readonly config: LangGraphRunnableConfig<unknown>;
  readonly step: number;
  output: unknown = undefined;
  callCount = 0;
  /** Writes were restored from a checkpoint (or the cache): the task does not run again. */
  done = false;
  /** The writes came from the node cache. */
  cached = false;
  /** The `messages` stream has heard the task finish (as it settled, ahead of its commit). */
  messagesReported = false;
  clock: AttemptClock | undefined = undefined;
  pendingRetry: unknown = undefined;
  abortedBySibling = false;
  inputView: (() => unknown) | undefined = undefined;
  /** The task (a node, an entrypoint or another call) that made this functional-API call. */
  callingTask: Task | undefined = undefined;
  [SCRATCHPAD]?: Scratchpad;
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
    this.timeout = prepared.timeout;
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
    const clock = this.clock;
    if (clock !== undefined) {
      if (!clock.active) {
        return Promise.reject(new Error(`Node "${this.name}" attempt was cancelled after its timeout fired`));
      }
      clock.progress();
    }
    return this.caller(this, name, fn, args, options);
  }

  readFresh(keys: readonly string[], readOnly = false): Record<string, unknown> {
    return readWithWrites(this.channels, keys, this.writes, readOnly);
  }

  resetAttempt(): void {
    this.writes.length = 0;
    this.inputView = undefined;
    this.callCount = 0;
    const scratchpad = this[SCRATCHPAD];
    if (scratchpad !== undefined) scratchpad.interruptCounter = 0;
  }
}

/**
 * A task config whose `signal` is made on first read (an `AbortController` costs more than the rest
 * of a task together). The signal is an accessor of the prototype, so copies of the config made
 * by spreading do not carry it: a graph run with such a copy makes its own.
 */
class TaskConfig {
  /**
   * `interrupt(value)` of the node's runtime, as LangGraph.js passes it: made (bound to the task)
   * on first read, so tasks that never read it cost nothing; it then stays an own property.
   */
  get interrupt(): (value: unknown, options?: InterruptOptions) => unknown {
    const task = (this as unknown as Record<symbol, unknown>)[CURRENT_TASK] as RunningTask;
    const bound = (value: unknown, options?: InterruptOptions) => interruptTask(task, value, options);
    Object.defineProperty(this, "interrupt", {
      value: bound,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    return bound;
  }
  set interrupt(value: (value: unknown, options?: InterruptOptions) => unknown) {
    Object.defineProperty(this, "interrupt", { value, writable: true, enumerable: true, configurable: true });
  }

  /** The run's drain control (the root run's, which it makes on first use when none was given). */
  get control(): RunControl {
    const link = (this as unknown as Record<symbol, unknown>)[PARENT_RUN] as { control?: RunControl };
    link.control ??= new RunControl();
    return link.control;
  }
  set control(value: RunControl) {
    Object.defineProperty(this, "control", { value, writable: true, enumerable: true, configurable: true });
  }
}

/** A task config with the caller's signal. */
class SignalConfig extends TaskConfig {
  signal: AbortSignal;
  constructor(signal: AbortSignal) {
    super();
    this.signal = signal;
  }
}

class LazySignalConfig extends TaskConfig {
  readonly #makeSignal: () => AbortSignal;
  constructor(makeSignal: () => AbortSignal) {
    super();
    this.#makeSignal = makeSignal;
  }
  get signal(): AbortSignal {
    return this.#makeSignal();
  }
  set signal(value: AbortSignal) {
    Object.defineProperty(this, "signal", { value, writable: true, enumerable: true, configurable: true });
  }
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
  "interrupt",
  "control",
]);

interface DerivedConfig {
  readonly extraKeys: string[];
  readonly metadataEntries: [string, unknown][];
}

/** What a run's config implies for task configs, memoised per config object (runs without options share one). */
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

/** What the factory needs from the run. */
export interface TaskFactoryParams {
  readonly config: LangGraphRunnableConfig<unknown>;
  readonly writer: StreamWriter;
  readonly link: ParentRunLink;
  readonly channels: Channels;
  readonly call: CallScheduler;
  /** The run's own signal, made on first use. */
  readonly lazySignal: () => AbortSignal;
  /** Whether the run is persisted (then tasks carry the checkpoint map for nested graphs). */
  readonly persistent: boolean;
  /** Namespace of the graph (`""` for the root). */
  readonly parentNs: string;
  /**
   * The last step the run may take (the loop's `stop`, which a resume moves): tasks learn how
   * many steps remain after theirs as `executionInfo.remainingSteps`.
   */
  readonly lastStep: () => number;
}

/** Builds running tasks: each with its own config (the node's second argument). */
export class TaskFactory {
  private readonly params: TaskFactoryParams;
  private readonly derived: DerivedConfig;
  private readonly threadId: string | undefined;

  constructor(params: TaskFactoryParams) {
    this.params = params;
    this.derived = derivedConfig(params.config);
    this.threadId = params.config.configurable?.thread_id as string | undefined;
  }

  create(
    prepared: PreparedTask<PregelNode>,
    step: number,
    checkpointId: string,
    signal: AbortSignal | undefined,
  ): Task {
    const params = this.params;
    const node = prepared.node;
    const base = params.config;
    const ns = prepared.checkpointNs;
    const metadata: Record<string, unknown> = {};
    const baseMetadata = this.derived.metadataEntries;
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
    if (this.threadId !== undefined) metadata.thread_id = this.threadId;
    if (node.metadata !== undefined) Object.assign(metadata, node.metadata);
    // Nodes always get a signal to check; without the caller's, the run's own is made on first use.
    const config = (
      signal === undefined ? new LazySignalConfig(params.lazySignal) : new SignalConfig(signal)
    ) as LangGraphRunnableConfig<unknown>;
    // copied key by key: deleting checkpoint_id from a spread copy would leave a slow
    // (dictionary-mode) object that every read of the task's config then pays for
    const configurable: Record<string, unknown> = {};
    const inherited = base.configurable;
    for (const key in inherited) {
      if (params.persistent && key === "checkpoint_id") continue;
      configurable[key] = inherited[key];
    }
    configurable.checkpoint_ns = ns;
    if (params.persistent) {
      configurable.checkpoint_map = copyWith(
        base.configurable?.checkpoint_map as Record<string, string> | undefined,
        params.parentNs,
        checkpointId,
      );
    }
    config.configurable = configurable;
    config.metadata = metadata;
    // LangGraph.js hands a node its name as `runName` only when no callbacks listen (with
    // callbacks, LangChain.js's child config drops it, so models and tools called with the
    // node's config report their own names)
    (config as { runName: string | undefined }).runName =
      base.callbacks === undefined ? prepared.name : undefined;
    config.recursionLimit = base.recursionLimit as number;
    config.writer = params.writer;
    config.executionInfo = {
      checkpointId,
      checkpointNs: ns,
      taskId: prepared.id,
      threadId: this.threadId,
      runId: base.runId,
      nodeAttempt: 1,
      nodeFirstAttemptTime: Date.now(),
      idempotencyKey: prepared.id,
      remainingSteps: params.lastStep() - step,
    };
    const extra = this.derived.extraKeys;
    for (let i = 0; i < extra.length; i++) {
      const key = extra[i] as keyof LangGraphRunnableConfig<unknown>;
      (config as Record<string, unknown>)[key] = base[key];
    }
    if (node.tags !== undefined)
      config.tags = base.tags === undefined ? [...node.tags] : [...base.tags, ...node.tags];
    else config.tags = base.tags ?? [];
    const own = config as Record<symbol, unknown>;
    own[PARENT_RUN] = params.link;
    const previous = params.channels.__previous__;
    if (previous?.isAvailable()) own[PREVIOUS_STATE] = previous.get();
    const task = new Task(prepared, config, step, params.channels, params.call);
    own[CURRENT_TASK] = task;
    return task;
  }
}
