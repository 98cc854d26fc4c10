import { InvalidArgumentError } from "../../shared/index.js";
import { isStandardSchema, isZodSchema, type JsonSchema } from "./standard-schema.js";
import { zodDefToJsonSchema } from "./zod-def-to-json-schema.js";
import { isZod3Schema, zod3DefToJsonSchema } from "./zod3-def-to-json-schema.js";

type ZodLike = { toJSONSchema?: (params: Record<string, unknown>) => unknown };
type StandardJsonSchema = { input?: (options: Record<string, unknown>) => unknown };

/**
 * Converts a tool or output schema to the JSON Schema sent to providers.
 *
 * Zod 4 schemas are converted by their own zod copy (`schema.toJSONSchema()`, or the Standard
 * JSON Schema hook), or, for zod/mini and Zod 3 (`zod/v3`), by reading the schema definition; always from the
 * *input* side, so fields with defaults are optional
 * and no `additionalProperties: false` is added; the top-level `$schema` key is dropped. A
 * plain JSON Schema object is returned as a copy without `$schema`.
 *
 * @example
 * ```ts
 * toJsonSchema(z.object({ city: z.string() }));
 * // { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
 * ```
 */
export function toJsonSchema(schema: unknown): JsonSchema {
  // Zod 3 (`zod/v3`) before the Standard Schema check: older Zod 3 releases lack `~standard`
  if (isZod3Schema(schema)) return zod3DefToJsonSchema(schema as object);
  if (isStandardSchema(schema)) return dropSchemaKey(standardToJsonSchema(schema));
  if (typeof schema === "object" && schema !== null && !Array.isArray(schema)) {
    return dropSchemaKey(schema as JsonSchema);
  }
  throw new InvalidArgumentError(
    `Expected a Zod 4 schema or a JSON Schema object, got ${schema === null ? "null" : typeof schema}. ` +
      'Pass e.g. `z.object({ city: z.string() })` or `{ type: "object", properties: { … } }`.',
  );
}

function standardToJsonSchema(schema: object): JsonSchema {
  const zodLike = schema as ZodLike;
  if (typeof zodLike.toJSONSchema === "function") {
    return asObject(zodLike.toJSONSchema({ io: "input", unrepresentable: "any" }));
  }
  const std = (schema as { "~standard": { vendor: string; jsonSchema?: StandardJsonSchema } })["~standard"];
  if (typeof std.jsonSchema?.input === "function") {
    return asObject(
      std.jsonSchema.input({ target: "draft-2020-12", libraryOptions: { unrepresentable: "any" } }),
    );
  }
  if (isZodSchema(schema)) return zodDefToJsonSchema(schema);
  throw new InvalidArgumentError(
    `Cannot convert this ${std.vendor} schema to JSON Schema: it offers neither toJSONSchema() nor ` +
      "the Standard JSON Schema interface. Pass a Zod schema or a plain JSON Schema object instead.",
  );
}

function asObject(value: unknown): JsonSchema {
  if (typeof value === "object" && value !== null) return value as JsonSchema;
  throw new InvalidArgumentError("The schema converted to a non-object JSON Schema; use an object schema.");
}

function dropSchemaKey(schema: JsonSchema): JsonSchema {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

/**
 * Returns a copy of a JSON Schema in the form OpenAI's strict mode requires: every object
 * node closes with `additionalProperties: false` unless it says otherwise.
 *
 * @example
 * ```ts
 * toStrictJsonSchema({ type: "object", properties: { a: { type: "string" } } });
 * // { type: "object", properties: { a: { type: "string" } }, additionalProperties: false }
 * ```
 */
export function toStrictJsonSchema(schema: JsonSchema): JsonSchema {
  return mapJsonSchema(schema, closeObject) as JsonSchema;
}

/** Keys whose values are data, not schemas. */
const LITERAL_KEYS = new Set(["default", "const", "enum", "examples", "required"]);

/**
 * Rebuilds a JSON Schema bottom-up: every object in it is copied (data keywords such as
 * `default`, `enum` and `required` as they are, the names under `properties`, `$defs` and
 * `definitions` kept) and, once its own subschemas are done, passed through `visit`.
 *
 * @example
 * ```ts
 * mapJsonSchema(schema, (node) => ({ ...node, description: undefined }));
 * ```
 */
export function mapJsonSchema(
  node: unknown,
  visit: (node: Record<string, unknown>) => Record<string, unknown>,
): unknown {
  if (Array.isArray(node)) return node.map((item) => mapJsonSchema(item, visit));
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (LITERAL_KEYS.has(key)) {
      out[key] = value;
      continue;
    }
    // `properties`, `$defs` and `definitions` map names to schemas; keep the names as they are.
    out[key] =
      (key === "properties" || key === "$defs" || key === "definitions") && typeof value === "object" && value
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapJsonSchema(v, visit)]))
        : mapJsonSchema(value, visit);
  }
  return visit(out);
}

function closeObject(node: Record<string, unknown>): Record<string, unknown> {
  if ((node.type === "object" || "properties" in node) && !("additionalProperties" in node)) {
    node.additionalProperties = false;
  }
  return node;
}
