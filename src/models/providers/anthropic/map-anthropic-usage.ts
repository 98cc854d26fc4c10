import type { ChatModelV1Usage } from "../../spec/index.js";
import type { AnthropicWireUsage } from "./anthropic-wire.js";

/**
 * Maps Anthropic usage to the spec usage. Input tokens include cache reads and writes (as
 * LangChain.js counts them), which are also reported separately (0 when not reported).
 *
 * @example
 * ```ts
 * mapAnthropicUsage({ input_tokens: 10, output_tokens: 3, cache_read_input_tokens: 90 });
 * // { inputTokens: 100, outputTokens: 3, totalTokens: 103, cacheReadTokens: 90, cacheWriteTokens: 0 }
 * ```
 */
export function mapAnthropicUsage(usage: AnthropicWireUsage | undefined): ChatModelV1Usage {
  if (usage === undefined) return {};
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  const input = (usage.input_tokens ?? 0) + cacheRead + cacheWrite;
  const output = usage.output_tokens ?? 0;
  const out: ChatModelV1Usage = { inputTokens: input, outputTokens: output, totalTokens: input + output };
  // always both, 0 when not reported, as @langchain/anthropic reports them
  out.cacheReadTokens = cacheRead;
  out.cacheWriteTokens = cacheWrite;
  return out;
}
