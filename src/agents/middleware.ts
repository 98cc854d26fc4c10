import type { SchemaContext, StreamTransformerFactory } from "../graph/index.js";
import { InvalidArgumentError } from "../shared/index.js";
import {
  type AgentMiddleware,
  type AgentTool,
  type AnyNodeHook,
  type HookFunction,
  type JumpTo,
  MIDDLEWARE_BRAND,
  type NodeHook,
  type StateOfSchema,
  type WrapModelCallHook,
  type WrapToolCallHook,
} from "./types.js";

/**
 * The context type a context schema describes (`Record<string, unknown>` for none).
 *
 * @example
 * ```ts
 * type C = ContextOfSchema<typeof Context>; // z.infer<typeof Context>
 * ```
 */
export type ContextOfSchema<C> = [C] extends [undefined] ? Record<string, unknown> : SchemaContext<C>;

/**
 * The context type a run passes for a context schema: the schema's input type (fields with a
 * Zod `.default()` may be left out); `Record<string, unknown>` for none.
 *
 * @example
 * ```ts
 * type C = ContextInputOfSchema<typeof Context>; // z.input<typeof Context>
 * ```
 */
export type ContextInputOfSchema<C> = [C] extends [undefined]
  ? Record<string, unknown>
  : C extends { _zod: { input: infer I } }
    ? I
    : C extends { _input: infer I; shape: object } // a Zod 3 (`zod/v3`) object
      ? I
      : SchemaContext<C>;

/**
 * A factory of a stream transformer for `streamEvents(…, { version: "v3" })` runs (LangGraph.js
 * `StreamTransformer`): `init()` returns the projection the run exposes on `run.extensions`,
 * `process(event)` sees each protocol event.
 *
 * @example
 * ```ts
 * const counter: MiddlewareStreamTransformerFactory = () => ({ init: () => ({}), process: () => true });
 * ```
 */
export type MiddlewareStreamTransformerFactory = StreamTransformerFactory;

/**
 * What {@link createMiddleware} takes: a unique `name`, optional `stateSchema` (a Zod 4 object
 * or an `Annotation.Root`; its fields join the agent's state, `_`-prefixed ones stay private),
 * `contextSchema`, `tools` (added to the agent's tools), and any hooks.
 *
 * @example
 * ```ts
 * const config: MiddlewareConfig = { name: "Logger", beforeModel: (state) => console.log(state.messages.length) };
 * ```
 */
export interface MiddlewareConfig<
  StateSchema = undefined,
  ContextSchema = undefined,
  Transformers extends
    readonly MiddlewareStreamTransformerFactory[] = readonly MiddlewareStreamTransformerFactory[],
  Tools extends readonly AgentTool[] = readonly AgentTool[],
> {
  name: string;
  stateSchema?: StateSchema;
  contextSchema?: ContextSchema;
  tools?: Tools;
  /** Once per invocation, before anything else. */
  beforeAgent?: NodeHook<StateOfSchema<StateSchema>, ContextOfSchema<ContextSchema>>;
  /** Before every model call. */
  beforeModel?: NodeHook<StateOfSchema<StateSchema>, ContextOfSchema<ContextSchema>>;
  /** After every model call (in reverse middleware order). */
  afterModel?: NodeHook<StateOfSchema<StateSchema>, ContextOfSchema<ContextSchema>>;
  /** Once per invocation, at the end (in reverse middleware order). */
  afterAgent?: NodeHook<StateOfSchema<StateSchema>, ContextOfSchema<ContextSchema>>;
  /** Around every model call (the first middleware outermost). */
  wrapModelCall?: WrapModelCallHook<StateOfSchema<StateSchema>, ContextOfSchema<ContextSchema>>;
  /** Around every tool call (the first middleware outermost). */
  wrapToolCall?: WrapToolCallHook<StateOfSchema<StateSchema>, ContextOfSchema<ContextSchema>>;
  /**
   * Stream transformer factories for the agent's v3 event streams, kept on the middleware as
   * given (LangChain.js compiles them in middleware order, before the agent's own
   * `streamTransformers`).
   */
  streamTransformers?: Transformers;
}

const NODE_HOOKS = ["beforeAgent", "beforeModel", "afterModel", "afterAgent"] as const;

/**
 * Makes a middleware for `createAgent`, as LangChain.js's `createMiddleware`. Node hooks
 * (`beforeAgent`, `beforeModel`, `afterModel`, `afterAgent`) become graph nodes named
 * `"<name>.before_model"` and so on; they return a state update (with `jumpTo` to route, when
 * declared in `canJumpTo`), a `Command` or nothing. `wrapModelCall` and `wrapToolCall` wrap
 * every model and tool call.
 *
 * @example
 * ```ts
 * import { createMiddleware } from "agentgraph/agents";
 * import { z } from "zod";
 *
 * const callLimit = createMiddleware({
 *   name: "CallLimit",
 *   stateSchema: z.object({ modelCalls: z.number().default(0) }),
 *   beforeModel: {
 *     canJumpTo: ["end"],
 *     hook: (state) => (state.modelCalls >= 3 ? { jumpTo: "end" } : { modelCalls: state.modelCalls + 1 }),
 *   },
 * });
 * ```
 */
export function createMiddleware<
  StateSchema = undefined,
  ContextSchema = undefined,
  const Transformers extends readonly MiddlewareStreamTransformerFactory[] = readonly [],
  const Tools extends readonly AgentTool[] = readonly [],
>(
  config: MiddlewareConfig<StateSchema, ContextSchema, Transformers, Tools>,
): AgentMiddleware<
  StateOfSchema<StateSchema>,
  ContextOfSchema<ContextSchema>,
  ContextInputOfSchema<ContextSchema>,
  Transformers,
  Tools
> {
  if (typeof config?.name !== "string" || config.name === "") {
    throw new InvalidArgumentError("createMiddleware needs a non-empty `name`.");
  }
  for (const key of NODE_HOOKS) {
    const hook = config[key];
    if (hook === undefined) continue;
    if (typeof hook === "function") continue;
    if (typeof hook !== "object" || hook === null || typeof hook.hook !== "function") {
      throw new InvalidArgumentError(
        `Middleware "${config.name}": ${key} must be a function or { hook, canJumpTo }.`,
      );
    }
  }
  const middleware: Record<string | symbol, unknown> = { [MIDDLEWARE_BRAND]: true, name: config.name };
  for (const key of [
    "stateSchema",
    "contextSchema",
    "tools",
    ...NODE_HOOKS,
    "wrapModelCall",
    "wrapToolCall",
    "streamTransformers",
  ] as const) {
    if (config[key] !== undefined) middleware[key] = config[key];
  }
  return middleware as unknown as AgentMiddleware<
    StateOfSchema<StateSchema>,
    ContextOfSchema<ContextSchema>,
    ContextInputOfSchema<ContextSchema>,
    Transformers,
    Tools
  >;
}

/** True for a middleware object (from this package or LangChain.js's brand). */
export function isAgentMiddleware(value: unknown): value is AgentMiddleware {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<symbol, unknown>)[MIDDLEWARE_BRAND] === true
  );
}

/** The function of a node hook. */
export function hookFunction(hook: NodeHook): HookFunction {
  return typeof hook === "function" ? hook : hook.hook;
}

/** The declared jump targets of a node hook (none for a bare function). */
export function hookTargets(hook: NodeHook | AnyNodeHook | undefined): readonly JumpTo[] {
  if (hook === undefined || typeof hook === "function") return [];
  return hook.canJumpTo ?? [];
}
