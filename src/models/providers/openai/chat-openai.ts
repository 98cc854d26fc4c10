import type { BaseMessage } from "../../../messages/index.js";
import { AbortError, InvalidArgumentError } from "../../../shared/index.js";
import type { ChatGenerationChunk } from "../../chat-model/chat-generation-chunk.js";
import type { ChatModelRun } from "../../chat-model/llm-run.js";
import type { ChatModelStreamEvent } from "../../chat-model/stream-events.js";
import type {
  BaseChatModelCallOptions,
  ChatResult,
  ModelProfile,
  StructuredOutputOptions,
} from "../../chat-model/types.js";
import { getEnvironmentVariable } from "../../env.js";
import { MissingApiKeyError } from "../../errors/configuration-errors.js";
import { modelErrorFromSdk, type ProviderErrorContext } from "../../errors/from-sdk-error.js";
import { ModelCallError } from "../../errors/model-call-error.js";
import { modelProfile } from "../../profiles.js";
import { callWithRetry } from "../../retry/call-with-retry.js";
import type { ChatModelV1CallOptions } from "../../spec/index.js";
import { SpecChatModel, type SpecChatModelParams } from "../../spec-adapter/spec-chat-model.js";
import type { StreamPartsToChunks } from "../../spec-adapter/stream-parts-to-chunks.js";
import { estimateTokenUsage, roleOf } from "./estimate-token-usage.js";
import {
  getOpenAIArgs,
  isReasoningModel,
  normalizePromptCacheRetention,
  type OpenAIChatSettings,
} from "./get-openai-args.js";
import { RESPONSE_IMAGES, RESPONSE_KWARGS } from "./map-openai-response.js";
import { OpenAIChatLanguageModel } from "./openai-chat-language-model.js";
import { lazyOpenAIClient, type OpenAIClientLike, type OpenAIClientOptions } from "./openai-client.js";
import { OpenAIStreamChunks } from "./openai-stream-chunks.js";
import { openAIStreamEvents } from "./openai-stream-events.js";

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
  /** Reasoning models: `{ effort: "low" | "medium" | "high" }` (not sent to other models). */
  reasoning?: { effort?: string | undefined } | undefined;
  /** Same as `maxTokens` (sent as `max_completion_tokens` to reasoning models); wins over it. */
  maxCompletionTokens?: number | undefined;
  /** Ask for token log probabilities; they come back in `response_metadata.logprobs`. */
  logprobs?: boolean | undefined;
  topLogprobs?: number | undefined;
  /** Choices to generate (`n`). */
  n?: number | undefined;
  logitBias?: Record<string, number> | undefined;
  promptCacheKey?: string | undefined;
  /** `prompt_cache_retention` (`"in-memory"` is sent as `"in_memory"`, `"24h"`, …). */
  promptCacheRetention?: string | undefined;
  /** `prompt_cache_options`, sent as given. */
  promptCacheOptions?: Record<string, unknown> | undefined;
  verbosity?: string | undefined;
  service_tier?: string | undefined;
  /** The spoken answer's settings (`{ voice, format }`); a call's own is used only when unset. */
  audio?: Record<string, unknown> | undefined;
  /** The answer's modalities (`["text", "audio"]`); a call's own is used only when unset. */
  modalities?: string[] | undefined;
  /** Only the Chat Completions API is implemented: leave unset or `false`. */
  useResponsesApi?: boolean | undefined;
  /**
   * Zero Data Retention: in `@langchain/openai` it keeps Responses API output from being stored;
   * Chat Completions stores nothing unless asked, so here it is only read back (default false).
   */
  zdrEnabled?: boolean | undefined;
  /** Provider name reported in `response_metadata.model_provider` (`initChatModel` sets `"ollama"`). */
  modelProvider?: string | undefined;
  /**
   * The `strict` every tool of a call is sent with when the call sets none (LangChain.js's
   * option; unset, each tool keeps its own).
   */
  supportsStrictToolCalling?: boolean | undefined;
}

/**
 * Call options of {@link ChatOpenAI}: the base ones plus the OpenAI request fields LangChain.js
 * takes per call.
 *
 * @example
 * ```ts
 * await model.invoke("Hi", { seed: 7, reasoning: { effort: "low" } } satisfies ChatOpenAICallOptions);
 * ```
 */
export interface ChatOpenAICallOptions extends BaseChatModelCallOptions {
  seed?: number;
  stream_options?: { include_usage?: boolean };
  service_tier?: string;
  promptCacheKey?: string;
  promptCacheRetention?: string;
  promptCacheOptions?: Record<string, unknown>;
  verbosity?: string;
  prediction?: Record<string, unknown>;
  audio?: Record<string, unknown>;
  modalities?: string[];
  /** Reasoning models only. */
  reasoning?: { effort?: string };
  /** Reasoning models only; used when `reasoning.effort` is not set. */
  reasoningEffort?: string;
}

/**
 * OpenAI chat models through the Chat Completions API, on the official `openai` SDK
 * (loaded on first use). Works with any OpenAI-compatible server through
 * `configuration.baseURL` (Ollama, vLLM, llama.cpp, LM Studio); no API key is needed there.
 *
 * Failed requests are retried `maxRetries` times (default 2) on 408/409/429/5xx and network
 * errors, with exponential backoff and jitter, honouring `retry-after` / `retry-after-ms`, as
 * the official SDK does (LangChain.js's caller has its own rule: see docs/models.md).
 * 400/401/403/404/422 fail at once with a typed error.
 *
 * @example
 * ```ts
 * const model = new ChatOpenAI({ model: "gpt-4.1-mini", temperature: 0 });
 * const local = new ChatOpenAI({ model: "llama3.1", configuration: { baseURL: "http://127.0.0.1:11434/v1" } });
 * const reply = await model.bindTools([getWeather]).invoke("What is the weather in Suzhou?");
 * ```
 */
export class ChatOpenAI extends SpecChatModel<ChatOpenAICallOptions> {
  /** The SDK client options this model uses. */
  readonly configuration: OpenAIClientOptions;
  private readonly client: () => Promise<OpenAIClientLike>;
  private readonly reasoningEffort: string | undefined;
  private readonly settings: OpenAIChatSettings;
  private readonly errorContext: ProviderErrorContext;
  /** The key the model was given (or OPENAI_API_KEY), for {@link _identifyingParams}. */
  private readonly identityApiKey: unknown;
  /** The `configuration` option as given, for {@link _identifyingParams}'s key order. */
  private readonly givenConfiguration: OpenAIClientOptions;
  /** The `strict` of a call's tools when the call sets none (LangChain.js's option). */
  supportsStrictToolCalling: boolean | undefined;
  /** The `zdrEnabled` option (default false), read back as in LangChain.js. */
  readonly zdrEnabled: boolean;
  /**
   * The options the model was made with, as `@langchain/openai` keeps them: the object given, or
   * `{ model, ...fields }` for `new ChatOpenAI(model, fields)`.
   */
  readonly fields: ChatOpenAIFields | undefined;

  /**
   * `new ChatOpenAI({ model, … })`, or the model name first: `new ChatOpenAI("gpt-4.1-mini", {
   * temperature: 0 })`, as in LangChain.js.
   */
  constructor(modelOrFields?: string | ChatOpenAIFields, moreFields?: ChatOpenAIFields) {
    const fields: ChatOpenAIFields =
      typeof modelOrFields === "string"
        ? { ...moreFields, model: modelOrFields }
        : (modelOrFields ?? moreFields ?? {});
    if (fields.useResponsesApi === true) {
      throw new InvalidArgumentError(
        "ChatOpenAI implements the Chat Completions API only; remove `useResponsesApi: true` (or set it to false).",
      );
    }
    const model = fields.model ?? fields.modelName ?? DEFAULT_MODEL;
    const provider = fields.modelProvider ?? "openai";
    const configuration: OpenAIClientOptions = { ...fields.configuration };
    // as in LangChain.js: OPENAI_API_BASE, then OPENAI_BASE_URL; OPENAI_ORGANIZATION
    const baseURL =
      configuration.baseURL ??
      getEnvironmentVariable("OPENAI_API_BASE") ??
      getEnvironmentVariable("OPENAI_BASE_URL");
    const organization = configuration.organization ?? getEnvironmentVariable("OPENAI_ORGANIZATION");
    if (organization !== undefined) configuration.organization = organization;
    const configuredKey = typeof configuration.apiKey === "string" ? configuration.apiKey : undefined;
    const context: ProviderErrorContext = {
      provider,
      displayName: provider === "openai" ? "OpenAI" : `${provider} (OpenAI-compatible)`,
      apiKeyHint: "the `apiKey` option or the OPENAI_API_KEY environment variable",
      model,
      baseURL,
      // @langchain/openai rethrows the SDK's errors, whose message is "<status> <message>"
      sdkMessageFirst: true,
    };
    let factory: (() => Promise<OpenAIClientLike>) | undefined;
    const client = () => {
      factory ??= lazyOpenAIClient({
        ...configuration,
        baseURL,
        apiKey: resolveApiKey(fields.apiKey ?? configuredKey, fields.openAIApiKey, baseURL),
      });
      return factory();
    };
    const settings: OpenAIChatSettings = {
      frequencyPenalty: fields.frequencyPenalty,
      presencePenalty: fields.presencePenalty,
      seed: fields.seed,
      user: fields.user,
      streamUsage: fields.streamUsage,
      modelKwargs: fields.modelKwargs,
      reasoningEffort: fields.reasoning?.effort,
      logprobs: fields.logprobs,
      topLogprobs: fields.topLogprobs,
      n: fields.n,
      logitBias: fields.logitBias,
      promptCacheKey: fields.promptCacheKey,
      promptCacheRetention: fields.promptCacheRetention,
      promptCacheOptions: fields.promptCacheOptions,
      audio: fields.audio,
      modalities: fields.modalities,
      verbosity: fields.verbosity,
      serviceTier: fields.service_tier,
    };
    const spec = new OpenAIChatLanguageModel(model, { provider, client, errorContext: context, settings });
    // As in LangChain.js: `maxCompletionTokens` wins over `maxTokens`, `stopSequences` over `stop`.
    super(spec, {
      ...fields,
      maxTokens: fields.maxCompletionTokens ?? fields.maxTokens,
      stop: fields.stopSequences ?? fields.stop,
      // `streaming: false` also turns streaming off for `stream()`, and `disableStreaming: true`
      // wins over `streaming: true`, as in LangChain.js.
      disableStreaming: fields.disableStreaming === true || fields.streaming === false,
      streaming: fields.disableStreaming === true ? false : fields.streaming,
    });
    this.supportsStrictToolCalling = fields.supportsStrictToolCalling;
    this.configuration = { ...configuration, baseURL };
    this.givenConfiguration = { ...fields.configuration };
    // as in LangChain.js: the `apiKey` option, `configuration.apiKey`, then OPENAI_API_KEY (the
    // deprecated `openAIApiKey`, which LangChain.js ignores, only when there is none of those)
    this.identityApiKey =
      fields.apiKey ??
      fields.configuration?.apiKey ??
      getEnvironmentVariable("OPENAI_API_KEY") ??
      fields.openAIApiKey;
    this.zdrEnabled = fields.zdrEnabled ?? false;
    this.fields =
      typeof modelOrFields === "string"
        ? { model: modelOrFields, ...moreFields }
        : (modelOrFields ?? moreFields);
    this.client = client;
    this.errorContext = context;
    this.reasoningEffort = fields.reasoning?.effort;
    this.settings = settings;
    this.displayName = context.displayName;
    // LangChain.js's ChatOpenAI always reports both token-detail objects, in its key order
    this.openAIUsageForm = true;
    // and writes an answer's tool calls as { name, args, type, id } (seen in JSON of them)
    this.toolCallTypeFirst = true;
    // and lays out a generation's finish reason and the call's token usage apart from its message
    this.generationInfoLayout = true;
  }

  /**
   * The answer as protocol events made from the server's stream chunks (see
   * {@link openAIStreamEvents}): why it stopped, the model's name and `provider` events.
   */
  override async *_streamChatModelEvents(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): AsyncGenerator<ChatModelStreamEvent> {
    yield* openAIStreamEvents(this.rawStreamEvents(messages, options), {
      streamUsage: this.settings.streamUsage !== false,
      provider: this.spec.provider,
    });
  }

  /**
   * With `streaming: true`, `invoke` streams through `_generate`, as `@langchain/openai` does
   * (see {@link _generate}); a handler that prefers streaming (the `messages` stream mode) still
   * gets the base class's joined chunks.
   */
  protected override streamsInInvoke(_options: this["ParsedCallOptions"]): boolean {
    return false;
  }

  /**
   * A call. With `streaming: true` the answer is streamed, as `@langchain/openai` does it: each
   * chunk is reported to `handleLLMNewToken` with its choice's index, the chunks are joined per
   * choice (`n` above 1: a generation per choice, in their order; the answer is the first), and
   * `llmOutput` holds an `estimatedTokenUsage` (see {@link estimateTokenUsage}) rather than the
   * server's usage, which is in the answer's `usage_metadata`.
   */
  override async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: ChatModelRun,
  ): Promise<ChatResult> {
    if (!this.streaming) {
      try {
        return withImages(await super._generate(messages, options, runManager));
      } catch (error) {
        throw withToolImageHint(error, messages);
      }
    }
    // the first choice's chunks joined, and the others' (`n` above 1) by their index
    let first: ChatGenerationChunk | undefined;
    let others: Map<number, ChatGenerationChunk> | undefined;
    for await (const generation of this._streamResponseChunks(messages, options, runManager)) {
      const info = generation.generationInfo;
      const message = generation.message;
      if (info !== undefined) message.response_metadata = { ...info, ...message.response_metadata };
      const completion = info?.completion;
      const index = typeof completion === "number" ? completion : 0;
      if (index === 0) first = first === undefined ? generation : first.concat(generation);
      else {
        others ??= new Map();
        const joined = others.get(index);
        others.set(index, joined === undefined ? generation : joined.concat(generation));
      }
      if (runManager !== undefined) {
        await runManager.handleLLMNewToken(
          generation.text,
          { prompt: 0, completion: index },
          undefined,
          undefined,
          undefined,
          { chunk: generation },
        );
      }
    }
    if (first === undefined && others === undefined) {
      throw new Error("Received empty response from chat model call.");
    }
    const generations: ChatGenerationChunk[] = first === undefined ? [] : [first];
    if (others !== undefined) {
      for (const [, generation] of [...others].sort(([a], [b]) => a - b)) generations.push(generation);
    }
    const estimatedTokenUsage = estimateTokenUsage(
      this.model,
      messages,
      generations.map((generation) => generation.message),
    );
    return { generations, llmOutput: { estimatedTokenUsage } };
  }

  /**
   * As the base class streams; a 400 for a request whose tool results hold images says that Chat
   * Completions takes none there, as `@langchain/openai` adds it.
   */
  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: ChatModelRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    try {
      yield* super._streamResponseChunks(messages, options, runManager);
    } catch (error) {
      throw withToolImageHint(error, messages);
    }
  }

  /** The chunks are shaped as `@langchain/openai` shapes them (see {@link OpenAIStreamChunks}). */
  protected override streamChunkMapper(): StreamPartsToChunks {
    const n = this.settings.n ?? this.settings.modelKwargs?.n;
    return new OpenAIStreamChunks(
      this.messageContext(),
      this.settings.logprobs === true,
      typeof n === "number" ? n : 1,
    );
  }

  /**
   * A non-streamed call aborted while its request is out says what `@langchain/openai` does
   * then (the `openai` SDK's `Request was aborted.`), the signal's reason as the cause.
   */
  protected override generateAbortError(signal: AbortSignal): Error {
    // a `streaming: true` call (streamed in `_generate`) fails as other streamed calls do
    if (this.streaming) return super.generateAbortError(signal);
    return new AbortError("Request was aborted.", { cause: signal.reason });
  }

  override _llmType(): string {
    return "openai";
  }

  /** LangChain.js's call-option keys, with those `@langchain/openai`'s `ChatOpenAI` adds. */
  override get callKeys(): string[] {
    return [
      ...super.callKeys,
      "options",
      "function_call",
      "functions",
      "tools",
      "tool_choice",
      "promptIndex",
      "response_format",
      "seed",
      "reasoning",
      "reasoning_effort",
      "service_tier",
      "useResponsesApi",
    ];
  }

  /**
   * The LangSmith parameters as `@langchain/openai` gives them, all six keys always there
   * (`undefined` when unset): `ls_temperature` and `ls_max_tokens` are the request's
   * `temperature` and `max_tokens` (none for a reasoning model, which is sent
   * `max_completion_tokens`), `ls_stop` the call's `stop` only.
   */
  override getLsParams(options: this["ParsedCallOptions"]): Record<string, unknown> {
    const params = this.invocationParams(options);
    return {
      ls_provider: this.spec.provider,
      ls_model_name: this.model,
      ls_model_type: "chat",
      ls_temperature: params.temperature ?? undefined,
      ls_max_tokens: params.max_tokens ?? undefined,
      ls_stop: (options as { stop?: unknown }).stop,
    };
  }

  /**
   * The API key the model was given (the `apiKey` option, else `configuration.apiKey`, else
   * OPENAI_API_KEY), as LangChain.js's `apiKey` field holds it.
   */
  get apiKey(): unknown {
    return this.identityApiKey;
  }

  /** The organization requests are made for (`configuration.organization`, else OPENAI_ORGANIZATION). */
  get organization(): string | undefined {
    return this.configuration.organization;
  }

  /**
   * The options the SDK client is made with, as `@langchain/openai` lists them: `apiKey`,
   * `organization`, `dangerouslyAllowBrowser: true`, the `configuration` given, and `baseURL`.
   */
  get clientConfig(): Record<string, unknown> {
    const { organization, baseURL } = this.configuration;
    return {
      apiKey: this.identityApiKey,
      organization,
      dangerouslyAllowBrowser: true,
      ...this.givenConfiguration,
      baseURL,
    };
  }

  /** The `verbosity` option. */
  get verbosity(): string | undefined {
    return this.settings.verbosity;
  }

  /** The `service_tier` option. */
  get service_tier(): string | undefined {
    return this.settings.serviceTier;
  }

  /**
   * The parameters that identify the model, as `@langchain/openai` gives them: `model_name`, the
   * {@link invocationParams}, then the client options — `apiKey` (the given key, else
   * OPENAI_API_KEY), `organization`, `dangerouslyAllowBrowser: true`, the `configuration` given
   * and `baseURL` last.
   */
  override _identifyingParams(): Record<string, unknown> {
    return { model_name: this.model, ...this.invocationParams(), ...this.clientConfig };
  }

  /** The same as {@link _identifyingParams}. */
  identifyingParams(): Record<string, unknown> {
    return this._identifyingParams();
  }

  /**
   * Whether streamed calls ask for usage (`stream_options.include_usage`): the `streamUsage`
   * option (default true), `false` when streaming is disabled, as LangChain.js reports it.
   */
  get streamUsage(): boolean {
    return this.disableStreaming ? false : this.settings.streamUsage !== false;
  }

  /** The extra request-body fields sent with every call (`{}` unless given). */
  get modelKwargs(): Record<string, unknown> {
    return this.settings.modelKwargs ?? {};
  }

  /** Choices to generate (`n`). */
  get n(): number | undefined {
    return this.settings.n;
  }

  get logprobs(): boolean | undefined {
    return this.settings.logprobs;
  }

  get topLogprobs(): number | undefined {
    return this.settings.topLogprobs;
  }

  /** The model's stop sequences (the `stop` or `stopSequences` option), as LangChain.js names them. */
  get stopSequences(): string[] | undefined {
    return this.stop;
  }

  /** The reasoning options (`{ effort }`) the model was given. */
  get reasoning(): { effort?: string | undefined } | undefined {
    return this.reasoningEffort === undefined ? undefined : { effort: this.reasoningEffort };
  }

  /** Always `false`: this model speaks the Chat Completions API. */
  get useResponsesApi(): boolean {
    return false;
  }

  protected override defaultProfile(): ModelProfile {
    return modelProfile("openai", this.model);
  }

  /**
   * Classifies text with OpenAI's moderation endpoint (`POST /moderations`), as
   * `@langchain/openai`'s method of this name does: `model` defaults to
   * `"omni-moderation-latest"`, `options` are the SDK's request options (`headers`, `signal`, …).
   * Retried and failing as the model's calls are.
   *
   * @example
   * ```ts
   * const { results } = await model.moderateContent("Some text");
   * results[0].flagged; // false
   * ```
   */
  async moderateContent(
    input: string | string[],
    params: { model?: string | undefined; options?: Record<string, unknown> | undefined } = {},
  ): Promise<OpenAIModerationResponse> {
    const body = { input, model: params.model ?? "omni-moderation-latest" };
    const signal = params.options?.signal instanceof AbortSignal ? params.options.signal : undefined;
    return callWithRetry(
      async (attemptSignal) => {
        const client = await this.client();
        try {
          return (await client.moderations.create(body, {
            ...params.options,
            signal: attemptSignal,
          })) as OpenAIModerationResponse;
        } catch (error) {
          throw modelErrorFromSdk(error, this.errorContext);
        }
      },
      {
        maxRetries: this.retryLimit,
        timeoutMs: this.timeout,
        signal,
        provider: this.spec.provider,
        displayName: this.displayName,
      },
    );
  }

  /**
   * Counts a prompt's tokens as `@langchain/openai` does: each message's content, role and name
   * (with {@link getNumTokens}) plus OpenAI's per-message overhead (3 tokens, 1 more for a name;
   * `gpt-3.5-turbo-0301`: 4, and a name 1 less), a legacy `function_call`'s name and arguments,
   * and 3 for the answer's priming.
   *
   * @example
   * ```ts
   * const { totalCount, countPerMessage } = await model.getNumTokensFromMessages(messages);
   * ```
   */
  async getNumTokensFromMessages(
    messages: BaseMessage[],
  ): Promise<{ totalCount: number; countPerMessage: number[] }> {
    const legacy = this.model === "gpt-3.5-turbo-0301";
    const perMessage = legacy ? 4 : 3;
    const perName = legacy ? -1 : 1;
    const countPerMessage = await Promise.all(
      messages.map(async (message) => {
        const [text, role] = await Promise.all([
          this.getNumTokens(message.content),
          this.getNumTokens(roleOf(message)),
        ]);
        let count = text + perMessage + role;
        if (message.name !== undefined) count += perName + (await this.getNumTokens(message.name));
        if (message.getType() === "function") count -= 2;
        const call = message.additional_kwargs.function_call as
          | { name?: string; arguments?: string }
          | undefined;
        if (call) {
          count += 3;
          if (call.name) count += await this.getNumTokens(call.name);
          if (call.arguments) {
            let args = call.arguments;
            try {
              args = JSON.stringify(JSON.parse(args));
            } catch {
              // counted as given
            }
            count += await this.getNumTokens(args);
          }
        }
        return count;
      }),
    );
    const totalCount = countPerMessage.reduce((sum, count) => sum + count, 0) + 3;
    return { totalCount, countPerMessage };
  }

  /** The `openai` SDK client (created on first use). */
  async getClient(): Promise<OpenAIClientLike> {
    return this.client();
  }

  /**
   * The request-body fields a call with these options sends (everything but `messages`), as
   * LangChain.js's ChatOpenAI reports them; callbacks get them as `invocation_params`.
   */
  override invocationParams(options?: this["ParsedCallOptions"]): Record<string, unknown> {
    const callOptions = this.specCallOptions([], options ?? ({} as this["ParsedCallOptions"]));
    const { messages: _messages, ...params } = getOpenAIArgs(
      this.model,
      this.settings,
      callOptions,
      this.streaming,
    );
    return inLangChainOrder(params, isReasoningModel(this.model));
  }

  /**
   * Adds the OpenAI call options LangChain.js's ChatOpenAI takes per call: `seed`,
   * `stream_options`, `service_tier`, `promptCacheKey`, `verbosity`, `prediction`, `audio`,
   * `modalities`, and `reasoning` / `reasoningEffort` (reasoning models only).
   */
  protected override specCallOptions(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): ChatModelV1CallOptions {
    const call = options as Record<string, unknown>;
    // the model's `supportsStrictToolCalling` is the call's `strict` when it sets none, as in
    // LangChain.js (so every tool of the call is sent with it)
    const callOptions = super.specCallOptions(
      messages,
      call.strict === undefined && this.supportsStrictToolCalling !== undefined
        ? { ...options, strict: this.supportsStrictToolCalling }
        : options,
    );
    const extra: Record<string, unknown> = {};
    for (const [option, field] of CALL_OPTION_FIELDS) {
      if (call[option] !== undefined) extra[field] = call[option];
    }
    if (extra.prompt_cache_retention !== undefined) {
      extra.prompt_cache_retention = normalizePromptCacheRetention(extra.prompt_cache_retention);
    }
    // as in LangChain.js, the model's own audio settings and modalities win over the call's
    if (this.settings.audio !== undefined) delete extra.audio;
    if (this.settings.modalities !== undefined) delete extra.modalities;
    const reasoning = call.reasoning as { effort?: unknown } | undefined;
    // `reasoningEffort` counts only when neither the call's nor the model's `reasoning` has an effort.
    const effort = reasoning?.effort ?? this.reasoningEffort ?? call.reasoningEffort;
    if (effort !== undefined && effort !== this.reasoningEffort && isReasoningModel(this.model)) {
      extra.reasoning_effort = effort;
    }
    if (Object.keys(extra).length === 0) return callOptions;
    const providerOptions = callOptions.providerOptions ?? {};
    return {
      ...callOptions,
      providerOptions: { ...providerOptions, openai: { ...providerOptions.openai, ...extra } },
    };
  }

  /**
   * As in LangChain.js: `"jsonSchema"` output of a Zod schema is strict unless `strict: false` is
   * given (a plain JSON Schema is sent without `strict`); `strict`
   * with `"jsonMode"` is refused; models without JSON Schema output (`gpt-3…`, `gpt-4`,
   * `gpt-4-…`) default to function calling and refuse `"jsonSchema"`.
   */
  protected override structuredOutputDefaults(options: StructuredOutputOptions = {}) {
    const method: unknown = options.method;
    if (
      "method" in options &&
      method !== undefined &&
      !STRUCTURED_OUTPUT_METHODS.includes(method as string)
    ) {
      throw new InvalidArgumentError(
        `Invalid method: ${String(method)}. Supported methods are: ${STRUCTURED_OUTPUT_METHODS.join(", ")}`,
      );
    }
    if (options.strict !== undefined && options.method === "jsonMode") {
      throw new InvalidArgumentError("Argument `strict` is only supported for `method` = 'function_calling'");
    }
    const model = this.model;
    if (model.startsWith("gpt-3") || model.startsWith("gpt-4-") || model === "gpt-4") {
      if (options.method === "jsonSchema") {
        throw new InvalidArgumentError(
          `JSON Schema is not supported for model "${model}". Please use a different method, e.g. "functionCalling" or "jsonMode".`,
        );
      }
      return {
        method: "functionCalling" as const,
        supported: ["functionCalling", "jsonMode"] as const,
        streamsToolArgs: true,
        tracingFormat: openAITracingFormat(options.name),
      };
    }
    return {
      method: "jsonSchema" as const,
      supported: ["jsonSchema", "functionCalling", "jsonMode"] as const,
      strictJsonSchema: true,
      streamsToolArgs: true,
      tracingFormat: openAITracingFormat(options.name),
    };
  }
}

/**
 * `@langchain/openai`'s `ls_structured_output_format`: the method in its snake_case name and the
 * schema titled by the tool's or output's name (`jsonMode`: by the `name` option, else
 * `"extract"`), a `json_schema` output's description first.
 */
function openAITracingFormat(nameOption: string | undefined) {
  const methods = { functionCalling: "function_calling", jsonSchema: "json_schema", jsonMode: "json_mode" };
  return (method: keyof typeof methods, name: string, schema: Record<string, unknown>) => ({
    kwargs: { method: methods[method] },
    schema:
      method === "jsonSchema"
        ? { title: name, description: schema.description, ...schema }
        : { title: method === "jsonMode" ? (nameOption ?? "extract") : name, ...schema },
  });
}

/** `@langchain/openai`'s words for a 400 whose request had images in tool results. */
const TOOL_IMAGE_HINT =
  "Chat Completions does not support images in tool messages. Use the Responses API (`useResponsesApi: true`) to send images from tool results.";

/**
 * A 400 for a request with a tool message holding a standard `image` block gets
 * `@langchain/openai`'s hint on a paragraph of its own (once), as it adds it.
 */
function withToolImageHint(error: unknown, messages: BaseMessage[]): unknown {
  if (!(error instanceof ModelCallError) || error.status !== 400) return error;
  if (error.message.includes(TOOL_IMAGE_HINT)) return error;
  const toolImage = messages.some(
    (m) =>
      m.getType() === "tool" &&
      Array.isArray(m.content) &&
      m.content.some((block) => (block as { type?: unknown }).type === "image"),
  );
  if (toolImage) error.message = `${error.message}\n\n${TOOL_IMAGE_HINT}`;
  return error;
}

/**
 * An answer that carries images (OpenRouter's `message.images`) has them as content blocks after
 * its text, as `@langchain/openai` gives them: `[{ type: "text", text }, { type: "image", url },
 * …]`; its `audio` and legacy `function_call` go in its `additional_kwargs`.
 */
function withImages(result: ChatResult): ChatResult {
  for (const generation of result.generations) {
    const message = generation.message;
    const { [RESPONSE_IMAGES]: images, [RESPONSE_KWARGS]: kwargs, ...metadata } = message.response_metadata;
    if (kwargs !== undefined) {
      // the answer's audio and legacy function_call, in additional_kwargs as @langchain/openai has them
      message.response_metadata = metadata;
      message.additional_kwargs = { ...message.additional_kwargs, ...(kwargs as Record<string, unknown>) };
    }
    if (!Array.isArray(images)) continue;
    message.response_metadata = metadata;
    message.content = [
      { type: "text", text: message.text },
      ...images.map((url) => ({ type: "image" as const, url: String(url) })),
    ];
  }
  return result;
}

/** What OpenAI's moderation endpoint answers (see {@link ChatOpenAI.moderateContent}). */
export interface OpenAIModerationResponse {
  id: string;
  model: string;
  results: Array<{
    flagged: boolean;
    categories: Record<string, boolean>;
    category_scores: Record<string, number>;
    category_applied_input_types?: Record<string, string[]>;
    [field: string]: unknown;
  }>;
}

/** The `withStructuredOutput` methods, in `@langchain/openai`'s order (its error lists them). */
const STRUCTURED_OUTPUT_METHODS: readonly string[] = ["jsonSchema", "functionCalling", "jsonMode"];

/** Call options sent as request-body fields: option name → field name. */
const CALL_OPTION_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ["seed", "seed"],
  ["stream_options", "stream_options"],
  ["service_tier", "service_tier"],
  ["promptCacheKey", "prompt_cache_key"],
  ["promptCacheRetention", "prompt_cache_retention"],
  ["promptCacheOptions", "prompt_cache_options"],
  ["verbosity", "verbosity"],
  ["prediction", "prediction"],
  ["audio", "audio"],
  ["modalities", "modalities"],
];

/**
 * The explicit key, else OPENAI_API_KEY, else the deprecated `openAIApiKey`; local servers (a
 * non-OpenAI baseURL) need none.
 */
function resolveApiKey(
  explicit: string | undefined,
  deprecated: string | undefined,
  baseURL: string | undefined,
): string {
  const key = explicit ?? getEnvironmentVariable("OPENAI_API_KEY") ?? deprecated;
  if (key !== undefined) return key;
  if (baseURL !== undefined && !baseURL.includes("api.openai.com")) return "not-needed";
  throw new MissingApiKeyError(
    "OpenAI API key not found. Pass `apiKey` to ChatOpenAI (or initChatModel), or set the OPENAI_API_KEY " +
      "environment variable. For a local OpenAI-compatible server, set `configuration.baseURL` instead.",
  );
}

/** The request parameters `invocationParams` always lists, unset ones as `undefined`, in LangChain.js's order. */
const LEADING_PARAMS = [
  "model",
  "temperature",
  "top_p",
  "frequency_penalty",
  "presence_penalty",
  "logprobs",
  "top_logprobs",
  "n",
  "logit_bias",
  "stop",
  "user",
  "stream",
  "functions",
  "function_call",
  "tools",
  "tool_choice",
  "response_format",
  "seed",
] as const;
const CACHE_PARAMS = [
  "prompt_cache_key",
  "prompt_cache_retention",
  "prompt_cache_options",
  "verbosity",
] as const;
const OPTIONAL_PARAMS = ["prediction", "service_tier", "reasoning_effort"] as const;
const PLACED = new Set<string>([
  ...LEADING_PARAMS,
  ...CACHE_PARAMS,
  ...OPTIONAL_PARAMS,
  "stream_options",
  "parallel_tool_calls",
  "audio",
  "modalities",
  "max_tokens",
  "max_completion_tokens",
]);

/**
 * `params` laid out as `@langchain/openai`'s `invocationParams` returns them: its fixed keys
 * always there (`undefined` when unset) and in its order, `stream_options`, `audio`,
 * `modalities`, `prediction`, `service_tier` and `reasoning_effort` only when set, other
 * (`modelKwargs`) keys before the prompt-cache ones, and the token limit last.
 */
function inLangChainOrder(params: Record<string, unknown>, reasoning: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of LEADING_PARAMS) out[key] = params[key];
  if (Object.hasOwn(params, "stream_options")) out.stream_options = params.stream_options;
  out.parallel_tool_calls = params.parallel_tool_calls;
  if (params.audio !== undefined) out.audio = params.audio;
  if (params.modalities !== undefined) out.modalities = params.modalities;
  for (const key of Object.keys(params)) if (!PLACED.has(key)) out[key] = params[key];
  for (const key of CACHE_PARAMS) out[key] = params[key];
  for (const key of OPTIONAL_PARAMS) if (params[key] !== undefined) out[key] = params[key];
  const limit = reasoning ? "max_completion_tokens" : "max_tokens";
  out[limit] = params[limit];
  return out;
}
