import {
  type BaseCheckpointSaver,
  type BaseStore,
  type Command,
  type CompiledStateGraph,
  type DrawableGraph,
  type InferExtensions,
  IterableReadableStream,
  isCommand,
  type LangGraphRunnableConfig,
  type MermaidOptions,
  type MermaidPngOptions,
  type PregelOptions,
  type StateSnapshot,
  type StreamChunk,
  type StreamEvent,
  type StreamEventsFilter,
  type StreamEventsOptions,
  type StreamEventsV3Options,
  type StreamMode,
  type StreamPayloads,
  type StreamTransformerFactory,
} from "../graph/index.js";
import type { BaseMessage, Messages } from "../messages/index.js";
import type { RunnableConfig } from "../shared/index.js";
import { initialMiddlewareValues } from "./state.js";
import type { AgentRunStream } from "./stream-transformers.js";
import type { AgentTool, AnyAgentMiddleware } from "./types.js";

/**
 * The type parameters of an agent, in one bag: its state fields (besides `messages`), its
 * context, its structured response (`never` when it has no `responseFormat`) and its tools.
 *
 * @example
 * ```ts
 * type T = AgentTypes<{ turns: number }, { userId: string }, { city: string }>;
 * ```
 */
export interface AgentTypes<
  State = Record<never, never>,
  Context = Record<string, unknown>,
  Response = never,
  Tools = readonly AgentTool[],
  Transformers = readonly [],
> {
  state: State;
  context: Context;
  response: Response;
  /** The agent's tools (their types give `run.toolCalls` of `streamEvents` v3 its item types). */
  tools: Tools;
  /**
   * The agent's stream transformers, a list or `{ middleware, agent }` (its middlewares and its own
   * list): their projections type `run.extensions` of `streamEvents` v3.
   */
  transformers: Transformers;
}

/**
 * Any {@link AgentTypes} (the constraint of the agent's type parameter).
 *
 * @example
 * ```ts
 * function describe<T extends AnyAgentTypes>(agent: ReactAgent<T>) {}
 * ```
 */
export type AnyAgentTypes = AgentTypes<unknown, unknown, unknown, unknown, unknown>;

/** The stream transformers of a list of middlewares, in order (none for one whose list is not a tuple). */
type MiddlewareTransformers<M extends readonly unknown[]> = M extends readonly [infer H, ...infer R]
  ? [
      ...(H extends { readonly streamTransformers?: infer F extends readonly StreamTransformerFactory[] }
        ? number extends F["length"]
          ? []
          : F
        : []),
      ...MiddlewareTransformers<R>,
    ]
  : [];

/**
 * The stream transformers an agent compiles in, as a list type: its middlewares', then its own
 * (worked out only where `run.extensions` is typed). None when they are not known.
 */
type TransformersOf<T extends AnyAgentTypes> = T["transformers"] extends {
  middleware: infer M extends readonly unknown[];
  agent: infer A extends ReadonlyArray<StreamTransformerFactory>;
}
  ? readonly [...MiddlewareTransformers<M>, ...A]
  : T["transformers"] extends ReadonlyArray<StreamTransformerFactory>
    ? T["transformers"]
    : readonly [];

/** The agent's tools as a list type (any list when they are not known). */
type ToolsOf<T extends AnyAgentTypes> = T["tools"] extends readonly unknown[]
  ? T["tools"]
  : readonly unknown[];

type Public<S> = { [K in keyof S as K extends `_${string}` ? never : K extends "jumpTo" ? never : K]: S[K] };

/**
 * The agent's types as LangChain.js's `AgentTypeConfig` lays them out, for tools that read an
 * agent's `"~agentTypes"` (LangGraph's frontend SDK: `useStream<typeof agent>`,
 * `InferAgentToolCalls<typeof agent>`): the state as a schema whose input is the public state,
 * the middlewares' states already in it, and LangChain.js's marker when there is no
 * `responseFormat`.
 */
export interface AgentTypeConfigOf<T extends AnyAgentTypes> {
  Response: [T["response"]] extends [never] ? { __responseFormatUndefined: true } : T["response"];
  State: { _zod: { input: Public<T["state"]> } };
  Context: T["context"];
  Middleware: readonly [];
  Tools: ToolsOf<T>;
  StreamTransformers: TransformersOf<T>;
}

/**
 * What an agent run returns: the messages, the public state fields, `structuredResponse` when the
 * agent has a `responseFormat`, and `__interrupt__` when the run paused (a human-in-the-loop
 * review, an `interrupt()` in a tool, a breakpoint).
 *
 * @example
 * ```ts
 * const out: AgentOutput<AgentTypes<{ turns: number }, never, { city: string }>> = await agent.invoke(input);
 * out.structuredResponse.city;
 * ```
 */
export type AgentOutput<T extends AnyAgentTypes> = Public<T["state"]> & {
  messages: BaseMessage[];
  __interrupt__?: { id: string; value: unknown }[];
} & ([T["response"]] extends [never] ? Record<never, never> : { structuredResponse: T["response"] });

/**
 * What an agent run accepts: messages (instances or `{ role, content }` objects) and any
 * public state fields.
 *
 * @example
 * ```ts
 * const input: AgentInput<AgentTypes<{ turns: number }>> = { messages: [{ role: "user", content: "hi" }], turns: 0 };
 * ```
 */
export type AgentInput<T extends AnyAgentTypes> = { messages: Messages } & Partial<Public<T["state"]>>;

/**
 * Options of `invoke` and `stream`: the graph run options, with the agent's context type;
 * `context` is required when the context has required fields.
 *
 * @example
 * ```ts
 * const options: AgentRunOptions<AgentTypes<{}, { userId: string }>> = {
 *   configurable: { thread_id: "t1" },
 *   context: { userId: "u1" },
 *   recursionLimit: 50,
 * };
 * ```
 */
export type AgentRunOptions<T extends AnyAgentTypes, M = StreamMode | StreamMode[]> = Omit<
  PregelOptions<T["context"], M>,
  "context"
> &
  (Record<never, never> extends T["context"] ? { context?: T["context"] } : { context: T["context"] });

/**
 * The payload of each stream mode of an agent: the graph's, whose `messages` mode is
 * `[message, metadata]` with `message` a `BaseMessage` (the model's chunks and the nodes'
 * messages), as in LangGraph.js (the entry points name the message class, see
 * `StreamMessageTypes`).
 *
 * @example
 * ```ts
 * type Token = AgentStreamPayloads<AgentOutput<AgentTypes>, unknown>["messages"][0]; // BaseMessage
 * ```
 */
export type AgentStreamPayloads<State, Update> = StreamPayloads<State, Update, string>;

/**
 * The type of one chunk of an agent's `stream()` for the given `streamMode` and `subgraphs`
 * options (see {@link AgentStreamPayloads}).
 *
 * @example
 * ```ts
 * for await (const [token, metadata] of await agent.stream(input, { streamMode: "messages" })) {
 *   console.log(metadata.langgraph_node, token.text);
 * }
 * ```
 */
export type AgentStreamChunk<
  M extends StreamMode | readonly StreamMode[],
  Subgraphs extends boolean,
  State,
  Update,
> = StreamChunk<M, Subgraphs, State, Update, string>;

interface AgentOptions {
  readonly middleware?: readonly AnyAgentMiddleware[];
}

type Graph = CompiledStateGraph<Record<string, unknown>, Record<string, unknown>, string, unknown>;

/**
 * The agent {@link createAgent} returns (LangChain.js's `ReactAgent`): `invoke` and `stream`
 * run it (filling in middleware state defaults first), `getState`, `getStateHistory` and
 * `updateState` read and edit its threads, `withConfig` sets default run options, and `graph`
 * is the compiled graph.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools: [getWeather] });
 * const result = await agent.invoke({ messages: [{ role: "user", content: "Weather in Suzhou?" }] });
 * for await (const chunk of await agent.stream(input, { streamMode: "updates" })) console.log(Object.keys(chunk));
 * agent.graph.getGraph().drawMermaid();
 * ```
 */
export class ReactAgent<T extends AnyAgentTypes = AgentTypes> {
  /** The compiled graph without the agent's default run options. */
  readonly #base: Graph;
  /** `#base` with the agent's default run options baked in (what `graph` returns). */
  readonly #graph: Graph;
  readonly #options: AgentOptions;
  /**
   * The parameters the agent was made with (what `createAgent` received); an own property, as
   * in LangChain.js, so `Object.keys(agent)` lists it.
   */
  readonly options: Readonly<Record<string, unknown>>;
  readonly #defaults: PregelOptions<unknown>;
  /** The defaults the graph does not carry (`debug`, `signal`, …): the only ones a run adds. */
  readonly #runDefaults: PregelOptions<unknown> | undefined;
  declare "~types": T;
  /** Type-only: the agent's types as LangChain.js names them, read by LangGraph's frontend SDK. */
  declare readonly "~agentTypes": AgentTypeConfigOf<T>;

  constructor(graph: Graph, options: AgentOptions, defaults: PregelOptions<unknown> = {}) {
    this.#base = graph;
    this.#options = options;
    this.options = options as Readonly<Record<string, unknown>>;
    this.#defaults = defaults;
    // LangChain.js bakes the run defaults into the compiled graph too, so a caller that runs
    // `agent.graph` directly (a server, `agent.graph.streamEvents`) gets the same tags and metadata
    // (always a copy, so that a checkpointer or store set on this agent stays its own); the graph
    // merges them into every run, so a run of the agent adds only the others
    const { baked, rest } = splitDefaults(defaults);
    this.#graph = graph.withConfig(baked);
    this.#runDefaults = rest;
  }

  /** The compiled graph (with the agent's default run options, as `graph.config`). */
  get graph(): CompiledStateGraph<
    T["state"] & { messages: BaseMessage[] },
    Partial<T["state"]> & { messages?: Messages },
    string,
    T["context"]
  > {
    return this.#graph as never;
  }

  /** The graph builder the agent was compiled from. */
  get builder(): Graph["builder"] {
    return this.#graph.builder;
  }

  /** The agent's checkpointer, if any. */
  get checkpointer(): BaseCheckpointSaver | boolean | undefined {
    return this.#graph.checkpointer;
  }

  /** Sets the checkpointer later runs of this agent use (LangChain.js allows it after `createAgent`). */
  set checkpointer(value: BaseCheckpointSaver | boolean | undefined) {
    this.#graph.checkpointer = value;
  }

  /** The agent's store, if any. */
  get store(): BaseStore | undefined {
    return this.#graph.store as BaseStore | undefined;
  }

  /** Sets the store later runs of this agent (and its tools, as `runtime.store`) use. */
  set store(value: BaseStore | undefined) {
    this.#graph.store = value;
  }

  /** Runs the agent to the end (or to an interrupt) and returns its final state. */
  async invoke(input: AgentInput<T> | Command | null, config?: AgentRunOptions<T>): Promise<AgentOutput<T>> {
    const options = this.#merged(config);
    return (await this.#graph.invoke(
      (await this.#initialize(input, options)) as never,
      options,
    )) as AgentOutput<T>;
  }

  /**
   * Streams the run (`updates` by default: one `{ [node]: update }` chunk per node); with
   * `encoding: "text/event-stream"`, the chunks of every requested mode as Server-Sent Events.
   */
  stream(
    input: AgentInput<T> | Command | null,
    config: AgentRunOptions<T, StreamMode | readonly StreamMode[]> & { encoding: "text/event-stream" },
  ): Promise<IterableReadableStream<Uint8Array>>;
  stream<
    const M extends StreamMode | readonly StreamMode[] = "updates",
    const Subgraphs extends boolean = false,
  >(
    input: AgentInput<T> | Command | null,
    config?: AgentRunOptions<T, M> & { streamMode?: M; subgraphs?: Subgraphs },
  ): Promise<
    IterableReadableStream<
      AgentStreamChunk<M, Subgraphs, AgentOutput<T>, Partial<T["state"]> & { messages?: BaseMessage[] }>
    >
  >;
  async stream(
    input: AgentInput<T> | Command | null,
    config?: AgentRunOptions<T, StreamMode | readonly StreamMode[]>,
  ): Promise<IterableReadableStream<unknown>> {
    const options = this.#merged(config as PregelOptions<unknown>);
    return this.#graph.stream((await this.#initialize(input, options)) as never, options as never) as never;
  }

  /**
   * Runs the agent and yields LangChain.js events (`streamEvents`, schema v2): the agent's and
   * each node's start and end, the model's tokens (`on_chat_model_stream`) and the tool calls.
   * With `{ version: "v3" }` it resolves to the run stream instead ({@link AgentRunStream}): the
   * graph's projections plus the agent's `toolCalls` and `subagents`.
   *
   * @example
   * ```ts
   * for await (const event of agent.streamEvents({ messages: [{ role: "user", content: "Hi" }] }, { version: "v2" })) {
   *   if (event.event === "on_chat_model_stream") process.stdout.write(event.data.chunk.text);
   * }
   * const run = await agent.streamEvents({ messages: [{ role: "user", content: "Hi" }] }, { version: "v3" });
   * for await (const call of run.toolCalls) console.log(call.name, await call.output);
   * ```
   */
  streamEvents<const TTransformers extends ReadonlyArray<StreamTransformerFactory> = []>(
    input: AgentInput<T> | Command | null,
    config: AgentRunOptions<T> & StreamEventsV3Options<TTransformers> & { encoding: "text/event-stream" },
  ): Promise<IterableReadableStream<Uint8Array>>;
  streamEvents<const TTransformers extends ReadonlyArray<StreamTransformerFactory> = []>(
    input: AgentInput<T> | Command | null,
    config: AgentRunOptions<T> & StreamEventsV3Options<TTransformers>,
  ): Promise<
    AgentRunStream<
      T["state"] & { messages: BaseMessage[]; __interrupt__?: { id: string; value: unknown }[] },
      ToolsOf<T>,
      InferExtensions<readonly [...TransformersOf<T>, ...TTransformers]>
    >
  >;
  streamEvents(
    input: AgentInput<T> | Command | null,
    config: AgentRunOptions<T> & StreamEventsOptions,
    filter?: StreamEventsFilter,
  ): IterableReadableStream<StreamEvent>;
  streamEvents(
    input: AgentInput<T> | Command | null,
    config: (AgentRunOptions<T> & StreamEventsOptions) | (AgentRunOptions<T> & StreamEventsV3Options),
    filter?: StreamEventsFilter,
  ): IterableReadableStream<StreamEvent> | Promise<unknown> {
    if (config.version === "v3") {
      // the v3 run stream (LangChain.js: `await agent.streamEvents(input, { version: "v3" })`)
      const { transformers, encoding, ...rest } = config as StreamEventsV3Options & PregelOptions<unknown>;
      const options = this.#merged(rest as PregelOptions<unknown>);
      return (async () => {
        const initialized = await this.#initialize(input, options);
        return this.#graph.streamEvents(
          initialized as never,
          {
            ...options,
            version: "v3",
            ...(transformers === undefined ? {} : { transformers }),
            ...(encoding === undefined ? {} : { encoding }),
          } as never,
        );
      })();
    }
    const options = this.#merged(config as PregelOptions<unknown>) as PregelOptions<unknown> &
      StreamEventsOptions;
    // The graph's events, read through a reader of their stream rather than a generator over
    // them: cancelling this stream cancels the graph's at once (which stops the run), where a
    // generator's `return()` waits for the event being read, that is for the run's next step.
    let events: ReadableStreamDefaultReader<StreamEvent> | undefined;
    let cancelled = false;
    return new IterableReadableStream<StreamEvent>({
      pull: async (controller) => {
        if (events === undefined) {
          const initialized = await this.#initialize(input, options);
          if (cancelled) return;
          events = this.#graph.streamEvents(initialized as never, options, filter).getReader();
        }
        const next = await events.read();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel: async (reason) => {
        cancelled = true;
        await events?.cancel(reason);
      },
    });
  }

  /** The state of a thread (needs a checkpointer). */
  getState(
    config: RunnableConfig,
    options?: { subgraphs?: boolean },
  ): Promise<StateSnapshot<T["state"] & { messages: BaseMessage[] }>> {
    return this.#graph.getState(config, options) as Promise<
      StateSnapshot<T["state"] & { messages: BaseMessage[] }>
    >;
  }

  /** The checkpoints of a thread, newest first. */
  getStateHistory(
    config: RunnableConfig,
    options?: Parameters<Graph["getStateHistory"]>[1],
  ): AsyncIterableIterator<StateSnapshot<T["state"] & { messages: BaseMessage[] }>> {
    return this.#graph.getStateHistory(config, options) as AsyncIterableIterator<
      StateSnapshot<T["state"] & { messages: BaseMessage[] }>
    >;
  }

  /** Writes `values` to a thread's state as if node `asNode` had returned them. */
  updateState(config: RunnableConfig, values: unknown, asNode?: string): Promise<RunnableConfig> {
    return this.#graph.updateState(config, values, asNode);
  }

  /** The graph's structure, for drawing. */
  getGraph(): DrawableGraph {
    return this.#graph.getGraph();
  }

  /**
   * The graph as a Mermaid diagram, as a promise (LangChain.js's `drawMermaid` is async and takes
   * the same drawing options).
   */
  async drawMermaid(options?: MermaidOptions): Promise<string> {
    return this.#graph.getGraph().drawMermaid(options);
  }

  /**
   * The graph as a PNG image, rendered by the Mermaid.INK web service (see
   * {@link DrawableGraph.drawMermaidPng}), as LangChain.js's `drawMermaidPng`.
   */
  async drawMermaidPng(options?: MermaidPngOptions): Promise<Uint8Array> {
    const image = await this.#graph.getGraph().drawMermaidPng(options);
    return new Uint8Array(await image.arrayBuffer());
  }

  /** The agent's graph structure, as a promise (LangChain.js `getGraphAsync`). */
  async getGraphAsync(): Promise<DrawableGraph> {
    return this.#graph.getGraph();
  }

  /** The subgraphs of the agent's graph (none unless a node is a graph), as `[namespace, graph]`. */
  getSubgraphs(namespace?: string, recurse = false): ReturnType<Graph["getSubgraphs"]> {
    return this.#graph.getSubgraphs(namespace, recurse);
  }

  /** {@link getSubgraphs}, as an async iterator. */
  getSubgraphsAsync(namespace?: string, recurse = false): ReturnType<Graph["getSubgraphsAsync"]> {
    return this.#graph.getSubgraphsAsync(namespace, recurse);
  }

  /** A copy of the agent whose runs use `config` as defaults (run options still win). */
  withConfig(config: PregelOptions<Partial<T["context"]>>): ReactAgent<T> {
    const copy = new ReactAgent<T>(
      this.#base,
      this.#options,
      mergeConfig(this.#defaults, config as PregelOptions<unknown>),
    );
    // a checkpointer or store set on this agent after it was made carries over
    copy.#graph.checkpointer = this.#graph.checkpointer;
    copy.#graph.store = this.#graph.store;
    return copy;
  }

  #merged(config: PregelOptions<unknown> | undefined): PregelOptions<unknown> {
    // LangChain.js passes the agent's metadata with every run, so an agent invoked inside a graph
    // node takes it instead of the node's (a run's own `metadata` replaces the ambient one)
    const metadata = { ...this.#defaults.metadata, ...config?.metadata };
    return { ...this.#runDefaults, ...config, metadata };
  }

  /**
   * Checks the input against the middleware state schemas and fills in the defaults the input and
   * the thread lack (LangChain.js's behaviour).
   */
  async #initialize(input: unknown, config: LangGraphRunnableConfig<unknown>): Promise<unknown> {
    const middleware = this.#options.middleware ?? [];
    if (input === null || typeof input !== "object" || isCommand(input)) return input;
    if (!middleware.some((m) => m.stateSchema !== undefined)) return input;
    let known: Record<string, unknown> = {};
    if (this.checkpointer !== undefined && config.configurable?.thread_id !== undefined) {
      try {
        known = ((await this.#graph.getState(config)).values ?? {}) as Record<string, unknown>;
      } catch {
        known = {};
      }
    }
    const given = input as Record<string, unknown>;
    // as in LangChain.js, the input alone must hold the required fields (the thread's values do
    // not count), and a default fills only a field neither the input nor the thread has
    const defaults = await initialMiddlewareValues(middleware, given);
    for (const key of Object.keys(defaults)) if (key in known) delete defaults[key];
    if (Object.keys(defaults).length === 0) return input;
    return { ...defaults, ...given };
  }
}

/** `extra` over `base`: configurable and metadata merged, tags joined without repeats. */
function mergeConfig(base: PregelOptions<unknown>, extra: PregelOptions<unknown>): PregelOptions<unknown> {
  const out: PregelOptions<unknown> = { ...base, ...extra };
  if (base.configurable !== undefined || extra.configurable !== undefined) {
    out.configurable = { ...base.configurable, ...extra.configurable };
  }
  if (base.metadata !== undefined || extra.metadata !== undefined) {
    out.metadata = { ...base.metadata, ...extra.metadata };
  }
  if (base.tags !== undefined || extra.tags !== undefined) {
    out.tags = [...new Set([...(base.tags ?? []), ...(extra.tags ?? [])])];
  }
  return out;
}

/** The run options LangChain.js bakes into an agent's compiled graph (`toGraphDefaultConfig`). */
const GRAPH_DEFAULT_KEYS = [
  "callbacks",
  "tags",
  "metadata",
  "runName",
  "maxConcurrency",
  "recursionLimit",
  "configurable",
] as const;

/** The defaults baked into the agent's graph ({@link GRAPH_DEFAULT_KEYS}), and the others (`undefined`: none). */
function splitDefaults(defaults: PregelOptions<unknown>): {
  baked: Parameters<Graph["withConfig"]>[0];
  rest: PregelOptions<unknown> | undefined;
} {
  const baked: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  let others = false;
  for (const [key, value] of Object.entries(defaults)) {
    if (value === undefined) continue;
    if ((GRAPH_DEFAULT_KEYS as readonly string[]).includes(key)) baked[key] = value;
    else {
      rest[key] = value;
      others = true;
    }
  }
  return {
    baked: baked as Parameters<Graph["withConfig"]>[0],
    rest: others ? (rest as PregelOptions<unknown>) : undefined,
  };
}
