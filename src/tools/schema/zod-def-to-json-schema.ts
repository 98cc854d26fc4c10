import type { JsonSchema } from "./standard-schema.js";

interface ZodNode {
  _zod: { def: ZodDef };
}

interface ZodDef {
  type: string;
  shape?: Record<string, ZodNode>;
  innerType?: ZodNode;
  element?: ZodNode;
  options?: ZodNode[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  valueType?: ZodNode;
  in?: ZodNode;
  defaultValue?: unknown;
  format?: string;
}

type Registry = { get(schema: object): { description?: unknown } | undefined };

/**
 * Converts a Zod 4 schema that has no `toJSONSchema()` (zod/mini) by reading its definition:
 * objects, strings, numbers (integers), booleans, null, enums, literals, arrays, records,
 * unions, optional / nullable / default wrappers and pipes (input side), with descriptions
 * from zod's global registry. Anything else becomes `{}` (any value).
 *
 * @example
 * ```ts
 * zodDefToJsonSchema(zm.object({ n: zm.number() }));
 * // { type: "object", properties: { n: { type: "number" } }, required: ["n"] }
 * ```
 */
export function zodDefToJsonSchema(schema: object): JsonSchema {
  return convert(schema as ZodNode);
}

function convert(node: ZodNode): JsonSchema {
  const out = convertDef(node._zod.def);
  const registry = (globalThis as { __zod_globalRegistry?: Registry }).__zod_globalRegistry;
  const description = registry?.get(node)?.description;
  if (typeof description === "string") out.description = description;
  return out;
}

function convertDef(def: ZodDef): JsonSchema {
  switch (def.type) {
    case "object": {
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [key, value] of Object.entries(def.shape ?? {})) {
        properties[key] = convert(value);
        if (!isOptional(value)) required.push(key);
      }
      return required.length > 0 ? { type: "object", properties, required } : { type: "object", properties };
    }
    case "string":
    case "boolean":
    case "null":
      return { type: def.type };
    case "number":
      return { type: def.format?.includes("int") ? "integer" : "number" };
    case "enum":
      return enumSchema(Object.values(def.entries ?? {}));
    case "literal":
      return def.values?.length === 1
        ? { ...typeOf(def.values[0]), const: def.values[0] }
        : enumSchema(def.values ?? []);
    case "array":
      return def.element === undefined ? { type: "array" } : { type: "array", items: convert(def.element) };
    case "record":
      return def.valueType === undefined
        ? { type: "object" }
        : { type: "object", additionalProperties: convert(def.valueType) };
    case "union":
      return { anyOf: (def.options ?? []).map(convert) };
    case "optional":
      return def.innerType === undefined ? {} : convert(def.innerType);
    case "nullable":
      return def.innerType === undefined ? {} : { anyOf: [convert(def.innerType), { type: "null" }] };
    case "default":
      return def.innerType === undefined ? {} : { ...convert(def.innerType), default: def.defaultValue };
    case "pipe":
      return def.in === undefined ? {} : convert(def.in);
    default:
      return {};
  }
}

function isOptional(node: ZodNode): boolean {
  const type = node._zod.def.type;
  return type === "optional" || type === "default";
}

function enumSchema(values: unknown[]): JsonSchema {
  const types = [...new Set(values.map((v) => typeOf(v).type))];
  return types.length === 1 ? { type: types[0], enum: values } : { enum: values };
}

function typeOf(value: unknown): { type?: string } {
  if (typeof value === "string") return { type: "string" };
  if (typeof value === "number") return { type: "number" };
  if (typeof value === "boolean") return { type: "boolean" };
  if (value === null) return { type: "null" };
  return {};
}
