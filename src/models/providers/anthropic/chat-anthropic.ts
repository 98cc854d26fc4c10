import type { AIMessage, BaseMessage, ContentBlock } from "../../../messages/index.js";
import { InvalidArgumentError } from "../../../shared/index.js";
import {
  type BindToolsInput,
  isStandardSchema,
  type JsonSchema,
  type StandardSchemaLike,
} from "../../../tools/index.js";
import { ConfiguredChatModel } from "../../chat-model/configured-chat-model.js";
import type { ChatModelRun } from "../../chat-model/llm-run.js";
import type { ChatModelStreamEvent } from "../../chat-model/stream-events.js";
import {
  type StructuredOutputModel,
  type StructuredOutputRunnable,
  structuredOutputFor,
} from "../../chat-model/structured-output.js";
import type {
  BaseChatModelCallOptions,
  BindToolsOptions,
  ChatResult,
  ModelProfile,
  StructuredOutputOptions,
} from "../../chat-model/types.js";
import { getEnvironmentVariable } from "../../env.js";
import { MissingApiKeyError, OutputParserException } from "../../errors/configuration-errors.js";
import type { ProviderErrorContext } from "../../errors/from-sdk-error.js";
import { modelProfile } from "../../profiles.js";
import type { ChatModelV1CallOptions, ChatModelV1Prompt } from "../../spec/index.js";
import { toolOptionsToSpec } from "../../spec-adapter/call-options-to-spec.js";
import { SpecChatModel, type SpecChatModelParams } from "../../spec-adapter/spec-chat-model.js";
import type { StreamPartsToChunks } from "../../spec-adapter/stream-parts-to-chunks.js";
import { AnthropicChatLanguageModel } from "./anthropic-chat-language-model.js";
import {
  type AnthropicClientLike,
  type AnthropicClientOptions,
  lazyAnthropicClient,
} from "./anthropic-client.js";
import { AnthropicStreamChunks } from "./anthropic-stream-chunks.js";
import { anthropicStreamEvents } from "./anthropic-stream-events.js";
import type { AnthropicRequest } from "./anthropic-wire.js";
import { closeJsonSchema } from "./close-json-schema.js";
import { formatAnthropicMessages } from "./format-anthropic-messages.js";
import { ANTHROPIC_BETAS, ANTHROPIC_PAYLOAD, isAdaptiveOnlyModel } from "./get-anthropic-args.js";
import { RESPONSE_CONTENT } from "./map-anthropic-response.js";
import { prepareAnthropicTools } from "./prepare-anthropic-tools.js";

const DEFAULT_MODEL = "claude-sonnet-4-6";
const DEFAULT_MAX_TOKENS = 2048;

/** What `@langchain/anthropic` throws when, with thinking on, a structured-output answer calls no tool. */
const THINKING_TOOL_CALLING =
  "Anthropic structured output relies on forced tool calling, which is not supported when `thinking` is enabled. This method will raise OutputParserException if tool calls are not generated. Consider disabling `thinking` or adjust your prompt to ensure the tool is called.";

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
  /** Report token usage on streamed chunks (default true). */
  streamUsage?: boolean | undefined;
  /** Beta features for every call (sent in `anthropic-beta`, on the beta endpoint). */
  betas?: string[] | undefined;
  /** `context_management` of every request. */
  contextManagement?: { edits?: Array<{ type: string; [key: string]: unknown }> } | undefined;
  /** `output_config` of every request (`{ effort: "low" }`, …). */
  outputConfig?: Record<string, unknown> | undefined;
  /** `inference_geo` of every request. */
  inferenceGeo?: string | undefined;
}

/**
 * Call options of {@link ChatAnthropic}: the base ones, plus extra HTTP `headers` for the
 * request and a top-level `cache_control` (as in `@langchain/anthropic`).
 *
 * @example
 * ```ts
 * await model.invoke("Hi", { headers: { "anthropic-beta": "files-api-2025-04-14" } });
 * ```
 */
export interface ChatAnthropicCallOptions extends BaseChatModelCallOptions {
  headers?: Record<string, string> | undefined;
  cache_control?: { type: "ephemeral"; ttl?: "5m" | "1h" } | undefined;
  /** Beta features for this call (sent in `anthropic-beta`, on the beta endpoint). */
  betas?: string[] | undefined;
  /** A code-execution container to reuse. */
  container?: string | undefined;
  /** MCP servers the API connects to. */
  mcp_servers?: Array<Record<string, unknown>> | undefined;
  /** Merged over the model's `outputConfig`. */
  outputConfig?: Record<string, unknown> | undefined;
  /** `output_config.format`, unless `outputConfig` has one. */
  outputFormat?: Record<string, unknown> | undefined;
  inferenceGeo?: string | undefined;
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
export class ChatAnthropic extends SpecChatModel<ChatAnthropicCallOptions> {
  /** The SDK client options given (`{}` unless given); the URL the model calls is {@link apiUrl}. */
  readonly clientOptions: AnthropicClientOptions;
  /** The API key the model uses (the `apiKey` option, else `anthropicApiKey`, else ANTHROPIC_API_KEY). */
  readonly apiKey: string;
  /**
   * The base URL the model calls (`anthropicApiUrl`, else `clientOptions.baseURL`, else
   * ANTHROPIC_API_URL or ANTHROPIC_BASE_URL), `undefined` for the SDK's default.
   */
  readonly apiUrl: string | undefined;
  /** Report token usage on streamed chunks (default true). */
  readonly streamUsage: boolean;
  readonly betas: string[] | undefined;
  readonly contextManagement: ChatAnthropicFields["contextManagement"];
  readonly outputConfig: Record<string, unknown> | undefined;
  readonly inferenceGeo: string | undefined;
  private readonly thinkingGiven: boolean;
  /** Extra request-body fields sent with every call (`{}` unless given). */
  readonly invocationKwargs: Record<string, unknown>;
  /** Top-k sampling. */
  readonly topK: number | undefined;
  /** Extended thinking settings (`{ type: "disabled" }` unless given), as in LangChain.js. */
  readonly thinking: NonNullable<AnthropicRequest["thinking"]>;
  private readonly client: () => Promise<AnthropicClientLike>;

  /**
   * `new ChatAnthropic({ model, … })`, or the model name first: `new
   * ChatAnthropic("claude-sonnet-4-6", { temperature: 0 })`, as in LangChain.js.
   */
  constructor(modelOrFields: string | ChatAnthropicFields = {}, moreFields?: ChatAnthropicFields) {
    const fields: ChatAnthropicFields =
      typeof modelOrFields === "string" ? { ...moreFields, model: modelOrFields } : (modelOrFields ?? {});
    const model = fields.model ?? fields.modelName ?? DEFAULT_MODEL;
    // as in LangChain.js: `anthropicApiUrl`, the client's `baseURL`, ANTHROPIC_API_URL, ANTHROPIC_BASE_URL
    const baseURL =
      fields.anthropicApiUrl ??
      fields.clientOptions?.baseURL ??
      getEnvironmentVariable("ANTHROPIC_API_URL") ??
      getEnvironmentVariable("ANTHROPIC_BASE_URL");
    const clientOptions: AnthropicClientOptions = { ...fields.clientOptions, baseURL };
    // as LangChain.js reads them back: the key it uses, the URL it calls, the client options given
    const context: ProviderErrorContext = {
      provider: "anthropic",
      displayName: "Anthropic",
      apiKeyHint: "the `apiKey` option or the ANTHROPIC_API_KEY environment variable",
      model,
      baseURL,
    };
    // the key is needed when the model is made, as in LangChain.js
    const apiKey = resolveApiKey(fields.apiKey ?? fields.anthropicApiKey);
    let factory: (() => Promise<AnthropicClientLike>) | undefined;
    const client = () => {
      factory ??= lazyAnthropicClient({ ...clientOptions, apiKey });
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
    this.clientOptions = fields.clientOptions ?? {};
    this.apiKey = apiKey;
    this.apiUrl = baseURL;
    this.thinking = fields.thinking ?? { type: "disabled" };
    this.thinkingGiven = fields.thinking !== undefined;
    this.invocationKwargs = fields.invocationKwargs ?? {};
    this.topK = fields.topK;
    this.streamUsage = fields.streamUsage ?? true;
    this.betas = fields.betas;
    this.contextManagement = fields.contextManagement;
    this.outputConfig = fields.outputConfig;
    this.inferenceGeo = fields.inferenceGeo;
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

  /** @deprecated Use `apiKey`. */
  get anthropicApiKey(): string {
    return this.apiKey;
  }

  /** The parameters that identify the model: `model_name` and the {@link invocationParams}, as `@langchain/anthropic` gives them. */
  override _identifyingParams(): Record<string, unknown> {
    return { model_name: this.model, ...this.invocationParams() };
  }

  /** The same as {@link _identifyingParams}. */
  identifyingParams(): Record<string, unknown> {
    return this._identifyingParams();
  }

  /** The model's stop sequences (the `stopSequences` option), as LangChain.js names them. */
  get stopSequences(): string[] | undefined {
    return this.stop;
  }

  protected override defaultProfile(): ModelProfile {
    return modelProfile("anthropic", this.model);
  }

  /**
   * The request parameters of a call, as `@langchain/anthropic` reports them (tools in
   * Anthropic's form; unset fields present as `undefined`); passed to callbacks as
   * `invocation_params`.
   */
  override invocationParams(options?: this["ParsedCallOptions"]): Record<string, unknown> {
    const call = (options ?? {}) as this["ParsedCallOptions"];
    const spec = toolOptionsToSpec(call as Record<string, unknown>);
    const { tools, tool_choice } = prepareAnthropicTools({ prompt: [], ...spec });
    const noTools = Array.isArray(call.tools) && call.tools.length === 0;
    checkToolChoice({ prompt: [], ...spec });
    const outputConfig: Record<string, unknown> = { ...this.outputConfig, ...call.outputConfig };
    if (call.outputFormat !== undefined && outputConfig.format === undefined)
      outputConfig.format = call.outputFormat;
    this.checkSampling(outputConfig);
    const thinking = this.thinking.type !== "disabled" || isAdaptiveOnlyModel(this.model);
    const params: Record<string, unknown> = {
      model: this.model,
      stop_sequences: call.stop ?? this.stop,
      stream: this.streaming,
      max_tokens: this.maxTokens,
      tools: noTools ? [] : tools,
      tool_choice,
      thinking: this.thinkingGiven ? this.thinking : undefined,
      context_management: this.contextManagement,
      ...this.invocationKwargs,
      container: call.container,
      betas: [
        ...new Set([
          ...(this.betas ?? []),
          ...(call.betas ?? []),
          ...toolBetas({ prompt: [], ...spec }),
          ...compactionBetas(this.contextManagement),
          ...taskBudgetBetas(this.model, outputConfig),
        ]),
      ],
      output_config: Object.keys(outputConfig).length > 0 ? outputConfig : undefined,
      inference_geo: call.inferenceGeo ?? this.inferenceGeo,
      mcp_servers: call.mcp_servers,
      cache_control: call.cache_control,
    };
    if (!thinking) {
      if (this.temperature !== undefined) params.temperature = this.temperature;
      if (this.topK !== undefined) params.top_k = this.topK;
      if (this.topP !== undefined) params.top_p = this.topP;
    }
    return params;
  }

  /**
   * Refuses the thinking and sampling settings `@langchain/anthropic` refuses, with its words: a
   * model that thinks adaptively only takes no `thinking.type: "enabled"`, no `budget_tokens`, no
   * `topK` and no `topP` or `temperature` other than 1 (a Fable model no `thinking.type:
   * "disabled"`, an Opus 5 one not with effort `xhigh`/`max`); with thinking on, other models
   * take no `topK`, `topP` or `temperature` other than 1.
   */
  private checkSampling(outputConfig: Record<string, unknown>): void {
    const model = this.model;
    const thinking = this.thinking as { type: string; budget_tokens?: unknown };
    const adaptiveOnly = isAdaptiveOnlyModel(model);
    const fable = model.startsWith("claude-fable-5");
    const refuse = (message: string) => {
      throw new InvalidArgumentError(message);
    };
    if (fable && this.thinkingGiven && thinking.type === "disabled") {
      refuse(
        `thinking.type="disabled" is not supported for ${model}; omit thinking to use adaptive thinking instead`,
      );
    }
    if (adaptiveOnly && thinking.type === "enabled") {
      refuse(`thinking.type="enabled" is not supported for ${model}; use thinking.type="adaptive" instead`);
    }
    if (adaptiveOnly && "budget_tokens" in thinking) {
      refuse(`thinking.budget_tokens is not supported for ${model}; use outputConfig.effort instead`);
    }
    const effort = outputConfig.effort;
    if (
      model.startsWith("claude-opus-5") &&
      thinking.type === "disabled" &&
      (effort === "xhigh" || effort === "max")
    ) {
      refuse(
        `thinking.type="disabled" is not supported for ${model} with outputConfig.effort="${effort}"; use thinking.type="adaptive" or omit thinking instead`,
      );
    }
    if (adaptiveOnly) {
      if (this.topK !== undefined) {
        refuse(
          `topK is not supported for ${model}; omit topK/topP/temperature or use model prompting instead`,
        );
      }
      if (this.topP !== undefined && this.topP !== 1) {
        refuse(`topP is not supported for ${model} when set to non-default values`);
      }
      if (this.temperature !== undefined && this.temperature !== 1) {
        refuse(`temperature is not supported for ${model} when set to non-default values`);
      }
    }
    if (!fable && (thinking.type === "enabled" || thinking.type === "adaptive")) {
      // a temperature of 1 is the API's own
      if (this.topK !== undefined) refuse("topK is not supported when thinking is enabled");
      if (this.topP !== undefined) refuse("topP is not supported when thinking is enabled");
      if (this.temperature !== undefined && this.temperature !== 1) {
        refuse("temperature is not supported when thinking is enabled");
      }
    }
  }

  /**
   * Tools in the form the Messages API takes, as `@langchain/anthropic`'s method of this name
   * gives them (`undefined` for none given): LangChain tools and OpenAI-format tools become `{
   * name, description, input_schema }` (with their Anthropic `extras`, and `strict` when given
   * here or on the tool), server tools and Anthropic-format tools stay as they are.
   *
   * @example
   * ```ts
   * model.formatStructuredToolToAnthropic([getWeather]);
   * // [{ name: "get_weather", description: "…", input_schema: { type: "object", … } }]
   * ```
   */
  formatStructuredToolToAnthropic(
    tools: BindToolsInput[] | undefined,
    fields: { strict?: boolean | undefined } = {},
  ): Record<string, unknown>[] | undefined {
    if (tools === undefined) return undefined;
    const spec = toolOptionsToSpec({ tools, strict: fields.strict });
    return (prepareAnthropicTools({ prompt: [], ...spec }).tools ?? []) as unknown as Record<
      string,
      unknown
    >[];
  }

  /** The LangSmith parameters, as `@langchain/anthropic` gives them (`ls_stop` is the call's). */
  override getLsParams(options: this["ParsedCallOptions"]): Record<string, unknown> {
    const params = this.invocationParams(options);
    return {
      ls_provider: "anthropic",
      ls_model_name: this.model,
      ls_model_type: "chat",
      ls_temperature: params.temperature ?? undefined,
      ls_max_tokens: params.max_tokens ?? undefined,
      ls_stop: options.stop,
    };
  }

  /**
   * Binds tools as `@langchain/anthropic` does: with `strict`, each tool is sent with
   * `strict: true` and its schema as it is (not closed as for OpenAI).
   */
  override bindTools(
    tools: BindToolsInput[],
    options: BindToolsOptions = {},
  ): ConfiguredChatModel<ChatAnthropicCallOptions> {
    const { strict, ...rest } = options;
    // the default binding is a ConfiguredChatModel (the wider declared type lets subclasses give themselves)
    const bound = super.bindTools(tools, rest) as ConfiguredChatModel<ChatAnthropicCallOptions>;
    if (strict === undefined) return bound;
    return new ConfiguredChatModel(this, { ...bound.kwargs, strict }, bound.config, bound.boundTools);
  }

  /**
   * Structured output as `@langchain/anthropic` gives it. `"jsonSchema"` (and `"jsonMode"`, read
   * as it) uses Anthropic's structured outputs: the schema, closed, goes in
   * `output_config.format` and the answer's JSON text is parsed. `"functionCalling"` (the
   * default) offers the schema as a tool: a schema in
   * Anthropic's tool form (`{ name, description, input_schema }`) is the tool itself, a JSON
   * Schema without a description is described `""`, and with thinking enabled the tool is
   * offered but not forced (the API refuses a forced tool with thinking).
   */
  override withStructuredOutput<RunOutput = Record<string, unknown>>(
    schema: StandardSchemaLike<RunOutput> | JsonSchema,
    options?: StructuredOutputOptions<false>,
  ): StructuredOutputRunnable<RunOutput>;
  override withStructuredOutput<RunOutput = Record<string, unknown>>(
    schema: StandardSchemaLike<RunOutput> | JsonSchema,
    options: StructuredOutputOptions<true>,
  ): StructuredOutputRunnable<{ raw: AIMessage; parsed: RunOutput | null; parsing_error?: unknown }>;
  override withStructuredOutput(
    schema: StandardSchemaLike | JsonSchema,
    options: StructuredOutputOptions = {},
  ): StructuredOutputRunnable<unknown> {
    const method = options.method ?? "functionCalling";
    if (method !== "functionCalling" && method !== "jsonSchema" && method !== "jsonMode") {
      throw new InvalidArgumentError(
        `Unrecognized structured output method '${String(method)}'. Expected 'functionCalling' or 'jsonSchema'`,
      );
    }
    if (options.strict !== undefined && method !== "functionCalling") {
      throw new InvalidArgumentError(
        `Argument \`strict\` is only supported for \`method\` = "functionCalling" on Anthropic models. Got method = "${method}".`,
      );
    }
    if (method === "jsonMode") {
      console.warn('"jsonMode" is not supported for Anthropic models. Falling back to "jsonSchema".');
    }
    if (method === "jsonSchema" || method === "jsonMode") {
      // Anthropic's structured outputs (output_config.format); "jsonMode" is read as
      // "jsonSchema", as @langchain/anthropic reads it
      const { name: _name, ...rest } = options;
      return structuredOutputFor(
        this,
        schema,
        { ...rest, method: "jsonSchema" },
        {
          method: "jsonSchema",
          supported: ["jsonSchema"],
          tracingFormat: anthropicTracingFormat,
        },
      );
    }
    let input: StandardSchemaLike | JsonSchema = schema;
    let settings = options;
    const candidate = schema as { name?: unknown; description?: unknown; input_schema?: unknown };
    if (
      !isStandardSchema(schema) &&
      typeof candidate.name === "string" &&
      typeof candidate.description === "string" &&
      typeof candidate.input_schema === "object" &&
      candidate.input_schema !== null
    ) {
      input = {
        name: candidate.name,
        description: candidate.description,
        parameters: candidate.input_schema,
      };
      settings = { ...options, name: candidate.name };
    } else if (
      !isStandardSchema(schema) &&
      candidate.description === undefined &&
      (schema as { parameters?: unknown }).parameters === undefined
    ) {
      input = { name: options.name ?? "extract", description: "", parameters: schema };
    }
    const thinking = this.thinking.type !== "disabled";
    // @langchain/anthropic says so when the structured model is made
    if (thinking) console.warn(THINKING_TOOL_CALLING);
    const model: StructuredOutputModel = thinking
      ? {
          getName: () => this.getName(),
          invoke: (messages, callOptions) => this.invoke(messages, callOptions),
          bindTools: (tools, bindOptions) => {
            const bound = this.bindTools(tools, { ...bindOptions, tool_choice: undefined });
            return {
              // as @langchain/anthropic: the tool cannot be forced, so an answer that does not
              // call it fails (with its text) before any parsing, `includeRaw` or not
              invoke: async (input, callOptions) => {
                const answer = await bound.invoke(input, callOptions);
                if (answer.tool_calls === undefined || answer.tool_calls.length === 0) {
                  throw new OutputParserException(THINKING_TOOL_CALLING, answer.text);
                }
                return answer;
              },
              // the streamed answer is checked the same way once it has all arrived
              stream: async (input, callOptions) => {
                const chunks = await bound.stream(input, callOptions);
                return (async function* () {
                  let text = "";
                  let called = false;
                  for await (const chunk of chunks) {
                    called ||= chunk.tool_call_chunks.length > 0 || chunk.tool_calls.length > 0;
                    text += chunk.text;
                    yield chunk;
                  }
                  if (!called) throw new OutputParserException(THINKING_TOOL_CALLING, text);
                })();
              },
            };
          },
        }
      : this;
    return structuredOutputFor(model, input, settings, {
      ...this.structuredOutputDefaults(),
      tracingFormat: anthropicTracingFormat,
      // @langchain/anthropic's parser's words
      noToolCallText: "No parseable tool calls provided to AnthropicToolsOutputParser.",
    });
  }

  /**
   * The answer's metadata as `@langchain/anthropic` gives it: the response's fields other than
   * `content` (`id`, `type`, `role`, `model`, `stop_reason`, `stop_sequence`, `usage`) in both
   * `additional_kwargs` and `response_metadata`, the latter with `model_provider` (and, as
   * LangChain.js merges its `llmOutput` first, `role` and `type` after the other fields).
   */
  override async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: ChatModelRun,
  ): Promise<ChatResult> {
    this.checkStop(options);
    const result = await super._generate(messages, options, runManager);
    for (const generation of result.generations) {
      const {
        model_provider: _p,
        model_name: _n,
        finish_reason: _f,
        [RESPONSE_CONTENT]: raw,
        ...fields
      } = generation.message.response_metadata;
      const blocks = Array.isArray(raw) ? (raw as ContentBlock[]) : [];
      if (keepsBlocks(blocks)) generation.message.content = blocks.filter((b) => b.type !== "tool_use");
      generation.message.additional_kwargs = { ...generation.message.additional_kwargs, ...fields };
      const { role: _role, type: _type, ...output } = fields;
      generation.message.response_metadata = { ...output, ...fields, model_provider: "anthropic" };
    }
    return result;
  }

  /**
   * `invoke` of a `streaming: true` model streams through the same check as a non-streamed
   * call, as `@langchain/anthropic`'s `_generate` does (a stream() call, or an invoke that
   * streams for a `messages` stream mode, is not checked there either).
   */
  protected override streamsInInvoke(options: this["ParsedCallOptions"]): boolean {
    const streams = super.streamsInInvoke(options);
    if (streams) this.checkStop(options);
    return streams;
  }

  /** `@langchain/anthropic` refuses stop sequences given both to the model and to the call. */
  private checkStop(options: this["ParsedCallOptions"]): void {
    if (this.stop !== undefined && options.stop) {
      throw new InvalidArgumentError('"stopSequence" parameter found in input and default params');
    }
  }

  /**
   * The answer as protocol events made from the server's stream events (see
   * {@link anthropicStreamEvents}): each content block as the server streams it, why it
   * stopped and `provider` events.
   */
  override async *_streamChatModelEvents(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): AsyncGenerator<ChatModelStreamEvent> {
    yield* anthropicStreamEvents(this.rawStreamEvents(messages, options), { streamUsage: this.streamUsage });
  }

  /** The chunks are shaped as `@langchain/anthropic` shapes them (see {@link AnthropicStreamChunks}). */
  protected override streamChunkMapper(): StreamPartsToChunks {
    return new AnthropicStreamChunks(this.messageContext(), this.streamUsage);
  }

  /**
   * None: {@link formatAnthropicMessages} converts the messages (in {@link specCallOptions}), so
   * the neutral prompt would be built only to be thrown away.
   */
  protected override specPrompt(): ChatModelV1Prompt {
    return [];
  }

  /**
   * The call's `cache_control` (what `anthropicPromptCachingMiddleware` sets) is sent as the
   * request's top-level `cache_control`, as `@langchain/anthropic` sends it; the call's
   * `headers` are sent with the request. The messages are converted by
   * {@link formatAnthropicMessages}, which keeps what the neutral prompt has no place for
   * (`cache_control`, citations, block contents).
   */
  protected override specCallOptions(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): ChatModelV1CallOptions {
    const callOptions = super.specCallOptions(messages, options);
    // A call that gives `output_config.format` itself (createAgent's providerStrategy passes it
    // beside an OpenAI-style `response_format`) has that format sent as given, as
    // @langchain/anthropic (which reads no `response_format`) sends it.
    if (options.outputConfig?.format !== undefined || options.outputFormat !== undefined) {
      delete callOptions.responseFormat;
    }
    const choice = options.tool_choice as { disable_parallel_tool_use?: unknown } | undefined;
    if (typeof choice === "object" && choice !== null && choice.disable_parallel_tool_use === true) {
      callOptions.parallelToolCalls = false;
    }
    checkToolChoice(callOptions);
    this.checkSampling({ ...this.outputConfig, ...options.outputConfig });
    if (this.thinking.type !== "disabled" || isAdaptiveOnlyModel(this.model)) {
      // sampling settings do not go with thinking nor to a model that only thinks adaptively
      // (checked above as @langchain/anthropic checks them), and are not sent
      delete callOptions.temperature;
      delete callOptions.topP;
    }
    callOptions.providerOptions = {
      ...callOptions.providerOptions,
      [ANTHROPIC_PAYLOAD]: { ...formatAnthropicMessages(messages) },
    };
    const { headers } = options;
    if (typeof headers === "object" && headers !== null) {
      callOptions.headers = { ...callOptions.headers, ...headers };
    }
    // request fields of the model and of the call, as @langchain/anthropic sends them
    const outputConfig: Record<string, unknown> = { ...this.outputConfig, ...options.outputConfig };
    if (options.outputFormat !== undefined && outputConfig.format === undefined) {
      outputConfig.format = options.outputFormat;
    }
    const extra: Record<string, unknown> = {
      context_management: this.contextManagement,
      container: options.container,
      output_config: Object.keys(outputConfig).length > 0 ? outputConfig : undefined,
      inference_geo: options.inferenceGeo ?? this.inferenceGeo,
      mcp_servers: options.mcp_servers,
      cache_control: options.cache_control ?? undefined,
    };
    const anthropic = { ...callOptions.providerOptions?.anthropic };
    for (const [key, value] of Object.entries(extra)) if (value !== undefined) anthropic[key] = value;
    const compaction = compactionBetas(this.contextManagement);
    const betas = [
      ...new Set([
        ...(this.betas ?? []),
        ...(options.betas ?? []),
        ...toolBetas(callOptions),
        ...compaction,
        ...taskBudgetBetas(this.model, outputConfig),
      ]),
    ];
    callOptions.providerOptions = { ...callOptions.providerOptions, anthropic };
    if (betas.length > 0) callOptions.providerOptions[ANTHROPIC_BETAS] = { betas };
    return callOptions;
  }

  /** The `@anthropic-ai/sdk` client (created on first use). */
  async getClient(): Promise<AnthropicClientLike> {
    return this.client();
  }
}

/** The beta each server tool needs, as `@langchain/anthropic` adds them. */
const TOOL_BETAS: Record<string, string> = {
  tool_search_tool_regex_20251119: "advanced-tool-use-2025-11-20",
  tool_search_tool_bm25_20251119: "advanced-tool-use-2025-11-20",
  memory_20250818: "context-management-2025-06-27",
  web_fetch_20250910: "web-fetch-2025-09-10",
  code_execution_20250825: "code-execution-2025-08-25",
  computer_20251124: "computer-use-2025-11-24",
  computer_20250124: "computer-use-2025-01-24",
  mcp_toolset: "mcp-client-2025-11-20",
};

/** Context compaction needs its beta, as `@langchain/anthropic` adds it. */
function compactionBetas(contextManagement: ChatAnthropicFields["contextManagement"]): string[] {
  return contextManagement?.edits?.some((e) => e.type === "compact_20260112") ? ["compact-2026-01-12"] : [];
}

/** Opus 4.7 needs a beta for `outputConfig.task_budget`, as `@langchain/anthropic` adds it. */
function taskBudgetBetas(model: string, outputConfig: Record<string, unknown>): string[] {
  const budget = outputConfig.task_budget;
  return model.startsWith("claude-opus-4-7") && budget !== undefined && budget !== null
    ? ["task-budgets-2026-03-13"]
    : [];
}

function toolBetas(options: ChatModelV1CallOptions): string[] {
  const betas: string[] = [];
  for (const tool of options.tools ?? []) {
    const type = tool.type === "provider" ? (tool.tool as { type?: unknown }).type : undefined;
    const beta = typeof type === "string" ? TOOL_BETAS[type] : undefined;
    if (beta !== undefined) betas.push(beta);
  }
  return betas;
}

/**
 * Whether an answer's content stays a list of blocks: when it has blocks other than text and
 * tool use (thinking, server tool use and results, …) or cited text among several blocks, which
 * `@langchain/anthropic` keeps in the content (a string would lose them).
 */
function keepsBlocks(blocks: readonly ContentBlock[]): boolean {
  return blocks.some(
    (b) =>
      (b.type !== "text" && b.type !== "tool_use") ||
      (b.type === "text" && b.citations !== undefined && b.citations !== null && blocks.length > 1),
  );
}

/**
 * Refuses a `tool_choice` that no bound tool can satisfy, before any request, with
 * `@langchain/anthropic`'s messages.
 */
function checkToolChoice(options: ChatModelV1CallOptions): void {
  const choice = options.toolChoice;
  const names = (options.tools ?? []).map((tool) =>
    tool.type === "provider" ? (tool.tool as { name?: unknown }).name : tool.name,
  );
  if (choice?.type === "tool" && !names.includes(choice.toolName)) {
    throw new InvalidArgumentError(
      `Anthropic tool_choice references "${choice.toolName}", but that tool is not available.`,
    );
  }
  if (choice?.type === "required" && names.length === 0) {
    throw new InvalidArgumentError("Anthropic tool_choice requires at least one available tool.");
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

/**
 * `@langchain/anthropic`'s `ls_structured_output_format`: `functionCalling` with the tool's JSON
 * Schema, `json_schema` with the closed schema `output_config.format` sends.
 */
function anthropicTracingFormat(method: string, _name: string, schema: Record<string, unknown>) {
  if (method === "functionCalling") return { kwargs: { method: "functionCalling" }, schema };
  let closed = schema;
  try {
    closed = closeJsonSchema(schema);
  } catch {
    // a schema the API cannot take is refused when the call is made
  }
  return { kwargs: { method: "json_schema" }, schema: closed };
}
