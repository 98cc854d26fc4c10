import { encodeBinary } from "./binary.js";
import { errorToJson } from "./error-codec.js";
import { describeError, SerializationError } from "./errors.js";
import { findSerializableType } from "./registry.js";
import { BUILTIN_TAGS, TAG_KEY, tagged, UNDEFINED_TAGGED } from "./tags.js";

/**
 * Encoding is one walk that returns the value itself wherever JSON already represents it
 * (strings, finite numbers, plain objects and arrays of those) and a tagged copy only along the
 * paths that need one, followed by one native `JSON.stringify`.
 */

/** A finite number other than `-0` (which JSON would write as `0`). */
function isJsonNumber(n: number): boolean {
  return n - n === 0 && (n !== 0 || 1 / n > 0);
}

function encodeNumber(n: number): unknown {
  if (isJsonNumber(n)) return n;
  return tagged(BUILTIN_TAGS.number, n === 0 ? "-0" : String(n));
}

/** The JSON-able form of `value`: `value` itself when nothing in it needs a tag. */
export function toJsonable(value: unknown): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return isJsonNumber(value) ? value : encodeNumber(value);
    case "object":
      return value === null ? null : encodeObject(value);
    case "undefined":
      return UNDEFINED_TAGGED;
    case "bigint":
      return tagged(BUILTIN_TAGS.bigint, value.toString());
    default:
      // Functions and symbols: left for JSON.stringify, which drops them from objects and
      // writes null in arrays, as LangGraph's serializer does.
      return value;
  }
}

/**
 * The objects on the path from the root to the value being encoded, while a value that failed
 * to encode is encoded again looking for circular references (`undefined` otherwise, so the
 * common walk pays nothing for it).
 */
let ancestors: object[] | undefined;

/** What a reference to one of its own ancestors is written as, as LangGraph.js's serializer writes it. */
const CIRCULAR = "[Circular]";

function encodeObject(value: object): unknown {
  if (ancestors === undefined) return encodeAnyObject(value);
  if (ancestors.includes(value)) return CIRCULAR;
  ancestors.push(value);
  try {
    return encodeAnyObject(value);
  } finally {
    ancestors.pop();
  }
}

function encodeAnyObject(value: object): unknown {
  if (Array.isArray(value)) return encodeArray(value);
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) {
    return TAG_KEY in value ? escapeObject(value) : encodeEntries(value as Record<string, unknown>);
  }
  return encodeSpecial(value);
}

function encodeArray(array: readonly unknown[]): unknown[] {
  let copy: unknown[] | undefined;
  const length = array.length;
  for (let i = 0; i < length; i++) {
    const item = array[i];
    // Strings and plain numbers are by far the most common items: skip the call for them.
    const encoded =
      typeof item === "string" || (typeof item === "number" && isJsonNumber(item)) ? item : toJsonable(item);
    if (copy !== undefined) copy.push(encoded);
    else if (encoded !== item) {
      copy = array.slice(0, i);
      copy.push(encoded);
    }
  }
  return copy ?? (array as unknown[]);
}

/** Own enumerable properties of `object`, encoded; `object` itself when none changed. */
function encodeEntries(object: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key in object) {
    const item = object[key];
    const encoded = typeof item === "string" ? item : toJsonable(item);
    if (encoded !== item) {
      copy ??= { ...object };
      copy[key] = encoded;
    }
  }
  return copy ?? object;
}

function escapeObject(object: object): Record<string, unknown> {
  const entries: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    Object.defineProperty(entries, key, {
      value: toJsonable((object as Record<string, unknown>)[key]),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return tagged(BUILTIN_TAGS.escapedObject, entries);
}

function encodeSpecial(value: object): unknown {
  const type = findSerializableType(value);
  if (type !== undefined) {
    let data: unknown;
    try {
      data = type.encode(value as never);
    } catch (error) {
      throw new SerializationError(
        `Cannot encode a value of the registered type "${type.tag}": its encode() threw (${describeError(error)}). Fix the registration or the value.`,
        { cause: error },
      );
    }
    return tagged(type.tag, toJsonable(data));
  }
  if (value instanceof Date) {
    const time = value.getTime();
    return tagged(BUILTIN_TAGS.date, Number.isNaN(time) ? null : value.toISOString());
  }
  if (value instanceof Map) {
    const entries: unknown[] = [];
    for (const [k, v] of value) entries.push([toJsonable(k), toJsonable(v)]);
    return tagged(BUILTIN_TAGS.map, entries);
  }
  if (value instanceof Set) {
    const items: unknown[] = [];
    for (const item of value) items.push(toJsonable(item));
    return tagged(BUILTIN_TAGS.set, items);
  }
  if (value instanceof RegExp) return tagged(BUILTIN_TAGS.regexp, [value.source, value.flags]);
  if (value instanceof Error) return tagged(BUILTIN_TAGS.error, toJsonable(errorToJson(value)));
  const binary = encodeBinary(value);
  if (binary !== undefined) return binary;
  if (value instanceof String || value instanceof Number || value instanceof Boolean) {
    return toJsonable(value.valueOf());
  }
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") return toJsonable(toJSON.call(value, ""));
  // Any other class instance: its own enumerable properties, as a plain object.
  if (Object.hasOwn(value, TAG_KEY)) return escapeObject(value);
  const own: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (key === "__proto__")
      Object.defineProperty(own, key, { value: item, enumerable: true, writable: true });
    else own[key] = item;
  }
  return encodeEntries(own);
}

/**
 * Encodes `value` as JSON text. Handles everything graph state holds (see
 * {@link JsonPlusSerializer}). A reference to an object that contains it (a circular
 * reference) is written as the text `"[Circular]"`, as LangGraph.js's serializer writes it; a
 * value nested too deep to walk is a {@link SerializationError}.
 */
export function encodeToJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(toJsonable(value));
  } catch {
    // A walk that never ends (a circular value) fails with a stack overflow, or with whatever
    // error code near the stack's end throws: the value is encoded again, references to an
    // ancestor replaced; what fails then is the value's own error.
    ancestors = [];
    try {
      text = JSON.stringify(toJsonable(value));
    } catch (error) {
      if (error instanceof SerializationError) throw error;
      const hint =
        error instanceof RangeError
          ? "Values stored in checkpoints and stores must not be nested deeper than a few thousand levels."
          : "A toJSON() method or getter of the value threw; fix it or register the type with registerSerializable().";
      throw new SerializationError(`Cannot encode the value: ${describeError(error)}. ${hint}`, {
        cause: error,
      });
    } finally {
      ancestors = undefined;
    }
  }
  // A top-level function or symbol: JSON has no text for it; store it as undefined.
  return text ?? JSON.stringify(UNDEFINED_TAGGED);
}
