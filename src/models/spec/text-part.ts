/**
 * Text in a prompt message or a generated result.
 *
 * @example
 * ```ts
 * const part: ChatModelV1TextPart = { type: "text", text: "What is the weather in Suzhou?" };
 * ```
 */
export interface ChatModelV1TextPart {
  type: "text";
  text: string;
}
