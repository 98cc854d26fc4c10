import type { AIMessage, BaseMessage } from "../../messages/index.js";
import { onAbort } from "../../shared/index.js";
import { BaseChatModel } from "../chat-model/base-chat-model.js";
import type { ChatGenerationChunk } from "../chat-model/chat-generation-chunk.js";
import type { ChatModelRun } from "../chat-model/llm-run.js";
import type { StructuredOutputDefaults } from "../chat-model/structured-output.js";
import type {
  BaseChatModelCallOptions,
  BaseChatModelParams,
  ChatResult,
  ModelProfile,
  StructuredOutputOptions,
} from "../chat-model/types.js";
import { callWithRetry, type RetrySettings } from "../retry/call-with-retry.js";
import type {
  ChatModelV1,
  ChatModelV1CallOptions,
  ChatModelV1Prompt,
  ChatModelV1StreamPart,
} from "../spec/index.js";
import { toolOptionsToSpec } from "./call-options-to-spec.js";
import { messagesToPrompt } from "./messages-to-prompt.js";
import { type ReasoningFormat, resultToMessage } from "./result-to-message.js";
import { StreamPartsToChunks, streamError } from "./stream-parts-to-chunks.js";

/**
 * Options of {@link SpecChatModel} (and so of `ChatOpenAI` and `ChatAnthropic`).
 *
 * @example
 * ```ts
 * const fields: SpecChatModelParams = { maxRetries: 4, timeout: 60_000, temperature: 0 };
 * ```
 */
export interface SpecChatModelParams extends BaseChatModelParams {
  /** Retries after a failed attempt (408/409/429/5xx, network errors, timeouts). Default 2. */
  maxRetries?: number | undefined;
  /** Per-attempt timeout in milliseconds (until the response starts, for streams). */
  timeout?: number | undefined;
  /** Stream inside `invoke` too (so callbacks see tokens). */
  streaming?: boolean | undefined;
  temperature?: number | undefined;
  maxTokens?: number | undefined;
  topP?: number | undefined;
  /** Stop sequences for every call. */
  stop?: string[] | undefined;
  stopSequences?: string[] | undefined;
  /**
   * Replaces the profile the model would report from agentgraph's model table (as
   * LangChain.js `initChatModel`'s `profile` option does): `model.profile` is exactly this.
   */
  profile?: ModelProfile | undefined;
}

/**
 * The result of a call (of one or several candidates: OpenAI's `n` above 1), laid out as
 * LangChain.js's `ChatOpenAI` lays it out: a generation per candidate whose `generationInfo`
 * holds its `finish_reason` (and `logprobs`), taken out of its message's `response_metadata`
 * (the base class merges it back), and the call's `tokenUsage` as `llmOutput` only (so that it
 * is in no candidate's `response_metadata`).
 */
function candidatesResult(messages: readonly AIMessage[]): ChatResult {
  let tokenUsage: unknown;
  const generations = messages.map((message) => {
    const { tokenUsage: usage, finish_reason, logprobs, ...rest } = message.response_metadata;
    tokenUsage ??= usage;
    message.response_metadata = rest;
    const generationInfo: Record<string, unknown> = {};
    if (finish_reason !== undefined && finish_reason !== null) generationInfo.finish_reason = finish_reason;
    if (logprobs !== undefined && logprobs !== null) generationInfo.logprobs = logprobs;
    return { text: message.text, message, generationInfo };
  });
  return tokenUsage === undefined ? { generations } : { generations, llmOutput: { tokenUsage } };
}

/**
 * A LangChain-shaped chat model over any v1 spec model (`ChatModelV1`): converts messages to
 * the spec prompt, retries failed attempts with backoff (honouring `retry-after`), applies
 * the per-attempt `timeout`, and maps results and stream parts back to `AIMessage` /
 * `AIMessageChunk`. `ChatOpenAI` and `ChatAnthropic` are built on it; wrap your own spec
 * model the same way.
 *
 * @example
 * ```ts
 * const model = new SpecChatModel(myV1Model, { maxRetries: 3 });
 * await model.invoke("Hello");
 * ```
 */
export class SpecChatModel<
  CallOptions extends BaseChatModelCallOptions = BaseChatModelCallOptions,
> extends BaseChatModel<CallOptions> {
  /**
   * Retries after a failed attempt: the `maxRetries` option, default 2. Kept out of a public
   * `maxRetries` field, as LangChain.js's provider models keep it in their caller (there
   * `model.maxRetries` reads `undefined`).
   */
  protected readonly retryLimit: number;
  timeout: number | undefined;
  streaming = false;
  temperature: number | undefined;
  maxTokens: number | undefined;
  topP: number | undefined;
  stop: string[] | undefined;
  /** Where reasoning text goes in messages. */
  protected reasoningFormat: ReasoningFormat = "additional-kwargs";
  /** Whether `usage_metadata` is in `@langchain/openai`'s form (see {@link MessageContext}). */
  protected openAIUsageForm = false;
  /** Whether an answer's tool calls list `type` before `id` (LangChain.js's OpenAI key order). */
  protected toolCallTypeFirst = false;
  /**
   * `_generate` answers as LangChain.js's `ChatOpenAI` does: each generation's `finish_reason`
   * (and `logprobs`) in its `generationInfo`, the call's `tokenUsage` in `llmOutput`, which
   * callbacks' `handleLLMEnd` gets (`invoke` merges them back into `response_metadata`).
   */
  protected generationInfoLayout = false;
  /** Human provider name, for error messages. */
  protected displayName: string;
  /** The `profile` option, when given: reported instead of {@link defaultProfile}. */
  private readonly profileOverride: ModelProfile | undefined;

  constructor(
    protected readonly spec: ChatModelV1,
    fields: SpecChatModelParams = {},
  ) {
    super(fields);
    this.retryLimit = fields.maxRetries ?? 2;
    this.timeout = fields.timeout;
    if (fields.streaming !== undefined) this.streaming = fields.streaming;
    this.temperature = fields.temperature;
    this.maxTokens = fields.maxTokens;
    this.topP = fields.topP;
    this.stop = fields.stop ?? fields.stopSequences;
    this.displayName = spec.provider;
    this.profileOverride = fields.profile === undefined ? undefined : { ...fields.profile };
  }

  /** The `profile` option if one was given, otherwise what {@link defaultProfile} knows. */
  override get profile(): ModelProfile {
    return this.profileOverride === undefined ? this.defaultProfile() : { ...this.profileOverride };
  }

  /** What the provider's model table knows about this model (empty here). */
  protected defaultProfile(): ModelProfile {
    return {};
  }

  _llmType(): string {
    return this.spec.provider;
  }

  /** The model name sent to the provider. */
  get model(): string {
    return this.spec.modelId;
  }

  override getLsParams(options: this["ParsedCallOptions"]): Record<string, unknown> {
    const params: Record<string, unknown> = {
      ls_provider: this.spec.provider,
      ls_model_name: this.spec.modelId,
      ls_model_type: "chat",
    };
    if (this.temperature !== undefined) params.ls_temperature = this.temperature;
    if (this.maxTokens !== undefined) params.ls_max_tokens = this.maxTokens;
    const stop = Array.isArray(options.stop) ? options.stop : this.stop;
    if (stop !== undefined) params.ls_stop = stop;
    return params;
  }

  /** Provider models name the structured-output tool by `options.name` first. */
  protected override structuredOutputDefaults(
    options: StructuredOutputOptions = {},
  ): StructuredOutputDefaults {
    return { ...super.structuredOutputDefaults(options), nameFromSchema: false };
  }

  protected override streamsInInvoke(_options: this["ParsedCallOptions"]): boolean {
    return this.streaming;
  }

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    _runManager?: ChatModelRun,
  ): Promise<ChatResult> {
    const callOptions = this.specCallOptions(messages, options);
    const result = await callWithRetry(
      (signal) => Promise.resolve(this.spec.doGenerate({ ...callOptions, abortSignal: signal })),
      this.retrySettings(signalOf(options), options as Record<string, unknown>),
    );
    const context = this.messageContext();
    const message = resultToMessage(result, context);
    const alternatives = result.alternatives ?? [];
    if (alternatives.length === 0 && !this.generationInfoLayout)
      return { generations: [{ text: message.text, message }] };
    return candidatesResult([message, ...alternatives.map((other) => resultToMessage(other, context))]);
  }

  /** The base class reports each streamed chunk to `handleLLMNewToken`. */
  protected override reportsStreamedChunks(): boolean {
    return true;
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    _runManager?: ChatModelRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const mapper = this.streamChunkMapper();
    for await (const part of this.streamParts(messages, options)) {
      const chunk = mapper.map(part);
      if (chunk !== undefined) yield chunk;
    }
    const last = mapper.flush();
    if (last !== undefined) yield last;
  }

  /**
   * The spec stream parts of one call: the request is retried until its stream opens (HTTP and
   * connection errors before the first part), and the stream is closed when the caller stops.
   */
  protected async *streamParts(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): AsyncGenerator<ChatModelV1StreamPart> {
    const callOptions = this.specCallOptions(messages, options);
    // A signal scoped to this stream: the retry helper keeps the winning attempt linked to it.
    const scope = new AbortController();
    const outer = signalOf(options);
    // (through the signal's one shared listener, as parallel tasks' calls share their step's)
    const unlink = outer === undefined ? undefined : onAbort(outer, () => scope.abort(outer.reason));
    if (outer?.aborted) scope.abort(outer.reason);
    let iterator: AsyncIterator<ChatModelV1StreamPart> | undefined;
    try {
      const opened = await callWithRetry(
        async (signal) => {
          const it = this.spec.doStream({ ...callOptions, abortSignal: signal })[Symbol.asyncIterator]();
          // Failing before the first part (HTTP errors, connection errors) is retried.
          const first = await it.next();
          return { it, first };
        },
        { ...this.retrySettings(scope.signal, options as Record<string, unknown>), keepLinked: true },
      );
      iterator = opened.it;
      for (let next = opened.first; next.done !== true; next = await iterator.next()) yield next.value;
    } finally {
      unlink?.();
      await iterator?.return?.(undefined);
    }
  }

  /**
   * The provider's own events of one streamed call (the `raw` parts), for a protocol event
   * converter; an `error` part the provider streams throws, as it does for chunks.
   */
  protected async *rawStreamEvents(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): AsyncGenerator<unknown> {
    for await (const part of this.streamParts(messages, options)) {
      if (part.type === "raw") yield part.rawValue;
      else if (part.type === "error") throw streamError(part.error, this.spec.provider);
    }
  }

  /** The provider-neutral prompt of one call's messages. */
  protected specPrompt(messages: BaseMessage[]): ChatModelV1Prompt {
    return messagesToPrompt(messages);
  }

  /** The spec call options of one call. */
  protected specCallOptions(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): ChatModelV1CallOptions {
    const callOptions: ChatModelV1CallOptions = {
      prompt: this.specPrompt(messages),
      ...toolOptionsToSpec(options as Record<string, unknown>),
    };
    if (this.temperature !== undefined) callOptions.temperature = this.temperature;
    if (this.maxTokens !== undefined) callOptions.maxOutputTokens = this.maxTokens;
    if (this.topP !== undefined) callOptions.topP = this.topP;
    const stop = Array.isArray(options.stop) ? (options.stop as string[]) : this.stop;
    if (stop !== undefined) callOptions.stopSequences = stop;
    return callOptions;
  }

  /** What turns this model's stream parts into chunks (a provider may shape its chunks). */
  protected streamChunkMapper(): StreamPartsToChunks {
    return new StreamPartsToChunks(this.messageContext());
  }

  protected messageContext() {
    return {
      provider: this.spec.provider,
      modelName: this.spec.modelId,
      reasoningFormat: this.reasoningFormat,
      openAIUsageForm: this.openAIUsageForm,
      toolCallTypeFirst: this.toolCallTypeFirst,
    };
  }

  /**
   * Retries of one call: the model's `maxRetries` option, unless the call sets its own (as
   * `modelRetryMiddleware` does with `maxRetries: 0`, so its retries do not multiply with the
   * provider's). The call's `timeout` is applied by `BaseChatModel`.
   */
  private retrySettings(signal: AbortSignal | undefined, options: Record<string, unknown>): RetrySettings {
    const maxRetries = options.maxRetries;
    return {
      maxRetries:
        Number.isInteger(maxRetries) && (maxRetries as number) >= 0
          ? (maxRetries as number)
          : this.retryLimit,
      timeoutMs: this.timeout,
      signal,
      provider: this.spec.provider,
      displayName: this.displayName,
    };
  }
}

function signalOf(options: Record<string, unknown>): AbortSignal | undefined {
  return options.signal instanceof AbortSignal ? options.signal : undefined;
}
