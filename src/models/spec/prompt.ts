import type { ChatModelV1FilePart } from "./file-part.js";
import type { ChatModelV1ReasoningPart } from "./reasoning-part.js";
import type { ChatModelV1TextPart } from "./text-part.js";
import type { ChatModelV1ToolCallPart } from "./tool-call-part.js";
import type { ChatModelV1ToolResultPart } from "./tool-result-part.js";

/**
 * One message of a prompt, in the provider-neutral form that providers translate to their
 * wire format. The `generic` and `function` forms carry LangChain's `ChatMessage` and
 * `FunctionMessage`; a provider that has no such role rejects them.
 *
 * @example
 * ```ts
 * const message: ChatModelV1Message = { role: "user", content: [{ type: "text", text: "Hi" }] };
 * ```
 */
export type ChatModelV1Message =
  | { role: "system"; content: string }
  | { role: "user"; content: Array<ChatModelV1TextPart | ChatModelV1FilePart>; name?: string }
  | {
      role: "assistant";
      content: Array<ChatModelV1TextPart | ChatModelV1ReasoningPart | ChatModelV1ToolCallPart>;
      name?: string;
    }
  | { role: "tool"; content: ChatModelV1ToolResultPart[] }
  /** A `ChatMessage`: a message with a role of the caller's choosing (`customRole`). */
  | {
      role: "generic";
      customRole: string;
      content: Array<ChatModelV1TextPart | ChatModelV1FilePart>;
      name?: string;
    }
  /** A legacy `FunctionMessage`: the result of the function `name`. */
  | { role: "function"; name: string; content: Array<ChatModelV1TextPart | ChatModelV1FilePart> };

/**
 * The whole conversation sent to a model, in order.
 *
 * @example
 * ```ts
 * const prompt: ChatModelV1Prompt = [
 *   { role: "system", content: "You are a helpful assistant" },
 *   { role: "user", content: [{ type: "text", text: "What is the weather in Suzhou?" }] },
 * ];
 * ```
 */
export type ChatModelV1Prompt = ChatModelV1Message[];
