import type { UsageMetadata } from "../../messages/index.js";
import type { ChatModelV1Usage } from "../spec/index.js";

/** How {@link usageToMetadata} writes `usage_metadata`. */
export interface UsageMetadataOptions {
  /**
   * `@langchain/openai`'s form (see `openAIStreamedUsage` and `openAIWholeAnswerUsage`): both
   * detail objects always there, listing `audio` first (`audio`, `cache_read`, `cache_creation`;
   * `audio`, `reasoning`). Otherwise the counts are always numbers (a missing one 0, a missing
   * total their sum) and the details reported are listed as `@langchain/anthropic` lists them
   * (`cache_creation`, `cache_read`, then `audio`; `reasoning`, then `audio`).
   */
  openAIForm?: boolean | undefined;
  /**
   * The usage of a whole (non-streamed) answer: in `openAIForm`, it is written as
   * `@langchain/openai`'s `invoke` writes it (see `openAIWholeAnswerUsage`): `output_tokens` before
   * `input_tokens`, only the counts that are non-zero, and always both detail objects, even when
   * the server sent no `usage` at all (its stream chunks do not do this).
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
  if (openAIForm && wholeAnswer) return openAIWholeAnswerUsage(usage);
  if (openAIForm) return openAIStreamedUsage(usage);
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return undefined;
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const total = usage.totalTokens ?? input + output;
  const metadata: UsageMetadata = { input_tokens: input, output_tokens: output, total_tokens: total };
  const inputDetails: NonNullable<UsageMetadata["input_token_details"]> = {};
  const outputDetails: NonNullable<UsageMetadata["output_token_details"]> = {};
  if (usage.cacheWriteTokens !== undefined) inputDetails.cache_creation = usage.cacheWriteTokens;
  if (usage.cacheReadTokens !== undefined) inputDetails.cache_read = usage.cacheReadTokens;
  if (usage.audioInputTokens !== undefined) inputDetails.audio = usage.audioInputTokens;
  if (usage.reasoningTokens !== undefined) outputDetails.reasoning = usage.reasoningTokens;
  if (usage.audioOutputTokens !== undefined) outputDetails.audio = usage.audioOutputTokens;
  if (Object.keys(inputDetails).length > 0) metadata.input_token_details = inputDetails;
  if (Object.keys(outputDetails).length > 0) metadata.output_token_details = outputDetails;
  return metadata;
}

/**
 * `usage_metadata` of the usage chunk of a Chat Completions stream as `@langchain/openai` 1.6.0
 * writes it: the three counts as the server reported them (a count it left out is a key whose
 * value is `undefined`, not a 0 or a computed total), then both detail objects, their `audio` /
 * `cache_read` and `audio` / `reasoning` keys listed even when not reported. `undefined` when
 * the server reported nothing.
 */
function openAIStreamedUsage(usage: ChatModelV1Usage): UsageMetadata | undefined {
  if (Object.keys(usage).length === 0) return undefined;
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens,
    input_token_details: {
      audio: usage.audioInputTokens,
      cache_read: usage.cacheReadTokens,
      ...(usage.cacheWriteTokens !== undefined && { cache_creation: usage.cacheWriteTokens }),
    },
    output_token_details: { audio: usage.audioOutputTokens, reasoning: usage.reasoningTokens },
  } as unknown as UsageMetadata;
}

/**
 * `usage_metadata` of a whole (non-streamed) Chat Completions answer as `@langchain/openai` 1.6.0
 * writes it: each count only when the server reported it non-zero (`output_tokens`,
 * `input_tokens`, `total_tokens`, in that order; a `total_tokens` the server left out is not
 * computed), and both detail objects always present, their `audio` / `cache_read` and `audio` /
 * `reasoning` keys listed even when not reported (value `undefined`). An answer without `usage`
 * therefore still gets `{ input_token_details: {...}, output_token_details: {...} }`.
 */
function openAIWholeAnswerUsage(usage: ChatModelV1Usage): UsageMetadata {
  const metadata: Record<string, unknown> = {};
  if (usage.outputTokens) metadata.output_tokens = usage.outputTokens;
  if (usage.inputTokens) metadata.input_tokens = usage.inputTokens;
  if (usage.totalTokens) metadata.total_tokens = usage.totalTokens;
  metadata.input_token_details = {
    audio: usage.audioInputTokens,
    cache_read: usage.cacheReadTokens,
    ...(usage.cacheWriteTokens !== undefined && { cache_creation: usage.cacheWriteTokens }),
  };
  metadata.output_token_details = { audio: usage.audioOutputTokens, reasoning: usage.reasoningTokens };
  return metadata as unknown as UsageMetadata;
}
