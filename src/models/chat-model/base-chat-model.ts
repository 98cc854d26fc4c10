import {
  AIMessage,
  type AIMessageChunk,
  type BaseMessage,
  type MessageContent,
} from "../../messages/index.js";
import {
  type BatchOptions,
  type CallbackHandler,
  failedBeforeThen,
  INVOKE_THEN,
  isStreamedRunWriter,
  mergeOf,
  parentRunIdOf,
  promiseTry,
  raceSignal,
  recordEnsuredMetadata,
  runBatch,
  thenOrElse,
  thenThroughInvoke,
} from "../../shared/index.js";
import {
  type BindToolsInput,
  convertToOpenAITool,
  isProviderTool,
  type JsonSchema,
  type StandardSchemaLike,
} from "../../tools/index.js";
import { getEnvironmentVariable } from "../env.js";
import { abortErrorFor, collectHandlers, raceWithSignal, runIdOf, splitCallOptions } from "./call-setup.js";
import type { ChatGenerationChunk } from "./chat-generation-chunk.js";
import { type BoundChatModel, ConfiguredChatModel } from "./configured-chat-model.js";
import { ChatModelRun } from "./llm-run.js";
import {
  messageToChunk,
  rememberHeardAnswer,
  toAIMessage,
  toMessages,
  toStandardContent,
} from "./message-conversion.js";
import {
  type ChatModelRunnable,
  ChatModelWithFallbacks,
  ChatModelWithRetry,
  type RetryFields,
} from "./retry-and-fallbacks.js";
import { type ChatModelStreamEvent, chunksToStreamEvents, messageFromStreamEvents } from "./stream-events.js";
import {
  type StructuredOutputDefaults,
  type StructuredOutputRunnable,
  structuredOutputFor,
} from "./structured-output.js";
import type {
  BaseChatModelCallOptions,
  BaseChatModelParams,
  BaseLanguageModelInput,
  BindToolsOptions,
  ChatGeneration,
  ChatResult,
  ModelProfile,
  StructuredOutputOptions,
} from "./types.js";

/** The RunnableConfig keys, removed from the options `_generate` receives. */
type ConfigKeys =
  | "tags"
  | "metadata"
  | "callbacks"
  | "runName"
  | "runId"
  | "configurable"
  | "recursionLimit"
  | "maxConcurrency"
  | "timeout";

/**
 * The LangSmith parameters a model reports in its start callback's metadata (`getLsParams`);
 * a subclass may return more keys.
 *
 * @example
 * ```ts
 * override getLsParams(options: this["ParsedCallOptions"]): LangSmithParams {
 *   return { ls_provider: "acme", ls_model_name: this.model, ls_model_type: "chat", ls_stop: options.stop };
 * }
 * ```
 */
export type LangSmithParams = {
  ls_provider?: string | undefined;
  ls_model_name?: string | undefined;
  ls_model_type: "chat";
  ls_temperature?: number | undefined;
  ls_max_tokens?: number | undefined;
  ls_stop?: string[] | undefined;
  ls_integration?: string | undefined;
};

/**
 * What {@link BaseChatModel.toJSON} returns: LangChain.js's serialized form of a model that does
 * not opt in to serialization.
 */
export interface SerializedChatModel {
  lc: 1;
  type: "not_implemented";
  id: string[];
}

/** Everything one call needs once its options are resolved. */
interface PreparedCall<Parsed> {
  messages: BaseMessage[];
  parsed: Parsed;
  signal: AbortSignal | undefined;
  run: ChatModelRun | undefined;
  /**
   * Id given to messages the model left without one: `run-<run id>` when callbacks hear the call
   * (made on first use), none otherwise, as in LangChain.js.
   */
  fallbackId: () => string | undefined;
  /** The call already waited the turns a streamed run's calls wait (see `invokePrepared`). */
  waited?: boolean;
}

function noop(): void {}

/**
 * The base class of chat models, shaped like LangChain.js `BaseChatModel` so that custom
 * models port unchanged: implement `_llmType()` and
 * `_generate(messages, options, runManager?)` returning `{ generations: [{ message, text }] }`,
 * and optionally `_streamResponseChunks(messages, options, runManager?)` yielding
 * {@link ChatGenerationChunk}s.
 *
 * The base class resolves each call's config over the ambient one (the graph task's), reports
 * to callbacks (`handleChatModelStart`, `handleLLMEnd`, `handleLLMError`; `handleLLMNewToken`
 * for the chunks `_streamResponseChunks` reports through its `runManager`) only when handlers
 * exist, streams inside `invoke` when a handler sets `lc_prefer_streaming`, gives messages without an
 * id one `run-<run id>` id when handlers hear the call (none otherwise, as in LangChain.js), and
 * honours `signal` and `timeout`. `bindTools` (tools reach `_generate` as `options.tools` in
 * OpenAI function format) and `withStructuredOutput` (function calling) work for every
 * subclass.
 *
 * @example
 * ```ts
 * class EchoModel extends BaseChatModel {
 *   _llmType() { return "echo"; }
 *   async _generate(messages: BaseMessage[]) {
 *     const text = messages.at(-1)?.text ?? "";
 *     return { generations: [{ text, message: new AIMessage(text) }] };
 *   }
 * }
 * await new EchoModel({}).invoke("hi"); // AIMessage("hi")
 * ```
 */
export abstract class BaseChatModel<CallOptions extends BaseChatModelCallOptions = BaseChatModelCallOptions> {
  /** The options type `_generate` receives: the call options without the runnable-config keys. */
  declare ParsedCallOptions: Omit<CallOptions, ConfigKeys>;
  /** The call options type of `invoke`. */
  declare CallOptions: CallOptions;

  callbacks: CallbackHandler[] | undefined;
  tags: string[];
  metadata: Record<string, unknown>;
  /** Never stream (`stream()` yields the whole message once). */
  disableStreaming = false;
  verbose = false;
  /** `"v1"`: answers carry standard content blocks (see {@link BaseChatModelParams.outputVersion}). */
  outputVersion: "v0" | "v1";
  /**
   * LangChain.js's serialization flag; `false`, so {@link toJSON} gives the `not_implemented`
   * stub (as LangChain.js does for a model that does not opt in).
   */
  lc_serializable = false;

  constructor(fields: BaseChatModelParams = {}) {
    this.callbacks = fields.callbacks;
    this.tags = fields.tags ?? [];
    this.metadata = fields.metadata ?? {};
    if (fields.disableStreaming !== undefined) this.disableStreaming = fields.disableStreaming;
    if (fields.verbose !== undefined) this.verbose = fields.verbose;
    const version = fields.outputVersion ?? getEnvironmentVariable("LC_OUTPUT_VERSION");
    this.outputVersion = version === "v1" ? "v1" : "v0";
  }

  /** A short name of the model type, e.g. `"openai"`. */
  abstract _llmType(): string;

  /** Produces the answer to `messages`. */
  abstract _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: ChatModelRun,
  ): Promise<ChatResult>;

  /** Streams the answer; models that can stream override this. */
  // biome-ignore lint/correctness/useYield: the default implementation only reports that streaming is missing
  async *_streamResponseChunks(
    _messages: BaseMessage[],
    _options: this["ParsedCallOptions"],
    _runManager?: ChatModelRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    throw new Error("Not implemented.");
  }

  /**
   * Streams the answer as protocol events (see {@link ChatModelStreamEvent}). By default they are
   * made from `_streamResponseChunks` (see {@link chunksToStreamEvents}); a provider overrides
   * it to say what its stream says (why it stopped, its own events as `provider` events). A
   * call streams this way when a callback handler asks for it
   * (`lc_prefer_chat_model_stream_events`, as `streamEvents` v3's does), and answers with the
   * message the events assemble to. As in LangChain.js, `runManager` is not passed then.
   */
  async *_streamChatModelEvents(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: ChatModelRun,
  ): AsyncGenerator<ChatModelStreamEvent> {
    yield* chunksToStreamEvents(this._streamResponseChunks(messages, options, runManager));
  }

  /** LangChain.js serialization namespace. */
  get lc_namespace(): string[] {
    return ["langchain", "chat_models", this._llmType()];
  }

  /** The class's name in serialized ids (LangChain.js `Serializable.lc_name`); subclasses may override it. */
  static lc_name(): string {
    // biome-ignore lint/complexity/noThisInStatic: the name of the subclass it is called on
    return this.name;
  }

  /** The kind of language model (LangChain.js `_modelType`). */
  _modelType(): string {
    return "base_chat_model";
  }

  /** The call-option keys LangChain.js's `BaseChatModel` lists. */
  get callKeys(): string[] {
    return ["stop", "timeout", "signal", "tags", "metadata", "callbacks", "outputVersion"];
  }

  /**
   * The model as LangChain.js serializes a model that is not serializable:
   * `{ lc: 1, type: "not_implemented", id: [...lc_namespace, className] }`. It is also the first
   * argument of `handleChatModelStart`. Keys and settings are never written out.
   */
  toJSON(): SerializedChatModel {
    return { lc: 1, type: "not_implemented", id: [...this.lc_namespace, classNameOf(this)] };
  }

  /** What the model can do; providers fill this in from their model tables. */
  get profile(): ModelProfile {
    return {};
  }

  /**
   * An estimate of the tokens in `content`: one token per four characters of its text (text
   * blocks only, as LangChain.js counts when it has no tokenizer). It makes a model usable as
   * `trimMessages`'s `tokenCounter`; override it to use a real tokenizer.
   *
   * @example
   * ```ts
   * await model.getNumTokens("What is the weather in Suzhou?"); // 8
   * await trimMessages(history, { maxTokens: 4000, tokenCounter: model });
   * ```
   */
  async getNumTokens(content: MessageContent): Promise<number> {
    let text = "";
    if (typeof content === "string") text = content;
    else {
      for (const block of content) {
        if (block.type === "text" && typeof block.text === "string") text += block.text;
      }
    }
    return Math.ceil(text.length / 4);
  }

  /**
   * The model's name (LangChain.js `Runnable.getName`): its own `name` when it has one, else its
   * class's `lc_name()` (the class name unless a subclass overrides it). `ls_provider` derives
   * from it. A `suffix` is appended, as in LangChain.js.
   */
  getName(suffix?: string): string {
    const own: unknown = (this as { name?: unknown }).name;
    const name = typeof own === "string" ? own : classNameOf(this);
    return suffix ? `${name}${suffix}` : name;
  }

  /** LangSmith-style parameters reported in the start callback's metadata ({@link LangSmithParams}). */
  getLsParams(options: this["ParsedCallOptions"]): Record<string, unknown> {
    const name = this.getName();
    // LangChain.js's keys in its order; `ls_stop` is there (undefined) when the call has no stop
    return {
      ls_model_type: "chat",
      ls_stop: options.stop,
      ls_provider: name.startsWith("Chat") ? name.replace("Chat", "") : name,
    };
  }

  /** True when `_streamResponseChunks` is implemented and streaming is not disabled. */
  protected canStream(): boolean {
    return (
      !this.disableStreaming && this._streamResponseChunks !== BaseChatModel.prototype._streamResponseChunks
    );
  }

  /** True when the model can stream protocol events and streaming is not disabled. */
  protected canStreamEvents(): boolean {
    return (
      !this.disableStreaming &&
      (this._streamChatModelEvents !== BaseChatModel.prototype._streamChatModelEvents ||
        this._streamResponseChunks !== BaseChatModel.prototype._streamResponseChunks)
    );
  }

  /**
   * The error a non-streamed call fails with when `signal` aborts while `_generate` runs (its
   * `timeout` call option included): an `AbortError` with the message LangChain.js's provider
   * models fail with then, by default the signal's reason's (see `docs/models.md#errors`).
   */
  protected generateAbortError(signal: AbortSignal): Error {
    return abortErrorFor(signal);
  }

  /** Whether `invoke` streams internally even without an `lc_prefer_streaming` handler. */
  protected streamsInInvoke(_options: this["ParsedCallOptions"]): boolean {
    return false;
  }

  /** Answers `input` with one `AIMessage`. */
  invoke(input: BaseLanguageModelInput, options?: Partial<CallOptions>): Promise<AIMessage> {
    return promiseTry(() => this.invokePrepared(this.prepareCall(input, options)));
  }

  /**
   * `invoke`, with `then` run on the answer in the continuation that finishes the call (see
   * `invokeThen` in shared/: the agent's model node saves a promise per model call this way). A
   * subclass that replaces `invoke` is called through it.
   *
   * @internal
   */
  [INVOKE_THEN]<R>(
    input: BaseLanguageModelInput,
    options: Partial<CallOptions> | undefined,
    then: (answer: AIMessage) => R | PromiseLike<R>,
    onError?: (error: unknown) => R | PromiseLike<R>,
  ): Promise<R> {
    if (this.invoke !== BaseChatModel.prototype.invoke)
      return thenThroughInvoke(this, input, options, then, onError);
    let call: PreparedCall<this["ParsedCallOptions"]>;
    try {
      call = this.prepareCall(input, options);
    } catch (error) {
      return failedBeforeThen(error, onError);
    }
    return this.invokePrepared(call, then, onError);
  }

  /**
   * Streams the answer as `AIMessageChunk`s that share one id and concatenate (`concat`) to
   * the message `invoke` would return. As in LangChain.js, await the call, then iterate.
   *
   * @example
   * ```ts
   * for await (const chunk of await model.stream("Tell me a joke")) process.stdout.write(chunk.text);
   * ```
   */
  async stream(
    input: BaseLanguageModelInput,
    options?: Partial<CallOptions>,
  ): Promise<AsyncGenerator<AIMessageChunk>> {
    const call = this.prepareCall(input, options);
    const generator = this.streamPrepared(call);
    // Start at once so that errors such as a rejected API key surface from `await model.stream()`.
    const first = await generator.next();
    return (async function* () {
      if (first.done) return;
      yield first.value;
      yield* generator;
    })();
  }

  /**
   * Invokes the model on several inputs, at most `maxConcurrency` at a time. With
   * `{ returnExceptions: true }` a failed input gives its error in its place.
   */
  batch(
    inputs: BaseLanguageModelInput[],
    options?: Partial<CallOptions> | Partial<CallOptions>[],
    batchOptions?: BatchOptions & { returnExceptions?: false },
  ): Promise<AIMessage[]>;
  batch(
    inputs: BaseLanguageModelInput[],
    options: Partial<CallOptions> | Partial<CallOptions>[] | undefined,
    batchOptions: BatchOptions & { returnExceptions: true },
  ): Promise<(AIMessage | Error)[]>;
  batch(
    inputs: BaseLanguageModelInput[],
    options?: Partial<CallOptions> | Partial<CallOptions>[],
    batchOptions?: BatchOptions,
  ): Promise<(AIMessage | Error)[]>;
  batch(
    inputs: BaseLanguageModelInput[],
    options?: Partial<CallOptions> | Partial<CallOptions>[],
    batchOptions?: BatchOptions,
  ): Promise<(AIMessage | Error)[]> {
    return runBatch<BaseLanguageModelInput, Partial<CallOptions>, AIMessage>(
      inputs,
      options,
      batchOptions,
      (input, opts) => this.invoke(input, opts),
    );
  }

  /**
   * Returns a model that offers `tools` on every call. Tools reach `_generate` as
   * `options.tools` in OpenAI function format (`{ type: "function", function: { name,
   * description, parameters } }`), with `tool_choice`, `parallel_tool_calls` and `strict`
   * when given.
   *
   * @example
   * ```ts
   * const withTools = model.bindTools([getWeather], { tool_choice: "any" });
   * const reply = await withTools.invoke("Weather in Suzhou?");
   * reply.tool_calls; // [{ name: "get_weather", args: { city: "Suzhou" }, … }]
   * ```
   */
  bindTools(tools: BindToolsInput[], options: BindToolsOptions = {}): BoundChatModel<CallOptions> {
    const { toolChoice, parallelToolCalls, ...rest } = options;
    const kwargs: Record<string, unknown> = { ...rest };
    const strict = options.strict;
    // provider tools (server tools the provider runs) are kept as their provider describes them
    kwargs.tools = tools.map((t) =>
      isProviderTool(t) ? t : convertToOpenAITool(t, strict === undefined ? {} : { strict }),
    );
    const choice = options.tool_choice ?? toolChoice;
    if (choice !== undefined) kwargs.tool_choice = choice;
    else delete kwargs.tool_choice;
    const parallel = options.parallel_tool_calls ?? parallelToolCalls;
    if (parallel !== undefined) kwargs.parallel_tool_calls = parallel;
    else delete kwargs.parallel_tool_calls;
    if (strict === undefined) delete kwargs.strict;
    return new ConfiguredChatModel<CallOptions>(this, kwargs as Partial<CallOptions>, {}, tools);
  }

  /** Returns a model whose calls all use `config` (merged under each call's own options). */
  withConfig(config: Partial<CallOptions>): ConfiguredChatModel<CallOptions> {
    return new ConfiguredChatModel<CallOptions>(this, {}, config);
  }

  /** Returns the model with `invoke` retried (LangChain.js `withRetry`; see {@link ChatModelWithRetry}). */
  withRetry(fields?: RetryFields): ChatModelWithRetry<CallOptions> {
    return new ChatModelWithRetry<CallOptions>(this, fields);
  }

  /**
   * Returns the model with fallbacks tried in turn when it fails (LangChain.js
   * `withFallbacks`, given the list or `{ fallbacks }`; see {@link ChatModelWithFallbacks}).
   */
  withFallbacks(
    fallbacks: ChatModelRunnable<CallOptions>[] | { fallbacks: ChatModelRunnable<CallOptions>[] },
  ): ChatModelWithFallbacks<CallOptions> {
    return new ChatModelWithFallbacks<CallOptions>(
      this,
      Array.isArray(fallbacks) ? fallbacks : fallbacks.fallbacks,
    );
  }

  /** The parameters a call sends to the provider (LangChain.js `invocationParams`); `{}` unless overridden. */
  invocationParams(_options?: this["ParsedCallOptions"]): Record<string, unknown> {
    return {};
  }

  /** The parameters that identify the model (LangChain.js `_identifyingParams`); `{}` unless overridden. */
  _identifyingParams(): Record<string, unknown> {
    return {};
  }

  /**
   * Returns a runnable whose `invoke` answers with data matching `schema` (a Zod 4 schema or
   * JSON Schema). The default method is function calling: the schema is offered as a tool
   * named `name` (default `"extract"`, or the JSON Schema's `title`) and the arguments of the
   * model's call to it are returned, validated by the schema. `includeRaw: true` returns
   * `{ raw, parsed }` and never throws on a parse failure (`parsed: null`).
   *
   * @example
   * ```ts
   * const extractor = model.withStructuredOutput(z.object({ name: z.string(), age: z.number() }), { name: "person" });
   * const person = await extractor.invoke("Ada is 36"); // { name: "Ada", age: 36 }
   * ```
   */
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
    return structuredOutputFor(this, schema, options, this.structuredOutputDefaults(options));
  }

  /**
   * The default method of `withStructuredOutput`, which methods this model supports, whether
   * `"jsonSchema"` asks for strict schema adherence for a schema object (Zod, Standard Schema)
   * unless told `strict: false`, and `nameFromSchema`: a JSON Schema's own `name` names the tool
   * even over `options.name`, as in LangChain.js's base implementation. A model may reject
   * options it cannot honour here (it is called with the caller's options).
   */
  protected structuredOutputDefaults(_options: StructuredOutputOptions = {}): StructuredOutputDefaults {
    return { method: "functionCalling", supported: ["functionCalling"], nameFromSchema: true };
  }

  private prepareCall(
    input: BaseLanguageModelInput,
    options: Partial<CallOptions> | undefined,
  ): PreparedCall<this["ParsedCallOptions"]> {
    const messages = toMessages(input);
    const { config, callOptions, signal } = splitCallOptions(options);
    const parsed = callOptions as this["ParsedCallOptions"];
    const handlers = collectHandlers(config, this.callbacks);
    let runId = config.runId;
    const ensureRunId = () => {
      runId ??= runIdOf(config);
      return runId;
    };
    let run: ChatModelRun | undefined;
    if (handlers !== undefined) {
      run = new ChatModelRun(
        ensureRunId(),
        handlers,
        [...new Set([...(config.tags ?? []), ...this.tags])],
        parentRunIdOf(config),
      );
      // as LangChain.js's getLsParamsWithDefaults: the integration tag even when a subclass
      // replaces getLsParams
      const metadata: Record<string, unknown> = { ...this.metadata, ...config.metadata };
      recordEnsuredMetadata(metadata, config.configurable, config.timeout);
      Object.assign(metadata, this.getLsParams(parsed));
      metadata.ls_integration = "langchain_chat_model";
      // the run is named after the class, whatever `name` says (as LangChain.js serializes it)
      run.start(
        this.toJSON(),
        messages,
        { options: parsed, invocation_params: this.invocationParams(parsed), batch_size: 1 },
        metadata,
        config.runName,
      );
    }
    let fallbackId: string | undefined;
    return {
      messages,
      parsed,
      signal,
      run,
      fallbackId: () => {
        if (run === undefined) return undefined;
        fallbackId ??= `run-${ensureRunId()}`;
        return fallbackId;
      },
    };
  }

  /**
   * How `invokePrepared` answers the call: through `_streamChatModelEvents` (`"events"`, for a
   * handler that prefers stream events), `_streamResponseChunks` (`"chunks"`, for one that prefers
   * streaming, or a model that streams inside `invoke`), else `_generate`.
   */
  private callMode(call: PreparedCall<this["ParsedCallOptions"]>): "events" | "chunks" | "generate" {
    if (call.run?.prefersStreamEvents === true && this.canStreamEvents()) return "events";
    if ((call.run?.prefersStreaming === true || this.streamsInInvoke(call.parsed)) && this.canStream())
      return "chunks";
    return "generate";
  }

  /**
   * One model call. The common path (no streaming) is one continuation on `_generate`'s promise
   * rather than an `async` function: under Node's `AsyncLocalStorage` every promise and every
   * resumption runs hooks.
   */
  private invokePrepared(call: PreparedCall<this["ParsedCallOptions"]>): Promise<AIMessage>;
  private invokePrepared<R>(
    call: PreparedCall<this["ParsedCallOptions"]>,
    then: (answer: AIMessage) => R | PromiseLike<R>,
    onError: ((error: unknown) => R | PromiseLike<R>) | undefined,
  ): Promise<R>;
  private invokePrepared<R>(
    call: PreparedCall<this["ParsedCallOptions"]>,
    then?: (answer: AIMessage) => R | PromiseLike<R>,
    onError?: (error: unknown) => R | PromiseLike<R>,
  ): Promise<AIMessage | R> {
    // In a run streamed to a consumer, the call reaches the model as late as LangChain.js's does
    // (see streamed-run.ts in shared/): one microtask turn later, two when it streams.
    if (call.waited !== true && isStreamedRunWriter((call.parsed as { writer?: unknown }).writer)) {
      call.waited = true;
      const again = () =>
        then === undefined ? this.invokePrepared(call) : this.invokePrepared(call, then, onError);
      const turn = Promise.resolve();
      return (this.callMode(call) === "generate" ? turn : turn.then(noop)).then<AIMessage | R>(again);
    }
    // a handler with `raiseError` and `awaitHandlers` that failed as the call started fails it
    const started = call.run?.takeRaised();
    if (started !== undefined) {
      return started.then<AIMessage | R, AIMessage | R>(
        () => (then === undefined ? this.invokePrepared(call) : this.invokePrepared(call, then, onError)),
        (error: unknown) => failedBeforeThen(error, onError),
      );
    }
    const fail = (error: unknown): Promise<never> => {
      const raised = call.run?.error(error);
      if (raised === undefined) throw error;
      return raised.then(() => Promise.reject(error));
    };
    // the call's failure, reported, then the caller's `onError` (which `then`'s errors never reach)
    const failTo = (error: unknown): AIMessage | R | PromiseLike<R> => {
      const raised = call.run?.error(error);
      if (raised !== undefined)
        return raised.then(
          () => failedBeforeThen(error, onError),
          (raisedError: unknown) => failedBeforeThen(raisedError, onError),
        );
      if (onError === undefined) throw error;
      return onError(error);
    };
    try {
      if (call.signal?.aborted) throw abortErrorFor(call.signal);
      const mode = this.callMode(call);
      if (mode === "events") {
        const run = call.run as ChatModelRun;
        const streamed = thenOrElse(
          this.invokeStreamingEvents(call, run),
          (message) => {
            run.end(message, tokenUsageOf(message));
            // a handler that fails hearing the end fails the call (and hears it fail), as in LangChain.js
            const raised = run.takeRaised();
            return raised === undefined ? message : raised.then(() => message, fail);
          },
          fail,
        );
        return then === undefined ? streamed : streamed.then(then, onError);
      }
      if (mode === "chunks") {
        // callbacks get the joined chunks, as in LangChain.js; the caller an AIMessage
        const streamed = thenOrElse(
          this.invokeStreaming(call),
          (whole) => {
            const message = this.finishCall(call, toAIMessage(whole), undefined, undefined, whole);
            const raised = call.run?.takeRaised();
            return raised === undefined ? message : raised.then(() => message, fail);
          },
          fail,
        );
        return then === undefined ? streamed : streamed.then(then, onError);
      }
      // a subclass's `_generate` may return a plain value
      // `promptIndex`: the input's place in the batch LangChain.js's generate() runs, always 0 here
      const generated = Promise.resolve(
        this._generate(call.messages, { ...call.parsed, promptIndex: 0 }, call.run),
      );
      const answer = (result: ChatResult): AIMessage => {
        const [generation, ...others] = result.generations;
        if (generation === undefined) {
          throw new Error(
            `${this.getName()}._generate returned no generations; return { generations: [{ message, text }] }.`,
          );
        }
        const returned = generation.message;
        const message = toAIMessage(returned);
        const llmOutput = result.llmOutput;
        // merged with mergeOf rather than spreads (see object-copy.ts in shared/); as in
        // LangChain.js, llmOutput joins the metadata only when there is one generation
        message.response_metadata = mergeOf(
          others.length === 0 ? llmOutput : undefined,
          generation.generationInfo,
          message.response_metadata,
        );
        // the other generations reach handleLLMEnd only, completed as LangChain.js completes them
        if (call.run !== undefined) {
          for (const other of others) {
            other.message.response_metadata = mergeOf(other.generationInfo, other.message.response_metadata);
            if (other.message.id === undefined) other.message.id = call.fallbackId();
          }
        }
        // callbacks get a generation whose message is a chunk (a streamed answer's) as it was
        // returned, its metadata completed, as in LangChain.js
        const asReturned = returned !== message && call.run !== undefined ? generation : undefined;
        if (asReturned !== undefined) returned.response_metadata = { ...message.response_metadata };
        return this.finishCall(call, message, llmOutput, generation.generationInfo, undefined, {
          text: generation.text,
          others,
          asReturned,
        });
      };
      // the caller's `then` (if any) in the same continuation; its errors are the caller's
      const raced = raceSignal(generated, call.signal, () =>
        this.generateAbortError(call.signal as AbortSignal),
      );
      return raced.then<AIMessage | R, AIMessage | R>((result) => {
        let message: AIMessage;
        try {
          message = answer(result);
        } catch (error) {
          return failTo(error);
        }
        // a handler that fails hearing the end fails the call (unheard by `handleLLMError`), as in LangChain.js
        const raised = call.run?.takeRaised();
        if (raised !== undefined)
          return raised.then(
            () => (then === undefined ? message : then(message)),
            (error: unknown) => failedBeforeThen(error, onError),
          );
        return then === undefined ? message : then(message);
      }, failTo);
    } catch (error) {
      return promiseTry(() => failTo(error));
    }
  }

  /**
   * A call streamed as protocol events: each is reported to the run (a `message-start` without
   * an id gets `run-<run id>`), and the answer is the message they assemble to.
   */
  private async invokeStreamingEvents(
    call: PreparedCall<this["ParsedCallOptions"]>,
    run: ChatModelRun,
  ): Promise<AIMessage> {
    const events: ChatModelStreamEvent[] = [];
    const iterator = this._streamChatModelEvents(call.messages, call.parsed)[Symbol.asyncIterator]();
    try {
      while (true) {
        const next = await raceWithSignal(iterator.next(), call.signal);
        if (next.done) break;
        let event = next.value;
        if (event.event === "message-start" && event.id == null) event = { ...event, id: `run-${run.runId}` };
        run.streamEvent(event);
        const raised = run.takeRaised();
        if (raised !== undefined) await raised;
        events.push(event);
      }
    } finally {
      // leaving early (abort, error) closes the model's stream
      void Promise.resolve(iterator.return?.(undefined)).catch(() => {});
    }
    if (call.signal?.aborted) throw abortErrorFor(call.signal);
    if (events.length === 0) throw new Error("Received empty response from chat model call.");
    const message = messageFromStreamEvents(events);
    if (message.id === undefined) message.id = call.fallbackId();
    return message;
  }

  /** The streamed chunks of a call, concatenated. */
  private async invokeStreaming(call: PreparedCall<this["ParsedCallOptions"]>): Promise<AIMessageChunk> {
    let whole: AIMessageChunk | undefined;
    // a model that streams in `invoke` of its own accord (`streaming: true`) answers with its
    // generations' info in the metadata, as LangChain.js's providers do; an invoke streamed for a
    // handler (the `messages` stream mode) joins the chunks as they are, as LangChain.js does
    const withInfo = call.run?.prefersStreaming !== true;
    for await (const chunk of this.streamChunks(call, withInfo))
      whole = whole === undefined ? chunk : whole.concat(chunk);
    if (whole === undefined) throw new Error("Received empty response from chat model call.");
    return whole;
  }

  private finishCall(
    call: PreparedCall<this["ParsedCallOptions"]>,
    answer: AIMessage,
    llmOutput?: Record<string, unknown>,
    generationInfo?: Record<string, unknown>,
    streamed?: AIMessageChunk,
    generated?: { text: string; others: ChatGeneration[]; asReturned?: ChatGeneration | undefined },
  ): AIMessage {
    const standard = this.standardContentFor(call);
    const message = standard ? toStandardContent(answer) : answer;
    if (message.id === undefined) message.id = call.fallbackId();
    const run = call.run;
    if (run !== undefined) {
      if (streamed === undefined) {
        const asReturned = standard ? undefined : generated?.asReturned;
        if (asReturned !== undefined && asReturned.message.id === undefined)
          asReturned.message.id = message.id;
        if (asReturned !== undefined) rememberHeardAnswer(message, asReturned.message);
        run.end(
          message,
          llmOutput,
          generationInfo,
          generated?.text ?? message.text,
          generated?.others,
          asReturned,
        );
      } else {
        // the joined chunks as the answer's chunk form: its content and id
        const chunk = standard ? messageToChunk(message) : streamed;
        if (chunk.id === undefined) chunk.id = message.id;
        rememberHeardAnswer(message, chunk);
        run.endStreamed(chunk);
      }
    }
    return message;
  }

  /** Whether this call answers with standard content blocks (`outputVersion: "v1"`). */
  private standardContentFor(call: PreparedCall<this["ParsedCallOptions"]>): boolean {
    return (call.parsed.outputVersion ?? this.outputVersion) === "v1";
  }

  private async *streamPrepared(
    call: PreparedCall<this["ParsedCallOptions"]>,
  ): AsyncGenerator<AIMessageChunk> {
    const started = call.run?.takeRaised();
    if (started !== undefined) await started;
    if (!this.canStream()) {
      yield messageToChunk(await this.invokePrepared(call));
      return;
    }
    let whole: AIMessageChunk | undefined;
    try {
      if (call.signal?.aborted) throw abortErrorFor(call.signal);
      const standard = this.standardContentFor(call);
      for await (const chunk of this.streamChunks(call, true)) {
        whole = whole === undefined ? chunk : whole.concat(chunk);
        yield standard ? toStandardContent(chunk) : chunk;
      }
    } catch (error) {
      const raised = call.run?.error(error);
      if (raised !== undefined) await raised;
      throw error;
    }
    if (call.run !== undefined) {
      // callbacks get the joined chunks as the model yielded them (not in the v1 form the
      // caller got), as in LangChain.js
      if (whole === undefined) call.run.end(new AIMessage({ content: "", id: call.fallbackId() }));
      else call.run.endStreamed(whole);
      const raised = call.run.takeRaised();
      if (raised !== undefined) await raised;
    }
  }

  /**
   * Whether the base class reports each chunk `_streamResponseChunks` yields to
   * `handleLLMNewToken` (agentgraph's own models do). `false` by default, as in LangChain.js:
   * a model reports its tokens itself, with `runManager.handleLLMNewToken`; the answer of one
   * that does not reaches a `messages` stream whole, when the call ends.
   */
  protected reportsStreamedChunks(): boolean {
    return false;
  }

  /**
   * Runs `_streamResponseChunks`, giving chunks the call's id (see {@link reportsStreamedChunks}).
   * With `withInfo` (`stream()`), each generation's `generationInfo` is merged under its chunk's
   * `response_metadata`; `invoke` leaves the chunks as they are (both as in LangChain.js).
   */
  private async *streamChunks(
    call: PreparedCall<this["ParsedCallOptions"]>,
    withInfo = false,
  ): AsyncGenerator<AIMessageChunk> {
    const report = call.run !== undefined && this.reportsStreamedChunks();
    if (call.run !== undefined) call.run.baseReportsTokens = report;
    const iterator = this._streamResponseChunks(call.messages, call.parsed, call.run)[Symbol.asyncIterator]();
    try {
      while (true) {
        const next = await raceWithSignal(iterator.next(), call.signal);
        if (next.done) break;
        const generation = next.value;
        const chunk = generation.message;
        if (chunk.id === undefined) chunk.id = call.fallbackId();
        if (withInfo && generation.generationInfo !== undefined) {
          chunk.response_metadata = { ...generation.generationInfo, ...chunk.response_metadata };
        }
        if (call.run !== undefined) {
          call.run.streamed(generation);
          if (report) {
            call.run.chunk(generation.text ?? chunk.text, chunk, generation.generationInfo);
            const raised = call.run.takeRaised();
            if (raised !== undefined) await raised;
          }
        }
        yield chunk;
      }
    } finally {
      // Leaving early (abort, error, consumer break) closes the model's stream.
      void Promise.resolve(iterator.return?.(undefined)).catch(() => {});
    }
  }
}

/** `llmOutput.tokenUsage` of an answer with usage, as LangChain.js reports a streamed call's. */
function tokenUsageOf(message: AIMessage): Record<string, unknown> | undefined {
  const usage = message.usage_metadata;
  if (usage === undefined) return undefined;
  return {
    tokenUsage: {
      promptTokens: usage.input_tokens,
      completionTokens: usage.output_tokens,
      totalTokens: usage.total_tokens,
    },
  };
}

/** A model's class name: its static `lc_name()` when it has one, else the constructor's name. */
function classNameOf(model: object): string {
  const ctor = model.constructor as { name: string; lc_name?: () => unknown };
  const named = typeof ctor.lc_name === "function" ? ctor.lc_name() : undefined;
  return typeof named === "string" ? named : ctor.name;
}
