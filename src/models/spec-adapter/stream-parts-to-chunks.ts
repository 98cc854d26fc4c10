import { AIMessageChunk, type AIMessageChunkFields } from "../../messages/index.js";
import { ChatGenerationChunk } from "../chat-model/chat-generation-chunk.js";
import { ModelCallError } from "../errors/model-call-error.js";
import type { ChatModelV1StreamPart } from "../spec/index.js";
import { type MessageContext, responseMetadataOf } from "./result-to-message.js";
import { usageToMetadata } from "./usage-to-metadata.js";

/**
 * Turns spec stream parts into `AIMessageChunk`s (inside generation chunks) that share the
 * response id and concatenate to the message a non-streaming call returns: text deltas as
 * string content (or indexed text blocks once thinking blocks are kept), tool-input parts as
 * `tool_call_chunks` (merged by `index`), a refusal in `additional_kwargs.refusal`, and a
 * final chunk with usage and `response_metadata`. An `error` part throws.
 *
 * @example
 * ```ts
 * const mapper = new StreamPartsToChunks(ctx);
 * for await (const part of model.doStream(options)) {
 *   const chunk = mapper.map(part);
 *   if (chunk) yield chunk;
 * }
 * ```
 */
export class StreamPartsToChunks {
  private id: string | undefined;
  private modelId: string | undefined;
  private blocksMode = false;
  private readonly blockIndexes = new Map<string, number>();
  private pending: ChatGenerationChunk | undefined;

  constructor(private readonly ctx: MessageContext) {}

  map(part: ChatModelV1StreamPart): ChatGenerationChunk | undefined {
    switch (part.type) {
      case "response-metadata":
        if (part.id !== undefined) this.id = part.id;
        if (part.modelId !== undefined) this.modelId = part.modelId;
        return undefined;
      case "text-delta":
        if (!this.blocksMode) return this.chunk({ content: part.delta }, part.delta);
        return this.chunk(
          { content: [{ type: "text", text: part.delta, index: this.blockIndex(part.id) }] },
          part.delta,
        );
      case "reasoning-start":
        if (this.ctx.reasoningFormat !== "content-blocks") return undefined;
        this.blocksMode = true;
        if (part.redactedData === undefined) return undefined;
        return this.chunk({
          content: [{ type: "redacted_thinking", data: part.redactedData, index: this.blockIndex(part.id) }],
        });
      case "reasoning-delta":
        if (this.ctx.reasoningFormat !== "content-blocks") {
          return this.chunk({ content: "", additional_kwargs: { reasoning_content: part.delta } });
        }
        return this.chunk({
          content: [{ type: "thinking", thinking: part.delta, index: this.blockIndex(part.id) }],
        });
      case "reasoning-end":
        if (this.ctx.reasoningFormat !== "content-blocks" || part.signature === undefined) return undefined;
        return this.chunk({
          content: [
            { type: "thinking", thinking: "", signature: part.signature, index: this.blockIndex(part.id) },
          ],
        });
      case "refusal-delta":
        return this.chunk({ content: "", additional_kwargs: { refusal: part.delta } });
      case "tool-input-start":
        return this.chunk({
          content: "",
          tool_call_chunks: [
            { name: part.toolName, args: "", id: part.id, index: part.index, type: "tool_call_chunk" },
          ],
        });
      case "tool-input-delta":
        return this.chunk({
          content: "",
          tool_call_chunks: [{ args: part.delta, index: part.index, type: "tool_call_chunk" }],
        });
      case "finish": {
        const fields: AIMessageChunkFields = {
          content: "",
          response_metadata: responseMetadataOf(
            this.ctx,
            part.finishReason,
            this.modelId,
            part.providerMetadata,
          ),
        };
        return this.finishChunk(
          fields,
          usageToMetadata(part.usage, { openAIForm: this.ctx.openAIUsageForm }),
        );
      }
      case "error":
        throw streamError(part.error, this.ctx.provider);
      default:
        return undefined;
    }
  }

  /** The chunk held back until the stream has ended (see {@link hold}), if any. */
  flush(): ChatGenerationChunk | undefined {
    const pending = this.pending;
    this.pending = undefined;
    return pending;
  }

  /** The answer's last chunk: its metadata, with the usage when there is one. */
  protected finishChunk(fields: AIMessageChunkFields, usage: AIMessageChunkFields["usage_metadata"]) {
    if (usage !== undefined) fields.usage_metadata = usage;
    return this.chunk(fields);
  }

  /** Holds `chunk` back until the stream has ended ({@link flush}). */
  protected hold(chunk: ChatGenerationChunk): void {
    this.pending = chunk;
  }

  private blockIndex(partId: string): number {
    let index = this.blockIndexes.get(partId);
    if (index === undefined) {
      index = this.blockIndexes.size;
      this.blockIndexes.set(partId, index);
    }
    return index;
  }

  /** A chunk of this answer (with its id). */
  protected chunk(fields: AIMessageChunkFields, text = ""): ChatGenerationChunk {
    return new ChatGenerationChunk({ text, message: new AIMessageChunk({ ...fields, id: this.id }) });
  }
}

/** The error an `error` stream part throws. */
export function streamError(error: unknown, provider: string): Error {
  if (error instanceof Error) return error;
  const message = (error as { message?: unknown } | undefined)?.message;
  return new ModelCallError(
    `The ${provider} stream reported an error: ${typeof message === "string" ? message : JSON.stringify(error)}.`,
    { provider, isRetryable: false, responseBody: error },
  );
}
