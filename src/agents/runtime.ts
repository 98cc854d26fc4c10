import { type BaseStore, type LangGraphRunnableConfig, zodObjectShape } from "../graph/index.js";
import { InvalidArgumentError } from "../shared/index.js";
import { isStandardSchema, type StandardSchemaLike } from "../tools/index.js";
import type { AgentRuntime } from "./types.js";

/**
 * The class of the frozen context a middleware's node hooks see (as in LangChain.js, so assigning
 * to it fails with `Cannot assign to read only property 'x' of object '#<AgentContext>'`).
 */
class AgentContext {}

/**
 * The runtime a middleware hook gets. With a `contextSchema`, `context` holds only that
 * schema's keys, validated by it (so its defaults apply); without one, the run's whole context.
 *
 * A node hook (`frozen`) gets its context as a frozen copy, as LangChain.js gives it one (an
 * `AgentContext`, empty when the run has no context), so writing to it fails there too rather
 * than changing the caller's object (a context that is a class instance is handed over as it
 * is). `wrapModelCall` gets the run's context itself, or the schema's parse of it as a plain
 * object, as in LangChain.js.
 */
export async function middlewareRuntime(
  config: LangGraphRunnableConfig<unknown>,
  contextSchema: unknown,
  middlewareName: string,
  frozen: boolean,
): Promise<AgentRuntime<unknown>> {
  let context: unknown = config.context;
  const run = config.context ?? {};
  if (frozen && isPlainObject(run)) context = Object.freeze(Object.assign(new AgentContext(), run));
  if (contextSchema !== undefined && isStandardSchema(contextSchema)) {
    const given = (config.context ?? {}) as Record<string, unknown>;
    const shape = zodObjectShape(contextSchema);
    const keys = Object.keys(shape);
    const relevant: Record<string, unknown> = {};
    if (keys.length === 0) Object.assign(relevant, given);
    for (const key of keys) if (key in given) relevant[key] = given[key];
    const result = await (contextSchema as StandardSchemaLike)["~standard"].validate(relevant);
    if (result.issues !== undefined) {
      // LangChain.js throws the schema's own parse error (a Zod schema's ZodError, with its
      // issues as the message); other schemas get an error naming the middleware
      const parse = (contextSchema as { parseAsync?: unknown }).parseAsync;
      if (typeof parse === "function")
        await (parse as (value: unknown) => Promise<unknown>).call(contextSchema, relevant);
      throw new InvalidArgumentError(
        `The context does not match the contextSchema of middleware "${middlewareName}": ${result.issues
          .map((issue) => issue.message)
          .join("; ")}`,
      );
    }
    context = frozen
      ? Object.freeze(Object.assign(new AgentContext(), result.value as object))
      : result.value;
  }
  return agentRuntime(config, context);
}

/**
 * A context given as an object literal, which a copy stands for; an instance of a class of the
 * caller's (whose methods a copy would lose) is handed over as it is.
 */
function isPlainObject(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Where a runtime keeps the config its `signal` is read from (not enumerable). */
const RUNTIME_CONFIG = Symbol("agentgraph.agentRuntime.config");

/**
 * The `signal` accessor of every runtime: read on demand (a task makes its AbortSignal only when
 * someone asks for it). One getter shared by all runtimes rather than one per object literal: a
 * literal's own getter gives each frozen runtime a hidden class of its own (about 700 bytes, and
 * slow property reads); with a shared one they all have the same.
 */
const SIGNAL: PropertyDescriptor = {
  get(this: { [RUNTIME_CONFIG]: LangGraphRunnableConfig<unknown> }): AbortSignal | undefined {
    return this[RUNTIME_CONFIG].signal;
  },
  enumerable: true,
  configurable: true,
};

/** A frozen runtime over a node's config. */
export function agentRuntime(
  config: LangGraphRunnableConfig<unknown>,
  context: unknown,
): AgentRuntime<unknown> {
  const runtime = {
    context,
    store: config.store as BaseStore | undefined,
    configurable: config.configurable,
    writer: config.writer,
    interrupt: config.interrupt,
  };
  Object.defineProperty(runtime, RUNTIME_CONFIG, { value: config });
  Object.defineProperty(runtime, "signal", SIGNAL);
  return Object.freeze(runtime) as AgentRuntime<unknown>;
}
