/**
 * A tool the model may call, described by a JSON Schema of its arguments.
 *
 * @example
 * ```ts
 * const tool: ChatModelV1FunctionTool = {
 *   type: "function",
 *   name: "get_weather",
 *   description: "Get weather for a given city.",
 *   inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
 * };
 * ```
 */
export interface ChatModelV1FunctionTool {
  type: "function";
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** Ask the provider to enforce the schema exactly (OpenAI `strict`). */
  strict?: boolean;
}
