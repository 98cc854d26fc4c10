import type { AIMessageChunk } from "../../messages/index.js";

/**
 * One streamed piece of a generation (LangChain.js `ChatGenerationChunk`): what a custom
 * model's `_streamResponseChunks` yields. `concat` joins two pieces.
 *
 * @example
 * ```ts
 * async *_streamResponseChunks(messages, options) {
 *   for (const token of ["Hel", "lo"]) {
 *     yield new ChatGenerationChunk({ text: token, message: new AIMessageChunk({ content: token }) });
 *   }
 * }
 * ```
 */
export class ChatGenerationChunk {
  text: string;
  message: AIMessageChunk;
  generationInfo: Record<string, unknown> | undefined;

  constructor(fields: { text?: string; message: AIMessageChunk; generationInfo?: Record<string, unknown> }) {
    this.text = fields.text ?? "";
    this.message = fields.message;
    this.generationInfo = fields.generationInfo;
  }

  concat(chunk: ChatGenerationChunk): ChatGenerationChunk {
    // always an object once joined, as in LangChain.js
    return new ChatGenerationChunk({
      text: this.text + chunk.text,
      message: this.message.concat(chunk.message),
      generationInfo: { ...this.generationInfo, ...chunk.generationInfo },
    });
  }
}
