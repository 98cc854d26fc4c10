import type { ChatModelV1StreamPart, ChatModelV1Usage, JSONValue } from "../../spec/index.js";
import type { AnthropicRequest, AnthropicStreamEvent, AnthropicWireUsage } from "./anthropic-wire.js";
import { mapAnthropicStopReason } from "./map-anthropic-stop-reason.js";
import { mapAnthropicUsage } from "./map-anthropic-usage.js";

type OpenBlock =
  | { kind: "text"; id: string }
  | { kind: "reasoning"; id: string; signature?: string }
  | { kind: "tool"; id: string }
  | { kind: "other" };

/**
 * Turns Messages API stream events (`message_start`, `content_block_start/delta/stop`,
 * `message_delta`, `message_stop`) into spec stream parts. Blocks are told apart by their
 * `index`; `input_json_delta` fragments become tool-input deltas; a thinking block's
 * `signature_delta` is delivered on its `reasoning-end`. Each event is also passed on as it
 * came, in a `raw` part before the parts made from it, for {@link AnthropicStreamChunks}.
 *
 * @example
 * ```ts
 * const parts = new AnthropicStreamParts(streamsContentBlocks(body));
 * for await (const event of sdkStream) yield* parts.push(event);
 * ```
 */
export class AnthropicStreamParts {
  private readonly blocks = new Map<number, OpenBlock>();
  private startUsage: AnthropicWireUsage | undefined;
  private startFields: Record<string, JSONValue> = {};
  private endUsage: AnthropicWireUsage | undefined;
  private stopReason: string | null | undefined;
  private stopSequence: string | null | undefined;
  private finished = false;

  /**
   * @param contentBlocks whether the chunks keep the answer's blocks in their content (see
   *   {@link streamsContentBlocks}); passed on in the `message_start` metadata.
   */
  constructor(private readonly contentBlocks = false) {}

  *push(event: AnthropicStreamEvent): Generator<ChatModelV1StreamPart> {
    yield { type: "raw", rawValue: event };
    switch (event.type) {
      case "message_start": {
        this.startUsage = event.message.usage;
        // the message's own fields (id, type, role, model), without the empty ones
        for (const [key, value] of Object.entries(event.message)) {
          if (key !== "content" && key !== "usage" && value !== undefined && value !== null) {
            this.startFields[key] = value as JSONValue;
          }
        }
        const meta: ChatModelV1StreamPart = {
          type: "response-metadata",
          providerMetadata: {
            anthropic: {
              message: this.startFields,
              content_blocks: this.contentBlocks,
              usage: (this.startUsage ?? null) as JSONValue,
            },
          },
        };
        if (event.message.id !== undefined) meta.id = event.message.id;
        if (event.message.model !== undefined) meta.modelId = event.message.model;
        yield meta;
        break;
      }
      case "content_block_start":
        yield* this.startBlock(event.index, event.content_block);
        break;
      case "content_block_delta":
        yield* this.delta(event.index, event.delta);
        break;
      case "content_block_stop":
        yield* this.stopBlock(event.index);
        break;
      case "message_delta":
        this.stopReason = event.delta.stop_reason;
        this.stopSequence = event.delta.stop_sequence;
        if (event.usage !== undefined) this.endUsage = event.usage;
        break;
      case "message_stop":
        yield* this.finish();
        break;
      case "error":
        yield { type: "error", error: event.error };
        break;
      default:
        break;
    }
  }

  /** Closes the stream: emits `finish` unless `message_stop` already did. */
  *finish(): Generator<ChatModelV1StreamPart> {
    if (this.finished) return;
    this.finished = true;
    for (const index of [...this.blocks.keys()]) yield* this.stopBlock(index);
    yield {
      type: "finish",
      finishReason: mapAnthropicStopReason(this.stopReason),
      usage: this.usage(),
      providerMetadata: {
        anthropic: {
          stop_reason: this.stopReason ?? null,
          stop_sequence: this.stopSequence ?? null,
          // read by AnthropicStreamChunks, which counts output tokens once
          start_usage: (this.startUsage ?? null) as JSONValue,
          delta_usage: (this.endUsage ?? null) as JSONValue,
        },
      },
    };
  }

  private usage(): ChatModelV1Usage {
    const start = this.startUsage ?? {};
    const end = this.endUsage ?? {};
    return mapAnthropicUsage({
      input_tokens: end.input_tokens ?? start.input_tokens ?? null,
      output_tokens: end.output_tokens ?? start.output_tokens ?? null,
      cache_read_input_tokens: end.cache_read_input_tokens ?? start.cache_read_input_tokens ?? null,
      cache_creation_input_tokens:
        end.cache_creation_input_tokens ?? start.cache_creation_input_tokens ?? null,
    });
  }

  private *startBlock(
    index: number,
    block: { type: string; [key: string]: unknown },
  ): Generator<ChatModelV1StreamPart> {
    const id = String(index);
    if (block.type === "text") {
      this.blocks.set(index, { kind: "text", id });
      yield { type: "text-start", id };
      if (typeof block.text === "string" && block.text !== "")
        yield { type: "text-delta", id, delta: block.text };
    } else if (block.type === "thinking") {
      this.blocks.set(index, { kind: "reasoning", id });
      yield { type: "reasoning-start", id };
    } else if (block.type === "redacted_thinking" && typeof block.data === "string") {
      this.blocks.set(index, { kind: "reasoning", id });
      yield { type: "reasoning-start", id, redactedData: block.data };
    } else if (block.type === "tool_use" && typeof block.id === "string") {
      this.blocks.set(index, { kind: "tool", id: block.id });
      yield {
        type: "tool-input-start",
        id: block.id,
        index,
        toolName: typeof block.name === "string" ? block.name : "",
      };
    } else {
      this.blocks.set(index, { kind: "other" });
    }
  }

  private *delta(
    index: number,
    delta: { type: string; [key: string]: unknown },
  ): Generator<ChatModelV1StreamPart> {
    const block = this.blocks.get(index);
    if (block === undefined) return;
    if (block.kind === "text" && delta.type === "text_delta" && typeof delta.text === "string") {
      yield { type: "text-delta", id: block.id, delta: delta.text };
    } else if (
      block.kind === "reasoning" &&
      delta.type === "thinking_delta" &&
      typeof delta.thinking === "string"
    ) {
      yield { type: "reasoning-delta", id: block.id, delta: delta.thinking };
    } else if (
      block.kind === "reasoning" &&
      delta.type === "signature_delta" &&
      typeof delta.signature === "string"
    ) {
      block.signature = (block.signature ?? "") + delta.signature;
    } else if (
      block.kind === "tool" &&
      delta.type === "input_json_delta" &&
      typeof delta.partial_json === "string"
    ) {
      // an empty fragment is a chunk too, as in @langchain/anthropic
      yield { type: "tool-input-delta", id: block.id, index, delta: delta.partial_json };
    }
  }

  private *stopBlock(index: number): Generator<ChatModelV1StreamPart> {
    const block = this.blocks.get(index);
    this.blocks.delete(index);
    if (block === undefined) return;
    if (block.kind === "text") yield { type: "text-end", id: block.id };
    else if (block.kind === "tool") yield { type: "tool-input-end", id: block.id, index };
    else if (block.kind === "reasoning") {
      yield block.signature === undefined
        ? { type: "reasoning-end", id: block.id }
        : { type: "reasoning-end", id: block.id, signature: block.signature };
    }
  }
}

/**
 * Whether a streamed answer keeps its blocks in the chunks' content, as `@langchain/anthropic`
 * decides it: when the request has tools, thinking, a document with citations enabled, or
 * context compaction (otherwise the content is the text, as a string).
 */
export function streamsContentBlocks(body: AnthropicRequest): boolean {
  if (Array.isArray(body.tools) && body.tools.length > 0) return true;
  const thinking = body.thinking as { type?: unknown } | undefined;
  if (thinking?.type === "enabled" || thinking?.type === "adaptive") return true;
  const edits = (body.context_management as { edits?: unknown } | undefined)?.edits;
  if (Array.isArray(edits) && edits.some((edit) => (edit as { type?: unknown })?.type === "compact_20260112"))
    return true;
  return body.messages.some(
    (message) =>
      Array.isArray(message.content) &&
      message.content.some(
        (block) =>
          block.type === "document" &&
          typeof block.citations === "object" &&
          block.citations !== null &&
          (block.citations as { enabled?: unknown }).enabled === true,
      ),
  );
}
