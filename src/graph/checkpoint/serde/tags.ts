/**
 * The tagging scheme of the serializer. A value JSON cannot hold is written as an object
 * `{ "~t": tag, "v": payload }`; a plain object that itself has a `"~t"` key is escaped as
 * `{ "~t": "o", "v": { ...its entries } }`, so every stored object is unambiguous.
 */

/** The key that marks a tagged object. */
export const TAG_KEY = "~t";
/** The key of a tagged object's payload. */
export const PAYLOAD_KEY = "v";
/**
 * The end of `"~t"` as it appears in JSON text: data without it has no tagged values to revive.
 * It starts with the rare `~` so that the engine's string search skips through the text (a
 * pattern starting with the ubiquitous `"` is a hundred times slower to look for).
 */
export const TAG_KEY_JSON = '~t"';

/** Tags of the values the serializer handles itself; registered types may not use them. */
export const BUILTIN_TAGS = {
  undefined: "u",
  number: "n",
  bigint: "bi",
  date: "d",
  map: "map",
  set: "set",
  regexp: "re",
  error: "err",
  escapedObject: "o",
  arrayBuffer: "ab",
  dataView: "dv",
} as const;

/** Tag of each typed-array class, by the class name `Object.prototype.toString` reports. */
export const TYPED_ARRAY_TAGS: Readonly<Record<string, string>> = {
  Int8Array: "i8",
  Uint8Array: "u8",
  Uint8ClampedArray: "u8c",
  Int16Array: "i16",
  Uint16Array: "u16",
  Int32Array: "i32",
  Uint32Array: "u32",
  Float16Array: "f16",
  Float32Array: "f32",
  Float64Array: "f64",
  BigInt64Array: "i64",
  BigUint64Array: "u64",
};

/** Every tag reserved by the serializer. */
export const RESERVED_TAGS: ReadonlySet<string> = new Set<string>([
  ...Object.values(BUILTIN_TAGS),
  ...Object.values(TYPED_ARRAY_TAGS),
]);

/** The shared encoding of `undefined`. Frozen: encoded trees share it. */
export const UNDEFINED_TAGGED: Readonly<Record<string, string>> = Object.freeze({
  [TAG_KEY]: BUILTIN_TAGS.undefined,
});

/** A tagged object `{ "~t": tag, "v": payload }`. */
export function tagged(tag: string, payload: unknown): Record<string, unknown> {
  return { [TAG_KEY]: tag, [PAYLOAD_KEY]: payload };
}
