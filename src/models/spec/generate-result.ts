import type { ChatModelV1Content } from "./content.js";
import type { ChatModelV1FinishReason } from "./finish-reason.js";
import type { ChatModelV1ProviderMetadata } from "./provider-metadata.js";
import type { ChatModelV1ResponseMetadata } from "./response-metadata.js";
import type { ChatModelV1Usage } from "./usage.js";

/**
 * The result of a non-streaming call.
 *
 * @example
 * ```ts
 * const result: ChatModelV1GenerateResult = {
 *   content: [{ type: "text", text: "Sunny." }],
 *   finishReason: { unified: "stop", raw: "stop" },
 *   usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 },
 *   response: { id: "chatcmpl-1", modelId: "gpt-4.1-mini" },
 * };
 * ```
 */
export interface ChatModelV1GenerateResult {
  content: ChatModelV1Content[];
  finishReason: ChatModelV1FinishReason;
  usage: ChatModelV1Usage;
  response?: ChatModelV1ResponseMetadata;
  providerMetadata?: ChatModelV1ProviderMetadata;
  /**
   * The other candidate answers of the same call, in order, when the provider was asked for
   * several (OpenAI's `n`): each with its own content and finish reason, and the call's usage.
   */
  alternatives?: ChatModelV1GenerateResult[];
}
