/**
 * Helpers `@langchain/langgraph-checkpoint` exports, for programs (and savers) written against
 * it: `deepCopy`, `compareChannelVersions`, `uuid6`, `uuid5`, `EXCLUDED_METADATA_KEYS`, the
 * write-ordering helpers and `DeltaSnapshot`.
 */
import type { ChannelVersion } from "./types.js";

/** A structural copy of plain objects and arrays (other values are shared), as LangGraph.js's `deepCopy`. */
export function deepCopy<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  for (const key in value) {
    if (Object.hasOwn(value, key)) {
      (copy as Record<string, unknown>)[key] = deepCopy((value as Record<string, unknown>)[key]);
    }
  }
  return copy as T;
}

/**
 * Orders two channel versions as LangGraph.js does: numbers by value, anything else by its text
 * (`localeCompare`). Returns -1, 0 or 1.
 */
export function compareChannelVersions(a: ChannelVersion, b: ChannelVersion): number {
  if (typeof a === "number" && typeof b === "number") return Math.sign(a - b);
  return Math.sign(String(a).localeCompare(String(b)));
}

/** Configurable keys that are never copied into checkpoint metadata (LangGraph.js's list). */
export const EXCLUDED_METADATA_KEYS: ReadonlySet<string> = new Set([
  "thread_id",
  "checkpoint_id",
  "checkpoint_ns",
  "checkpoint_map",
  "langgraph_step",
  "langgraph_node",
  "langgraph_triggers",
  "langgraph_path",
  "langgraph_checkpoint_ns",
]);

// 100-ns intervals between the Gregorian epoch (1582-10-15) and the Unix epoch.
const GREGORIAN_OFFSET = 122192928000000000n;
let lastMillis = 0;
let sameMillis = 0;
let node: string | undefined;

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

/**
 * A version-6 (time-ordered) UUID; ids made later sort after earlier ones, even when the clock
 * stands still or steps back. `clockseq` fills the clock-sequence field (LangGraph.js's
 * checkpoints use 0 and -1).
 *
 * @example
 * ```ts
 * uuid6(-1); // "1f0c1b4e-…-6…-…"
 * ```
 */
export function uuid6(clockseq: number): string {
  let millis = Date.now();
  if (millis <= lastMillis) {
    // same millisecond, or the clock stepped back: count on from the last id's time
    millis = lastMillis;
    sameMillis += 1;
    if (sameMillis >= 10_000) {
      sameMillis = 0;
      millis = lastMillis + 1;
    }
  } else {
    sameMillis = 0;
  }
  lastMillis = millis;
  const ticks = BigInt(millis) * 10000n + BigInt(sameMillis) + GREGORIAN_OFFSET;
  const t = ticks.toString(16).padStart(15, "0");
  if (node === undefined) {
    const bytes = new Uint8Array(6);
    crypto.getRandomValues(bytes);
    node = hex(bytes);
  }
  const seq = (0x8000 | (clockseq & 0xffff)).toString(16);
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-6${t.slice(12, 15)}-${seq}-${node}`;
}

function sha1(data: Uint8Array): Uint8Array {
  const length = data.length;
  const words = new Uint32Array((((length + 8) >> 6) + 1) * 16);
  for (let i = 0; i < length; i++)
    words[i >> 2] = (words[i >> 2] as number) | ((data[i] as number) << (24 - (i % 4) * 8));
  words[length >> 2] = (words[length >> 2] as number) | (0x80 << (24 - (length % 4) * 8));
  words[words.length - 1] = length * 8;
  let h0 = 0x67452301;
  let h1 = 0xefcdab89;
  let h2 = 0x98badcfe;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0;
  const w = new Uint32Array(80);
  for (let block = 0; block < words.length; block += 16) {
    for (let i = 0; i < 16; i++) w[i] = words[block + i] as number;
    for (let i = 16; i < 80; i++) {
      const x = (w[i - 3] as number) ^ (w[i - 8] as number) ^ (w[i - 14] as number) ^ (w[i - 16] as number);
      w[i] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let i = 0; i < 80; i++) {
      const f =
        i < 20 ? (b & c) | (~b & d) : i < 40 ? b ^ c ^ d : i < 60 ? (b & c) | (b & d) | (c & d) : b ^ c ^ d;
      const k = i < 20 ? 0x5a827999 : i < 40 ? 0x6ed9eba1 : i < 60 ? 0x8f1bbcdc : 0xca62c1d6;
      const next = (((a << 5) | (a >>> 27)) + f + e + k + (w[i] as number)) >>> 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = next;
    }
    h0 = (h0 + a) >>> 0;
    h1 = (h1 + b) >>> 0;
    h2 = (h2 + c) >>> 0;
    h3 = (h3 + d) >>> 0;
    h4 = (h4 + e) >>> 0;
  }
  const out = new Uint8Array(20);
  const view = new DataView(out.buffer);
  view.setUint32(0, h0);
  view.setUint32(4, h1);
  view.setUint32(8, h2);
  view.setUint32(12, h3);
  view.setUint32(16, h4);
  return out;
}

/**
 * A version-5 (name-based, SHA-1) UUID of `name` in the `namespace` UUID: the same inputs always
 * give the same id (RFC 4122).
 *
 * @example
 * ```ts
 * uuid5("hello", "6ba7b810-9dad-11d1-80b4-00c04fd430c8"); // "9342d47a-1bab-5709-9869-c840b2eac501"
 * ```
 */
export function uuid5(name: string, namespace: string): string {
  const ns = namespace.replace(/-/g, "");
  const nameBytes = new TextEncoder().encode(name);
  const bytes = new Uint8Array(16 + nameBytes.length);
  for (let i = 0; i < 16; i++) bytes[i] = Number.parseInt(ns.slice(i * 2, i * 2 + 2), 16);
  bytes.set(nameBytes, 16);
  const hash = sha1(bytes);
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const h = hex(hash.subarray(0, 16));
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/**
 * Where a stored write sorts among the writes of one superstep: by task path, then task id,
 * then index (LangGraph.js's `writesSortKey`; writes saved without a task path use `""`).
 *
 * @example
 * ```ts
 * writesSortKey("~pull, agent", "task-1", 0); // ["~pull, agent", "task-1", 0]
 * ```
 */
export type WritesSortKey = readonly [taskPath: string, taskId: string, idx: number];

/** The {@link WritesSortKey} of a write, as LangGraph.js builds it. */
export function writesSortKey(taskPath: string, taskId = "", idx = 0): WritesSortKey {
  return [taskPath, taskId, idx];
}

/** Orders strings by Unicode code point (as Python does), not by UTF-16 code unit. */
function compareByCodePoint(a: string, b: string): number {
  let ai = 0;
  let bi = 0;
  while (ai < a.length && bi < b.length) {
    const ac = a.codePointAt(ai) as number;
    const bc = b.codePointAt(bi) as number;
    if (ac !== bc) return ac < bc ? -1 : 1;
    ai += ac > 0xffff ? 2 : 1;
    bi += bc > 0xffff ? 2 : 1;
  }
  if (ai >= a.length && bi >= b.length) return 0;
  return ai >= a.length ? -1 : 1;
}

/**
 * Compares two {@link WritesSortKey}s as LangGraph.js's `compareWritesSortKeys` does: the
 * strings by code point, the index numerically. Returns -1, 0 or 1.
 *
 * @example
 * ```ts
 * keys.sort(compareWritesSortKeys);
 * ```
 */
export function compareWritesSortKeys(a: WritesSortKey, b: WritesSortKey): number {
  if (a[0] !== b[0]) return compareByCodePoint(a[0], b[0]);
  if (a[1] !== b[1]) return compareByCodePoint(a[1], b[1]);
  return a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0;
}

/**
 * LangGraph.js's snapshot of a `DeltaChannel`'s value, as it can appear in `channel_values` of
 * checkpoints LangGraph.js wrote; agentgraph's `DeltaChannel` restores from one (its own
 * checkpoints hold the plain value).
 *
 * @example
 * ```ts
 * new DeltaSnapshot(["a", "b"]).value; // ["a", "b"]
 * ```
 */
export class DeltaSnapshot<Value = unknown> {
  /** Marker recognised across copies of the library and after serialization. */
  readonly lg_name = "DeltaSnapshot";

  constructor(readonly value: Value) {}
}

/** True for a {@link DeltaSnapshot}, recognised by its `lg_name` marker. */
export function isDeltaSnapshot<Value = unknown>(value: unknown): value is DeltaSnapshot<Value> {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { lg_name?: unknown }).lg_name === "DeltaSnapshot"
  );
}
