import { isGraphBubbleUp } from "../../graph/index.js";
import { initChatModel } from "../../models/index.js";
import { isAbortError } from "../../shared/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentChatModel, AgentMiddleware, ModelCallHandler, ModelRequest } from "../types.js";

/**
 * A fallback model: a chat model, or a `"provider:model"` string (resolved with
 * `initChatModel` the first time it is needed).
 *
 * @example
 * ```ts
 * const fallbacks: FallbackModel[] = ["openai:gpt-4.1-mini", new ChatAnthropic({ model: "claude-sonnet-4-5" })];
 * ```
 */
export type FallbackModel = string | AgentChatModel;

/**
 * Falls back to other models when a model call fails, as LangChain.js's
 * `modelFallbackMiddleware`. The call is tried with the agent's model first; if it throws,
 * with each fallback in order (the same request, only `model` changed), and the first answer
 * wins. When every model failed, the last fallback's error is thrown (the primary's when
 * there are no fallbacks). Interrupts and aborted runs are passed through without trying the
 * fallbacks.
 *
 * @example
 * ```ts
 * import { createAgent, modelFallbackMiddleware } from "agentgraph/agents";
 *
 * const agent = createAgent({
 *   model: "openai:gpt-4.1",
 *   middleware: [modelFallbackMiddleware("openai:gpt-4.1-mini", "anthropic:claude-sonnet-4-5")],
 * });
 * ```
 */
export function modelFallbackMiddleware(
  ...fallbackModels: FallbackModel[]
): AgentMiddleware<Record<never, never>, Record<string, unknown>> {
  const resolved = new Map<number, Promise<AgentChatModel>>();
  const modelAt = (index: number, model: FallbackModel): Promise<AgentChatModel> => {
    if (typeof model !== "string") return Promise.resolve(model);
    let pending = resolved.get(index);
    if (pending === undefined) {
      pending = initChatModel(model) as unknown as Promise<AgentChatModel>;
      // a failed resolution (unknown provider, missing key) is retried on the next call
      pending.catch(() => resolved.delete(index));
      resolved.set(index, pending);
    }
    return pending;
  };
  const passThrough = (error: unknown, signal: AbortSignal | undefined) =>
    isGraphBubbleUp(error) || isAbortError(error) || signal?.aborted === true;

  return createMiddleware({
    name: "modelFallbackMiddleware",
    wrapModelCall: async (request: ModelRequest, handler: ModelCallHandler) => {
      // a request built by hand (a unit test calling `wrapModelCall` directly) may carry no runtime
      const runtime: Partial<ModelRequest["runtime"]> | undefined = request.runtime;
      const signal = runtime?.signal;
      try {
        return await handler(request);
      } catch (primaryError) {
        if (passThrough(primaryError, signal) || fallbackModels.length === 0) throw primaryError;
        let lastError: unknown = primaryError;
        for (const [index, fallback] of fallbackModels.entries()) {
          try {
            const model = await modelAt(index, fallback);
            return await handler({ ...request, model });
          } catch (error) {
            if (passThrough(error, signal)) throw error;
            lastError = error;
          }
        }
        throw lastError;
      }
    },
  });
}
