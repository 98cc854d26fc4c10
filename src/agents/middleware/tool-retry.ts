import { ToolMessage } from "../../messages/index.js";
import type { ToolCallHandler, ToolCallRequest, ToolCallResult } from "../../prebuilt/index.js";
import { InvalidArgumentError } from "../../shared/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentMiddleware } from "../types.js";
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

const NAME = "toolRetryMiddleware";

/**
 * Options of {@link toolRetryMiddleware}: the shared backoff options, which tools to retry,
 * and what to do when the retries run out.
 *
 * @example
 * ```ts
 * const config: ToolRetryMiddlewareConfig = { tools: ["search_database"], maxRetries: 4, onFailure: "continue" };
 * ```
 */
export interface ToolRetryMiddlewareConfig extends RetryOptions {
  /** Only retry these tools (names or tool objects); every tool when omitted. */
  tools?: ReadonlyArray<string | { readonly name: string }>;
  /**
   * When every attempt failed (or an error is not retried): `"continue"` (default) answers the
   * call with an error `ToolMessage` so the model can react; `"error"` rethrows the last error
   * (the run fails); a function turns the error into the `ToolMessage`'s content.
   * `"raise"` and `"return_message"` are deprecated spellings of `"error"` and `"continue"`.
   */
  onFailure?: "continue" | "error" | "raise" | "return_message" | ((error: Error) => string);
}

const ON_FAILURE = ["continue", "error", "raise", "return_message"] as const;

function toolFilterOf(tools: ToolRetryMiddlewareConfig["tools"]): Set<string> {
  const names = new Set<string>();
  for (const entry of tools ?? []) {
    if (typeof entry === "string") names.add(entry);
    else if (typeof entry === "object" && entry !== null && typeof entry.name === "string")
      names.add(entry.name);
    else
      throw new InvalidArgumentError(`Expected a tool name string or tool instance to be passed to ${NAME}`);
  }
  return names;
}

function normalizeOnFailure(
  value: ToolRetryMiddlewareConfig["onFailure"],
): "continue" | "error" | ((error: Error) => string) {
  if (value === "raise") {
    console.warn("⚠️ `onFailure: 'raise'` is deprecated. Use `onFailure: 'error'` instead.");
    return "error";
  }
  if (value === "return_message") {
    console.warn("⚠️ `onFailure: 'return_message'` is deprecated. Use `onFailure: 'continue'` instead.");
    return "continue";
  }
  return value ?? "continue";
}

/**
 * Retries failed tool calls with exponential backoff, as LangChain.js's
 * `toolRetryMiddleware`. Errors thrown by a tool (or by inner `wrapToolCall` middleware) are
 * retried `maxRetries` times, waiting `initialDelayMs * backoffFactor ** n` before retry `n`
 * (capped at `maxDelayMs`, ±25 % jitter). `tools` limits it to some tools; `retryOn` picks the
 * errors (a class list matches subclasses too). When the attempts run out, `onFailure` decides:
 * by default the call is answered with
 * `ToolMessage("Tool 'search' failed after 3 attempts with TypeError", { status: "error" })`.
 *
 * Interrupts and aborted runs are never retried.
 *
 * @throws {InvalidRetryConfigError} when an option is invalid (e.g. a negative `initialDelayMs`).
 *
 * @example
 * ```ts
 * import { createAgent, toolRetryMiddleware } from "agentgraph/agents";
 *
 * const agent = createAgent({
 *   model: "openai:gpt-4.1-mini",
 *   tools: [searchDatabase],
 *   middleware: [toolRetryMiddleware({ tools: ["search_database"], maxRetries: 4, initialDelayMs: 200 })],
 * });
 * ```
 */
export function toolRetryMiddleware(
  config: ToolRetryMiddlewareConfig = {},
): AgentMiddleware<Record<never, never>, Record<string, unknown>> {
  const issues: RetryConfigIssue[] = [];
  if (config.tools !== undefined && !Array.isArray(config.tools)) {
    issues.push({
      path: "tools",
      message: `Expected array, received ${typeof config.tools}`,
      code: "invalid_type",
      expected: "array",
      received: typeof config.tools,
    });
  }
  checkOnFailure(config.onFailure, ON_FAILURE, issues);
  const settings = resolveRetrySettings(config, issues);
  if (issues.length > 0) throw new InvalidRetryConfigError(issues);
  const onFailure = normalizeOnFailure(config.onFailure);
  const filter = toolFilterOf(config.tools);

  const fail = (toolName: string, toolCallId: string, error: Error, attempts: number): ToolMessage => {
    // the tool's own error, as LangChain.js rethrows it (errors leaving wrapToolCall middleware
    // fail the run; the tools node does not turn them into messages)
    if (onFailure === "error") throw error;
    const content =
      typeof onFailure === "function"
        ? onFailureText(onFailure, error)
        : `Tool '${toolName}' failed after ${attemptsText(attempts)} with ${error.constructor.name}`;
    return new ToolMessage({ content, tool_call_id: toolCallId, name: toolName, status: "error" });
  };

  return createMiddleware({
    name: NAME,
    wrapToolCall: async (request: ToolCallRequest, handler: ToolCallHandler): Promise<ToolCallResult> => {
      const toolName = request.tool?.name ?? request.toolCall.name;
      if (filter.size > 0 && !filter.has(toolName)) return handler(request);
      const toolCallId = request.toolCall.id ?? "";
      return retrying<ToolCallResult>(
        settings,
        request.runtime.signal,
        false,
        () => handler(request),
        (error, attempts) => fail(toolName, toolCallId, error, attempts),
      );
    },
  });
}
