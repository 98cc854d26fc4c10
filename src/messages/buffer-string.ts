import { InvalidArgumentError } from "../shared/index.js";
import type { AIMessage } from "./ai.js";
import type { BaseMessage } from "./base.js";
import type { ChatMessage } from "./chat.js";
import type { ContentBlock } from "./content.js";

const TOOL_CALL_ID_DISPLAY_LIMIT = 64;

/** A compact rendering of one block: text as is, media as `[image]`-style placeholders. */
function blockToString(block: ContentBlock | string): string {
  if (typeof block === "string") return block;
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "text-plain":
      return typeof block.text === "string" ? block.text : "[text-plain file]";
    case "image":
    case "image_url":
      return "[image]";
    case "audio":
    case "input_audio":
      return "[audio]";
    case "video":
      return "[video]";
    case "file":
      return "[file]";
    case "reasoning":
    case "tool_call":
    case "tool_call_chunk":
    case "invalid_tool_call":
    case "server_tool_call":
    case "server_tool_call_chunk":
    case "server_tool_call_result":
    case "non_standard":
      return "";
    default:
      return block.type ? `[${block.type}]` : "";
  }
}

function readableContent(message: BaseMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block) => blockToString(block)).join("");
}

function toolCallsSuffix(message: AIMessage): string {
  const calls = message.tool_calls;
  if (calls !== undefined && calls.length > 0) {
    const tooLong = calls.some((call) => (call.id?.length ?? 0) > TOOL_CALL_ID_DISPLAY_LIMIT);
    const shown = tooLong
      ? calls.map((call) =>
          call.id && call.id.length > TOOL_CALL_ID_DISPLAY_LIMIT
            ? { ...call, id: `${call.id.slice(0, TOOL_CALL_ID_DISPLAY_LIMIT)}...` }
            : call,
        )
      : calls;
    return JSON.stringify(shown);
  }
  const functionCall = message.additional_kwargs?.function_call;
  return functionCall !== undefined ? JSON.stringify(functionCall) : "";
}

/**
 * Renders a conversation as plain text, one `Role: content` line per message (roles
 * `Human`, `AI`, `System`, `Tool`, the first two configurable, and a `ChatMessage`'s own
 * `role`), as summarization prompts and memory classes use it. A message's `name` comes first
 * (`Human: alice, Hi`); media blocks show as `[image]`-style placeholders; an AI message's tool
 * calls follow its text as JSON (ids longer than 64 characters shortened). Remove and function
 * messages cannot be rendered (as in LangChain.js) and throw an `InvalidArgumentError`
 * (`Got unsupported message type: function`).
 *
 * @example
 * ```ts
 * getBufferString([new HumanMessage("Hi"), new AIMessage("Hello!")]);
 * // "Human: Hi\nAI: Hello!"
 * ```
 */
export function getBufferString(
  messages: readonly BaseMessage[],
  humanPrefix = "Human",
  aiPrefix = "AI",
): string {
  const lines: string[] = [];
  for (const message of messages) {
    let role: string;
    if (message.type === "human") role = humanPrefix;
    else if (message.type === "ai") role = aiPrefix;
    else if (message.type === "system") role = "System";
    else if (message.type === "tool") role = "Tool";
    else if (message.type === "generic") role = (message as ChatMessage).role;
    else throw new InvalidArgumentError(`Got unsupported message type: ${message.type}`);
    const name = message.name ? `${message.name}, ` : "";
    let line = `${role}: ${name}${readableContent(message)}`;
    if (message.type === "ai") line += toolCallsSuffix(message as AIMessage);
    lines.push(line);
  }
  return lines.join("\n");
}
