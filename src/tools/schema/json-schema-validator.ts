import type { JsonSchema } from "./standard-schema.js";

/**
 * A problem found by {@link validateJsonSchema}, in the Standard Schema issue shape.
 *
 * @example
 * ```ts
 * const issue: JsonSchemaIssue = { message: "Invalid input: expected string, received number", path: ["q"] };
 * ```
 */
export interface JsonSchemaIssue {
  message: string;
  path: Array<string | number>;
}

/**
 * Checks a value against a plain JSON Schema. Covers what tool schemas use: `type`
 * (including `integer` and type lists), `enum`, `const`, `properties`, `required`,
 * `additionalProperties`, `items`, `anyOf`/`oneOf`/`allOf`, numeric and length bounds,
 * `pattern`, and local `$ref`s (`#/$defs/…`, `#/definitions/…`). Unknown keywords are ignored.
 *
 * @example
 * ```ts
 * validateJsonSchema({ type: "object", properties: { q: { type: "string" } }, required: ["q"] }, {});
 * // [{ message: "Invalid input: expected string, received undefined", path: ["q"] }]
 * ```
 */
export function validateJsonSchema(schema: JsonSchema, value: unknown): JsonSchemaIssue[] {
  const issues: JsonSchemaIssue[] = [];
  check(schema, value, [], schema, issues);
  return issues;
}

function check(
  schema: unknown,
  value: unknown,
  path: Array<string | number>,
  root: JsonSchema,
  issues: JsonSchemaIssue[],
): void {
  if (schema === true || schema === undefined) return;
  if (schema === false) {
    issues.push({ message: "Invalid input: no value is allowed here", path });
    return;
  }
  if (typeof schema !== "object" || schema === null) return;
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === "string") {
    check(resolveRef(root, s.$ref), value, path, root, issues);
  }
  if (s.type !== undefined && !matchesType(s.type, value)) {
    const expected = Array.isArray(s.type) ? s.type.join(" | ") : String(s.type);
    issues.push({ message: `Invalid input: expected ${expected}, received ${typeName(value)}`, path });
    return;
  }
  if (Array.isArray(s.enum) && !s.enum.some((option) => deepEqual(option, value))) {
    const options = s.enum.map((option) => JSON.stringify(option)).join("|");
    issues.push({ message: `Invalid option: expected one of ${options}`, path });
  }
  if ("const" in s && !deepEqual(s.const, value)) {
    issues.push({ message: `Invalid input: expected ${JSON.stringify(s.const)}`, path });
  }
  checkCombinators(s, value, path, root, issues);
  checkBounds(s, value, path, issues);
  if (isPlainObject(value)) checkObject(s, value, path, root, issues);
  if (Array.isArray(value) && s.items !== undefined && !Array.isArray(s.items)) {
    value.forEach((item, i) => {
      check(s.items, item, [...path, i], root, issues);
    });
  }
}

function checkObject(
  s: Record<string, unknown>,
  value: Record<string, unknown>,
  path: Array<string | number>,
  root: JsonSchema,
  issues: JsonSchemaIssue[],
): void {
  const properties = isPlainObject(s.properties) ? s.properties : {};
  if (Array.isArray(s.required)) {
    for (const key of s.required) {
      if (typeof key === "string" && value[key] === undefined) {
        const expected = (properties[key] as { type?: unknown } | undefined)?.type;
        const what = typeof expected === "string" ? expected : "a value";
        issues.push({ message: `Invalid input: expected ${what}, received undefined`, path: [...path, key] });
      }
    }
  }
  for (const [key, item] of Object.entries(value)) {
    if (key in properties) {
      if (item !== undefined) check(properties[key], item, [...path, key], root, issues);
    } else if (s.additionalProperties === false) {
      issues.push({ message: `Unrecognized key: "${key}"`, path });
    } else if (typeof s.additionalProperties === "object") {
      check(s.additionalProperties, item, [...path, key], root, issues);
    }
  }
}

function checkCombinators(
  s: Record<string, unknown>,
  value: unknown,
  path: Array<string | number>,
  root: JsonSchema,
  issues: JsonSchemaIssue[],
): void {
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) check(sub, value, path, root, issues);
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = s[key];
    if (!Array.isArray(options)) continue;
    const matches = options.some((sub) => validateJsonSchemaFrom(sub, value, root).length === 0);
    if (!matches) issues.push({ message: "Invalid input: matches none of the allowed schemas", path });
  }
}

function checkBounds(
  s: Record<string, unknown>,
  value: unknown,
  path: Array<string | number>,
  issues: JsonSchemaIssue[],
): void {
  const num = (key: string) => (typeof s[key] === "number" ? (s[key] as number) : undefined);
  if (typeof value === "number") {
    const min = num("minimum");
    const max = num("maximum");
    if (min !== undefined && value < min)
      issues.push({ message: `Too small: expected number to be >=${min}`, path });
    if (max !== undefined && value > max)
      issues.push({ message: `Too big: expected number to be <=${max}`, path });
  }
  const length = typeof value === "string" ? value.length : Array.isArray(value) ? value.length : undefined;
  if (length !== undefined) {
    const what = typeof value === "string" ? "string" : "array";
    const unit = typeof value === "string" ? "characters" : "items";
    const min = num(typeof value === "string" ? "minLength" : "minItems");
    const max = num(typeof value === "string" ? "maxLength" : "maxItems");
    if (min !== undefined && length < min) {
      issues.push({ message: `Too small: expected ${what} to have >=${min} ${unit}`, path });
    }
    if (max !== undefined && length > max) {
      issues.push({ message: `Too big: expected ${what} to have <=${max} ${unit}`, path });
    }
  }
  if (typeof value === "string" && typeof s.pattern === "string" && !new RegExp(s.pattern, "u").test(value)) {
    issues.push({ message: `Invalid string: must match pattern ${s.pattern}`, path });
  }
}

function validateJsonSchemaFrom(schema: unknown, value: unknown, root: JsonSchema): JsonSchemaIssue[] {
  const issues: JsonSchemaIssue[] = [];
  check(schema, value, [], root, issues);
  return issues;
}

function resolveRef(root: JsonSchema, ref: string): unknown {
  if (!ref.startsWith("#")) return true; // remote refs are not followed
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").filter(Boolean)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    node = isPlainObject(node) ? node[key] : undefined;
  }
  return node;
}

function matchesType(type: unknown, value: unknown): boolean {
  if (Array.isArray(type)) return type.some((t) => matchesType(t, value));
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isPlainObject(value);
    default:
      return true;
  }
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
