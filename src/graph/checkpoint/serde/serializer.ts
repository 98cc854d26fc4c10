import { decodeFromJson } from "./decode.js";
import { encodeToJson } from "./encode.js";
import { describeError, SerializationError } from "./errors.js";

/**
 * How savers, stores and caches turn values into bytes and back, with the LangGraph.js shape:
 * `dumpsTyped` returns a type name and the bytes, `loadsTyped` reads them back. Any object with
 * these two methods can be given to a saver as `serde`.
 *
 * @example
 * ```ts
 * const serde: SerializerProtocol = new JsonPlusSerializer();
 * const [type, bytes] = await serde.dumpsTyped({ when: new Date() });
 * const value = await serde.loadsTyped(type, bytes); // { when: Date }
 * ```
 */
export interface SerializerProtocol {
  /** Encodes a value as `[type, bytes]` (`"json"` for JSON text, `"bytes"` for raw bytes). */
  dumpsTyped(data: unknown): Promise<[string, Uint8Array]>;
  /** Decodes what {@link dumpsTyped} returned. */
  loadsTyped(type: string, data: Uint8Array | string): Promise<unknown>;
}

/**
 * A {@link SerializerProtocol} that also encodes synchronously to JSON text, the fast path the
 * built-in savers and stores use when their serializer offers it.
 *
 * @example
 * ```ts
 * const serde: SyncSerializerProtocol = defaultSerializer;
 * const text = serde.encode(new Map([["a", 1]])); // '{"~t":"map","v":[["a",1]]}'
 * serde.decode(text); // Map { "a" => 1 }
 * ```
 */
export interface SyncSerializerProtocol extends SerializerProtocol {
  /** Encodes a value as JSON text. */
  encode(value: unknown): string;
  /** Decodes JSON text written by {@link encode}. */
  decode(text: string): unknown;
}

/**
 * True when `serde` has the synchronous {@link SyncSerializerProtocol} fast path.
 *
 * @example
 * ```ts
 * const text = isSyncSerializer(serde) ? serde.encode(value) : undefined;
 * ```
 */
export function isSyncSerializer(serde: SerializerProtocol): serde is SyncSerializerProtocol {
  const candidate = serde as Partial<SyncSerializerProtocol>;
  return typeof candidate.encode === "function" && typeof candidate.decode === "function";
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * The serializer of checkpoints, stores and caches. Round-trips what graph state holds:
 * JSON values, `undefined` (in objects and arrays; holes of sparse arrays come back as
 * `undefined`), `NaN`, `±Infinity`, `-0`, `BigInt`, `Date`, `Map`, `Set`, `RegExp`, errors
 * (as plain `Error`s with their name, message, stack, cause and fields), typed arrays,
 * `DataView`, `ArrayBuffer`, the engine's `Send`, `Command` and `Overwrite`, messages (once
 * `agentgraph` is imported) and any type given to {@link registerSerializable}. Other class
 * instances are stored as plain objects (after `toJSON()` when they have one), as LangGraph.js
 * does; stored data never chooses a constructor. The text is plain JSON: values JSON holds are
 * written as themselves, others as `{ "~t": tag, "v": payload }`.
 *
 * `dumpsTyped` writes `["json", utf8]` (`["bytes", raw]` for a top-level `Uint8Array`), as the
 * reference does; `encode` / `decode` are the synchronous text fast path.
 *
 * @example
 * ```ts
 * const serde = new JsonPlusSerializer();
 * const text = serde.encode({ at: new Date(0), tags: new Set(["a"]), missing: undefined });
 * serde.decode(text); // { at: Date(0), tags: Set { "a" }, missing: undefined }
 * ```
 */
export class JsonPlusSerializer implements SyncSerializerProtocol {
  encode(value: unknown): string {
    return encodeToJson(value);
  }

  decode(text: string): unknown {
    return decodeFromJson(text);
  }

  async dumpsTyped(data: unknown): Promise<[string, Uint8Array]> {
    if (data instanceof Uint8Array) return ["bytes", data];
    return ["json", utf8Encoder.encode(encodeToJson(data))];
  }

  async loadsTyped(type: string, data: Uint8Array | string): Promise<unknown> {
    if (type === "json") return decodeFromJson(typeof data === "string" ? data : utf8(data));
    if (type === "bytes") return typeof data === "string" ? utf8Encoder.encode(data) : data;
    throw new SerializationError(
      `Unknown serialization type: ${type}. Stored values have the type "json" or "bytes"; the data was written by another serializer — read it with that one.`,
    );
  }
}

function utf8(bytes: Uint8Array): string {
  try {
    return utf8Decoder.decode(bytes);
  } catch (error) {
    throw new SerializationError(
      `Cannot decode stored data: it is not valid UTF-8 (${describeError(error)}). The data is corrupt or truncated.`,
      { cause: error },
    );
  }
}

/**
 * The serializer savers, stores and caches use unless given another.
 *
 * @example
 * ```ts
 * const copy = defaultSerializer.decode(defaultSerializer.encode(state));
 * ```
 */
export const defaultSerializer: JsonPlusSerializer = new JsonPlusSerializer();
