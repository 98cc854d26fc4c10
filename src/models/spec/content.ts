import type { ChatModelV1ReasoningPart } from "./reasoning-part.js";
import type { ChatModelV1TextPart } from "./text-part.js";
import type { ChatModelV1ToolCallPart } from "./tool-call-part.js";

/**
 * One piece of generated output: text, reasoning, a refusal, or a tool call.
 *
 * @example
 * ```ts
 * const content: ChatModelV1Content[] = [
 *   { type: "text", text: "Let me check." },
 *   { type: "tool-call", toolCallId: "call_1", toolName: "get_weather", input: '{"city":"Suzhou"}' },
 * ];
 * ```
 */
export type ChatModelV1Content =
  | ChatModelV1TextPart
  | ChatModelV1ReasoningPart
  | { type: "refusal"; text: string }
  | ChatModelV1ToolCallPart;
