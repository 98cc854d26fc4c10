import type { AIMessageChunkFields, ResponseMetadata } from "../../../messages/index.js";
import { AIMessageChunk } from "../../../messages/index.js";
import { ChatGenerationChunk } from "../../chat-model/chat-generation-chunk.js";
import type { MessageContext } from "../../spec-adapter/result-to-message.js";
import { StreamPartsToChunks } from "../../spec-adapter/stream-parts-to-chunks.js";

/**
 * ChatOpenAI's stream chunks, shaped as `@langchain/openai` shapes them: every chunk of the
 * answer carries `{ prompt: 0, completion: 0, model_provider, usage: {} }` in its
 * `response_metadata`, and the usage comes on a chunk of its own after the finish chunk,
 * without the answer's id.
 *
 * @example
 * ```ts
 * const mapper = new OpenAIStreamChunks(ctx);
 * for await (const part of parts) { const chunk = mapper.map(part); if (chunk) yield chunk; }
 * const usage = mapper.flush();
 * ```
 */
export class OpenAIStreamChunks extends StreamPartsToChunks {
  private readonly shared: ResponseMetadata;

  constructor(ctx: MessageContext) {
    super(ctx);
    this.shared = { prompt: 0, completion: 0, model_provider: ctx.provider, usage: {} };
  }

  protected override finishChunk(
    fields: AIMessageChunkFields,
    usage: AIMessageChunkFields["usage_metadata"],
  ): ChatGenerationChunk {
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
    return super.chunk(
      { ...fields, response_metadata: { ...this.shared, ...fields.response_metadata } },
      text,
    );
  }
}
