import type { UsageMetadata } from "../../messages/index.js";
import type { ChatModelV1Usage } from "../spec/index.js";

/** How {@link usageToMetadata} writes `usage_metadata`. */
export interface UsageMetadataOptions {
  /**
   * `@langchain/openai`'s form: `input_token_details` and `output_token_details` are present even
   * when no detail was reported (`{}`), and list `audio` first (`audio`, `cache_read`,
   * `cache_creation`; `audio`, `reasoning`). Otherwise the details reported are listed as
   * `@langchain/anthropic` lists them (`cache_creation`, `cache_read`, then `audio`; `reasoning`,
   * then `audio`).
   */
  openAIForm?: boolean | undefined;
  /**
   * The usage of a whole (non-streamed) answer: in `openAIForm`, `output_tokens` comes before
   * `input_tokens`, as `@langchain/openai`'s `invoke` writes them (its stream chunks do not).
   */
  wholeAnswer?: boolean | undefined;
}

/**
 * Spec usage → `usage_metadata` (`input_tokens`, `output_tokens`, `total_tokens`, and the
 * cache / reasoning / audio details that were reported). `undefined` when the provider
 * reported no counts. The key order is the LangChain.js provider packages' (see
 * {@link UsageMetadataOptions}), which JSON snapshots of messages show.
 *
 * @example
 * ```ts
 * usageToMetadata({ inputTokens: 10, outputTokens: 2, cacheReadTokens: 4 });
 * // { input_tokens: 10, output_tokens: 2, total_tokens: 12, input_token_details: { cache_read: 4 } }
 * ```
 */
export function usageToMetadata(
  usage: ChatModelV1Usage,
  { openAIForm = false, wholeAnswer = false }: UsageMetadataOptions = {},
): UsageMetadata | undefined {
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return undefined;
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const total = usage.totalTokens ?? input + output;
  const metadata: UsageMetadata =
    openAIForm && wholeAnswer
      ? { output_tokens: output, input_tokens: input, total_tokens: total }
      : { input_tokens: input, output_tokens: output, total_tokens: total };
  const inputDetails: NonNullable<UsageMetadata["input_token_details"]> = {};
  const outputDetails: NonNullable<UsageMetadata["output_token_details"]> = {};
  if (openAIForm) {
    if (usage.audioInputTokens !== undefined) inputDetails.audio = usage.audioInputTokens;
    if (usage.cacheReadTokens !== undefined) inputDetails.cache_read = usage.cacheReadTokens;
    if (usage.cacheWriteTokens !== undefined) inputDetails.cache_creation = usage.cacheWriteTokens;
    if (usage.audioOutputTokens !== undefined) outputDetails.audio = usage.audioOutputTokens;
    if (usage.reasoningTokens !== undefined) outputDetails.reasoning = usage.reasoningTokens;
  } else {
    if (usage.cacheWriteTokens !== undefined) inputDetails.cache_creation = usage.cacheWriteTokens;
    if (usage.cacheReadTokens !== undefined) inputDetails.cache_read = usage.cacheReadTokens;
    if (usage.audioInputTokens !== undefined) inputDetails.audio = usage.audioInputTokens;
    if (usage.reasoningTokens !== undefined) outputDetails.reasoning = usage.reasoningTokens;
    if (usage.audioOutputTokens !== undefined) outputDetails.audio = usage.audioOutputTokens;
  }
  if (openAIForm || Object.keys(inputDetails).length > 0) metadata.input_token_details = inputDetails;
  if (openAIForm || Object.keys(outputDetails).length > 0) metadata.output_token_details = outputDetails;
  return metadata;
}
