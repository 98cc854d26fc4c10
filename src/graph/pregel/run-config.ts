import { getAsyncContext, InvalidArgumentError, mergeOf, recordEnsuredMetadata } from "../../shared/index.js";
import { CHECKPOINT_NAMESPACE_SEPARATOR, GraphValueError, InvalidContextError } from "../core/index.js";
import {
  CURRENT_TASK,
  type LangGraphRunnableConfig,
  PARENT_RUN,
  type ParentRunLink,
  type RetryPolicy,
} from "../loop/index.js";
import type { StreamMode } from "../stream/index.js";
import { MessagesStreamHandler } from "./messages-stream.js";

/** Default number of supersteps a run may take. */
export const DEFAULT_RECURSION_LIMIT = 25;

/** Options of `invoke()` and `stream()`: a `RunnableConfig` plus the run's own settings. */
export interface PregelOptions<Context = Record<string, unknown>, Modes = StreamMode | StreamMode[]>
  extends LangGraphRunnableConfig<Context> {
  /** What to stream: one mode, or several (chunks become `[mode, payload]`). */
  streamMode?: Modes;
  /** Also stream what nested graphs do (chunks become `[namespace, …]`). */
  subgraphs?: boolean;
  /** Print each superstep to the console. */
  debug?: boolean;
  /**
   * The state keys the run returns and streams (`values` and `updates`), instead of the graph's
   * output keys; one key (a string) makes the result that key's value, as in LangGraph.js.
   */
  outputKeys?: string | string[];
  /** Retry policy of nodes that have none of their own. */
  retryPolicy?: RetryPolicy;
  /** Pause before these nodes (needs a checkpointer). */
  interruptBefore?: string[] | "*";
  /** Pause after these nodes (needs a checkpointer). */
  interruptAfter?: string[] | "*";
  /** When checkpoints are written: after each step and waited for (`sync`), in the background (`async`), or at the end (`exit`). */
  durability?: "sync" | "async" | "exit";
  /** Node cache for this run (overrides the graph's). */
  cache?: unknown;
  /**
   * `"text/event-stream"`: `stream()` yields the chunks as Server-Sent Events bytes
   * (`event: <mode>[|<namespace…>]`, `data: <JSON>`), as LangGraph.js does.
   */
  encoding?: "text/event-stream";
}

/** A schema that can validate the run context (a Zod schema or any object with `parse`). */
export interface ContextValidator {
  parse(value: unknown): unknown;
}

/** A run's resolved settings. */
export interface ResolvedRun {
  readonly config: LangGraphRunnableConfig<unknown>;
  readonly recursionLimit: number;
  /** Namespace of the graph in this run (`""` for a root run). */
  readonly parentNs: string;
  /** Set when the run is nested in a task of another graph's run. */
  readonly parentLink: ParentRunLink | undefined;
  /**
   * The caller's `runId`: the id of this run alone (chain callbacks hear the graph start with it,
   * graph callback handlers hear it). Not part of `config`, so that nodes, nested graphs and the
   * configs of checkpoints never carry it, as in LangGraph.js.
   */
  readonly runId: string | undefined;
  /** The task a nested run's config comes from (see {@link nestedRunNamespace}). */
  readonly task?: object | undefined;
  /**
   * The metadata of the node a nested run was given its own `metadata` in (which replaced it):
   * LangChain.js's callbacks still hear the run with the node's metadata under its own.
   */
  readonly nodeMetadata?: Record<string, unknown> | undefined;
}

/**
 * The checkpoint namespace of a run: its task's, as LangGraph.js gives it, with `|1`, `|2`… for the
 * second and later graphs one task runs, so that they neither share checkpoints nor stream
 * namespaces. `claim` counts the run (once per run; a look ahead does not).
 */
export function nestedRunNamespace(run: ResolvedRun, claim: boolean): string {
  const task = run.task;
  if (task === undefined) return run.parentNs;
  const runs = nestedRunCounts.get(task) ?? 0;
  if (claim) nestedRunCounts.set(task, runs + 1);
  return runs === 0 ? run.parentNs : `${run.parentNs}${CHECKPOINT_NAMESPACE_SEPARATOR}${runs}`;
}

/** How many graphs each task (the task a nested run's config comes from) has run so far. */
const nestedRunCounts = new WeakMap<object, number>();

/**
 * The config keys a run reads for itself (from its options, or a parent node's config), which
 * its nodes never get. Keys of no config (`subgraphs`, `debug`, `retryPolicy`, `cache`,
 * `encoding`, a model option) are not kept in the first place (see {@link CONFIG_KEYS}).
 */
const RUN_ONLY_KEYS = [
  "streamMode",
  "outputKeys",
  "interruptBefore",
  "interruptAfter",
  "durability",
  "runName",
  "runId",
  "executionInfo",
  "writer",
] as const;

/**
 * The keys of a call's (or `withConfig`'s) config a run keeps, as LangGraph.js lists them: any other
 * key (say a model's call option such as `stop`) is not passed on to the nodes. `timeout` is
 * read from the call's options (see {@link applyRunTimeout}).
 */
const CONFIG_KEYS = new Set([
  "tags",
  "metadata",
  "callbacks",
  "runName",
  "maxConcurrency",
  "recursionLimit",
  "configurable",
  "runId",
  "outputKeys",
  "streamMode",
  "store",
  "writer",
  "interrupt",
  "context",
  "interruptBefore",
  "interruptAfter",
  "checkpointDuring",
  "durability",
  "signal",
  "heartbeat",
  "executionInfo",
  "serverInfo",
  "control",
  "timeout",
]);

/**
 * Resolves the config of a run: the ambient task config (when this graph runs inside another
 * graph's node), then the graph's `withConfig` defaults, then the explicit options, as
 * LangChain.js merges configs (tags concatenated, metadata and configurable merged).
 */
export function resolveRunConfig(
  defaults: LangGraphRunnableConfig | undefined,
  options: PregelOptions<unknown> | undefined,
  contextSchema: ContextValidator | undefined,
): ResolvedRun {
  const ambient = getAsyncContext<LangGraphRunnableConfig>();
  if (options === undefined && defaults === undefined && ambient === undefined) {
    // without a context, LangGraph.js checks the (empty) configurable against the contextSchema
    if (contextSchema !== undefined) validateContext(contextSchema, {});
    return defaultRun();
  }
  const explicitLink = (options as Record<symbol, unknown> | undefined)?.[PARENT_RUN] as
    | ParentRunLink
    | undefined;
  const ambientLink = (ambient as Record<symbol, unknown> | undefined)?.[PARENT_RUN] as
    | ParentRunLink
    | undefined;
  const parentLink = explicitLink ?? ambientLink;
  const inherited = parentLink !== undefined && explicitLink === undefined ? ambient : undefined;

  const config: LangGraphRunnableConfig<unknown> = {};
  let nodeMetadata: Record<string, unknown> | undefined;
  if (inherited !== undefined) {
    mergeInto(config, inherited);
    // a graph run inside a node with its own `metadata` or `tags` takes them instead of the
    // node's, as in LangGraph.js (LangChain.js's `ensureConfig` replaces those keys of the ambient
    // config; `configurable` is merged)
    if (options?.metadata !== undefined) {
      nodeMetadata = config.metadata;
      delete config.metadata;
    }
    if (options?.tags !== undefined) delete config.tags;
  }
  for (const source of [defaults, options] as (LangGraphRunnableConfig<unknown> | undefined)[]) {
    if (source === undefined) continue;
    mergeInto(config, source);
  }
  dropForeignKeys(config, defaults, inherited);
  dropForeignKeys(config, options, inherited);
  for (const key of RUN_ONLY_KEYS) delete (config as Record<string, unknown>)[key];
  // the run's name is the call's or the graph's `withConfig` one, never a parent node's
  const runName = options?.runName ?? defaults?.runName;
  if (runName !== undefined) config.runName = runName;

  const metadata: Record<string, unknown> = { ls_integration: "langgraph", ...config.metadata };
  // only the call's own `timeout` limits the run, as in LangGraph.js (where a `withConfig`
  // default is never turned into a signal, and nodes' configs carry none)
  if (config.timeout !== undefined) delete config.timeout;
  const configurable = config.configurable ?? {};
  if (options?.timeout !== undefined) applyRunTimeout(options.timeout, config);
  // a model named in `configurable` and the timeout are the run's metadata too, as LangChain.js's
  // `ensureConfig` records them (for tracing), unless set there
  recordEnsuredMetadata(metadata, configurable, options?.timeout);
  // these `configurable` ids are the run's metadata too (as in LangGraph.js), unless set there
  for (const key of METADATA_FROM_CONFIGURABLE) {
    if (!(key in metadata) && configurable[key] !== undefined) metadata[key] = configurable[key];
  }
  config.metadata = metadata;

  const given: unknown = config.recursionLimit;
  // any number from 1 up, as in LangGraph.js (`Infinity`: no limit), which compares the value
  // with `<`: a numeric string counts as its number, and null as 0
  const limit =
    given === undefined ? DEFAULT_RECURSION_LIMIT : typeof given === "number" ? given : Number(given);
  if (Number.isNaN(limit) || limit < 1) {
    throw new GraphValueError(`Passed "recursionLimit" must be at least 1. It was ${String(given)}.`);
  }
  config.recursionLimit = limit;

  if (contextSchema !== undefined && config.context !== undefined && inherited?.context !== config.context) {
    // Validated, but passed on as given (as LangGraph.js does: schema defaults are not applied).
    validateContext(contextSchema, config.context);
  } else if (contextSchema !== undefined && config.context === undefined) {
    // LangGraph.js's legacy rule: a run without `context` has its `configurable` checked instead
    validateContext(contextSchema, configurable);
  }

  const parentNs = parentLink === undefined ? "" : String(configurable.checkpoint_ns ?? "");
  if (nodeMetadata !== undefined) {
    for (const handler of config.callbacks ?? []) {
      if (handler instanceof MessagesStreamHandler) handler.inheritMetadata(parentNs, nodeMetadata);
    }
  }
  const source = explicitLink === undefined ? ambient : options;
  const task =
    parentLink === undefined ? undefined : (source as Record<symbol, unknown> | undefined)?.[CURRENT_TASK];
  if (parentLink === undefined && config.configurable !== undefined) {
    const { checkpoint_ns: ns, ...rest } = config.configurable;
    // A root run given a subgraph's checkpoint config (`graph.stream(null, subSnapshot.config)`)
    // starts from the root checkpoint that subgraph checkpoint belongs to (`checkpoint_map[""]`),
    // as LangGraph.js does: the subgraph's own id names no root checkpoint.
    if (ns !== undefined && ns !== "") {
      const root = (rest.checkpoint_map as Record<string, unknown> | undefined)?.[""];
      if (typeof root === "string") rest.checkpoint_id = root;
      else delete rest.checkpoint_id;
    }
    config.configurable = rest;
  }
  return {
    config,
    recursionLimit: limit,
    parentNs,
    parentLink,
    runId: options?.runId,
    task: typeof task === "object" && task !== null ? task : undefined,
    nodeMetadata,
  };
}

/**
 * A run's `timeout` (milliseconds, as in LangChain.js's `RunnableConfig`) becomes part of its
 * `signal`: the run, and every node through `config.signal`, is aborted with a `TimeoutError`
 * once it elapses (or as soon as the caller's own signal aborts). As LangChain.js's
 * `ensureConfig` does, the key is not passed on (so nested runs do not stack timers); the limit
 * is recorded as `metadata.timeoutMs` (see `recordEnsuredMetadata`).
 */
function applyRunTimeout(ms: unknown, config: LangGraphRunnableConfig<unknown>): void {
  if (typeof ms !== "number" || !(ms > 0)) {
    throw new InvalidArgumentError(
      `Timeout must be a positive number (got ${String(ms)}): \`timeout\` is the run's time limit in milliseconds; leave it out for no limit.`,
    );
  }
  const timer = AbortSignal.timeout(ms);
  config.signal = config.signal === undefined ? timer : AbortSignal.any([config.signal, timer]);
}

/** The `configurable` keys LangGraph.js copies into a run's metadata. */
export const METADATA_FROM_CONFIGURABLE = [
  "thread_id",
  "checkpoint_id",
  "checkpoint_ns",
  "task_id",
  "run_id",
  "assistant_id",
  "graph_id",
] as const;

let cachedDefaultRun: ResolvedRun | undefined;

/** The resolved settings of a run with no options at all (shared: nothing downstream mutates them). */
function defaultRun(): ResolvedRun {
  cachedDefaultRun ??= {
    config: { metadata: { ls_integration: "langgraph" }, recursionLimit: DEFAULT_RECURSION_LIMIT },
    recursionLimit: DEFAULT_RECURSION_LIMIT,
    parentNs: "",
    parentLink: undefined,
    runId: undefined,
  };
  return cachedDefaultRun;
}

/**
 * `base` with `extra` laid over it, as LangChain.js's `mergeConfigs` does: `configurable` and
 * `metadata` are merged key by key, tags and callbacks joined; other keys of `extra` win.
 */
export function mergeRunConfigs(
  base: LangGraphRunnableConfig<unknown> | undefined,
  extra: LangGraphRunnableConfig<unknown>,
): LangGraphRunnableConfig<unknown> {
  const merged: LangGraphRunnableConfig<unknown> = {};
  if (base !== undefined) mergeInto(merged, base);
  mergeInto(merged, extra);
  return merged;
}

function mergeInto(target: LangGraphRunnableConfig<unknown>, source: LangGraphRunnableConfig<unknown>): void {
  const tags = target.tags;
  const metadata = target.metadata;
  const configurable = target.configurable;
  const callbacks = target.callbacks;
  Object.assign(target, source);
  if (tags !== undefined && source.tags !== undefined) target.tags = [...new Set([...tags, ...source.tags])];
  else if (tags !== undefined) target.tags = tags;
  // merged with mergeOf rather than spreads (see object-copy.ts in shared/)
  if (metadata !== undefined) target.metadata = mergeOf(metadata, source.metadata);
  if (configurable !== undefined) target.configurable = mergeOf(configurable, source.configurable);
  if (callbacks !== undefined && source.callbacks !== undefined && callbacks !== source.callbacks) {
    target.callbacks = [...callbacks, ...source.callbacks.filter((h) => !callbacks.includes(h))];
  } else if (callbacks !== undefined) {
    target.callbacks = callbacks;
  }
}

/**
 * Takes out of `config` the keys of `source` that are no config keys ({@link CONFIG_KEYS}), as
 * LangGraph.js skips them; the ambient task config's own value of such a key stays.
 */
function dropForeignKeys(
  config: LangGraphRunnableConfig<unknown>,
  source: LangGraphRunnableConfig<unknown> | undefined,
  inherited: LangGraphRunnableConfig<unknown> | undefined,
): void {
  if (source === undefined) return;
  const kept = config as Record<string, unknown>;
  for (const key in source) {
    if (CONFIG_KEYS.has(key)) continue;
    if (inherited !== undefined && Object.hasOwn(inherited, key))
      kept[key] = (inherited as Record<string, unknown>)[key];
    else delete kept[key];
  }
}

function validateContext(schema: ContextValidator, context: unknown): void {
  try {
    schema.parse(context);
  } catch (error) {
    const issues = (error as { issues?: { path?: unknown[]; message?: string }[] }).issues;
    const detail =
      Array.isArray(issues) && issues.length > 0
        ? issues.map((i) => `${(i.path ?? []).join(".") || "(root)"}: ${i.message ?? "invalid"}`).join("; ")
        : error instanceof Error
          ? error.message
          : String(error);
    throw new InvalidContextError(
      `The run context does not match the graph's contextSchema: ${detail}. Pass a matching "context" to invoke()/stream().`,
      { cause: error },
    );
  }
}

/** Validates `maxConcurrency`. */
export function checkMaxConcurrency(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidArgumentError(`"maxConcurrency" must be a positive integer (got ${String(value)}).`);
  }
  return value;
}
