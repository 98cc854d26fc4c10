/**
 * Why generation stopped: a provider-neutral `unified` reason plus the provider's own `raw`
 * string (`"tool_calls"`, `"end_turn"`, …).
 *
 * @example
 * ```ts
 * const reason: ChatModelV1FinishReason = { unified: "tool-calls", raw: "tool_calls" };
 * ```
 */
export interface ChatModelV1FinishReason {
  unified: "stop" | "length" | "content-filter" | "tool-calls" | "refusal" | "error" | "other";
  raw: string | undefined;
}
