/**
 * The splice algebra lists are stored with: a diff applied to its source gives its target, and a
 * stored splice applied directly (`applyStoredSplice`, the read path) does what decoding it and
 * applying the result does, including refusing what does not decode or fit, with the list left
 * as it was.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applySplice, applyStoredSplice, decodeSplice, diffLists, encodeSplice } from "./list-delta.js";

const refs = fc.array(fc.constantFrom("a", "b", "c", "d", "e"), { maxLength: 12 });

/** Stored splices as the encoder writes them, and shapes it never writes. */
const stored = fc.oneof(
  fc.tuple(refs, refs).map(([prev, next]) => JSON.parse(encodeSplice(diffLists(prev, next))) as unknown),
  fc
    .tuple(fc.integer({ min: -1, max: 14 }), fc.integer({ min: -1, max: 3 }), refs)
    .map(([start, del, ins]) => [start, del, ...ins]),
  fc.tuple(fc.nat(14), refs).map(([start, ins]) => [start, 0, ...ins, 7]),
  fc.constantFrom<unknown>([], [0], ["0", 0], null, "x", { start: 0, del: 0 }),
  fc.record({ start: fc.nat(14), del: fc.nat(3), ins: refs }),
);

function outcome(apply: () => string[]): { refs: string[] } | { error: string } {
  try {
    return { refs: [...apply()] };
  } catch (error) {
    return { error: (error as Error).constructor.name };
  }
}

describe("list splices", () => {
  it("a diff applied to its source gives its target, through its stored form", () => {
    fc.assert(
      fc.property(refs, refs, (prev, next) => {
        const text = encodeSplice(diffLists(prev, next));
        expect(applyStoredSplice([...prev], JSON.parse(text))).toEqual(next);
      }),
      { numRuns: 2000 },
    );
  });

  it("applyStoredSplice does what decodeSplice then applySplice do, and on error changes nothing", () => {
    fc.assert(
      fc.property(refs, stored, (list, splice) => {
        const direct = [...list];
        const viaDecode = [...list];
        const got = outcome(() => applyStoredSplice(direct, splice));
        const want = outcome(() => applySplice(viaDecode, decodeSplice(splice)));
        expect(got).toEqual(want);
        if ("error" in got) expect(direct).toEqual(list);
      }),
      { numRuns: 3000 },
    );
  });

  it("appends in place and returns the list it was given", () => {
    const list = ["a", "b"];
    expect(applyStoredSplice(list, [2, 0, "c", "d"])).toBe(list);
    expect(list).toEqual(["a", "b", "c", "d"]);
    expect(() => applyStoredSplice(list, [4, 0, "e", 5])).toThrow(SyntaxError);
    expect(() => applyStoredSplice(list, [5, 0, "e"])).toThrow(RangeError);
    expect(list).toEqual(["a", "b", "c", "d"]);
  });
});
