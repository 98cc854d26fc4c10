/**
 * The legacy "data content blocks" of LangChain.js 0.3 (`{ type, source_type, … }`) and the
 * helpers chat model providers used with them. LangChain.js 1.x deprecates them in favour of
 * the standard blocks that `message.contentBlocks` returns; they are kept for ported code.
 * `message.contentBlocks` translates these blocks to the standard form.
 */
import { InvalidArgumentError, setOwn } from "../shared/index.js";

/**
 * The legacy data content block types (LangChain.js `Data`).
 *
 * @example
 * ```ts
 * const image: Data.URLContentBlock = { type: "image", source_type: "url", url: "https://example.com/a.png" };
 * ```
 */
export type Data = never;

export declare namespace Data {
  /** The fields every data block may have. */
  interface BaseDataContentBlock {
    readonly type: string;
    mime_type?: string | undefined;
    metadata?: Record<string, unknown> | undefined;
    [key: string]: unknown;
  }
  /** Data given by URL. */
  interface URLContentBlock extends BaseDataContentBlock {
    readonly type: "image" | "audio" | "file";
    source_type: "url";
    url: string;
  }
  /** Inline base64 data. */
  interface Base64ContentBlock extends BaseDataContentBlock {
    readonly type: "image" | "audio" | "file";
    source_type: "base64";
    data: string;
  }
  /** Plain text given as a file or text block. */
  interface PlainTextContentBlock extends BaseDataContentBlock {
    readonly type: "file" | "text";
    source_type: "text";
    text: string;
  }
  /** Data given by a provider file id. */
  interface IDContentBlock extends BaseDataContentBlock {
    readonly type: "image" | "audio" | "file";
    source_type: "id";
    id: string;
  }
  /** Any data block. */
  type DataContentBlock = URLContentBlock | Base64ContentBlock | PlainTextContentBlock | IDContentBlock;
  /** An image data block. */
  type StandardImageBlock = (URLContentBlock | Base64ContentBlock | IDContentBlock) & { type: "image" };
  /** An audio data block. */
  type StandardAudioBlock = (URLContentBlock | Base64ContentBlock | IDContentBlock) & { type: "audio" };
  /** A file data block. */
  type StandardFileBlock = (URLContentBlock | Base64ContentBlock | IDContentBlock | PlainTextContentBlock) & {
    type: "file";
  };
  /** A text data block. */
  type StandardTextBlock = PlainTextContentBlock & { type: "text" };
  /** The `type` of a data block. */
  type DataContentBlockType = DataContentBlock["type"];
}

/**
 * True for a legacy data block: an object with a string `type` and a `source_type` of `"url"`,
 * `"base64"`, `"text"` or `"id"` (LangChain.js `isDataContentBlock`, deprecated there).
 *
 * @example
 * ```ts
 * isDataContentBlock({ type: "image", source_type: "url", url: "https://example.com/a.png" }); // true
 * isDataContentBlock({ type: "image_url", image_url: { url: "https://example.com/a.png" } }); // false
 * ```
 */
export function isDataContentBlock(content_block: object): content_block is Data.DataContentBlock {
  if (typeof content_block !== "object" || content_block === null || !("type" in content_block)) return false;
  if (typeof content_block.type !== "string" || !("source_type" in content_block)) return false;
  const source = content_block.source_type;
  return source === "url" || source === "base64" || source === "text" || source === "id";
}

function hasString(block: object, key: string): boolean {
  return key in block && typeof (block as Record<string, unknown>)[key] === "string";
}

/**
 * True for a data block given by URL (`source_type: "url"` with a string `url`).
 *
 * @example
 * ```ts
 * isURLContentBlock({ type: "image", source_type: "url", url: "https://example.com/a.png" }); // true
 * ```
 */
export function isURLContentBlock(content_block: object): content_block is Data.URLContentBlock {
  return (
    isDataContentBlock(content_block) &&
    content_block.source_type === "url" &&
    hasString(content_block, "url")
  );
}

/**
 * True for an inline base64 data block (`source_type: "base64"` with a string `data`).
 *
 * @example
 * ```ts
 * isBase64ContentBlock({ type: "image", source_type: "base64", data: "iVBORw0KGgo=", mime_type: "image/png" }); // true
 * ```
 */
export function isBase64ContentBlock(content_block: object): content_block is Data.Base64ContentBlock {
  return (
    isDataContentBlock(content_block) &&
    content_block.source_type === "base64" &&
    hasString(content_block, "data")
  );
}

/**
 * True for a plain-text data block (`source_type: "text"` with a string `text`).
 *
 * @example
 * ```ts
 * isPlainTextContentBlock({ type: "file", source_type: "text", text: "hello" }); // true
 * ```
 */
export function isPlainTextContentBlock(content_block: object): content_block is Data.PlainTextContentBlock {
  return (
    isDataContentBlock(content_block) &&
    content_block.source_type === "text" &&
    hasString(content_block, "text")
  );
}

/**
 * True for a data block given by a provider file id (`source_type: "id"` with a string `id`).
 *
 * @example
 * ```ts
 * isIDContentBlock({ type: "file", source_type: "id", id: "file-abc" }); // true
 * ```
 */
export function isIDContentBlock(content_block: object): content_block is Data.IDContentBlock {
  return (
    isDataContentBlock(content_block) && content_block.source_type === "id" && hasString(content_block, "id")
  );
}

/**
 * Converts a URL or base64 data block to an OpenAI `image_url` block (a base64 block becomes a
 * data URL). Throws an {@link InvalidArgumentError} with LangChain.js's texts for a base64
 * block without `mime_type` (`mime_type key is required for base64 data.`) and for any other
 * block (`Unsupported source type. Only 'url' and 'base64' are supported.`).
 *
 * @example
 * ```ts
 * convertToOpenAIImageBlock({ type: "image", source_type: "base64", data: "iVBORw0KGgo=", mime_type: "image/png" });
 * // { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } }
 * ```
 */
export function convertToOpenAIImageBlock(content_block: Data.URLContentBlock | Data.Base64ContentBlock): {
  type: string;
  image_url: { url: string };
} {
  if (isDataContentBlock(content_block)) {
    if (content_block.source_type === "url") {
      return { type: "image_url", image_url: { url: (content_block as Data.URLContentBlock).url } };
    }
    if (content_block.source_type === "base64") {
      if (!content_block.mime_type)
        throw new InvalidArgumentError("mime_type key is required for base64 data.");
      const { data } = content_block as Data.Base64ContentBlock;
      return { type: "image_url", image_url: { url: `data:${content_block.mime_type};base64,${data}` } };
    }
  }
  throw new InvalidArgumentError("Unsupported source type. Only 'url' and 'base64' are supported.");
}

/**
 * Splits a MIME type into its type, subtype and parameters (trimmed). Throws an
 * {@link InvalidArgumentError} with LangChain.js's texts when there is no single `/`
 * (`Invalid mime type: "<mime>" - does not match type/subtype format.`), when the type or
 * subtype is empty, or when a parameter is not `key=value`.
 *
 * @example
 * ```ts
 * parseMimeType("text/plain; charset=utf-8");
 * // { type: "text", subtype: "plain", parameters: { charset: "utf-8" } }
 * ```
 */
export function parseMimeType(mime_type: string): {
  type: string;
  subtype: string;
  parameters: Record<string, string>;
} {
  const [essence = "", ...rawParameters] = mime_type.split(";");
  const parts = essence.split("/");
  if (parts.length !== 2) {
    throw new InvalidArgumentError(`Invalid mime type: "${mime_type}" - does not match type/subtype format.`);
  }
  const type = (parts[0] as string).trim();
  const subtype = (parts[1] as string).trim();
  if (type === "" || subtype === "") {
    throw new InvalidArgumentError(`Invalid mime type: "${mime_type}" - type or subtype is empty.`);
  }
  const parameters: Record<string, string> = {};
  for (const parameter of rawParameters) {
    const pair = parameter.split("=");
    const key = pair[0]?.trim() ?? "";
    if (pair.length !== 2 || key === "") {
      throw new InvalidArgumentError(`Invalid parameter syntax in mime type: "${mime_type}".`);
    }
    setOwn(parameters, key, (pair[1] as string).trim());
  }
  return { type, subtype, parameters };
}

const BASE64_DATA_URL = /^data:(\w+\/\w+);base64,([A-Za-z0-9+/]+=*)$/;

/**
 * Parses a base64 data URL (`data:<type>/<subtype>;base64,<data>`) into its lower-cased MIME type
 * and its data: the base64 text, or the decoded bytes with `asTypedArray: true`. Returns
 * `undefined` for anything else (other URLs, MIME types with parameters, characters outside
 * the base64 alphabet).
 *
 * @example
 * ```ts
 * parseBase64DataUrl({ dataUrl: "data:image/png;base64,iVBORw0KGgo=" });
 * // { mime_type: "image/png", data: "iVBORw0KGgo=" }
 * parseBase64DataUrl({ dataUrl: "data:text/plain;base64,aGk=", asTypedArray: true })?.data; // Uint8Array [104, 105]
 * ```
 */
export function parseBase64DataUrl(options: {
  dataUrl: string;
  asTypedArray: true;
}): { data: Uint8Array; mime_type: string } | undefined;
export function parseBase64DataUrl(options: {
  dataUrl: string;
  asTypedArray?: false | undefined;
}): { data: string; mime_type: string } | undefined;
export function parseBase64DataUrl({
  dataUrl,
  asTypedArray = false,
}: {
  dataUrl: string;
  asTypedArray?: boolean | undefined;
}): { data: string | Uint8Array; mime_type: string } | undefined {
  const match = BASE64_DATA_URL.exec(dataUrl);
  if (!match) return undefined;
  const mime_type = (match[1] as string).toLowerCase();
  const base64 = match[2] as string;
  // atob, as LangChain.js: it rejects text whose length cannot be base64
  const data = asTypedArray ? Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)) : base64;
  return { mime_type, data };
}

/**
 * Type slots for the provider formats of {@link StandardContentBlockConverter}.
 *
 * @example
 * ```ts
 * type OpenAIFormats = ProviderFormatTypes<{ type: "text"; text: string }, { type: "image_url"; image_url: { url: string } }>;
 * ```
 */
export type ProviderFormatTypes<
  TextFormat = unknown,
  ImageFormat = unknown,
  AudioFormat = unknown,
  FileFormat = unknown,
  VideoFormat = unknown,
> = {
  text: TextFormat;
  image: ImageFormat;
  audio: AudioFormat;
  file: FileFormat;
  video: VideoFormat;
};

/**
 * Converts legacy data blocks to a provider's block format, one method per block type; used
 * with {@link convertToProviderContentBlock}.
 *
 * @example
 * ```ts
 * const converter: StandardContentBlockConverter<{ text: { type: "text"; text: string } }> = {
 *   providerName: "Example",
 *   fromStandardTextBlock: (block) => ({ type: "text", text: block.text }),
 * };
 * ```
 */
export interface StandardContentBlockConverter<Formats extends Partial<ProviderFormatTypes>> {
  /** The provider's name, used in error messages. */
  providerName: string;
  fromStandardImageBlock?(block: Data.StandardImageBlock): Formats["image"];
  fromStandardAudioBlock?(block: Data.StandardAudioBlock): Formats["audio"];
  fromStandardFileBlock?(block: Data.StandardFileBlock): Formats["file"];
  fromStandardTextBlock?(block: Data.StandardTextBlock): Formats["text"];
}

const CONVERTER_METHODS = {
  text: "fromStandardTextBlock",
  image: "fromStandardImageBlock",
  audio: "fromStandardAudioBlock",
  file: "fromStandardFileBlock",
} as const;

/**
 * Converts a legacy data block with the converter method for its `type` (`text`, `image`,
 * `audio` or `file`). Throws an {@link InvalidArgumentError} with LangChain.js's texts when the
 * converter lacks that method (``Converter for <provider> does not implement `fromStandardImageBlock` method.``)
 * or the type is another one (`Unable to convert content block type '<type>' to provider-specific format: not recognized.`).
 *
 * @example
 * ```ts
 * convertToProviderContentBlock({ type: "text", source_type: "text", text: "hi" }, {
 *   providerName: "Example",
 *   fromStandardTextBlock: (block) => ({ type: "text", text: block.text }),
 * }); // { type: "text", text: "hi" }
 * ```
 */
export function convertToProviderContentBlock<Formats extends Partial<ProviderFormatTypes>>(
  block: Data.DataContentBlock,
  converter: StandardContentBlockConverter<Formats>,
): Formats[keyof Formats] {
  const type: string = block.type;
  if (type === "text" || type === "image" || type === "audio" || type === "file") {
    const method = CONVERTER_METHODS[type];
    const convert = converter[method] as
      | ((block: Data.DataContentBlock) => Formats[keyof Formats])
      | undefined;
    if (!convert) {
      throw new InvalidArgumentError(
        `Converter for ${converter.providerName} does not implement \`${method}\` method.`,
      );
    }
    return convert.call(converter, block);
  }
  throw new InvalidArgumentError(
    `Unable to convert content block type '${type}' to provider-specific format: not recognized.`,
  );
}
