/**
 * The standard ("v1") view of message content that `message.contentBlocks` returns.
 *
 * Provider-specific input forms become standard blocks: OpenAI `image_url`, `input_audio`
 * and `file` blocks, Anthropic `image`/`document` blocks with a `source`, and the legacy
 * `source_type` data blocks. For AI messages from Anthropic (`response_metadata.model_provider
 * === "anthropic"`), `thinking` becomes `reasoning` and `tool_use` becomes `tool_call`; AI
 * messages from OpenAI's Chat Completions (`"openai"`, string content) and from Ollama
 * (`"ollama"`) read as LangChain.js's translators read them: the reasoning (Ollama), the text when
 * there is some, every tool call, the refusal (OpenAI). Any other AI message also lists its
 * `tool_calls` that the content does not already show (an AI message chunk, as in LangChain.js,
 * only when its content is a list of blocks). Blocks of any other kind pass through unchanged.
 */
import {
  type AnthropicOutputSource,
  anthropicOutputBlocks,
  fromAnthropicSourceBlock,
} from "./anthropic-output.js";
import type { ContentBlock, MessageContent } from "./content.js";
import { isPlainRecord } from "./content.js";
import type { ToolCall } from "./tool-calls.js";

/** The parts of a message the standard view depends on. */
export interface ContentBlockSource extends AnthropicOutputSource {
  readonly type: string;
  readonly content: MessageContent;
  readonly response_metadata: Record<string, unknown>;
  readonly tool_calls?: readonly ToolCall[] | undefined;
}

const DATA_URL = /^data:([^;,]+);base64,(.+)$/s;

function parseDataUrl(url: string): { mimeType: string; data: string } | undefined {
  const match = DATA_URL.exec(url);
  return match ? { mimeType: match[1] as string, data: match[2] as string } : undefined;
}

function fromLegacyDataBlock(block: Record<string, unknown>): ContentBlock | undefined {
  const type = block.type as string;
  const extra = block.metadata === undefined ? {} : { metadata: block.metadata };
  if (block.source_type === "url" && typeof block.url === "string") {
    return { type, mimeType: block.mime_type, url: block.url, ...extra };
  }
  if (block.source_type === "base64" && typeof block.data === "string") {
    return { type, mimeType: block.mime_type ?? "application/octet-stream", data: block.data, ...extra };
  }
  if (block.source_type === "id" && typeof block.id === "string") {
    return { type, mimeType: block.mime_type, fileId: block.id, ...extra };
  }
  return undefined;
}

function fromOpenAIBlock(block: Record<string, unknown>): ContentBlock | undefined {
  if (
    block.type === "image_url" &&
    isPlainRecord(block.image_url) &&
    typeof block.image_url.url === "string"
  ) {
    const parsed = parseDataUrl(block.image_url.url);
    return parsed ? { type: "image", ...parsed } : { type: "image", url: block.image_url.url };
  }
  if (block.type === "input_audio" && isPlainRecord(block.input_audio)) {
    const { data, format } = block.input_audio;
    if (typeof data === "string" && typeof format === "string")
      return { type: "audio", data, mimeType: `audio/${format}` };
  }
  // as LangChain.js 1.4 reads it: `file_id` only beside a `data` text that is not a data URL,
  // so `{ type: "file", file: { file_id } }` passes through unchanged
  if (block.type === "file" && isPlainRecord(block.file) && typeof block.file.data === "string") {
    const parsed = parseDataUrl(block.file.data);
    if (parsed) return { type: "file", data: parsed.data, mimeType: parsed.mimeType };
    if (typeof block.file.file_id === "string") return { type: "file", fileId: block.file.file_id };
  }
  return undefined;
}

function standardize(block: ContentBlock): ContentBlock {
  if (!isPlainRecord(block)) return block;
  const record = block as Record<string, unknown>;
  if (typeof record.source_type === "string") {
    const converted = fromLegacyDataBlock(record);
    if (converted) return converted;
  }
  return fromOpenAIBlock(record) ?? fromAnthropicSourceBlock(record) ?? block;
}

/** The text (when not empty) and every tool call, as LangChain.js's Chat Completions and Ollama translators list them. */
function textAndToolCalls(
  message: ContentBlockSource,
  blocks: ContentBlock[],
  texts: readonly ContentBlock[],
): ContentBlock[] {
  for (const text of texts) blocks.push(text);
  for (const call of message.tool_calls ?? []) {
    blocks.push({ type: "tool_call", id: call.id, name: call.name, args: call.args });
  }
  return blocks;
}

/** An OpenAI Chat Completions answer (string content): text, tool calls, refusal. */
function fromChatCompletions(message: ContentBlockSource, content: string): ContentBlock[] {
  const blocks = textAndToolCalls(message, [], content.length > 0 ? [{ type: "text", text: content }] : []);
  const refusal = message.additional_kwargs?.refusal;
  if (typeof refusal === "string" && refusal.length > 0) blocks.push({ type: "refusal", refusal });
  return blocks;
}

/** An Ollama answer: reasoning, the text (text blocks only), tool calls. */
function fromOllama(message: ContentBlockSource): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  const reasoning = message.additional_kwargs?.reasoning_content;
  if (typeof reasoning === "string" && reasoning.length > 0) blocks.push({ type: "reasoning", reasoning });
  const content = message.content;
  const texts: ContentBlock[] = [];
  if (typeof content === "string") {
    if (content.length > 0) texts.push({ type: "text", text: content });
  } else {
    for (const block of content) {
      if (isPlainRecord(block) && block.type === "text" && typeof block.text === "string") {
        texts.push({ type: "text", text: block.text });
      }
    }
  }
  return textAndToolCalls(message, blocks, texts);
}

/**
 * Computes the standard content blocks of a message (see the module comment).
 *
 * @example
 * ```ts
 * toStandardContentBlocks(new HumanMessage({ content: [{ type: "image_url", image_url: { url: "https://x/a.png" } }] }));
 * // [{ type: "image", url: "https://x/a.png" }]
 * ```
 */
export function toStandardContentBlocks(message: ContentBlockSource): ContentBlock[] {
  const metadata = message.response_metadata;
  const isAI = message.type === "ai";
  if (isAI && metadata?.output_version === "v1" && Array.isArray(message.content)) return message.content;
  const content = message.content;
  const provider = isAI ? metadata?.model_provider : undefined;
  if (provider === "openai" && typeof content === "string") return fromChatCompletions(message, content);
  if (provider === "ollama") return fromOllama(message);
  const anthropicOutput = provider === "anthropic";
  const blocks: ContentBlock[] = anthropicOutput
    ? anthropicOutputBlocks(message)
    : typeof content === "string"
      ? [{ type: "text", text: content }]
      : Array.isArray(content)
        ? content.map(standardize)
        : [];
  if (isAI && message.tool_calls !== undefined && message.tool_calls.length > 0) {
    if (Array.isArray((message as { tool_call_chunks?: unknown }).tool_call_chunks)) {
      // a chunk, as LangChain.js's AIMessageChunk: calls are listed only beside block content,
      // matched by id, and calls without an id are left out (none for an Anthropic answer, whose
      // translation shows its calls)
      // (checked against the content's own blocks: two calls with one id are both listed)
      if (typeof content !== "string" && !anthropicOutput) {
        const shown = blocks.length;
        for (const call of message.tool_calls) {
          if (call.id && !blocks.some((b, i) => i < shown && b.type === "tool_call" && b.id === call.id)) {
            blocks.push({ ...call, type: "tool_call", id: call.id, name: call.name, args: call.args });
          }
        }
      }
    } else {
      const shown = blocks.length;
      for (const call of message.tool_calls) {
        if (!blocks.some((b, i) => i < shown && b.id === call.id && b.name === call.name)) {
          blocks.push({ type: "tool_call", id: call.id, name: call.name, args: call.args });
        }
      }
    }
  }
  return blocks;
}
