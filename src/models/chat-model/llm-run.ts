import type { AIMessage, AIMessageChunk, BaseMessage } from "../../messages/index.js";
import { type CallbackHandler, notifyHandlers } from "../../shared/index.js";

/**
 * The callback run of one chat-model call, handed to `_generate` and
 * `_streamResponseChunks` as `runManager` (the LangChain.js `CallbackManagerForLLMRun`
 * methods a model implementation uses). Only built when a handler is listening.
 *
 * While the base class drives `_streamResponseChunks` it reports every yielded chunk itself,
 * so a model that also reports its tokens through `runManager.handleLLMNewToken` (as
 * LangChain.js integrations do) is not reported twice; inside `_generate` such reports are
 * forwarded.
 *
 * @example
 * ```ts
 * async *_streamResponseChunks(messages, options, runManager) {
 *   const chunk = new ChatGenerationChunk({ text: "Hi", message: new AIMessageChunk("Hi") });
 *   yield chunk;
 *   await runManager?.handleLLMNewToken("Hi", undefined, undefined, undefined, undefined, { chunk });
 * }
 * ```
 */
export class ChatModelRun {
  /** True while the base class streams `_streamResponseChunks` and reports chunks itself. */
  baseReportsTokens = false;

  constructor(
    readonly runId: string,
    readonly handlers: readonly CallbackHandler[],
    readonly tags: string[],
  ) {}

  /** True when some handler asks models to stream (`lc_prefer_streaming`). */
  get prefersStreaming(): boolean {
    return this.handlers.some((handler) => handler.lc_prefer_streaming === true);
  }

  start(
    llm: { id: string[]; name: string },
    messages: BaseMessage[],
    extraParams: Record<string, unknown>,
    metadata: Record<string, unknown>,
    runName: string | undefined,
  ): void {
    notifyHandlers(
      this.handlers,
      "handleChatModelStart",
      llm,
      [messages],
      this.runId,
      undefined,
      extraParams,
      this.tags,
      metadata,
      runName,
    );
  }

  /** LangChain.js signature; `fields.chunk.message` carries the `AIMessageChunk`. */
  async handleLLMNewToken(
    token: string,
    _idx?: unknown,
    _runId?: string,
    _parentRunId?: string,
    _tags?: string[],
    fields?: { chunk?: { text?: string; message?: unknown } },
  ): Promise<void> {
    if (this.baseReportsTokens) return;
    const chunk = fields?.chunk;
    notifyHandlers(
      this.handlers,
      "handleLLMNewToken",
      token,
      { prompt: 0, completion: 0 },
      this.runId,
      undefined,
      this.tags,
      chunk === undefined ? undefined : { chunk: { text: chunk.text ?? token, message: chunk.message } },
    );
  }

  /** Reports a chunk the base class streamed. */
  chunk(text: string, message: AIMessageChunk): void {
    notifyHandlers(
      this.handlers,
      "handleLLMNewToken",
      text,
      { prompt: 0, completion: 0 },
      this.runId,
      undefined,
      this.tags,
      {
        chunk: { text, message },
      },
    );
  }

  end(
    message: AIMessage | AIMessageChunk,
    llmOutput?: Record<string, unknown>,
    generationInfo?: Record<string, unknown>,
  ): void {
    const generation: { text: string; message: unknown; generationInfo?: Record<string, unknown> } = {
      text: message.text,
      message,
    };
    if (generationInfo !== undefined) generation.generationInfo = generationInfo;
    const output: {
      generations: { text: string; message: unknown; generationInfo?: Record<string, unknown> }[][];
      llmOutput?: Record<string, unknown>;
    } = { generations: [[generation]] };
    if (llmOutput !== undefined) output.llmOutput = llmOutput;
    notifyHandlers(this.handlers, "handleLLMEnd", output, this.runId, undefined, this.tags);
  }

  error(error: unknown): void {
    notifyHandlers(this.handlers, "handleLLMError", error, this.runId, undefined, this.tags);
  }

  /** LangChain.js name for {@link end}'s raw form; kept for models that call it. */
  async handleText(_text: string): Promise<void> {}
}
