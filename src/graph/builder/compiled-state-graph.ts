import { type Command, END, START } from "../core/index.js";
import { Pregel, type PregelOptions, type PregelParams } from "../pregel/index.js";
import type { IterableReadableStream, StreamMode } from "../stream/index.js";
import type { CompileOptions } from "./compile.js";
import { type DrawableEdge, DrawableGraph, type DrawableNode } from "./draw.js";
import type { StateGraph } from "./state-graph.js";

type AnyBuilder = StateGraph<unknown, unknown, unknown, string, unknown, unknown, unknown>;

/** The payload of each stream mode. */
export interface StreamPayloads<State, Update, Nodes extends string> {
  values: State;
  updates: { [K in Nodes]?: Update };
  messages: [message: unknown, metadata: Record<string, unknown>];
  custom: unknown;
  debug: Record<string, unknown>;
  checkpoints: Record<string, unknown>;
  tasks: Record<string, unknown>;
  tools: Record<string, unknown>;
}

type ModeChunk<M extends StreamMode, P> = M extends StreamMode ? (M extends keyof P ? P[M] : never) : never;

/** The type of one chunk of `stream()` for the given `streamMode` and `subgraphs` options. */
export type StreamChunk<
  M extends StreamMode | readonly StreamMode[],
  Subgraphs extends boolean,
  State,
  Update,
  Nodes extends string,
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
    ? Subgraphs extends true
      ? [namespace: string[], payload: ModeChunk<M, StreamPayloads<State, Update, Nodes>>]
      : ModeChunk<M, StreamPayloads<State, Update, Nodes>>
    : never;

interface CompiledParams extends PregelParams {
  builder: AnyBuilder;
  compileOptions: CompileOptions;
}

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
> extends Pregel<Input | Command | null, Output, unknown, Context> {
  /** The builder this graph was compiled from. */
  readonly builder: AnyBuilder;
  readonly interruptBefore: string[] | "*" | undefined;
  readonly interruptAfter: string[] | "*" | undefined;
  readonly checkpointer: unknown;
  readonly store: unknown;
  readonly cache: unknown;
  readonly description: string | undefined;
  declare "~types": { state: State; update: Update; nodes: Nodes };

  constructor(params: CompiledParams) {
    super(params);
    this.builder = params.builder;
    this.interruptBefore = params.compileOptions.interruptBefore;
    this.interruptAfter = params.compileOptions.interruptAfter;
    this.checkpointer = params.compileOptions.checkpointer;
    this.store = params.compileOptions.store;
    this.cache = params.compileOptions.cache;
    this.description = params.compileOptions.description;
  }

  override invoke(input: Input | Command | null, options?: PregelOptions<Context>): Promise<Output> {
    return super.invoke(input, options);
  }

  override stream<
    const M extends StreamMode | readonly StreamMode[] = "updates",
    const Subgraphs extends boolean = false,
  >(
    input: Input | Command | null,
    options?: PregelOptions<Context, M> & { streamMode?: M; subgraphs?: Subgraphs },
  ): Promise<IterableReadableStream<StreamChunk<M, Subgraphs, State, Update, Nodes>>> {
    return super.stream(input, options as PregelOptions<Context>) as Promise<
      IterableReadableStream<StreamChunk<M, Subgraphs, State, Update, Nodes>>
    >;
  }

  /** The graph's structure, for drawing (`getGraph().drawMermaid()`). */
  getGraph(): DrawableGraph {
    const builder = this.builder;
    const nodes: Record<string, DrawableNode> = { [START]: { id: START, name: START } };
    for (const [name, def] of builder.nodes) {
      const node: DrawableNode = { id: name, name };
      if (def.metadata !== undefined) node.metadata = def.metadata;
      nodes[name] = node;
    }
    const edges: DrawableEdge[] = [];
    const seen = new Set<string>();
    const add = (edge: DrawableEdge) => {
      const key = `${edge.source}\u0000${edge.target}\u0000${edge.conditional}`;
      if (seen.has(key)) return;
      seen.add(key);
      edges.push(edge);
    };
    for (const [from, to] of builder.edges) add({ source: from, target: to, conditional: false });
    for (const [sources, target] of builder.waitingEdges) {
      for (const source of sources) add({ source, target, conditional: false });
    }
    for (const [source, branches] of builder.branches) {
      for (const branch of branches) {
        if (branch.pathMap !== undefined) {
          for (const [label, target] of Object.entries(branch.pathMap)) {
            const edge: DrawableEdge = { source, target, conditional: true };
            if (label !== target) edge.data = label;
            add(edge);
          }
        } else {
          for (const target of [...builder.nodes.keys(), END])
            if (target !== source) add({ source, target, conditional: true });
        }
      }
    }
    for (const [name, def] of builder.nodes) {
      for (const target of def.ends ?? []) add({ source: name, target, conditional: true });
    }
    if (edges.some((e) => e.target === END)) nodes[END] = { id: END, name: END };
    const order = new Map(Object.keys(nodes).map((id, i) => [id, i]));
    const rank = (id: string) => order.get(id) ?? order.size;
    edges.sort((a, b) => rank(a.source) - rank(b.source));
    return new DrawableGraph(nodes, edges);
  }

  /** Same as {@link getGraph}, for code written against the async LangGraph.js API. */
  async getGraphAsync(): Promise<DrawableGraph> {
    return this.getGraph();
  }
}
