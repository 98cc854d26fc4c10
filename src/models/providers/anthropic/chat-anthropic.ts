import type { BaseMessage } from "../../../messages/index.js";
import type { ModelProfile } from "../../chat-model/types.js";
import { getEnvironmentVariable } from "../../env.js";
import { MissingApiKeyError } from "../../errors/configuration-errors.js";
import type { ProviderErrorContext } from "../../errors/from-sdk-error.js";
import { modelProfile } from "../../profiles.js";
import type { ChatModelV1CallOptions } from "../../spec/index.js";
import { SpecChatModel, type SpecChatModelParams } from "../../spec-adapter/spec-chat-model.js";
import { AnthropicChatLanguageModel } from "./anthropic-chat-language-model.js";
import {
  type AnthropicClientLike,
  type AnthropicClientOptions,
  lazyAnthropicClient,
} from "./anthropic-client.js";
import type { AnthropicRequest } from "./anthropic-wire.js";

const DEFAULT_MODEL = "claude-sonnet-4-6";
const DEFAULT_MAX_TOKENS = 2048;

/**
 * Options of {@link ChatAnthropic} (LangChain.js names).
 *
 * @example
 * ```ts
 * const fields: ChatAnthropicFields = { model: "claude-sonnet-4-6", maxTokens: 1024, temperature: 0 };
 * ```
 */
export interface ChatAnthropicFields extends SpecChatModelParams {
  model?: string | undefined;
  /** @deprecated Use `model`. */
  modelName?: string | undefined;
  /** Defaults to the ANTHROPIC_API_KEY environment variable. */
  apiKey?: string | undefined;
  /** @deprecated Use `apiKey`. */
  anthropicApiKey?: string | undefined;
  /** Base URL of the API (same as `clientOptions.baseURL`). */
  anthropicApiUrl?: string | undefined;
  /** SDK client options (`baseURL`, `defaultHeaders`, `fetch`, …). */
  clientOptions?: AnthropicClientOptions | undefined;
  topK?: number | undefined;
  /** Extended thinking: `{ type: "enabled", budget_tokens: 2048 }`. */
  thinking?: AnthropicRequest["thinking"] | undefined;
  /** Extra request-body fields sent with every call. */
  invocationKwargs?: Record<string, unknown> | undefined;
}

/**
 * Anthropic Claude models through the Messages API, on the official `@anthropic-ai/sdk`
 * (loaded on first use). System messages go to the top-level `system` field (several are
 * joined), tool results are sent as `tool_result` blocks in one user turn, and thinking
 * blocks stay in the message content (with their signatures) so they can be sent back.
 * `maxTokens` defaults to 2048. Retries as for `ChatOpenAI`.
 *
 * @example
 * ```ts
 * const model = new ChatAnthropic({ model: "claude-sonnet-4-6", maxTokens: 1024 });
 * const reply = await model.invoke([new SystemMessage("Be brief."), new HumanMessage("Hi")]);
 * ```
 */
export class ChatAnthropic extends SpecChatModel {
  /** The SDK client options this model uses. */
  readonly clientOptions: AnthropicClientOptions;
  private readonly client: () => Promise<AnthropicClientLike>;

  constructor(fields: ChatAnthropicFields = {}) {
    const model = fields.model ?? fields.modelName ?? DEFAULT_MODEL;
    const baseURL =
      fields.clientOptions?.baseURL ?? fields.anthropicApiUrl ?? getEnvironmentVariable("ANTHROPIC_BASE_URL");
    const clientOptions: AnthropicClientOptions = { ...fields.clientOptions, baseURL };
    const context: ProviderErrorContext = {
      provider: "anthropic",
      displayName: "Anthropic",
      apiKeyHint: "the `apiKey` option or the ANTHROPIC_API_KEY environment variable",
      model,
      baseURL,
    };
    let factory: (() => Promise<AnthropicClientLike>) | undefined;
    const client = () => {
      factory ??= lazyAnthropicClient({
        ...clientOptions,
        apiKey: resolveApiKey(fields.apiKey ?? fields.anthropicApiKey),
      });
      return factory();
    };
    const spec = new AnthropicChatLanguageModel(model, {
      client,
      errorContext: context,
      settings: {
        maxTokens: fields.maxTokens ?? DEFAULT_MAX_TOKENS,
        topK: fields.topK,
        thinking: fields.thinking,
        invocationKwargs: fields.invocationKwargs,
      },
    });
    super(spec, { ...fields, maxTokens: fields.maxTokens ?? DEFAULT_MAX_TOKENS });
    this.clientOptions = clientOptions;
    this.client = client;
    this.displayName = "Anthropic";
    this.reasoningFormat = "content-blocks";
  }

  override _llmType(): string {
    return "anthropic";
  }

  /** @deprecated Use `model`. */
  get modelName(): string {
    return this.model;
  }

  protected override defaultProfile(): ModelProfile {
    return modelProfile("anthropic", this.model);
  }

  /**
   * The call's `cache_control` (what `anthropicPromptCachingMiddleware` sets) is sent as the
   * request's top-level `cache_control`, as `@langchain/anthropic` sends it.
   */
  protected override specCallOptions(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): ChatModelV1CallOptions {
    const callOptions = super.specCallOptions(messages, options);
    const cacheControl = (options as { cache_control?: unknown }).cache_control;
    if (cacheControl !== undefined && cacheControl !== null) {
      const anthropic = { ...callOptions.providerOptions?.anthropic, cache_control: cacheControl };
      callOptions.providerOptions = { ...callOptions.providerOptions, anthropic };
    }
    return callOptions;
  }

  /** The `@anthropic-ai/sdk` client (created on first use). */
  async getClient(): Promise<AnthropicClientLike> {
    return this.client();
  }
}

function resolveApiKey(explicit: string | undefined): string {
  const key = explicit ?? getEnvironmentVariable("ANTHROPIC_API_KEY");
  if (key !== undefined) return key;
  throw new MissingApiKeyError(
    "Anthropic API key not found. Pass `apiKey` to ChatAnthropic (or initChatModel), or set the " +
      "ANTHROPIC_API_KEY environment variable.",
  );
}
