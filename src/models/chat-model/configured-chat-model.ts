import type { AIMessage, AIMessageChunk, MessageContent } from "../../messages/index.js";
import { getAmbientConfig, INVOKE_THEN, invokeThen, thenThroughInvoke } from "../../shared/index.js";
import type { BindToolsInput, JsonSchema, StandardSchemaLike } from "../../tools/index.js";
import type { BaseChatModel } from "./base-chat-model.js";
import { mergeCallOptions } from "./merge-options.js";
import {
  type ChatModelRunnable,
  ChatModelWithFallbacks,
  ChatModelWithRetry,
  type RetryFields,
} from "./retry-and-fallbacks.js";
import { type ChatModelBatch, chatModelBatch } from "./run-batch.js";
import type { StructuredOutputRunnable } from "./structured-output.js";
import type {
  BaseChatModelCallOptions,
  BaseLanguageModelInput,
  BindToolsOptions,
  ModelProfile,
  StructuredOutputOptions,
} from "./types.js";

/**
 * What `BaseChatModel.bindTools` is declared to give: the calls a model with bound tools answers
 * (`invoke`, `stream`, `batch`, `withConfig`, `withRetry`, `withFallbacks`, `bindTools`,
 * `withStructuredOutput`, …). The default gives a {@link ConfiguredChatModel}; a subclass may
 * give the model itself, as LangChain.js allows (`bindTools() { return this; }` type-checks).
 */
export interface BoundChatModel<CallOptions extends BaseChatModelCallOptions = BaseChatModelCallOptions>
  extends Pick<
    ConfiguredChatModel<CallOptions>,
    | "invoke"
    | "stream"
    | "batch"
    | "withConfig"
    | "withRetry"
    | "withFallbacks"
    | "withStructuredOutput"
    | "getName"
    | "getNumTokens"
    | "profile"
    | "_llmType"
  > {
  bindTools(tools: BindToolsInput[], options?: BindToolsOptions): BoundChatModel<CallOptions>;
}

/**
 * A chat model with stored call settings: what `bindTools` and `withConfig` return
 * (LangChain.js `RunnableBinding`). `bound` is the model, `kwargs` the bound call options
 * (`tools` in OpenAI function format, `tool_choice`, …), `config` the bound config, and
 * `boundTools` the tools as they were given. Every call goes to the same model object, so a
 * test model bound to tools still records into its own history.
 *
 * @example
 * ```ts
 * const withTools = model.bindTools([getWeather]);
 * withTools.kwargs.tools; // [{ type: "function", function: { name: "get_weather", … } }]
 * await withTools.invoke("Weather in Suzhou?");
 * ```
 */
export class ConfiguredChatModel<CallOptions extends BaseChatModelCallOptions = BaseChatModelCallOptions> {
  constructor(
    readonly bound: BaseChatModel<CallOptions>,
    readonly kwargs: Partial<CallOptions>,
    readonly config: Partial<CallOptions>,
    readonly boundTools: BindToolsInput[] | undefined = undefined,
  ) {}

  /** The bound model's profile. */
  get profile(): ModelProfile {
    return this.bound.profile;
  }

  /** The bound model's token estimate (see `BaseChatModel.getNumTokens`). */
  getNumTokens(content: MessageContent): Promise<number> {
    return this.bound.getNumTokens(content);
  }

  getName(): string {
    return this.bound.getName();
  }

  _llmType(): string {
    return this.bound._llmType();
  }

  invoke(input: BaseLanguageModelInput, options?: Partial<CallOptions>): Promise<AIMessage> {
    return this.bound.invoke(input, this.merged(options));
  }

  /**
   * `invoke`, with `then` run on the answer in the continuation that finishes the call (see
   * `invokeThen` in shared/).
   *
   * @internal
   */
  [INVOKE_THEN]<R>(
    input: BaseLanguageModelInput,
    options: Partial<CallOptions> | undefined,
    then: (answer: AIMessage) => R | PromiseLike<R>,
    onError?: (error: unknown) => R | PromiseLike<R>,
  ): Promise<R> {
    if (this.invoke !== ConfiguredChatModel.prototype.invoke)
      return thenThroughInvoke(this, input, options, then, onError);
    return invokeThen(this.bound, input, this.merged(options), then, onError);
  }

  stream(
    input: BaseLanguageModelInput,
    options?: Partial<CallOptions>,
  ): Promise<AsyncGenerator<AIMessageChunk>> {
    const merged = this.merged(options);
    // LangChain.js's RunnableBinding.stream resolves a call without tags over the ambient config
    // (a graph node's) before adding the bound config, so the bound tags come first there
    // (`invoke` adds the ambient tags later, after the bound ones)
    const ambient = options?.tags === undefined ? getAmbientConfig()?.tags : undefined;
    if (ambient !== undefined && ambient.length > 0)
      merged.tags = [...new Set([...(merged.tags ?? []), ...ambient])];
    return this.bound.stream(input, merged);
  }

  /** Invokes on several inputs, at most `maxConcurrency` at a time (`returnExceptions` keeps failures in place). */
  readonly batch: ChatModelBatch<CallOptions> = chatModelBatch<CallOptions>((input, options) =>
    this.invoke(input, options),
  );

  /**
   * Returns a copy whose bound config is this one's with `config`'s keys replacing it, as
   * LangChain.js's `RunnableBinding.withConfig` does (a second `tags`, `metadata` or
   * `callbacks` replaces the first; only a call's own options are merged with the bound ones).
   */
  withConfig(config: Partial<CallOptions>): ConfiguredChatModel<CallOptions> {
    return new ConfiguredChatModel(this.bound, this.kwargs, { ...this.config, ...config }, this.boundTools);
  }

  /** This model with `invoke` retried (see `BaseChatModel.withRetry`). */
  withRetry(fields?: RetryFields): ChatModelWithRetry<CallOptions> {
    return new ChatModelWithRetry<CallOptions>(this, fields);
  }

  /** This model with fallbacks (see `BaseChatModel.withFallbacks`). */
  withFallbacks(
    fallbacks: ChatModelRunnable<CallOptions>[] | { fallbacks: ChatModelRunnable<CallOptions>[] },
  ): ChatModelWithFallbacks<CallOptions> {
    return new ChatModelWithFallbacks<CallOptions>(
      this,
      Array.isArray(fallbacks) ? fallbacks : fallbacks.fallbacks,
    );
  }

  /** Replaces the bound tools (other bound settings and config stay). */
  bindTools(tools: BindToolsInput[], options?: BindToolsOptions): ConfiguredChatModel<CallOptions> {
    const rebound = this.bound.bindTools(tools, options);
    const { tools: _old, tool_choice: _c, parallel_tool_calls: _p, strict: _s, ...kept } = this.kwargs;
    // as LangChain.js rebinds a binding: calls go to the model the bound model's `bindTools`
    // bound (a copy, for LangChain.js's FakeListChatModel), with that binding's config over this one
    if (rebound instanceof ConfiguredChatModel) {
      return new ConfiguredChatModel(
        rebound.bound,
        { ...kept, ...rebound.kwargs } as Partial<CallOptions>,
        { ...this.config, ...rebound.config },
        tools,
      );
    }
    return new ConfiguredChatModel(this.bound, kept as Partial<CallOptions>, this.config, tools);
  }

  withStructuredOutput<RunOutput = Record<string, unknown>>(
    schema: StandardSchemaLike<RunOutput> | JsonSchema,
    options?: StructuredOutputOptions<false>,
  ): StructuredOutputRunnable<RunOutput>;
  withStructuredOutput<RunOutput = Record<string, unknown>>(
    schema: StandardSchemaLike<RunOutput> | JsonSchema,
    options: StructuredOutputOptions<true>,
  ): StructuredOutputRunnable<{ raw: AIMessage; parsed: RunOutput | null; parsing_error?: unknown }>;
  withStructuredOutput(
    schema: StandardSchemaLike | JsonSchema,
    options: StructuredOutputOptions = {},
  ): StructuredOutputRunnable<unknown> {
    return this.bound
      .withStructuredOutput(schema, options as StructuredOutputOptions<false>)
      .withConfig(this.config as Record<string, unknown>);
  }

  private merged(options: Partial<CallOptions> | undefined): Partial<CallOptions> {
    return mergeCallOptions<CallOptions>(this.kwargs, this.config, options);
  }
}
