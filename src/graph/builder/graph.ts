import { type BaseChannel, EphemeralValue, Topic } from "../channels/index.js";
import {
  END,
  InvalidGraphError,
  InvalidUpdateError,
  isSend,
  START,
  TASKS,
  UnreachableNodeError,
} from "../core/index.js";
import type { LangGraphRunnableConfig, PregelNode, RunningTask } from "../loop/index.js";
import { isPregel } from "../pregel/index.js";
import { type CompileOptions, startNode } from "./compile.js";
import { CompiledStateGraph, type CompiledStateGraphNode } from "./compiled-state-graph.js";
import type { DrawableRunnable } from "./draw.js";
import {
  type BranchDefinition,
  CONDITION,
  defineNode,
  type NodeDefinition,
  type StateGraph,
} from "./state-graph.js";
import { branchDestination, conditionalEdgeArgs, type PathMap, type SubgraphLike } from "./types.js";

/** A node of a {@link Graph}: a function of the previous node's output, a runnable or a compiled graph. */
export type GraphNodeAction<Input = unknown, Output = unknown> =
  | ((input: Input, config: LangGraphRunnableConfig) => Output | Promise<Output>)
  | { invoke(input: Input, config: LangGraphRunnableConfig): unknown }
  | SubgraphLike;

/** Options of `Graph.addNode`. */
export interface GraphAddNodeOptions<Nodes extends string = string> {
  metadata?: Record<string, unknown>;
  subgraphs?: SubgraphLike[];
  ends?: Nodes[];
}

/** The routing function of a `Graph` conditional edge: reads the source node's output. */
export type GraphRouter<Input = unknown> = (
  input: Input,
  config: LangGraphRunnableConfig,
) => unknown | Promise<unknown>;

/** Channel of the conditional edge `source → target`, as LangGraph.js names it. */
function branchChannel(source: string, target: string): string {
  return `branch:${source}:${CONDITION}:${target}`;
}

type AnyBuilder = StateGraph<unknown, unknown, unknown, string, unknown, unknown, unknown>;

function nodeDefinition(action: unknown, options: GraphAddNodeOptions | undefined): NodeDefinition {
  return {
    action: action as NodeDefinition["action"],
    input: undefined,
    retryPolicy: undefined,
    cachePolicy: undefined,
    timeout: undefined,
    errorHandler: undefined,
    isErrorHandler: false,
    ends: options?.ends,
    defer: false,
    metadata: options?.metadata,
    tags: undefined,
    subgraphs: options?.subgraphs ?? (isPregel(action) ? [action as SubgraphLike] : undefined),
  };
}

function bindAction(action: NodeDefinition["action"]): PregelNode["bound"] {
  if (typeof action === "function") return action as PregelNode["bound"];
  const runnable = action as { invoke(input: unknown, config: unknown): unknown };
  return (input, config) => runnable.invoke(input, config);
}

/**
 * A graph whose nodes pass values along: each node receives the output of the node before it
 * (the first node the graph's input), and the graph returns what the node with an edge to `END`
 * returned (LangGraph.js `Graph`). For a shared state updated by every node, use `StateGraph`.
 *
 * @example
 * ```ts
 * const graph = new Graph()
 *   .addNode("double", (x: number) => x * 2)
 *   .addNode("inc", (x: number) => x + 1)
 *   .addEdge(START, "double")
 *   .addEdge("double", "inc")
 *   .addEdge("inc", END)
 *   .compile();
 * await graph.invoke(3); // 7
 * ```
 */
export class Graph<
  Nodes extends string = typeof START | typeof END,
  RunInput = unknown,
  RunOutput = unknown,
> {
  /** The nodes added so far, by name (LangGraph.js's `builder.nodes`). */
  readonly nodes: Record<string, NodeDefinition> = {};
  /** The edges, as `[source, target]` pairs (LangGraph.js's `builder.edges`). */
  readonly edges: Set<[string, string]> = new Set();
  /** @internal Always empty: a `Graph` has no waiting edges (the drawing code reads it). */
  readonly waitingEdges: Set<[string[], string]> = new Set();
  /** The conditional edges, by source node and then by name (`"condition"`), as in LangGraph.js. */
  readonly branches: Record<string, Record<string, BranchDefinition>> = {};
  /** True once `compile()` has been called. */
  compiled = false;
  declare "~types": { input: RunInput; output: RunOutput };

  private warnIfCompiled(message: string): void {
    if (this.compiled) console.warn(message);
  }

  /** Every edge of the graph, as `[source, target]` pairs. */
  get allEdges(): Set<[string, string]> {
    return new Set(this.edges);
  }

  /** Adds a node (or several: `{ name: action }` or `[[name, action, options?], …]`). */
  addNode<K extends string>(
    key: K,
    action: GraphNodeAction<RunInput, RunOutput>,
    options?: GraphAddNodeOptions,
  ): Graph<Nodes | K, RunInput, RunOutput>;
  addNode<K extends string>(
    nodes:
      | Record<K, GraphNodeAction<RunInput, RunOutput>>
      | [K, GraphNodeAction<RunInput, RunOutput>, GraphAddNodeOptions?][],
  ): Graph<Nodes | K, RunInput, RunOutput>;
  addNode(keyOrNodes: unknown, action?: unknown, options?: GraphAddNodeOptions): unknown {
    const entries: [string, unknown, (GraphAddNodeOptions | undefined)?][] =
      typeof keyOrNodes === "string"
        ? [[keyOrNodes, action, options]]
        : Array.isArray(keyOrNodes)
          ? (keyOrNodes as [string, unknown, GraphAddNodeOptions?][])
          : typeof keyOrNodes === "object" && keyOrNodes !== null
            ? (Object.entries(keyOrNodes) as [string, unknown][])
            : [];
    if (entries.length === 0) throw new InvalidGraphError("No nodes provided in `addNode`");
    for (const [key, fn, opts] of entries) {
      for (const ch of ["|", ":"]) {
        if (key.includes(ch)) {
          throw new InvalidGraphError(`"${ch}" is a reserved character and is not allowed in node names.`);
        }
      }
      this.warnIfCompiled(
        "Adding a node to a graph that has already been compiled. This will not be reflected in the compiled graph.",
      );
      if (Object.hasOwn(this.nodes, key)) throw new InvalidGraphError(`Node \`${key}\` already present.`);
      if (key === END) throw new InvalidGraphError(`Node \`${key}\` is reserved.`);
      if (
        typeof fn !== "function" &&
        !isPregel(fn) &&
        typeof (fn as { invoke?: unknown })?.invoke !== "function"
      ) {
        throw new InvalidGraphError(
          `Expected a Runnable, function or object.\nInstead got an unsupported type. Node \`${key}\` must be a function (input, config) => output, a compiled graph or an object with an invoke(input, config) method; got ${fn === null ? "null" : typeof fn}.`,
        );
      }
      defineNode(this.nodes, key, nodeDefinition(fn, opts));
    }
    return this;
  }

  /** Adds an edge: `endKey` runs on what `startKey` returned. A node has at most one outgoing edge. */
  addEdge(startKey: Nodes | typeof START, endKey: Nodes | typeof END): this {
    this.warnIfCompiled(
      "Adding an edge to a graph that has already been compiled. This will not be reflected in the compiled graph.",
    );
    if ((startKey as string) === END) throw new InvalidGraphError("END cannot be a start node");
    if ((endKey as string) === START) throw new InvalidGraphError("START cannot be an end node");
    if ([...this.edges].some(([from]) => from === startKey)) {
      throw new InvalidGraphError(`Already found path for ${startKey}. For multiple edges, use StateGraph.`);
    }
    this.edges.add([startKey, endKey]);
    return this;
  }

  /**
   * Adds a conditional edge: `path` reads what `source` returned and names the next node(s) (or
   * `END`, or `Send`s); `pathMap` maps its results to nodes. The chosen nodes receive `source`'s
   * output.
   */
  addConditionalEdges(
    source: Nodes | typeof START,
    path: GraphRouter<RunInput>,
    pathMap?: PathMap<Nodes>,
  ): this;
  addConditionalEdges(args: {
    source: Nodes | typeof START;
    path: GraphRouter<RunInput>;
    pathMap?: PathMap<Nodes>;
  }): this;
  addConditionalEdges(sourceOrArgs: unknown, path?: unknown, pathMap?: unknown): this {
    const [source, router, map] = conditionalEdgeArgs(sourceOrArgs, path, pathMap);
    this.warnIfCompiled(
      "Adding an edge to a graph that has already been compiled. This will not be reflected in the compiled graph.",
    );
    if (typeof router !== "function") {
      throw new InvalidGraphError(
        `Expected a Runnable, function or object.\nInstead got an unsupported type. The conditional edge from "${source}" needs a routing function (input) => next node.`,
      );
    }
    if (Object.hasOwn(this.branches, source)) {
      throw new InvalidGraphError(`Condition \`${CONDITION}\` already present for node \`${source}\``);
    }
    let normalized: Record<string, string> | undefined;
    if (Array.isArray(map)) normalized = Object.fromEntries((map as string[]).map((n) => [n, n]));
    else if (typeof map === "object" && map !== null) normalized = { ...(map as Record<string, string>) };
    this.branches[source] = {
      [CONDITION]: { path: router as BranchDefinition["path"], pathMap: normalized },
    };
    return this;
  }

  /** @deprecated Use `addEdge(START, key)`. */
  setEntryPoint(key: Nodes): this {
    this.warnIfCompiled(
      "Setting the entry point of a graph that has already been compiled. This will not be reflected in the compiled graph.",
    );
    return this.addEdge(START, key);
  }

  /** @deprecated Use `addEdge(key, END)`. */
  setFinishPoint(key: Nodes): this {
    this.warnIfCompiled(
      "Setting a finish point of a graph that has already been compiled. This will not be reflected in the compiled graph.",
    );
    return this.addEdge(key, END);
  }

  /** Checks the graph and builds the runnable graph. */
  compile(
    options: Omit<CompileOptions<Nodes>, "store" | "cache" | "description"> = {},
  ): CompiledGraph<Nodes, RunInput, RunOutput> {
    const interrupts = [
      ...(Array.isArray(options.interruptBefore) ? options.interruptBefore : []),
      ...(Array.isArray(options.interruptAfter) ? options.interruptAfter : []),
    ];
    this.validate(interrupts);
    return new CompiledGraph<Nodes, RunInput, RunOutput>(this as Graph<string>, options);
  }

  /** @internal Fails with LangGraph.js's error for the first malformed part of the graph. */
  validate(interrupt?: readonly string[]): void {
    const sources = new Set([...[...this.edges].map(([from]) => from), ...Object.keys(this.branches)]);
    for (const source of sources) {
      if (source !== START && !Object.hasOwn(this.nodes, source)) {
        throw new InvalidGraphError(`Found edge starting at unknown node \`${source}\``);
      }
    }
    const targets = new Set([...this.edges].map(([, to]) => to));
    for (const [source, branches] of Object.entries(this.branches)) {
      for (const branch of Object.values(branches)) {
        if (branch.pathMap !== undefined) for (const t of Object.values(branch.pathMap)) targets.add(t);
        else {
          targets.add(END);
          for (const n of Object.keys(this.nodes)) if (n !== source) targets.add(n);
        }
      }
    }
    for (const node of Object.values(this.nodes)) for (const t of node.ends ?? []) targets.add(t);
    for (const name of Object.keys(this.nodes)) {
      if (!targets.has(name)) {
        throw new UnreachableNodeError(
          `Node \`${name}\` is not reachable.\n\nIf you are returning Command objects from your node,\nmake sure you are passing names of potential destination nodes as an "ends" array\ninto ".addNode(..., { ends: ["node1", "node2"] })".`,
          { lc_error_code: "UNREACHABLE_NODE" },
        );
      }
    }
    for (const target of targets) {
      if (target !== END && !Object.hasOwn(this.nodes, target)) {
        throw new InvalidGraphError(`Found edge ending at unknown node \`${target}\``);
      }
    }
    for (const name of interrupt ?? []) {
      if (!Object.hasOwn(this.nodes, name))
        throw new InvalidGraphError(`Interrupt node \`${name}\` is not present`);
    }
    this.compiled = true;
  }
}

interface GraphNodeParts {
  triggers: string[];
  channels: string[];
}

/** The writers of a `Graph` node: its output goes to its own channel, `END`, and its branches. */
function graphWriters(
  name: string,
  toEnd: boolean,
  branch: BranchDefinition | undefined,
  targets: ReadonlySet<string>,
): (output: unknown, task: RunningTask) => void | Promise<void> {
  const route = (output: unknown, result: unknown, task: RunningTask): void => {
    for (const item of Array.isArray(result) ? result : [result]) {
      if (isSend(item)) {
        if (item.node === END) throw new InvalidUpdateError("Cannot send a packet to the END node");
        task.writes.push([TASKS, item]);
        continue;
      }
      const dest = branchDestination(item, branch?.pathMap);
      if (dest === END) task.writes.push([END, output]);
      else if (typeof dest === "string" && dest !== "" && targets.has(dest))
        task.writes.push([branchChannel(name, dest), output]);
      else {
        throw new InvalidUpdateError(
          `Branch condition returned unknown or null destination: the conditional edge from "${name}" returned ${JSON.stringify(item)}. Return one of: ${[...targets].map((t) => JSON.stringify(t)).join(", ")}, or END.`,
        );
      }
    }
  };
  return (output, task) => {
    if (name !== START) task.writes.push([name, output]);
    if (toEnd) task.writes.push([END, output]);
    if (branch === undefined) return undefined;
    const result = branch.path(output, task.config as never);
    if (result instanceof Promise) return result.then((resolved: unknown) => route(output, resolved, task));
    route(output, result, task);
    return undefined;
  };
}

/**
 * A compiled {@link Graph}: `invoke(input)` returns what the last node returned; `stream` yields
 * `{ [node]: output }` chunks (`values`, the default) or `{ [node]: { [node]: output } }`
 * (`updates`).
 */
export class CompiledGraph<
  Nodes extends string = string,
  RunInput = unknown,
  RunOutput = unknown,
> extends CompiledStateGraph<RunOutput, RunInput, Nodes, Record<string, unknown>, RunInput, RunOutput> {
  constructor(builder: Graph<string>, options: CompileOptions) {
    const channels: Record<string, BaseChannel> = {
      [START]: new EphemeralValue(),
      [END]: new EphemeralValue(),
      [TASKS]: new Topic({ accumulate: false }),
    };
    const parts = new Map<string, GraphNodeParts>();
    for (const name of Object.keys(builder.nodes)) {
      channels[name] = new EphemeralValue();
      parts.set(name, { triggers: [], channels: [] });
    }
    const toEnd = new Set<string>();
    for (const [from, to] of builder.edges) {
      if (to === END) {
        if (from === START) throw new InvalidGraphError("Cannot have an edge from START to END");
        toEnd.add(from);
      } else {
        const part = parts.get(to) as GraphNodeParts;
        part.triggers.push(from);
        part.channels.push(from);
      }
    }
    const branchTargets = new Map<string, Set<string>>();
    for (const [source, branch] of Object.entries(builder.branches).map(
      ([name, byName]) => [name, byName[CONDITION]] as const,
    )) {
      const ends = branch?.pathMap !== undefined ? Object.values(branch.pathMap) : Object.keys(builder.nodes);
      const targets = new Set<string>();
      for (const end of ends) {
        if (end === END) continue;
        targets.add(end);
        const channel = branchChannel(source, end);
        channels[channel] = new EphemeralValue();
        const part = parts.get(end) as GraphNodeParts;
        part.triggers.push(channel);
        part.channels.push(channel);
      }
      branchTargets.set(source, targets);
    }
    const nodes: Record<string, CompiledStateGraphNode> = {};
    for (const [name, def] of Object.entries(builder.nodes)) {
      const part = parts.get(name) as GraphNodeParts;
      const bound = bindAction(def.action);
      nodes[name] = {
        name,
        triggers: part.triggers,
        channels: part.channels,
        bound,
        invoke: async (input, config) => bound(input, (config ?? {}) as LangGraphRunnableConfig<unknown>),
        writers: graphWriters(
          name,
          toEnd.has(name),
          builder.branches[name]?.[CONDITION],
          branchTargets.get(name) ?? new Set(),
        ),
        retryPolicy: undefined,
        cachePolicy: undefined,
        metadata: def.metadata,
        tags: undefined,
        hidden: false,
        // LangGraph.js's compiled Graph keeps no `subgraphs` option: only a node that is a
        // compiled graph has a subgraph (for getSubgraphs and getGraph({ xray }))
        subgraphs: isPregel(def.action) ? [def.action as SubgraphLike] : undefined,
      };
    }
    // the START node a conditional entry needs comes after the graph's nodes, as in LangGraph.js
    const startBranch = builder.branches[START]?.[CONDITION];
    if (startBranch !== undefined) {
      nodes[START] = startNode(
        (input: unknown) => input,
        graphWriters(START, false, startBranch, branchTargets.get(START) ?? new Set()),
      );
    }
    if (!Object.values(nodes).some((node) => node.triggers.includes(START))) {
      throw new InvalidGraphError(
        `Input channel ${START} is not subscribed to by any node. Add an entry point: addEdge(START, "<node>") or setEntryPoint("<node>").`,
      );
    }
    super({
      builder: builder as unknown as AnyBuilder,
      nodes,
      channels,
      inputChannels: START,
      outputChannels: END,
      streamChannels: Object.keys(builder.nodes),
      streamMode: "values",
      name: options.name,
      compileOptions: options,
    });
  }

  /** A function node of a `Graph` is drawn as the `RunnableLambda` LangGraph.js wraps it in. */
  protected override drawnRunnable(action: unknown, name: string): DrawableRunnable {
    return typeof action === "function"
      ? { id: ["langchain_core", "runnables", "RunnableLambda"], name: "RunnableLambda" }
      : super.drawnRunnable(action, name);
  }

  protected override get drawnClassName(): string {
    return "CompiledGraph";
  }
}
