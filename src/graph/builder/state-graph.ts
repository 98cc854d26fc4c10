import { type BaseChannel, isBaseChannel } from "../channels/index.js";
import {
  END,
  InvalidGraphError,
  type NodeError,
  type Overwrite,
  RESERVED_NODE_NAMES,
  START,
  type StandardSchemaLike,
  StateGraphInputError,
  UnreachableNodeError,
} from "../core/index.js";
import {
  type CachePolicy,
  coerceTimeoutPolicy,
  type LangGraphRunnableConfig,
  NODE_ERROR,
  type RetryPolicy,
  type TimeoutPolicy,
} from "../loop/index.js";
import { type ContextValidator, isPregel, type StreamTransformerFactory } from "../pregel/index.js";
import {
  type AnnotationRoot,
  channelFromDefinition,
  channelFromLegacyEntry,
  isAnnotationRoot,
  type SingleReducer,
  type StateDefinition,
  type StateType,
  type UpdateType,
} from "./annotation.js";
import { type CompileOptions, compileStateGraph } from "./compile.js";
import type { CompiledStateGraph } from "./compiled-state-graph.js";
import {
  type InferStateSchemaUpdate,
  type InferStateSchemaValue,
  StateSchema,
  type StateSchemaFields,
} from "./state-schema.js";
import {
  type AddNodeOptions,
  conditionalEdgeArgs,
  type EdgeSource,
  type EdgeTarget,
  type NodeAction,
  type NodeErrorHandler,
  type PathMap,
  type Router,
  type RunnableLike,
  type SubgraphLike,
} from "./types.js";
import { channelsFromZodObject, isZodObjectSchema } from "./zod-state.js";

/** A node as the builder records it. */
export interface NodeDefinition {
  readonly action: ((state: unknown, config: never) => unknown) | SubgraphLike | RunnableLike<never, never>;
  readonly input: Record<string, BaseChannel> | undefined;
  readonly retryPolicy: RetryPolicy | undefined;
  /** `false`: never cached, whatever the defaults say. */
  readonly cachePolicy: CachePolicy | false | undefined;
  readonly timeout: TimeoutPolicy | undefined;
  /** Name of the node handling this node's failures (`__error_handler__<name>`). */
  readonly errorHandler: string | undefined;
  /** This node is the error handler of another (made by `addNode(…, { errorHandler })`). */
  readonly isErrorHandler: boolean;
  readonly ends: readonly string[] | undefined;
  readonly defer: boolean;
  readonly metadata: Record<string, unknown> | undefined;
  readonly tags: string[] | undefined;
  readonly subgraphs: SubgraphLike[] | undefined;
}

/** The name a conditional edge is recorded under (LangGraph.js names every routing function so). */
export const CONDITION = "condition";

/** A conditional edge as the builder records it. */
export interface BranchDefinition {
  readonly path: (state: unknown, config: never) => unknown;
  readonly pathMap: Readonly<Record<string, string>> | undefined;
}

type ZodObjectLike<Output, Input> = { _zod: { output: Output; input: Input } };

/** A Zod 3 object schema (`zod/v3`), which LangGraph.js also takes as state, seen by its types and `shape`. */
type Zod3ObjectLike<Output, Input> = { _output: Output; _input: Input; shape: object };

/** What a node may write to a Zod field: a registered reducer's update (or an `Overwrite`), else the field's input. */
type ZodFieldUpdate<F> = F extends {
  lg_reducer_schema: { _zod: { input: infer U } };
  _zod: { output: infer V };
}
  ? U | Overwrite<V>
  : F extends { _zod: { input: infer I } }
    ? I
    : never;

/** The updates of a Zod object state, field by field (its input type when its shape is not known). */
type ZodObjectUpdate<S, I> = S extends { _zod: { def: { shape: infer Shape } } }
  ? { [K in keyof Shape]?: ZodFieldUpdate<Shape[K]> }
  : Partial<I>;

/** What a node may write to a Zod 3 field: as {@link ZodFieldUpdate}, read from Zod 3's types. */
type Zod3FieldUpdate<F> = F extends {
  lg_reducer_schema: { _zod: { input: infer U } };
  _output: infer V;
}
  ? U | Overwrite<V>
  : F extends { _input: infer I }
    ? I
    : never;

/** The updates of a Zod 3 object state, field by field. */
type Zod3ObjectUpdate<Shape> = { [K in keyof Shape]?: Zod3FieldUpdate<Shape[K]> };

/** The schema forms `new StateGraph(...)` accepts. */
export type StateSchemaInput =
  | StateSchema
  | AnnotationRoot<StateDefinition>
  | ZodObjectLike<unknown, unknown>
  | Zod3ObjectLike<unknown, unknown>
  | StateDefinition;

/**
 * A legacy channel map written for a state type (`new StateGraph<WorkflowState>({ channels })`):
 * per key `null`, `{ reducer, default }` over that key's type, or a channel.
 */
export type LegacyChannels<State> = {
  [K in keyof State]: SingleReducer<State[K], State[K]> | BaseChannel;
};

/**
 * Object form of the `StateGraph` constructor. Given a state type, as LangGraph.js's
 * `StateGraphArgs<State>`, it is the legacy form `{ channels }` with the channel map typed by
 * that state, so `StateGraphArgs<State>["channels"]` types a map written for it.
 *
 * @example
 * ```ts
 * interface State { messages: string[] }
 * const channels: StateGraphArgs<State>["channels"] = {
 *   messages: { value: (x: string[], y: string[]) => x.concat(y), default: () => [] },
 * };
 * const graph = new StateGraph<State>({ channels });
 * ```
 */
export type StateGraphArgs<State = unknown> = unknown extends State
  ? StateGraphObjectArgs
  : { channels: LegacyChannels<State> };

/** Object form of the `StateGraph` constructor (`new StateGraph({ state, input, output })`). */
export interface StateGraphObjectArgs {
  /** The state schema. */
  state?: StateSchemaInput;
  /** @deprecated Use `state`. */
  stateSchema?: StateSchemaInput;
  /** Keys the graph accepts as input (default: the state). */
  input?: StateSchemaInput;
  /** Keys the graph returns (default: the state). */
  output?: StateSchemaInput;
  /** Schema of the run context (`invoke(input, { context })`). */
  context?: unknown;
  /** The graph's `interrupt` function, typed (`interrupt<Value, Resume>`): types only. */
  interrupt?: unknown;
  /** The graph's `writer` function, typed (`writer<Chunk>`): types only. */
  writer?: unknown;
  /** The graph's node names: types only. */
  nodes?: readonly string[];
  /**
   * @deprecated Legacy channel map: per key `null` (last value), `{ reducer, default }`, or a
   * channel.
   */
  channels?: StateDefinition | Record<string, SingleReducer<unknown, unknown> | BaseChannel>;
}

/** The object form of the constructor with Annotation roots for the state, input and output. */
export type StateGraphArgsWithStateSchema<
  SD extends StateDefinition,
  I extends StateDefinition,
  O extends StateDefinition,
> = {
  stateSchema: AnnotationRoot<SD>;
  input?: AnnotationRoot<I>;
  output?: AnnotationRoot<O>;
};

/** The object form of the constructor with input and output Annotation roots (the input is the state). */
export type StateGraphArgsWithInputOutputSchemas<
  SD extends StateDefinition,
  O extends StateDefinition = SD,
> = {
  input: AnnotationRoot<SD>;
  output: AnnotationRoot<O>;
};

/** Second argument of `new StateGraph(state, options)`: input/output schemas and the context schema. */
export interface StateGraphOptions {
  /** Keys the graph accepts as input (default: the state). */
  input?: StateSchemaInput;
  /** Keys the graph returns (default: the state). */
  output?: StateSchemaInput;
  /** Schema of the run context (`invoke(input, { context })`). */
  context?: unknown;
  /** The graph's `interrupt` function, typed (`interrupt<Value, Resume>`): types only. */
  interrupt?: unknown;
  /** The graph's `writer` function, typed (`writer<Chunk>`): types only. */
  writer?: unknown;
  /** The graph's node names: types only. */
  nodes?: readonly string[];
}

const OPTION_KEYS = new Set(["input", "output", "context", "interrupt", "writer", "nodes"]);

/** True for an options object (not a schema) as the second argument of the constructor. */
function isStateGraphOptions(value: unknown): value is StateGraphOptions {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  if (typeof (value as { parse?: unknown }).parse === "function") return false;
  if (StateSchema.isInstance(value) || isAnnotationRoot(value) || isZodObjectSchema(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => OPTION_KEYS.has(key));
}

/** The state type described by a schema. */
export type SchemaState<S> =
  S extends StateSchema<infer F>
    ? InferStateSchemaValue<F>
    : S extends AnnotationRoot<infer SD>
      ? StateType<SD>
      : S extends ZodObjectLike<infer O, unknown>
        ? O
        : S extends Zod3ObjectLike<infer O, unknown>
          ? O
          : S extends StateDefinition
            ? StateType<S>
            : Record<string, unknown>;

/** The update type described by a schema. */
export type SchemaUpdate<S> =
  S extends StateSchema<infer F>
    ? InferStateSchemaUpdate<F>
    : S extends AnnotationRoot<infer SD>
      ? UpdateType<SD>
      : S extends ZodObjectLike<unknown, infer I>
        ? ZodObjectUpdate<S, I>
        : S extends Zod3ObjectLike<unknown, unknown> & { shape: infer Shape }
          ? Zod3ObjectUpdate<Shape>
          : S extends StateDefinition
            ? UpdateType<S>
            : Record<string, unknown>;

/**
 * The object form of the constructor (`{ state, input, output, channels }`), which an inferred
 * `Schema` can be: its state is read at run time, not from this type.
 */
type StateGraphArgsLike =
  | { state: unknown }
  | { stateSchema: unknown }
  | { input: unknown }
  | { output: unknown }
  | { channels: unknown };

/**
 * A graph's state type: {@link SchemaState}, or the state type itself when one is given for a
 * legacy channel map (`new StateGraph<State>({ channels })`, as LangGraph.js types it).
 */
export type GraphSchemaState<S> = IsPlainStateType<S> extends true ? S : SchemaState<S>;

/** A graph's update type: {@link SchemaUpdate}, or `Partial<State>` for a state type as above. */
export type GraphSchemaUpdate<S> = IsPlainStateType<S> extends true ? Partial<S> : SchemaUpdate<S>;

/** True for a state type (an object type that is no schema, channel map or constructor argument). */
type IsPlainStateType<S> = unknown extends S
  ? false
  : [S] extends [StateSchema<infer _F>]
    ? false
    : [S] extends [AnnotationRoot<infer _D>]
      ? false
      : [S] extends [ZodObjectLike<infer _O, unknown>]
        ? false
        : [S] extends [Zod3ObjectLike<infer _O, unknown>]
          ? false
          : [S] extends [
                StateDefinition | StateGraphArgsLike | readonly unknown[] | ((...args: never[]) => unknown),
              ]
            ? false
            : [S] extends [object]
              ? true
              : false;

/** The context type described by a context schema. */
export type SchemaContext<C> =
  C extends StateSchema<infer F>
    ? InferStateSchemaValue<F>
    : C extends AnnotationRoot<infer SD>
      ? StateType<SD>
      : C extends ZodObjectLike<infer O, unknown>
        ? O
        : C extends Zod3ObjectLike<infer O, unknown>
          ? O
          : Record<string, unknown>;

/**
 * Any `StateSchema`, whatever its fields (its `Node` left out: a node type of given fields does
 * not fit a node of other fields).
 */
export type AnyStateSchema = Omit<StateSchema<StateSchemaFields>, "Node">;

/** Any `Annotation.Root`, whatever its channels (its `Node` left out, as for {@link AnyStateSchema}). */
type AnyAnnotationRoot = Omit<AnnotationRoot<StateDefinition>, "Node">;

/**
 * The fields of the object form of the `StateGraph` constructor besides its schemas (the typed
 * overloads take one schema: the state's, or an input schema that is the state).
 */
type StateGraphStateArgs = Omit<
  StateGraphObjectArgs,
  "state" | "stateSchema" | "channels" | "input" | "output"
> & {
  output?: undefined;
};

/**
 * The schema forms a state, input or output schema can take (as {@link StateSchemaInput}), as a
 * constraint any of them meets.
 */
export type StateDefinitionInit =
  | StateDefinition
  | AnyStateSchema
  | AnyAnnotationRoot
  | ZodObjectLike<unknown, unknown>
  | Zod3ObjectLike<unknown, unknown>;

/** The context schema forms: a Standard Schema (a Zod object, ...) or an `Annotation.Root`. */
export type ContextSchemaInit = StandardSchemaLike | AnyAnnotationRoot;

/**
 * The state type of any schema form (`StateSchema`, `Annotation.Root`, Zod object or channel
 * map); `Fallback` (the type itself by default) for a type that is not a schema.
 *
 * @example
 * ```ts
 * type State = ExtractStateType<typeof State>;
 * ```
 */
export type ExtractStateType<Schema, Fallback = Schema> = Schema extends StateDefinitionInit
  ? SchemaState<Schema>
  : Fallback;

/**
 * The update type (what a node returns) of any schema form; `Partial<FallbackBase>` for a type
 * that is not a schema.
 */
export type ExtractUpdateType<Schema, FallbackBase = Schema> = Schema extends StateDefinitionInit
  ? SchemaUpdate<Schema>
  : Partial<FallbackBase>;

/**
 * The object form of the `StateGraph` constructor with its parts typed (LangGraph.js's
 * `StateGraphInit`). `interrupt`, `writer` and `nodes` only type the graph: they are not used at run
 * time.
 */
export interface StateGraphInit<
  SD extends StateDefinitionInit = StateDefinitionInit,
  I extends StateDefinitionInit | undefined = undefined,
  O extends StateDefinitionInit | undefined = undefined,
  C extends StateDefinitionInit | ContextSchemaInit | undefined = undefined,
  N extends string = string,
  InterruptType = unknown,
  WriterType = unknown,
> {
  state?: SD;
  /** @deprecated Use `state`. */
  stateSchema?: SD;
  input?: I;
  output?: O;
  context?: C;
  interrupt?: InterruptType;
  writer?: WriterType;
  nodes?: N[];
}

/**
 * A node function of a schema's state (LangGraph.js `GraphNode<typeof State>`), for writing
 * nodes apart from the graph that uses them.
 *
 * @example
 * ```ts
 * const count: GraphNode<typeof State> = (state) => ({ steps: state.steps + 1 });
 * ```
 */
export type GraphNode<
  Schema,
  Context extends Record<string, unknown> = Record<string, unknown>,
  _Nodes extends string = string,
> =
  IsGraphNodeTypeBag<Schema> extends true
    ? NodeAction<BagInput<Schema>, BagOutput<Schema>, BagContext<Schema>>
    : NodeAction<SchemaState<Schema>, SchemaUpdate<Schema>, Context>;

/**
 * The type bag `GraphNode` also takes (LangGraph.js `GraphNodeTypes`): the schema a node reads,
 * the one it writes (default: any part of what it reads), its context schema and the nodes its
 * `Command`s go to.
 *
 * @example
 * ```ts
 * const route: GraphNode<{ InputSchema: typeof State; Nodes: "done" | "again" }> = (s) =>
 *   new Command({ goto: s.count > 3 ? "done" : "again" });
 * ```
 */
export interface GraphNodeTypes<
  InputSchema = unknown,
  OutputSchema = unknown,
  ContextSchema = unknown,
  Nodes extends string = string,
> {
  InputSchema?: InputSchema;
  OutputSchema?: OutputSchema;
  ContextSchema?: ContextSchema;
  Nodes?: Nodes;
}

/**
 * The type bag `ConditionalEdgeRouter` also takes (LangGraph.js `ConditionalEdgeRouterTypes`):
 * the schema a router reads, its context schema and the nodes it routes to.
 */
export interface ConditionalEdgeRouterTypes<
  InputSchema = unknown,
  ContextSchema = unknown,
  Nodes extends string = string,
> {
  InputSchema?: InputSchema;
  ContextSchema?: ContextSchema;
  Nodes?: Nodes;
}

type IsGraphNodeTypeBag<T> = T extends { InputSchema: unknown }
  ? true
  : T extends { OutputSchema: unknown }
    ? true
    : false;
type IsRouterTypeBag<T> = T extends { InputSchema: unknown }
  ? true
  : T extends { ContextSchema: unknown }
    ? true
    : false;
type BagInput<Bag> = Bag extends { InputSchema: infer I } ? SchemaState<I> : unknown;
type BagOutput<Bag> = Bag extends { OutputSchema: infer O } ? SchemaUpdate<O> : Partial<BagInput<Bag>>;
type BagContext<Bag> = Bag extends { ContextSchema: infer C }
  ? SchemaContext<C> extends infer Ctx extends Record<string, unknown>
    ? Ctx
    : Record<string, unknown>
  : Record<string, unknown>;
type BagNodes<Bag> = Bag extends { Nodes: infer N extends string } ? N : string;

/**
 * A routing function of a schema's state, for `addConditionalEdges` (LangGraph.js
 * `ConditionalEdgeRouter<typeof State, Context, Nodes>`).
 *
 * @example
 * ```ts
 * const route: ConditionalEdgeRouter<typeof State, Record<string, unknown>, "tools"> = (s) =>
 *   s.messages.length > 3 ? END : "tools";
 * ```
 */
export type ConditionalEdgeRouter<
  Schema,
  Context extends Record<string, unknown> = Record<string, unknown>,
  Nodes extends string = string,
> =
  IsRouterTypeBag<Schema> extends true
    ? Router<BagInput<Schema>, BagNodes<Schema>, BagContext<Schema>>
    : Router<SchemaState<Schema>, Nodes, Context>;

const INVALID_STATE_INPUT =
  "Invalid StateGraph input. Make sure to pass a valid StateDefinition, Annotation.Root, or Zod schema.";

function channelsOf(schema: unknown, what: string, allowEmpty = false): Record<string, BaseChannel> {
  if (StateSchema.isInstance(schema)) return schema.getChannels();
  if (isAnnotationRoot(schema)) {
    const out: Record<string, BaseChannel> = {};
    for (const [key, entry] of Object.entries(schema.spec)) out[key] = channelFromDefinition(key, entry);
    return out;
  }
  if (isZodObjectSchema(schema)) return channelsFromZodObject(schema);
  if (typeof schema === "object" && schema !== null) {
    // as LangGraph.js: anything else must be a non-empty map of channels (or channel factories)
    const problem = channelMapProblem(schema, allowEmpty);
    if (problem !== undefined)
      throw new StateGraphInputError(`${INVALID_STATE_INPUT} The ${what} schema ${problem}`);
    const out: Record<string, BaseChannel> = {};
    for (const [key, entry] of Object.entries(schema)) out[key] = channelFromDefinition(key, entry);
    return out;
  }
  throw new StateGraphInputError(
    `${INVALID_STATE_INPUT} The ${what} schema must be a StateSchema, an Annotation.Root({...}), a Zod object schema or a map of channels; got ${schema === null ? "null" : typeof schema}.`,
  );
}

/**
 * Whether two declarations of a state key make the same channel, as the channel's `equals`
 * decides (LangGraph.js's check): the same channel, or channels of one kind with the same
 * settings. A channel of another copy of the library without `equals` matches only itself.
 */
function sameChannel(a: BaseChannel, b: BaseChannel): boolean {
  if (a === b) return true;
  const equals = (a as { equals?: unknown }).equals;
  return typeof equals === "function" && (equals as (other: BaseChannel) => boolean).call(a, b) === true;
}

/** Why an object given as a state schema is not a map of channels, if it is not. */
function channelMapProblem(schema: object, allowEmpty: boolean): string | undefined {
  if (Array.isArray(schema)) return "is an array; give a map of channels such as { key: Annotation<T>() }.";
  if ("~standard" in schema || "_zod" in schema || "_def" in schema) {
    return "is a schema that is not a Zod object: state must be z.object({...}) (combine objects with .extend(), not .and() or z.intersection()).";
  }
  const entries = Object.entries(schema);
  if (entries.length === 0 && !allowEmpty) return "has no keys; declare at least one state key.";
  for (const [key, entry] of entries) {
    if (typeof entry !== "function" && !isBaseChannel(entry)) {
      return `has key "${key}" that is not a channel: declare it with Annotation<T>() or Annotation<T>({ reducer, default }).`;
    }
  }
  return undefined;
}

function legacyChannels(map: object): Record<string, BaseChannel> {
  const out: Record<string, BaseChannel> = {};
  for (const [key, entry] of Object.entries(map)) out[key] = channelFromLegacyEntry(key, entry);
  return out;
}

function contextValidator(schema: unknown): ContextValidator | undefined {
  if (
    typeof schema === "object" &&
    schema !== null &&
    typeof (schema as ContextValidator).parse === "function"
  ) {
    return schema as ContextValidator;
  }
  return undefined;
}

/**
 * A graph whose nodes read and update a shared state. Declare the state, add nodes and edges,
 * then `compile()` it into a runnable graph.
 *
 * @example
 * ```ts
 * const State = Annotation.Root({ count: Annotation<number> });
 * const graph = new StateGraph(State)
 *   .addNode("increment", (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, "increment")
 *   .addEdge("increment", END)
 *   .compile();
 * await graph.invoke({ count: 1 }); // { count: 2 }
 * ```
 */
export class StateGraph<
  Schema = StateSchemaInput,
  State = GraphSchemaState<Schema>,
  Update = GraphSchemaUpdate<Schema>,
  Nodes extends string = typeof START,
  Context = Record<string, unknown>,
  Input = Update,
  Output = State,
> {
  /** @internal */ readonly channels: Record<string, BaseChannel> = {};
  /** @internal */ readonly stateKeys: string[];
  /** @internal The state schema's own keys: what a node without an `input` schema reads. */
  readonly schemaKeys: string[];
  /** @internal */ readonly inputKeys: string[];
  /** @internal */ readonly outputKeys: string[];
  /** The nodes added so far, by name (LangGraph.js's `builder.nodes`). */
  readonly nodes: Record<string, NodeDefinition> = {};
  /** The plain edges, as `[source, target]` pairs (LangGraph.js's `builder.edges`). */
  readonly edges: Set<[string, string]> = new Set();
  /** The joins (`addEdge([a, b], c)`), as `[sources, target]` pairs. */
  readonly waitingEdges: Set<[string[], string]> = new Set();
  /**
   * The conditional edges, by source node and then by name (`"condition"`, the only one a node
   * can have), as LangGraph.js's `builder.branches`.
   */
  readonly branches: Record<string, Record<string, BranchDefinition>> = {};
  /** @internal */ readonly contextSchema: ContextValidator | undefined;
  /** @internal The state schema as given (a StateSchema, an Annotation root, a Zod object, or a channel map). */
  readonly stateSchema: unknown;
  /** The schemas whose channels were added (each is read once, as LangGraph.js does). */
  private readonly addedSchemas = new WeakSet<object>();
  /** @internal The input schema as given, if any. */
  readonly inputSchema: unknown;
  /** @internal */ compiled = false;
  /** @internal Policies of nodes that set none (`setNodeDefaults`). */
  readonly nodeDefaults: {
    retryPolicy?: RetryPolicy;
    cachePolicy?: CachePolicy;
    timeout?: TimeoutPolicy;
    errorHandler?: NodeErrorHandler;
  } = {};

  /**
   * The object form with a state schema alone, typed by it: `new StateGraph({ state: State })`
   * (or the deprecated `stateSchema`). With `input` or `output` schemas it is not typed by them
   * (the last overloads).
   */
  constructor(args: StateGraphStateArgs & { state: Schema; stateSchema?: undefined });
  constructor(args: StateGraphStateArgs & { stateSchema: Schema; state?: undefined });
  /** An input schema alone, which is then the state too: `new StateGraph({ input: State })`. */
  constructor(args: StateGraphStateArgs & { input: Schema; state?: undefined; stateSchema?: undefined });
  constructor(
    state: Schema,
    contextSchema: ZodObjectLike<Context, unknown> | Zod3ObjectLike<Context, unknown>,
  );
  constructor(state: Schema, contextSchema?: unknown);
  constructor(state: Schema, options: StateGraphOptions);
  /** The legacy channel map typed by the state it declares: `new StateGraph<State>({ channels })`. */
  constructor(args: Omit<StateGraphArgs, "channels"> & { channels: LegacyChannels<Schema> });
  constructor(args: StateGraphArgs);
  constructor(stateOrArgs: unknown, contextSchema?: unknown) {
    let state: unknown = stateOrArgs;
    let input: unknown;
    let output: unknown;
    let context: unknown = contextSchema;
    let legacy = false;
    if (isStateGraphOptions(contextSchema)) {
      // new StateGraph(state, { input, output, context }) (LangGraph.js's `StateGraphInit` form)
      input = contextSchema.input;
      output = contextSchema.output;
      context = contextSchema.context;
    }
    if (
      !StateSchema.isInstance(stateOrArgs) &&
      !isAnnotationRoot(stateOrArgs) &&
      !isZodObjectSchema(stateOrArgs) &&
      typeof stateOrArgs === "object" &&
      stateOrArgs !== null &&
      ("state" in stateOrArgs ||
        "stateSchema" in stateOrArgs ||
        "input" in stateOrArgs ||
        "output" in stateOrArgs ||
        "channels" in stateOrArgs)
    ) {
      const args = stateOrArgs as StateGraphArgs;
      legacy = args.state === undefined && args.stateSchema === undefined && args.channels !== undefined;
      state =
        args.state ??
        args.stateSchema ??
        (args.channels === undefined ? undefined : legacyChannels(args.channels)) ??
        args.input;
      input = args.input;
      output = args.output;
      context = args.context ?? contextSchema;
      if (state === undefined) {
        throw new StateGraphInputError(
          "Invalid StateGraph input. Make sure to pass a valid StateDefinition, Annotation.Root, or Zod schema. new StateGraph({ ... }) needs a `state` (or `input`) schema.",
        );
      }
    }
    this.stateSchema = state;
    if (typeof state === "object" && state !== null) this.addedSchemas.add(state);
    this.inputSchema = input;
    // a legacy `channels` map has been turned into channels already (and may be empty)
    Object.assign(this.channels, channelsOf(state, "state", legacy));
    this.stateKeys = Object.keys(this.channels);
    const stateKeys = [...this.stateKeys];
    this.schemaKeys = stateKeys;
    this.inputKeys = input === undefined ? stateKeys : this.addSchema(input, "input");
    this.outputKeys = output === undefined ? stateKeys : this.addSchema(output, "output");
    this.contextSchema = contextValidator(context);
  }

  private addSchema(schema: unknown, what: string): string[] {
    const channels = channelsOf(schema, what);
    this.addChannels(schema, channels);
    return Object.keys(channels);
  }

  /**
   * Adds the channels of an input, output or node input schema that the state does not have. A
   * key the state has keeps its channel; declaring it again with another kind of channel (not a
   * plain last value) fails, as in LangGraph.js.
   */
  private addChannels(schema: unknown, channels: Record<string, BaseChannel>): void {
    if (typeof schema === "object" && schema !== null) {
      if (this.addedSchemas.has(schema)) return;
      this.addedSchemas.add(schema);
    }
    for (const [key, channel] of Object.entries(channels)) {
      const existing = this.channels[key];
      if (existing === undefined) {
        this.channels[key] = channel;
        this.stateKeys.push(key);
      } else if (!sameChannel(existing, channel) && channel.lc_graph_name !== "LastValue") {
        throw new InvalidGraphError(`Channel "${key}" already exists with a different type.`);
      }
    }
  }

  /**
   * Sets graph-wide default node policies (LangGraph.js `setNodeDefaults`): a node's own
   * `retryPolicy` / `cachePolicy` / `timeout` / `errorHandler` (from `addNode`) wins; the
   * defaults apply at `compile()`, so the call may come before or after `addNode`, and later
   * calls override earlier ones field by field. `cachePolicy: true` is `{}`. Not inherited by
   * subgraphs. `retryPolicy` and `timeout` apply to every node, error handlers included;
   * `cachePolicy` and `errorHandler` to regular nodes only (a default `errorHandler` runs as the
   * node `__default_error_handler__`, and a handler never handles its own failure).
   *
   * @example
   * ```ts
   * graph
   *   .setNodeDefaults({
   *     retryPolicy: { maxAttempts: 3 },
   *     timeout: 60_000,
   *     errorHandler: (state, { node, error }) => ({ lastError: `${node}: ${error.message}` }),
   *   })
   *   .compile();
   * ```
   */
  setNodeDefaults(defaults: {
    retryPolicy?: RetryPolicy;
    cachePolicy?: CachePolicy | boolean;
    timeout?: number | TimeoutPolicy;
    errorHandler?: NodeErrorHandler<State, Update, Nodes>;
  }): this {
    if (defaults.timeout !== undefined) {
      const timeout = coerceTimeoutPolicy(defaults.timeout);
      if (timeout === undefined) delete this.nodeDefaults.timeout;
      else this.nodeDefaults.timeout = timeout;
    }
    if (defaults.errorHandler !== undefined) {
      this.nodeDefaults.errorHandler = defaults.errorHandler as unknown as NodeErrorHandler;
    }
    if (defaults.retryPolicy !== undefined) this.nodeDefaults.retryPolicy = defaults.retryPolicy;
    if (defaults.cachePolicy !== undefined) {
      const policy = defaults.cachePolicy;
      if (policy === false) delete this.nodeDefaults.cachePolicy;
      else this.nodeDefaults.cachePolicy = policy === true ? {} : policy;
    }
    return this;
  }

  /** Every edge, waiting edges (`addEdge([a, b], c)`) as one edge per source (LangGraph.js `allEdges`). */
  get allEdges(): Set<[string, string]> {
    return new Set([
      ...this.edges,
      ...[...this.waitingEdges].flatMap(([sources, target]) =>
        sources.map((source): [string, string] => [source, target]),
      ),
    ]);
  }

  private warnIfCompiled(what: "node" | "edge"): void {
    if (this.compiled) {
      console.warn(
        `Adding a${what === "edge" ? "n edge" : " node"} to a graph that has already been compiled. This will not be reflected in the compiled graph.`,
      );
    }
  }

  /**
   * Adds a node: a function of the state that returns an update (or a `Command`), a compiled
   * graph used as a subgraph, or any object with an `invoke(input, config)` method (a
   * `ToolNode`, a runnable). Also accepts `{ name: fn, … }` or `[[name, fn, options?], …]`.
   */
  addNode<K extends string, NodeInput = State>(
    name: K,
    action: NodeAction<NodeInput, Update, Context> | SubgraphLike | RunnableLike<State, Context>,
    options?: AddNodeOptions<Nodes | K, State, Update>,
  ): StateGraph<Schema, State, Update, Nodes | K, Context, Input, Output>;
  addNode<K extends string>(
    nodes: Record<K, NodeAction<State, Update, Context> | SubgraphLike | RunnableLike<State, Context>>,
  ): StateGraph<Schema, State, Update, Nodes | K, Context, Input, Output>;
  addNode<K extends string>(
    nodes: [
      K,
      NodeAction<State, Update, Context> | SubgraphLike | RunnableLike<State, Context>,
      AddNodeOptions<string, State, Update>?,
    ][],
  ): StateGraph<Schema, State, Update, Nodes | K, Context, Input, Output>;
  addNode(nameOrNodes: unknown, action?: unknown, options?: AddNodeOptions<string, never>): unknown {
    if (typeof nameOrNodes === "string") {
      this.addOneNode(nameOrNodes, action, options);
      return this;
    }
    // `{ name: action }` or `[[name, action, options?], …]`; anything else (a bare function, say)
    // holds no nodes, as LangGraph.js reads it
    const entries: [string, unknown, AddNodeOptions<string, never>?][] = Array.isArray(nameOrNodes)
      ? (nameOrNodes as [string, unknown, AddNodeOptions<string, never>?][])
      : (typeof nameOrNodes === "object" || typeof nameOrNodes === "function") && nameOrNodes !== null
        ? Object.entries(nameOrNodes)
        : [];
    if (entries.length === 0) {
      throw new InvalidGraphError(
        "No nodes provided in `addNode`. addNode expects (name, action, options?), an object of actions, or a list of [name, action].",
      );
    }
    for (const [name, fn, opts] of entries) this.addOneNode(name, fn, opts);
    return this;
  }

  /** Throws when `name` cannot name a new node (reserved, taken by a node or a state key). */
  private checkNodeName(name: string): void {
    if (RESERVED_NODE_NAMES.has(name)) throw new InvalidGraphError(`Node \`${name}\` is reserved.`);
    for (const ch of ["|", ":"]) {
      if (name.includes(ch)) {
        throw new InvalidGraphError(`"${ch}" is a reserved character and is not allowed in node names.`);
      }
    }
    if (Object.hasOwn(this.nodes, name)) throw new InvalidGraphError(`Node \`${name}\` already present.`);
    if (name in this.channels) {
      throw new InvalidGraphError(
        `${name} is already being used as a state attribute (a.k.a. a channel), cannot also be used as a node name.`,
      );
    }
  }

  private addOneNode(
    name: string,
    action: unknown,
    options: AddNodeOptions<string, never> | undefined,
  ): void {
    this.warnIfCompiled("node");
    this.checkNodeName(name);
    if (typeof action !== "function" && !isPregel(action) && !hasInvoke(action)) {
      throw new InvalidGraphError(
        `Expected a Runnable, function or object.\nInstead got an unsupported type. Node \`${name}\` must be a function (state, config) => update, a compiled graph or an object with an invoke(input, config) method; got ${action === null ? "null" : typeof action}.`,
      );
    }
    let input: Record<string, BaseChannel> | undefined;
    if (options?.input !== undefined) {
      input = channelsOf(options.input, `input of node "${name}"`);
      this.addChannels(options.input, input);
    }
    let cachePolicy: CachePolicy | false | undefined;
    if (options?.cachePolicy === true) cachePolicy = {};
    else if (options?.cachePolicy === false) cachePolicy = false;
    else if (typeof options?.cachePolicy === "object") cachePolicy = options.cachePolicy;
    const timeout = coerceTimeoutPolicy(options?.timeout);
    let errorHandler: string | undefined;
    if (options?.errorHandler !== undefined) {
      errorHandler = `${ERROR_HANDLER_PREFIX}${name}`;
      if (Object.hasOwn(this.nodes, errorHandler)) {
        throw new InvalidGraphError(
          `Cannot add error handler to node \`${name}\`: the reserved name \`${errorHandler}\` is already in use. StateGraph registers \`__error_handler__<nodeName>\` when you pass \`errorHandler\` in addNode options. Remove or rename the existing node with that name (for example, you may have added it manually).`,
        );
      }
      defineNode(
        this.nodes,
        errorHandler,
        errorHandlerNode(options.errorHandler as unknown as NodeErrorHandler, input),
      );
    }
    defineNode(this.nodes, name, {
      action: action as NodeDefinition["action"],
      input,
      retryPolicy: options?.retryPolicy,
      cachePolicy,
      timeout,
      errorHandler,
      isErrorHandler: false,
      ends: options?.ends as readonly string[] | undefined,
      defer: options?.defer ?? false,
      metadata: options?.metadata,
      tags: options?.tags,
      subgraphs: options?.subgraphs ?? (isPregel(action) ? [action as SubgraphLike] : undefined),
    });
  }

  /**
   * Adds an edge: after `from` finishes, `to` runs. With a list of sources, `to` waits until all
   * of them have finished (a join).
   */
  addEdge(from: EdgeSource<Nodes> | EdgeSource<Nodes>[], to: EdgeTarget<Nodes>): this {
    this.warnIfCompiled("edge");
    if (Array.isArray(from)) {
      for (const source of from) {
        if ((source as string) === END) throw new InvalidGraphError("END cannot be a start node");
        if (source === START || !Object.hasOwn(this.nodes, source)) {
          throw new InvalidGraphError(`Need to add a node named "${source}" first`);
        }
      }
      if (to === END) throw new InvalidGraphError("END cannot be an end node");
      if (!Object.hasOwn(this.nodes, to))
        throw new InvalidGraphError(`Need to add a node named "${to}" first`);
      this.waitingEdges.add([[...from], to]);
      return this;
    }
    if ((from as string) === END) throw new InvalidGraphError("END cannot be a start node");
    if ((to as string) === START) throw new InvalidGraphError("START cannot be an end node");
    this.edges.add([from, to]);
    return this;
  }

  /**
   * Adds a conditional edge: after `source` finishes, `path` reads the state (including
   * `source`'s update) and returns the node(s) to run next, `Send`s, or `END`. `pathMap` maps
   * its results to nodes (and declares the possible targets, for validation and drawing).
   */
  addConditionalEdges(
    source: EdgeSource<Nodes>,
    path: Router<State, Nodes, Context>,
    pathMap?: PathMap<Nodes>,
  ): this;
  addConditionalEdges(args: {
    source: EdgeSource<Nodes>;
    path: Router<State, Nodes, Context>;
    pathMap?: PathMap<Nodes>;
  }): this;
  addConditionalEdges(sourceOrArgs: unknown, path?: unknown, pathMap?: unknown): this {
    this.warnIfCompiled("edge");
    const [source, router, map] = conditionalEdgeArgs(sourceOrArgs, path, pathMap);
    if (typeof router !== "function") {
      throw new InvalidGraphError(
        `Expected a Runnable, function or object.\nInstead got an unsupported type. The conditional edge from "${source}" needs a routing function (state) => next node.`,
      );
    }
    if (Object.hasOwn(this.branches, source)) {
      throw new InvalidGraphError(
        `Condition \`${CONDITION}\` already present for node \`${source}\`. A node has one conditional edge: return several destinations from one routing function instead.`,
      );
    }
    let normalized: Record<string, string> | undefined;
    if (Array.isArray(map)) normalized = Object.fromEntries((map as string[]).map((n) => [n, n]));
    else if (typeof map === "object" && map !== null) normalized = { ...(map as Record<string, string>) };
    this.branches[source] = {
      [CONDITION]: { path: router as BranchDefinition["path"], pathMap: normalized },
    };
    return this;
  }

  /** Adds nodes that run one after the other (each with an edge to the next). */
  addSequence<K extends string>(
    nodes: [
      K,
      NodeAction<State, Update, Context> | SubgraphLike | RunnableLike<State, Context>,
      AddNodeOptions<string, State, Update>?,
    ][],
  ): StateGraph<Schema, State, Update, Nodes | K, Context, Input, Output>;
  addSequence<K extends string>(
    nodes: Record<K, NodeAction<State, Update, Context> | SubgraphLike | RunnableLike<State, Context>>,
  ): StateGraph<Schema, State, Update, Nodes | K, Context, Input, Output>;
  addSequence(nodes: unknown): unknown {
    const entries: [string, unknown, AddNodeOptions<string, never>?][] = Array.isArray(nodes)
      ? (nodes as [string, unknown, AddNodeOptions<string, never>?][])
      : Object.entries(nodes as Record<string, unknown>).map(([n, a]) => [n, a]);
    if (entries.length === 0) throw new InvalidGraphError("Sequence requires at least one node.");
    // every name is checked before any node is added (in order, as LangGraph.js adds them)
    const names = new Set<string>();
    for (const [name] of entries) {
      if (names.has(name) || Object.hasOwn(this.nodes, name)) {
        throw new InvalidGraphError(
          `Node names must be unique: node with the name "${name}" already exists.`,
        );
      }
      this.checkNodeName(name);
      names.add(name);
    }
    let previous: string | undefined;
    for (const [name, action, options] of entries) {
      this.addOneNode(name, action, options);
      if (previous !== undefined) this.edges.add([previous, name]);
      previous = name;
    }
    return this;
  }

  /** Same as `addEdge(START, node)`. */
  setEntryPoint(node: Nodes): this {
    return this.addEdge(START, node as EdgeTarget<Nodes>);
  }

  /** Same as `addEdge(node, END)`. */
  setFinishPoint(node: Nodes): this {
    return this.addEdge(node as EdgeSource<Nodes>, END);
  }

  /** Checks the graph and builds the runnable graph. */
  compile<const Transformers extends ReadonlyArray<StreamTransformerFactory> = []>(
    options: CompileOptions<Nodes, Transformers> = {},
  ): CompiledStateGraph<State, Update, Nodes, Context, Input, Output, Transformers> {
    this.validate(options);
    this.compiled = true;
    return compileStateGraph(this, options) as unknown as CompiledStateGraph<
      State,
      Update,
      Nodes,
      Context,
      Input,
      Output,
      Transformers
    >;
  }

  /** @internal Fails with a clear error for every malformed part of the graph. */
  validate(options: CompileOptions<Nodes> = {}): void {
    const known = (n: string) => Object.hasOwn(this.nodes, n);
    // LangGraph.js's order: unknown sources, then unreachable nodes, then unknown targets
    for (const [from] of this.edges) {
      if (from !== START && !known(from))
        throw new InvalidGraphError(`Found edge starting at unknown node \`${from}\``);
    }
    for (const source of Object.keys(this.branches)) {
      if (source !== START && !known(source)) {
        throw new InvalidGraphError(`Found edge starting at unknown node \`${source}\``);
      }
    }
    // (a graph without nodes compiles, as in LangGraph.js: it returns its input)
    const hasEntry = [...this.edges].some(([from]) => from === START) || Object.hasOwn(this.branches, START);
    const targets = new Set<string>();
    for (const [, to] of this.edges) targets.add(to);
    for (const [, to] of this.waitingEdges) targets.add(to);
    for (const [source, branches] of Object.entries(this.branches)) {
      for (const branch of Object.values(branches)) {
        if (branch.pathMap !== undefined) for (const t of Object.values(branch.pathMap)) targets.add(t);
        else for (const n of Object.keys(this.nodes)) if (n !== source) targets.add(n);
      }
    }
    for (const node of Object.values(this.nodes)) for (const t of node.ends ?? []) targets.add(t);
    // an error handler may route anywhere with Command({ goto }): every node counts as reachable
    const withHandlers =
      this.nodeDefaults.errorHandler !== undefined || Object.values(this.nodes).some((n) => n.isErrorHandler);
    for (const [name, node] of Object.entries(this.nodes)) {
      if (node.isErrorHandler || withHandlers) continue;
      if (!targets.has(name)) throw unreachable(name, hasEntry);
    }
    for (const [, to] of this.edges) {
      if (to !== END && !known(to))
        throw new InvalidGraphError(`Found edge ending at unknown node \`${to}\``);
    }
    for (const branches of Object.values(this.branches)) {
      for (const branch of Object.values(branches)) {
        for (const target of Object.values(branch.pathMap ?? {})) {
          if (target !== END && !known(target)) {
            throw new InvalidGraphError(`Found edge ending at unknown node \`${target}\``);
          }
        }
      }
    }
    for (const [name, node] of Object.entries(this.nodes)) {
      for (const target of node.ends ?? []) {
        if (target !== END && !known(target)) {
          throw new InvalidGraphError(
            `Found edge ending at unknown node \`${target}\` (in the "ends" of node "${name}")`,
          );
        }
      }
    }
    for (const key of ["interruptBefore", "interruptAfter"] as const) {
      const list = options[key];
      if (Array.isArray(list)) {
        for (const n of list)
          if (!known(n)) throw new InvalidGraphError(`Interrupt node \`${n}\` is not present`);
      }
    }
  }
}

/** Prefix of the nodes `addNode(…, { errorHandler })` makes. */
const ERROR_HANDLER_PREFIX = "__error_handler__";

/** Name of the node a default `errorHandler` (`setNodeDefaults`) runs as. */
export const DEFAULT_ERROR_HANDLER_NODE = "__default_error_handler__";

/** The node an error handler runs as: it reads what the failed node read, and gets its `NodeError`. */
export function errorHandlerNode(
  handler: NodeErrorHandler,
  input: Record<string, BaseChannel> | undefined,
): NodeDefinition {
  return {
    action: (state: unknown, config: LangGraphRunnableConfig) =>
      handler(state, (config as Record<symbol, unknown>)[NODE_ERROR] as NodeError, config),
    input,
    retryPolicy: undefined,
    cachePolicy: undefined,
    timeout: undefined,
    errorHandler: undefined,
    isErrorHandler: true,
    ends: undefined,
    defer: false,
    metadata: undefined,
    tags: undefined,
    subgraphs: undefined,
  };
}

function unreachable(name: string, hasEntry: boolean): UnreachableNodeError {
  const entry = hasEntry
    ? ""
    : `\n\nNo edge leaves START: the graph needs an entrypoint, e.g. addEdge(START, "${name}") or setEntryPoint("${name}").`;
  return new UnreachableNodeError(
    `Node \`${name}\` is not reachable.\n\nIf you are returning Command objects from your node,\nmake sure you are passing names of potential destination nodes as an "ends" array\ninto ".addNode(..., { ends: ["node1", "node2"] })".${entry}`,
    { lc_error_code: "UNREACHABLE_NODE" },
  );
}

/** Objects with an `invoke` method (runnables such as a ToolNode) can be nodes. */
/**
 * @internal Records a node in a builder's `nodes` (defined, not assigned, so that a node named
 * `__proto__` is a node like any other).
 */
export function defineNode<T>(nodes: Record<string, T>, name: string, definition: T): void {
  Object.defineProperty(nodes, name, {
    value: definition,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function hasInvoke(value: unknown): value is RunnableLike {
  return typeof value === "object" && value !== null && typeof (value as RunnableLike).invoke === "function";
}
