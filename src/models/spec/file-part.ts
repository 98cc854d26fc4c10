/**
 * A file (usually an image) in a user message or a tool result. Exactly one of `url`, `base64`
 * and `fileId` is set; `url` may be an `https:` or a `data:` URL, `fileId` names a file uploaded
 * to the provider.
 *
 * @example
 * ```ts
 * const part: ChatModelV1FilePart = { type: "file", mediaType: "image/png", url: "https://example.com/cat.png" };
 * ```
 */
export interface ChatModelV1FilePart {
  type: "file";
  /** IANA media type, e.g. `image/png`; `image/*` when unknown. */
  mediaType: string;
  url?: string;
  base64?: string;
  /** The id of a file uploaded to the provider (OpenAI's `file_id`). */
  fileId?: string;
  /** Provider hint such as OpenAI's image `detail`. */
  detail?: string;
  /** The file's name, when the content block gives one (OpenAI wants it for `file_data`). */
  filename?: string;
}
