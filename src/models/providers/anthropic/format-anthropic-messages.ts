import {
  type BaseMessage,
  isAIMessage,
  isChatMessage,
  isFunctionMessage,
  isHumanMessage,
  isSystemMessage,
  isToolMessage,
  type MessageContent,
  parseBase64DataUrl,
  type ToolCall,
} from "../../../messages/index.js";
import { InvalidArgumentError } from "../../../shared/index.js";

type Block = Record<string, unknown>;
type WireContent = string | Block[];
type Turn = { role: "user" | "assistant"; content: WireContent };

/** The `system` field and `messages` of a Messages API request. */
export interface AnthropicPayload {
  system?: WireContent;
  messages: Turn[];
}

/** Block types sent back as they are (tool use and results, server tool blocks). */
const TOOL_BLOCK_TYPES = new Set([
  "bash_code_execution_tool_result",
  "input_json_delta",
  "server_tool_use",
  "text_editor_code_execution_tool_result",
  "tool_result",
  "tool_search_tool_result",
  "tool_search_tool_bm25_tool_result",
  "tool_search_tool_regex_tool_result",
  "tool_use",
  "web_search_result",
  "web_search_tool_result",
]);

const isRecord = (value: unknown): value is Block => typeof value === "object" && value !== null;

/**
 * Converts messages to the Messages API payload the way `@langchain/anthropic` does, so that
 * the request body is the same: leading system messages become `system` (one message's content
 * as given, a string or blocks; several as one list of text blocks); string contents stay
 * strings and block contents keep their blocks with `cache_control` and `citations`; an AI
 * message's tool calls become `tool_use` blocks after its content; tool messages become
 * `tool_result` blocks, and consecutive user turns made only of tool results are merged (other
 * consecutive turns are sent as they are, which the API accepts). agentgraph also marks a tool
 * result `is_error` when its message has `status: "error"`, and appends a system message that
 * comes later in the conversation to `system` (`@langchain/anthropic` sends it as a
 * `"system"` turn, which the API rejects).
 *
 * @example
 * ```ts
 * formatAnthropicMessages([new SystemMessage("Be brief."), new HumanMessage("Hi")]);
 * // { system: "Be brief.", messages: [{ role: "user", content: "Hi" }] }
 * ```
 */
export function formatAnthropicMessages(messages: readonly BaseMessage[]): AnthropicPayload {
  let leading = 0;
  while (leading < messages.length && isSystemMessage(messages[leading])) leading += 1;
  const systemParts = messages.slice(0, leading).map((m) => systemContent(m.content));
  const later: WireContent[] = [];
  const turns: Turn[] = [];
  for (const message of messages.slice(leading)) {
    if (isSystemMessage(message)) later.push(systemContent(message.content));
    else if (isToolMessage(message)) {
      const result: Block = { type: "tool_result", tool_use_id: message.tool_call_id };
      if (typeof message.content === "string") result.content = message.content;
      else if (message.content !== undefined && message.content !== null) {
        result.content = formatBlocks(message.content, undefined);
      }
      if (message.status === "error") result.is_error = true;
      const last = turns.at(-1);
      if (last !== undefined && isToolResultTurn(last)) (last.content as Block[]).push(result);
      else turns.push({ role: "user", content: [result] });
    } else if (isAIMessage(message)) {
      const content =
        message.response_metadata.output_version === "v1"
          ? standardContent(
              message.contentBlocks as Block[],
              message.response_metadata.model_provider === "anthropic",
            )
          : assistantContent(message.content, message.tool_calls);
      turns.push({ role: "assistant", content });
    } else if (isHumanMessage(message)) {
      const content = message.content;
      turns.push({ role: "user", content: typeof content === "string" ? content : formatBlocks(content) });
    } else if (isChatMessage(message)) {
      throw new InvalidArgumentError(
        `Message type "generic" is not supported by ChatAnthropic: the Messages API has no role ` +
          `${JSON.stringify(message.role)} (a ChatMessage). Send a HumanMessage, AIMessage, ` +
          "SystemMessage or ToolMessage instead.",
      );
    } else if (isFunctionMessage(message)) {
      throw new InvalidArgumentError(
        `Message type "function" is not supported by ChatAnthropic (a FunctionMessage with the result of ` +
          `${JSON.stringify(message.name ?? "")}). Answer tool calls with a ToolMessage instead.`,
      );
    }
  }
  const payload: AnthropicPayload = { messages: turns };
  const all = [...systemParts, ...later];
  if (all.length === 1 && later.length === 0) payload.system = all[0] as WireContent;
  else if (all.length > 0) {
    payload.system = all.flatMap((c) => (typeof c === "string" ? [{ type: "text", text: c }] : c));
  }
  return payload;
}

function isToolResultTurn(turn: Turn): boolean {
  return (
    turn.role === "user" &&
    Array.isArray(turn.content) &&
    turn.content.length > 0 &&
    turn.content.every((block) => block.type === "tool_result")
  );
}

function systemContent(content: MessageContent): WireContent {
  if (typeof content === "string") return content;
  return content.map((block): Block => {
    if (block.type !== "text" || typeof block.text !== "string") return block;
    return {
      type: "text",
      text: block.text,
      ...(block.cache_control ? { cache_control: block.cache_control } : {}),
      ...(block.citations ? { citations: block.citations } : {}),
    };
  });
}

function toolUse(call: ToolCall): Block {
  if (call.id === undefined)
    throw new InvalidArgumentError('Anthropic requires all tool calls to have an "id".');
  return { type: "tool_use", id: call.id, name: call.name, input: call.args };
}

function assistantContent(content: MessageContent, toolCalls: readonly ToolCall[]): WireContent {
  if (toolCalls.length === 0) return typeof content === "string" ? content : formatBlocks(content, toolCalls);
  if (typeof content === "string") {
    const uses = toolCalls.map(toolUse);
    return content === "" ? uses : [{ type: "text", text: content }, ...uses];
  }
  // tool calls that the content does not already hold as blocks go after it
  const inContent = new Set(
    content
      .filter((b) => b.type === "tool_use" || b.type === "input_json_delta" || b.type === "server_tool_use")
      .map((b) => b.id),
  );
  const missing = toolCalls.filter((call) => !inContent.has(call.id));
  return [...formatBlocks(content, toolCalls), ...missing.map(toolUse)];
}

/** An image URL as an Anthropic image source: a base64 data URL or an http(s) URL. */
function imageSource(url: string): Block {
  const parsed = parseBase64DataUrl({ dataUrl: url });
  if (parsed) return { type: "base64", media_type: parsed.mime_type, data: parsed.data };
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new InvalidArgumentError(
      `Malformed image URL: ${JSON.stringify(url)}. Content blocks of type 'image_url' must be a valid http, https, or base64-encoded data URL.`,
    );
  }
  if (protocol === "http:" || protocol === "https:") return { type: "url", url };
  throw new InvalidArgumentError(
    `Invalid image URL protocol: ${JSON.stringify(protocol)}. Anthropic only supports images as http, https, or base64-encoded data URLs on 'image_url' content blocks.`,
  );
}

function dataOf(block: Block): string | undefined {
  const data = block.data;
  if (typeof data === "string") return data;
  if (data instanceof Uint8Array) return Buffer.from(data).toString("base64");
  return undefined;
}

/**
 * A standard `image` or `file` block's source (URL, inline data or file id), in the standard
 * (`mimeType`, `fileId`) or LangChain.js's v0 form (`source_type`, `mime_type`, `id`, and a
 * file's plain `text`).
 */
function standardSource(block: Block, kind: "image" | "file"): Block | undefined {
  const mime = [block.mimeType, block.mime_type].find((m): m is string => typeof m === "string");
  if (kind === "file" && block.source_type === "text" && typeof block.text === "string") {
    return { type: "text", data: block.text, media_type: mime ?? "text/plain" };
  }
  if (block.source_type === "id" && typeof block.id === "string") return { type: "file", file_id: block.id };
  if (typeof block.url === "string")
    return kind === "image" ? imageSource(block.url) : { type: "url", url: block.url };
  const data = dataOf(block);
  if (data !== undefined) {
    const fallback = kind === "image" ? "image/jpeg" : "application/pdf";
    return { type: "base64", media_type: mime ?? fallback, data };
  }
  if (typeof block.fileId === "string") return { type: "file", file_id: block.fileId };
  return undefined;
}

function isAnthropicImage(block: Block): boolean {
  const source = block.source;
  if (!isRecord(source)) return false;
  if (source.type === "base64")
    return typeof source.media_type === "string" && typeof source.data === "string";
  return source.type === "url" && typeof source.url === "string";
}

/** Content blocks in the Messages API form; blocks it has no form for are left out. */
function formatBlocks(content: readonly Block[], toolCalls?: readonly ToolCall[]): Block[] {
  const out: Block[] = [];
  for (const block of content) {
    const cache = block.cache_control ? { cache_control: block.cache_control } : {};
    const type = block.type;
    if (type === "image_url") {
      const image = block.image_url;
      const url = typeof image === "string" ? image : isRecord(image) ? image.url : undefined;
      if (typeof url === "string") out.push({ type: "image", source: imageSource(url), ...cache });
    } else if (type === "image" && isAnthropicImage(block)) {
      out.push(block);
    } else if (type === "image" || type === "file") {
      const source = standardSource(block, type);
      if (source !== undefined) out.push({ type: type === "image" ? "image" : "document", source, ...cache });
    } else if (type === "document" || type === "container_upload") {
      out.push({ ...block, ...cache });
    } else if (type === "thinking") {
      out.push({ type: "thinking", thinking: block.thinking, signature: block.signature, ...cache });
    } else if (type === "redacted_thinking") {
      out.push({ type: "redacted_thinking", data: block.data, ...cache });
    } else if (type === "compaction") {
      out.push({ type: "compaction", content: block.content, ...cache });
    } else if (type === "search_result") {
      out.push({
        type: "search_result",
        title: block.title,
        source: block.source,
        ...cache,
        ...(block.citations ? { citations: block.citations } : {}),
        content: block.content,
      });
    } else if ((type === "text" || type === "text_delta") && "text" in block) {
      out.push({
        type: "text",
        text: block.text,
        ...cache,
        ...(block.citations ? { citations: block.citations } : {}),
      });
    } else if (typeof type === "string" && TOOL_BLOCK_TYPES.has(type) && type !== "input_json_delta") {
      out.push({ ...toolBlock(block, content, toolCalls), ...cache });
    }
  }
  return out;
}

/** A tool block sent back: without its stream `index`, its `input` an object. */
function toolBlock(block: Block, content: readonly Block[], toolCalls?: readonly ToolCall[]): Block {
  const copy: Block = { ...block };
  if (copy.type === "tool_use" && typeof copy.input === "string") {
    const call = toolCalls?.find((c) => c.id === copy.id);
    if (call !== undefined) copy.input = call.args;
    else {
      // a streamed block: its input is the joined input_json_delta fragments of its index
      copy.input = content
        .filter((b) => b.index === copy.index && b.type === "input_json_delta" && typeof b.input === "string")
        .reduce((text, b) => text + (b.input as string), copy.input);
    }
  }
  delete copy.index;
  if (typeof copy.input === "string") {
    try {
      copy.input = JSON.parse(copy.input);
    } catch {
      copy.input = {};
    }
  }
  return copy;
}

/**
 * An AI message in the standard (`outputVersion: "v1"`) form, back in Anthropic's: text, tool
 * calls (and streamed tool call chunks) as `tool_use`; from an Anthropic answer also reasoning
 * as `thinking`, server tool calls and their results, and `non_standard` blocks as they were;
 * images and files by file id, URL or data.
 */
function standardContent(blocks: readonly Block[], fromAnthropic: boolean): Block[] {
  const out: Block[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        out.push(
          block.annotations
            ? { type: "text", text: block.text, citations: standardCitations(block.annotations as unknown[]) }
            : { type: "text", text: block.text },
        );
        break;
      case "tool_call":
        out.push({ type: "tool_use", id: block.id ?? "", name: block.name, input: block.args });
        break;
      case "tool_call_chunk": {
        let input: unknown = block.args;
        if (typeof input === "string") {
          try {
            input = JSON.parse(input);
          } catch {
            input = {};
          }
        }
        out.push({ type: "tool_use", id: block.id ?? "", name: block.name ?? "", input });
        break;
      }
      case "reasoning":
        if (fromAnthropic) {
          out.push({ type: "thinking", thinking: block.reasoning, signature: String(block.signature) });
        }
        break;
      case "server_tool_call":
        if (fromAnthropic && (block.name === "web_search" || block.name === "code_execution")) {
          out.push({ type: "server_tool_use", name: block.name, id: block.id ?? "", input: block.args });
        }
        break;
      case "server_tool_call_result": {
        if (!fromAnthropic) break;
        const toolUseId = block.toolCallId ?? "";
        const output = record(block.output);
        if (block.name === "web_search" && Array.isArray(output.urls)) {
          const content = output.urls.map((url) => ({
            type: "web_search_result",
            title: "",
            encrypted_content: "",
            url,
          }));
          out.push({ type: "web_search_tool_result", tool_use_id: toolUseId, content });
        } else if (block.name === "code_execution" || block.name === "mcp_tool_result") {
          const type = block.name === "code_execution" ? "code_execution_tool_result" : "mcp_tool_result";
          out.push({ type, tool_use_id: toolUseId, content: block.output });
        }
        break;
      }
      case "non_standard":
        if (fromAnthropic) out.push(record(block.value));
        break;
      case "image":
      case "file":
      case "text-plain":
      case "audio": {
        const media = standardAssistantMedia(block);
        if (media !== undefined) out.push(media);
        break;
      }
    }
  }
  return out;
}

const ANTHROPIC_IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/** Merges the `cache_control` (and, for a document, `citations`, `context`, `title`) of a block's `metadata`. */
function withMediaMetadata(out: Block, metadata: unknown, document: boolean): Block {
  if (!isRecord(metadata)) return out;
  const keys = document ? ["cache_control", "citations", "context", "title"] : ["cache_control"];
  for (const key of keys) if (key in metadata && metadata[key] !== undefined) out[key] = metadata[key];
  return out;
}

/**
 * A standard `image`, `file` or `text-plain` block of a v1 AI message as `@langchain/anthropic`
 * sends it back: by file id, then URL (a file's only when it is a PDF or has no MIME type), then
 * data (`data` before `media_type`; a file as a PDF, a `text/plain` document, or an image inside
 * a `content` document; an image of another type than JPEG/PNG/GIF/WebP is dropped, and PNG is
 * the default). A block with none of them, a file of another MIME type, and any `audio` block
 * throw, as there.
 */
function standardAssistantMedia(block: Block): Block | undefined {
  const mime = String(block.mimeType ?? "")
    .split(";")[0]
    ?.toLowerCase();
  const data = dataOf(block);
  const fileId = typeof block.fileId === "string" && block.fileId !== "" ? block.fileId : undefined;
  const url = typeof block.url === "string" && block.url !== "" ? block.url : undefined;
  switch (block.type) {
    case "audio":
      throw new InvalidArgumentError("Anthropic does not support audio content blocks.");
    case "text-plain":
      return data
        ? withMediaMetadata(
            { type: "document", source: { type: "text", data, media_type: "text/plain" } },
            block.metadata,
            true,
          )
        : undefined;
    case "image": {
      const source = fileId
        ? { type: "file", file_id: fileId }
        : url
          ? { type: "url", url }
          : data
            ? { type: "base64", data, media_type: mime || "image/png" }
            : undefined;
      if (source === undefined) {
        throw new InvalidArgumentError("Image content block must include a fileId, url, or data property.");
      }
      if (source.type === "base64" && !ANTHROPIC_IMAGE_TYPES.has(source.media_type ?? "")) return undefined;
      return withMediaMetadata({ type: "image", source }, block.metadata, false);
    }
    default: {
      const document = (source: Block) =>
        withMediaMetadata({ type: "document", source }, block.metadata, true);
      if (fileId) return document({ type: "file", file_id: fileId });
      if (url && (mime === "" || mime === "application/pdf")) return document({ type: "url", url });
      if (!data)
        throw new InvalidArgumentError("File content block must include a fileId, url, or data property.");
      if (mime === "" || mime === "application/pdf") {
        return document({ type: "base64", data, media_type: "application/pdf" });
      }
      if (mime === "text/plain") return document({ type: "text", data, media_type: "text/plain" });
      if (ANTHROPIC_IMAGE_TYPES.has(mime ?? "")) {
        return document({
          type: "content",
          content: [{ type: "image", source: { type: "base64", data, media_type: mime } }],
        });
      }
      throw new InvalidArgumentError(`Unsupported file mime type for Anthropic base64 source: ${mime}`);
    }
  }
}

/**
 * A standard text block's `annotations` as Anthropic `citations`, as `@langchain/anthropic` sends
 * them: each `citation` by its `source` (`char`, `page`, `block`, `url`, `search`; `url` holds the
 * file id of a document location, `startIndex` / `endIndex` its range), with `document_index: 0`
 * and `""` / `0` / `null` for what the annotation leaves out. Other annotations, and citations of
 * another or no `source`, are dropped (so a text block with annotations always gets a list).
 */
function standardCitations(annotations: unknown[]): Block[] {
  const out: Block[] = [];
  for (const item of Array.isArray(annotations) ? annotations : []) {
    if (!isRecord(item) || item.type !== "citation") continue;
    const title = item.title ?? null;
    const start = item.startIndex ?? 0;
    const end = item.endIndex ?? 0;
    const citedText = item.citedText ?? "";
    const fileId = item.url ?? "";
    const documentRange = (type: string, startKey: string, endKey: string): Block => ({
      type,
      file_id: fileId,
      [startKey]: start,
      [endKey]: end,
      document_title: title,
      document_index: 0,
      cited_text: citedText,
    });
    switch (item.source) {
      case "char":
        out.push(documentRange("char_location", "start_char_index", "end_char_index"));
        break;
      case "page":
        out.push(documentRange("page_location", "start_page_number", "end_page_number"));
        break;
      case "block":
        out.push(documentRange("content_block_location", "start_block_index", "end_block_index"));
        break;
      case "url":
        out.push({
          type: "web_search_result_location",
          url: item.url ?? "",
          title,
          encrypted_index: String(start),
          cited_text: citedText,
        });
        break;
      case "search":
        out.push({
          type: "search_result_location",
          title,
          start_block_index: start,
          end_block_index: end,
          search_result_index: 0,
          source: item.source,
          cited_text: citedText,
        });
        break;
    }
  }
  return out;
}

function record(value: unknown): Block {
  return isRecord(value) ? value : {};
}
