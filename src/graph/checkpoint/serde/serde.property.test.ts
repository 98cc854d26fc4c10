import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeJsonList, decodeKeyedJson, defaultSerializer as serde } from "./index.js";

const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("~t", "v", "o", "u"));

const typedArray = fc.oneof(
  fc.uint8Array({ maxLength: 8 }),
  fc.int16Array({ maxLength: 4 }),
  fc.int32Array({ maxLength: 4 }),
  fc.float32Array({ maxLength: 4 }),
  fc.float64Array({ maxLength: 4 }),
  fc.bigInt64Array({ maxLength: 4 }),
);

const leaf = fc.oneof(
  fc.string(),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.bigInt(),
  fc.date(),
  typedArray,
);

const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    tie("array"),
    tie("object"),
    tie("map"),
    tie("set"),
  ),
  array: fc.array(tie("value"), { maxLength: 5 }),
  object: fc.dictionary(key, tie("value"), { maxKeys: 5, noNullPrototype: true }),
  map: fc
    .array(fc.tuple(fc.oneof(fc.string(), fc.integer()), tie("value")), { maxLength: 4 })
    .map((e) => new Map(e)),
  set: fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 4 }).map((e) => new Set(e)),
}));

describe("serializer round trip (property)", () => {
  it("decode(encode(x)) equals x for JSON values", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (x) => {
        expect(serde.decode(serde.encode(x))).toStrictEqual(x);
      }),
    );
  });

  it("writes JSON values as their own JSON text", () => {
    // JSON text has no -0 (JSON.stringify writes 0), so normalize through it first. An object
    // with the tag key "~t" is escaped (next test), so such values are left out here.
    const hasTagKey = (x: unknown): boolean =>
      typeof x === "object" &&
      x !== null &&
      (Object.hasOwn(x, "~t") || Object.values(x).some((item) => hasTagKey(item)));
    const json = fc
      .jsonValue()
      .map((x) => JSON.parse(JSON.stringify(x)) as unknown)
      .filter((x) => !hasTagKey(x));
    fc.assert(
      fc.property(json, (x) => {
        expect(serde.encode(x)).toBe(JSON.stringify(x));
      }),
    );
  });

  it("escapes a plain object that has the tag key, and reads it back as it was", () => {
    const x = { "~t": "date", v: "2020-01-01", nested: [{ "~t": 1 }] };
    expect(serde.encode(x)).not.toBe(JSON.stringify(x));
    expect(serde.decode(serde.encode(x))).toStrictEqual(x);
  });

  it("decode(encode(x)) equals x with undefined, NaN, BigInt, Dates, Maps, Sets and typed arrays", () => {
    fc.assert(
      fc.property(value, (x) => {
        expect(serde.decode(serde.encode(x))).toStrictEqual(x);
      }),
      { numRuns: 300 },
    );
  });

  it("never mutates the value it encodes", () => {
    fc.assert(
      fc.property(value, (x) => {
        const before = serde.encode(x);
        serde.encode(x);
        expect(serde.encode(x)).toBe(before);
      }),
      { numRuns: 100 },
    );
  });

  it("sparse arrays come back with their holes as undefined", () => {
    fc.assert(
      fc.property(fc.sparseArray(fc.integer(), { maxLength: 8 }), (x) => {
        const back = serde.decode(serde.encode(x)) as unknown[];
        expect(back).toHaveLength(x.length);
        for (let i = 0; i < x.length; i++) expect(back[i]).toBe(x[i]);
      }),
    );
  });

  it("the async protocol agrees with the sync fast path", async () => {
    await fc.assert(
      fc.asyncProperty(value, async (x) => {
        const [type, bytes] = await serde.dumpsTyped(x);
        const back = await serde.loadsTyped(type, bytes);
        if (x instanceof Uint8Array) expect(type).toBe("bytes");
        else expect(new TextDecoder().decode(bytes)).toBe(serde.encode(x));
        expect(back).toStrictEqual(x);
      }),
      { numRuns: 100 },
    );
  });

  it("decoding many texts with one parse gives what decoding each gives", () => {
    // several values, some tagged at the top and some with tags inside, as a history's items are
    fc.assert(
      fc.property(fc.array(value, { maxLength: 6 }), (values) => {
        const texts = values.map((x) => serde.encode(x));
        const one = values.map((_, i) => serde.decode(texts[i] as string));
        expect(decodeJsonList(`[${texts.join(",")}]`, texts.length)).toStrictEqual(one);
        const keys = texts.map((_, i) => `k${i}`);
        const keyed = `[${texts.map((text, i) => `"${keys[i]}",${text}`).join(",")}]`;
        const wanted = new Set(keys.filter((_, i) => i % 2 === 0));
        const decoded = decodeKeyedJson(keyed, texts.length, wanted);
        expect(decoded).toStrictEqual(new Map(keys.flatMap((k, i) => (wanted.has(k) ? [[k, one[i]]] : []))));
      }),
      { numRuns: 300 },
    );
  });
});
