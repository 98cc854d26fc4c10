/**
 * Model reasoning ("thinking"). Providers that must receive their reasoning back verbatim
 * (Anthropic extended thinking) set `signature`, or `redactedData` for a redacted block.
 *
 * @example
 * ```ts
 * const part: ChatModelV1ReasoningPart = { type: "reasoning", text: "The user wants…", signature: "EqQB…" };
 * ```
 */
export interface ChatModelV1ReasoningPart {
  type: "reasoning";
  text: string;
  signature?: string;
  redactedData?: string;
}
