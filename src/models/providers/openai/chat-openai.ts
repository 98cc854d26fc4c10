import { InvalidArgumentError } from "../../../shared/index.js";
import type { ModelProfile } from "../../chat-model/types.js";
import { getEnvironmentVariable } from "../../env.js";
import { MissingApiKeyError } from "../../errors/configuration-errors.js";
import type { ProviderErrorContext } from "../../errors/from-sdk-error.js";
import { modelProfile } from "../../profiles.js";
import { SpecChatModel, type SpecChatModelParams } from "../../spec-adapter/spec-chat-model.js";
import { OpenAIChatLanguageModel } from "./openai-chat-language-model.js";
import { lazyOpenAIClient, type OpenAIClientLike, type OpenAIClientOptions } from "./openai-client.js";

const DEFAULT_MODEL = "gpt-4.1-mini";

/**
 * Options of {@link ChatOpenAI} (LangChain.js names).
 *
 * @example
 * ```ts
 * const fields: ChatOpenAIFields = { model: "gpt-4.1-mini", temperature: 0, maxRetries: 4 };
 * ```
 */
export interface ChatOpenAIFields extends SpecChatModelParams {
  model?: string | undefined;
  /** @deprecated Use `model`. */
  modelName?: string | undefined;
  /** Defaults to the OPENAI_API_KEY environment variable. */
  apiKey?: string | undefined;
  /** @deprecated Use `apiKey`. */
  openAIApiKey?: string | undefined;
  /** SDK client options; `baseURL` points the model at any OpenAI-compatible server. */
  configuration?: OpenAIClientOptions | undefined;
  frequencyPenalty?: number | undefined;
  presencePenalty?: number | undefined;
  seed?: number | undefined;
  user?: string | undefined;
  /** Ask for token usage when streaming (`stream_options.include_usage`). Default true. */
  streamUsage?: boolean | undefined;
  /** Extra request-body fields sent with every call. */
  modelKwargs?: Record<string, unknown> | undefined;
  /** Reasoning models: `{ effort: "low" | "medium" | "high" }`. */
  reasoning?: { effort?: string | undefined } | undefined;
  /** Only the Chat Completions API is implemented: leave unset or `false`. */
  useResponsesApi?: boolean | undefined;
  /** Provider name reported in `response_metadata.model_provider` (`initChatModel` sets `"ollama"`). */
  modelProvider?: string | undefined;
}

/**
 * OpenAI chat models through the Chat Completions API, on the official `openai` SDK
 * (loaded on first use). Works with any OpenAI-compatible server through
 * `configuration.baseURL` (Ollama, vLLM, llama.cpp, LM Studio); no API key is needed there.
 *
 * Failed requests are retried `maxRetries` times (default 2) on 408/409/429/5xx and network
 * errors, with exponential backoff and jitter, honouring `retry-after` / `retry-after-ms` —
 * unlike LangChain.js, which fails a 429 at once. 400/401/403/404/422 fail at once with a
 * typed error.
 *
 * @example
 * ```ts
 * const model = new ChatOpenAI({ model: "gpt-4.1-mini", temperature: 0 });
 * const local = new ChatOpenAI({ model: "llama3.1", configuration: { baseURL: "http://127.0.0.1:11434/v1" } });
 * const reply = await model.bindTools([getWeather]).invoke("What is the weather in Suzhou?");
 * ```
 */
export class ChatOpenAI extends SpecChatModel {
  /** The SDK client options this model uses. */
  readonly configuration: OpenAIClientOptions;
  private readonly client: () => Promise<OpenAIClientLike>;

  constructor(fields: ChatOpenAIFields = {}) {
    if (fields.useResponsesApi === true) {
      throw new InvalidArgumentError(
        "ChatOpenAI implements the Chat Completions API only; remove `useResponsesApi: true` (or set it to false).",
      );
    }
    const model = fields.model ?? fields.modelName ?? DEFAULT_MODEL;
    const provider = fields.modelProvider ?? "openai";
    const configuration: OpenAIClientOptions = { ...fields.configuration };
    const baseURL = configuration.baseURL ?? getEnvironmentVariable("OPENAI_BASE_URL");
    const context: ProviderErrorContext = {
      provider,
      displayName: provider === "openai" ? "OpenAI" : `${provider} (OpenAI-compatible)`,
      apiKeyHint: "the `apiKey` option or the OPENAI_API_KEY environment variable",
      model,
      baseURL,
    };
    let factory: (() => Promise<OpenAIClientLike>) | undefined;
    const client = () => {
      factory ??= lazyOpenAIClient({
        ...configuration,
        baseURL,
        apiKey: resolveApiKey(fields.apiKey ?? fields.openAIApiKey, baseURL),
      });
      return factory();
    };
    const spec = new OpenAIChatLanguageModel(model, {
      provider,
      client,
      errorContext: context,
      settings: {
        frequencyPenalty: fields.frequencyPenalty,
        presencePenalty: fields.presencePenalty,
        seed: fields.seed,
        user: fields.user,
        streamUsage: fields.streamUsage,
        modelKwargs: fields.modelKwargs,
        reasoningEffort: fields.reasoning?.effort,
      },
    });
    super(spec, fields);
    this.configuration = { ...configuration, baseURL };
    this.client = client;
    this.displayName = context.displayName;
    // LangChain.js's ChatOpenAI always reports both token-detail objects.
    this.emptyTokenDetails = true;
  }

  override _llmType(): string {
    return "openai";
  }

  /** @deprecated Use `model`. */
  get modelName(): string {
    return this.model;
  }

  protected override defaultProfile(): ModelProfile {
    return modelProfile("openai", this.model);
  }

  /** The `openai` SDK client (created on first use). */
  async getClient(): Promise<OpenAIClientLike> {
    return this.client();
  }

  protected override structuredOutputDefaults() {
    return {
      method: "jsonSchema" as const,
      supported: ["jsonSchema", "functionCalling", "jsonMode"] as const,
    };
  }
}

/** The explicit key, else OPENAI_API_KEY; local servers (a non-OpenAI baseURL) need none. */
function resolveApiKey(explicit: string | undefined, baseURL: string | undefined): string {
  const key = explicit ?? getEnvironmentVariable("OPENAI_API_KEY");
  if (key !== undefined) return key;
  if (baseURL !== undefined && !baseURL.includes("api.openai.com")) return "not-needed";
  throw new MissingApiKeyError(
    "OpenAI API key not found. Pass `apiKey` to ChatOpenAI (or initChatModel), or set the OPENAI_API_KEY " +
      "environment variable. For a local OpenAI-compatible server, set `configuration.baseURL` instead.",
  );
}
