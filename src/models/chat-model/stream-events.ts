/**
 * The chat-model stream protocol (LangChain.js `ChatModelStreamEvent`, `@langchain/core` 1.4): a
 * model call as `message-start`, content blocks (`content-block-start` → `content-block-delta`…
 * → `content-block-finish`), `usage` snapshots, `provider` passthroughs and `message-finish`.
 * A model produces them with `_streamChatModelEvents`; a callback handler that asks for them
 * (`lc_prefer_chat_model_stream_events`, as `streamEvents` v3's does) hears each one through
 * `handleChatModelStreamEvent`, and the call answers with the message they assemble to.
 */
import { AIMessage, isAIMessageChunk } from "../../messages/index.js";
import {
  applyContentBlockDelta,
  type ContentBlockDelta,
  type ProtocolContentBlock,
  type ProtocolUsage,
  StreamMessageAssembly,
} from "../../shared/index.js";
import type { ChatGenerationChunk } from "./chat-generation-chunk.js";

/** A content block as the protocol carries it (`{ type: "text", text }`, `{ type: "tool_call", … }`, …). */
export type StreamContentBlock = ProtocolContentBlock;

/** A token usage snapshot (each one replaces the previous). */
export type StreamUsage = ProtocolUsage;

/** Why the model stopped: the protocol's provider-neutral reasons. */
export type StreamFinishReason = "stop" | "length" | "tool_use" | "content_filter";

/** An increment of an open content block. */
export type StreamContentBlockDelta = ContentBlockDelta;

/**
 * One event of a streamed model answer.
 *
 * @example
 * ```ts
 * async *_streamChatModelEvents() {
 *   yield { event: "message-start", id: "msg_1" };
 *   yield { event: "content-block-start", index: 0, content: { type: "text", text: "" } };
 *   yield { event: "content-block-delta", index: 0, delta: { type: "text-delta", text: "Hi" } };
 *   yield { event: "content-block-finish", index: 0, content: { type: "text", text: "Hi" } };
 *   yield { event: "message-finish", reason: "stop" };
 * }
 * ```
 */
export type ChatModelStreamEvent =
  | { event: "message-start"; id?: string | undefined; usage?: StreamUsage }
  | { event: "content-block-start"; index: number; content: StreamContentBlock }
  | { event: "content-block-delta"; index: number; delta: StreamContentBlockDelta }
  | { event: "content-block-finish"; index: number; content: StreamContentBlock }
  | { event: "usage"; usage: StreamUsage }
  | {
      event: "message-finish";
      reason?: StreamFinishReason | undefined;
      usage?: StreamUsage;
      /** What the provider says of the message besides its response metadata (`ChatAnthropic`: `{ model_provider }`). */
      metadata?: Record<string, unknown>;
      /** Provider response metadata (model name, finish reason as the provider wrote it, …). */
      responseMetadata?: Record<string, unknown>;
    }
  | { event: "provider"; provider: string; name: string; payload: unknown }
  | { event: "error"; message: string; code?: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The delta that appends `part` (a content part of a chunk) to the block it continues. */
function partDelta(part: StreamContentBlock): StreamContentBlockDelta {
  if (part.type === "text") return { type: "text-delta", text: String(part.text ?? "") };
  if (part.type === "reasoning") return { type: "reasoning-delta", reasoning: String(part.reasoning ?? "") };
  if (part.type === "thinking" && typeof part.thinking === "string")
    return { type: "reasoning-delta", reasoning: part.thinking };
  if (typeof part.data === "string") return { type: "data-delta", data: part.data, encoding: "base64" };
  return { type: "block-delta", fields: { ...part } };
}

/**
 * A finished block as `content-block-finish` carries it: a `tool_call_chunk` becomes a
 * `tool_call` with its parsed arguments, or an `invalid_tool_call` when they are not JSON
 * (`""` included), as LangChain.js finalizes it.
 */
export function finishStreamBlock(block: StreamContentBlock): StreamContentBlock {
  if (block.type !== "tool_call_chunk") return block;
  return parsedToolCallBlock(block, "tool_call", typeof block.args === "string" ? block.args : "{}");
}

/**
 * A streamed tool call block (`tool_call_chunk`, `server_tool_call_chunk`) finished as `type`
 * with `argsText` parsed as its arguments, or as an `invalid_tool_call` keeping the block's
 * arguments when that text is not JSON (LangChain.js's error text).
 */
export function parsedToolCallBlock(
  block: StreamContentBlock,
  type: "tool_call" | "server_tool_call",
  argsText: string,
): StreamContentBlock {
  try {
    return { type, id: block.id, name: block.name, args: JSON.parse(argsText) as unknown };
  } catch {
    return {
      type: "invalid_tool_call",
      id: block.id,
      name: block.name,
      args: block.args,
      error: "Failed to parse tool call arguments as JSON",
    };
  }
}

/** The usage snapshot after a later chunk's usage (its token counts added; details are the first's only). */
function addedUsage(total: StreamUsage, more: StreamUsage): StreamUsage {
  return {
    input_tokens: (total.input_tokens ?? 0) + (more.input_tokens ?? 0),
    output_tokens: (total.output_tokens ?? 0) + (more.output_tokens ?? 0),
    total_tokens: (total.total_tokens ?? 0) + (more.total_tokens ?? 0),
  };
}

/** The index after the highest one in use. */
function nextIndex(blocks: Map<number, StreamContentBlock>): number {
  let next = 0;
  for (const index of blocks.keys()) if (index >= next) next = index + 1;
  return next;
}

/** The MIME type of each OpenAI audio `format`. */
const AUDIO_MIME_TYPES: Readonly<Record<string, string>> = {
  wav: "audio/wav",
  mp3: "audio/mpeg",
  flac: "audio/flac",
  opus: "audio/opus",
  aac: "audio/aac",
  pcm16: "audio/pcm",
};

/** The MIME type of each OpenAI image-generation `output_format`. */
const IMAGE_MIME_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpeg: "image/jpeg",
  jpg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
};

function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === "string" ? value : undefined;
}

function additionalKwargs(message: { additional_kwargs?: unknown }): Record<string, unknown> {
  return isRecord(message.additional_kwargs) ? message.additional_kwargs : {};
}

/** A piece of OpenAI-shaped streamed audio (`additional_kwargs.audio`). */
interface AudioPiece {
  id?: string;
  data?: string;
  url?: string;
  transcript?: string;
  mimeType: string;
}

/** The audio a chunk carries in `additional_kwargs.audio`, if it carries any data, url or transcript. */
function audioPiece(message: { additional_kwargs?: unknown }): AudioPiece | undefined {
  const audio = additionalKwargs(message).audio;
  if (!isRecord(audio)) return undefined;
  const data = stringField(audio, "data");
  const url = stringField(audio, "url");
  const transcript = stringField(audio, "transcript");
  if (data === undefined && url === undefined && transcript === undefined) return undefined;
  const format = stringField(audio, "format")?.toLowerCase();
  const mimeType =
    stringField(audio, "mime_type") ??
    stringField(audio, "mimeType") ??
    (format !== undefined ? AUDIO_MIME_TYPES[format] : undefined) ??
    (data !== undefined ? "audio/wav" : "audio/pcm");
  const id = stringField(audio, "id");
  return {
    ...(id !== undefined ? { id } : {}),
    ...(data !== undefined ? { data } : {}),
    ...(url !== undefined ? { url } : {}),
    ...(transcript !== undefined ? { transcript } : {}),
    mimeType,
  };
}

/** The `image` blocks of a chunk's OpenAI image-generation outputs (`additional_kwargs.tool_outputs`). */
function generatedImages(message: { additional_kwargs?: unknown }): StreamContentBlock[] {
  const outputs = additionalKwargs(message).tool_outputs;
  if (!Array.isArray(outputs)) return [];
  const images: StreamContentBlock[] = [];
  for (const output of outputs as unknown[]) {
    if (!isRecord(output) || output.type !== "image_generation_call") continue;
    const data = stringField(output, "result");
    const url = stringField(output, "url");
    if (data === undefined && url === undefined) continue;
    const format = stringField(output, "output_format")?.toLowerCase();
    const id = stringField(output, "id");
    images.push({
      type: "image",
      ...(id !== undefined ? { id } : {}),
      ...(url !== undefined ? { url } : {}),
      ...(data !== undefined ? { data } : {}),
      mimeType: (format !== undefined ? IMAGE_MIME_TYPES[format] : undefined) ?? "image/png",
    });
  }
  return images;
}

/** What tells one generated image from another across chunks. */
function imageKey(image: StreamContentBlock): string | undefined {
  if (typeof image.id === "string") return image.id;
  if (typeof image.url === "string") return image.url;
  if (typeof image.data === "string") return `${image.data.length}:${image.data.slice(0, 32)}`;
  return undefined;
}

/**
 * The protocol events of a model's `_streamResponseChunks`, as LangChain.js's compatibility
 * bridge makes them: the first chunk starts the message (its usage on `message-start`); string
 * content streams into a text block at index 0, content parts into the block of their `index`
 * (a new block per part without one), tool call chunks into a `tool_call_chunk` block of their
 * `index` with `tool-call-delta`s; OpenAI-shaped audio (`additional_kwargs.audio`) into one
 * `audio` block (its transcript as `block-delta`s of the whole transcript so far, its data as
 * `data-delta`s), and each new image-generation output (`additional_kwargs.tool_outputs`) into
 * an `image` block of its own; later usage comes as `usage` snapshots of the running totals.
 * When the chunks end, every block finishes in the order it started, then the message
 * (`reason: "stop"`, which is all a chunk stream can say).
 *
 * Unlike LangChain.js, a tool call chunk whose `index` is the index of a text or other block
 * (a model streaming text, then a call with `index: 0`) opens a block of its own after the
 * others rather than merging its arguments into that block (see docs/differences.md).
 */
export async function* chunksToStreamEvents(
  chunks: AsyncIterable<ChatGenerationChunk>,
): AsyncGenerator<ChatModelStreamEvent> {
  const blocks = new Map<number, StreamContentBlock>();
  /** The block of each tool call chunk index. */
  const toolBlocks = new Map<number, number>();
  let started = false;
  let usage: StreamUsage | undefined;
  /** The index of the audio block, once audio has come, and its transcript so far. */
  let audio: { index: number; transcript: string } | undefined;
  const imagesSeen = new Set<string>();
  for await (const generation of chunks) {
    const message = generation.message;
    const chunkUsage = isAIMessageChunk(message) ? message.usage_metadata : undefined;
    let usageOnStart = false;
    if (!started) {
      started = true;
      const start: ChatModelStreamEvent = { event: "message-start", id: message.id ?? undefined };
      if (chunkUsage !== undefined) {
        start.usage = chunkUsage as StreamUsage;
        usage = { ...chunkUsage };
        usageOnStart = true;
      }
      yield start;
    }
    const content: unknown = message.content;
    if (typeof content === "string") {
      if (content !== "") {
        let block = blocks.get(0);
        if (block === undefined) {
          block = { type: "text", text: "" };
          blocks.set(0, block);
          yield { event: "content-block-start", index: 0, content: { type: "text", text: "" } };
        }
        blocks.set(0, applyContentBlockDelta(block, { type: "text-delta", text: content }));
        yield { event: "content-block-delta", index: 0, delta: { type: "text-delta", text: content } };
      }
    } else if (Array.isArray(content)) {
      for (const raw of content as unknown[]) {
        if (!isRecord(raw)) continue;
        const part = { ...raw, type: String(raw.type) } as StreamContentBlock;
        const index = typeof part.index === "number" ? part.index : blocks.size;
        const block = blocks.get(index);
        if (block === undefined) {
          blocks.set(index, { ...part });
          yield { event: "content-block-start", index, content: { ...part } };
        } else {
          const delta = partDelta(part);
          blocks.set(index, applyContentBlockDelta(block, delta));
          yield { event: "content-block-delta", index, delta };
        }
      }
    }
    for (const call of (isAIMessageChunk(message) ? message.tool_call_chunks : undefined) ?? []) {
      const key = typeof call.index === "number" ? call.index : blocks.size;
      let index = toolBlocks.get(key);
      if (index === undefined) {
        const taken = blocks.get(key);
        index = taken === undefined || taken.type === "tool_call_chunk" ? key : nextIndex(blocks);
        toolBlocks.set(key, index);
        const initial: StreamContentBlock = {
          type: "tool_call_chunk",
          id: call.id,
          name: call.name,
          args: "",
          index: key,
        };
        blocks.set(index, { ...initial });
        yield { event: "content-block-start", index, content: initial };
      }
      const block = blocks.get(index) as StreamContentBlock;
      if (call.id != null) block.id = call.id;
      if (call.name != null) block.name = call.name;
      if (call.args) {
        block.args = String(block.args ?? "") + call.args;
        yield { event: "content-block-delta", index, delta: { type: "tool-call-delta", args: call.args } };
      }
    }
    const piece = audioPiece(message);
    if (piece !== undefined) {
      if (audio === undefined) {
        audio = { index: nextIndex(blocks), transcript: "" };
        const initial: StreamContentBlock = {
          type: "audio",
          ...(piece.id !== undefined ? { id: piece.id } : {}),
          ...(piece.url !== undefined ? { url: piece.url } : {}),
          data: "",
          mimeType: piece.mimeType,
        };
        blocks.set(audio.index, initial);
        // the block itself, which takes the audio's later id, transcript and data: a consumer
        // holding the start event sees the whole audio by the end, as in LangChain.js
        yield { event: "content-block-start", index: audio.index, content: initial };
      }
      const block = blocks.get(audio.index);
      if (block !== undefined) {
        if (piece.id !== undefined && block.id === undefined) block.id = piece.id;
        if (piece.transcript !== undefined) {
          audio.transcript += piece.transcript;
          block.transcript = audio.transcript;
          yield {
            event: "content-block-delta",
            index: audio.index,
            delta: { type: "block-delta", fields: { type: "audio", transcript: audio.transcript } },
          };
        }
        if (piece.data !== undefined && piece.data !== "") {
          block.data = String(block.data ?? "") + piece.data;
          yield {
            event: "content-block-delta",
            index: audio.index,
            delta: { type: "data-delta", data: piece.data, encoding: "base64" },
          };
        }
      }
    }
    for (const image of generatedImages(message)) {
      const key = imageKey(image);
      if (key !== undefined) {
        if (imagesSeen.has(key)) continue;
        imagesSeen.add(key);
      }
      const index = nextIndex(blocks);
      blocks.set(index, image);
      yield { event: "content-block-start", index, content: image };
    }
    if (!usageOnStart && chunkUsage !== undefined) {
      usage = usage === undefined ? { ...chunkUsage } : addedUsage(usage, chunkUsage as StreamUsage);
      yield { event: "usage", usage: { ...usage } };
    }
  }
  for (const [index, block] of blocks)
    yield { event: "content-block-finish", index, content: finishStreamBlock(block) };
  yield { event: "message-finish", reason: "stop", ...(usage !== undefined ? { usage } : {}) };
}

/**
 * The `AIMessage` a call's protocol events assemble to, as LangChain.js's `ChatModelStream`
 * assembles it: content blocks (tool calls as `tool_call` blocks, which the message also lists
 * as `tool_calls`), the last usage snapshot, and as response metadata the `message-finish`
 * event's, its `finish_reason` and `output_version: "v1"`.
 */
export function messageFromStreamEvents(events: Iterable<ChatModelStreamEvent>): AIMessage {
  const assembly = new StreamMessageAssembly();
  for (const event of events) assembly.add(event);
  const { id, content, usage, responseMetadata } = assembly.result();
  return new AIMessage({
    id,
    content: content as AIMessage["content"],
    usage_metadata: usage as AIMessage["usage_metadata"],
    response_metadata: responseMetadata,
  });
}
