import { INVOKE_THEN, type InvokesThen } from "../../shared/index.js";
import {
  type BaseChannel,
  EphemeralValue,
  LastValueAfterFinish,
  NamedBarrierValue,
  NamedBarrierValueAfterFinish,
  Topic,
} from "../channels/index.js";
import {
  BRANCH_PREFIX,
  END,
  InvalidGraphError,
  InvalidUpdateError,
  isCommand,
  START,
  TAG_HIDDEN,
  TASKS,
  unwrapOverwrite,
} from "../core/index.js";
import type { GraphRunConfig, LangGraphRunnableConfig, PregelNode } from "../loop/index.js";
import { isPregel } from "../pregel/index.js";
import type { StreamTransformer } from "../stream/index.js";
import { CompiledStateGraph, type CompiledStateGraphNode } from "./compiled-state-graph.js";
import {
  type BranchDefinition,
  DEFAULT_ERROR_HANDLER_NODE,
  errorHandlerNode,
  type NodeDefinition,
  type StateGraph,
} from "./state-graph.js";
import { StateSchema } from "./state-schema.js";
import type { SubgraphLike } from "./types.js";
import { type CompiledBranch, makeWriters, type WriterSpec } from "./writers.js";
import { isZodObjectSchema, schemaMetaRegistry, stripZodDefault, zodObjectShape } from "./zod-state.js";

/** Options of `compile()`. */
export interface CompileOptions<
  Nodes extends string = string,
  Transformers extends ReadonlyArray<() => StreamTransformer<unknown>> = ReadonlyArray<
    () => StreamTransformer<unknown>
  >,
> {
  /** Saves a checkpoint after every superstep (makes runs resumable and inspectable). */
  checkpointer?: unknown;
  /** Long-term memory shared across threads, passed to nodes as `config.store`. */
  store?: unknown;
  /** Cache for nodes with a `cachePolicy`. */
  cache?: unknown;
  /** Pause before these nodes run (needs a checkpointer). */
  interruptBefore?: Nodes[] | "*";
  /** Pause after these nodes run (needs a checkpointer). */
  interruptAfter?: Nodes[] | "*";
  /** Name of the compiled graph. */
  name?: string;
  /** Description of the compiled graph. */
  description?: string;
  /**
   * Stream transformers (factories) every `streamEvents(…, { version: "v3" })` run of the
   * graph uses, before the call's own `transformers`. Their projections type the
   * `run.extensions` of every such run, as in LangGraph.js.
   */
  transformers?: Transformers;
}

type AnyBuilder = StateGraph<unknown, unknown, unknown, string, unknown, unknown, unknown>;

/** Name of the barrier channel of the waiting edge `sources → target`. */
export function joinChannelName(sources: readonly string[], target: string): string {
  return `join:${sources.join("+")}:${target}`;
}

/**
 * Marks a routing function that does not modify the state it reads (a registered symbol, so that
 * the agents module marks its routers without importing the engine's internals): the engine may
 * then keep what it computed for the router's fresh read for the step's end.
 */
const READ_ONLY_ROUTER = Symbol.for("agentgraph.router.readOnly");

function compileBranches(byName: Readonly<Record<string, BranchDefinition>> | undefined): CompiledBranch[] {
  return Object.values(byName ?? {}).map((b) => ({
    path: b.path as CompiledBranch["path"],
    pathMap: b.pathMap,
    readOnly: (b.path as unknown as Record<symbol, unknown>)[READ_ONLY_ROUTER] === true,
  }));
}

function edgeWritesOf(builder: AnyBuilder, name: string): [string, unknown][] {
  const writes: [string, unknown][] = [];
  for (const [from, to] of builder.edges) {
    if (from === name && to !== END) writes.push([BRANCH_PREFIX + to, null]);
  }
  for (const [sources, target] of builder.waitingEdges) {
    if (sources.includes(name)) writes.push([joinChannelName(sources, target), name]);
  }
  return writes;
}

/**
 * Microtask turns LangGraph.js takes to run a node's writers once its code has returned (measured
 * on LangGraph.js 1.7.3): about 11 for the writer of its edges (however many), about 25 for each
 * conditional edge's router. Parallel tasks that finish together are committed, and streamed, in
 * that order there (a node with no edges before one with edges, before one with a router).
 */
const EDGE_WRITER_TURNS = 11;
const ROUTER_TURNS = 25;

function commitTurnsOf(builder: AnyBuilder, name: string, edgeWrites: readonly unknown[]): number {
  const routers = Object.keys(builder.branches[name] ?? {}).length;
  return (edgeWrites.length > 0 ? EDGE_WRITER_TURNS : 0) + routers * ROUTER_TURNS;
}

/** The tags and metadata of a compiled graph run as a node named as the graph (see `PregelNode.graphRun`). */
function graphRunOf(name: string, action: unknown): GraphRunConfig | undefined {
  if (!isPregel(action) || action.name !== name) return undefined;
  return { tags: action.config?.tags ?? [], metadata: action.config?.metadata ?? {} };
}

function bindAction(name: string, def: NodeDefinition): PregelNode["bound"] {
  const action = def.action;
  if (typeof action === "function") {
    return action as (input: unknown, config: LangGraphRunnableConfig<unknown>) => unknown;
  }
  const subgraph = action as SubgraphLike;
  if (typeof subgraph.invoke !== "function") {
    throw new InvalidUpdateError(`Node "${name}" is neither a function nor a compiled graph.`);
  }
  // a compiled graph waits, as any graph run nested in a node does, before its first step (`Pregel.invoke`)
  const bound: PregelNode["bound"] = (input, config) => subgraph.invoke(input, config);
  // a runnable that takes the engine's continuation (ToolNode) keeps taking it through the node
  const fused = (subgraph as Partial<InvokesThen<unknown, unknown, unknown>>)[INVOKE_THEN];
  if (typeof fused === "function") {
    Object.defineProperty(bound, INVOKE_THEN, { value: fused.bind(subgraph) });
  }
  return bound;
}

/** `graph.nodes[name].invoke`: runs the node's own code alone, outside any graph run. */
function invokeAlone(bound: PregelNode["bound"]): CompiledStateGraphNode["invoke"] {
  return async (input, config) => bound(input, (config ?? {}) as LangGraphRunnableConfig<unknown>);
}

/** The hidden `__start__` node: `bound` reads the graph's input, `writers` write it to the state. */
export function startNode(
  bound: PregelNode["bound"],
  writers: CompiledStateGraphNode["writers"],
): CompiledStateGraphNode {
  return {
    name: START,
    triggers: [START],
    channels: [START],
    bound,
    writers,
    retryPolicy: undefined,
    cachePolicy: undefined,
    metadata: undefined,
    tags: [TAG_HIDDEN],
    hidden: true,
    subgraphs: undefined,
    invoke: invokeAlone(bound),
  };
}

interface PartialSchema {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown };
}

/**
 * For a Zod object state: the schema with every key optional (graph input and node updates carry
 * some of the keys). LangGraph.js validates both against it; input gets its defaults filled in.
 * A field with a reducer is checked against the reducer's update schema (the field's own schema
 * without one), as LangGraph.js does, so its `.default()` is the channel's start value only and
 * is not filled into the input too (where the reducer would fold it in a second time).
 */
function partialSchemaOf(schema: unknown): PartialSchema | undefined {
  const base = withReducerSchemas(schema);
  const partial = base?.partial;
  if (typeof partial !== "function") return undefined;
  const made = partial.call(base) as PartialSchema;
  return typeof made.safeParse === "function" ? made : undefined;
}

/**
 * For a Zod object given as the graph's `input` schema: the whole schema (fields with a reducer
 * checked against the reducer's update schema). LangGraph.js parses the graph input with it, so
 * its checks, transforms and defaults apply to what is written.
 */
function inputSchemaOf(schema: unknown): PartialSchema | undefined {
  const base = withReducerSchemas(schema) as Partial<PartialSchema> | undefined;
  return typeof base?.safeParse === "function" ? (base as PartialSchema) : undefined;
}

/** For a Zod object state: the schema with every key optional, reducers not applied (an `Overwrite`'s value). */
function plainPartialOf(schema: unknown): PartialSchema | undefined {
  const partial = isZodObjectSchema(schema) ? (schema as ZodObjectMethods).partial : undefined;
  if (typeof partial !== "function") return undefined;
  const made = partial.call(schema) as PartialSchema;
  return typeof made.safeParse === "function" ? made : undefined;
}

type ZodObjectMethods = { partial?: () => unknown; extend?: (shape: Record<string, unknown>) => unknown };

/** A Zod object schema whose reducer fields take the reducer's update schema. */
function withReducerSchemas(schema: unknown): ZodObjectMethods | undefined {
  if (!isZodObjectSchema(schema)) return undefined;
  let base = schema as ZodObjectMethods;
  const overrides: Record<string, unknown> = {};
  let overridden = false;
  for (const [key, field] of Object.entries(zodObjectShape(schema))) {
    const reducer =
      typeof field === "object" && field !== null ? schemaMetaRegistry.get(field)?.reducer : undefined;
    if (reducer === undefined) continue;
    overrides[key] = reducer.schema ?? stripZodDefault(field);
    overridden = true;
  }
  if (overridden && typeof base.extend === "function") base = base.extend(overrides) as typeof base;
  return base;
}

/** Where {@link withFieldCheck} keeps a state definition's check of written fields. */
const FIELD_CHECK = Symbol.for("agentgraph.stateFieldCheck");

/**
 * @internal Gives a state definition (channels by key) a check of each written field, as a
 * `StateSchema` validates its fields: `check(key, value)` returns the value to write (parsed) or
 * throws. `createAgent` uses it for the Zod fields of its middleware's and its own state schemas.
 */
export function withFieldCheck<T extends object>(
  definition: T,
  check: (key: string, value: unknown) => unknown,
): T {
  Object.defineProperty(definition, FIELD_CHECK, { value: check, enumerable: false, configurable: true });
  return definition;
}

/** For a StateSchema (or a definition given a check): validates one written field and returns the value to write. */
function fieldChecker(schema: unknown): ((key: string, value: unknown) => unknown) | undefined {
  if (StateSchema.isInstance(schema)) return (key, value) => schema.validateValue(key, value);
  if (typeof schema !== "object" || schema === null) return undefined;
  const attached = (schema as Record<symbol, unknown>)[FIELD_CHECK];
  return typeof attached === "function" ? (attached as (key: string, value: unknown) => unknown) : undefined;
}

/** The key of an `Overwrite`'s JSON form (`{ __overwrite__: value }`), which reducer channels take. */
const OVERWRITE_KEY = "__overwrite__";

/**
 * Parses a node's update with the Zod state's partial schema, as LangGraph.js does: only the keys
 * the update writes are taken from the result (defaults of the keys it leaves out are not
 * written), an `Overwrite`'s value is checked against the field's own schema (`values`, the
 * state's partial schema without the reducers' update schemas), and when several keys are
 * invalid the error is the first one's (LangGraph.js parses key by key). Keys outside the schema
 * (private channels that another node's `input` schema added) are written as they are, as
 * LangGraph.js validates only the state schema's keys; the object schema alone would strip them.
 */
function zodUpdateValidator(
  partial: PartialSchema,
  values: () => PartialSchema | undefined,
  shape: Record<string, unknown>,
): (update: Record<string, unknown>) => Record<string, unknown> {
  return (update) => {
    let toParse: Record<string, unknown> | undefined;
    let overwrites: Record<string, unknown> | undefined;
    for (const key in update) {
      if (!Object.hasOwn(update, key) || !Object.hasOwn(shape, key)) continue;
      const value = update[key];
      const overwrite = unwrapOverwrite(value);
      if (overwrite === undefined) {
        toParse ??= {};
        toParse[key] = value;
      } else {
        overwrites ??= {};
        overwrites[key] = overwrite.value;
      }
    }
    if (toParse === undefined && overwrites === undefined) return update;
    const parsed = toParse === undefined ? {} : parseUpdate(partial, toParse);
    const parsedOverwrites = overwrites === undefined ? {} : parseUpdate(values() ?? partial, overwrites);
    const out: Record<string, unknown> = {};
    for (const key in update) {
      if (!Object.hasOwn(update, key)) continue;
      const value = update[key];
      // an `Overwrite`'s parsed value is written in its JSON form, as LangGraph.js writes it
      if (Object.hasOwn(parsedOverwrites, key)) out[key] = { [OVERWRITE_KEY]: parsedOverwrites[key] };
      else out[key] = Object.hasOwn(parsed, key) ? parsed[key] : value;
    }
    return out;
  };
}

/** Parses some keys of an update; on failure throws the error of the first invalid key alone. */
function parseUpdate(schema: PartialSchema, update: Record<string, unknown>): Record<string, unknown> {
  const result = schema.safeParse(update);
  if (result.success) return result.data as Record<string, unknown>;
  for (const key in update) {
    const single = schema.safeParse({ [key]: update[key] });
    if (!single.success) throw single.error;
  }
  throw result.error;
}

function parseWith(schema: PartialSchema, value: unknown): unknown {
  const result = schema.safeParse(value);
  if (!result.success) throw result.error;
  return result.data;
}

/**
 * Validates the update of a `Command` given as the graph input, as LangGraph.js does: parsed by
 * the input schema (Zod) with only the keys it writes kept, or field by field (StateSchema).
 */
function commandInputValidator(
  schema: PartialSchema | undefined,
  check: ((key: string, value: unknown) => unknown) | undefined,
  stateKeys: ReadonlySet<string>,
): ((entries: [string, unknown][]) => [string, unknown][]) | undefined {
  if (schema !== undefined) {
    return (entries) => {
      const update = Object.fromEntries(entries);
      const parsed = parseWith(schema, update) as Record<string, unknown>;
      return Object.keys(update).map((key) => [key, Object.hasOwn(parsed, key) ? parsed[key] : update[key]]);
    };
  }
  if (check === undefined) return undefined;
  return (entries) => entries.map(([key, value]) => [key, stateKeys.has(key) ? check(key, value) : value]);
}

/**
 * Checks the fields of a graph input before the run starts (StateSchema state), as LangGraph.js
 * does, so an invalid input saves nothing; the `__start__` node's writers write the checked values.
 */
function inputFieldsChecker(
  check: ((key: string, value: unknown) => unknown) | undefined,
  inputKeys: ReadonlySet<string>,
): ((input: unknown) => unknown) | undefined {
  if (check === undefined) return undefined;
  return (input) => {
    if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
    const fields = input as Record<string, unknown>;
    for (const key in fields) {
      if (Object.hasOwn(fields, key) && inputKeys.has(key)) check(key, fields[key]);
    }
    return input;
  };
}

function startBound(input: unknown): unknown {
  // a falsy input other than null/undefined (0, "", false) starts the run without writes, as in LangGraph.js
  if (!input) return null;
  if (typeof input !== "object" || input === null || Array.isArray(input) || isCommand(input)) {
    if (isCommand(input)) return input;
    throw new InvalidUpdateError(
      `Expected node "__start__" to return an object or an array containing at least one Command object, received ${Array.isArray(input) ? "array" : typeof input}. The graph input must be an object of state keys: call invoke({ key: value }).`,
      { lc_error_code: "INVALID_GRAPH_NODE_RETURN_VALUE" },
    );
  }
  return input;
}

/** Builds the Pregel graph of a validated `StateGraph`. */
export function compileStateGraph(builder: AnyBuilder, options: CompileOptions): CompiledStateGraph {
  const defaults = builder.nodeDefaults;
  // a default errorHandler runs as one more node, of this compiled graph only
  const definitions = new Map(Object.entries(builder.nodes));
  let defaultHandler: string | undefined;
  if (defaults.errorHandler !== undefined) {
    if (definitions.has(DEFAULT_ERROR_HANDLER_NODE)) {
      throw new InvalidGraphError(
        `Cannot apply a default error handler: the reserved node name \`${DEFAULT_ERROR_HANDLER_NODE}\` is already in use. setNodeDefaults({ errorHandler }) registers a node with that name; rename the conflicting node.`,
      );
    }
    defaultHandler = DEFAULT_ERROR_HANDLER_NODE;
    definitions.set(defaultHandler, errorHandlerNode(defaults.errorHandler, undefined));
  }
  const channels: Record<string, BaseChannel> = { ...builder.channels };
  channels[START] = new EphemeralValue();
  channels[TASKS] = new Topic({ accumulate: false });
  for (const [name, def] of definitions) {
    channels[BRANCH_PREFIX + name] = def.defer ? new LastValueAfterFinish() : new EphemeralValue(false);
  }
  for (const [sources, target] of builder.waitingEdges) {
    const deferred = Object.hasOwn(builder.nodes, target) && builder.nodes[target]?.defer === true;
    channels[joinChannelName(sources, target)] = deferred
      ? new NamedBarrierValueAfterFinish(sources)
      : new NamedBarrierValue(sources);
  }

  const nodeNames = new Set(definitions.keys());
  const partial = partialSchemaOf(builder.stateSchema);
  let valuePartial: PartialSchema | undefined;
  const validate =
    partial === undefined
      ? undefined
      : zodUpdateValidator(
          partial,
          () => (valuePartial ??= plainPartialOf(builder.stateSchema)),
          zodObjectShape(builder.stateSchema),
        );
  // a StateSchema state validates each written field (input: by the input schema when that is one)
  const stateCheck = fieldChecker(builder.stateSchema);
  const inputCheck =
    fieldChecker(builder.inputSchema) ?? (isZodObjectSchema(builder.inputSchema) ? undefined : stateCheck);
  const stateKeySet = new Set(builder.stateKeys);
  const readKeys = builder.stateKeys;
  const spec = (name: string, keys: ReadonlySet<string>): WriterSpec => ({
    node: name,
    stateKeys: keys,
    nodes: nodeNames,
    edgeWrites: edgeWritesOf(builder, name),
    branches: compileBranches(builder.branches[name]),
    readKeys,
    validate: name === START ? undefined : validate,
    check: name === START ? inputCheck : stateCheck,
  });

  // the graph input: parsed by a Zod `input` schema when there is one, else by the Zod state's partial schema
  const inputSchema = inputSchemaOf(builder.inputSchema) ?? partial;
  const nodes: Record<string, CompiledStateGraphNode> = {};
  // a Zod input was parsed before the run started (`validateInput`)
  nodes[START] = startNode(startBound, makeWriters(spec(START, new Set(builder.inputKeys))));
  for (const [name, def] of definitions) {
    const triggers = [BRANCH_PREFIX + name];
    for (const [sources, target] of builder.waitingEdges) {
      if (target === name) triggers.push(joinChannelName(sources, target));
    }
    // a node without an `input` schema reads the state schema's keys, not the private channels
    // that input/output schemas or other nodes' `input` schemas added (as LangGraph.js)
    const inputKeys = def.input === undefined ? builder.schemaKeys : Object.keys(def.input);
    const bound = bindAction(name, def);
    const nodeSpec = spec(name, stateKeySet);
    nodes[name] = {
      name,
      triggers,
      channels: Object.fromEntries(inputKeys.map((k) => [k, k])),
      bound,
      invoke: invokeAlone(bound),
      writers: makeWriters(nodeSpec),
      commitTurns: commitTurnsOf(builder, name, nodeSpec.edgeWrites),
      isGraph: isPregel(def.action),
      edgeTriggers: nodeSpec.edgeWrites.filter(([channel]) => channel.startsWith(BRANCH_PREFIX)).length,
      retryPolicy: def.retryPolicy ?? defaults.retryPolicy,
      // an error handler's result is never cached; `cachePolicy: false` opts out of the default
      cachePolicy:
        def.isErrorHandler || def.cachePolicy === false
          ? undefined
          : (def.cachePolicy ?? defaults.cachePolicy),
      metadata: def.metadata,
      tags: def.tags,
      hidden: false,
      subgraphs: def.subgraphs,
      graphRun: graphRunOf(name, def.action),
      timeout: def.timeout ?? defaults.timeout,
      errorHandler: def.isErrorHandler ? undefined : (def.errorHandler ?? defaultHandler),
      isErrorHandler: def.isErrorHandler,
    };
  }

  return new CompiledStateGraph({
    builder,
    nodes,
    channels,
    inputChannels: START,
    outputChannels: builder.outputKeys,
    streamChannels: builder.stateKeys,
    stateKeys: builder.stateKeys,
    streamMode: "updates",
    name: options.name,
    contextSchema: builder.contextSchema,
    // parsed before anything runs or is saved, as LangGraph.js does: an input that is not an
    // object fails with the schema's error
    validateInput:
      inputSchema === undefined
        ? inputFieldsChecker(inputCheck, new Set(builder.inputKeys))
        : (input: unknown) => parseWith(inputSchema, input),
    commandInputUpdate: commandInputValidator(inputSchema, inputCheck, stateKeySet),
    compileOptions: options,
  });
}
