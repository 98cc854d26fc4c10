import { AgentGraphError } from "../../shared/index.js";

/**
 * A chat model cannot be created as configured. Subclasses say which setting is missing.
 *
 * @example
 * ```ts
 * try { new ChatOpenAI({ model: "gpt-4.1-mini" }); } catch (e) { if (e instanceof ModelConfigurationError) … }
 * ```
 */
export class ModelConfigurationError extends AgentGraphError {
  static override readonly brandName: string = "ModelConfigurationError";
}

/**
 * No API key was given and the provider's environment variable is not set.
 *
 * @example
 * ```ts
 * // MissingApiKeyError: OpenAI API key not found. Pass `apiKey` to ChatOpenAI or set OPENAI_API_KEY.
 * ```
 */
export class MissingApiKeyError extends ModelConfigurationError {
  static override readonly brandName: string = "MissingApiKeyError";
}

/**
 * `initChatModel` could not tell (or does not support) the provider.
 *
 * @example
 * ```ts
 * await initChatModel("mystery-model"); // UnknownModelProviderError: … pass `modelProvider` …
 * ```
 */
export class UnknownModelProviderError extends ModelConfigurationError {
  static override readonly brandName: string = "UnknownModelProviderError";
}

/**
 * A model answer could not be turned into the requested structured output (bad JSON, no
 * matching tool call, or a schema mismatch). `llmOutput` is the raw text or arguments.
 * Same name and code (`OUTPUT_PARSING_FAILURE`) as LangChain.js.
 *
 * @example
 * ```ts
 * try { await model.withStructuredOutput(schema).invoke(q); }
 * catch (e) { if (e instanceof OutputParserException) console.log(e.llmOutput); }
 * ```
 */
export class OutputParserException extends AgentGraphError {
  static override readonly brandName: string = "OutputParserException";
  readonly llmOutput: string | undefined;
  constructor(message: string, llmOutput?: string, cause?: unknown) {
    super(message, { code: "OUTPUT_PARSING_FAILURE", cause });
    this.llmOutput = llmOutput;
  }
}
