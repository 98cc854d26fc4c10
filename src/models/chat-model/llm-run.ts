import {
  type AIMessage,
  type AIMessageChunk,
  type BaseMessage,
  getBufferString,
  isAIMessageChunk,
} from "../../messages/index.js";
import { type CallbackHandler, notifyRaising } from "../../shared/index.js";
import { ChatGenerationChunk } from "./chat-generation-chunk.js";

/** `handleLLMEnd`'s output. */
interface EndOutput {
  generations: EndGeneration[][];
  llmOutput: Record<string, unknown> | undefined;
}

/** One generation of `handleLLMEnd`'s output. */
interface EndGeneration {
  text: string;
  message: unknown;
  generationInfo?: Record<string, unknown> | undefined;
}

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
  /** The joined text of the streamed generations (`ChatGenerationChunk.text`). */
  private streamedText = "";
  /** The streamed generations' `generationInfo`, merged as `ChatGenerationChunk.concat` merges it. */
  private streamedInfo: Record<string, unknown> | undefined;
  private streamedCount = 0;
  /** The call's metadata, as `start` reported it (custom events carry it). */
  private metadata: Record<string, unknown> | undefined;
  /**
   * What the call waits for before it goes on: handlers with `raiseError` and `awaitHandlers`
   * that heard the last report, which fail the call with their error (see {@link takeRaised}).
   */
  private raised: Promise<void> | undefined;

  constructor(
    readonly runId: string,
    readonly handlers: readonly CallbackHandler[],
    readonly tags: string[],
    /** The run this call is part of: the graph node's it runs in (see `parentRunIdOf`). */
    readonly parentRunId?: string,
  ) {}

  /** True when some handler asks models to stream (`lc_prefer_streaming`). */
  get prefersStreaming(): boolean {
    return this.handlers.some((handler) => handler.lc_prefer_streaming === true);
  }

  /** True when some handler asks for protocol events (`lc_prefer_chat_model_stream_events`). */
  get prefersStreamEvents(): boolean {
    return this.handlers.some((handler) => handler.lc_prefer_chat_model_stream_events === true);
  }

  /**
   * The handlers with `raiseError` and `awaitHandlers` the last reports reached, to wait for
   * (their error fails the call, as in LangChain.js); `undefined` when there is none.
   */
  takeRaised(): Promise<void> | undefined {
    const raised = this.raised;
    this.raised = undefined;
    return raised;
  }

  private raise(raised: Promise<void> | undefined): void {
    if (raised === undefined) return;
    // a report not waited for yet keeps its place: the call fails with the first error
    this.raised =
      this.raised === undefined ? raised : Promise.all([this.raised, raised]).then(() => undefined);
  }

  /** Reports one protocol event of the call to `handleChatModelStreamEvent`. */
  streamEvent(event: unknown): void {
    this.raise(
      notifyRaising(
        this.handlers,
        "handleChatModelStreamEvent",
        event,
        this.runId,
        this.parentRunId,
        this.tags,
      ),
    );
  }

  start(
    llm: { lc: number; type: string; id: string[] },
    messages: BaseMessage[],
    extraParams: Record<string, unknown>,
    metadata: Record<string, unknown>,
    runName: string | undefined,
  ): void {
    this.metadata = metadata;
    if (!this.handlers.some(hasOnlyLLMStart)) {
      this.chatModelStart(this.handlers, llm, messages, extraParams, metadata, runName);
      return;
    }
    // a handler with only `handleLLMStart` hears the prompt as one string, in its turn among the
    // handlers, as in LangChain.js
    const prompt = getBufferString(messages);
    for (const handler of this.handlers) {
      if (hasOnlyLLMStart(handler)) {
        this.raise(
          notifyRaising(
            [handler],
            "handleLLMStart",
            llm,
            [prompt],
            this.runId,
            this.parentRunId,
            extraParams,
            this.tags,
            metadata,
            runName,
          ),
        );
      } else {
        this.chatModelStart([handler], llm, messages, extraParams, metadata, runName);
      }
    }
  }

  /** `handlers` hear the chat model start (the messages), failing the call if one raises. */
  private chatModelStart(
    handlers: readonly CallbackHandler[],
    llm: { lc: number; type: string; id: string[] },
    messages: BaseMessage[],
    extraParams: Record<string, unknown>,
    metadata: Record<string, unknown>,
    runName: string | undefined,
  ): void {
    this.raise(
      notifyRaising(
        handlers,
        "handleChatModelStart",
        llm,
        [messages],
        this.runId,
        this.parentRunId,
        extraParams,
        this.tags,
        metadata,
        runName,
      ),
    );
  }

  /** LangChain.js signature; `fields.chunk.message` carries the `AIMessageChunk`. */
  async handleLLMNewToken(
    token: string,
    idx?: { prompt: number; completion: number },
    _runId?: string,
    _parentRunId?: string,
    _tags?: string[],
    fields?: { chunk?: { text?: string; message?: unknown } },
  ): Promise<void> {
    if (this.baseReportsTokens) return;
    const chunk = fields?.chunk;
    const raised = notifyRaising(
      this.handlers,
      "handleLLMNewToken",
      token,
      idx ?? { prompt: 0, completion: 0 },
      this.runId,
      this.parentRunId,
      this.tags,
      // the model's own chunk (its `generationInfo` too), as LangChain.js hands it on
      chunk === undefined
        ? undefined
        : { chunk: hasText(chunk) ? chunk : { text: token, message: chunk.message } },
    );
    // a handler with `raiseError` and `awaitHandlers` fails the model's stream, as in LangChain.js
    if (raised !== undefined) await raised;
  }

  /** Notes a generation `_streamResponseChunks` yielded, for {@link endStreamed}. */
  streamed(generation: { text?: string; generationInfo?: Record<string, unknown> | undefined }): void {
    this.streamedText += generation.text ?? "";
    this.streamedInfo =
      this.streamedCount++ === 0
        ? generation.generationInfo
        : { ...this.streamedInfo, ...generation.generationInfo };
  }

  /**
   * Ends a streamed call as LangChain.js does: the generation is the chunks joined (a
   * `ChatGenerationChunk` with their text and merged `generationInfo`), and `llmOutput` carries
   * `tokenUsage` when the answer has `usage_metadata`.
   */
  endStreamed(message: AIMessage | AIMessageChunk): void {
    const generationInfo = this.streamedInfo;
    const generation: EndGeneration = isAIMessageChunk(message)
      ? new ChatGenerationChunk({
          text: this.streamedText,
          message,
          ...(generationInfo === undefined ? {} : { generationInfo }),
        })
      : { text: this.streamedText, message, ...(generationInfo === undefined ? {} : { generationInfo }) };
    const usage = message.usage_metadata;
    // `llmOutput` is always a key of the output, `undefined` without usage, as in LangChain.js
    const output: EndOutput = {
      generations: [[generation]],
      llmOutput:
        usage === undefined
          ? undefined
          : {
              tokenUsage: {
                promptTokens: usage.input_tokens,
                completionTokens: usage.output_tokens,
                totalTokens: usage.total_tokens,
              },
            },
    };
    this.reportEnd(output);
  }

  /**
   * Reports a chunk the base class streamed, with its generation's `generationInfo` and, as the
   * token's indexes, its choice's (`completion`; 0 unless a model streams several choices).
   */
  chunk(text: string, message: AIMessageChunk, generationInfo?: Record<string, unknown>): void {
    const completion = generationInfo?.completion;
    this.raise(
      notifyRaising(
        this.handlers,
        "handleLLMNewToken",
        text,
        { prompt: 0, completion: typeof completion === "number" ? completion : 0 },
        this.runId,
        this.parentRunId,
        this.tags,
        {
          chunk: new ChatGenerationChunk({
            text,
            message,
            ...(generationInfo === undefined ? {} : { generationInfo }),
          }),
        },
      ),
    );
  }

  end(
    message: AIMessage | AIMessageChunk,
    llmOutput?: Record<string, unknown>,
    generationInfo?: Record<string, unknown>,
    text: string = message.text,
    others: readonly EndGeneration[] = [],
    asReturned?: EndGeneration,
  ): void {
    // the generation's own text (what `_generate` returned), as LangChain.js reports it; or the
    // generation itself when its message is not the answer (a chunk `_generate` returned)
    let generation: EndGeneration | undefined = asReturned;
    if (generation === undefined) {
      generation = { text, message };
      if (generationInfo !== undefined) generation.generationInfo = generationInfo;
    }
    // what `_generate` returned as `llmOutput`, the key there even when it returned none
    this.reportEnd({ generations: [[generation, ...others]], llmOutput });
  }

  /** `handleLLMEnd` for every handler, failing the call if one raises. */
  private reportEnd(output: EndOutput): void {
    // the fifth argument (LangChain.js's `extraParams`, `{ cached: true }` for a cache hit) is
    // passed, `undefined`, as LangChain.js passes it
    this.raise(
      notifyRaising(
        this.handlers,
        "handleLLMEnd",
        output,
        this.runId,
        this.parentRunId,
        this.tags,
        undefined,
      ),
    );
  }

  /**
   * Reports the call's failure; a handler with `raiseError` and `awaitHandlers` that fails here
   * fails the call with its own error instead (to wait for, as the result says).
   */
  error(error: unknown): Promise<void> | undefined {
    this.raised = undefined;
    return notifyRaising(
      this.handlers,
      "handleLLMError",
      error,
      this.runId,
      this.parentRunId,
      this.tags,
      undefined,
    );
  }

  /**
   * Reports a custom event of the call (LangChain.js's `runManager.handleCustomEvent`) to
   * `handleCustomEvent`, with the call's run id, tags and metadata.
   */
  async handleCustomEvent(
    eventName: string,
    data: unknown,
    _runId?: string,
    _tags?: string[],
  ): Promise<void> {
    const raised = notifyRaising(
      this.handlers,
      "handleCustomEvent",
      eventName,
      data,
      this.runId,
      this.tags,
      this.metadata,
    );
    if (raised !== undefined) await raised;
  }

  /** LangChain.js name for {@link end}'s raw form; kept for models that call it. */
  async handleText(_text: string): Promise<void> {}
}

function hasText<T extends { text?: string }>(chunk: T): chunk is T & { text: string; message: unknown } {
  return typeof chunk.text === "string";
}

/** True for a handler told of a model call's start by `handleLLMStart` (it has no `handleChatModelStart`). */
function hasOnlyLLMStart(handler: CallbackHandler): boolean {
  return handler.handleChatModelStart === undefined && typeof handler.handleLLMStart === "function";
}
