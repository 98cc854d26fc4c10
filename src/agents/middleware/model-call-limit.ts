import { z } from "zod";
import { AIMessage } from "../../messages/index.js";
import { AgentGraphError, InvalidArgumentError } from "../../shared/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentMiddleware } from "../types.js";

const NAME = "ModelCallLimitMiddleware";

/**
 * What to do when a limit is reached: end the run with a message (`"end"`), or throw
 * (`"error"`).
 *
 * @example
 * ```ts
 * const behavior: ModelCallLimitExitBehavior = "error";
 * ```
 */
export type ModelCallLimitExitBehavior = "end" | "error";

/**
 * Options of {@link modelCallLimitMiddleware}. Each can also be given per run in the run's
 * `context` (`agent.invoke(input, { context: { runLimit: 2 } })`), which wins over the option.
 *
 * @example
 * ```ts
 * const options: ModelCallLimitMiddlewareConfig = { threadLimit: 10, runLimit: 3, exitBehavior: "end" };
 * ```
 */
export interface ModelCallLimitMiddlewareConfig {
  /** Most model calls over the whole thread (counted across runs; needs a checkpointer to persist). */
  threadLimit?: number;
  /** Most model calls in one run (one `invoke` or `stream`). */
  runLimit?: number;
  /**
   * `"end"` (default): instead of calling the model, end the run with an `AIMessage` saying
   * which limit was reached; `"error"`: throw a {@link ModelCallLimitMiddlewareError}.
   */
  exitBehavior?: ModelCallLimitExitBehavior;
}

/**
 * The state fields the model call limit keeps: calls made in the thread and in the current
 * run (reset when the run ends).
 *
 * @example
 * ```ts
 * const { threadModelCallCount } = await agent.invoke(input, config);
 * ```
 */
export interface ModelCallLimitState {
  threadModelCallCount: number;
  runModelCallCount: number;
}

/**
 * A model call limit was reached with `exitBehavior: "error"`. The message names the limit,
 * e.g. `Model call limits exceeded: run level call limit reached with 3 model calls`.
 *
 * @example
 * ```ts
 * try {
 *   await agent.invoke(input);
 * } catch (error) {
 *   if (error instanceof ModelCallLimitMiddlewareError) console.log(error.runCount);
 * }
 * ```
 */
export class ModelCallLimitMiddlewareError extends AgentGraphError {
  static override readonly brandName: string = "ModelCallLimitMiddlewareError";
  readonly threadLimit: number | undefined;
  readonly runLimit: number | undefined;
  readonly threadCount: number | undefined;
  readonly runCount: number | undefined;

  constructor(counts: { threadLimit?: number; runLimit?: number; threadCount?: number; runCount?: number }) {
    const hints: string[] = [];
    if (counts.threadLimit !== undefined && counts.threadCount !== undefined) {
      hints.push(`thread level call limit reached with ${counts.threadCount} model calls`);
    }
    if (counts.runLimit !== undefined && counts.runCount !== undefined) {
      hints.push(`run level call limit reached with ${counts.runCount} model calls`);
    }
    super(`Model call limits exceeded${hints.length > 0 ? `: ${hints.join(", ")}` : ""}`, {
      code: "MODEL_CALL_LIMIT_EXCEEDED",
    });
    this.threadLimit = counts.threadLimit;
    this.runLimit = counts.runLimit;
    this.threadCount = counts.threadCount;
    this.runCount = counts.runCount;
  }
}

const EXIT_BEHAVIORS: readonly string[] = ["end", "error", "throw"];

function checkExitBehavior(value: unknown, where: string): void {
  if (value === undefined || (typeof value === "string" && EXIT_BEHAVIORS.includes(value))) return;
  throw new InvalidArgumentError(
    `${NAME}: ${where}exitBehavior must be "end" or "error"; got ${JSON.stringify(value)}.`,
  );
}

function checkLimit(value: unknown, key: string, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || Number.isNaN(value)) {
    throw new InvalidArgumentError(`${NAME}: ${where}${key} must be a number; got ${JSON.stringify(value)}.`);
  }
  return value;
}

/** The limits given in the run's context (they override the options). */
function contextOverrides(context: unknown): ModelCallLimitMiddlewareConfig {
  if (typeof context !== "object" || context === null) return {};
  const given = context as Record<string, unknown>;
  const out: ModelCallLimitMiddlewareConfig = {};
  const threadLimit = checkLimit(given.threadLimit, "threadLimit", "context.");
  if (threadLimit !== undefined) out.threadLimit = threadLimit;
  const runLimit = checkLimit(given.runLimit, "runLimit", "context.");
  if (runLimit !== undefined) out.runLimit = runLimit;
  checkExitBehavior(given.exitBehavior, "context.");
  if (given.exitBehavior !== undefined) out.exitBehavior = given.exitBehavior as ModelCallLimitExitBehavior;
  return out;
}

// plain last-value fields, as in LangChain.js: every hook update writes them back (so `updates`
// streams show the counts)
const stateSchema = z.object({
  threadModelCallCount: z.number().default(0),
  runModelCallCount: z.number().default(0),
});

/**
 * Limits how many times the model is called, per thread and per run, as LangChain.js's
 * `modelCallLimitMiddleware`. Before each model call it compares the counts kept in the state
 * (`threadModelCallCount`, `runModelCallCount`) with the limits; at a limit, `exitBehavior:
 * "end"` (the default) skips the call and ends the run with
 * `AIMessage("Model call limits exceeded: run level call limit reached with 3 model calls")`,
 * and `"error"` throws {@link ModelCallLimitMiddlewareError}. The thread count persists with a
 * checkpointer; the run count is reset when the run ends. Limits and `exitBehavior` given in
 * the run's `context` override the options.
 *
 * @example
 * ```ts
 * import { createAgent, modelCallLimitMiddleware } from "agentgraph/agents";
 *
 * const agent = createAgent({
 *   model: "openai:gpt-4.1-mini",
 *   tools: [search],
 *   middleware: [modelCallLimitMiddleware({ threadLimit: 10, runLimit: 3 })],
 * });
 * await agent.invoke({ messages: [{ role: "user", content: "Research this." }] }, { context: { runLimit: 5 } });
 * ```
 */
export function modelCallLimitMiddleware(
  options: ModelCallLimitMiddlewareConfig = {},
): AgentMiddleware<ModelCallLimitState, Record<string, unknown>, ModelCallLimitMiddlewareConfig> {
  checkLimit(options.threadLimit, "threadLimit", "");
  checkLimit(options.runLimit, "runLimit", "");
  checkExitBehavior(options.exitBehavior, "");
  const middleware = createMiddleware({
    name: NAME,
    stateSchema,
    beforeModel: {
      canJumpTo: ["end"],
      hook: (state, runtime) => {
        const given = contextOverrides(runtime.context);
        let exitBehavior: string = given.exitBehavior ?? options.exitBehavior ?? "end";
        if (exitBehavior === "throw") {
          console.warn("The 'throw' exit behavior is deprecated. Please use 'error' instead.");
          exitBehavior = "error";
        }
        const threadLimit = given.threadLimit ?? options.threadLimit;
        const runLimit = given.runLimit ?? options.runLimit;
        const threadCount = state.threadModelCallCount ?? 0;
        const runCount = state.runModelCallCount ?? 0;
        let error: ModelCallLimitMiddlewareError | undefined;
        if (threadLimit !== undefined && threadLimit <= threadCount) {
          error = new ModelCallLimitMiddlewareError({ threadLimit, threadCount });
        } else if (runLimit !== undefined && runLimit <= runCount) {
          error = new ModelCallLimitMiddlewareError({ runLimit, runCount });
        }
        // under the limits LangChain.js returns the state it was given: the hook's update is
        // the written-back state (messages and the counts)
        if (error === undefined) return {};
        if (exitBehavior === "end") return { jumpTo: "end", messages: [new AIMessage(error.message)] };
        throw error;
      },
    },
    afterModel: (state) => ({
      threadModelCallCount: (state.threadModelCallCount ?? 0) + 1,
      runModelCallCount: (state.runModelCallCount ?? 0) + 1,
    }),
    afterAgent: () => ({ runModelCallCount: 0 }),
  });
  return middleware;
}
