/**
 * Token counts of one call. Fields the provider did not report stay `undefined`.
 *
 * @example
 * ```ts
 * const usage: ChatModelV1Usage = { inputTokens: 12, outputTokens: 5, totalTokens: 17 };
 * ```
 */
export interface ChatModelV1Usage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  /** Input tokens served from the provider's prompt cache. */
  cacheReadTokens?: number;
  /** Input tokens written to the provider's prompt cache. */
  cacheWriteTokens?: number;
  /** Output tokens spent on reasoning. */
  reasoningTokens?: number;
  audioInputTokens?: number;
  audioOutputTokens?: number;
}
