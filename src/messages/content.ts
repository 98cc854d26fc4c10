/**
 * One element of a message's array content. Every block has a string `type`; the other
 * keys depend on it. This is deliberately open (as in LangChain.js), because providers add
 * block types faster than any list can follow: read a known block through the narrower
 * interfaces below after checking `type`.
 *
 * @example
 * ```ts
 * const blocks: ContentBlock[] = [
 *   { type: "text", text: "What is in this picture?" },
 *   { type: "image_url", image_url: { url: "https://example.com/cat.png" } },
 * ];
 * new HumanMessage({ content: blocks });
 * ```
 */
export interface ContentBlock {
  readonly type: string;
  id?: string | undefined;
  [key: string]: unknown;
}

/**
 * What a message holds: a plain string, or an array of content blocks (text, images, tool
 * use, reasoning, …).
 *
 * @example
 * ```ts
 * const plain: MessageContent = "Hello";
 * const rich: MessageContent = [{ type: "text", text: "Hello" }];
 * ```
 */
export type MessageContent = string | ContentBlock[];

/**
 * A text block: `{ type: "text", text }`. `index` appears on streamed chunks so that
 * fragments of the same block merge.
 *
 * @example
 * ```ts
 * const block: TextContentBlock = { type: "text", text: "Hi there" };
 * ```
 */
export interface TextContentBlock extends ContentBlock {
  readonly type: "text";
  text: string;
  index?: number | string | undefined;
}

/**
 * An image given by URL (or data URL) in the OpenAI chat-completions form.
 *
 * @example
 * ```ts
 * const block: ImageUrlContentBlock = { type: "image_url", image_url: { url: "https://example.com/a.png" } };
 * ```
 */
export interface ImageUrlContentBlock extends ContentBlock {
  readonly type: "image_url";
  image_url: string | { url: string; detail?: ImageDetail | undefined };
}

/** How closely a provider looks at an image (OpenAI's `detail`). */
export type ImageDetail = "auto" | "low" | "high";

/**
 * An image in the standard (v1) form: a `url`, inline base64 `data` with `mimeType`, or a
 * provider `fileId`. Anthropic's `{ type: "image", source: {…} }` form also uses this type.
 *
 * @example
 * ```ts
 * const block: ImageContentBlock = { type: "image", url: "https://example.com/a.png" };
 * ```
 */
export interface ImageContentBlock extends ContentBlock {
  readonly type: "image";
  url?: string | undefined;
  data?: string | undefined;
  mimeType?: string | undefined;
  fileId?: string | undefined;
  source?: Record<string, unknown> | undefined;
}

/**
 * An Anthropic tool-use block, as found in the content of Anthropic AI messages.
 *
 * @example
 * ```ts
 * const block: ToolUseContentBlock = { type: "tool_use", id: "toolu_1", name: "search", input: { q: "x" } };
 * ```
 */
export interface ToolUseContentBlock extends ContentBlock {
  readonly type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

/**
 * A standard (v1) tool-call block, as {@link BaseMessage.contentBlocks} reports tool calls.
 *
 * @example
 * ```ts
 * const block: ToolCallContentBlock = { type: "tool_call", id: "call_1", name: "search", args: { q: "x" } };
 * ```
 */
export interface ToolCallContentBlock extends ContentBlock {
  readonly type: "tool_call";
  name: string;
  args: unknown;
}

/**
 * A standard (v1) reasoning block: the model's reasoning or its summary.
 *
 * @example
 * ```ts
 * const block: ReasoningContentBlock = { type: "reasoning", reasoning: "First, …" };
 * ```
 */
export interface ReasoningContentBlock extends ContentBlock {
  readonly type: "reasoning";
  reasoning: string;
}

/**
 * An Anthropic extended-thinking block (`signature` must be sent back unchanged).
 *
 * @example
 * ```ts
 * const block: ThinkingContentBlock = { type: "thinking", thinking: "Let me see…", signature: "sig" };
 * ```
 */
export interface ThinkingContentBlock extends ContentBlock {
  readonly type: "thinking";
  thinking: string;
  signature?: string | undefined;
}

/**
 * The `type`s of the standard (v1) content blocks, as LangChain.js lists them: text,
 * reasoning and refusal; the tool blocks; the multimodal blocks.
 *
 * @example
 * ```ts
 * const standard = message.contentBlocks.filter((block) => KNOWN_BLOCK_TYPES.includes(block.type));
 * ```
 */
export const KNOWN_BLOCK_TYPES: string[] = [
  "text",
  "reasoning",
  "refusal",
  "tool_call",
  "tool_call_chunk",
  "invalid_tool_call",
  "server_tool_call",
  "server_tool_call_chunk",
  "server_tool_call_result",
  "image",
  "video",
  "audio",
  "text-plain",
  "file",
];

/** True for a non-null object (arrays included). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** True for a non-null, non-array object. */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The concatenated text of some content: the string itself, or the `text` of every text
 * block in order (other blocks contribute nothing).
 *
 * @example
 * ```ts
 * textOfContent([{ type: "text", text: "a" }, { type: "image_url", image_url: "…" }, { type: "text", text: "b" }]); // "ab"
 * ```
 */
export function textOfContent(content: MessageContent): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const block of content) {
    if (isObject(block) && block.type === "text" && typeof block.text === "string") text += block.text;
  }
  return text;
}
