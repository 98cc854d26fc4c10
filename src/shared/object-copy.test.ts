import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { copyOf, copyWith, mergeOf } from "./object-copy.js";

/** What a spread gives: own enumerable keys in order, their values, the prototype. */
const shape = (value: object) => ({
  prototype: Object.getPrototypeOf(value),
  keys: Reflect.ownKeys(value),
  values: Reflect.ownKeys(value).map((key) => (value as Record<PropertyKey, unknown>)[key]),
});

const tag = Symbol("tag");
/** Objects as configs and metadata hold them, and parsed JSON with an own "__proto__" key. */
const source = fc.oneof(
  fc.dictionary(fc.constantFrom("a", "b", "c", "configurable", "tags", "1", "0"), fc.jsonValue()),
  fc
    .dictionary(fc.constantFrom("a", "__proto__", "b"), fc.jsonValue(), { minKeys: 1 })
    .map((d) => JSON.parse(JSON.stringify(d)) as Record<string, unknown>),
  fc.record({ a: fc.integer(), [tag]: fc.string() } as never) as fc.Arbitrary<Record<PropertyKey, unknown>>,
  fc.constant(undefined),
);

describe("copyOf and mergeOf", () => {
  it("copy what a spread copies", () => {
    fc.assert(
      fc.property(source, source, source, (a, b, c) => {
        expect(shape(copyOf(a))).toEqual(shape({ ...a }));
        expect(shape(mergeOf(a, b))).toEqual(shape({ ...a, ...b }));
        expect(shape(mergeOf(a, b, c))).toEqual(shape({ ...a, ...b, ...c }));
        expect(shape(copyWith(a, "b", c))).toEqual(shape({ ...a, b: c }));
      }),
      { numRuns: 500 },
    );
  });

  it("keep an own __proto__ key a key (the prototype stays Object.prototype)", () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const copy = copyOf(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.polluted).toBeUndefined();
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
    const merged = mergeOf({ b: 2 }, parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(merged.polluted).toBeUndefined();
    expect(Object.keys(merged)).toEqual(["b", "__proto__", "a"]);
    const keyed = copyWith({ a: 1 }, "__proto__", { polluted: true }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(keyed)).toBe(Object.prototype);
    expect(keyed.polluted).toBeUndefined();
    expect(Object.keys(keyed)).toEqual(["a", "__proto__"]);
  });

  it("copy, never share: the copy changes alone", () => {
    const config = { tags: ["x"], metadata: { a: 1 } };
    const copy = copyOf(config) as typeof config & { state?: unknown };
    copy.state = 1;
    expect(config).toEqual({ tags: ["x"], metadata: { a: 1 } });
    expect(copy.tags).toBe(config.tags);
  });

  it("read getters as a spread does (their values, not the accessors)", () => {
    let reads = 0;
    const source = {
      get value() {
        reads += 1;
        return 7;
      },
    };
    const copy = copyOf(source);
    expect(reads).toBe(1);
    expect(Object.getOwnPropertyDescriptor(copy, "value")).toMatchObject({ value: 7, writable: true });
  });
});
