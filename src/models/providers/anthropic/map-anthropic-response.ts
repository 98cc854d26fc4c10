import type { ChatModelV1Content, ChatModelV1GenerateResult, JSONValue } from "../../spec/index.js";
import type { AnthropicResponse } from "./anthropic-wire.js";
import { mapAnthropicStopReason } from "./map-anthropic-stop-reason.js";
import { mapAnthropicUsage } from "./map-anthropic-usage.js";

/** The provider-metadata key under which the response's own content blocks travel. */
export const RESPONSE_CONTENT = "__response_content";

/**
 * The response's fields other than `content` (`id`, `type`, `role`, `model`, `stop_reason`,
 * `stop_sequence`, `usage`, …), which `@langchain/anthropic` keeps in both `additional_kwargs`
 * and `response_metadata`.
 */
function responseFields(response: AnthropicResponse): Record<string, JSONValue> {
  const { content: _content, ...rest } = response;
  return {
    ...(rest as Record<string, JSONValue>),
    stop_reason: response.stop_reason ?? null,
    stop_sequence: response.stop_sequence ?? null,
  };
}

/**
 * Maps a non-streaming Messages API response to the spec result: text, thinking (with its
 * signature) and redacted thinking, and `tool_use` blocks as tool calls.
 *
 * @example
 * ```ts
 * mapAnthropicResponse({ id: "msg_1", content: [{ type: "text", text: "Hi" }], stop_reason: "end_turn" }).content;
 * // [{ type: "text", text: "Hi" }]
 * ```
 */
export function mapAnthropicResponse(response: AnthropicResponse): ChatModelV1GenerateResult {
  const content: ChatModelV1Content[] = [];
  for (const block of response.content) {
    if (block.type === "text" && typeof block.text === "string") {
      content.push({ type: "text", text: block.text });
    } else if (block.type === "thinking" && typeof block.thinking === "string") {
      const part: ChatModelV1Content = { type: "reasoning", text: block.thinking };
      if (typeof block.signature === "string") part.signature = block.signature;
      content.push(part);
    } else if (block.type === "redacted_thinking" && typeof block.data === "string") {
      content.push({ type: "reasoning", text: "", redactedData: block.data });
    } else if (block.type === "tool_use" && typeof block.id === "string" && typeof block.name === "string") {
      content.push({
        type: "tool-call",
        toolCallId: block.id,
        toolName: block.name,
        input: JSON.stringify(block.input ?? {}),
      });
    }
  }
  const response_: { id?: string; modelId?: string } = {};
  if (response.id !== undefined) response_.id = response.id;
  if (response.model !== undefined) response_.modelId = response.model;
  return {
    content,
    finishReason: mapAnthropicStopReason(response.stop_reason),
    usage: mapAnthropicUsage(response.usage),
    response: response_,
    providerMetadata: {
      anthropic: { ...responseFields(response), [RESPONSE_CONTENT]: response.content as JSONValue },
    },
  };
}
