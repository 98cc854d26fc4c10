import { AIMessageChunk, type AIMessageChunkFields, type UsageMetadata } from "../../../messages/index.js";
import { ChatGenerationChunk } from "../../chat-model/chat-generation-chunk.js";
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
 * `usage_metadata` with the output tokens, `response_metadata.usage.cost` when a gateway reports
 * a numeric cost and `response_metadata.context_management` when the delta has it). Unlike `@langchain/anthropic`, which adds the
 * `message_start` output tokens to the final count, the joined usage counts them once.
 *
 * @example
 * ```ts
 * const mapper = new AnthropicStreamChunks(ctx, true);
 * ```
 */
export class AnthropicStreamChunks extends StreamPartsToChunks {
  /** Whether the chunks keep the answer's blocks in their content (set at `message_start`). */
  private blocks = false;
  /** The last `message_delta`'s `delta`, for the last chunk's `additional_kwargs`. */
  private messageDelta: Record<string, unknown> | undefined;
  /** Whether the first chunk (the one carrying the answer's id) was made. */
  private started = false;

  constructor(
    ctx: MessageContext,
    private readonly streamUsage: boolean,
  ) {
    super(ctx);
  }

  /**
   * Only the first chunk carries the answer's id, as in `@langchain/anthropic`; the model gives
   * the others the run's `run-…` id when callbacks hear the call (none otherwise), and the
   * joined answer has the first one's.
   */
  protected override chunk(fields: AIMessageChunkFields, text = ""): ChatGenerationChunk {
    if (!this.started) {
      this.started = true;
      return super.chunk(fields, text);
    }
    return new ChatGenerationChunk({ text, message: new AIMessageChunk(fields) });
  }

  override map(part: ChatModelV1StreamPart): ChatGenerationChunk | undefined {
    if (part.type === "raw") return this.mapEvent(record(part.rawValue));
    if (part.type === "response-metadata") {
      super.map(part);
      const anthropic = record(part.providerMetadata?.anthropic);
      this.blocks = anthropic.content_blocks === true;
      const usage = anthropic.usage as AnthropicWireUsage | null | undefined;
      const { input_tokens: _i, output_tokens: _o, ...rest } = record(usage);
      const fields: AIMessageChunkFields = {
        content: this.blocks ? [] : "",
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
        content: this.blocks ? [] : "",
        additional_kwargs: this.messageDelta ?? {
          stop_reason: anthropic.stop_reason ?? null,
          stop_sequence: anthropic.stop_sequence ?? null,
        },
        response_metadata: {},
      };
      // as @langchain/anthropic: the edits context management applied, and a gateway's numeric
      // `cost` in the usage (even with `streamUsage: false`)
      if (this.messageDelta !== undefined && "context_management" in this.messageDelta) {
        fields.response_metadata = { context_management: this.messageDelta.context_management };
      }
      if (typeof delta.cost === "number") {
        fields.response_metadata = { ...fields.response_metadata, usage: { cost: delta.cost } };
      }
      if (this.streamUsage) {
        fields.usage_metadata = { input_tokens: 0, output_tokens: output, total_tokens: output };
      }
      return this.chunk(fields);
    }
    // with blocks kept, the content chunks are made from the raw events (mapEvent)
    if (this.blocks && part.type !== "error") return undefined;
    // a text block's start is a chunk of its own
    if (part.type === "text-start")
      return this.chunk({ content: "", response_metadata: { model_provider: "anthropic" } });
    const chunk = super.map(part);
    if (chunk !== undefined && (part.type === "tool-input-start" || part.type === "tool-input-delta")) {
      // without a `type`, in `@langchain/anthropic`'s key order (`id`, `index`, `name`, `args`)
      chunk.message.tool_call_chunks = chunk.message.tool_call_chunks.map(
        ({ type: _type, id, index, name, args }) => ({
          ...(id !== undefined ? { id } : {}),
          ...(index !== undefined ? { index } : {}),
          ...(name !== undefined ? { name } : {}),
          ...(args !== undefined ? { args } : {}),
        }),
      );
      chunk.message.response_metadata = { model_provider: "anthropic" };
    }
    return chunk;
  }

  /**
   * A chunk for a content event when the blocks are kept, as `@langchain/anthropic` makes it:
   * the block (or its delta) with its `index` as the content — a text or thinking delta as a
   * `text`/`thinking` block, a citation as `citations: [citation]`, a tool input fragment as an
   * `input_json_delta` block and a tool call chunk. Block kinds it does not stream (code
   * execution results, MCP blocks, …) give no chunk.
   */
  private mapEvent(event: Record<string, unknown>): ChatGenerationChunk | undefined {
    if (event.type === "message_delta") {
      this.messageDelta = { ...record(event.delta) };
      return undefined;
    }
    if (!this.blocks) return undefined;
    const index = event.index;
    if (event.type === "content_block_start") {
      const block = record(event.content_block);
      if (block.type === "tool_use" || block.type === "server_tool_use") {
        const content = [{ index, ...block, input: "" }];
        const tool_call_chunks =
          block.type === "tool_use"
            ? [{ id: block.id as string, index: index as number, name: block.name as string, args: "" }]
            : [];
        return this.blockChunk(content, "", tool_call_chunks);
      }
      if (STREAMED_BLOCKS.has(String(block.type))) {
        const text = block.type === "text" && typeof block.text === "string" ? block.text : "";
        return this.blockChunk([{ index, ...block }], text);
      }
      return undefined;
    }
    if (event.type !== "content_block_delta") return undefined;
    const { type, ...delta } = record(event.delta);
    if (type === "text_delta" || type === "citations_delta") {
      const { citation, ...rest } = delta;
      const block = {
        index,
        type: "text",
        ...rest,
        ...(citation === undefined ? {} : { citations: [citation] }),
      };
      return this.blockChunk([block], typeof delta.text === "string" ? delta.text : "");
    }
    if (type === "thinking_delta" || type === "signature_delta") {
      return this.blockChunk([{ index, type: "thinking", ...delta }], "");
    }
    if (type === "compaction_delta") return this.blockChunk([{ index, type: "compaction", ...delta }], "");
    if (type === "input_json_delta") {
      const args = typeof delta.partial_json === "string" ? delta.partial_json : "";
      return this.blockChunk([{ index, input: args, type }], args, [{ index: index as number, args }]);
    }
    return undefined;
  }

  private blockChunk(
    content: Array<Record<string, unknown>>,
    text: string,
    tool_call_chunks?: AIMessageChunkFields["tool_call_chunks"],
  ): ChatGenerationChunk {
    const fields: AIMessageChunkFields = {
      content: content as AIMessageChunkFields["content"],
      response_metadata: { model_provider: "anthropic" },
    };
    if (tool_call_chunks !== undefined) fields.tool_call_chunks = tool_call_chunks;
    return this.chunk(fields, text);
  }
}

/** The blocks `@langchain/anthropic` streams as they start, besides tool calls. */
const STREAMED_BLOCKS = new Set([
  "text",
  "thinking",
  "redacted_thinking",
  "compaction",
  "document",
  "web_search_tool_result",
  "tool_search_tool_result",
  "tool_search_tool_bm25_tool_result",
  "tool_search_tool_regex_tool_result",
]);

/** The usage of `message_start`: input tokens with cache reads and writes, details always given. */
export function startUsage(usage: AnthropicWireUsage): UsageMetadata {
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
