import { isMultipleOf, sameJsonValue } from "../../shared/index.js";
import type { JsonSchema } from "./standard-schema.js";
import { isFormat } from "./string-formats.js";

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
 * Checks a value against a plain JSON Schema, accepting what LangChain.js's validator
 * (`@cfworker/json-schema`, draft 2019-09) accepts: `type` (including `integer` and type lists),
 * `enum`, `const`, `not`, `anyOf`/`oneOf`/`allOf`, `if`/`then`/`else`, `properties`,
 * `required`, `additionalProperties`, `patternProperties`, `propertyNames`,
 * `minProperties`/`maxProperties`, `dependentRequired`, `dependentSchemas`, `dependencies`,
 * `items` (a schema or a list), `prefixItems`, `additionalItems`, `contains` (with
 * `minContains`/`maxContains`), `uniqueItems`, numeric bounds (`exclusiveMinimum`/`Maximum`,
 * `multipleOf`), lengths (in code points), `pattern`, the common string `format`s and local
 * `$ref`s (`#/$defs/…`, `#/definitions/…`). Unknown keywords and formats are ignored. Each
 * problem is reported with its path.
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

type Path = Array<string | number>;

function check(
  schema: unknown,
  value: unknown,
  path: Path,
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
  if (typeof s.$ref === "string") check(resolveRef(root, s.$ref), value, path, root, issues);
  if (s.type !== undefined && !matchesType(s.type, value)) {
    const expected = Array.isArray(s.type) ? s.type.join(" | ") : String(s.type);
    issues.push({ message: `Invalid input: expected ${expected}, received ${typeName(value)}`, path });
    return;
  }
  if (Array.isArray(s.enum) && !s.enum.some((option) => sameJsonValue(option, value))) {
    const options = s.enum.map((option) => JSON.stringify(option)).join("|");
    issues.push({ message: `Invalid option: expected one of ${options}`, path });
  }
  if (s.const !== undefined && !sameJsonValue(s.const, value)) {
    issues.push({ message: `Invalid input: expected ${JSON.stringify(s.const)}`, path });
  }
  checkCombinators(s, value, path, root, issues);
  if (isPlainObject(value)) checkObject(s, value, path, root, issues);
  else if (Array.isArray(value)) checkArray(s, value, path, root, issues);
  else if (typeof value === "number") checkNumber(s, value, path, issues);
  else if (typeof value === "string") checkString(s, value, path, issues);
}

function checkCombinators(
  s: Record<string, unknown>,
  value: unknown,
  path: Path,
  root: JsonSchema,
  issues: JsonSchemaIssue[],
): void {
  if (s.not !== undefined && passes(s.not, value, root)) {
    issues.push({ message: "Invalid input: must not match the schema", path });
  }
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) check(sub, value, path, root, issues);
  if (Array.isArray(s.anyOf) && !s.anyOf.some((sub) => passes(sub, value, root))) {
    issues.push({ message: "Invalid input: matches none of the allowed schemas", path });
  }
  if (Array.isArray(s.oneOf)) {
    const matches = s.oneOf.filter((sub) => passes(sub, value, root)).length;
    if (matches === 0) issues.push({ message: "Invalid input: matches none of the allowed schemas", path });
    else if (matches > 1) {
      issues.push({ message: `Invalid input: matches ${matches} of the schemas where one is allowed`, path });
    }
  }
  if (s.if !== undefined) {
    const branch = passes(s.if, value, root) ? s.then : s.else;
    if (branch !== undefined) check(branch, value, path, root, issues);
  }
}

function checkObject(
  s: Record<string, unknown>,
  value: Record<string, unknown>,
  path: Path,
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
  const keys = Object.keys(value);
  if (typeof s.minProperties === "number" && keys.length < s.minProperties) {
    issues.push({ message: `Too small: expected object to have >=${s.minProperties} properties`, path });
  }
  if (typeof s.maxProperties === "number" && keys.length > s.maxProperties) {
    issues.push({ message: `Too big: expected object to have <=${s.maxProperties} properties`, path });
  }
  if (s.propertyNames !== undefined) {
    for (const key of keys) {
      if (!passes(s.propertyNames, key, root)) issues.push({ message: `Invalid key: "${key}"`, path });
    }
  }
  checkDependencies(s, value, path, root, issues);
  const patterns = isPlainObject(s.patternProperties)
    ? Object.entries(s.patternProperties).map(([pattern, sub]) => [new RegExp(pattern, "u"), sub] as const)
    : [];
  for (const key of keys) {
    const item = value[key];
    let known = false;
    if (Object.hasOwn(properties, key)) {
      known = true;
      if (item !== undefined) check(properties[key], item, [...path, key], root, issues);
    }
    for (const [pattern, sub] of patterns) {
      if (!pattern.test(key)) continue;
      known = true;
      check(sub, item, [...path, key], root, issues);
    }
    if (known) continue;
    if (s.additionalProperties === false) issues.push({ message: `Unrecognized key: "${key}"`, path });
    else if (typeof s.additionalProperties === "object") {
      check(s.additionalProperties, item, [...path, key], root, issues);
    }
  }
}

function checkDependencies(
  s: Record<string, unknown>,
  value: Record<string, unknown>,
  path: Path,
  root: JsonSchema,
  issues: JsonSchemaIssue[],
): void {
  const requires = (key: string, needed: unknown) => {
    if (!Array.isArray(needed)) return;
    for (const other of needed) {
      if (typeof other === "string" && !Object.hasOwn(value, other)) {
        issues.push({ message: `Invalid input: "${key}" requires "${other}"`, path: [...path, other] });
      }
    }
  };
  for (const keyword of ["dependentRequired", "dependentSchemas", "dependencies"] as const) {
    const map = s[keyword];
    if (!isPlainObject(map)) continue;
    for (const [key, dependency] of Object.entries(map)) {
      if (!Object.hasOwn(value, key)) continue;
      if (Array.isArray(dependency)) requires(key, dependency);
      else if (keyword !== "dependentRequired") check(dependency, value, path, root, issues);
    }
  }
}

function checkArray(
  s: Record<string, unknown>,
  value: unknown[],
  path: Path,
  root: JsonSchema,
  issues: JsonSchemaIssue[],
): void {
  checkLength(s, value.length, "array", "items", path, issues);
  let i = 0;
  if (Array.isArray(s.prefixItems)) {
    for (; i < Math.min(s.prefixItems.length, value.length); i++) {
      check(s.prefixItems[i], value[i], [...path, i], root, issues);
    }
  }
  if (Array.isArray(s.items)) {
    for (; i < Math.min(s.items.length, value.length); i++)
      check(s.items[i], value[i], [...path, i], root, issues);
    // `additionalItems` applies after a list of `items` only
    if (s.additionalItems !== undefined) {
      for (; i < value.length; i++) check(s.additionalItems, value[i], [...path, i], root, issues);
    }
  } else if (s.items !== undefined) {
    for (; i < value.length; i++) check(s.items, value[i], [...path, i], root, issues);
  }
  if (s.contains !== undefined) checkContains(s, value, path, root, issues);
  if (s.uniqueItems === true) {
    const twice = value.findIndex((item, j) => value.findIndex((other) => sameJsonValue(other, item)) !== j);
    if (twice >= 0)
      issues.push({ message: "Invalid input: array items must be unique", path: [...path, twice] });
  }
}

function checkContains(
  s: Record<string, unknown>,
  value: unknown[],
  path: Path,
  root: JsonSchema,
  issues: JsonSchemaIssue[],
): void {
  const min = typeof s.minContains === "number" ? s.minContains : undefined;
  const max = typeof s.maxContains === "number" ? s.maxContains : undefined;
  // as @cfworker/json-schema counts: an array shorter than `minContains` fails outright, and
  // `maxContains` is checked only when `minContains` is met
  const found =
    min !== undefined && value.length < min
      ? 0
      : value.filter((item) => passes(s.contains, item, root)).length;
  if (min === undefined && found === 0) {
    issues.push({ message: "Invalid input: expected the array to contain a matching item", path });
  } else if (min !== undefined && found < min) {
    issues.push({ message: `Too small: expected array to contain >=${min} matching items`, path });
  } else if (max !== undefined && found > max) {
    issues.push({ message: `Too big: expected array to contain <=${max} matching items`, path });
  }
}

function checkNumber(s: Record<string, unknown>, value: number, path: Path, issues: JsonSchemaIssue[]): void {
  const num = (key: string) => (typeof s[key] === "number" ? (s[key] as number) : undefined);
  const min = num("minimum");
  const max = num("maximum");
  const exclusiveMin = num("exclusiveMinimum");
  const exclusiveMax = num("exclusiveMaximum");
  const multipleOf = num("multipleOf");
  if (min !== undefined && value < min)
    issues.push({ message: `Too small: expected number to be >=${min}`, path });
  if (max !== undefined && value > max)
    issues.push({ message: `Too big: expected number to be <=${max}`, path });
  if (exclusiveMin !== undefined && value <= exclusiveMin) {
    issues.push({ message: `Too small: expected number to be >${exclusiveMin}`, path });
  }
  if (exclusiveMax !== undefined && value >= exclusiveMax) {
    issues.push({ message: `Too big: expected number to be <${exclusiveMax}`, path });
  }
  if (multipleOf !== undefined && !isMultipleOf(value, multipleOf)) {
    issues.push({ message: `Invalid number: must be a multiple of ${multipleOf}`, path });
  }
}

function checkString(s: Record<string, unknown>, value: string, path: Path, issues: JsonSchemaIssue[]): void {
  if (s.minLength !== undefined || s.maxLength !== undefined) {
    checkLength(s, codePoints(value), "string", "characters", path, issues);
  }
  if (typeof s.pattern === "string" && !new RegExp(s.pattern, "u").test(value)) {
    issues.push({ message: `Invalid string: must match pattern ${s.pattern}`, path });
  }
  if (typeof s.format === "string" && isFormat(s.format, value) === false) {
    issues.push({ message: `Invalid string: must match format ${s.format}`, path });
  }
}

function checkLength(
  s: Record<string, unknown>,
  length: number,
  what: "string" | "array",
  unit: string,
  path: Path,
  issues: JsonSchemaIssue[],
): void {
  const min = s[what === "string" ? "minLength" : "minItems"];
  const max = s[what === "string" ? "maxLength" : "maxItems"];
  if (typeof min === "number" && length < min) {
    issues.push({ message: `Too small: expected ${what} to have >=${min} ${unit}`, path });
  }
  if (typeof max === "number" && length > max) {
    issues.push({ message: `Too big: expected ${what} to have <=${max} ${unit}`, path });
  }
}

/** True when `value` fits `schema` (a subschema tried by a combinator). */
function passes(schema: unknown, value: unknown, root: JsonSchema): boolean {
  const issues: JsonSchemaIssue[] = [];
  check(schema, value, [], root, issues);
  return issues.length === 0;
}

function resolveRef(root: JsonSchema, ref: string): unknown {
  if (!ref.startsWith("#")) return true; // remote refs are not followed
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
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
      return typeof value === "number";
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

/** A string's length in code points, as JSON Schema counts it (an emoji is one). */
function codePoints(value: string): number {
  let length = value.length;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
