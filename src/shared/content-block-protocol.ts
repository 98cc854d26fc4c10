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
function toolCallArgsObject(value: unknown): Record<string, unknown> {
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

/** Token counts as the protocol's `usage` snapshots carry them. */
export interface ProtocolUsage {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  [key: string]: unknown;
}

/** A usage snapshot with its three counts filled in (0 when not reported). */
export type CompleteProtocolUsage = ProtocolUsage & {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
};

/** `usage` with its three counts filled in (0 when not reported). */
export function completeProtocolUsage(usage: ProtocolUsage): CompleteProtocolUsage {
  return {
    ...usage,
    input_tokens: usage.input_tokens ?? 0,
    output_tokens: usage.output_tokens ?? 0,
    total_tokens: usage.total_tokens ?? 0,
  };
}

/**
 * A block still in its streaming form (a tool call that never finished: `tool_call_chunk`,
 * `tool_use`, `input_json_delta`) as a `tool_call` with its arguments as an object, when it names
 * its tool; any other block as it is. As LangChain.js's `ChatModelStream` standardizes blocks.
 */
function standardizeToolBlock(block: ProtocolContentBlock): ProtocolContentBlock {
  if (block.type !== "tool_call_chunk" && block.type !== "tool_use" && block.type !== "input_json_delta")
    return block;
  if (typeof block.name !== "string") return block;
  return {
    ...block,
    type: "tool_call",
    name: block.name,
    args: toolCallArgsObject(block.args ?? block.input),
  };
}

/** The events of a streamed message that {@link StreamMessageAssembly} reads (others are skipped). */
export type AssembledStreamEvent =
  | { event: "message-start"; id?: string | undefined; usage?: ProtocolUsage | undefined }
  | { event: "content-block-start" | "content-block-finish"; index: number; content: ProtocolContentBlock }
  | { event: "content-block-delta"; index: number; delta: ContentBlockDelta }
  | { event: "usage"; usage: ProtocolUsage }
  | {
      event: "message-finish";
      reason?: string | undefined;
      usage?: ProtocolUsage | undefined;
      responseMetadata?: Record<string, unknown> | undefined;
    }
  | { event: "provider" | "error" };

/** What a streamed message's events assemble to (see {@link StreamMessageAssembly}). */
export interface AssembledStreamMessage {
  id: string | undefined;
  /** The blocks in index order, tool calls standardized. */
  content: ProtocolContentBlock[];
  /** The last usage snapshot, counts filled in. */
  usage: CompleteProtocolUsage | undefined;
  /** `output_version: "v1"`, the `message-finish` response metadata, and its `finish_reason`. */
  responseMetadata: Record<string, unknown>;
}

/**
 * Assembles a streamed message from its protocol events, as LangChain.js's `ChatModelStream`
 * does: blocks by index (started, increased by deltas, replaced when finished), the last usage
 * snapshot, the id of `message-start`, and the response metadata and reason of `message-finish`.
 * Shared by the model that answers with the message its events make and by `streamEvents` v3's
 * `ChatModelStream`.
 */
export class StreamMessageAssembly {
  private readonly blocks: (ProtocolContentBlock | undefined)[] = [];
  private id: string | undefined;
  private usage: ProtocolUsage | undefined;
  private metadata: Record<string, unknown> = {};
  private reason: string | undefined;

  add(event: AssembledStreamEvent): void {
    switch (event.event) {
      case "message-start":
        this.id = event.id ?? this.id;
        if (event.usage !== undefined) this.usage = event.usage;
        break;
      case "content-block-start":
      case "content-block-finish":
        this.blocks[event.index] = event.content;
        break;
      case "content-block-delta": {
        const current = this.blocks[event.index];
        if (current !== undefined) this.blocks[event.index] = applyContentBlockDelta(current, event.delta);
        break;
      }
      case "usage":
        this.usage = event.usage;
        break;
      case "message-finish":
        this.reason = event.reason;
        if (event.usage !== undefined) this.usage = event.usage;
        if (event.responseMetadata !== undefined)
          this.metadata = { ...this.metadata, ...event.responseMetadata };
        break;
      default:
        break;
    }
  }

  result(): AssembledStreamMessage {
    const content: ProtocolContentBlock[] = [];
    for (const block of this.blocks) if (block != null) content.push(standardizeToolBlock(block));
    return {
      id: this.id,
      content,
      usage: this.usage === undefined ? undefined : completeProtocolUsage(this.usage),
      responseMetadata: {
        output_version: "v1",
        ...this.metadata,
        ...(this.reason !== undefined && this.reason !== "" ? { finish_reason: this.reason } : {}),
      },
    };
  }
}
