import type { CallbackHandler, RunnableConfig } from "../../shared/index.js";
import {
  type BatchOptions,
  copyWith,
  getAsyncContext,
  InvalidArgumentError,
  randomId,
  runBatch,
} from "../../shared/index.js";
import type { BaseCache } from "../cache/index.js";
import { BaseChannel } from "../channels/index.js";
import {
  type BaseCheckpointSaver,
  type CheckpointTuple,
  isCheckpointSaver,
  threadIdErrorFor,
} from "../checkpoint/index.js";
import {
  CHECKPOINT_NAMESPACE_END,
  CHECKPOINT_NAMESPACE_SEPARATOR,
  GraphInterrupt,
  GraphValueError,
  INTERRUPT,
  InvalidUpdateError,
  isCommand,
  isParentCommand,
} from "../core/index.js";
import {
  HIDDEN_TASK_EVENT,
  type LangGraphRunnableConfig,
  type LoopGraph,
  LoopPersistence,
  type NodeStore,
  PARENT_RUN,
  type ParentRunLink,
  PregelLoop,
  type PregelNode,
  writtenSaves,
} from "../loop/index.js";
import { AsyncBatchedStore } from "../store/index.js";
import type {
  GraphRunStream,
  InferExtensions,
  IterableReadableStream,
  StreamMode,
  StreamTransformer,
} from "../stream/index.js";
import {
  type GraphStreamPart,
  normalizeStreamModes,
  StreamSink,
  ToolsStreamHandler,
  toGraphEventStream,
} from "../stream/index.js";
import { isInterrupted } from "./interrupted.js";
import { MessagesStreamHandler } from "./messages-stream.js";
import {
  type ContextValidator,
  checkMaxConcurrency,
  mergeRunConfigs,
  nestedRunNamespace,
  type PregelOptions,
  type ResolvedRun,
  resolveRunConfig,
} from "./run-config.js";
import { openRunStream } from "./run-stream.js";
import {
  bulkUpdateThreadState,
  type GetStateOptions,
  type StateSnapshot,
  type StateUpdate,
  snapshotOf,
  updateThreadState,
} from "./state.js";
import {
  ChainReporter,
  chainHandlersOf,
  DETACHED_SEGMENTS,
  EVENTS_HANDLER,
  type EventSource,
  EventsHandler,
  MESSAGES_SUBGRAPHS,
  nestedGraphChainRun,
  nestedGraphEventsOf,
  type StreamEvent,
  type StreamEventsFilter,
  type StreamEventsOptions,
  streamGraphEvents,
} from "./stream-events.js";
import {
  PROTOCOL_STREAM,
  ProtocolMessagesHandler,
  ProtocolToolsHandler,
  type StreamEventsV3Options,
  type StreamTransformerFactory,
  streamEventsV3,
} from "./stream-events-v3.js";

/** The parts a {@link Pregel} graph is made of. */
export interface PregelParams {
  nodes: Record<string, PregelNode>;
  channels: Record<string, BaseChannel>;
  inputChannels: string | string[];
  outputChannels: string | string[];
  streamChannels?: string | string[];
  /** State keys conditional edges read. */
  stateKeys?: string[];
  /** Default stream mode(s) of `stream()` (LangGraph: `values` for Pregel, `updates` for compiled state graphs). */
  streamMode?: StreamMode | StreamMode[];
  name?: string | undefined;
  contextSchema?: ContextValidator | undefined;
  /** Parses the graph input (not a `Command`) before a run starts: returns what to write. */
  validateInput?: LoopGraph["validateInput"];
  /** Validates the update of a `Command` given as the graph input (a state graph's input schema). */
  commandInputUpdate?: LoopGraph["commandInputUpdate"];
  config?: LangGraphRunnableConfig;
  /** Saves a checkpoint after every superstep (`false`: never, even as a subgraph of a persisted graph). */
  checkpointer?: BaseCheckpointSaver | boolean | undefined;
  /** Long-term store, passed to nodes as `config.store`. */
  store?: unknown;
  /** Node cache. */
  cache?: unknown;
  /** Pause before these nodes (needs a checkpointer). */
  interruptBefore?: string[] | "*" | undefined;
  /** Pause after these nodes (needs a checkpointer). */
  interruptAfter?: string[] | "*" | undefined;
  /** Milliseconds a superstep may take before the run fails (aborting its tasks). */
  stepTimeout?: number | undefined;
  /** Transformers every `streamEvents(…, { version: "v3" })` run uses, before the call's own. */
  streamTransformers?: ReadonlyArray<() => StreamTransformer<unknown>> | undefined;
}

/**
 * Microtask turns a graph run nested in a node (a compiled graph run as a node, or one invoked
 * or streamed inside a node function) spends in its first step, the same either way: its hidden
 * `__start__` step is announced (chain callbacks and `streamEvents` hear it start) and then runs
 * that much later; a first step that runs a node (a resumed run) waits before it starts. LangGraph.js
 * 1.7.3 goes through its runnable layers, that hidden start step and checkpoint writes first: a
 * nested graph there starts its `__start__` run at once, streams its `input` values about 85
 * turns after its task starts, runs its first node 70 to 95 turns after, and then takes about
 * 60 turns a step (this engine about 35, hence the loop's `NESTED_STEP_TURNS`). Waiting 70
 * matched the most programs in differential grids of subgraphs beside a sibling node that awaits
 * for 0 to 200 turns: interrupt order over resumes in 257 of 264 (252 with the 110 turns before
 * the whole run that came before), streams in 702 of 1,080 (442), while the siblings that finish
 * at once are still committed and streamed before the nested graph's first chunk (and its
 * interrupt), as there.
 */
const NESTED_START_TURNS = 70;

/**
 * A compiled graph: nodes that read channels, run, and write channels, superstep by superstep.
 * `StateGraph.compile()` returns one (as `CompiledStateGraph`). Its parts are inspectable:
 * `graph.channels`, `graph.nodes[name].triggers`, `graph.inputChannels`, `graph.outputChannels`.
 *
 * @example
 * ```ts
 * const result = await graph.invoke({ messages: [] });
 * for await (const chunk of await graph.stream(input, { streamMode: "updates" })) console.log(chunk);
 * ```
 */
export class Pregel<
  Input = unknown,
  Output = unknown,
  Chunk = unknown,
  Context = Record<string, unknown>,
  // the compile-time transformers, whose projections type every v3 run's `extensions`
  StreamTransformers extends ReadonlyArray<StreamTransformerFactory> = [],
> {
  readonly lg_is_pregel = true;
  /**
   * Marks the graph as a runnable for LangChain.js's `@langchain/core` (its `Runnable.isRunnable`),
   * as LangGraph.js's graphs are: a compiled graph can be a step of a core `RunnableSequence`
   * (`RunnableLambda.from(fn).pipe(graph)`) or what a `RunnableLambda` returns, and core invokes it
   * then instead of taking it for a value.
   */
  readonly lc_runnable = true;
  readonly nodes: Record<string, PregelNode>;
  readonly channels: Record<string, BaseChannel>;
  readonly inputChannels: string | string[];
  readonly outputChannels: string | string[];
  readonly streamChannels: string | string[];
  readonly triggerToNodes: Record<string, string[]>;
  /** Default stream modes of `stream()`, as a list (LangGraph.js's `streamMode`, e.g. `["updates"]`). */
  readonly streamMode: StreamMode[];
  readonly stateKeys: string[];
  name: string | undefined;
  readonly contextSchema: ContextValidator | undefined;
  config: LangGraphRunnableConfig | undefined;
  checkpointer: BaseCheckpointSaver | boolean | undefined;
  store: unknown;
  cache: unknown;
  interruptBefore: string[] | "*" | undefined;
  interruptAfter: string[] | "*" | undefined;
  /**
   * Milliseconds a superstep may take: a slower step aborts its tasks and fails the run with an
   * `AbortError` (message `Abort: …`). Unset by default; per-node limits are `addNode`'s `timeout`.
   */
  stepTimeout: number | undefined;
  /** Transformers every `streamEvents(…, { version: "v3" })` run uses, before the call's own. */
  streamTransformers: ReadonlyArray<() => StreamTransformer<unknown>>;
  private readonly loopGraph: LoopGraph;

  constructor(params: PregelParams) {
    this.nodes = params.nodes;
    this.channels = params.channels;
    this.inputChannels = params.inputChannels;
    this.outputChannels = params.outputChannels;
    this.streamChannels = params.streamChannels ?? params.outputChannels;
    this.streamMode =
      params.streamMode === undefined
        ? ["values"]
        : Array.isArray(params.streamMode)
          ? [...params.streamMode]
          : [params.streamMode];
    this.stateKeys = params.stateKeys ?? [];
    this.name = params.name;
    this.contextSchema = params.contextSchema;
    this.config = params.config;
    this.checkpointer = params.checkpointer;
    this.store = params.store;
    this.cache = params.cache;
    this.interruptBefore = params.interruptBefore;
    this.interruptAfter = params.interruptAfter;
    this.stepTimeout = params.stepTimeout;
    this.streamTransformers = params.streamTransformers ?? [];
    this.triggerToNodes = {};
    for (const [name, node] of Object.entries(this.nodes)) {
      for (const trigger of node.triggers) {
        const list = this.triggerToNodes[trigger];
        if (list === undefined) this.triggerToNodes[trigger] = [name];
        else list.push(name);
      }
    }
    for (const list of Object.values(this.triggerToNodes)) list.sort();
    const finishable: string[] = [];
    const initiallyIdle: string[] = [];
    const untracked = new Set<string>();
    for (const [key, prototype] of Object.entries(this.channels)) {
      const fresh = prototype.fromCheckpoint(undefined);
      if (fresh.finish !== BaseChannel.prototype.finish) finishable.push(key);
      if (fresh.clearsWhenIdle && fresh.isAvailable()) initiallyIdle.push(key);
      if (fresh.lc_graph_name === "UntrackedValue") untracked.add(key);
    }
    this.loopGraph = {
      nodes: this.nodes,
      channels: this.channels,
      inputChannels: this.inputChannels,
      outputChannels: this.outputChannels,
      streamChannels: this.streamChannels,
      triggerToNodes: this.triggerToNodes,
      stateKeys: this.stateKeys,
      finishable,
      initiallyIdle,
      untracked,
      validateInput: params.validateInput,
      commandInputUpdate: params.commandInputUpdate,
    };
  }

  /**
   * A copy of this graph whose runs use `config` as defaults. `streamTransformers` given here are
   * added to the graph's (those of `compile({ transformers })`), as in LangGraph.js.
   */
  withConfig(
    config: LangGraphRunnableConfig & {
      streamTransformers?: ReadonlyArray<() => StreamTransformer<unknown>>;
    },
  ): this {
    const { streamTransformers, ...runConfig } = config;
    const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
    Object.assign(copy, this);
    // a second withConfig adds to the first (its configurable and metadata keys, its tags)
    copy.config = mergeRunConfigs(this.config, runConfig) as LangGraphRunnableConfig;
    copy.streamTransformers = [...this.streamTransformers, ...(streamTransformers ?? [])];
    return copy;
  }

  /**
   * Runs the graph on several inputs, at most `maxConcurrency` at a time (LangChain.js
   * `batch`); `options` is one set of options for all or one per input. With
   * `{ returnExceptions: true }` a failed run gives its error in its place instead of rejecting.
   *
   * @example
   * ```ts
   * const [a, b] = await graph.batch([{ x: 1 }, { x: 2 }]);
   * ```
   */
  async batch(
    inputs: (Input | null)[],
    options?: PregelOptions<Context> | PregelOptions<Context>[],
    batchOptions?: BatchOptions,
  ): Promise<(Output | Error)[]> {
    return runBatch<Input | null, PregelOptions<Context>, Output>(
      inputs,
      options,
      batchOptions,
      (input, opts) => this.invoke(input, opts),
    );
  }

  /** The graph's name (LangChain.js `getName()`), with `suffix` appended when given. */
  getName(suffix?: string): string {
    const name = this.name ?? "LangGraph";
    return suffix === undefined ? name : `${name}${suffix}`;
  }

  /** Whether a run's result says the run paused at an interrupt (as the `isInterrupted` function). */
  isInterrupted(result: unknown): boolean {
    return isInterrupted(result);
  }

  /** Empties the graph's node cache (every node's entries). */
  async clearCache(): Promise<void> {
    await asCache(this.cache)?.clear([]);
  }

  /**
   * The last part of the id LangChain.js serializes this graph with (`{ lc: 1, type:
   * "not_implemented", id: ["langgraph", "pregel", <this>] }`, chain callbacks' first argument):
   * `"LangGraph"` for a graph built with the Pregel API or `entrypoint`; compiled graphs name
   * their class.
   */
  protected get drawnClassName(): string {
    return "LangGraph";
  }

  /**
   * Runs the graph to completion and returns its final state (the output channels' values),
   * or `undefined` when no step wrote any of them. With a `streamMode` other than `values`,
   * returns the list of chunks that mode produced; with `subgraphs: true` (and `values`), the
   * last `[namespace, values]` pair streamed, as LangGraph.js does.
   */
  async invoke(input: Input | null, given?: PregelOptions<Context>): Promise<Output> {
    const options = withHandlerList(given);
    const streamMode = options?.streamMode;
    if (streamMode !== undefined && streamMode !== "values") {
      const chunks: unknown[] = [];
      // its chunks show the output keys, as those of a run of `invoke` do
      const streamed = { ...options, outputKeys: options?.outputKeys ?? this.outputChannels };
      for await (const chunk of await this.stream(input, streamed)) chunks.push(chunk);
      return chunks as Output;
    }
    if (options?.subgraphs === true) {
      // as LangGraph.js: the run is streamed, its `values` chunks are `[namespace, values]` pairs,
      // and the last one is the result (the pair itself, an interrupt's included)
      let last: unknown;
      const streamed = {
        ...options,
        streamMode: "values" as const,
        outputKeys: options.outputKeys ?? this.outputChannels,
      };
      for await (const chunk of await this.stream(input, streamed)) last = chunk;
      return last as Output;
    }
    const run = resolveRunConfig(this.config, options, this.contextSchema);
    const link = run.parentLink;
    // LangChain.js chain callbacks (handleChainStart/End/Error) hear the graph and its nodes: the
    // run goes through the event stream then (only a root run; a nested one is reported by it)
    if (link === undefined) {
      const chainHandlers = chainHandlersOf(run.config.callbacks);
      if (chainHandlers !== undefined) return this.invokeReportingChains(input, options, chainHandlers, run);
    }
    // handlers given to this call only (not the node's) hear this nested run, as in LangChain.js
    const own = link === undefined ? undefined : this.nestedChainReporter(options, run);
    const loop = this.createLoop(
      input,
      run,
      options,
      own === undefined ? link?.sink : own.sink(link?.sink),
      link,
      undefined,
      true,
    );
    own?.start(input);
    // the chain callbacks that hear the node hear this run as the node's child, as in LangChain.js
    const heard =
      link === undefined || own !== undefined
        ? undefined
        : nestedGraphChainRun(
            this.drawnClassName,
            run.config.runName ?? this.name ?? "LangGraph",
            run.config,
            run.task,
            input,
          );
    // a run nested in a node is a chain run of its own in `streamEvents`, as in LangChain.js
    const events = link === undefined ? undefined : nestedGraphEventsOf(run.config.callbacks);
    const eventsRunId = events === undefined ? undefined : randomId();
    if (events !== undefined && eventsRunId !== undefined) {
      events.nestedGraphStart(
        eventsRunId,
        this.config?.runName ?? this.name ?? "LangGraph",
        [...(run.config.tags ?? [])],
        { ...run.config.metadata },
        input,
      );
    }
    try {
      await loop.run();
    } catch (error) {
      if (eventsRunId !== undefined) events?.nestedGraphStopped(eventsRunId);
      own?.error(error);
      heard?.error(error);
      throw link === undefined ? rootError(error) : error;
    }
    const output = loop.output();
    own?.end(output);
    if (loop.interrupts === undefined) heard?.end(output);
    else heard?.error(new GraphInterrupt(loop.interrupts));
    if (eventsRunId !== undefined) {
      if (loop.interrupts === undefined) events?.nestedGraphEnd(eventsRunId, output);
      else events?.nestedGraphStopped(eventsRunId);
    }
    if (link !== undefined && loop.interrupts === undefined) {
      this.reportAsNode(run.config, output, run.nodeMetadata);
    }
    if (loop.interrupts === undefined) return output as Output;
    const values = typeof output === "object" && output !== null && !Array.isArray(output) ? output : {};
    return { ...values, [INTERRUPT]: loop.interrupts } as Output;
  }

  /**
   * A graph invoked inside a node named as the graph (an agent called from a node named after
   * it): LangGraph.js's `messages` stream takes the graph's run for the node's, so the messages
   * the graph returns are streamed as it ends, with its tags and metadata (the node's, and the
   * graph's own, such as an agent's `lc_agent_name`), not the node's step tag. The node's own
   * report then finds them streamed already.
   */
  private reportAsNode(
    config: LangGraphRunnableConfig<unknown>,
    output: unknown,
    nodeMetadata: Record<string, unknown> | undefined,
  ): void {
    const name = this.config?.runName ?? this.name;
    // a run given its own metadata (an agent's) is heard with the node's under it
    const metadata = nodeMetadata === undefined ? config.metadata : { ...nodeMetadata, ...config.metadata };
    if (name === undefined || metadata?.langgraph_node !== name) return;
    const handler = config.callbacks?.find((h) => h instanceof MessagesStreamHandler);
    if (handler === undefined) return;
    (handler as MessagesStreamHandler).nodeFinished(metadata, config.tags, name, output, randomId(), false);
  }

  /**
   * The chain reporter of a run nested in a node, when the call was given chain handlers of its
   * own (ones the node's config does not carry, which hear it through the root run already).
   */
  private nestedChainReporter(
    options: PregelOptions<Context> | undefined,
    run: ResolvedRun,
  ): NestedChains | undefined {
    const given = options?.callbacks;
    if (!Array.isArray(given)) return undefined;
    const heard = getAsyncContext<LangGraphRunnableConfig>()?.callbacks;
    // callbacks of its own replace the node's (LangChain.js's ensureConfig): the root run's chain
    // callbacks do not hear this run's nodes then
    const replaced = heard !== undefined && heard.length > 0 && !given.some((h) => heard.includes(h));
    const mine = chainHandlersOf(heard === undefined ? given : given.filter((h) => !heard.includes(h)));
    if (mine === undefined && !replaced) return undefined;
    const reporter =
      mine === undefined
        ? undefined
        : new ChainReporter(
            mine,
            this.drawnClassName,
            run.config.runName ?? this.name ?? "LangGraph",
            [...(run.config.tags ?? [])],
            { ...run.config.metadata },
            undefined,
            false,
            true,
          );
    // the node's segment is the last of the run's namespace
    const ns = String(run.config.configurable?.checkpoint_ns ?? "");
    const segment = ns === "" ? undefined : ns.split(CHECKPOINT_NAMESPACE_SEPARATOR).at(-1);
    return new NestedChains(reporter, replaced ? segment : undefined);
  }

  /**
   * `invoke` for a root run with chain callbacks: the same run, observed through an internal
   * `debug` stream (subgraphs included) so that the callbacks hear each node start and end.
   */
  private async invokeReportingChains(
    input: Input | null,
    options: PregelOptions<Context> | undefined,
    handlers: CallbackHandler[],
    resolved: ResolvedRun,
  ): Promise<Output> {
    const config = resolved.config;
    const reporter = new ChainReporter(
      handlers,
      this.drawnClassName,
      config.runName ?? this.name ?? "LangGraph",
      [...(config.tags ?? [])],
      { ...config.metadata },
      resolved.runId,
    );
    // a handler with `raiseError` and `awaitHandlers` that fails hearing the start fails the run
    // before it starts (no checkpoint, no chain error), as in LangChain.js
    const started = reporter.start(input);
    if (started !== undefined) await started;
    // the run's debug events reach the reporter as the engine reports them, so a node's start is
    // heard before the model and tool calls made in it (as in LangChain.js)
    const sink = new ReporterSink(reporter);
    // graph callback handlers hear the id the chain callbacks heard the graph start with
    const loop = this.createLoop(
      input,
      { ...resolved, runId: reporter.runId },
      options,
      sink,
      undefined,
      undefined,
      true,
    );
    try {
      await loop.run();
    } catch (error) {
      const failure = rootError(error);
      const raised = reporter.error(failure);
      if (raised !== undefined) await raised;
      throw failure;
    }
    const output = loop.output();
    const result =
      loop.interrupts === undefined
        ? output
        : {
            ...(typeof output === "object" && output !== null && !Array.isArray(output) ? output : {}),
            [INTERRUPT]: loop.interrupts,
          };
    // the graph's run ends with its output values, the interrupts being no part of them (such a
    // handler that fails hearing it fails the run, its steps saved)
    const ended = reporter.end(output);
    if (ended !== undefined) await ended;
    return result as Output;
  }

  /**
   * Runs the graph and streams what happens, per `streamMode` (default: `updates` for state
   * graphs). Resolves to an async-iterable `ReadableStream`; leaving the loop early (or
   * cancelling the stream) stops the run.
   */
  stream(
    input: Input | null,
    options: PregelOptions<Context> & { encoding: "text/event-stream" },
  ): Promise<IterableReadableStream<Uint8Array>>;
  stream<const M extends readonly StreamMode[]>(
    input: Input | null,
    options: PregelOptions<Context, M> & { streamMode: M; subgraphs?: false },
  ): Promise<IterableReadableStream<[mode: M[number], chunk: Chunk]>>;
  stream(input: Input | null, options?: PregelOptions<Context>): Promise<IterableReadableStream<Chunk>>;
  async stream(
    input: Input | null,
    given?: PregelOptions<Context, StreamMode | readonly StreamMode[]>,
  ): Promise<IterableReadableStream<unknown>> {
    const options = withHandlerList(given as PregelOptions<Context> | undefined);
    // A graph streamed from inside another graph's node defaults to `values`, as in LangGraph.js.
    const nested = getAsyncContext<Record<symbol, unknown>>()?.[PARENT_RUN] !== undefined;
    if (options?.encoding !== undefined) return this.streamEncoded(input, options, nested);
    const { modes, multi } = normalizeStreamModes(options?.streamMode, nested ? "values" : this.streamMode);
    // the probe reads the run's namespace only: without the call's `timeout`, which the run's own
    // resolution below turns into the one timer of the run
    const probe = resolveRunConfig(
      this.config,
      options?.timeout === undefined ? options : copyWith(options, "timeout", undefined),
      this.contextSchema,
    );
    const probeNs = nestedRunNamespace(probe, false);
    const baseDepth = probeNs === "" ? 0 : probeNs.split("|").length;
    const opened = openRunStream<Chunk>(
      modes,
      options?.subgraphs ?? false,
      multi,
      baseDepth,
      options?.signal,
    );
    const run = resolveRunConfig(this.config, copyWith(options, "signal", opened.signal), this.contextSchema);
    let messages: MessagesStreamHandler | undefined;
    let config = run.config;
    // streamEvents v3 streams messages and tool calls as protocol events, by node task
    const protocol = (options as Record<symbol, unknown> | undefined)?.[PROTOCOL_STREAM] === true;
    if (opened.sink.modes.has("messages")) {
      messages = protocol
        ? new ProtocolMessagesHandler(opened.sink, baseDepth)
        : new MessagesStreamHandler(
            opened.sink,
            ((options as Record<symbol, unknown> | undefined)?.[MESSAGES_SUBGRAPHS] as boolean | undefined) ??
              options?.subgraphs ??
              false,
            baseDepth,
          );
      config = copyWith(config, "callbacks", [...(config.callbacks ?? []), messages]);
    }
    if (opened.sink.modes.has("tools")) {
      // tools report to the callbacks of the config they run with, which nodes hand on
      const tools = protocol ? new ProtocolToolsHandler(opened.sink) : new ToolsStreamHandler(opened.sink);
      config = copyWith(config, "callbacks", [...(config.callbacks ?? []), tools]);
    }
    const events = (options as Record<symbol, unknown> | undefined)?.[EVENTS_HANDLER] as
      | ((sink: typeof opened.sink) => CallbackHandler)
      | undefined;
    const eventsHandler = events?.(opened.sink);
    if (eventsHandler !== undefined)
      config = copyWith(config, "callbacks", [...(config.callbacks ?? []), eventsHandler]);
    // Streamed from inside another graph's node, the graph runs as part of that run (its
    // checkpointer, namespace and interrupts, as `invoke` does) and reports to both streams.
    const parent = run.parentLink;
    // a root run's chain callbacks hear the graph and its nodes, as `invoke`'s do (a `streamEvents`
    // v2 run's with its events' run ids)
    const chainHandlers =
      parent === undefined && !protocol ? chainHandlersOf(run.config.callbacks) : undefined;
    // a root `streamEvents` run also shows the hidden `__start__` node and the runs inside nodes
    // (routers, an entrypoint's plucks), as LangChain.js's v2 events do
    const innerEvents =
      parent === undefined && !protocol && eventsHandler instanceof EventsHandler ? eventsHandler : undefined;
    if (innerEvents !== undefined) opened.sink.hiddenTasks = true;
    // a nested run reports to the handlers given to this call only
    const nestedReporter =
      parent === undefined || protocol ? undefined : this.nestedChainReporter(options, run);
    const reporter =
      chainHandlers === undefined && innerEvents === undefined
        ? undefined
        : new ChainReporter(
            chainHandlers ?? [],
            this.drawnClassName,
            run.config.runName ?? this.name ?? "LangGraph",
            [...(run.config.tags ?? [])],
            { ...run.config.metadata },
            run.runId,
            events !== undefined,
            false,
            innerEvents,
          );
    let sink: StreamSink = opened.sink;
    if (parent?.sink !== undefined) sink = new TeeSink(opened.sink, parent.sink);
    if (nestedReporter !== undefined) sink = nestedReporter.sink(sink) ?? sink;
    else if (reporter !== undefined) sink = new ChainReportingSink(opened.sink, reporter);
    const loop = this.createLoop(
      input,
      { ...run, config, runId: reporter === undefined ? run.runId : reporter.runId },
      options,
      sink,
      parent,
      messages,
    );
    // a handler with `raiseError` and `awaitHandlers` that fails hearing the start fails the run
    // before it starts, one that fails hearing its end or error fails it with its own error (as in
    // LangChain.js)
    const started = reporter?.start(input);
    nestedReporter?.start(input);
    const failed = (failure: unknown) => opened.end({ error: failure });
    let vetoed = false;
    const ran =
      started !== undefined
        ? started.then(
            () => loop.run(),
            (error: unknown) => {
              vetoed = true;
              throw error;
            },
          )
        : loop.run();
    ran.then(
      () => {
        const ended = reporter?.end(loop.output());
        nestedReporter?.end(loop.output());
        if (ended === undefined) opened.end();
        else ended.then(() => opened.end(), failed);
      },
      (error: unknown) => {
        // a run its start's handler failed never started: no chain error, as in LangChain.js
        if (vetoed) return failed(error);
        const failure = parent === undefined ? rootError(error) : error;
        const raised = reporter?.error(failure);
        nestedReporter?.error(failure);
        if (raised === undefined) failed(failure);
        else raised.then(() => failed(failure), failed);
      },
    );
    // as in LangGraph.js, `stream()` settles once the run has its first chunk: a run that fails
    // before producing one rejects here
    await opened.ready();
    return opened.stream;
  }

  /** `stream()` with an `encoding`: the chunks of every requested mode as Server-Sent Events. */
  private async streamEncoded(
    input: Input | null,
    options: PregelOptions<Context>,
    nested: boolean,
  ): Promise<IterableReadableStream<Uint8Array>> {
    const { encoding, ...rest } = options;
    if (encoding !== "text/event-stream") {
      throw new InvalidArgumentError(
        `Unknown stream encoding ${JSON.stringify(encoding)}. Use "text/event-stream", or leave \`encoding\` out for chunks as objects.`,
      );
    }
    const { modes } = normalizeStreamModes(options.streamMode, nested ? "values" : this.streamMode);
    const subgraphs = options.subgraphs ?? false;
    const chunks = (await this.stream(input, {
      ...rest,
      streamMode: modes,
      subgraphs,
    })) as IterableReadableStream<unknown[]>;
    const parts: AsyncIterable<GraphStreamPart> = {
      async *[Symbol.asyncIterator]() {
        for await (const chunk of chunks) {
          if (subgraphs)
            yield { namespace: chunk[0] as string[], mode: chunk[1] as string, payload: chunk[2] };
          else yield { namespace: [], mode: chunk[0] as string, payload: chunk[1] };
        }
      },
    };
    return toGraphEventStream(parts, (reason) => {
      void chunks.cancel(reason);
    });
  }

  /**
   * Runs the graph and yields what happens as LangChain.js events (`streamEvents`, schema v2):
   * the graph's and each node's `on_chain_start` / `on_chain_end` (the graph's stream chunks
   * as `on_chain_stream`: those of the call's `streamMode`, `updates` by default), and the `on_chat_model_*` (tokens included) and `on_tool_*`
   * events of the calls made in nodes. `filter` keeps events by name, run type
   * (`chain`, `chat_model`, `tool`) or tag.
   *
   * With `version: "v3"` it resolves to a {@link GraphRunStream} of protocol events (LangGraph's
   * streaming protocol) with projections (`values`, `messages`, `subgraphs`, `lifecycle`,
   * `output`, `interrupts`, `extensions`); with `encoding: "text/event-stream"`, to the same
   * events as Server-Sent Events bytes.
   *
   * @example
   * ```ts
   * for await (const event of graph.streamEvents(input, { version: "v2" })) {
   *   if (event.event === "on_chat_model_stream") process.stdout.write((event.data.chunk as AIMessageChunk).text);
   * }
   * const run = await graph.streamEvents(input, { version: "v3" });
   * for await (const message of run.messages) console.log(await message.text);
   * ```
   */
  streamEvents<const TTransformers extends ReadonlyArray<StreamTransformerFactory> = []>(
    input: Input | null,
    options: PregelOptions<Context> &
      StreamEventsV3Options<TTransformers> & { encoding: "text/event-stream" },
  ): Promise<IterableReadableStream<Uint8Array>>;
  streamEvents<const TTransformers extends ReadonlyArray<StreamTransformerFactory> = []>(
    input: Input | null,
    options: PregelOptions<Context> & StreamEventsV3Options<TTransformers>,
  ): Promise<GraphRunStream<Output, InferExtensions<readonly [...StreamTransformers, ...TTransformers]>>>;
  streamEvents(
    input: Input | null,
    options: PregelOptions<Context> & StreamEventsOptions,
    filter?: StreamEventsFilter,
  ): IterableReadableStream<StreamEvent>;
  streamEvents(
    input: Input | null,
    options:
      | (PregelOptions<Context> & StreamEventsOptions)
      | (PregelOptions<Context> & StreamEventsV3Options),
    filter?: StreamEventsFilter,
  ):
    | IterableReadableStream<StreamEvent>
    | Promise<GraphRunStream<Output, Record<string, unknown>> | IterableReadableStream<Uint8Array>> {
    if (options.version === "v3") {
      return streamEventsV3<Output, ReadonlyArray<StreamTransformerFactory>>(
        {
          streamTransformers: this.streamTransformers,
          persisted: isCheckpointSaver(this.checkpointer),
          stream: (runInput, runOptions) =>
            this.stream(runInput as Input | null, runOptions as PregelOptions<Context>) as Promise<
              AsyncIterable<unknown>
            >,
        },
        input,
        options as StreamEventsV3Options & Record<string, unknown>,
      ) as Promise<GraphRunStream<Output, Record<string, unknown>> | IterableReadableStream<Uint8Array>>;
    }
    return streamGraphEvents(
      this as unknown as EventSource,
      input,
      options as StreamEventsOptions & Record<string, unknown>,
      filter,
    );
  }

  /** The checkpointer of this graph, or of the run it is nested in. */
  private saverFor(parentLink: ParentRunLink | undefined): BaseCheckpointSaver | undefined {
    if (this.checkpointer === false) return undefined;
    // a run's saver is lent to the graphs it runs, even to one compiled with a saver of its own
    // (as LangGraph.js resolves it), so a subgraph's checkpoints sit with its parent's
    const inherited = parentLink?.checkpointer;
    if (isCheckpointSaver(inherited)) return inherited;
    return isCheckpointSaver(this.checkpointer) ? this.checkpointer : undefined;
  }

  /** `checkpointer: true` borrows the parent's saver: run where there is none, it is an error. */
  private rootCheckpointerTrueError(): GraphValueError {
    return new GraphValueError(
      "checkpointer: true cannot be used for root graphs. Run this graph as a subgraph of a graph that has a checkpointer, or compile it with one (e.g. compile({ checkpointer: new MemorySaver() })).",
      { code: "MISSING_CHECKPOINTER" },
    );
  }

  /** The saver the state API uses; throws when the graph has none. */
  private requireSaver(config: RunnableConfig): BaseCheckpointSaver {
    const saver =
      this.saverFor(undefined) ??
      (isCheckpointSaver(config.configurable?.__checkpointer)
        ? config.configurable.__checkpointer
        : undefined);
    if (saver === undefined) {
      if (this.checkpointer === true) throw this.rootCheckpointerTrueError();
      throw new GraphValueError(
        "No checkpointer set: compile the graph with one (e.g. compile({ checkpointer: new MemorySaver() })) to keep and inspect its state.",
        { lc_error_code: "MISSING_CHECKPOINTER" },
      );
    }
    return saver;
  }

  /** {@link getSubgraphs}, as an async iterator (LangGraph.js `getSubgraphsAsync`). */
  async *getSubgraphsAsync(namespace?: string, recurse = false): AsyncGenerator<[string, Pregel]> {
    yield* this.getSubgraphs(namespace, recurse);
  }

  /**
   * The subgraphs of this graph, as `[namespace, graph]` pairs (a subgraph's namespace is the
   * name of the node that runs it; nested ones are joined with `|`). With `namespace`, only the
   * subgraph at that namespace (and, with `recurse`, the ones below it on the way).
   */
  *getSubgraphs(namespace?: string, recurse = false): Generator<[string, Pregel]> {
    const sep = CHECKPOINT_NAMESPACE_SEPARATOR;
    for (const [name, node] of Object.entries(this.loopGraph.nodes)) {
      const below = namespace?.startsWith(name + sep) === true;
      if (namespace !== undefined && namespace !== name && !below) continue;
      for (const subgraph of node.subgraphs ?? []) {
        if (!isPregel(subgraph)) continue;
        if (namespace === name) {
          yield [name, subgraph];
          return;
        }
        if (namespace === undefined) yield [name, subgraph];
        if (!recurse) continue;
        const rest = below ? (namespace as string).slice(name.length + sep.length) : undefined;
        for (const [childName, child] of subgraph.getSubgraphs(rest, true)) {
          yield [`${name}${sep}${childName}`, child];
        }
      }
    }
  }

  /** The graph whose checkpoints live at a checkpoint namespace (`""`: this graph). */
  private graphAt(config: RunnableConfig): Pregel {
    const ns = String(config.configurable?.checkpoint_ns ?? "");
    if (ns === "") return this as unknown as Pregel;
    const wanted = ns
      .split(CHECKPOINT_NAMESPACE_SEPARATOR)
      .filter((part) => !/^\d+$/.test(part))
      .map((part) => part.split(CHECKPOINT_NAMESPACE_END)[0])
      .join(CHECKPOINT_NAMESPACE_SEPARATOR);
    for (const [name, graph] of this.getSubgraphs(wanted, true)) if (name === wanted) return graph;
    throw new GraphValueError(
      `Subgraph with namespace "${wanted}" not found: checkpoint_ns ${JSON.stringify(ns)} names no subgraph of this graph.`,
    );
  }

  /** The state of a thread: at its latest checkpoint, or at `checkpoint_id` (of a subgraph, with its `checkpoint_ns`). */
  async getState(config: RunnableConfig, options: GetStateOptions = {}): Promise<StateSnapshot> {
    const saver = this.requireSaver(config);
    await writtenSaves(saver);
    const tuple = await saver.getTuple(config);
    const latest = config.configurable?.checkpoint_id === undefined;
    return this.graphAt(config).snapshotWith(saver, tuple, config, options.subgraphs ?? false, latest);
  }

  /** The checkpoints of a thread (or of a subgraph, with its `checkpoint_ns`), newest first, as snapshots. */
  async *getStateHistory(
    config: RunnableConfig,
    options: { limit?: number; before?: RunnableConfig; filter?: Record<string, unknown> } = {},
  ): AsyncGenerator<StateSnapshot> {
    const saver = this.requireSaver(config);
    const graph = this.graphAt(config);
    const listOptions: { limit?: number; before?: RunnableConfig; filter?: Record<string, unknown> } = {};
    if (options.limit !== undefined) listOptions.limit = options.limit;
    if (options.before !== undefined) listOptions.before = options.before;
    if (options.filter !== undefined) listOptions.filter = options.filter;
    const listConfig: RunnableConfig = {
      configurable: { ...config.configurable, checkpoint_ns: config.configurable?.checkpoint_ns ?? "" },
    };
    await writtenSaves(saver);
    for await (const tuple of saver.list(listConfig, listOptions)) {
      yield await graph.snapshotWith(saver, tuple, tuple.config, false, false);
    }
  }

  /**
   * Updates the state of a thread as if `asNode` had returned `values` (inferred when omitted),
   * and returns the config of the new checkpoint. Use it to correct state while a run is paused,
   * or with `"__copy__"` to fork a checkpoint.
   */
  async updateState(config: RunnableConfig, values: unknown, asNode?: string): Promise<RunnableConfig> {
    const saver = this.requireSaver(config);
    await writtenSaves(saver);
    return updateThreadState(this.graphAt(config).loopGraph, saver, config, values, asNode);
  }

  /**
   * Applies several supersteps of updates, each saved as a checkpoint (the updates of one
   * superstep count as tasks of one step, so each needs its `asNode`), and returns the config of
   * the last. `updateState(config, values, asNode)` is one superstep of one update.
   *
   * @example
   * ```ts
   * await graph.bulkUpdateState(config, [
   *   { updates: [{ values: { draft: "x" }, asNode: "writer" }, { values: { score: 1 }, asNode: "grader" }] },
   * ]);
   * ```
   */
  async bulkUpdateState(
    config: RunnableConfig,
    supersteps: readonly { updates: readonly StateUpdate[] }[],
  ): Promise<RunnableConfig> {
    const saver = this.requireSaver(config);
    await writtenSaves(saver);
    return bulkUpdateThreadState(this.graphAt(config).loopGraph, saver, config, supersteps);
  }

  /** @internal The snapshot of a checkpoint of this graph (its subgraphs read from the same saver). */
  async snapshotWith(
    saver: BaseCheckpointSaver,
    tuple: CheckpointTuple | undefined,
    config: RunnableConfig,
    withSubgraphs: boolean,
    latest: boolean,
  ): Promise<StateSnapshot> {
    return snapshotOf(
      this.loopGraph,
      tuple,
      config,
      async (node, childConfig) => {
        const subgraph = node.subgraphs?.find(isPregel) as Pregel | undefined;
        if (subgraph === undefined) return undefined;
        const ownConfig =
          subgraph.checkpointer === true
            ? {
                ...childConfig,
                configurable: {
                  ...childConfig.configurable,
                  checkpoint_ns: persistentNamespace(String(childConfig.configurable?.checkpoint_ns ?? "")),
                },
              }
            : childConfig;
        const childTuple = await saver.getTuple(ownConfig);
        return subgraph.snapshotWith(saver, childTuple, ownConfig, true, true);
      },
      withSubgraphs,
      latest,
    );
  }

  /**
   * The graph a run sees: with `outputKeys`, those keys are its output and what its `values` and
   * `updates` chunks show; a run of `invoke` shows its output keys there (as in LangGraph.js).
   */
  private graphFor(outputKeys: string | readonly string[] | undefined, invoked: boolean): LoopGraph {
    if (outputKeys === undefined) {
      return invoked ? { ...this.loopGraph, valuesChannels: this.outputChannels } : this.loopGraph;
    }
    for (const key of typeof outputKeys === "string" ? [outputKeys] : outputKeys) {
      if (!Object.hasOwn(this.channels, key)) {
        throw new InvalidArgumentError(
          `Key ${key} not found in channels: outputKeys names "${key}", which is not a channel of this graph. Name state keys: ${this.loopGraph.stateKeys
            .map((name) => JSON.stringify(name))
            .join(", ")}.`,
        );
      }
    }
    const keys = typeof outputKeys === "string" ? outputKeys : [...outputKeys];
    return { ...this.loopGraph, outputChannels: keys, valuesChannels: keys };
  }

  private createLoop(
    input: Input | null,
    run: ReturnType<typeof resolveRunConfig>,
    options: PregelOptions<Context> | undefined,
    sink: StreamSink | undefined,
    parentLink: ParentRunLink | undefined,
    messages?: MessagesStreamHandler,
    invoked = false,
  ): PregelLoop {
    const saver = this.saverFor(parentLink);
    // a `checkpointer: true` subgraph keeps one history per thread, under its namespace
    // without task ids (LangGraph.js's `_ownCheckpointConfig`)
    const ns = nestedRunNamespace(run, true);
    const parentNs = this.checkpointer === true && parentLink !== undefined ? persistentNamespace(ns) : ns;
    const config = run.config;
    const configurable = config.configurable ?? {};
    let persistence: LoopPersistence | undefined;
    // a nested run whose namespace the run's checkpoint map names (the map of a subgraph
    // snapshot's config, given to the root run: time travel into a subgraph) starts from that
    // checkpoint, as in LangGraph.js; otherwise from its namespace's latest
    const addressed =
      parentLink === undefined || configurable.checkpoint_id !== undefined
        ? undefined
        : (configurable.checkpoint_map as Record<string, string> | undefined)?.[parentNs];
    if (saver === undefined && this.checkpointer === true) throw this.rootCheckpointerTrueError();
    if (saver !== undefined) {
      // a Command's first save is its writes (the text says which save failed, as LangGraph.js's)
      const missingThread = threadIdErrorFor(saver, config, isCommand(input) ? "putWrites" : "put");
      if (missingThread !== undefined) throw missingThread;
      const threadId = configurable.thread_id;
      const checkpointId = configurable.checkpoint_id ?? addressed;
      persistence = new LoopPersistence({
        saver,
        threadId: String(threadId),
        ns: parentNs,
        checkpointId:
          checkpointId === undefined || checkpointId === null || checkpointId === ""
            ? undefined
            : String(checkpointId),
        durability: options?.durability ?? parentLink?.durability ?? "async",
        parents: (configurable.checkpoint_map as Record<string, string> | undefined) ?? {},
        queue: parentLink?.saveQueue,
        runConfigurable: configurable,
      });
    }
    const link: ParentRunLink =
      parentLink === undefined
        ? {
            sink,
            namespace: [],
            messagesHandler: messages,
            recursionLimit: run.recursionLimit,
            checkpointer: saver,
            saveQueue: persistence?.queue,
            durability: options?.durability,
            control: config.control,
          }
        : lendSaver(parentLink, saver, persistence);
    const given = options?.store ?? config.store ?? this.store;
    // an AsyncBatchedStore is unwrapped (as LangGraph.js does): the run batches on its own
    const store = given instanceof AsyncBatchedStore ? given.store : given;
    const loopConfig =
      store !== undefined && config.store !== store ? { ...config, store: store as NodeStore } : config;
    return new PregelLoop({
      graph: this.graphFor(options?.outputKeys, invoked),
      input,
      config: loopConfig,
      recursionLimit: run.recursionLimit,
      parentNs,
      startTurns: parentLink === undefined ? undefined : NESTED_START_TURNS,
      sink,
      link,
      maxConcurrency: checkMaxConcurrency(config.maxConcurrency),
      retryPolicy: options?.retryPolicy,
      debug: options?.debug ?? false,
      abortSignal: config.signal,
      persistence,
      interruptBefore: options?.interruptBefore ?? this.interruptBefore,
      interruptAfter: options?.interruptAfter ?? this.interruptAfter,
      explicitCheckpoint:
        persistence !== undefined &&
        ((configurable.checkpoint_id !== undefined && parentLink === undefined) || addressed !== undefined),
      cache: asCache(options?.cache ?? this.cache),
      stepTimeout: this.stepTimeout,
      runId: run.runId,
    });
  }
}

/** Reports to two sinks: a nested graph's own `stream()` and the run it is part of. */
class TeeSink extends StreamSink {
  private readonly own: StreamSink;
  private readonly parent: StreamSink;

  constructor(own: StreamSink, parent: StreamSink) {
    super([...new Set([...own.modes, ...parent.modes])], true, true, () => {});
    this.own = own;
    this.parent = parent;
  }

  override wants(mode: StreamMode, depth: number): boolean {
    return this.own.wants(mode, depth) || this.parent.wants(mode, depth);
  }

  override hearsHidden(): boolean {
    return this.own.hearsHidden() || this.parent.hearsHidden();
  }

  override push(namespace: readonly string[], mode: StreamMode, payload: unknown): void {
    if (isHiddenTaskEvent(mode, payload)) {
      if (this.own.hearsHidden()) this.own.push(namespace, mode, payload);
      if (this.parent.hearsHidden()) this.parent.push(namespace, mode, payload);
      return;
    }
    if (this.own.wants(mode, namespace.length)) this.own.push(namespace, mode, payload);
    if (this.parent.wants(mode, namespace.length)) this.parent.push(namespace, mode, payload);
  }
}

/**
 * The sink of a root `stream()` whose chain callbacks listen: every graph's `debug` events also
 * go to the {@link ChainReporter} as the engine reports them; the rest as to the stream's sink.
 */
/**
 * The chain callbacks of a graph run nested in a node that was given callbacks of its own: its
 * reporter (when they listen to chains), and the node's namespace segment, which the root run's
 * chain callbacks skip while it runs (they do not hear its nodes).
 */
class NestedChains {
  constructor(
    readonly reporter: ChainReporter | undefined,
    private readonly detached: string | undefined,
  ) {
    if (detached !== undefined) DETACHED_SEGMENTS.add(detached);
  }

  /** The sink the run streams to, which feeds the reporter its `debug` chunks. */
  sink(inner: StreamSink | undefined): StreamSink | undefined {
    const reporter = this.reporter;
    if (reporter === undefined) return inner;
    return inner === undefined ? new ReporterSink(reporter) : new ChainReportingSink(inner, reporter);
  }

  // a nested run's handlers do not fail it (logged only)
  start(input: unknown): void {
    this.reporter?.start(input)?.catch(ignore);
  }

  end(output: unknown): void {
    this.done();
    this.reporter?.end(output)?.catch(ignore);
  }

  error(error: unknown): void {
    this.done();
    this.reporter?.error(error)?.catch(ignore);
  }

  private done(): void {
    if (this.detached !== undefined) DETACHED_SEGMENTS.delete(this.detached);
  }
}

class ChainReportingSink extends StreamSink {
  private readonly inner: StreamSink;
  private readonly reporter: ChainReporter;

  constructor(inner: StreamSink, reporter: ChainReporter) {
    super([...new Set<StreamMode>([...inner.modes, "debug"])], true, true, () => {});
    this.inner = inner;
    this.reporter = reporter;
  }

  override wants(mode: StreamMode, depth: number): boolean {
    return mode === "debug" || this.inner.wants(mode, depth);
  }

  override hearsHidden(): boolean {
    return true;
  }

  override push(namespace: readonly string[], mode: StreamMode, payload: unknown): void {
    if (mode === "debug") this.reporter.chunk(namespace, payload);
    if (isHiddenTaskEvent(mode, payload)) {
      // the inner sink hears it when it reports to chain callbacks of its own
      if (this.inner.hearsHidden()) this.inner.push(namespace, mode, payload);
      return;
    }
    if (this.inner.wants(mode, namespace.length)) this.inner.push(namespace, mode, payload);
  }
}

/** Whether a chunk is a hidden task's `debug` event, which only chain callbacks hear. */
function isHiddenTaskEvent(mode: StreamMode, payload: unknown): boolean {
  return (
    mode === "debug" &&
    typeof payload === "object" &&
    payload !== null &&
    (payload as { [HIDDEN_TASK_EVENT]?: unknown })[HIDDEN_TASK_EVENT] === true
  );
}

/** A sink that only feeds a chain reporter the run's `debug` events (hidden tasks' included). */
class ReporterSink extends StreamSink {
  constructor(reporter: ChainReporter) {
    super(["debug"], true, true, (chunk) => {
      const [namespace, , event] = chunk as [string[], string, unknown];
      reporter.chunk(namespace, event);
    });
  }

  override hearsHidden(): boolean {
    return true;
  }
}

/**
 * The call's options with `callbacks` as a list of handlers. `@langchain/core`'s runnables pass
 * a step they run (a graph piped after a `RunnableLambda`) a `CallbackManager`, not a list: its
 * `handlers` hear the run then (as the root of its own runs: the graph's run is not reported as
 * a child of the sequence's). Options are returned as given otherwise.
 */
function withHandlerList<O extends { callbacks?: readonly CallbackHandler[] }>(
  options: O | undefined,
): O | undefined {
  const callbacks: unknown = options?.callbacks;
  if (callbacks === undefined || callbacks === null || Array.isArray(callbacks)) return options;
  const handlers = (callbacks as { handlers?: unknown }).handlers;
  return copyWith(
    options,
    "callbacks",
    Array.isArray(handlers) ? (handlers as CallbackHandler[]) : undefined,
  );
}

/** The node cache given as an option, if it has the cache methods. */
function asCache(value: unknown): BaseCache | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const candidate = value as Partial<BaseCache>;
  return typeof candidate.get === "function" && typeof candidate.set === "function"
    ? (value as BaseCache)
    : undefined;
}

/** A parent command that reached the top of the run has nowhere to go: say so. */
function rootError(error: unknown): unknown {
  if (!isParentCommand(error)) return error;
  return new InvalidUpdateError(
    "A node returned Command({ graph: Command.PARENT }), but its graph is not running inside a parent graph. Use Command.PARENT only in subgraphs; to route within this graph, leave `graph` out.",
    { cause: error },
  );
}

/** True for a compiled graph from any copy of the library. */
export function isPregel(value: unknown): value is Pregel {
  return (
    typeof value === "object" && value !== null && (value as { lg_is_pregel?: unknown }).lg_is_pregel === true
  );
}

/**
 * The link a nested graph passes on to the graphs it runs: its parent's, unless that run has no
 * saver and this graph has one of its own, which it then lends to them (as LangGraph.js lends a
 * run's saver through its config), so a graph nested under it can save and `interrupt()`.
 */
function lendSaver(
  parent: ParentRunLink,
  saver: BaseCheckpointSaver | undefined,
  persistence: LoopPersistence | undefined,
): ParentRunLink {
  if (saver === undefined || isCheckpointSaver(parent.checkpointer)) return parent;
  return {
    sink: parent.sink,
    namespace: parent.namespace,
    messagesHandler: parent.messagesHandler,
    recursionLimit: parent.recursionLimit,
    checkpointer: saver,
    saveQueue: persistence?.queue,
    durability: parent.durability,
    // one drain control for the whole run, wherever a node first asks for it
    get control() {
      return parent.control;
    },
    set control(control) {
      parent.control = control;
    },
    // the root run's replay point, wherever the graph that set it runs
    get replay() {
      return parent.replay;
    },
    set replay(replay) {
      parent.replay = replay;
    },
  };
}

/** A `checkpointer: true` subgraph keeps one history per thread: its namespace without task ids. */
function persistentNamespace(ns: string): string {
  return ns
    .split(CHECKPOINT_NAMESPACE_SEPARATOR)
    .map((part) => part.split(CHECKPOINT_NAMESPACE_END)[0])
    .join(CHECKPOINT_NAMESPACE_SEPARATOR);
}

function ignore(): void {}
