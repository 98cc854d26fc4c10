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
  /** Provider-specific fields of the tool (LangChain.js `extras`), sent by providers that know them. */
  extras?: Record<string, unknown>;
}

/**
 * A tool the provider itself runs (a server tool: Anthropic's `web_search_20250305`, …),
 * given as the provider's own descriptor and sent unchanged.
 *
 * @example
 * ```ts
 * const search: ChatModelV1ProviderTool = {
 *   type: "provider",
 *   tool: { type: "web_search_20250305", name: "web_search", max_uses: 3 },
 * };
 * ```
 */
export interface ChatModelV1ProviderTool {
  type: "provider";
  tool: Record<string, unknown>;
}

/** What a call offers the model: function tools it answers, and provider tools. */
export type ChatModelV1Tool = ChatModelV1FunctionTool | ChatModelV1ProviderTool;
