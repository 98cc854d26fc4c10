import { InvalidArgumentError } from "../../../shared/index.js";
import type { ChatModelV1FilePart, ChatModelV1Prompt, ChatModelV1TextPart } from "../../spec/index.js";
import type { AnthropicRequestBlock, AnthropicSource, AnthropicWireMessage } from "./anthropic-wire.js";

/**
 * Translates a provider-neutral prompt into the Messages API form: system messages are
 * joined (blank line between them) into the top-level `system` field; tool results become
 * `tool_result` blocks, and consecutive turns of the same role — typically several tool
 * results, or tool results followed by a user message — merge into one turn; assistant tool
 * calls become `tool_use` blocks; reasoning with a signature is sent back as `thinking`.
 * The API has no free roles and no function results: a `ChatMessage` (`generic`) or
 * `FunctionMessage` (`function`) throws an `InvalidArgumentError` naming the message type, as
 * LangChain.js's ChatAnthropic refuses them.
 *
 * @example
 * ```ts
 * convertToAnthropicMessages([
 *   { role: "system", content: "Be brief." },
 *   { role: "user", content: [{ type: "text", text: "Hi" }] },
 * ]);
 * // { system: "Be brief.", messages: [{ role: "user", content: "Hi" }] }
 * ```
 */
export function convertToAnthropicMessages(prompt: ChatModelV1Prompt): {
  system?: string;
  messages: AnthropicWireMessage[];
} {
  const system: string[] = [];
  const turns: Array<{ role: "user" | "assistant"; blocks: AnthropicRequestBlock[] }> = [];
  const push = (role: "user" | "assistant", blocks: AnthropicRequestBlock[]) => {
    const last = turns.at(-1);
    if (last !== undefined && last.role === role) last.blocks.push(...blocks);
    else turns.push({ role, blocks });
  };
  for (const message of prompt) {
    switch (message.role) {
      case "system":
        system.push(message.content);
        break;
      case "user":
        push("user", message.content.map(userBlock));
        break;
      case "assistant":
        push("assistant", assistantBlocks(message.content));
        break;
      case "tool":
        push(
          "user",
          message.content.map((result): AnthropicRequestBlock => {
            const block: AnthropicRequestBlock = {
              type: "tool_result",
              tool_use_id: result.toolCallId,
              content:
                typeof result.output === "string"
                  ? result.output
                  : result.output.map((part) =>
                      part.type === "text"
                        ? { type: "text" as const, text: part.text }
                        : { type: "image" as const, source: sourceOf(part) },
                    ),
            };
            if (result.isError === true) block.is_error = true;
            return block;
          }),
        );
        break;
      case "generic":
        throw new InvalidArgumentError(
          `Message type "generic" is not supported by ChatAnthropic: the Messages API has no role ` +
            `${JSON.stringify(message.customRole)} (a ChatMessage). Send a HumanMessage, AIMessage, ` +
            "SystemMessage or ToolMessage instead.",
        );
      case "function":
        throw new InvalidArgumentError(
          `Message type "function" is not supported by ChatAnthropic (a FunctionMessage with the result of ` +
            `${JSON.stringify(message.name)}). Answer tool calls with a ToolMessage instead.`,
        );
    }
  }
  const messages = turns.map(({ role, blocks }): AnthropicWireMessage => {
    const [only] = blocks;
    return blocks.length === 1 && only?.type === "text"
      ? { role, content: only.text }
      : { role, content: blocks };
  });
  return system.length > 0 ? { system: system.join("\n\n"), messages } : { messages };
}

function userBlock(part: ChatModelV1TextPart | ChatModelV1FilePart): AnthropicRequestBlock {
  if (part.type === "text") return { type: "text", text: part.text };
  const source = sourceOf(part);
  return part.mediaType.startsWith("image/") ? { type: "image", source } : { type: "document", source };
}

function assistantBlocks(
  content: Extract<ChatModelV1Prompt[number], { role: "assistant" }>["content"],
): AnthropicRequestBlock[] {
  const blocks: AnthropicRequestBlock[] = [];
  for (const part of content) {
    if (part.type === "text") {
      // The API rejects empty text blocks.
      if (part.text !== "") blocks.push({ type: "text", text: part.text });
    } else if (part.type === "reasoning") {
      if (part.redactedData !== undefined)
        blocks.push({ type: "redacted_thinking", data: part.redactedData });
      else if (part.signature !== undefined) {
        blocks.push({ type: "thinking", thinking: part.text, signature: part.signature });
      }
    } else {
      blocks.push({
        type: "tool_use",
        id: part.toolCallId,
        name: part.toolName,
        input: parseInput(part.input),
      });
    }
  }
  return blocks;
}

/** Tool input must be an object on the wire; malformed argument text is sent as `{}`. */
function parseInput(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function sourceOf(part: ChatModelV1FilePart): AnthropicSource {
  if (part.base64 !== undefined) return { type: "base64", media_type: part.mediaType, data: part.base64 };
  const url = part.url ?? "";
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (match) return { type: "base64", media_type: match[1] as string, data: match[2] as string };
  return { type: "url", url };
}
