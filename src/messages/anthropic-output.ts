/**
 * The standard view of an Anthropic answer's content (LangChain.js's Anthropic output
 * translator): `thinking` → `reasoning`, `tool_use` → `tool_call`, citations → `annotations`,
 * server tool use and results → `server_tool_call` / `server_tool_call_result`, blocks with no
 * standard form → `non_standard`, and a refusal stop reason → a `refusal` block.
 */
import type { ContentBlock, MessageContent } from "./content.js";
import { isPlainRecord } from "./content.js";

/** The parts of an AI message the Anthropic view depends on. */
export interface AnthropicOutputSource {
  readonly content: MessageContent;
  readonly response_metadata: Record<string, unknown>;
  readonly additional_kwargs?: Record<string, unknown> | undefined;
  readonly tool_call_chunks?:
    | readonly {
        id?: string | undefined;
        name?: string | undefined;
        args?: string | undefined;
        index?: number | undefined;
      }[]
    | undefined;
}

type Block = Record<string, unknown>;

const isString = (value: unknown): value is string => typeof value === "string";
const isNumber = (value: unknown): value is number => typeof value === "number";

function parseJsonObject(text: unknown): Record<string, unknown> | undefined {
  if (!isString(text)) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isPlainRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The string argument `key` of a server tool use, from its input or its partial JSON. */
function serverToolArgument(block: Block, key: string): string {
  const input = block.input;
  if (isString(input)) return input;
  if (isPlainRecord(input) && isString(input[key])) return input[key];
  const partial = parseJsonObject(block.partial_json)?.[key];
  return partial ? String(partial) : "";
}

function citation(item: unknown): ContentBlock | undefined {
  if (!isPlainRecord(item) || !isString(item.cited_text)) return undefined;
  const { type, cited_text: citedText } = item;
  if (type === "char_location" || type === "page_location" || type === "content_block_location") {
    const [startKey, endKey, source] =
      type === "char_location"
        ? ["start_char_index", "end_char_index", "char"]
        : type === "page_location"
          ? ["start_page_number", "end_page_number", "page"]
          : ["start_block_index", "end_block_index", "block"];
    const {
      document_title: title,
      [startKey]: startIndex,
      [endKey]: endIndex,
      cited_text: _c,
      ...rest
    } = item;
    if (!isString(title) || !isNumber(startIndex) || !isNumber(endIndex)) return undefined;
    return { ...rest, type: "citation", source, title, startIndex, endIndex, citedText };
  }
  if (type === "web_search_result_location") {
    const { url, title, encrypted_index: index, cited_text: _c, ...rest } = item;
    if (!isString(url) || !isString(title) || !isString(index)) return undefined;
    const position = Number(index);
    return {
      ...rest,
      type: "citation",
      source: "url",
      url,
      title,
      startIndex: position,
      endIndex: position,
      citedText,
    };
  }
  if (type === "search_result_location") {
    const {
      source: url,
      title,
      start_block_index: startIndex,
      end_block_index: endIndex,
      cited_text: _c,
      ...rest
    } = item;
    if (!isString(url) || !isString(title) || !isNumber(startIndex) || !isNumber(endIndex)) return undefined;
    return { ...rest, type: "citation", source: "search", url, title, startIndex, endIndex, citedText };
  }
  return undefined;
}

/** An Anthropic `image` or `document` block with a `source`, as a standard block. */
export function fromAnthropicSourceBlock(block: Block): ContentBlock | undefined {
  if ((block.type !== "image" && block.type !== "document") || !isPlainRecord(block.source)) return undefined;
  const kind = block.type === "image" ? "image" : "file";
  const source = block.source;
  if (source.type === "base64" && isString(source.media_type) && isString(source.data)) {
    return { type: kind, mimeType: source.media_type, data: source.data };
  }
  if (source.type === "url" && isString(source.url)) return { type: kind, url: source.url };
  if (source.type === "file" && isString(source.file_id)) return { type: kind, fileId: source.file_id };
  if (kind === "file" && source.type === "text" && isString(source.data)) {
    return { type: "file", mimeType: String(source.media_type ?? "text/plain"), data: source.data };
  }
  return undefined;
}

function resultOutput(block: Block): object | undefined {
  // any object, a list included (an MCP result's content is a list of blocks), as in LangChain.js
  const content = block.content;
  return isString(block.tool_use_id) && typeof content === "object" && content !== null ? content : undefined;
}

/** One block of an Anthropic answer; `non_standard` when it has no standard form. */
function fromOutputBlock(block: Block, message: AnthropicOutputSource): ContentBlock {
  switch (block.type) {
    case "text": {
      if (!isString(block.text)) break;
      const { text, citations, ...rest } = block;
      if (Array.isArray(citations) && citations.length > 0) {
        const annotations = citations.map(citation).filter((c): c is ContentBlock => c !== undefined);
        return { ...rest, type: "text", text, annotations };
      }
      return { ...rest, type: "text", text };
    }
    case "thinking": {
      if (!isString(block.thinking)) break;
      const { thinking, signature, ...rest } = block;
      return { ...rest, type: "reasoning", reasoning: thinking, signature };
    }
    case "redacted_thinking":
      return { type: "non_standard", value: block };
    case "tool_use":
      if (isString(block.name) && isString(block.id)) {
        return { type: "tool_call", id: block.id, name: block.name, args: block.input };
      }
      break;
    case "input_json_delta": {
      const chunk = message.tool_call_chunks?.[0];
      if (chunk === undefined) break;
      return {
        type: "tool_call_chunk",
        id: chunk.id,
        name: chunk.name,
        args: chunk.args,
        index: chunk.index,
      };
    }
    case "server_tool_use":
      if (!isString(block.name) || !isString(block.id)) break;
      if (block.name === "web_search") {
        return {
          id: block.id,
          type: "server_tool_call",
          name: "web_search",
          args: { query: serverToolArgument(block, "query") },
        };
      }
      if (block.name === "code_execution") {
        return {
          id: block.id,
          type: "server_tool_call",
          name: "code_execution",
          args: { code: serverToolArgument(block, "code") },
        };
      }
      break;
    case "web_search_tool_result":
      if (isString(block.tool_use_id) && Array.isArray(block.content)) {
        const urls = block.content
          .filter((r) => isPlainRecord(r) && r.type === "web_search_result")
          .map((r) => r.url);
        return {
          type: "server_tool_call_result",
          name: "web_search",
          toolCallId: block.tool_use_id,
          status: "success",
          output: { urls },
        };
      }
      break;
    case "code_execution_tool_result":
    case "mcp_tool_result": {
      const output = resultOutput(block);
      if (output === undefined) break;
      const name = block.type === "mcp_tool_result" ? "mcp_tool_use" : "code_execution";
      return {
        type: "server_tool_call_result",
        name,
        toolCallId: block.tool_use_id,
        status: "success",
        output,
      };
    }
    case "mcp_tool_use":
      return {
        id: block.id as string | undefined,
        type: "server_tool_call",
        name: "mcp_tool_use",
        args: block.input,
      };
    case "container_upload":
      return { type: "server_tool_call", name: "container_upload", args: block.input };
    case "search_result":
    case "tool_result":
      return { id: block.id as string | undefined, type: "non_standard", value: block };
    case "refusal":
      if (isString(block.refusal)) return block as ContentBlock;
      break;
    default: {
      const converted = fromAnthropicSourceBlock(block);
      if (converted) return converted;
    }
  }
  return { type: "non_standard", value: block };
}

/**
 * The standard blocks of an Anthropic answer (`response_metadata.model_provider === "anthropic"`).
 *
 * @example
 * ```ts
 * anthropicOutputBlocks(new AIMessage({ content: [{ type: "thinking", thinking: "hm", signature: "s" }], response_metadata: { model_provider: "anthropic" } }));
 * // [{ type: "reasoning", reasoning: "hm", signature: "s" }]
 * ```
 */
export function anthropicOutputBlocks(message: AnthropicOutputSource): ContentBlock[] {
  const content: readonly unknown[] =
    typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
  const blocks: ContentBlock[] = [];
  let refused = false;
  for (const block of content) {
    if (!isPlainRecord(block)) {
      blocks.push({ type: "non_standard", value: block });
      continue;
    }
    if (block.type === "refusal" && isString(block.refusal)) refused = true;
    blocks.push(fromOutputBlock(block, message));
  }
  const stop =
    message.response_metadata.stop_reason !== undefined
      ? message.response_metadata
      : (message.additional_kwargs ?? {});
  if (!refused && stop.stop_reason === "refusal") {
    const details = isPlainRecord(stop.stop_details) ? stop.stop_details : {};
    blocks.push({
      type: "refusal",
      refusal: isString(details.explanation) ? details.explanation : "",
      ...(isString(details.category) ? { extras: { category: details.category } } : {}),
    });
  }
  return blocks;
}
