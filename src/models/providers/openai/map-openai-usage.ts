import type { ChatModelV1Usage } from "../../spec/index.js";
import type { OpenAIWireUsage } from "./openai-wire.js";

/**
 * Maps OpenAI's `usage` object to the spec usage (cached and reasoning tokens included).
 *
 * @example
 * ```ts
 * mapOpenAIUsage({ prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 });
 * // { inputTokens: 10, outputTokens: 2, totalTokens: 12 }
 * ```
 */
export function mapOpenAIUsage(usage: OpenAIWireUsage | null | undefined): ChatModelV1Usage {
  const out: ChatModelV1Usage = {};
  if (usage === null || usage === undefined) return out;
  if (usage.prompt_tokens !== undefined) out.inputTokens = usage.prompt_tokens;
  if (usage.completion_tokens !== undefined) out.outputTokens = usage.completion_tokens;
  if (usage.total_tokens !== undefined) out.totalTokens = usage.total_tokens;
  // a detail the server reports as `null` is left out, as LangChain.js leaves it out
  const cached = usage.prompt_tokens_details?.cached_tokens;
  if (cached !== undefined && cached !== null) out.cacheReadTokens = cached;
  const cacheWrite = usage.prompt_tokens_details?.cache_write_tokens;
  if (cacheWrite !== undefined && cacheWrite !== null) out.cacheWriteTokens = cacheWrite;
  const audioIn = usage.prompt_tokens_details?.audio_tokens;
  if (audioIn !== undefined && audioIn !== null) out.audioInputTokens = audioIn;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (reasoning !== undefined && reasoning !== null) out.reasoningTokens = reasoning;
  const audioOut = usage.completion_tokens_details?.audio_tokens;
  if (audioOut !== undefined && audioOut !== null) out.audioOutputTokens = audioOut;
  return out;
}
