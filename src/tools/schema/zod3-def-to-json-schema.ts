import type { JsonSchema } from "./standard-schema.js";

interface Zod3Node {
  _def: Zod3Def;
  isOptional?: () => boolean;
  description?: string;
}

interface Zod3Check {
  kind: string;
  value?: unknown;
  inclusive?: boolean;
  regex?: RegExp;
}

interface Zod3Def {
  typeName: string;
  description?: string;
  shape?: () => Record<string, Zod3Node>;
  innerType?: Zod3Node;
  type?: Zod3Node;
  schema?: Zod3Node;
  in?: Zod3Node;
  options?: Zod3Node[] | Map<unknown, Zod3Node>;
  values?: unknown;
  value?: unknown;
  valueType?: Zod3Node;
  items?: Zod3Node[];
  checks?: Zod3Check[];
  minLength?: { value: number } | null;
  maxLength?: { value: number } | null;
  defaultValue?: () => unknown;
  unknownKeys?: string;
  catchall?: Zod3Node;
  getter?: () => Zod3Node;
}

/**
 * True for a Zod 3 schema (`zod@3`, or `zod/v3` of zod 4): it has a `_def.typeName` and no
 * Zod 4 internals.
 *
 * @example
 * ```ts
 * isZod3Schema(z3.object({})); // true
 * ```
 */
export function isZod3Schema(value: unknown): boolean {
  if (typeof value !== "object" || value === null || "_zod" in value) return false;
  const def = (value as { _def?: { typeName?: unknown } })._def;
  return typeof def?.typeName === "string";
}

/**
 * Converts a Zod 3 schema to JSON Schema by reading its definition (what LangChain.js does with
 * `zod-to-json-schema`), on the input side like Zod 4 schemas: objects, strings (with length,
 * pattern and format checks), numbers (integers, bounds), booleans, dates (as `date-time`
 * strings), null, enums, native enums, literals, arrays, tuples, records, unions, optional /
 * nullable / default wrappers, effects, pipes and lazy schemas, with descriptions. Anything else becomes
 * `{}` (any value).
 *
 * @example
 * ```ts
 * zod3DefToJsonSchema(z3.object({ city: z3.string().describe("City") }));
 * // { type: "object", properties: { city: { type: "string", description: "City" } }, required: ["city"] }
 * ```
 */
export function zod3DefToJsonSchema(schema: object): JsonSchema {
  return convert(schema as Zod3Node);
}

function convert(node: Zod3Node): JsonSchema {
  const def = node._def;
  const out = convertDef(def);
  if (def.description !== undefined && out.description === undefined) out.description = def.description;
  return out;
}

/**
 * True when an object property may be left out: when the schema accepts `undefined` (Zod 3's
 * `isOptional()`, so `z.any()` and `z.coerce.boolean()` too), as zod-to-json-schema decides; a
 * schema whose check throws counts as optional there too.
 */
function isOptional(node: Zod3Node): boolean {
  if (typeof node.isOptional === "function") {
    try {
      return node.isOptional();
    } catch {
      return true;
    }
  }
  const name = node._def.typeName;
  if (name === "ZodOptional" || name === "ZodDefault") return true;
  if (name === "ZodEffects" && node._def.schema !== undefined) return isOptional(node._def.schema);
  return false;
}

/** The JSON type of a Zod 3 primitive without checks (`ZodString` → `"string"`), else undefined. */
function plainPrimitive(node: Zod3Node): string | undefined {
  const type = PRIMITIVE_TYPES[node._def.typeName];
  return type !== undefined && (node._def.checks === undefined || node._def.checks.length === 0)
    ? type
    : undefined;
}

const PRIMITIVE_TYPES: Record<string, string> = {
  ZodString: "string",
  ZodNumber: "number",
  ZodBigInt: "integer",
  ZodBoolean: "boolean",
  ZodNull: "null",
};

/** The lazy schemas being converted, so that a recursive one ends. */
const LAZY_IN_PROGRESS = new Set<Zod3Def>();

function convertDef(def: Zod3Def): JsonSchema {
  switch (def.typeName) {
    case "ZodObject": {
      const shape = def.shape?.() ?? {};
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [key, child] of Object.entries(shape)) {
        properties[key] = convert(child);
        if (!isOptional(child)) required.push(key);
      }
      const schema: JsonSchema =
        required.length > 0 ? { type: "object", properties, required } : { type: "object", properties };
      // open objects stay open (as zod-to-json-schema writes them): a catchall's schema, or any
      // value for `passthrough`; strip and strict objects say nothing here
      const catchall = def.catchall;
      if (catchall !== undefined && catchall._def.typeName !== "ZodNever") {
        schema.additionalProperties = convert(catchall);
      } else if (def.unknownKeys === "passthrough") {
        schema.additionalProperties = true;
      }
      return schema;
    }
    case "ZodString":
      return withStringChecks({ type: "string" }, def.checks ?? []);
    case "ZodNumber":
      return withNumberChecks(def.checks ?? []);
    case "ZodBigInt":
      return { type: "integer" };
    case "ZodBoolean":
      return { type: "boolean" };
    case "ZodDate":
      return { type: "string", format: "date-time" };
    case "ZodNull":
      return { type: "null" };
    case "ZodEnum":
      return { type: "string", enum: [...(def.values as string[])] };
    case "ZodNativeEnum": {
      const values = def.values as Record<string, string | number>;
      // numeric enums map names to numbers and back: keep the values only
      const kept = Object.entries(values)
        .filter(([key]) => typeof values[values[key] as string] !== "number")
        .map(([, value]) => value);
      const types = [...new Set(kept.map((value) => (typeof value === "number" ? "number" : "string")))];
      return { type: types.length === 1 ? types[0] : types, enum: kept };
    }
    case "ZodLiteral": {
      const value = def.value;
      if (value === null) return { type: "null", const: null };
      return { type: typeof value === "number" ? "number" : typeof value, const: value };
    }
    case "ZodArray": {
      // an array of z.any() says nothing of its items, as zod-to-json-schema writes it
      const out: JsonSchema =
        def.type === undefined || def.type._def.typeName === "ZodAny"
          ? { type: "array" }
          : { type: "array", items: convert(def.type) };
      if (def.minLength) out.minItems = def.minLength.value;
      if (def.maxLength) out.maxItems = def.maxLength.value;
      return out;
    }
    case "ZodTuple": {
      const items = (def.items ?? []).map(convert);
      return { type: "array", minItems: items.length, maxItems: items.length, items };
    }
    case "ZodRecord":
      return {
        type: "object",
        additionalProperties: def.valueType === undefined ? {} : convert(def.valueType),
      };
    case "ZodUnion":
    case "ZodDiscriminatedUnion": {
      const options = def.options instanceof Map ? [...def.options.values()] : (def.options ?? []);
      return unionOf(options);
    }
    case "ZodOptional":
      return def.innerType === undefined ? {} : convert(def.innerType);
    case "ZodNullable": {
      if (def.innerType === undefined) return {};
      // a primitive without checks becomes a type list, as zod-to-json-schema writes it
      const type = plainPrimitive(def.innerType);
      return type !== undefined
        ? { type: [type, "null"] }
        : { anyOf: [convert(def.innerType), { type: "null" }] };
    }
    case "ZodDefault": {
      const inner: JsonSchema = def.innerType === undefined ? {} : convert(def.innerType);
      return def.defaultValue === undefined ? inner : { ...inner, default: def.defaultValue() };
    }
    case "ZodEffects":
      return def.schema === undefined ? {} : convert(def.schema);
    case "ZodLazy": {
      // a recursive schema stops at its second visit (any value there)
      if (typeof def.getter !== "function" || LAZY_IN_PROGRESS.has(def)) return {};
      LAZY_IN_PROGRESS.add(def);
      try {
        return convert(def.getter());
      } finally {
        LAZY_IN_PROGRESS.delete(def);
      }
    }
    case "ZodPipeline":
      return def.in === undefined ? {} : convert(def.in);
    case "ZodReadonly":
    case "ZodBranded":
    case "ZodCatch":
      return def.innerType === undefined
        ? def.type === undefined
          ? {}
          : convert(def.type)
        : convert(def.innerType);
    default:
      return {};
  }
}

/**
 * A union as zod-to-json-schema (LangChain.js's converter) writes it: primitives without checks
 * become one type list, literals without descriptions one `enum`, enums one merged `enum`,
 * anything else `anyOf`.
 */
function unionOf(options: Zod3Node[]): JsonSchema {
  const single = (types: unknown[]) => {
    const unique = [...new Set(types)];
    return unique.length === 1 ? unique[0] : unique;
  };
  const types = options.map(plainPrimitive);
  if (types.every((type) => type !== undefined)) return { type: single(types) };
  if (options.every((option) => option._def.typeName === "ZodLiteral" && option.description === undefined)) {
    const values = options.map((option) => option._def.value);
    const literalTypes = values.map(literalType);
    if (literalTypes.every((type) => type !== undefined)) {
      return { type: single(literalTypes), enum: [...new Set(values)] };
    }
  } else if (options.every((option) => option._def.typeName === "ZodEnum")) {
    const values = options.flatMap((option) => option._def.values as string[]);
    return { type: "string", enum: [...new Set(values)] };
  }
  return { anyOf: options.map(convert) };
}

/** The JSON type of a literal's value, as zod-to-json-schema names it (`undefined`: none). */
function literalType(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return typeof value;
    case "bigint":
      return "integer";
    default:
      return value === null ? "null" : undefined;
  }
}

function withStringChecks(out: JsonSchema, checks: Zod3Check[]): JsonSchema {
  for (const check of checks) {
    if (check.kind === "min") out.minLength = check.value;
    else if (check.kind === "max") out.maxLength = check.value;
    else if (check.kind === "length") {
      out.minLength = check.value;
      out.maxLength = check.value;
    } else if (check.kind === "regex" && check.regex !== undefined) out.pattern = check.regex.source;
    else if (check.kind === "email") out.format = "email";
    else if (check.kind === "url") out.format = "uri";
    else if (check.kind === "uuid") out.format = "uuid";
    else if (check.kind === "datetime") out.format = "date-time";
  }
  return out;
}

function withNumberChecks(checks: Zod3Check[]): JsonSchema {
  const out: JsonSchema = { type: checks.some((check) => check.kind === "int") ? "integer" : "number" };
  for (const check of checks) {
    if (check.kind === "min") {
      if (check.inclusive === false) out.exclusiveMinimum = check.value;
      else out.minimum = check.value;
    } else if (check.kind === "max") {
      if (check.inclusive === false) out.exclusiveMaximum = check.value;
      else out.maximum = check.value;
    } else if (check.kind === "multipleOf") out.multipleOf = check.value;
  }
  return out;
}
