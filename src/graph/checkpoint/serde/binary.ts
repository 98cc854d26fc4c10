import { describeError, SerializationError } from "./errors.js";
import { BUILTIN_TAGS, TYPED_ARRAY_TAGS, tagged } from "./tags.js";

/**
 * Binary values: typed arrays, `DataView` and `ArrayBuffer` are stored as base64 of their bytes
 * (in the platform's byte order, little-endian on every mainstream engine).
 */

const CHUNK = 0x8000;

/** Base64 of `bytes`, with the platform's `btoa` (every JavaScript runtime has it). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return btoa(binary);
}

/** The bytes of a base64 string; a {@link SerializationError} when it is not base64. */
export function base64ToBytes(text: unknown, tag: string): Uint8Array {
  if (typeof text !== "string") {
    throw new SerializationError(
      `Cannot decode a value tagged "${tag}": its payload must be a base64 string, got ${typeof text}. The stored data is corrupt.`,
    );
  }
  let binary: string;
  try {
    binary = atob(text);
  } catch (error) {
    throw new SerializationError(
      `Cannot decode a value tagged "${tag}": its payload is not valid base64 (${describeError(error)}). The stored data is corrupt.`,
      { cause: error },
    );
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The tagged form of a typed array, `DataView` or `ArrayBuffer`; undefined for other objects. */
export function encodeBinary(value: object): Record<string, unknown> | undefined {
  if (ArrayBuffer.isView(value)) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    if (value instanceof DataView) return tagged(BUILTIN_TAGS.dataView, bytesToBase64(bytes));
    const tag = TYPED_ARRAY_TAGS[Object.prototype.toString.call(value).slice(8, -1)];
    return tag === undefined ? undefined : tagged(tag, bytesToBase64(bytes));
  }
  if (value instanceof ArrayBuffer)
    return tagged(BUILTIN_TAGS.arrayBuffer, bytesToBase64(new Uint8Array(value)));
  return undefined;
}

type TypedArrayClass = new (
  buffer: ArrayBufferLike,
  byteOffset: number,
  length: number,
) => object & {
  BYTES_PER_ELEMENT?: number;
};

const CLASS_BY_TAG: ReadonlyMap<string, string> = new Map(
  Object.entries(TYPED_ARRAY_TAGS).map(([name, tag]) => [tag, name]),
);

/** True for the tags {@link decodeBinary} handles. */
export function isBinaryTag(tag: string): boolean {
  return tag === BUILTIN_TAGS.arrayBuffer || tag === BUILTIN_TAGS.dataView || CLASS_BY_TAG.has(tag);
}

/** Rebuilds the binary value of a tag {@link isBinaryTag} accepts. */
export function decodeBinary(tag: string, payload: unknown): object {
  const bytes = base64ToBytes(payload, tag);
  if (tag === BUILTIN_TAGS.arrayBuffer) return bytes.buffer;
  if (tag === BUILTIN_TAGS.dataView) return new DataView(bytes.buffer);
  if (tag === TYPED_ARRAY_TAGS.Uint8Array) return bytes;
  const name = CLASS_BY_TAG.get(tag) as string;
  const TypedArray = (globalThis as unknown as Record<string, TypedArrayClass | undefined>)[name];
  if (TypedArray === undefined) {
    throw new SerializationError(
      `Cannot decode a value tagged "${tag}": this JavaScript runtime has no ${name}. Read the data on a runtime that supports it.`,
    );
  }
  const size = (TypedArray as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
  if (bytes.byteLength % size !== 0) {
    throw new SerializationError(
      `Cannot decode a value tagged "${tag}": ${bytes.byteLength} bytes is not a whole number of ${size}-byte elements. The stored data is corrupt or truncated.`,
    );
  }
  return new TypedArray(bytes.buffer, 0, bytes.byteLength / size);
}
