import { SystemMessage } from "../../messages/index.js";
import { InvalidArgumentError } from "../../shared/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentMiddleware, AgentRuntime, AgentState, ModelCallHandler, ModelRequest } from "../types.js";

/**
 * Computes the system prompt of one model call from the agent's state and the run's runtime
 * (its `context` above all): a string or a `SystemMessage`, sync or async.
 *
 * @example
 * ```ts
 * const prompt: DynamicSystemPromptFunction<{ region?: string }> = (_state, runtime) =>
 *   `You are a helpful assistant. Region: ${runtime.context.region ?? "n/a"}`;
 * ```
 */
export type DynamicSystemPromptFunction<Context = Record<string, unknown>> = (
  state: AgentState,
  runtime: AgentRuntime<Context>,
) => string | SystemMessage | Promise<string | SystemMessage>;

/**
 * Sets the system prompt right before each model call, as LangChain.js's
 * `dynamicSystemPromptMiddleware`: `fn(state, runtime)` returns a string or a `SystemMessage`,
 * which is **appended** to the agent's system message for that call (`systemPrompt` stays first,
 * then the dynamic part, as content blocks). Nothing is stored in the state. A result that is
 * neither a string nor a `SystemMessage` throws.
 *
 * @example
 * ```ts
 * import { createAgent, dynamicSystemPromptMiddleware } from "agentgraph/agents";
 *
 * const agent = createAgent({
 *   model: "openai:gpt-4.1-mini",
 *   middleware: [
 *     dynamicSystemPromptMiddleware<{ region?: string }>(
 *       (_state, runtime) => `You are a helpful assistant. Region: ${runtime.context.region ?? "n/a"}`,
 *     ),
 *   ],
 * });
 * await agent.invoke({ messages: [{ role: "user", content: "Hi" }] }, { context: { region: "EU" } });
 * ```
 */
export function dynamicSystemPromptMiddleware<Context = Record<string, unknown>>(
  fn: DynamicSystemPromptFunction<Context>,
): AgentMiddleware<Record<never, never>, Context> {
  if (typeof fn !== "function") {
    throw new InvalidArgumentError(
      "dynamicSystemPromptMiddleware needs a function (state, runtime) => string | SystemMessage.",
    );
  }
  return createMiddleware({
    name: "DynamicSystemPromptMiddleware",
    wrapModelCall: async (request: ModelRequest, handler: ModelCallHandler) => {
      const prompt: unknown = await fn(request.state, request.runtime as AgentRuntime<Context>);
      if (typeof prompt !== "string" && !SystemMessage.isInstance(prompt)) {
        // a run-time error: a plain Error, as LangChain.js throws it
        throw new Error("dynamicSystemPromptMiddleware function must return a string or SystemMessage");
      }
      return handler({
        ...request,
        systemMessage: request.systemMessage.concat(prompt),
      });
    },
  }) as unknown as AgentMiddleware<Record<never, never>, Context>;
}
