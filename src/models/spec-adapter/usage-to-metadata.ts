import type { UsageMetadata } from "../../messages/index.js";
import type { ChatModelV1Usage } from "../spec/index.js";

/**
 * Spec usage → `usage_metadata` (`input_tokens`, `output_tokens`, `total_tokens`, and the
 * cache / reasoning / audio details that were reported). `undefined` when the provider
 * reported no counts. With `emptyDetails`, `input_token_details` and `output_token_details`
 * are present even when no detail was reported (`{}`), as LangChain.js's ChatOpenAI reports them.
 *
 * @example
 * ```ts
 * usageToMetadata({ inputTokens: 10, outputTokens: 2, cacheReadTokens: 4 });
 * // { input_tokens: 10, output_tokens: 2, total_tokens: 12, input_token_details: { cache_read: 4 } }
 * ```
 */
export function usageToMetadata(
  usage: ChatModelV1Usage,
  { emptyDetails = false }: { emptyDetails?: boolean | undefined } = {},
): UsageMetadata | undefined {
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return undefined;
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const metadata: UsageMetadata = {
    input_tokens: input,
    output_tokens: output,
    total_tokens: usage.totalTokens ?? input + output,
  };
  const inputDetails: NonNullable<UsageMetadata["input_token_details"]> = {};
  if (usage.cacheReadTokens !== undefined) inputDetails.cache_read = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) inputDetails.cache_creation = usage.cacheWriteTokens;
  if (usage.audioInputTokens !== undefined) inputDetails.audio = usage.audioInputTokens;
  if (emptyDetails || Object.keys(inputDetails).length > 0) metadata.input_token_details = inputDetails;
  const outputDetails: NonNullable<UsageMetadata["output_token_details"]> = {};
  if (usage.reasoningTokens !== undefined) outputDetails.reasoning = usage.reasoningTokens;
  if (usage.audioOutputTokens !== undefined) outputDetails.audio = usage.audioOutputTokens;
  if (emptyDetails || Object.keys(outputDetails).length > 0) metadata.output_token_details = outputDetails;
  return metadata;
}
