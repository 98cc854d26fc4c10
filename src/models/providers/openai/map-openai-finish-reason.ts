import type { ChatModelV1FinishReason } from "../../spec/index.js";

/**
 * Maps OpenAI's `finish_reason` to the unified reason, keeping the raw string.
 *
 * @example
 * ```ts
 * mapOpenAIFinishReason("tool_calls"); // { unified: "tool-calls", raw: "tool_calls" }
 * ```
 */
export function mapOpenAIFinishReason(raw: string | null | undefined): ChatModelV1FinishReason {
  const value = raw ?? undefined;
  switch (value) {
    case "stop":
      return { unified: "stop", raw: value };
    case "length":
      return { unified: "length", raw: value };
    case "content_filter":
      return { unified: "content-filter", raw: value };
    case "tool_calls":
    case "function_call":
      return { unified: "tool-calls", raw: value };
    default:
      return { unified: "other", raw: value };
  }
}
