import type { AIMessageChunkFields, ResponseMetadata } from "../../../messages/index.js";
import { AIMessageChunk } from "../../../messages/index.js";
import { ChatGenerationChunk } from "../../chat-model/chat-generation-chunk.js";
import type { ChatModelV1StreamPart } from "../../spec/index.js";
import type { MessageContext } from "../../spec-adapter/result-to-message.js";
import { StreamPartsToChunks } from "../../spec-adapter/stream-parts-to-chunks.js";
import type { OpenAIChatChunk } from "./openai-wire.js";

/**
 * ChatOpenAI's stream chunks, shaped as `@langchain/openai` shapes them: every chunk of the
 * answer carries `{ prompt: 0, completion: 0, model_provider, usage: {} }` in its
 * `response_metadata`, and the usage comes on a chunk of its own after the finish chunk,
 * without the answer's id. With `logprobs` set on the model, every chunk but the usage one also
 * has the `logprobs` of the server event it came from (the finish chunk those of the event with
 * the `finish_reason`), as `@langchain/openai` reports them.
 *
 * @example
 * ```ts
 * const mapper = new OpenAIStreamChunks(ctx, false);
 * for await (const part of parts) { const chunk = mapper.map(part); if (chunk) yield chunk; }
 * const usage = mapper.flush();
 * ```
 */
export class OpenAIStreamChunks extends StreamPartsToChunks {
  private readonly shared: ResponseMetadata;
  /** The `logprobs` of the latest event's choice, and of the event that finished the answer. */
  private eventLogprobs: unknown;
  private finishLogprobs: unknown;
  private finishing = false;

  constructor(
    ctx: MessageContext,
    private readonly logprobs: boolean,
  ) {
    super(ctx);
    this.shared = { prompt: 0, completion: 0, model_provider: ctx.provider, usage: {} };
  }

  override map(part: ChatModelV1StreamPart): ChatGenerationChunk | undefined {
    if (part.type !== "raw") return super.map(part);
    const event = part.rawValue as OpenAIChatChunk;
    const choice = event.choices?.[0];
    if (choice !== undefined) {
      this.eventLogprobs = choice.logprobs;
      if (choice.finish_reason) this.finishLogprobs = choice.logprobs;
    }
    return undefined;
  }

  protected override finishChunk(
    fields: AIMessageChunkFields,
    usage: AIMessageChunkFields["usage_metadata"],
  ): ChatGenerationChunk {
    this.finishing = true;
    if (usage !== undefined) {
      this.hold(
        new ChatGenerationChunk({
          text: "",
          message: new AIMessageChunk({ content: "", usage_metadata: usage }),
        }),
      );
    }
    return this.chunk(fields);
  }

  protected override chunk(fields: AIMessageChunkFields, text = ""): ChatGenerationChunk {
    const metadata: ResponseMetadata = { ...this.shared, ...fields.response_metadata };
    if (this.logprobs) {
      metadata.logprobs = (
        this.finishing ? this.finishLogprobs : this.eventLogprobs
      ) as ResponseMetadata[string];
    }
    return super.chunk({ ...fields, response_metadata: metadata }, text);
  }
}
