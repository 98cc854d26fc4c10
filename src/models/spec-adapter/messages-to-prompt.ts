import {
  type AIMessage,
  type BaseMessage,
  type ContentBlock,
  isAIMessage,
  isChatMessage,
  isFunctionMessage,
  isHumanMessage,
  isSystemMessage,
  isToolMessage,
  type MessageContent,
} from "../../messages/index.js";
import type {
  ChatModelV1FilePart,
  ChatModelV1Message,
  ChatModelV1Prompt,
  ChatModelV1ReasoningPart,
  ChatModelV1TextPart,
  ChatModelV1ToolCallPart,
} from "../spec/index.js";

/**
 * Converts messages to the provider-neutral prompt: system, human, AI (text, thinking
 * blocks, tool calls — and invalid tool calls with their raw argument text) and tool
 * messages; consecutive tool messages become one tool turn. A `ChatMessage` becomes a
 * `generic` message with its role, a `FunctionMessage` a `function` one (providers without
 * those roles reject them). Remove markers are skipped.
 *
 * @example
 * ```ts
 * messagesToPrompt([new SystemMessage("Be brief."), new HumanMessage("Hi")]);
 * // [{ role: "system", content: "Be brief." }, { role: "user", content: [{ type: "text", text: "Hi" }] }]
 * ```
 */
export function messagesToPrompt(messages: readonly BaseMessage[]): ChatModelV1Prompt {
  const prompt: ChatModelV1Prompt = [];
  for (const message of messages) {
    if (isSystemMessage(message)) {
      prompt.push({ role: "system", content: message.text });
    } else if (isHumanMessage(message)) {
      const user: ChatModelV1Message = { role: "user", content: userParts(message.content) };
      if (message.name !== undefined) user.name = message.name;
      prompt.push(user);
    } else if (isAIMessage(message)) {
      const assistant: ChatModelV1Message = { role: "assistant", content: assistantParts(message) };
      if (message.name !== undefined) assistant.name = message.name;
      prompt.push(assistant);
    } else if (isToolMessage(message)) {
      const part = {
        type: "tool-result" as const,
        toolCallId: message.tool_call_id,
        output: typeof message.content === "string" ? message.content : userParts(message.content),
        ...(message.name === undefined ? {} : { toolName: message.name }),
        ...(message.status === "error" ? { isError: true } : {}),
      };
      const last = prompt.at(-1);
      if (last?.role === "tool") last.content.push(part);
      else prompt.push({ role: "tool", content: [part] });
    } else if (isChatMessage(message)) {
      const generic: ChatModelV1Message = {
        role: "generic",
        customRole: message.role,
        content: userParts(message.content),
      };
      if (message.name !== undefined) generic.name = message.name;
      prompt.push(generic);
    } else if (isFunctionMessage(message)) {
      prompt.push({ role: "function", name: message.name ?? "", content: userParts(message.content) });
    }
  }
  return prompt;
}

function userParts(content: MessageContent): Array<ChatModelV1TextPart | ChatModelV1FilePart> {
  if (typeof content === "string") return [{ type: "text", text: content }];
  const parts: Array<ChatModelV1TextPart | ChatModelV1FilePart> = [];
  for (const block of content) {
    if (block.type === "text" && typeof block.text === "string")
      parts.push({ type: "text", text: block.text });
    else {
      const file = filePart(block);
      if (file !== undefined) parts.push(file);
    }
  }
  return parts;
}

function assistantParts(
  message: AIMessage,
): Array<ChatModelV1TextPart | ChatModelV1ReasoningPart | ChatModelV1ToolCallPart> {
  const parts: Array<ChatModelV1TextPart | ChatModelV1ReasoningPart | ChatModelV1ToolCallPart> = [];
  const toolUses: ChatModelV1ToolCallPart[] = [];
  const content = message.content;
  if (typeof content === "string") {
    if (content !== "") parts.push({ type: "text", text: content });
  } else {
    for (const block of content) {
      if (block.type === "text" && typeof block.text === "string")
        parts.push({ type: "text", text: block.text });
      else if (block.type === "thinking" && typeof block.thinking === "string") {
        const part: ChatModelV1ReasoningPart = { type: "reasoning", text: block.thinking };
        if (typeof block.signature === "string") part.signature = block.signature;
        parts.push(part);
      } else if (block.type === "redacted_thinking" && typeof block.data === "string") {
        parts.push({ type: "reasoning", text: "", redactedData: block.data });
      } else if (
        block.type === "tool_use" &&
        typeof block.id === "string" &&
        typeof block.name === "string"
      ) {
        toolUses.push({
          type: "tool-call",
          toolCallId: block.id,
          toolName: block.name,
          input: JSON.stringify(block.input ?? {}),
        });
      }
    }
  }
  for (const call of message.tool_calls) {
    parts.push({
      type: "tool-call",
      toolCallId: call.id ?? "",
      toolName: call.name,
      input: JSON.stringify(call.args),
    });
  }
  for (const call of message.invalid_tool_calls) {
    if (call.id === undefined || call.name === undefined) continue;
    parts.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.args ?? "" });
  }
  // Tool use given only as content blocks (a hand-built message) still counts.
  if (message.tool_calls.length === 0 && message.invalid_tool_calls.length === 0) parts.push(...toolUses);
  return parts;
}

/** Images and files in the OpenAI (`image_url`), standard (`image`, `file`) and Anthropic forms. */
function filePart(block: ContentBlock): ChatModelV1FilePart | undefined {
  if (block.type === "image_url") {
    const image = block.image_url;
    const url = typeof image === "string" ? image : (image as { url?: unknown } | undefined)?.url;
    if (typeof url !== "string") return undefined;
    const part: ChatModelV1FilePart = { type: "file", mediaType: mediaTypeOfUrl(url) ?? "image/*", url };
    const detail =
      typeof image === "object" && image !== null ? (image as { detail?: unknown }).detail : undefined;
    if (typeof detail === "string") part.detail = detail;
    return part;
  }
  if (block.type === "input_audio") return openAIAudioPart(block.input_audio);
  if (block.type === "file" && typeof block.file === "object" && block.file !== null) {
    return openAIFilePart(block.file as { file_data?: unknown; file_id?: unknown; filename?: unknown });
  }
  // a file uploaded to the provider: LangChain.js's v0 `{ source_type: "id", id }` or a standard
  // block's `fileId`
  const fileId = block.type !== "file" ? undefined : block.source_type === "id" ? block.id : block.fileId;
  if (typeof fileId === "string") return { type: "file", mediaType: "application/pdf", fileId };
  if (
    block.type !== "image" &&
    block.type !== "file" &&
    block.type !== "document" &&
    block.type !== "audio"
  ) {
    return undefined;
  }
  const filename = filenameOf(block.metadata);
  const fallback =
    block.type === "image" ? "image/*" : block.type === "audio" ? "audio/wav" : "application/pdf";
  const source = block.source as
    | { type?: unknown; media_type?: unknown; data?: unknown; url?: unknown }
    | undefined;
  const named = (part: ChatModelV1FilePart): ChatModelV1FilePart =>
    filename === undefined ? part : { ...part, filename };
  if (source !== undefined && typeof source === "object") {
    const mediaType = typeof source.media_type === "string" ? source.media_type : fallback;
    if (typeof source.data === "string") return named({ type: "file", mediaType, base64: source.data });
    if (typeof source.url === "string") return named({ type: "file", mediaType, url: source.url });
  }
  const mime = [block.mimeType, block.mime_type].find((m): m is string => typeof m === "string");
  if (typeof block.data === "string")
    return named({ type: "file", mediaType: mime ?? fallback, base64: block.data });
  if (typeof block.url === "string") {
    return named({ type: "file", mediaType: mime ?? mediaTypeOfUrl(block.url) ?? fallback, url: block.url });
  }
  return undefined;
}

/** A standard block's file name: `metadata.filename`, `.name` or `.title`, as LangChain.js reads it. */
function filenameOf(metadata: unknown): string | undefined {
  if (typeof metadata !== "object" || metadata === null) return undefined;
  const m = metadata as { filename?: unknown; name?: unknown; title?: unknown };
  const name = [m.filename, m.name, m.title].find((n) => typeof n === "string" && n !== "");
  return name as string | undefined;
}

/** OpenAI's own `{ type: "input_audio", input_audio: { data, format } }` block. */
function openAIAudioPart(audio: unknown): ChatModelV1FilePart | undefined {
  const a = audio as { data?: unknown; format?: unknown } | undefined;
  if (typeof a?.data !== "string" || typeof a.format !== "string") return undefined;
  return { type: "file", mediaType: a.format === "mp3" ? "audio/mpeg" : `audio/${a.format}`, base64: a.data };
}

/**
 * OpenAI's own `{ type: "file", file: { file_data, filename } }` block (a data URL), or `{ file:
 * { file_id } }` for an uploaded file.
 */
function openAIFilePart(file: {
  file_data?: unknown;
  file_id?: unknown;
  filename?: unknown;
}): ChatModelV1FilePart | undefined {
  if (typeof file.file_id === "string" && typeof file.file_data !== "string") {
    return { type: "file", mediaType: "application/pdf", fileId: file.file_id };
  }
  if (typeof file.file_data !== "string") return undefined;
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(file.file_data);
  const part: ChatModelV1FilePart =
    match?.[1] !== undefined && match[2] !== undefined
      ? { type: "file", mediaType: match[1], base64: match[2] }
      : { type: "file", mediaType: "application/pdf", url: file.file_data };
  if (typeof file.filename === "string") part.filename = file.filename;
  return part;
}

function mediaTypeOfUrl(url: string): string | undefined {
  const match = /^data:([^;,]+)[;,]/.exec(url);
  return match?.[1];
}
