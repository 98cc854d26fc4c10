import type { ChatModelV1Tool } from "./function-tool.js";
import type { ChatModelV1Prompt } from "./prompt.js";
import type { ChatModelV1ResponseFormat } from "./response-format.js";
import type { ChatModelV1ToolChoice } from "./tool-choice.js";

/**
 * Everything one model call needs. Settings left `undefined` are not sent, so the provider's
 * defaults apply.
 *
 * @example
 * ```ts
 * const options: ChatModelV1CallOptions = {
 *   prompt: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
 *   temperature: 0,
 *   abortSignal: AbortSignal.timeout(10_000),
 * };
 * ```
 */
export interface ChatModelV1CallOptions {
  prompt: ChatModelV1Prompt;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
  tools?: ChatModelV1Tool[];
  toolChoice?: ChatModelV1ToolChoice;
  parallelToolCalls?: boolean;
  responseFormat?: ChatModelV1ResponseFormat;
  /** Cancels the request (and an open stream). */
  abortSignal?: AbortSignal;
  /** Extra HTTP headers for this call. */
  headers?: Record<string, string>;
  /** Extra request-body fields per provider: `{ openai: { seed: 1 } }`. */
  providerOptions?: Record<string, Record<string, unknown>>;
}
