import type { ChatModelV1FinishReason } from "../../spec/index.js";

/**
 * Maps Anthropic's `stop_reason` to the unified reason, keeping the raw string.
 *
 * @example
 * ```ts
 * mapAnthropicStopReason("tool_use"); // { unified: "tool-calls", raw: "tool_use" }
 * ```
 */
export function mapAnthropicStopReason(raw: string | null | undefined): ChatModelV1FinishReason {
  const value = raw ?? undefined;
  switch (value) {
    case "end_turn":
    case "stop_sequence":
      return { unified: "stop", raw: value };
    case "max_tokens":
    case "model_context_window_exceeded":
      return { unified: "length", raw: value };
    case "tool_use":
      return { unified: "tool-calls", raw: value };
    case "refusal":
      return { unified: "refusal", raw: value };
    default:
      return { unified: "other", raw: value };
  }
}
