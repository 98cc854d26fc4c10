import { AIMessage, AIMessageChunk, type BaseMessage } from "../messages/index.js";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsOptions,
  ChatGenerationChunk,
  type ChatModelRun,
  type ChatResult,
  type ConfiguredChatModel,
  type StructuredOutputOptions,
  StructuredOutputRunnable,
} from "../models/index.js";
import type { BindToolsInput, JsonSchema, StandardSchemaLike } from "../tools/index.js";

/**
 * Options of {@link FakeListChatModel} (`@langchain/core/utils/testing`'s fields).
 *
 * @example
 * ```ts
 * const fields: FakeListChatModelFields = { responses: ["Hi!", "Bye!"], sleep: 10 };
 * ```
 */
export interface FakeListChatModelFields extends BaseChatModelParams {
  /** The answers' texts, used in turn (after the last, the first again). */
  responses: string[];
  /** Milliseconds to wait before an answer, and before each streamed character. */
  sleep?: number;
  /** Put into the `response_metadata` of an answer's last streamed chunk. */
  generationInfo?: Record<string, unknown>;
  /**
   * When true, each call reports the custom event `"some_test_event"` with `{ someval: true }`
   * to callbacks' `handleCustomEvent` (and `streamEvents` as `on_custom_event`) before answering.
   */
  emitCustomEvent?: boolean;
}

/**
 * Call options of {@link FakeListChatModel}: `thrownErrorString` makes the call fail with that
 * message (an error to test error paths with).
 *
 * @example
 * ```ts
 * await expect(model.invoke("hi", { thrownErrorString: "boom" })).rejects.toThrow("boom");
 * ```
 */
export interface FakeListChatModelCallOptions extends BaseChatModelCallOptions {
  thrownErrorString?: string;
}

/**
 * The scripted chat model of `@langchain/core/utils/testing`, for ported tests: it answers with
 * `responses` in turn as plain `AIMessage`s, wrapping around after the last one, and never
 * calls tools. As LangChain.js's:
 *
 * - a call with `stop` answers with the first stop sequence and does not advance;
 * - `stream` yields the answer one character at a time (reported to callbacks as tokens);
 * - `bindTools` returns a bound copy that starts at the current answer and counts on its own;
 * - `withStructuredOutput(schema)` ignores the schema and its options: its `invoke` returns the
 *   args of the answer's first tool call, else the answer's text parsed as JSON.
 *
 * @example
 * ```ts
 * const model = new FakeListChatModel({ responses: ["Hello", "Goodbye"] });
 * (await model.invoke("hi")).content; // "Hello"
 * (await model.invoke("hi")).content; // "Goodbye"
 * (await model.invoke("hi")).content; // "Hello"
 * ```
 */
export class FakeListChatModel extends BaseChatModel<FakeListChatModelCallOptions> {
  readonly responses: string[];
  /** The index of the next answer. */
  i = 0;
  readonly sleep: number | undefined;
  readonly generationInfo: Record<string, unknown> | undefined;
  readonly emitCustomEvent: boolean;

  constructor(fields: FakeListChatModelFields) {
    super(fields);
    this.responses = fields.responses;
    this.sleep = fields.sleep;
    this.generationInfo = fields.generationInfo;
    this.emitCustomEvent = fields.emitCustomEvent ?? false;
  }

  _llmType(): string {
    return "fake-list";
  }

  async _generate(
    _messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: ChatModelRun,
  ): Promise<ChatResult> {
    await this.pause();
    if (options.thrownErrorString) throw new Error(options.thrownErrorString);
    if (this.emitCustomEvent) await runManager?.handleCustomEvent("some_test_event", { someval: true });
    const stop = options.stop?.[0];
    if (stop !== undefined) return { generations: [{ text: stop, message: new AIMessage(stop) }] };
    const text = this.next();
    // an empty llmOutput, which callbacks' handleLLMEnd gets, as LangChain.js's does (not with `stop`)
    return { generations: [{ text, message: new AIMessage(text) }], llmOutput: {} };
  }

  override async *_streamResponseChunks(
    _messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: ChatModelRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const characters = [...this.next()];
    if (this.emitCustomEvent) await runManager?.handleCustomEvent("some_test_event", { someval: true });
    for (let i = 0; i < characters.length; i += 1) {
      const text = characters[i] as string;
      await this.pause();
      if (options.thrownErrorString) throw new Error(options.thrownErrorString);
      if (options.signal?.aborted) break;
      const last = i === characters.length - 1;
      yield new ChatGenerationChunk({
        text,
        message: new AIMessageChunk({ content: text }),
        ...(last && this.generationInfo !== undefined ? { generationInfo: this.generationInfo } : {}),
      });
      await runManager?.handleLLMNewToken(text);
    }
  }

  /** A bound copy that starts at this model's current answer and then counts on its own. */
  override bindTools(
    tools: BindToolsInput[],
    options: BindToolsOptions = {},
  ): ConfiguredChatModel<FakeListChatModelCallOptions> {
    const copy = new FakeListChatModel({
      responses: this.responses,
      ...(this.sleep !== undefined ? { sleep: this.sleep } : {}),
      ...(this.generationInfo !== undefined ? { generationInfo: this.generationInfo } : {}),
      emitCustomEvent: this.emitCustomEvent,
    });
    copy.i = this.i;
    return BaseChatModel.prototype.bindTools.call(
      copy,
      tools,
      options,
    ) as ConfiguredChatModel<FakeListChatModelCallOptions>;
  }

  override withStructuredOutput<RunOutput = Record<string, unknown>>(
    schema: StandardSchemaLike<RunOutput> | JsonSchema,
    options?: StructuredOutputOptions<false>,
  ): StructuredOutputRunnable<RunOutput>;
  override withStructuredOutput<RunOutput = Record<string, unknown>>(
    schema: StandardSchemaLike<RunOutput> | JsonSchema,
    options: StructuredOutputOptions<true>,
  ): StructuredOutputRunnable<{ raw: AIMessage; parsed: RunOutput | null; parsing_error?: unknown }>;
  override withStructuredOutput(
    _schema: StandardSchemaLike | JsonSchema,
    _options?: StructuredOutputOptions,
  ): StructuredOutputRunnable<unknown> {
    return new StructuredOutputRunnable<unknown>(
      (input, options) => this.invoke(input, options),
      async (message) => {
        const args = message.tool_calls[0]?.args;
        if (args) return args;
        if (typeof message.content === "string") return JSON.parse(message.content);
        throw new Error("No structured output found");
      },
      false,
    );
  }

  /** The next answer's text; advances, wrapping around after the last. */
  private next(): string {
    const text = this.responses[this.i] as string;
    this.i = this.i < this.responses.length - 1 ? this.i + 1 : 0;
    return text;
  }

  private async pause(): Promise<void> {
    if (this.sleep !== undefined) await new Promise((resolve) => setTimeout(resolve, this.sleep));
  }
}
