import { isGraphBubbleUp } from "../../graph/index.js";
import { type MessageContent, ToolMessage } from "../../messages/index.js";
import type { ToolCallHandler, ToolCallRequest, ToolCallResult } from "../../prebuilt/index.js";
import { InvalidArgumentError } from "../../shared/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentMiddleware } from "../types.js";

/**
 * Decides what the model is told when a tool call fails: the content of the error
 * `ToolMessage`, or nothing to let the error propagate unchanged.
 *
 * @example
 * ```ts
 * const onError: ToolErrorHandler = (error, request) =>
 *   error instanceof TypeError ? `Tool '${request.toolCall.name}' failed with TypeError.` : undefined;
 * ```
 */
export type ToolErrorHandler = (
  error: unknown,
  request: ToolCallRequest,
) => MessageContent | undefined | void | Promise<MessageContent | undefined> | Promise<void>;

/**
 * Options of {@link toolErrorMiddleware}.
 *
 * @example
 * ```ts
 * const config: ToolErrorMiddlewareConfig = { onError: () => "The search failed.", tools: ["search"] };
 * ```
 */
export interface ToolErrorMiddlewareConfig {
  /** Returns the error message's content, or nothing to rethrow the error. */
  onError: ToolErrorHandler;
  /** Only handle errors of these tools (names or tool objects); every tool when omitted. */
  tools?: ReadonlyArray<string | { readonly name: string }> | undefined;
}

/**
 * Turns chosen tool errors into error `ToolMessage`s, as LangChain.js's `toolErrorMiddleware`.
 * Handling is opt-in: when a tool (or an inner `wrapToolCall` middleware) throws, `onError`
 * is asked; the content it returns answers the call as
 * `ToolMessage({ content, tool_call_id, name, status: "error" })`, and returning nothing
 * rethrows the original error. Interrupts and parent-graph commands always propagate and
 * are never passed to `onError`. It does not retry: put `toolRetryMiddleware({ onFailure:
 * "error" })` after it to retry first.
 *
 * @throws {InvalidArgumentError} when `onError` is not a function.
 *
 * @example
 * ```ts
 * import { createAgent, toolErrorMiddleware } from "agentgraph/agents";
 *
 * const agent = createAgent({
 *   model: "openai:gpt-4.1-mini",
 *   tools: [searchTool],
 *   middleware: [
 *     toolErrorMiddleware({
 *       onError: (error, request) =>
 *         error instanceof TypeError ? `Tool '${request.toolCall.name}' failed with TypeError.` : undefined,
 *     }),
 *   ],
 * });
 * ```
 */
export function toolErrorMiddleware(
  config: ToolErrorMiddlewareConfig,
): AgentMiddleware<Record<never, never>, Record<string, unknown>> {
  if (typeof config?.onError !== "function") {
    throw new InvalidArgumentError(
      "toolErrorMiddleware needs an `onError(error, request)` function that returns the error message's content (or nothing to rethrow).",
    );
  }
  const filter = config.tools?.map((t) => (typeof t === "string" ? t : t.name));
  return createMiddleware({
    name: "toolErrorMiddleware",
    wrapToolCall: async (request: ToolCallRequest, handler: ToolCallHandler): Promise<ToolCallResult> => {
      const toolName = request.tool?.name ?? request.toolCall.name;
      if (filter !== undefined && !filter.includes(toolName)) return handler(request);
      try {
        return await handler(request);
      } catch (error) {
        if (isGraphBubbleUp(error)) throw error;
        const content = await config.onError(error, request);
        if (content === undefined) throw error;
        return new ToolMessage({
          content,
          tool_call_id: request.toolCall.id ?? "",
          name: toolName,
          status: "error",
        });
      }
    },
  });
}
