import type { ChatModelV1FilePart } from "./file-part.js";
import type { ChatModelV1TextPart } from "./text-part.js";

/**
 * The result of a tool call, sent back to the model.
 *
 * @example
 * ```ts
 * const part: ChatModelV1ToolResultPart = {
 *   type: "tool-result", toolCallId: "call_1", toolName: "get_weather", output: "It's always sunny in Suzhou!",
 * };
 * ```
 */
export interface ChatModelV1ToolResultPart {
  type: "tool-result";
  toolCallId: string;
  toolName?: string;
  /** A string, or text and file parts. */
  output: string | Array<ChatModelV1TextPart | ChatModelV1FilePart>;
  /** True when the tool failed (`ToolMessage.status === "error"`). */
  isError?: boolean;
}
