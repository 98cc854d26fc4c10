/**
 * A tool call the model made. `input` is the raw JSON text of the arguments, kept as text so
 * that malformed arguments survive a round trip unchanged.
 *
 * @example
 * ```ts
 * const part: ChatModelV1ToolCallPart = {
 *   type: "tool-call", toolCallId: "call_1", toolName: "get_weather", input: '{"city":"Suzhou"}',
 * };
 * ```
 */
export interface ChatModelV1ToolCallPart {
  type: "tool-call";
  toolCallId: string;
  toolName: string;
  input: string;
}
