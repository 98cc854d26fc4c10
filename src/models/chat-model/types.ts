import type { AIMessage, AIMessageChunk, BaseMessage, BaseMessageLike } from "../../messages/index.js";
import type { CallbackHandler, RunnableConfig } from "../../shared/index.js";

/**
 * What a chat model accepts as input: a string (one human message), a list of messages or
 * message-likes (`{ role, content }`, `["user", "hi"]`, …), or a prompt value with
 * `toChatMessages()`.
 *
 * @example
 * ```ts
 * await model.invoke("Hello");
 * await model.invoke([{ role: "system", content: "Be brief." }, new HumanMessage("Hello")]);
 * ```
 */
export type BaseLanguageModelInput = string | BaseMessageLike[] | { toChatMessages(): BaseMessage[] };

/**
 * Which tool the model must call: `"auto"`, `"any"` / `"required"` (some tool), `"none"`, or
 * a tool name (that tool).
 *
 * @example
 * ```ts
 * model.bindTools([getWeather], { tool_choice: "get_weather" });
 * ```
 */
export type ToolChoice = "auto" | "any" | "required" | "none" | (string & {}) | Record<string, unknown>;

/**
 * Options of every chat-model call: the runnable config (callbacks, tags, signal, …) plus
 * call settings. Bound tools arrive here as `tools` (OpenAI function format) with
 * `tool_choice`, `parallel_tool_calls` and `strict`, as in LangChain.js.
 *
 * @example
 * ```ts
 * await model.invoke("hi", { signal: AbortSignal.timeout(5_000), stop: ["\n"], tags: ["greeting"] });
 * ```
 */
export interface BaseChatModelCallOptions extends RunnableConfig {
  /** Stop sequences. */
  stop?: string[];
  /** Tools the model may call (set by `bindTools`). */
  tools?: unknown[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean;
  /** Strict tool schemas (OpenAI). */
  strict?: boolean;
  /** Response format in OpenAI form (`{ type: "json_schema", json_schema }` or `{ type: "json_object" }`). */
  response_format?: Record<string, unknown>;
  /** This call's {@link BaseChatModelParams.outputVersion}. */
  outputVersion?: "v0" | "v1";
}

/**
 * Constructor options every chat model takes.
 *
 * @example
 * ```ts
 * new MyModel({ callbacks: [handler], tags: ["prod"], disableStreaming: true });
 * ```
 */
export interface BaseChatModelParams {
  callbacks?: CallbackHandler[] | undefined;
  tags?: string[] | undefined;
  metadata?: Record<string, unknown> | undefined;
  /** Never stream, even when asked to (`stream()` then yields the whole message once). */
  disableStreaming?: boolean | undefined;
  verbose?: boolean | undefined;
  /**
   * `"v1"` gives replies whose content is standard content blocks (`message.contentBlocks`,
   * `response_metadata.output_version: "v1"`), as LangChain.js does; default `"v0"`, or the
   * `LC_OUTPUT_VERSION` environment variable.
   */
  outputVersion?: "v0" | "v1" | undefined;
  [option: string]: unknown;
}

/**
 * One generated message (LangChain.js `ChatGeneration`).
 *
 * @example
 * ```ts
 * const generation: ChatGeneration = { text: "Hi", message: new AIMessage("Hi") };
 * ```
 */
export interface ChatGeneration {
  text: string;
  message: AIMessage | AIMessageChunk | BaseMessage;
  generationInfo?: Record<string, unknown> | undefined;
}

/**
 * What `_generate` returns (LangChain.js `ChatResult`).
 *
 * @example
 * ```ts
 * return { generations: [{ text: "Hi", message: new AIMessage("Hi") }] };
 * ```
 */
export interface ChatResult {
  generations: ChatGeneration[];
  llmOutput?: Record<string, unknown>;
}

/**
 * What a model can do, as far as is known (LangChain.js `ModelProfile`): context window,
 * output limit, tool calling, structured output, input modalities…
 *
 * @example
 * ```ts
 * if (model.profile.maxInputTokens !== undefined && tokens > model.profile.maxInputTokens) summarize();
 * ```
 */
export interface ModelProfile {
  maxInputTokens?: number;
  maxOutputTokens?: number;
  toolCalling?: boolean;
  toolChoice?: boolean;
  structuredOutput?: boolean;
  imageInputs?: boolean;
  imageUrlInputs?: boolean;
  pdfInputs?: boolean;
  audioInputs?: boolean;
  reasoningOutput?: boolean;
  imageToolMessage?: boolean;
  midConversationSystemMessages?: boolean;
}

/**
 * Options of `bindTools` (LangChain.js accepts the snake_case forms).
 *
 * @example
 * ```ts
 * model.bindTools([getWeather], { tool_choice: "any", parallel_tool_calls: false, strict: true });
 * ```
 */
export interface BindToolsOptions {
  tool_choice?: ToolChoice | undefined;
  toolChoice?: ToolChoice | undefined;
  parallel_tool_calls?: boolean | undefined;
  parallelToolCalls?: boolean | undefined;
  strict?: boolean | undefined;
  [option: string]: unknown;
}

/**
 * Options of `withStructuredOutput`.
 *
 * @example
 * ```ts
 * model.withStructuredOutput(Person, { name: "person", method: "jsonSchema", strict: true, includeRaw: true });
 * ```
 */
export interface StructuredOutputOptions<IncludeRaw extends boolean = boolean> {
  /** The function / schema name (default `"extract"`, or the JSON Schema's `title`). */
  name?: string | undefined;
  method?: "functionCalling" | "jsonSchema" | "jsonMode" | undefined;
  strict?: boolean | undefined;
  includeRaw?: IncludeRaw | undefined;
}
