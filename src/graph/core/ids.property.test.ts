import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contentHash, deterministicId, hashSeed } from "./ids.js";

/**
 * Task ids and item hashes are stored: a saved write finds its task again by id after a restart,
 * and a stored item is addressed by its hash. Their values must never change, however the
 * functions are written. The formulation below is the one they were first written in.
 */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const hex32 = (n: number) =>
  `${HEX[(n >>> 24) & 255]}${HEX[(n >>> 16) & 255]}${HEX[(n >>> 8) & 255]}${HEX[n & 255]}`;
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const b64 = (n: number, chars: number) => {
  let out = "";
  for (let i = 0; i < chars; i++) out += B64[(n >>> (i * 6)) & 63];
  return out;
};
/** MurmurHash3's finalizer. */
const fmix = (h: number): number => {
  const a = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  const b = Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  return b ^ (b >>> 16);
};
function finalLanes(
  text: string,
  seed?: ReturnType<typeof hashSeed>,
): [number, number, number, number, number] {
  const [a0, b0, c0, d0, length] = seed === undefined ? hashSeed(text) : hashSeed(text, seed);
  const a = fmix(a0 ^ Math.imul(length, 0x9e3779b1));
  const b = fmix(b0 ^ a);
  const c = fmix(c0 ^ b);
  const d = fmix(d0 ^ c);
  return [a, b, c, d, fmix(a ^ d)];
}
function firstDeterministicId(text: string, seed?: ReturnType<typeof hashSeed>): string {
  const [, b, c, d, e] = finalLanes(text, seed);
  const h = hex32(e) + hex32(b) + hex32(c) + hex32((d & 0x3fffffff) | 0x80000000);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${h.slice(24, 28)}-${h.slice(16, 24)}${h.slice(28, 32)}`;
}
function firstContentHash(text: string): string {
  const [, b, c, d, e] = finalLanes(text);
  return (
    b64(e, 5) +
    b64(b, 5) +
    b64(c, 5) +
    b64(d, 5) +
    b64((e >>> 30) | ((b >>> 30) << 2) | ((c >>> 30) << 4), 1) +
    b64(d >>> 30, 1)
  );
}

describe("stored ids keep their values", () => {
  it("pinned values", () => {
    const seed = hashSeed("checkpoint-1\u0000");
    expect(deterministicId("step 1 / node a")).toBe("17fc2ca8-c0f3-51a3-9b55-10460e44ae89");
    expect(deterministicId("tools\u0000__pregel_push\u00000", seed)).toBe(
      "490ea2f5-3d42-5d26-afb7-3fb2b7ca09ec",
    );
    expect(deterministicId("")).toBe("44f3fbf9-36dd-5f57-932d-f6796f0413d7");
    expect(contentHash('{"~t":"msg","v":["AIMessage",{"content":"héllo 🌍"}]}')).toBe(
      "jKOOqIFupSU6NZuzOybofC",
    );
    expect(contentHash("")).toBe("5v_8EX9X32E8We2XPRLTxA");
    expect(contentHash("x".repeat(1000))).toBe("hDN6TcYJiFKszr-QVYEGyC");
  });

  it("deterministicId and contentHash equal their first formulation on any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (prefix, text) => {
        const seed = hashSeed(prefix);
        expect(deterministicId(text)).toBe(firstDeterministicId(text));
        expect(deterministicId(text, seed)).toBe(firstDeterministicId(text, seed));
        expect(deterministicId(prefix + text)).toBe(deterministicId(text, seed));
        expect(contentHash(text)).toBe(firstContentHash(text));
      }),
      { numRuns: 2000 },
    );
  });
});
