/**
 * Identifiers minted by the engine.
 *
 * Task ids must be deterministic: the same task of the same checkpoint gets the same id in
 * every process, which is how saved writes find their task again after a crash. They are a
 * 128-bit hash of the task's identity, formatted as an RFC 4122 UUID (version 5 layout).
 * Checkpoint ids are time-ordered UUIDs (version 6), so sorting them sorts checkpoints by
 * creation, which the savers rely on.
 */

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** Character codes of the lowercase hex digits. */
const HEX_CODE: readonly number[] = Array.from("0123456789abcdef", (c) => c.charCodeAt(0));

/** Writes hex digits `from` … `from + count - 1` (0 = most significant) of the 32 bits of `n` at `at`. */
function putHex(codes: number[], at: number, n: number, from: number, count: number): void {
  for (let i = 0; i < count; i++) codes[at + i] = HEX_CODE[(n >>> (28 - 4 * (from + i))) & 15] as number;
}

/** The character codes of the id {@link deterministicId} is building (the dashes and version stay). */
const ID_CODES: number[] = Array.from("00000000-0000-5000-0000-000000000000", (c) => c.charCodeAt(0));

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Hash lanes after some prefix, so ids sharing a long prefix hash only their suffix. */
export type HashSeed = readonly [number, number, number, number, number];

const INITIAL_SEED: HashSeed = [0x9e3779b9, 0x243f6a88, 0xb7e15162, 0x85a308d3, 0];

/**
 * The lanes {@link hashInto} leaves: read at once, before the next hash. A scratch array rather
 * than a fresh one per hash: ids and item addresses are hashed at every step, mostly before the
 * engine optimizes this code, where a new array of lanes (and a box for each lane) allocates.
 */
const LANES = new Float64Array(5);

/** Hashes `text` after `seed` into {@link LANES}. */
function hashInto(text: string, seed: HashSeed): void {
  let a = seed[0];
  let b = seed[1];
  let c = seed[2];
  let d = seed[3];
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    a = Math.imul(a ^ k, 0x01000193);
    b = Math.imul(b ^ k, 0x5bd1e995) + a;
    c = Math.imul(c ^ k, 0x27d4eb2f) ^ (b >>> 7);
    d = Math.imul(d ^ k, 0x165667b1) + (c << 3);
  }
  LANES[0] = a;
  LANES[1] = b;
  LANES[2] = c;
  LANES[3] = d;
  LANES[4] = seed[4] + text.length;
}

/** The 128 bits {@link digestInto} leaves (the mixed lanes b, c, d, e): read at once. */
const DIGEST = new Int32Array(4);

/** Hashes `text` after `seed` and mixes the lanes into {@link DIGEST}. */
function digestInto(text: string, seed: HashSeed): void {
  hashInto(text, seed);
  const lanes = LANES;
  const a = fmix((lanes[0] as number) ^ Math.imul(lanes[4] as number, 0x9e3779b1));
  const b = fmix((lanes[1] as number) ^ a);
  const c = fmix((lanes[2] as number) ^ b);
  const d = fmix((lanes[3] as number) ^ c);
  DIGEST[0] = b;
  DIGEST[1] = c;
  DIGEST[2] = d;
  DIGEST[3] = fmix(a ^ d);
}

/** Hashes `prefix` once; pass the result to {@link deterministicId} for every id that starts with it. */
export function hashSeed(prefix: string, seed: HashSeed = INITIAL_SEED): HashSeed {
  hashInto(prefix, seed);
  return [LANES[0] as number, LANES[1] as number, LANES[2] as number, LANES[3] as number, LANES[4] as number];
}

/**
 * A deterministic UUID-shaped id (version 5 layout) derived from `text` (after the prefix
 * already hashed into `seed`, if any). The same input gives the same id in every process.
 */
export function deterministicId(text: string, seed: HashSeed = INITIAL_SEED): string {
  // lanes read by index and the id built as one string: this runs for every task of every step,
  // mostly before the engine optimizes it, where destructuring and each `+` of a short string
  // allocate (see "Cold runs" in bench/README.md)
  digestInto(text, seed);
  const b = DIGEST[0] as number;
  const c = DIGEST[1] as number;
  const e = DIGEST[3] as number;
  const f = ((DIGEST[2] as number) & 0x3fffffff) | 0x80000000;
  // the hex digits of e, b, c and f (32 in all) as 8-4-4-4-12: the third group's first digit is
  // the version (5), the fourth group is f's first half, the last c then f's second half
  const codes = ID_CODES;
  putHex(codes, 0, e, 0, 8);
  putHex(codes, 9, b, 0, 4);
  putHex(codes, 15, b, 5, 3);
  putHex(codes, 19, f, 0, 4);
  putHex(codes, 24, c, 0, 8);
  putHex(codes, 32, f, 4, 4);
  return String.fromCharCode.apply(null, codes);
}

// 100-ns intervals between the Gregorian epoch (1582-10-15) and the Unix epoch.
const GREGORIAN_OFFSET = 122192928000000000n;
/** The timestamp of the last id minted: `lastBase` plus `lastTicks`. */
let lastBase = 0n;
let lastTicks = 0;
/**
 * The last id's millisecond, the text of its timestamp before the last three hex digits (with
 * the dashes and the version digit), and those digits' value: while the clock stays in that
 * millisecond, the next id is the last one's timestamp plus one (see {@link timeOrderedId}).
 */
let lastMillis = -1;
let lastHead = "";
let lastLow = 0;

function randomNode(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  let out = "";
  for (let i = 0; i < 8; i++) out += HEX[bytes[i] as number];
  return out;
}

/**
 * A time-ordered UUID (version 6). Ids minted by one process are strictly increasing, even
 * within the same millisecond.
 */
export function timeOrderedId(): string {
  const millis = Date.now();
  if (millis === lastMillis && lastLow < 0xfff) {
    // the last id was minted in this millisecond, so its timestamp is at least this one's: the
    // next is one more, which changes only the last three digits (no BigInt arithmetic, which
    // allocates, for the several checkpoints a millisecond can hold)
    lastLow += 1;
    lastTicks += 1;
    return lastHead + lastLow.toString(16).padStart(3, "0") + processSuffix();
  }
  const last = lastBase + BigInt(lastTicks);
  let ts = BigInt(millis) * 10000n + GREGORIAN_OFFSET;
  if (ts <= last) ts = last + 1n;
  lastBase = ts;
  lastTicks = 0;
  const t = ts.toString(16).padStart(15, "0");
  lastMillis = millis;
  // time_high (48 bits) | version 6 + time_low (12 bits) | variant + clock seq | node
  lastHead = `${t.slice(0, 8)}-${t.slice(8, 12)}-6`;
  lastLow = Number.parseInt(t.slice(12, 15), 16);
  return `${lastHead}${t.slice(12, 15)}${processSuffix()}`;
}

/** `-<clock seq>-<node>`: the part of {@link timeOrderedId} that stays the same in a process. */
let suffix: string | undefined;

function processSuffix(): string {
  if (suffix === undefined) {
    const node = randomNode();
    const clockSeq = (0x8000 | (Number.parseInt(node.slice(12, 16), 16) & 0x3fff)).toString(16);
    suffix = `-${clockSeq}-${node.slice(0, 12)}`;
  }
  return suffix;
}

let lastIso: { millis: number; text: string } | undefined;

/** `new Date().toISOString()`, computed once per millisecond (checkpoints come faster than that). */
export function isoNow(): string {
  const millis = Date.now();
  if (lastIso === undefined || lastIso.millis !== millis)
    lastIso = { millis, text: new Date(millis).toISOString() };
  return lastIso.text;
}

/** Character codes of the URL-safe base64 digits. */
const B64_CODE: readonly number[] = Array.from(
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
  (c) => c.charCodeAt(0),
);

/** Writes the first `count` base64 digits of `n` (least significant 6 bits first) at `at`. */
function putB64(codes: number[], at: number, n: number, count: number): void {
  for (let i = 0; i < count; i++) codes[at + i] = B64_CODE[(n >>> (i * 6)) & 63] as number;
}

/** The character codes of the hash {@link contentHash} is building. */
const HASH_CODES: number[] = Array.from({ length: 22 }, () => 65);

/**
 * A 128-bit hash of `text` as 22 URL-safe characters (interrupt ids, cache keys; a stored item's
 * address is its first 16). Not cryptographic.
 */
export function contentHash(text: string): string {
  // built as one string, lanes read by index (see deterministicId)
  digestInto(text, INITIAL_SEED);
  const b = DIGEST[0] as number;
  const c = DIGEST[1] as number;
  const d = DIGEST[2] as number;
  const e = DIGEST[3] as number;
  const codes = HASH_CODES;
  putB64(codes, 0, e, 5);
  putB64(codes, 5, b, 5);
  putB64(codes, 10, c, 5);
  putB64(codes, 15, d, 5);
  putB64(codes, 20, (e >>> 30) | ((b >>> 30) << 2) | ((c >>> 30) << 4), 1);
  putB64(codes, 21, d >>> 30, 1);
  return String.fromCharCode.apply(null, codes);
}
