import type { RunnableConfig } from "../../shared/index.js";
import { type Command, END, InvalidGraphError, START } from "../core/index.js";
import type { PregelNode } from "../loop/index.js";
import {
  type GetStateOptions,
  isPregel,
  Pregel,
  type PregelOptions,
  type PregelParams,
  type StateSnapshot,
  type StreamTransformerFactory,
} from "../pregel/index.js";
import type { IterableReadableStream, StreamMode, StreamTransformer } from "../stream/index.js";
import type { CompileOptions } from "./compile.js";
import { DrawableGraph, type DrawableRunnable } from "./draw.js";
import type { StateGraph } from "./state-graph.js";

type AnyBuilder = StateGraph<unknown, unknown, unknown, string, unknown, unknown, unknown>;

/**
 * A node of a compiled state graph. `invoke(input, config?)` runs the node's own function (or
 * subgraph) alone, outside the graph, and resolves to what it returns, as LangGraph.js's
 * `graph.nodes[name].invoke` does.
 */
export interface CompiledStateGraphNode extends PregelNode {
  invoke(input: unknown, config?: RunnableConfig): Promise<unknown>;
}

/**
 * What a message streamed by `streamMode: "messages"` offers, described structurally because the
 * engine does not know the message classes. The message vocabulary's `BaseMessage` and
 * `AIMessageChunk` satisfy it; importing `agentgraph` narrows the payload to `BaseMessage` itself
 * through {@link StreamMessageTypes}.
 */
export interface StreamedMessageLike {
  readonly content: string | readonly unknown[];
  readonly id?: string | undefined;
  readonly name?: string | undefined;
  readonly text: string;
  readonly additional_kwargs: Record<string, unknown>;
  readonly response_metadata: Record<string, unknown>;
  readonly tool_calls?: readonly { name: string; args: Record<string, unknown>; id?: string | undefined }[];
  readonly tool_call_chunks?: readonly {
    name?: string | undefined;
    args?: string | undefined;
    id?: string | undefined;
    index?: number | undefined;
  }[];
  getType(): string;
}

/**
 * Registry through which an entry point names the class of streamed messages: the root entry
 * augments it with `{ message: BaseMessage }` (declaration merging), so
 * `for await (const [msg] of await graph.stream(input, { streamMode: "messages" }))` types `msg`
 * as a `BaseMessage`, as LangGraph.js does. Without the augmentation the payload is
 * {@link StreamedMessageLike}.
 */
// biome-ignore lint/suspicious/noEmptyInterface: augmented by the root entry (declaration merging).
export interface StreamMessageTypes {}

/** The message of a `streamMode: "messages"` chunk. */
export type StreamedMessage = StreamMessageTypes extends { message: infer M } ? M : StreamedMessageLike;

/**
 * The metadata of a `streamMode: "messages"` chunk: the model call's config metadata and tags
 * plus where the message came from. The `langgraph_*` keys, `checkpoint_ns` and `tags` are always
 * there; a model call adds its `ls_*` keys, and the run's metadata and configurable values
 * (`thread_id`, …) are copied in, so other keys read as `unknown`.
 *
 * @example
 * ```ts
 * for await (const [chunk, metadata] of await graph.stream(input, { streamMode: "messages" })) {
 *   if (metadata.langgraph_node === "agent") process.stdout.write(chunk.text);
 * }
 * ```
 */
export interface StreamMessageMetadata {
  /** The name of the node that produced the message. */
  langgraph_node: string;
  /** The superstep the node ran in. */
  langgraph_step: number;
  /** The channels that triggered the node, e.g. `["branch:to:agent"]`. */
  langgraph_triggers: string[];
  /** The task's path, e.g. `["__pregel_pull", "agent"]`. */
  langgraph_path: unknown[];
  /** The task's checkpoint namespace, `"<node>:<taskId>"` (`|`-joined in subgraphs). */
  langgraph_checkpoint_ns: string;
  /** The same namespace. */
  checkpoint_ns: string;
  /** The call's tags. */
  tags: string[];
  /** The run name of the call, when it has one. */
  name?: string;
  /** The model's provider (`"openai"`, …), for a model call. */
  ls_provider?: string;
  /** The model's name, for a model call. */
  ls_model_name?: string;
  /** `"chat"` for a chat model call. */
  ls_model_type?: string;
  /** The call's temperature, when set. */
  ls_temperature?: number;
  /** The call's token limit, when set. */
  ls_max_tokens?: number;
  [key: string]: unknown;
}

/** The payload of each stream mode. */
export interface StreamPayloads<State, Update, Nodes extends string> {
  values: State;
  /** One node's update per chunk, under the node's name (the graph's input is not reported). */
  updates: { [K in Exclude<Nodes, typeof START>]?: Update };
  messages: [message: StreamedMessage, metadata: StreamMessageMetadata];
  custom: unknown;
  debug: Record<string, unknown>;
  checkpoints: Record<string, unknown>;
  tasks: Record<string, unknown>;
  tools: Record<string, unknown>;
}

type ModeChunk<M extends StreamMode, P> = M extends StreamMode ? (M extends keyof P ? P[M] : never) : never;

/**
 * The type of one chunk of `stream()` for the given `streamMode` and `subgraphs` options. A
 * `streamMode` typed as one mode or a list (`StreamMode | StreamMode[]`) gives `[mode, payload]`
 * chunks of every mode it may name, as LangGraph.js types it. (`Option` is the whole
 * `streamMode` type, kept while `M` is taken one member at a time.)
 */
export type StreamChunk<
  M extends StreamMode | readonly StreamMode[],
  Subgraphs extends boolean,
  State,
  Update,
  Nodes extends string,
  Option = M,
> = M extends readonly StreamMode[]
  ? Subgraphs extends true
    ? {
        [I in M[number]]: [
          namespace: string[],
          mode: I,
          payload: ModeChunk<I, StreamPayloads<State, Update, Nodes>>,
        ];
      }[M[number]]
    : { [I in M[number]]: [mode: I, payload: ModeChunk<I, StreamPayloads<State, Update, Nodes>>] }[M[number]]
  : M extends StreamMode
    ? [Option] extends [StreamMode]
      ? Subgraphs extends true
        ? [namespace: string[], payload: ModeChunk<M, StreamPayloads<State, Update, Nodes>>]
        : ModeChunk<M, StreamPayloads<State, Update, Nodes>>
      : Subgraphs extends true
        ? [namespace: string[], mode: M, payload: ModeChunk<M, StreamPayloads<State, Update, Nodes>>]
        : [mode: M, payload: ModeChunk<M, StreamPayloads<State, Update, Nodes>>]
    : never;

interface CompiledParams extends PregelParams {
  builder: AnyBuilder;
  compileOptions: CompileOptions;
}

type Slot<Spec, Key extends string, Default> = Spec extends { [K in Key]: infer T } ? T : Default;

/** A spec's `streamTransformers` (factories, transformers, or one transformer) as factories. */
type SpecTransformers<Spec> = Spec extends { streamTransformers: infer T }
  ? T extends ReadonlyArray<StreamTransformerFactory>
    ? T
    : T extends ReadonlyArray<StreamTransformer>
      ? { readonly [K in keyof T]: () => T[K] }
      : T extends StreamTransformer
        ? readonly [() => T]
        : []
  : [];

/**
 * A compiled graph named by its type slots (LangGraph.js's `CompiledGraphType`): `node`, `state`,
 * `update`, `context`, `input`, `output` and `streamTransformers`, each optional.
 *
 * @example
 * ```ts
 * type Agent = CompiledGraphType<{ state: State; update: Update; node: "agent" | "tools" }>;
 * ```
 */
export type CompiledGraphType<Spec extends object = object> = CompiledStateGraph<
  Slot<Spec, "state", Record<string, unknown>>,
  Slot<Spec, "update", Partial<Slot<Spec, "state", Record<string, unknown>>>>,
  Slot<Spec, "node", string> & string,
  Slot<Spec, "context", Record<string, unknown>>,
  Slot<Spec, "input", Slot<Spec, "update", Partial<Slot<Spec, "state", Record<string, unknown>>>>>,
  Slot<Spec, "output", Slot<Spec, "state", Record<string, unknown>>>,
  SpecTransformers<Spec> extends infer T extends ReadonlyArray<StreamTransformerFactory> ? T : []
>;

/**
 * A compiled `StateGraph`: run it with `invoke` or `stream`, draw it with `getGraph()`.
 *
 * @example
 * ```ts
 * const app = graph.compile();
 * const final = await app.invoke({ messages: [{ role: "user", content: "hi" }] });
 * for await (const [mode, chunk] of await app.stream(input, { streamMode: ["updates", "custom"] })) {}
 * ```
 */
export class CompiledStateGraph<
  State = Record<string, unknown>,
  Update = Partial<State>,
  Nodes extends string = string,
  Context = Record<string, unknown>,
  Input = Update,
  Output = State,
  Transformers extends ReadonlyArray<StreamTransformerFactory> = [],
> extends Pregel<Input | Command | null, Output, unknown, Context, Transformers> {
  /** The builder this graph was compiled from. */
  readonly builder: AnyBuilder;
  readonly description: string | undefined;
  declare "~types": { state: State; update: Update; nodes: Nodes };
  /** Type-only, as in LangGraph.js (LangGraph's frontend SDK infers `useStream<typeof graph>` from them). */
  declare "~NodeType": Nodes;
  declare "~RunInput": Update;
  declare "~RunOutput": State;
  declare readonly nodes: Record<string, CompiledStateGraphNode>;

  constructor(params: CompiledParams) {
    const options = params.compileOptions;
    super({
      ...params,
      checkpointer: options.checkpointer as PregelParams["checkpointer"],
      store: options.store,
      cache: options.cache,
      interruptBefore: options.interruptBefore,
      interruptAfter: options.interruptAfter,
      streamTransformers: options.transformers,
    });
    this.builder = params.builder;
    this.description = options.description;
  }

  override invoke(input: Input | Command | null, options?: PregelOptions<Context>): Promise<Output> {
    return super.invoke(input, options);
  }

  /** The state of a thread, its `values` typed as this graph's state (see {@link Pregel.getState}). */
  override getState(config: RunnableConfig, options?: GetStateOptions): Promise<StateSnapshot<State>> {
    return super.getState(config, options) as Promise<StateSnapshot<State>>;
  }

  /** The checkpoints of a thread, newest first (see {@link Pregel.getStateHistory}). */
  override getStateHistory(
    config: RunnableConfig,
    options?: { limit?: number; before?: RunnableConfig; filter?: Record<string, unknown> },
  ): AsyncGenerator<StateSnapshot<State>> {
    return super.getStateHistory(config, options) as AsyncGenerator<StateSnapshot<State>>;
  }

  override stream(
    input: Input | Command | null,
    options: PregelOptions<Context> & { encoding: "text/event-stream" },
  ): Promise<IterableReadableStream<Uint8Array>>;
  override stream<
    const M extends StreamMode | readonly StreamMode[] = "updates",
    const Subgraphs extends boolean = false,
  >(
    input: Input | Command | null,
    options?: PregelOptions<Context, M> & { streamMode?: M; subgraphs?: Subgraphs },
  ): Promise<IterableReadableStream<StreamChunk<M, Subgraphs, State, Update, Nodes>>>;
  override stream(
    input: Input | Command | null,
    options?: PregelOptions<Context, StreamMode | readonly StreamMode[]>,
  ): Promise<IterableReadableStream<unknown>> {
    return super.stream(input, options as PregelOptions<Context>);
  }

  /**
   * The graph's structure, for drawing (`getGraph().drawMermaid()`). With `xray`, nodes that run
   * a compiled graph are drawn as that graph's nodes (prefixed `<node>:`, in a `subgraph` block),
   * `xray: n` expanding n levels deep.
   */
  getGraph(options?: { xray?: boolean | number }): DrawableGraph {
    const builder = this.builder;
    const xray = options?.xray;
    const graph = new DrawableGraph();
    graph.addNode(START);
    /** Where edges into / out of a node drawn as its subgraph attach (absent: the node itself). */
    const entries = new Map<string, string | undefined>();
    const exits = new Map<string, string | undefined>();
    for (const [name, def] of Object.entries(builder.nodes)) {
      const metadata: Record<string, unknown> = { ...def.metadata };
      const before = this.interruptBefore;
      const after = this.interruptAfter;
      // a node is marked when the list names it; `"*"` is searched as a string, as LangGraph.js
      // does, so it marks only the nodes named `"*"` and `""`
      const isBefore = before?.includes(name) === true;
      const isAfter = after?.includes(name) === true;
      if (isBefore && isAfter) metadata.__interrupt = "before,after";
      else if (isBefore) metadata.__interrupt = "before";
      else if (isAfter) metadata.__interrupt = "after";
      // a node holding tools (a ToolNode) lists them, as LangGraph.js draws it
      const tools = (def.action as { tools?: unknown }).tools;
      if (
        Array.isArray(tools) &&
        tools.length > 0 &&
        tools.every((tool) => typeof (tool as { name?: unknown })?.name === "string")
      ) {
        metadata.__tools = tools.map((tool) => (tool as { name: string }).name);
      }
      const inner = xray ? drawableSubgraphOf(def.action, this.nodes[name]?.subgraphs) : undefined;
      if (inner !== undefined) {
        const drawn = inner.getGraph({ xray: typeof xray === "number" ? xray - 1 : true });
        drawn.trimFirstNode();
        drawn.trimLastNode();
        if (Object.keys(drawn.nodes).length > 1) {
          const [first, last] = graph.extend(drawn, drawnKey(name));
          // a subgraph drawn without a single first node cannot be entered: LangGraph.js refuses it
          if (first === undefined) {
            throw new InvalidGraphError(`Could not extend subgraph "${name}" due to missing entrypoint.`);
          }
          entries.set(drawnKey(name), first);
          exits.set(drawnKey(name), last);
          continue;
        }
      }
      // (a subgraph node named "" is drawn unprefixed, so its nodes can take a name, as in LangGraph.js)
      if (graph.nodes[drawnKey(name)] !== undefined) {
        throw new InvalidGraphError(`Node with id ${drawnKey(name)} already exists`);
      }
      graph.addNode(drawnKey(name), metadata, this.drawnRunnable(def.action, name));
    }
    const discovered: { source: string; target: string; conditional: boolean }[] = [];
    let endAdded = false;
    const add = (rawSource: string, rawTarget: string, label?: string, conditional = false) => {
      const source = drawnKey(rawSource);
      const target = drawnKey(rawTarget);
      if (target === END && !endAdded) {
        if (graph.nodes[END] !== undefined) throw new InvalidGraphError(`Node with id ${END} already exists`);
        graph.addNode(END);
        endAdded = true;
      }
      const from = exits.has(source) ? exits.get(source) : source;
      // edges out of a subgraph drawn without a single last node are left out (as in LangGraph.js),
      // and do not count when finding the nodes that end a path
      if (from === undefined) return;
      discovered.push({ source, target, conditional });
      const to = entries.has(target) ? entries.get(target) : target;
      // a label naming the target node is not drawn (as when the node is not expanded)
      const shown = label === target ? undefined : label;
      if (to !== undefined) graph.addEdge(from, to, shown, conditional);
    };
    const solid: [string, string][] = [...builder.edges];
    for (const [sources, target] of builder.waitingEdges)
      for (const source of sources) solid.push([source, target]);
    solid.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [from, to] of solid) add(from, to);
    for (const [source, branches] of Object.entries(builder.branches)) {
      for (const branch of Object.values(branches)) {
        const targets: [string, string][] =
          branch.pathMap !== undefined
            ? Object.entries(branch.pathMap)
            : [
                ...Object.keys(builder.nodes)
                  .filter((n) => n !== source)
                  .map((n): [string, string] => [drawnKey(n), n]),
                [END, END],
              ];
        for (const [label, target] of targets) add(source, target, label, true);
      }
    }
    for (const [name, def] of Object.entries(builder.nodes))
      for (const target of def.ends ?? []) add(name, target, undefined, true);
    // A node that ends a path of plain edges goes to END, as the reference draws it.
    const sources = new Set(discovered.map((e) => e.source));
    const plainTargets = [
      ...new Set(discovered.filter((e) => !e.conditional && e.target !== END).map((e) => e.target)),
    ].sort();
    for (const target of plainTargets) if (!sources.has(target)) add(target, END);
    return graph;
  }

  /**
   * What `getGraph()` reports as the runnable of a node (`toJSON()`'s `data: { id, name }`), as
   * LangChain.js identifies it: a compiled graph by its class, an action that names itself as a
   * LangChain runnable does (`lc_id` and `getName()`, as a `ToolNode` or an agent's nodes do) by
   * that, and a function by the `RunnableCallable` a `StateGraph` wraps it in.
   */
  protected drawnRunnable(action: unknown, name: string): DrawableRunnable {
    if (isPregel(action)) {
      const graphName = (action as { name?: unknown }).name;
      return {
        id: [
          "langgraph",
          "pregel",
          action instanceof CompiledStateGraph ? action.drawnClassName : "LangGraph",
        ],
        name: typeof graphName === "string" ? graphName : "LangGraph",
      };
    }
    const runnable = action as { lc_id?: unknown; getName?: unknown };
    if (
      Array.isArray(runnable.lc_id) &&
      runnable.lc_id.every((part) => typeof part === "string") &&
      typeof runnable.getName === "function"
    ) {
      const drawnName: unknown = runnable.getName();
      if (typeof drawnName === "string") return { id: [...runnable.lc_id], name: drawnName };
    }
    return { id: ["langgraph", "RunnableCallable"], name };
  }

  /** The class name LangChain.js's `toJSON()` gives this graph when it is drawn as a node. */
  protected override get drawnClassName(): string {
    return "CompiledStateGraph";
  }

  /** Same as {@link getGraph}, for code written against the async LangGraph.js API. */
  async getGraphAsync(options?: { xray?: boolean | number }): Promise<DrawableGraph> {
    return this.getGraph(options);
  }
}

/**
 * The id a node is drawn under: its name, except `subgraph` (a Mermaid keyword), which is
 * quoted, as LangGraph.js draws it.
 */
function drawnKey(name: string): string {
  return name === "subgraph" ? `"${name}"` : name;
}

interface DrawableSubgraph {
  getGraph(options?: { xray?: boolean | number }): DrawableGraph;
}

/** The compiled graph a node runs (itself, or the first of its `subgraphs`), if it can be drawn. */
function drawableSubgraphOf(
  action: unknown,
  subgraphs: readonly unknown[] | undefined,
): DrawableSubgraph | undefined {
  for (const candidate of [action, ...(subgraphs ?? [])]) {
    if (isPregel(candidate) && typeof (candidate as { getGraph?: unknown }).getGraph === "function") {
      return candidate as unknown as DrawableSubgraph;
    }
  }
  return undefined;
}
