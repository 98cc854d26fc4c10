import {
  isCommand,
  isZodObjectSchema,
  type LangGraphRunnableConfig,
  zodObjectShape,
} from "../graph/index.js";
import { InvalidArgumentError } from "../shared/index.js";
import { isStandardSchema, type StandardSchemaLike } from "../tools/index.js";
import { MiddlewareError } from "./errors.js";
import { hookFunction, hookTargets } from "./middleware.js";
import { middlewareRuntime } from "./runtime.js";
import { isPrivateKey } from "./state.js";
import type { AgentState, AnyAgentMiddleware, JumpTo, NodeHook } from "./types.js";

/** The four node hooks. */
export type HookKind = "beforeAgent" | "beforeModel" | "afterModel" | "afterAgent";

/** The node-name suffix of each hook kind (`"<name>.before_model"`). */
export const HOOK_SUFFIX: Readonly<Record<HookKind, string>> = {
  beforeAgent: "before_agent",
  beforeModel: "before_model",
  afterModel: "after_model",
  afterAgent: "after_agent",
};

/** The graph node name of a middleware hook. */
export function hookNodeName(middleware: AnyAgentMiddleware, kind: HookKind): string {
  return `${middleware.name}.${HOOK_SUFFIX[kind]}`;
}

type HookState = AgentState & { jumpTo?: JumpTo | undefined };

/**
 * The graph node of one middleware hook: runs the hook with the state and the middleware's
 * runtime, names the middleware in any error it throws, and validates `jumpTo` against the
 * hook's `canJumpTo` (strictly, as LangChain.js does).
 *
 * What the node writes follows LangChain.js: a hook that returns nothing writes only
 * `jumpTo: undefined` (so a `jumpTo` of the step before cannot steer this node's edge); a hook
 * that returns an update writes the state it was given back, namely `messages`, a
 * `structuredResponse` and the middleware's own state fields (`ownKeys`), with the update
 * on top and `jumpTo` as the update says. `updates` streams therefore show those keys too.
 */
export function createHookNode(
  middleware: AnyAgentMiddleware,
  kind: HookKind,
  ownKeys: readonly string[] = [],
) {
  const hook = middleware[kind] as unknown as NodeHook;
  const fn = hookFunction(hook);
  const allowed = hookTargets(hook);
  const privateFields = privateFieldSchemas(middleware.stateSchema);
  return async (state: HookState, config: LangGraphRunnableConfig<unknown>): Promise<unknown> => {
    const runtime = await middlewareRuntime(config, middleware.contextSchema, middleware.name, true);
    const view = privateFields.length === 0 ? state : await withPrivateDefaults(state, privateFields);
    let result: unknown;
    try {
      result = await fn(view, runtime);
    } catch (error) {
      throw MiddlewareError.fromNodeHook(error, middleware.name, kind);
    }
    // `false` too: the `condition && { … }` pattern returns it when the condition fails
    if (result === undefined || result === null || result === false) return { jumpTo: undefined };
    if (isCommand(result)) {
      const jump = (result.update as { jumpTo?: unknown } | undefined)?.jumpTo;
      if (isJump(jump)) validateJump(jump, allowed, kind, middleware.name);
      return result;
    }
    if (typeof result !== "object" || Array.isArray(result)) {
      throw new InvalidArgumentError(
        `Invalid return value from ${kind} in middleware "${middleware.name}": expected a state update object, a Command or nothing, got ${Array.isArray(result) ? "an array" : typeof result}.`,
      );
    }
    const update = result as { jumpTo?: unknown };
    const jumping = isJump(update.jumpTo);
    if (jumping) validateJump(update.jumpTo, allowed, kind, middleware.name);
    const written: Record<string, unknown> = { messages: view.messages };
    if (view.structuredResponse !== undefined) written.structuredResponse = view.structuredResponse;
    for (const key of ownKeys) {
      const value = (view as Record<string, unknown>)[key];
      if (value !== undefined) written[key] = value;
    }
    return Object.assign(written, update, { jumpTo: jumping ? update.jumpTo : undefined });
  };
}

/**
 * True when a hook's `jumpTo` asks for a jump: any string (checked against `canJumpTo`) or
 * another truthy value (rejected). `null`, `false` and the like mean "no jump", as in
 * LangChain.js, whose routers only follow a truthy `jumpTo`.
 */
function isJump(target: unknown): boolean {
  return typeof target === "string" || Boolean(target);
}

/** The `_` fields of a Zod state schema (never given as input, so their defaults are applied here). */
function privateFieldSchemas(schema: unknown): [string, StandardSchemaLike][] {
  if (!isZodObjectSchema(schema)) return [];
  return Object.entries(zodObjectShape(schema)).filter(
    (entry): entry is [string, StandardSchemaLike] => isPrivateKey(entry[0]) && isStandardSchema(entry[1]),
  );
}

/** The state with the Zod defaults of missing private fields filled in. */
async function withPrivateDefaults(
  state: HookState,
  fields: [string, StandardSchemaLike][],
): Promise<HookState> {
  let view: HookState | undefined;
  for (const [key, field] of fields) {
    if ((state as Record<string, unknown>)[key] !== undefined) continue;
    const result = await field["~standard"].validate(undefined);
    if (result.issues !== undefined || result.value === undefined) continue;
    view ??= { ...state };
    (view as Record<string, unknown>)[key] = result.value;
  }
  return view ?? state;
}

function validateJump(target: unknown, allowed: readonly JumpTo[], kind: HookKind, name: string): void {
  if (typeof target === "string" && (allowed as readonly string[]).includes(target)) return;
  const suggestion =
    allowed.length > 0
      ? `must be one of: ${allowed.join(", ")}.`
      : `no ${kind}.canJumpTo defined in middleware ${name}.`;
  throw new Error(`Invalid jump target: ${String(target)}, ${suggestion}`);
}
