import { AIMessage } from "../../messages/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentMiddleware, ModelCallHandler, ModelRequest } from "../types.js";
import {
  attemptsText,
  checkOnFailure,
  InvalidRetryConfigError,
  onFailureText,
  type RetryConfigIssue,
  type RetryOptions,
  resolveRetrySettings,
  retrying,
} from "./retry-options.js";

/**
 * Options of {@link modelRetryMiddleware}: the shared backoff options plus what to do when
 * the retries run out.
 *
 * @example
 * ```ts
 * const config: ModelRetryMiddlewareConfig = { maxRetries: 3, initialDelayMs: 500, onFailure: "error" };
 * ```
 */
export interface ModelRetryMiddlewareConfig extends RetryOptions {
  /**
   * When every attempt failed (or an error is not retried): `"continue"` (default) answers with
   * an `AIMessage` describing the failure, so the agent goes on; `"error"` rethrows the last
   * error; a function turns the error into the `AIMessage`'s content.
   */
  onFailure?: "continue" | "error" | ((error: Error) => string);
}

const ON_FAILURE = ["continue", "error"] as const;

/**
 * Retries failed model calls with exponential backoff, as LangChain.js's
 * `modelRetryMiddleware`. Each attempt goes through the rest of the middleware onion to the
 * model; the wait before retry `n` is `initialDelayMs * backoffFactor ** n` (capped at
 * `maxDelayMs`, ±25 % jitter, never shorter than a server's `retry-after`). Errors that
 * `retryOn` rejects are not retried. When the attempts run out, `onFailure` decides: by
 * default the agent gets `AIMessage("Model call failed after 3 attempts with TypeError: …")`.
 *
 * The request is passed on with `modelSettings.maxRetries: 0` (unless set), so that providers
 * honouring it leave the retrying to this middleware. Interrupts and aborted runs are never
 * retried.
 *
 * @throws {InvalidRetryConfigError} when an option is invalid (e.g. a negative `maxRetries`).
 *
 * @example
 * ```ts
 * import { createAgent, modelRetryMiddleware } from "agentgraph/agents";
 *
 * const agent = createAgent({
 *   model: "openai:gpt-4.1-mini",
 *   middleware: [modelRetryMiddleware({ maxRetries: 3, initialDelayMs: 500, onFailure: "error" })],
 * });
 * ```
 */
export function modelRetryMiddleware(
  config: ModelRetryMiddlewareConfig = {},
): AgentMiddleware<Record<never, never>, Record<string, unknown>> {
  const issues: RetryConfigIssue[] = [];
  checkOnFailure(config.onFailure, ON_FAILURE, issues);
  const settings = resolveRetrySettings(config, issues);
  if (issues.length > 0) throw new InvalidRetryConfigError(issues);
  const onFailure = config.onFailure ?? "continue";

  const fail = (error: Error, attempts: number): AIMessage => {
    if (onFailure === "error") throw error;
    const content =
      typeof onFailure === "function"
        ? onFailureText(onFailure, error)
        : `Model call failed after ${attemptsText(attempts)} with ${error.constructor.name}: ${error.message}`;
    return new AIMessage({ content });
  };

  return createMiddleware({
    name: "modelRetryMiddleware",
    wrapModelCall: async (request: ModelRequest, handler: ModelCallHandler) => {
      const delegated: ModelRequest = {
        ...request,
        modelSettings: { maxRetries: 0, ...request.modelSettings },
      };
      return retrying(settings, request.runtime.signal, true, () => handler(delegated), fail);
    },
  });
}
