import { decodeBinary, isBinaryTag } from "./binary.js";
import { errorFromJson } from "./error-codec.js";
import { describeError, SerializationError } from "./errors.js";
import { serializableTypeForTag } from "./registry.js";
import { BUILTIN_TAGS, PAYLOAD_KEY, TAG_KEY, TAG_KEY_JSON } from "./tags.js";

/**
 * Decoding is one native `JSON.parse` and, only when the text contains a tag at all, one walk
 * that replaces tagged objects in place (the parsed tree is ours, so no copy is made).
 */

function corrupt(tag: string, expected: string): never {
  throw new SerializationError(
    `Cannot decode a value tagged "${tag}": its payload must be ${expected}. The stored data is corrupt.`,
  );
}

/** Revives the tagged values inside a parsed JSON value (in place where it can). */
export function fromJsonable(value: unknown): unknown {
  return typeof value === "object" && value !== null ? reviveObject(value) : value;
}

function reviveObject(value: object): unknown {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (typeof item === "object" && item !== null) {
        const revived = reviveObject(item);
        if (revived !== item) value[i] = revived;
      }
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  const tag = record[TAG_KEY];
  if (tag !== undefined) return reviveTagged(record, tag);
  reviveEntries(record);
  return record;
}

function reviveEntries(record: Record<string, unknown>): void {
  for (const key in record) {
    const item = record[key];
    if (typeof item === "object" && item !== null) {
      const revived = reviveObject(item);
      // An own "__proto__" data property (JSON.parse makes one) is assigned as a plain property.
      if (revived !== item) record[key] = revived;
    }
  }
}

/**
 * Revives one tagged value. `flat`: the text held no other tag, so a registered type's payload
 * is plain JSON and is handed over as parsed, without walking it.
 */
function reviveTagged(record: Record<string, unknown>, tag: unknown, flat = false): unknown {
  if (typeof tag !== "string") {
    throw new SerializationError(
      `Cannot decode a tagged value: its "${TAG_KEY}" must be a string, got ${JSON.stringify(tag)}. The stored data is corrupt.`,
    );
  }
  const payload = record[PAYLOAD_KEY];
  // registered types (messages above all: a history holds mostly those) before the built-in
  // tags, which registerSerializable reserves
  const type = serializableTypeForTag(tag);
  if (type !== undefined) return reviveRegistered(tag, payload, flat, type);
  switch (tag) {
    case BUILTIN_TAGS.undefined:
      return undefined;
    case BUILTIN_TAGS.number:
      return reviveNumber(payload);
    case BUILTIN_TAGS.bigint:
      return reviveBigInt(payload);
    case BUILTIN_TAGS.date:
      if (payload !== null && typeof payload !== "string") corrupt(tag, "an ISO date string or null");
      return new Date(payload === null ? Number.NaN : payload);
    case BUILTIN_TAGS.map:
      return reviveMap(payload);
    case BUILTIN_TAGS.set:
      if (!Array.isArray(payload)) corrupt(tag, "an array");
      return new Set(reviveObject(payload) as unknown[]);
    case BUILTIN_TAGS.regexp:
      return reviveRegExp(payload);
    case BUILTIN_TAGS.error:
      return errorFromJson(fromJsonable(payload));
    case BUILTIN_TAGS.escapedObject:
      if (typeof payload !== "object" || payload === null || Array.isArray(payload))
        corrupt(tag, "an object");
      reviveEntries(payload as Record<string, unknown>);
      return payload;
    default:
      if (isBinaryTag(tag)) return decodeBinary(tag, payload);
      return reviveRegistered(tag, payload, flat, undefined);
  }
}

function reviveNumber(payload: unknown): number {
  switch (payload) {
    case "NaN":
      return Number.NaN;
    case "Infinity":
      return Number.POSITIVE_INFINITY;
    case "-Infinity":
      return Number.NEGATIVE_INFINITY;
    case "-0":
      return -0;
    default:
      return corrupt(BUILTIN_TAGS.number, '"NaN", "Infinity", "-Infinity" or "-0"');
  }
}

function reviveBigInt(payload: unknown): bigint {
  if (typeof payload !== "string" || !/^-?\d+$/.test(payload)) {
    return corrupt(BUILTIN_TAGS.bigint, "a string of decimal digits");
  }
  return BigInt(payload);
}

function reviveMap(payload: unknown): Map<unknown, unknown> {
  if (!Array.isArray(payload)) return corrupt(BUILTIN_TAGS.map, "an array of [key, value] pairs");
  const map = new Map<unknown, unknown>();
  for (const entry of payload) {
    if (!Array.isArray(entry) || entry.length !== 2)
      corrupt(BUILTIN_TAGS.map, "an array of [key, value] pairs");
    map.set(fromJsonable(entry[0]), fromJsonable(entry[1]));
  }
  return map;
}

function reviveRegExp(payload: unknown): RegExp {
  if (!Array.isArray(payload) || typeof payload[0] !== "string" || typeof payload[1] !== "string") {
    return corrupt(BUILTIN_TAGS.regexp, "[source, flags] strings");
  }
  try {
    return new RegExp(payload[0], payload[1]);
  } catch (error) {
    throw new SerializationError(
      `Cannot decode a value tagged "${BUILTIN_TAGS.regexp}": ${describeError(error)}. The stored data is corrupt.`,
      { cause: error },
    );
  }
}

/** A value of a registered type (`type`, undefined when none is registered under `tag`). */
function reviveRegistered(
  tag: string,
  payload: unknown,
  flat: boolean,
  type: ReturnType<typeof serializableTypeForTag>,
): unknown {
  if (type === undefined) {
    throw new SerializationError(
      `Cannot decode a value tagged "${tag}": no type is registered under that tag. Call registerSerializable({ tag: "${tag}", … }) before reading this data (message classes are registered when "agentgraph" is imported).`,
    );
  }
  const data = flat ? payload : fromJsonable(payload);
  try {
    return type.decode(data);
  } catch (error) {
    throw new SerializationError(
      `Cannot decode a value tagged "${tag}": its decode() threw (${describeError(error)}). The stored data is corrupt or was written by an incompatible version of the type.`,
      { cause: error },
    );
  }
}

/**
 * One value of a text parsed whole, revived (`flat`: every tag of the text is at the top of a
 * value, see {@link tagsOnTop}).
 */
function reviveParsed(value: unknown, flat: boolean): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (flat && !Array.isArray(value)) {
    const tag = (value as Record<string, unknown>)[TAG_KEY];
    if (typeof tag === "string") return reviveTagged(value as Record<string, unknown>, tag, true);
  }
  return reviveObject(value);
}

/** A failure to revive stored data as a {@link SerializationError}. */
function rethrown(error: unknown): SerializationError {
  return error instanceof SerializationError
    ? error
    : new SerializationError(`Cannot decode stored data: ${describeError(error)}.`, { cause: error });
}

/**
 * Decodes JSON text written by {@link encodeToJson}. Malformed or truncated text, an unknown tag
 * or a tagged value of the wrong shape is a {@link SerializationError}.
 */
export function decodeFromJson(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SerializationError(
      `Cannot decode stored data: it is not valid JSON (${describeError(error)}). The data is corrupt or truncated; restore it from a backup or delete it.`,
      { cause: error },
    );
  }
  if (typeof parsed !== "object" || parsed === null) return parsed;
  const first = text.indexOf(TAG_KEY_JSON);
  if (first === -1) return parsed;
  try {
    // one tag only, at the top (a stored message, say): its payload has nothing left to revive
    return reviveParsed(parsed, text.indexOf(TAG_KEY_JSON, first + 1) === -1);
  } catch (error) {
    throw rethrown(error);
  }
}

/**
 * Whether every tag in `text` (the JSON text `values` were parsed from) is at the top of one of
 * the values at `start`, `start + step`, …: then no payload holds another tag, and each tagged
 * value is handed over as parsed, without walking it (as {@link decodeFromJson} does for one).
 * A string ending in "~t" counts as a tag here: such values are then walked, which is still right.
 */
function tagsOnTop(values: unknown[], start: number, step: number, text: string): boolean {
  let tops = 0;
  for (let i = start; i < values.length; i += step) {
    const value = values[i];
    if (typeof value === "object" && value !== null && !Array.isArray(value) && TAG_KEY in value) tops++;
  }
  let tags = 0;
  for (
    let at = text.indexOf(TAG_KEY_JSON);
    at !== -1;
    at = text.indexOf(TAG_KEY_JSON, at + TAG_KEY_JSON.length)
  )
    tags++;
  return tags === tops;
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Decodes `count` values from one JSON array text, `[value,value,…]`, each written by
 * {@link encodeToJson}: one native parse for them all (a history read back is a thousand stored
 * messages), then each value revived as {@link decodeFromJson} revives it. `undefined` when the
 * text is not an array of `count` values, so that the caller decodes them one by one and reports
 * the one that is corrupt.
 *
 * @example
 * ```ts
 * decodeJsonList(`[${texts.join(",")}]`, texts.length); // as texts.map(decodeFromJson)
 * ```
 */
export function decodeJsonList(text: string, count: number): unknown[] | undefined {
  const parsed = parseOrUndefined(text);
  if (!Array.isArray(parsed) || parsed.length !== count) return undefined;
  const flat = tagsOnTop(parsed, 0, 1, text);
  try {
    for (let i = 0; i < parsed.length; i++) {
      const value: unknown = parsed[i];
      const revived = reviveParsed(value, flat);
      if (revived !== value) parsed[i] = revived;
    }
  } catch (error) {
    throw rethrown(error);
  }
  return parsed;
}

/**
 * Decodes the values of the `wanted` keys from one JSON text of `count` keys and values side by
 * side, `["key",value,"key",value,…]`, as {@link decodeJsonList} decodes a list (the others are
 * parsed and left). `undefined` when the text is not such an array of `count` pairs (or names a
 * wanted key twice), so that the caller decodes the values one by one and reports the one that
 * is corrupt.
 *
 * @example
 * ```ts
 * decodeKeyedJson('["a",1,"b",{"~t":"date","v":"2026-01-01T00:00:00.000Z"}]', 2, new Set(["b"])); // Map { "b" => Date }
 * ```
 */
export function decodeKeyedJson(
  text: string,
  count: number,
  wanted: ReadonlySet<string>,
): Map<string, unknown> | undefined {
  const parsed = parseOrUndefined(text);
  if (!Array.isArray(parsed) || parsed.length !== 2 * count) return undefined;
  const flat = tagsOnTop(parsed, 1, 2, text);
  const out = new Map<string, unknown>();
  try {
    for (let i = 0; i < parsed.length; i += 2) {
      const key: unknown = parsed[i];
      if (typeof key !== "string" || out.has(key)) return undefined;
      if (wanted.has(key)) out.set(key, reviveParsed(parsed[i + 1], flat));
    }
  } catch (error) {
    throw rethrown(error);
  }
  return out;
}
