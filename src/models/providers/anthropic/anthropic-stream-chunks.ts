import type { AIMessageChunkFields, UsageMetadata } from "../../../messages/index.js";
import type { ChatGenerationChunk } from "../../chat-model/chat-generation-chunk.js";
import type { ChatModelV1StreamPart } from "../../spec/index.js";
import type { MessageContext } from "../../spec-adapter/result-to-message.js";
import { StreamPartsToChunks } from "../../spec-adapter/stream-parts-to-chunks.js";
import type { AnthropicWireUsage } from "./anthropic-wire.js";

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};

/**
 * ChatAnthropic's chunks, shaped as `@langchain/anthropic` shapes them: a first chunk at
 * `message_start` (its `additional_kwargs` hold the message's `id`, `type`, `role` and `model`,
 * its `response_metadata` `model_provider` and the usage fields other than the token counts,
 * its `usage_metadata` the input tokens), a chunk for each text block's start, tool call chunks
 * without a `type` (with `model_provider` in their `response_metadata`), and a last chunk
 * for `message_delta` (`additional_kwargs` with `stop_reason` and `stop_sequence`,
 * `usage_metadata` with the output tokens). Unlike `@langchain/anthropic`, which adds the
 * `message_start` output tokens to the final count, the joined usage counts them once.
 *
 * @example
 * ```ts
 * const mapper = new AnthropicStreamChunks(ctx, true);
 * ```
 */
export class AnthropicStreamChunks extends StreamPartsToChunks {
  constructor(
    ctx: MessageContext,
    private readonly streamUsage: boolean,
  ) {
    super(ctx);
  }

  override map(part: ChatModelV1StreamPart): ChatGenerationChunk | undefined {
    if (part.type === "response-metadata") {
      super.map(part);
      const anthropic = record(part.providerMetadata?.anthropic);
      const usage = anthropic.usage as AnthropicWireUsage | null | undefined;
      const { input_tokens: _i, output_tokens: _o, ...rest } = record(usage);
      const fields: AIMessageChunkFields = {
        content: "",
        additional_kwargs: { ...record(anthropic.message) },
        response_metadata: { model_provider: "anthropic", usage: rest },
      };
      if (this.streamUsage && usage) fields.usage_metadata = startUsage(usage);
      return this.chunk(fields);
    }
    if (part.type === "finish") {
      const anthropic = record(part.providerMetadata?.anthropic);
      const start = record(anthropic.start_usage);
      const delta = record(anthropic.delta_usage);
      const startOutput = typeof start.output_tokens === "number" ? start.output_tokens : 0;
      const output = typeof delta.output_tokens === "number" ? delta.output_tokens - startOutput : 0;
      const fields: AIMessageChunkFields = {
        content: "",
        additional_kwargs: {
          stop_reason: anthropic.stop_reason ?? null,
          stop_sequence: anthropic.stop_sequence ?? null,
        },
        response_metadata: {},
      };
      if (this.streamUsage) {
        fields.usage_metadata = { input_tokens: 0, output_tokens: output, total_tokens: output };
      }
      return this.chunk(fields);
    }
    // a text block's start is a chunk of its own
    if (part.type === "text-start")
      return this.chunk({ content: "", response_metadata: { model_provider: "anthropic" } });
    const chunk = super.map(part);
    if (chunk !== undefined && (part.type === "tool-input-start" || part.type === "tool-input-delta")) {
      chunk.message.tool_call_chunks = chunk.message.tool_call_chunks.map(({ type: _type, ...rest }) => rest);
      chunk.message.response_metadata = { model_provider: "anthropic" };
    }
    return chunk;
  }
}

/** The usage of `message_start`: input tokens with cache reads and writes, details always given. */
function startUsage(usage: AnthropicWireUsage): UsageMetadata {
  const cacheCreation = usage.cache_creation_input_tokens ?? 0;
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const input = (usage.input_tokens ?? 0) + cacheCreation + cacheRead;
  const output = usage.output_tokens ?? 0;
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    input_token_details: { cache_creation: cacheCreation, cache_read: cacheRead },
  };
}
