import type { ChatModelV1CallOptions } from "./call-options.js";
import type { ChatModelV1GenerateResult } from "./generate-result.js";
import type { ChatModelV1StreamPart } from "./stream-part.js";

/**
 * Version 1 of the internal chat-model interface that providers implement. The
 * LangChain-shaped `BaseChatModel` surface wraps it; users rarely see it.
 *
 * The `do` prefix marks methods that skip retries, callbacks and message conversion: call
 * them through a chat model class instead. `doStream` returns an async iterable whose
 * iteration starts the request; a failure to connect rejects the first `next()`.
 *
 * @example
 * ```ts
 * const echo: ChatModelV1 = {
 *   specificationVersion: "v1",
 *   provider: "echo",
 *   modelId: "echo-1",
 *   async doGenerate({ prompt }) {
 *     return { content: [{ type: "text", text: String(prompt.length) }],
 *       finishReason: { unified: "stop", raw: "stop" }, usage: {} };
 *   },
 *   async *doStream() {
 *     yield { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: {} };
 *   },
 * };
 * ```
 */
export interface ChatModelV1 {
  readonly specificationVersion: "v1";
  /** Provider name, e.g. `"openai"`. */
  readonly provider: string;
  /** Model name as sent to the provider. */
  readonly modelId: string;
  doGenerate(options: ChatModelV1CallOptions): PromiseLike<ChatModelV1GenerateResult>;
  doStream(options: ChatModelV1CallOptions): AsyncIterable<ChatModelV1StreamPart>;
}
