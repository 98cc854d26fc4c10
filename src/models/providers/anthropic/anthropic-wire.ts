/**
 * The parts of the Anthropic Messages API wire format this provider reads and writes,
 * limited to the fields used.
 */

/** A tool definition. */
export interface AnthropicWireTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  strict?: boolean;
  [field: string]: unknown;
}

/** `tool_choice` in the request. */
export type AnthropicWireToolChoice =
  | { type: "auto" | "any" | "none"; disable_parallel_tool_use?: boolean }
  | { type: "tool"; name: string; disable_parallel_tool_use?: boolean };

/** The request body of `POST /v1/messages`. */
export interface AnthropicRequest {
  model: string;
  max_tokens: number;
  /** As `formatAnthropicMessages` converts them. */
  messages: Array<{ role: "user" | "assistant"; content: string | Array<Record<string, unknown>> }>;
  system?: string | Array<Record<string, unknown>>;
  stream?: boolean;
  tools?: AnthropicWireTool[];
  tool_choice?: AnthropicWireToolChoice;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  thinking?: { type: "enabled"; budget_tokens: number } | { type: "disabled" };
  [extra: string]: unknown;
}

/** Usage as Anthropic reports it. */
export interface AnthropicWireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/** A content block of a response. */
export type AnthropicResponseBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string; signature?: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "tool_use"; id: string; name: string; input: unknown }
  | { type: string; [key: string]: unknown };

/** The response of a non-streaming call. */
export interface AnthropicResponse {
  id?: string;
  model?: string;
  content: AnthropicResponseBlock[];
  stop_reason?: string | null;
  stop_sequence?: string | null;
  usage?: AnthropicWireUsage;
}

/** One event of a streamed call (`event:` name equals `type`). */
export type AnthropicStreamEvent =
  | { type: "message_start"; message: { id?: string; model?: string; usage?: AnthropicWireUsage } }
  | { type: "content_block_start"; index: number; content_block: AnthropicResponseBlock }
  | {
      type: "content_block_delta";
      index: number;
      delta:
        | { type: "text_delta"; text: string }
        | { type: "thinking_delta"; thinking: string }
        | { type: "signature_delta"; signature: string }
        | { type: "input_json_delta"; partial_json: string }
        | { type: string; [key: string]: unknown };
    }
  | { type: "content_block_stop"; index: number }
  | {
      type: "message_delta";
      delta: { stop_reason?: string | null; stop_sequence?: string | null };
      usage?: AnthropicWireUsage;
    }
  | { type: "message_stop" }
  | { type: "ping" }
  | { type: "error"; error: { type?: string; message?: string } };
