import { z } from "zod";
import { AgentGraphError } from "../../shared/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentMiddleware, ModelCallHandler, ModelRequest } from "../types.js";

/**
 * Options of {@link anthropicPromptCachingMiddleware} and {@link bedrockPromptCachingMiddleware}
 * (each can also be set per run in the context).
 *
 * @example
 * ```ts
 * const options: PromptCachingMiddlewareConfig = { ttl: "1h", minMessagesToCache: 5, unsupportedModelBehavior: "raise" };
 * ```
 */
export interface PromptCachingMiddlewareConfig {
  /** Turn caching on or off; default `true`. */
  enableCaching?: boolean | undefined;
  /** How long the provider keeps the cache: `"5m"` (default) or `"1h"`. */
  ttl?: "5m" | "1h" | undefined;
  /**
   * Cache only when the conversation (plus the system prompt, if any) has at least this many
   * messages; default 3 for Anthropic, 1 for Bedrock.
   */
  minMessagesToCache?: number | undefined;
  /** With another model: `"warn"` (default, `console.warn`), `"ignore"` or `"raise"` (throw). */
  unsupportedModelBehavior?: "ignore" | "warn" | "raise" | undefined;
}

const contextSchema = z.object({
  enableCaching: z.boolean().optional(),
  ttl: z.enum(["5m", "1h"]).optional(),
  minMessagesToCache: z.number().optional(),
  unsupportedModelBehavior: z.enum(["ignore", "warn", "raise"]).optional(),
});

type CachingContext = z.input<typeof contextSchema>;

/**
 * {@link anthropicPromptCachingMiddleware} met a model that is not an Anthropic one, with
 * `unsupportedModelBehavior: "raise"`.
 *
 * @example
 * ```ts
 * await expect(agent.invoke(input)).rejects.toThrow(/Prompt caching requires an Anthropic model/);
 * ```
 */
export class PromptCachingMiddlewareError extends AgentGraphError {
  static override readonly brandName: string = "PromptCachingMiddlewareError";
}

/**
 * {@link bedrockPromptCachingMiddleware} met a model other than a Bedrock Converse Claude or Nova
 * model, with `unsupportedModelBehavior: "raise"`.
 *
 * @example
 * ```ts
 * await expect(agent.invoke(input)).rejects.toThrow(/Prompt caching requires an AWS Bedrock Converse model/);
 * ```
 */
export class BedrockPromptCachingMiddlewareError extends AgentGraphError {
  static override readonly brandName: string = "BedrockPromptCachingMiddlewareError";
}

interface ModelLike {
  getName?: () => string;
  model?: unknown;
  _defaultConfig?: { modelProvider?: unknown; model?: unknown } | undefined;
}

interface Settings {
  enableCaching: boolean;
  ttl: "5m" | "1h";
  minMessagesToCache: number;
  unsupportedModelBehavior: "ignore" | "warn" | "raise";
}

function settingsOf(
  request: ModelRequest,
  options: PromptCachingMiddlewareConfig | undefined,
  minMessages: number,
) {
  const context = (request.runtime.context ?? {}) as CachingContext;
  return {
    enableCaching: context.enableCaching ?? options?.enableCaching ?? true,
    ttl: context.ttl ?? options?.ttl ?? "5m",
    minMessagesToCache: context.minMessagesToCache ?? options?.minMessagesToCache ?? minMessages,
    unsupportedModelBehavior: context.unsupportedModelBehavior ?? options?.unsupportedModelBehavior ?? "warn",
  } satisfies Settings;
}

const nameOf = (model: ModelLike) => (typeof model.getName === "function" ? model.getName() : "");

/** The request with `cache_control` in its model settings, when the conversation is long enough. */
function withCacheControl(request: ModelRequest, settings: Settings): ModelRequest {
  const count = request.state.messages.length + (request.systemPrompt ? 1 : 0);
  if (count < settings.minMessagesToCache) return request;
  return {
    ...request,
    modelSettings: { ...request.modelSettings, cache_control: { type: "ephemeral", ttl: settings.ttl } },
  };
}

/**
 * Turns on Anthropic prompt caching, as LangChain.js's `anthropicPromptCachingMiddleware`: when
 * the model is a `ChatAnthropic` and the conversation has at least `minMessagesToCache`
 * messages (the system prompt counts as one), the model call gets the setting
 * `cache_control: { type: "ephemeral", ttl }` (bound with the tools, so it reaches the
 * model's call options as in LangChain.js, where `@langchain/anthropic` sends it as the
 * request's top-level `cache_control`).
 * With another model it warns (`console.warn`), does nothing (`"ignore"`) or throws a
 * {@link PromptCachingMiddlewareError} (`"raise"`), per `unsupportedModelBehavior`. Every option
 * can be overridden per run in the context (`context: { ttl: "1h" }`).
 *
 * @example
 * ```ts
 * import { anthropicPromptCachingMiddleware, createAgent } from "agentgraph/agents";
 *
 * const agent = createAgent({
 *   model: "anthropic:claude-sonnet-4-5",
 *   systemPrompt: longInstructions,
 *   middleware: [anthropicPromptCachingMiddleware({ ttl: "1h" })],
 * });
 * ```
 */
export function anthropicPromptCachingMiddleware(
  options?: PromptCachingMiddlewareConfig,
): AgentMiddleware<Record<never, never>, Record<string, unknown>, CachingContext> {
  const middleware = createMiddleware({
    name: "PromptCachingMiddleware",
    contextSchema,
    wrapModelCall: (request: ModelRequest, handler: ModelCallHandler) => {
      const settings = settingsOf(request, options, 3);
      if (!settings.enableCaching || !request.model) return handler(request);
      const model = request.model as ModelLike;
      const modelName = nameOf(model);
      const configurable = modelName === "ConfigurableModel";
      const provider = model._defaultConfig?.modelProvider;
      if (!(modelName === "ChatAnthropic" || (configurable && provider === "anthropic"))) {
        const shown = configurable ? `${modelName} (${String(provider)})` : modelName;
        const base = `Unsupported model '${shown}'. Prompt caching requires an Anthropic model`;
        if (settings.unsupportedModelBehavior === "raise") {
          throw new PromptCachingMiddlewareError(`${base} (e.g., 'anthropic:claude-4-0-sonnet').`);
        }
        if (settings.unsupportedModelBehavior === "warn") {
          console.warn(
            `PromptCachingMiddleware: Skipping caching for ${modelName}. Consider switching to an Anthropic model for caching benefits.`,
          );
        }
        return handler(request);
      }
      return handler(withCacheControl(request, settings));
    },
  });
  return middleware as unknown as AgentMiddleware<
    Record<never, never>,
    Record<string, unknown>,
    CachingContext
  >;
}

/**
 * Turns on prompt caching for AWS Bedrock Converse models (Anthropic Claude and Amazon Nova),
 * as LangChain.js's `bedrockPromptCachingMiddleware`: when the model is a
 * `ChatBedrockConverse` whose model id contains `anthropic.claude` or `amazon.nova` and the
 * conversation has at least `minMessagesToCache` messages (default 1; the system prompt counts
 * as one), the model call gets `cache_control: { type: "ephemeral", ttl }` in its settings.
 * agentgraph ships no Bedrock model: this works with a Bedrock model class of your own named
 * `ChatBedrockConverse` (its `getName()`) that reads the setting. Otherwise, per
 * `unsupportedModelBehavior`, it warns, does nothing, or throws a
 * {@link BedrockPromptCachingMiddlewareError}. Options can be overridden per run in the context.
 *
 * @example
 * ```ts
 * import { bedrockPromptCachingMiddleware, createAgent } from "agentgraph/agents";
 *
 * const agent = createAgent({ model: bedrockModel, middleware: [bedrockPromptCachingMiddleware({ ttl: "5m" })] });
 * ```
 */
export function bedrockPromptCachingMiddleware(
  options?: PromptCachingMiddlewareConfig,
): AgentMiddleware<Record<never, never>, Record<string, unknown>, CachingContext> {
  const middleware = createMiddleware({
    name: "BedrockPromptCachingMiddleware",
    contextSchema,
    wrapModelCall: (request: ModelRequest, handler: ModelCallHandler) => {
      const settings = settingsOf(request, options, 1);
      if (!settings.enableCaching || !request.model) return handler(request);
      const model = request.model as ModelLike;
      const modelName = nameOf(model);
      const configurable = modelName === "ConfigurableModel";
      const provider = model._defaultConfig?.modelProvider;
      const isConverse =
        modelName === "ChatBedrockConverse" ||
        (configurable && (provider === "bedrock" || provider === "aws"));
      const modelId = configurable ? model._defaultConfig?.model : model.model;
      const id = typeof modelId === "string" ? modelId.toLowerCase() : undefined;
      const supported =
        isConverse && id !== undefined && (id.includes("anthropic.claude") || id.includes("amazon.nova"));
      if (!supported) {
        const shown = configurable ? `${modelName} (${String(provider)})` : modelName;
        const base = isConverse
          ? `Unsupported model '${shown}'. Bedrock prompt caching is only supported on Anthropic Claude and Amazon Nova models`
          : `Unsupported model '${shown}'. Prompt caching requires an AWS Bedrock Converse model`;
        if (settings.unsupportedModelBehavior === "raise") {
          throw new BedrockPromptCachingMiddlewareError(
            `${base} (e.g., 'bedrock:anthropic.claude-haiku-4-5-20251001-v1:0').`,
          );
        }
        if (settings.unsupportedModelBehavior === "warn") {
          console.warn(
            `BedrockPromptCachingMiddleware: Skipping caching for ${modelName}. Consider switching to an Anthropic Claude or Amazon Nova model for caching benefits.`,
          );
        }
        return handler(request);
      }
      return handler(withCacheControl(request, settings));
    },
  });
  return middleware as unknown as AgentMiddleware<
    Record<never, never>,
    Record<string, unknown>,
    CachingContext
  >;
}
