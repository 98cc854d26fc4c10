import type { Command, END, NodeError, Send, START } from "../core/index.js";
import type { CachePolicy, LangGraphRunnableConfig, RetryPolicy, TimeoutPolicy } from "../loop/index.js";

/** What a node may return: an update, a `Command`, a list of them, or nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: a node may return nothing at all
export type NodeReturn<Update> = Update | Command | (Update | Command)[] | null | undefined | void;

/**
 * A node: a function of the state (and the run's config) returning an update. The update may
 * also hold keys the state does not declare (a node's private channels, read by a node added with
 * `{ input }` of them), as LangGraph.js types it; the state's own keys keep their types.
 */
export type NodeAction<State, Update, Context = Record<string, unknown>> = (
  state: State,
  config: LangGraphRunnableConfig<Context>,
) => NodeReturn<OpenUpdate<Update>> | Promise<NodeReturn<OpenUpdate<Update>>>;

/** An update that may hold keys besides the state's (see {@link NodeAction}). */
type OpenUpdate<Update> = [Update] extends [Record<string, unknown>]
  ? Update & Record<string, unknown>
  : Update;

/** A compiled graph used as a node (a subgraph). */
export interface SubgraphLike {
  readonly lg_is_pregel: true;
  invoke(input: unknown, options?: unknown): Promise<unknown>;
}

/**
 * Any object with an `invoke(input, config)` method used as a node, such as a `ToolNode` or a
 * LangChain.js runnable: the engine calls `invoke` with the node's input and config and treats
 * what it returns as the node's output.
 *
 * @example
 * ```ts
 * const echo: RunnableLike<{ text: string }> = { invoke: async (state) => ({ text: state.text }) };
 * new StateGraph(State).addNode("echo", echo);
 * ```
 */
export interface RunnableLike<State = unknown, Context = Record<string, unknown>> {
  invoke(input: State, config: LangGraphRunnableConfig<Context>): unknown;
}

/**
 * A node's error handler (`addNode(name, fn, { errorHandler })`): called with the failed node's
 * input, a {@link NodeError} (the node's name and its error) and the handler's config, once the
 * node's `retryPolicy` is exhausted. It returns a state update or a `Command({ update, goto })`
 * (e.g. to a recovery node); without a `goto` the failed branch ends there.
 */
export type NodeErrorHandler<State = unknown, Update = unknown, Nodes extends string = string> = (
  state: State,
  error: NodeError,
  config: LangGraphRunnableConfig,
) => NodeReturn<Update> | Command<unknown, Update, Nodes> | Promise<NodeReturn<Update>>;

/** Options of `addNode`. */
export interface AddNodeOptions<
  Nodes extends string = string,
  State = Record<string, unknown>,
  Update = unknown,
> {
  /** Schema of what the node reads (an `Annotation.Root` or Zod object), when not the whole state. */
  input?: unknown;
  /** How the node retries on failure. */
  retryPolicy?: RetryPolicy;
  /** Caches the node's writes by its input (needs a cache on the compiled graph). */
  cachePolicy?: CachePolicy | boolean;
  /** Nodes the node may route to with `Command({ goto })` (for validation and drawing). */
  ends?: readonly (Nodes | typeof END)[];
  /** Run only when nothing else is pending (e.g. to merge the results of branches of different lengths). */
  defer?: boolean;
  /** Metadata merged into the node's config and stream payloads. */
  metadata?: Record<string, unknown>;
  /** Tags added to the node's config. */
  tags?: string[];
  /** Graphs the node runs (when it calls them inside its function), for inspection. */
  subgraphs?: SubgraphLike[];
  /**
   * Longest time one attempt may take: milliseconds (a hard cap), or a {@link TimeoutPolicy}
   * with `runTimeout` / `idleTimeout`. Exceeding it raises a `NodeTimeoutError` (retried by the
   * node's `retryPolicy`, then given to its `errorHandler`).
   */
  timeout?: number | TimeoutPolicy;
  /**
   * Handles the node's failure once its `retryPolicy` is exhausted, instead of failing the run
   * (runs as the node `__error_handler__<name>`; see {@link NodeErrorHandler}). Interrupts and
   * other control signals are never handled.
   */
  errorHandler?: NodeErrorHandler<State, Update, Nodes>;
}

/** What a node function returns: an update, a `Command` (or a list of them), or a promise of one. */
export type GraphNodeReturnValue<Update, _Nodes extends string = string> =
  | NodeReturn<Update>
  | Promise<NodeReturn<Update>>;

/** The policies `setNodeDefaults` sets for every node (and `addNode` for one). */
export type NodePolicyOptions<
  Nodes extends string = string,
  State = Record<string, unknown>,
  Update = unknown,
> = Pick<AddNodeOptions<Nodes, State, Update>, "retryPolicy" | "cachePolicy" | "timeout" | "errorHandler">;

/**
 * LangGraph.js's name for a `StateGraph`'s `addNode` options ({@link AddNodeOptions}), with the
 * node's input schema and the state its error handler reads as parameters.
 */
export type StateGraphAddNodeOptions<
  Nodes extends string = string,
  InputSchema = unknown,
  HandlerState = Record<string, unknown>,
  Update = unknown,
> = Omit<AddNodeOptions<Nodes, HandlerState, Update>, "input"> & { input?: InputSchema };

/** What a router may return. */
export type RouterResult<Nodes extends string> =
  | Nodes
  | typeof END
  | Send
  | (Nodes | typeof END | Send)[]
  | string
  | string[]
  | null
  | undefined;

/** A conditional edge's routing function: reads the fresh state and names where to go next. */
export type Router<State, Nodes extends string, Context = Record<string, unknown>> = (
  state: State,
  config: LangGraphRunnableConfig<Context>,
) => RouterResult<Nodes> | Promise<RouterResult<Nodes>>;

/**
 * Where one item of a router's result sends the run, read as LangGraph.js reads it: through the
 * path map by the item's string form (a router returning `true` finds the key `"true"`), and
 * without a path map a boolean or number names the node of that string form. `undefined` when
 * the item names nowhere: `null`, `undefined`, `""`, `false` or `0` without a path map, or a
 * key the path map lacks. Callers take `Send`s out first.
 */
export function branchDestination(
  item: unknown,
  pathMap: Readonly<Record<string, string>> | undefined,
): unknown {
  if (pathMap !== undefined) {
    const key = String(item);
    const mapped = Object.hasOwn(pathMap, key) ? pathMap[key] : undefined;
    return mapped === "" || mapped === null ? undefined : mapped;
  }
  if (item === undefined || item === null || item === "" || item === false || item === 0) return undefined;
  return typeof item === "boolean" || typeof item === "number" ? String(item) : item;
}

/** Maps router results to nodes: an object, or the list of allowed targets. */
export type PathMap<Nodes extends string> =
  | Readonly<Record<string, Nodes | typeof END>>
  | readonly (Nodes | typeof END)[];

/** Entry or node name usable as an edge source. */
export type EdgeSource<Nodes extends string> = Nodes | typeof START;
/** Node name usable as an edge target. */
export type EdgeTarget<Nodes extends string> = Nodes | typeof END;

/**
 * The arguments of `addConditionalEdges`, given positionally (`source, path, pathMap`) or as one
 * object (`{ source, path, pathMap }`), as `[source, path, pathMap]`.
 */
export function conditionalEdgeArgs(
  sourceOrArgs: unknown,
  path: unknown,
  pathMap: unknown,
): [source: string, path: unknown, pathMap: unknown] {
  if (typeof sourceOrArgs === "object" && sourceOrArgs !== null) {
    const args = sourceOrArgs as { source: string; path: unknown; pathMap?: unknown };
    return [args.source, args.path, args.pathMap];
  }
  return [sourceOrArgs as string, path, pathMap];
}
