import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsePartialJson } from "./index.js";

describe("parsePartialJson", () => {
  it("parses complete JSON", () => {
    expect(parsePartialJson('{"a": [1, 2, {"b": null}], "c": "d"}')).toEqual({
      a: [1, 2, { b: null }],
      c: "d",
    });
    expect(parsePartialJson("42")).toBe(42);
  });

  it("closes cut-off strings, arrays and objects", () => {
    expect(parsePartialJson('{"city": "Suz')).toEqual({ city: "Suz" });
    expect(parsePartialJson('{"a": [1, 2, {"b": "c')).toEqual({ a: [1, 2, { b: "c" }] });
    expect(parsePartialJson("[1, ")).toEqual([1]);
    expect(parsePartialJson("{")).toEqual({});
    expect(parsePartialJson("[")).toEqual([]);
  });

  it("drops a trailing key that has no value yet", () => {
    expect(parsePartialJson('{"a": 1, "b')).toEqual({ a: 1 });
    expect(parsePartialJson('{"a": 1, "b"')).toEqual({ a: 1 });
    expect(parsePartialJson('{"a": 1, "b":')).toEqual({ a: 1 });
  });

  it("reads literal and number prefixes", () => {
    expect(parsePartialJson('{"a": tr')).toEqual({ a: true });
    expect(parsePartialJson('{"a": f')).toEqual({ a: false });
    expect(parsePartialJson('{"a": nu')).toEqual({ a: null });
    expect(parsePartialJson('{"a": 1.')).toEqual({ a: 1 });
    expect(parsePartialJson('{"a": 2e')).toEqual({ a: 2 });
    expect(Object.is(parsePartialJson("-"), -0)).toBe(true);
  });

  it("keeps a cut-off escape as text until the rest arrives", () => {
    expect(parsePartialJson('{"a": "x\\')).toEqual({ a: "x\\" });
    expect(parsePartialJson('{"a": "x\\u00')).toEqual({ a: "xu00" });
    expect(parsePartialJson('"\\u0041\\n"')).toBe("A\n");
  });

  it("returns null for text that cannot start a JSON document", () => {
    for (const text of [
      "",
      "   ",
      "{oops",
      "[1 2]",
      '{"a" 1}',
      "01",
      '{"a": 1}}',
      '"\\x"',
      "nx",
      undefined,
    ]) {
      expect(parsePartialJson(text)).toBeNull();
    }
  });

  it("keeps __proto__ as an ordinary key", () => {
    const parsed = parsePartialJson('{"__proto__": {"polluted": true}, "a": 1') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(["__proto__", "a"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("parses every prefix of a JSON document without failing, ending at the document", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => {
        const text = JSON.stringify(value);
        for (let i = 1; i < text.length; i += 1) {
          const prefix = text.slice(0, i);
          // A cut inside "-" or a literal may still be read as a value; never an exception.
          expect(() => parsePartialJson(prefix)).not.toThrow();
        }
        expect(parsePartialJson(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 100 },
    );
  });

  it("never loses a complete key-value pair of an object prefix", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 4 }),
        (object) => {
          const text = JSON.stringify(object);
          const keys = Object.keys(object);
          for (let k = 0; k < keys.length; k += 1) {
            const complete = Object.fromEntries(keys.slice(0, k + 1).map((key) => [key, object[key]]));
            const prefix = JSON.stringify(complete).slice(0, -1);
            expect(text.startsWith(prefix)).toBe(true);
            expect(parsePartialJson(prefix)).toEqual(complete);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
