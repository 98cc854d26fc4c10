/**
 * Which tool the model must (or must not) call.
 *
 * @example
 * ```ts
 * const choice: ChatModelV1ToolChoice = { type: "tool", toolName: "get_weather" };
 * ```
 */
export type ChatModelV1ToolChoice =
  | { type: "auto" }
  | { type: "none" }
  | { type: "required" }
  | { type: "tool"; toolName: string };
