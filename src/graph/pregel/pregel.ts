import { getAsyncContext } from "../../shared/index.js";
import { BaseChannel } from "../channels/index.js";
import { InvalidUpdateError, isParentCommand } from "../core/index.js";
import {
  type LangGraphRunnableConfig,
  type LoopGraph,
  PARENT_RUN,
  type ParentRunLink,
  PregelLoop,
  type PregelNode,
} from "../loop/index.js";
import {
  IterableReadableStream,
  normalizeStreamModes,
  type StreamMode,
  StreamSink,
} from "../stream/index.js";
import { MessagesStreamHandler } from "./messages-stream.js";
import {
  type ContextValidator,
  checkMaxConcurrency,
  type PregelOptions,
  resolveRunConfig,
} from "./run-config.js";

/** The parts a {@link Pregel} graph is made of. */
export interface PregelParams {
  nodes: Record<string, PregelNode>;
  channels: Record<string, BaseChannel>;
  inputChannels: string | string[];
  outputChannels: string | string[];
  streamChannels?: string | string[];
  /** State keys conditional edges read. */
  stateKeys?: string[];
  /** Default stream mode of `stream()` (LangGraph: `values` for Pregel, `updates` for compiled state graphs). */
  streamMode?: StreamMode;
  name?: string;
  contextSchema?: ContextValidator | undefined;
  config?: LangGraphRunnableConfig;
}

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
export class Pregel<Input = unknown, Output = unknown, Chunk = unknown, Context = Record<string, unknown>> {
  readonly lg_is_pregel = true;
  readonly nodes: Record<string, PregelNode>;
  readonly channels: Record<string, BaseChannel>;
  readonly inputChannels: string | string[];
  readonly outputChannels: string | string[];
  readonly streamChannels: string | string[];
  readonly triggerToNodes: Record<string, string[]>;
  readonly streamMode: StreamMode;
  readonly stateKeys: string[];
  name: string | undefined;
  readonly contextSchema: ContextValidator | undefined;
  config: LangGraphRunnableConfig | undefined;
  private readonly loopGraph: LoopGraph;

  constructor(params: PregelParams) {
    this.nodes = params.nodes;
    this.channels = params.channels;
    this.inputChannels = params.inputChannels;
    this.outputChannels = params.outputChannels;
    this.streamChannels = params.streamChannels ?? params.outputChannels;
    this.streamMode = params.streamMode ?? "values";
    this.stateKeys = params.stateKeys ?? [];
    this.name = params.name;
    this.contextSchema = params.contextSchema;
    this.config = params.config;
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
    for (const [key, prototype] of Object.entries(this.channels)) {
      const fresh = prototype.fromCheckpoint(undefined);
      if (fresh.finish !== BaseChannel.prototype.finish) finishable.push(key);
      if (fresh.clearsWhenIdle && fresh.isAvailable()) initiallyIdle.push(key);
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
    };
  }

  /** A copy of this graph whose runs use `config` as defaults. */
  withConfig(config: LangGraphRunnableConfig): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
    Object.assign(copy, this);
    copy.config = { ...this.config, ...config };
    return copy;
  }

  /**
   * Runs the graph to completion and returns its final state (the output channels' values),
   * or `undefined` when no step wrote any of them. With a `streamMode` other than `values`,
   * returns the list of chunks that mode produced.
   */
  async invoke(input: Input | null, options?: PregelOptions<Context>): Promise<Output> {
    const streamMode = options?.streamMode;
    if (streamMode !== undefined && streamMode !== "values") {
      const chunks: unknown[] = [];
      for await (const chunk of await this.stream(input, options)) chunks.push(chunk);
      return chunks as Output;
    }
    const run = resolveRunConfig(this.config, options, this.contextSchema);
    const link = run.parentLink;
    const loop = this.createLoop(input, run, options, link?.sink, link);
    try {
      await loop.run();
    } catch (error) {
      throw link === undefined ? rootError(error) : error;
    }
    return loop.output() as Output;
  }

  /**
   * Runs the graph and streams what happens, per `streamMode` (default: `updates` for state
   * graphs). Resolves to an async-iterable `ReadableStream`; leaving the loop early (or
   * cancelling the stream) stops the run.
   */
  async stream(
    input: Input | null,
    options?: PregelOptions<Context>,
  ): Promise<IterableReadableStream<Chunk>> {
    // A graph streamed from inside another graph's node defaults to `values`, as in LangGraph.js.
    const nested = getAsyncContext<Record<symbol, unknown>>()?.[PARENT_RUN] !== undefined;
    const { modes, multi } = normalizeStreamModes(options?.streamMode, nested ? "values" : this.streamMode);
    const abort = new AbortController();
    const userSignal = options?.signal;
    let unlink: (() => void) | undefined;
    if (userSignal !== undefined) {
      if (userSignal.aborted) abort.abort(userSignal.reason);
      else {
        const onAbort = () => abort.abort(userSignal.reason);
        userSignal.addEventListener("abort", onAbort, { once: true });
        unlink = () => userSignal.removeEventListener("abort", onAbort);
      }
    }
    // Chunks wait here until the consumer pulls them, so that an error reaches the consumer only
    // after every chunk produced before it.
    const queue: unknown[] = [];
    let head = 0;
    let finished = false;
    let failed = false;
    let failure: unknown;
    let cancelled = false;
    let wake: (() => void) | undefined;
    const notify = () => {
      const w = wake;
      wake = undefined;
      w?.();
    };
    const stream = new IterableReadableStream<Chunk>(
      {
        async pull(controller) {
          while (head === queue.length && !finished) {
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
          }
          if (head < queue.length) {
            while (head < queue.length) controller.enqueue(queue[head++] as Chunk);
            queue.length = 0;
            head = 0;
            return;
          }
          if (failed) controller.error(failure);
          else controller.close();
        },
        cancel(reason) {
          cancelled = true;
          abort.abort(reason ?? new Error("The stream was cancelled."));
          notify();
        },
      },
      { highWaterMark: 0 },
    );
    const run = resolveRunConfig(this.config, { ...options, signal: abort.signal }, this.contextSchema);
    const baseDepth = run.parentNs === "" ? 0 : run.parentNs.split("|").length;
    const sink = new StreamSink(
      modes,
      options?.subgraphs ?? false,
      multi,
      (chunk) => {
        if (cancelled) return;
        queue.push(chunk);
        notify();
      },
      baseDepth,
    );
    let messages: MessagesStreamHandler | undefined;
    let config = run.config;
    if (sink.modes.has("messages")) {
      messages = new MessagesStreamHandler(sink, options?.subgraphs ?? false);
      config = { ...config, callbacks: [...(config.callbacks ?? []), messages] };
    }
    const loop = this.createLoop(input, { ...run, config }, options, sink, undefined, messages);
    loop.run().then(
      () => {
        unlink?.();
        finished = true;
        notify();
      },
      (error: unknown) => {
        unlink?.();
        failed = true;
        failure = rootError(error);
        finished = true;
        notify();
      },
    );
    return stream;
  }

  private createLoop(
    input: Input | null,
    run: ReturnType<typeof resolveRunConfig>,
    options: PregelOptions<Context> | undefined,
    sink: StreamSink | undefined,
    parentLink: ParentRunLink | undefined,
    messages?: MessagesStreamHandler,
  ): PregelLoop {
    const link: ParentRunLink = parentLink ?? {
      sink,
      namespace: [],
      messagesHandler: messages,
      recursionLimit: run.recursionLimit,
    };
    const abortSignal = run.config.signal;
    const config = run.config;
    return new PregelLoop({
      graph: this.loopGraph,
      input,
      config,
      recursionLimit: run.recursionLimit,
      parentNs: run.parentNs,
      sink,
      link,
      maxConcurrency: checkMaxConcurrency(run.config.maxConcurrency),
      retryPolicy: options?.retryPolicy,
      debug: options?.debug ?? false,
      abortSignal,
    });
  }
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
