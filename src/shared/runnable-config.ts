import { getAsyncContext } from "./async-context.js";
import type { CallbackHandler } from "./callbacks.js";
import { copyOf, mergeOf } from "./object-copy.js";

/**
 * The configuration every invocable object accepts, shaped like LangChain.js `RunnableConfig`
 * so code written for it ports unchanged.
 *
 * Inside a graph node, the node's config is also the ambient context: models and tools
 * called there without a config inherit its `callbacks`, `tags`, `metadata` and `signal`.
 */
export interface RunnableConfig<Configurable extends Record<string, unknown> = Record<string, unknown>> {
  /** Tags for this call and its children (`"nostream"` keeps a model call out of `messages` streams). */
  tags?: string[];
  /** Metadata for this call and its children. */
  metadata?: Record<string, unknown>;
  /** Handlers told about model and tool calls made under this config. */
  callbacks?: CallbackHandler[];
  /** Name reported to callbacks for this call. */
  runName?: string;
  /** Id for this call (a fresh one is made when absent). */
  runId?: string;
  /** Free-form per-call settings (`thread_id`, `checkpoint_id`, …). */
  configurable?: Configurable;
  /** Maximum number of supersteps a graph may run. */
  recursionLimit?: number;
  /** Maximum number of parallel tasks. */
  maxConcurrency?: number;
  /** Timeout in milliseconds. */
  timeout?: number;
  /** Cancels the call when aborted. */
  signal?: AbortSignal;
}

/** The config of the graph task (or other scope) the caller is running in, if any. */
export function getAmbientConfig(): RunnableConfig | undefined {
  return getAsyncContext<RunnableConfig>();
}

/**
 * Merges an explicit config over the ambient one the way LangChain.js does: tags are
 * concatenated (see {@link joinTags}), metadata and configurable are shallow-merged, callbacks and signal are
 * inherited unless given, and `runName`/`runId` are never inherited.
 */
export function resolveConfig(explicit?: RunnableConfig): RunnableConfig {
  const parent = getAmbientConfig();
  if (parent === undefined) return explicit ?? {};
  // built without `delete` (which would leave a slow, dictionary-mode object for every later
  // read and copy of the config) and without a rest pattern (V8's slow path); the parent's run
  // name and id are not inherited (a key left undefined reads as absent)
  if (explicit === undefined) {
    const own: RunnableConfig = copyOf(parent);
    if (own.runName !== undefined) (own as Record<string, unknown>).runName = undefined;
    if (own.runId !== undefined) (own as Record<string, unknown>).runId = undefined;
    inheritSignal(own, parent);
    return own;
  }
  // the ambient config passed on explicitly (a node's own config) keeps its run name, as
  // LangChain.js's ensureConfig keeps whatever the given config holds
  if (explicit === parent) return copyOf(parent);
  // merged with mergeOf rather than spreads (see object-copy.ts)
  const out: RunnableConfig = mergeOf(parent, explicit);
  if (explicit.runName === undefined && parent.runName !== undefined) {
    (out as Record<string, unknown>).runName = undefined;
  }
  if (explicit.runId === undefined && parent.runId !== undefined)
    (out as Record<string, unknown>).runId = undefined;
  if (parent.tags !== undefined || explicit.tags !== undefined)
    out.tags = joinTags(parent.tags, explicit.tags);
  // a config built from the parent's (a tool's, from its node's) holds the parent's own objects:
  // those are kept as they are, as a config given without them keeps them
  if (explicit.metadata !== parent.metadata) out.metadata = mergeOf(parent.metadata, explicit.metadata);
  if (explicit.configurable !== parent.configurable) {
    out.configurable = mergeOf(parent.configurable, explicit.configurable);
  }
  if (explicit.signal === undefined) inheritSignal(out, parent);
  return out;
}

/**
 * Gives `config` the ambient config's signal when copying left it out: a graph task's signal can
 * be made on first read (a getter, which copies skip), and a call made in the node still runs
 * under it, as in LangChain.js (where a model's `handleChatModelStart` shows it in `options`).
 */
function inheritSignal(config: RunnableConfig, parent: RunnableConfig): void {
  if (config.signal !== undefined) return;
  const signal = parent.signal;
  if (signal !== undefined) config.signal = signal;
}

/**
 * The ambient tags, then the explicit ones, each once. A tag in both comes where the explicit
 * config puts it, as LangChain.js's callback manager adds a call's tags (removing, then
 * appending them): `joinTags(["run"], ["mine", "run"])` is `["mine", "run"]`.
 */
function joinTags(parent: readonly string[] | undefined, explicit: readonly string[] | undefined): string[] {
  // the ambient tags given again (an agent's model call passes its node's): nothing to reorder
  if (explicit === undefined || explicit.length === 0 || explicit === parent) return [...new Set(parent)];
  if (parent === undefined) return [...new Set(explicit)];
  return [...new Set([...parent.filter((tag) => !explicit.includes(tag)), ...explicit])];
}

/**
 * Records in a run's `metadata` what LangChain.js's `ensureConfig` records there: a
 * `configurable.model` string as `model`, and the call's `timeout` (milliseconds) as
 * `timeoutMs`, each unless the metadata sets it already. Graph runs, their `streamEvents` and
 * chat-model calls all report these keys.
 *
 * @example
 * ```ts
 * const metadata: Record<string, unknown> = {};
 * recordEnsuredMetadata(metadata, { model: "gpt-4.1" }, 5_000); // { model: "gpt-4.1", timeoutMs: 5000 }
 * ```
 */
export function recordEnsuredMetadata(
  metadata: Record<string, unknown>,
  configurable: Record<string, unknown> | undefined,
  timeout: unknown,
): void {
  const model = configurable?.model;
  if (typeof model === "string" && metadata.model === undefined) metadata.model = model;
  if (typeof timeout === "number" && metadata.timeoutMs === undefined) metadata.timeoutMs = timeout;
}
