import {
  type ChatModelStreamEvent,
  parsedToolCallBlock,
  type StreamContentBlock,
  type StreamContentBlockDelta,
  type StreamFinishReason,
  type StreamUsage,
} from "../../chat-model/stream-events.js";
import { startUsage } from "./anthropic-stream-chunks.js";
import type { AnthropicWireUsage } from "./anthropic-wire.js";

/** What the converter reads of an Anthropic Messages stream event. */
interface AnthropicEvent {
  type: string;
  index?: number;
  message?: { id?: string; model?: string; usage?: AnthropicWireUsage };
  content_block?: { type: string; [key: string]: unknown };
  delta?: {
    type?: string;
    stop_reason?: string | null;
    context_management?: unknown;
    [key: string]: unknown;
  };
  usage?: { output_tokens?: number; cost?: unknown };
}

/** The protocol's finish reason for an Anthropic `stop_reason`. */
function finishReasonOf(reason: string | null | undefined): StreamFinishReason {
  if (reason === "tool_use") return "tool_use";
  if (reason === "max_tokens") return "length";
  return "stop";
}

/** The protocol block an Anthropic content block starts as (with its `index`). */
function startBlockOf(block: { type: string; [key: string]: unknown }, index: number): StreamContentBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: typeof block.text === "string" ? block.text : "", index };
    case "thinking":
      return {
        type: "reasoning",
        reasoning: typeof block.thinking === "string" ? block.thinking : "",
        index,
      };
    case "tool_use":
      return { type: "tool_call_chunk", id: block.id, name: block.name, args: "", index };
    case "server_tool_use":
      return { type: "server_tool_call_chunk", id: block.id, name: block.name, args: "", index };
    default:
      return { type: "non_standard", value: { ...block }, index };
  }
}

/** The protocol delta of an Anthropic `content_block_delta`, and the block after it. */
function applyAnthropicDelta(
  block: StreamContentBlock,
  delta: NonNullable<AnthropicEvent["delta"]>,
): { delta: StreamContentBlockDelta; block: StreamContentBlock } {
  switch (delta.type) {
    case "text_delta": {
      const text = String(delta.text ?? "");
      return {
        delta: { type: "text-delta", text },
        block: { ...block, text: String(block.text ?? "") + text },
      };
    }
    case "thinking_delta": {
      const reasoning = String(delta.thinking ?? "");
      return {
        delta: { type: "reasoning-delta", reasoning },
        block: { ...block, reasoning: String(block.reasoning ?? "") + reasoning },
      };
    }
    case "input_json_delta": {
      // the arguments so far, as LangChain.js's Anthropic converter sends them (a snapshot)
      const args = String(block.args ?? "") + String(delta.partial_json ?? "");
      return {
        delta: { type: "block-delta", fields: { type: block.type, args } },
        block: { ...block, args },
      };
    }
    case "citations_delta": {
      const annotations = [...(Array.isArray(block.annotations) ? block.annotations : []), delta.citation];
      return {
        delta: { type: "block-delta", fields: { type: block.type, annotations } },
        block: { ...block, annotations },
      };
    }
    case "signature_delta":
      return {
        delta: { type: "block-delta", fields: { type: block.type, signature: delta.signature } },
        block: { ...block, signature: delta.signature },
      };
    default:
      return { delta: { type: "block-delta", fields: { ...delta, type: block.type } }, block };
  }
}

/** A finished block: tool calls with parsed arguments, other blocks without their `index`. */
function finishBlockOf(block: StreamContentBlock): StreamContentBlock {
  if (block.type === "tool_call_chunk" || block.type === "server_tool_call_chunk") {
    const type = block.type === "tool_call_chunk" ? "tool_call" : "server_tool_call";
    const args = typeof block.args === "string" && block.args !== "" ? block.args : "{}";
    return parsedToolCallBlock(block, type, args);
  }
  const { index: _index, ...rest } = block;
  return rest as StreamContentBlock;
}

/**
 * ChatAnthropic's protocol events, made from the Messages stream events as LangChain.js's
 * Anthropic converter makes them: `message_start` starts the message (its id and input usage)
 * and adds a `provider` event `message_start` `{ model, id }`; each content block starts (with
 * its `index`), streams (tool arguments as `block-delta` snapshots of the arguments so far) and
 * finishes at its own `content_block_stop`; `message_delta` brings a `usage` snapshot and the
 * stop reason, which `message_stop` finishes the message with (`metadata: { model_provider }`).
 * Other events pass through as `provider` events. Unlike `@langchain/anthropic`, the output
 * tokens are counted once (see docs/differences.md).
 */
export async function* anthropicStreamEvents(
  source: AsyncIterable<unknown>,
  options: { streamUsage: boolean },
): AsyncGenerator<ChatModelStreamEvent> {
  const blocks = new Map<number, StreamContentBlock>();
  let usage: StreamUsage | undefined;
  let responseMetadata: Record<string, unknown> = {};
  let stopReason: string | null | undefined = null;
  for await (const raw of source) {
    const data = raw as AnthropicEvent;
    switch (data.type) {
      case "message_start": {
        const message = data.message ?? {};
        if (message.usage !== undefined && options.streamUsage) usage = { ...startUsage(message.usage) };
        yield { event: "message-start", id: message.id, ...(usage !== undefined ? { usage } : {}) };
        yield {
          event: "provider",
          provider: "anthropic",
          name: "message_start",
          payload: { model: message.model, id: message.id },
        };
        break;
      }
      case "message_delta": {
        stopReason = data.delta?.stop_reason;
        if (typeof data.usage?.cost === "number") responseMetadata = { usage: { cost: data.usage.cost } };
        if (options.streamUsage && data.usage !== undefined) {
          // Anthropic's `output_tokens` here is the answer's total so far
          const output = data.usage.output_tokens ?? 0;
          const input = usage?.input_tokens ?? 0;
          usage = { ...usage, input_tokens: input, output_tokens: output, total_tokens: input + output };
          yield { event: "usage", usage };
        }
        if (data.delta?.context_management)
          yield {
            event: "provider",
            provider: "anthropic",
            name: "context_management",
            payload: data.delta.context_management,
          };
        break;
      }
      case "message_stop":
        yield {
          event: "message-finish",
          reason: finishReasonOf(stopReason),
          ...(usage !== undefined ? { usage } : {}),
          metadata: { model_provider: "anthropic" },
          responseMetadata,
        };
        break;
      case "content_block_start": {
        const index = data.index ?? 0;
        const block = startBlockOf(data.content_block ?? { type: "text" }, index);
        blocks.set(index, { ...block });
        yield { event: "content-block-start", index, content: block };
        break;
      }
      case "content_block_delta": {
        const index = data.index ?? 0;
        const block = blocks.get(index);
        if (block === undefined || data.delta === undefined) break;
        const applied = applyAnthropicDelta(block, data.delta);
        blocks.set(index, applied.block);
        yield { event: "content-block-delta", index, delta: applied.delta };
        break;
      }
      case "content_block_stop": {
        const index = data.index ?? 0;
        const block = blocks.get(index);
        if (block === undefined) break;
        blocks.delete(index);
        yield { event: "content-block-finish", index, content: finishBlockOf(block) };
        break;
      }
      default:
        yield { event: "provider", provider: "anthropic", name: data.type, payload: data };
    }
  }
}
