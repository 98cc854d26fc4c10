/**
 * The content-block vocabulary of LangChain.js's chat-model stream protocol (`@langchain/core`
 * 1.4), shared by the two sides that assemble a streamed answer from it: a chat model answering
 * with the message its protocol events make (`models`), and `streamEvents` v3's `ChatModelStream`
 * (`graph`). Both apply the same increments to the same blocks, so both end with the same content.
 */

/** A content block as the protocol carries it (`{ type: "text", text }`, `{ type: "tool_call", … }`, …). */
export interface ProtocolContentBlock {
  type: string;
  index?: number;
  [key: string]: unknown;
}

/** An increment of an open content block. */
export type ContentBlockDelta =
  | { type: "text-delta"; text: string }
  | { type: "reasoning-delta"; reasoning: string }
  | { type: "data-delta"; data: string; encoding?: string }
  | { type: "tool-call-delta"; args: string }
  | { type: "block-delta"; fields: Record<string, unknown> };

/**
 * `block` with `delta` applied: text, reasoning (a `thinking` or `reasoning` block), base64 data
 * and tool-call arguments (of a `tool_call_chunk` or `server_tool_call_chunk`) are appended;
 * `block-delta` fields replace the block's. An increment that does not fit the block leaves it
 * as it is.
 *
 * @example
 * ```ts
 * applyContentBlockDelta({ type: "text", text: "Hel" }, { type: "text-delta", text: "lo" }); // { type: "text", text: "Hello" }
 * ```
 */
export function applyContentBlockDelta(
  block: ProtocolContentBlock,
  delta: ContentBlockDelta,
): ProtocolContentBlock {
  switch (delta.type) {
    case "text-delta":
      return block.type === "text" ? { ...block, text: String(block.text ?? "") + delta.text } : block;
    case "reasoning-delta":
      if (block.type === "thinking")
        return { ...block, thinking: String(block.thinking ?? "") + delta.reasoning };
      if (block.type === "reasoning")
        return { ...block, reasoning: String(block.reasoning ?? "") + delta.reasoning };
      return block;
    case "data-delta":
      return { ...block, data: String(block.data ?? "") + delta.data };
    case "tool-call-delta":
      return block.type === "tool_call_chunk" || block.type === "server_tool_call_chunk"
        ? { ...block, args: String(block.args ?? "") + delta.args }
        : block;
    case "block-delta":
      return { ...block, ...delta.fields };
  }
}

/**
 * A streamed tool call's arguments as an object: an object as it is, JSON text parsed, and `{}`
 * for anything else (no text yet, text that is not JSON, or JSON that is not an object), as
 * LangChain.js reads a tool call block that never got valid arguments.
 */
export function toolCallArgsObject(value: unknown): Record<string, unknown> {
  if (isPlainRecord(value)) return value;
  if (typeof value !== "string" || value === "") return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isPlainRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
