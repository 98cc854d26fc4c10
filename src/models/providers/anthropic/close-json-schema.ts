import { InvalidArgumentError } from "../../../shared/index.js";

/** String formats the API's structured outputs accept. */
const STRING_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "uri",
  "ipv4",
  "ipv6",
  "uuid",
]);

type Schema = Record<string, unknown>;

/**
 * A JSON Schema in the form Anthropic's structured outputs take (the `@anthropic-ai/sdk`
 * helper's rules, which `@langchain/anthropic` applies): every object closed
 * (`additionalProperties: false`), `oneOf` read as `anyOf`, only the keywords the API knows
 * kept, and the others written into the `description` as `{key: value, …}` so the model still
 * sees them. A schema with neither a `type` nor `anyOf`/`oneOf`/`allOf` is refused.
 *
 * @example
 * ```ts
 * closeJsonSchema({ type: "object", properties: { n: { type: "integer", minimum: 1 } } });
 * // { type: "object", properties: { n: { type: "integer", description: "{minimum: 1}" } }, additionalProperties: false }
 * ```
 */
export function closeJsonSchema(schema: Schema): Schema {
  return close(structuredClone(schema));
}

function close(input: Schema): Schema {
  const rest: Schema = { ...input };
  const take = (key: string): unknown => {
    const value = rest[key];
    delete rest[key];
    return value;
  };
  const out: Schema = {};
  const ref = take("$ref");
  if (ref !== undefined) return { $ref: ref };
  const defs = take("$defs");
  if (typeof defs === "object" && defs !== null) {
    out.$defs = Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, close(def as Schema)]));
  }
  const type = take("type");
  const anyOf = take("anyOf");
  const oneOf = take("oneOf");
  const allOf = take("allOf");
  if (Array.isArray(anyOf)) out.anyOf = anyOf.map((s) => close(s as Schema));
  else if (Array.isArray(oneOf)) out.anyOf = oneOf.map((s) => close(s as Schema));
  else if (Array.isArray(allOf)) out.allOf = allOf.map((s) => close(s as Schema));
  else if (type === undefined) {
    throw new InvalidArgumentError("JSON schema must have a type defined if anyOf/oneOf/allOf are not used");
  } else out.type = type;
  const description = take("description");
  if (description !== undefined) out.description = description;
  const title = take("title");
  if (title !== undefined) out.title = title;
  if (type === "object") {
    const properties = (take("properties") ?? {}) as Record<string, Schema>;
    out.properties = Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, close(s)]));
    take("additionalProperties");
    out.additionalProperties = false;
    const required = take("required");
    if (required !== undefined) out.required = required;
  } else if (type === "string") {
    const format = take("format");
    if (typeof format === "string" && STRING_FORMATS.has(format)) out.format = format;
    else if (format !== undefined) rest.format = format;
  } else if (type === "array") {
    const items = take("items");
    if (items !== undefined) out.items = close(items as Schema);
    const minItems = take("minItems");
    if (minItems === 0 || minItems === 1) out.minItems = minItems;
    else if (minItems !== undefined) rest.minItems = minItems;
  }
  const others = Object.entries(rest);
  if (others.length > 0) {
    const noted = `{${others.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(", ")}}`;
    out.description =
      typeof out.description === "string" && out.description !== ""
        ? `${out.description}\n\n${noted}`
        : noted;
  }
  return out;
}
