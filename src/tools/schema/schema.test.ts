import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as zm from "zod/mini";
import { z as z3 } from "zod/v3";
import { InvalidArgumentError } from "../../shared/index.js";
import { formatIssues, formatPath } from "./format-issues.js";
import { validateJsonSchema } from "./json-schema-validator.js";
import { isStandardSchema, isZodSchema } from "./standard-schema.js";
import { toJsonSchema, toStrictJsonSchema } from "./to-json-schema.js";
import { validateArgs } from "./validate-args.js";

describe("toJsonSchema", () => {
  it("converts zod from the input side and drops $schema", () => {
    const schema = z.object({
      city: z.string().describe("City name"),
      days: z.number().int().default(1),
      unit: z.enum(["c", "f"]).optional(),
    });
    expect(toJsonSchema(schema)).toEqual({
      type: "object",
      properties: {
        city: { type: "string", description: "City name" },
        days: { type: "integer", default: 1, minimum: -9007199254740991, maximum: 9007199254740991 },
        unit: { type: "string", enum: ["c", "f"] },
      },
      required: ["city"],
    });
  });

  it("converts zod/mini by reading the definition", () => {
    const described = zm.string();
    z.globalRegistry.add(described, { description: "a note" });
    const schema = zm.object({
      n: zm.int(),
      note: described,
      tags: zm.array(zm.string()),
      mode: zm._default(zm.enum(["a", "b"]), "a"),
      maybe: zm.nullable(zm.number()),
      kind: zm.literal("x"),
      extra: zm.optional(zm.record(zm.string(), zm.boolean())),
      either: zm.union([zm.string(), zm.number()]),
    });
    expect(toJsonSchema(schema)).toEqual({
      type: "object",
      properties: {
        n: { type: "integer" },
        note: { type: "string", description: "a note" },
        tags: { type: "array", items: { type: "string" } },
        mode: { type: "string", enum: ["a", "b"], default: "a" },
        maybe: { anyOf: [{ type: "number" }, { type: "null" }] },
        kind: { type: "string", const: "x" },
        extra: { type: "object", additionalProperties: { type: "boolean" } },
        either: { anyOf: [{ type: "string" }, { type: "number" }] },
      },
      required: ["n", "note", "tags", "maybe", "kind", "either"],
    });
  });

  it("copies a JSON Schema without $schema and rejects non-objects", () => {
    const input = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: {} };
    expect(toJsonSchema(input)).toEqual({ type: "object", properties: {} });
    expect(input.$schema).toBeDefined();
    expect(() => toJsonSchema("string" as never)).toThrow(InvalidArgumentError);
    expect(() => toJsonSchema(null as never)).toThrow(
      /Expected a Zod 4 schema or a JSON Schema object, got null/,
    );
  });

  it("converts Zod 3 schemas (zod/v3) as LangChain.js accepts them", () => {
    const schema = z3.object({
      city: z3.string().min(1).describe("City name"),
      days: z3.number().int().max(7).default(1),
      unit: z3.enum(["c", "f"]).optional(),
      tags: z3.array(z3.string()),
      note: z3.string().nullable(),
    });
    // unions as LangChain.js's converter writes them
    expect(toJsonSchema(z3.union([z3.string(), z3.number()]))).toStrictEqual({ type: ["string", "number"] });
    expect(toJsonSchema(z3.union([z3.literal("a"), z3.literal(1)]))).toStrictEqual({
      type: ["string", "number"],
      enum: ["a", 1],
    });
    expect(toJsonSchema(schema)).toStrictEqual({
      type: "object",
      properties: {
        city: { type: "string", minLength: 1, description: "City name" },
        days: { type: "integer", maximum: 7, default: 1 },
        unit: { type: "string", enum: ["c", "f"] },
        tags: { type: "array", items: { type: "string" } },
        note: { type: ["string", "null"] },
      },
      required: ["city", "tags", "note"],
    });
  });

  it("writes Zod 3 fields as LangChain.js's converter does: required unless undefined passes, type lists for plain primitives only", () => {
    const schema = z3.object({
      flag: z3.coerce.boolean(),
      anything: z3.any(),
      n: z3
        .number()
        .refine((x) => x < 3)
        .nullable(),
      s: z3.string().min(1).nullable(),
      either: z3.union([z3.string().min(2), z3.number()]),
      colour: z3.union([z3.enum(["red", "green"]), z3.enum(["green", "blue"])]),
      tagged: z3.union([z3.literal("a").describe("A"), z3.literal("b")]),
    });
    expect(toJsonSchema(schema)).toStrictEqual({
      type: "object",
      properties: {
        flag: { type: "boolean" },
        anything: {},
        n: { anyOf: [{ type: "number" }, { type: "null" }] },
        s: { anyOf: [{ type: "string", minLength: 1 }, { type: "null" }] },
        either: { anyOf: [{ type: "string", minLength: 2 }, { type: "number" }] },
        colour: { type: "string", enum: ["red", "green", "blue"] },
        tagged: {
          anyOf: [
            { type: "string", const: "a", description: "A" },
            { type: "string", const: "b" },
          ],
        },
      },
      required: ["n", "s", "either", "colour", "tagged"],
    });
  });

  it("writes a Zod 3 array of z.any() without items, as zod-to-json-schema does", () => {
    expect(toJsonSchema(z3.object({ list: z3.array(z3.any()), nums: z3.array(z3.number()) }))).toStrictEqual({
      type: "object",
      properties: { list: { type: "array" }, nums: { type: "array", items: { type: "number" } } },
      required: ["list", "nums"],
    });
  });

  it("converts Zod 3 lazy schemas through their getter", () => {
    expect(toJsonSchema(z3.object({ a: z3.lazy(() => z3.string()).nullable() }))).toStrictEqual({
      type: "object",
      properties: { a: { anyOf: [{ type: "string" }, { type: "null" }] } },
      required: ["a"],
    });
  });

  it("lists a Zod 3 schema's issues in the order of its async parse, as LangChain.js does", async () => {
    const schema = z3.object({
      items: z3.union([z3.string(), z3.enum(["a", "b"])]),
      count: z3.literal(1),
      flag: z3.boolean(),
    });
    const outcome = await validateArgs(schema, { a: 1 });
    expect(outcome.success).toBe(false);
    expect(formatIssues(outcome.success ? [] : outcome.issues)).toBe(
      "✖ Invalid literal value, expected 1\n  → at count\n✖ Required\n  → at flag\n✖ Invalid input\n  → at items",
    );
  });

  it("keeps open Zod 3 objects open: passthrough and catchall", () => {
    const shape = { a: z3.string() };
    expect(toJsonSchema(z3.object(shape).passthrough())).toStrictEqual({
      type: "object",
      properties: { a: { type: "string" } },
      required: ["a"],
      additionalProperties: true,
    });
    expect(toJsonSchema(z3.object(shape).catchall(z3.number()))).toStrictEqual({
      type: "object",
      properties: { a: { type: "string" } },
      required: ["a"],
      additionalProperties: { type: "number" },
    });
    expect(toJsonSchema(z3.object(shape).strict())).not.toHaveProperty("additionalProperties");
  });

  it("explains when a schema of another library cannot be converted", () => {
    const opaque = { "~standard": { version: 1, vendor: "valibot", validate: () => ({ value: 1 }) } };
    expect(() => toJsonSchema(opaque)).toThrow(/Cannot convert this valibot schema to JSON Schema/);
  });

  it("closes every object for strict mode without touching data keywords", () => {
    const strict = toStrictJsonSchema({
      type: "object",
      properties: {
        type: { type: "string" },
        inner: { type: "object", properties: { a: { type: "string" } } },
        open: { type: "object", additionalProperties: true },
        list: { type: "array", items: { type: "object", properties: {} } },
      },
      default: { type: "object" },
      $defs: { Ref: { type: "object", properties: {} } },
    });
    expect(strict).toEqual({
      type: "object",
      properties: {
        type: { type: "string" },
        inner: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
        open: { type: "object", additionalProperties: true },
        list: { type: "array", items: { type: "object", properties: {}, additionalProperties: false } },
      },
      default: { type: "object" },
      $defs: { Ref: { type: "object", properties: {}, additionalProperties: false } },
      additionalProperties: false,
    });
  });
});

describe("validateJsonSchema", () => {
  const schema = {
    type: "object",
    properties: {
      q: { type: "string", minLength: 2, pattern: "^[a-z]+$" },
      n: { type: "integer", minimum: 1, maximum: 10 },
      mode: { enum: ["fast", "slow"] },
      tags: { type: "array", items: { type: "string" }, maxItems: 2 },
      ref: { $ref: "#/$defs/Point" },
      either: { anyOf: [{ type: "string" }, { type: "null" }] },
    },
    required: ["q"],
    additionalProperties: false,
    $defs: { Point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
  };

  it("accepts valid input", () => {
    expect(
      validateJsonSchema(schema, { q: "abc", n: 3, mode: "fast", tags: ["a"], ref: { x: 1 }, either: null }),
    ).toEqual([]);
  });

  it("reports each problem with its path", () => {
    expect(
      validateJsonSchema(schema, {
        q: "A",
        n: 2.5,
        mode: "medium",
        tags: ["a", 1, "c"],
        ref: {},
        either: 3,
        extra: 1,
      }),
    ).toEqual([
      { message: "Too small: expected string to have >=2 characters", path: ["q"] },
      { message: "Invalid string: must match pattern ^[a-z]+$", path: ["q"] },
      { message: "Invalid input: expected integer, received number", path: ["n"] },
      { message: 'Invalid option: expected one of "fast"|"slow"', path: ["mode"] },
      { message: "Too big: expected array to have <=2 items", path: ["tags"] },
      { message: "Invalid input: expected string, received number", path: ["tags", 1] },
      { message: "Invalid input: expected number, received undefined", path: ["ref", "x"] },
      { message: "Invalid input: matches none of the allowed schemas", path: ["either"] },
      { message: 'Unrecognized key: "extra"', path: [] },
    ]);
    expect(validateJsonSchema(schema, {})).toEqual([
      { message: "Invalid input: expected string, received undefined", path: ["q"] },
    ]);
    expect(validateJsonSchema(schema, "text")).toEqual([
      { message: "Invalid input: expected object, received string", path: [] },
    ]);
  });
});

describe("validateJsonSchema accepts what LangChain.js's validator (@cfworker/json-schema) accepts", () => {
  const fits = (schema: Record<string, unknown>, value: unknown) =>
    validateJsonSchema(schema, value).length === 0;

  it("reads tuples: prefixItems, then items; a list of items, then additionalItems", () => {
    const pair = { type: "array", prefixItems: [{ const: 1 }, {}], items: false };
    expect([fits(pair, [1, [1]]), fits(pair, [1]), fits(pair, [2, 3]), fits(pair, [1, 2, 3])]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    const listed = { type: "array", items: [{ type: "string" }], additionalItems: { type: "number" } };
    expect([fits(listed, ["a", 1, 2]), fits(listed, [1]), fits(listed, ["a", "b"])]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("takes oneOf as exactly one, and reads not and if / then / else", () => {
    const one = { oneOf: [{ type: "number" }, { type: "integer" }] };
    expect([fits(one, 1.5), fits(one, 1)]).toEqual([true, false]);
    expect([fits({ not: { type: "string" } }, 1), fits({ not: { type: "string" } }, "a")]).toEqual([
      true,
      false,
    ]);
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
    const branch = { if: { type: "string" }, then: { minLength: 2 }, else: { type: "number" } };
    expect([fits(branch, "ab"), fits(branch, "a"), fits(branch, 3), fits(branch, true)]).toEqual([
      true,
      false,
      true,
      false,
    ]);
  });

  it("checks object keywords: patternProperties, propertyNames, property counts, dependencies", () => {
    const patterned = {
      type: "object",
      patternProperties: { "^x": { type: "string" } },
      additionalProperties: false,
    };
    expect([fits(patterned, { x1: "s" }), fits(patterned, { x1: 1 }), fits(patterned, { y: "s" })]).toEqual([
      true,
      false,
      false,
    ]);
    expect(fits({ propertyNames: { pattern: "^[a-c]$" } }, { d: 1 })).toBe(false);
    expect([fits({ minProperties: 1 }, {}), fits({ maxProperties: 1 }, { a: 1, b: 2 })]).toEqual([
      false,
      false,
    ]);
    expect(fits({ dependentRequired: { a: ["b"] } }, { a: 1 })).toBe(false);
    expect(fits({ dependencies: { a: { required: ["c"] } } }, { a: 1, c: 2 })).toBe(true);
  });

  it("checks array and number keywords: contains, uniqueItems, exclusive bounds, multipleOf", () => {
    const some = { type: "array", contains: { type: "number" }, minContains: 2, maxContains: 3 };
    expect([fits(some, [1, "a", 2]), fits(some, [1, "a"]), fits(some, [1, 2, 3, 4])]).toEqual([
      true,
      false,
      false,
    ]);
    expect(fits({ type: "array", contains: { type: "number" } }, [])).toBe(false);
    expect(
      fits({ uniqueItems: true }, [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ]),
    ).toBe(false);
    expect([fits({ exclusiveMinimum: 2 }, 2), fits({ exclusiveMaximum: 5 }, 4.5)]).toEqual([false, true]);
    expect([fits({ multipleOf: 0.1 }, 0.3), fits({ multipleOf: 2 }, 3)]).toEqual([true, false]);
  });

  it("compares const and enum values by content, whatever the key order", () => {
    expect(fits({ const: { a: 1, b: 2 } }, { b: 2, a: 1 })).toBe(true);
    expect(fits({ enum: [[1, 2], { a: 1 }] }, [2, 1])).toBe(false);
  });

  it("counts string lengths in code points and checks the common formats", () => {
    expect([fits({ maxLength: 1 }, "😀"), fits({ minLength: 2 }, "😀")]).toEqual([true, false]);
    const format = (name: string, value: string) => fits({ type: "string", format: name }, value);
    expect([
      format("date", "2024-02-29"),
      format("date", "2023-02-29"),
      format("date", "2024-04-31"),
    ]).toEqual([true, false, false]);
    expect([format("date-time", "2024-01-01T12:00:00Z"), format("date-time", "2024-01-01T12:00:00")]).toEqual(
      [true, false],
    );
    expect([format("email", "a@b.co"), format("email", "a..b@c.d"), format("email", "a@-x.com")]).toEqual([
      true,
      false,
      false,
    ]);
    expect([
      format("ipv4", "256.1.1.1"),
      format("ipv6", "::ffff:1.2.3.4"),
      format("ipv6", "1::2::3"),
    ]).toEqual([false, true, false]);
    expect([format("uuid", "123e4567-e89b-12d3-a456-426614174000"), format("uri", "x:")]).toEqual([
      true,
      false,
    ]);
    expect([
      format("duration", "P1Y2M3DT4H5M6S"),
      format("duration", "P1Y2D"),
      format("color", "red"),
    ]).toEqual([true, false, true]);
  });
});

describe("validateArgs and formatting", () => {
  it("validates with any Standard Schema and returns the parsed value", async () => {
    expect(await validateArgs(z.object({ n: z.coerce.number() }), { n: "4" })).toEqual({
      success: true,
      value: { n: 4 },
    });
    const failed = await validateArgs(z.object({ items: z.array(z.object({ "full name": z.string() })) }), {
      items: [{ "full name": 1 }],
    });
    expect(failed.success).toBe(false);
    if (!failed.success) {
      expect(formatIssues(failed.issues)).toBe(
        '✖ Invalid input: expected string, received number\n  → at items[0]["full name"]',
      );
    }
  });

  it("prints paths like zod", () => {
    expect(formatPath(["a", 0, "b"])).toBe("a[0].b");
    expect(formatPath([{ key: "x" }, "y-z"])).toBe('x["y-z"]');
    expect(
      formatIssues([
        { message: "top" },
        { message: "deep", path: ["a", "b"] },
        { message: "one", path: ["a"] },
      ]),
    ).toBe("✖ top\n✖ one\n  → at a\n✖ deep\n  → at a.b");
  });

  it("recognises schemas structurally", () => {
    expect(isStandardSchema(z.string())).toBe(true);
    expect(isZodSchema(zm.string())).toBe(true);
    expect(isStandardSchema({ type: "object" })).toBe(false);
    expect(
      isZodSchema({ "~standard": { vendor: "valibot", version: 1, validate: () => ({ value: 1 }) } }),
    ).toBe(false);
  });
});
