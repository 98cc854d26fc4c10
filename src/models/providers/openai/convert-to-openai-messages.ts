import { InvalidArgumentError } from "../../../shared/index.js";
import type { ChatModelV1FilePart, ChatModelV1Prompt, ChatModelV1TextPart } from "../../spec/index.js";
import type { OpenAIContentPart, OpenAIWireMessage, OpenAIWireToolCall } from "./openai-wire.js";

/**
 * Translates a provider-neutral prompt into Chat Completions `messages`: system and user
 * turns keep plain-string content when they are a single text, assistant tool calls go in
 * `tool_calls` (function form, `content: null` when there is no text), reasoning is dropped,
 * and each tool result becomes its own `role: "tool"` message with `tool_call_id`. As in
 * LangChain.js's ChatOpenAI, a `ChatMessage` is sent with its own role
 * (`{ role: message.role, content }`, and its `name`) and a `FunctionMessage` as
 * `{ role: "function", content, name }`.
 *
 * @example
 * ```ts
 * convertToOpenAIMessages([{ role: "user", content: [{ type: "text", text: "Hi" }] }]);
 * // [{ role: "user", content: "Hi" }]
 * convertToOpenAIMessages([
 *   { role: "generic", customRole: "judge", content: [{ type: "text", text: "Order!" }] },
 * ]);
 * // [{ role: "judge", content: "Order!" }]
 * ```
 */
export function convertToOpenAIMessages(prompt: ChatModelV1Prompt): OpenAIWireMessage[] {
  const messages: OpenAIWireMessage[] = [];
  for (const message of prompt) {
    switch (message.role) {
      case "system":
        messages.push({ content: message.content, role: "system" });
        break;
      case "user": {
        const wire: OpenAIWireMessage = { content: userContent(message.content), role: "user" };
        if (message.name !== undefined) wire.name = message.name;
        messages.push(wire);
        break;
      }
      case "assistant": {
        let text = "";
        const toolCalls: OpenAIWireToolCall[] = [];
        for (const part of message.content) {
          if (part.type === "text") text += part.text;
          else if (part.type === "tool-call") {
            toolCalls.push({
              type: "function",
              id: part.toolCallId,
              function: { name: part.toolName, arguments: part.input },
            });
          }
        }
        const wire: OpenAIWireMessage = {
          content: text === "" && toolCalls.length > 0 ? null : text,
          role: "assistant",
        };
        if (toolCalls.length > 0) wire.tool_calls = toolCalls;
        if (message.name !== undefined) wire.name = message.name;
        messages.push(wire);
        break;
      }
      case "tool":
        for (const result of message.content) {
          const content = typeof result.output === "string" ? result.output : contentParts(result.output);
          messages.push({ content, role: "tool", tool_call_id: result.toolCallId });
        }
        break;
      case "generic": {
        const content = userContent(message.content);
        const role = message.customRole;
        messages.push(message.name === undefined ? { content, role } : { content, role, name: message.name });
        break;
      }
      case "function":
        messages.push({ content: userContent(message.content), role: "function", name: message.name });
        break;
    }
  }
  return messages;
}

function userContent(parts: Array<ChatModelV1TextPart | ChatModelV1FilePart>): string | OpenAIContentPart[] {
  const [only] = parts;
  if (parts.length === 1 && only?.type === "text") return only.text;
  return contentParts(parts);
}

function contentParts(parts: Array<ChatModelV1TextPart | ChatModelV1FilePart>): OpenAIContentPart[] {
  return parts.map((part): OpenAIContentPart => {
    if (part.type === "text") return { type: "text", text: part.text };
    if (part.fileId !== undefined) return { type: "file", file: { file_id: part.fileId } };
    const url = part.url ?? `data:${part.mediaType};base64,${part.base64 ?? ""}`;
    if (part.mediaType.startsWith("image/")) {
      const image: { url: string; detail?: string } = { url };
      if (part.detail !== undefined) image.detail = part.detail;
      return { type: "image_url", image_url: image };
    }
    if (part.mediaType.startsWith("audio/") && part.base64 !== undefined) {
      const format = part.mediaType === "audio/mpeg" ? "mp3" : part.mediaType.slice("audio/".length);
      return { type: "input_audio", input_audio: { data: part.base64, format } };
    }
    // Chat Completions takes a file's data, not a link to it
    if (part.url !== undefined && !part.url.startsWith("data:")) {
      throw new InvalidArgumentError(
        `URL file blocks with source_type url must be formatted as a data URL for ChatOpenAI; got ${JSON.stringify(part.url.slice(0, 100))}. Send the file's data (base64) or upload it and send its file id.`,
      );
    }
    // OpenAI wants a name with `file_data`; LangChain.js sends this placeholder when there is none,
    // and says so
    if (part.filename === undefined) console.warn(PLACEHOLDER_FILENAME_WARNING);
    return { type: "file", file: { file_data: url, filename: part.filename ?? "LC_AUTOGENERATED" } };
  });
}

/** `@langchain/openai`'s warning when a file is sent without a name. */
const PLACEHOLDER_FILENAME_WARNING =
  "OpenAI may require a filename for file uploads. Specify a filename in the content block metadata, e.g.: { type: 'file', mimeType: '...', data: '...', metadata: { filename: 'my-file.pdf' } }. Using placeholder filename 'LC_AUTOGENERATED'.";
