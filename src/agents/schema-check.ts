import { InvalidArgumentError, isCalendarDate, isMultipleOf, sameJsonValue } from "../shared/index.js";
import type { JsonSchema } from "../tools/index.js";

/**
 * Validation of structured output against its JSON Schema, with the wording and the order of
 * problems LangChain.js shows the model (it validates with `@cfworker/json-schema`, draft
 * 2019-09, stopping at the first bad property or item of each object or array): e.g.
 * `Instance does not have required property "city".`, `Property "city" does not match
 * schema.` followed by `Instance type "number" is invalid. Expected "string".`
 *
 * Covered: `$ref` (local pointers), `type`, `const`, `enum`, `not`, `anyOf`, `allOf`, `oneOf`,
 * `if`/`then`/`else`, the object keywords (`required`, `properties`, `patternProperties`,
 * `additionalProperties`, `propertyNames`, `min`/`maxProperties`, `dependentRequired`,
 * `dependentSchemas`, `dependencies`), the array keywords (`items`, `prefixItems`,
 * `additionalItems`, `contains`, `min`/`maxItems`, `uniqueItems`), numeric bounds and
 * `multipleOf`, string lengths, `pattern` and the common `format`s. Other keywords are ignored.
 *
 * @example
 * ```ts
 * schemaErrors({ type: "object", properties: { n: { type: "number" } }, required: ["n"] }, {});
 * // ['Instance does not have required property "n".']
 * ```
 */
export function schemaErrors(schema: JsonSchema, instance: unknown): string[] {
  return check(instance, schema, schema);
}

type Schema = Record<string, unknown>;

function kindOf(value: unknown): string {
  switch (typeof value) {
    case "boolean":
    case "number":
    case "string":
      return typeof value;
    case "object":
      if (value === null) return "null";
      return Array.isArray(value) ? "array" : "object";
    default:
      throw new InvalidArgumentError(`Instances of "${typeof value}" type are not supported.`);
  }
}

function check(instance: unknown, node: unknown, root: JsonSchema): string[] {
  if (node === true || node === undefined) return [];
  if (node === false) return ["False boolean schema."];
  if (typeof node !== "object" || node === null) return [];
  const s = node as Schema;
  const kind = kindOf(instance);
  const errors: string[] = [];

  if (typeof s.$ref === "string") {
    const inner = check(instance, resolveRef(root, s.$ref), root);
    if (inner.length > 0) errors.push("A subschema had errors.", ...inner);
  }
  checkType(s.type, instance, kind, errors);
  if (s.const !== undefined && !sameJsonValue(instance, s.const)) {
    errors.push(`Instance does not match ${JSON.stringify(s.const)}.`);
  }
  if (Array.isArray(s.enum) && !s.enum.some((option) => sameJsonValue(instance, option))) {
    errors.push(`Instance does not match any of ${JSON.stringify(s.enum)}.`);
  }
  if (s.not !== undefined && check(instance, s.not, root).length === 0) {
    errors.push('Instance matched "not" schema.');
  }
  combine(s.anyOf, instance, root, errors, (valid) => valid > 0, "Instance does not match any subschemas.");
  combine(
    s.allOf,
    instance,
    root,
    errors,
    (valid, total) => valid === total,
    "Instance does not match every subschema.",
  );
  if (Array.isArray(s.oneOf)) {
    const start = errors.length;
    let matches = 0;
    for (const sub of s.oneOf) {
      const inner = check(instance, sub, root);
      if (inner.length === 0) matches += 1;
      errors.push(...inner);
    }
    if (matches === 1) errors.length = start;
    else errors.splice(start, 0, `Instance does not match exactly one subschema (${matches} matches).`);
  }
  if (s.if !== undefined) {
    const branch = check(instance, s.if, root).length === 0 ? "then" : "else";
    if (s[branch] !== undefined) {
      const inner = check(instance, s[branch], root);
      if (inner.length > 0) errors.push(`Instance does not match "${branch}" schema.`, ...inner);
    }
  }

  if (kind === "object") checkObject(instance as Record<string, unknown>, s, root, errors);
  else if (kind === "array") checkArray(instance as unknown[], s, root, errors);
  else if (kind === "number") checkNumber(instance as number, s, errors);
  else if (kind === "string") checkString(instance as string, s, errors);
  return errors;
}

function checkType(type: unknown, instance: unknown, kind: string, errors: string[]): void {
  if (type === undefined) return;
  const integer = kind === "number" && Number.isInteger(instance);
  const matches = (t: unknown) => t === kind || (t === "integer" && integer);
  const valid = Array.isArray(type) ? type.some(matches) : type === "integer" ? integer : type === kind;
  if (valid) return;
  const expected = Array.isArray(type) ? type.join('", "') : String(type);
  errors.push(`Instance type "${kind}" is invalid. Expected "${expected}".`);
}

function combine(
  list: unknown,
  instance: unknown,
  root: JsonSchema,
  errors: string[],
  passes: (valid: number, total: number) => boolean,
  message: string,
): void {
  if (!Array.isArray(list)) return;
  const start = errors.length;
  let valid = 0;
  for (const sub of list) {
    const inner = check(instance, sub, root);
    if (inner.length === 0) valid += 1;
    errors.push(...inner);
  }
  if (passes(valid, list.length)) errors.length = start;
  else errors.splice(start, 0, message);
}

function checkObject(instance: Record<string, unknown>, s: Schema, root: JsonSchema, errors: string[]): void {
  const has = (key: string) => Object.hasOwn(instance, key);
  if (Array.isArray(s.required)) {
    for (const key of s.required as string[]) {
      if (!has(key)) errors.push(`Instance does not have required property "${key}".`);
    }
  }
  const keys = Object.keys(instance);
  if (typeof s.minProperties === "number" && keys.length < s.minProperties) {
    errors.push(`Instance does not have at least ${s.minProperties} properties.`);
  }
  if (typeof s.maxProperties === "number" && keys.length > s.maxProperties) {
    // (sic) the wording LangChain.js's validator uses for both bounds
    errors.push(`Instance does not have at least ${s.maxProperties} properties.`);
  }
  if (s.propertyNames !== undefined) {
    for (const key of keys) {
      const inner = check(key, s.propertyNames, root);
      if (inner.length > 0) errors.push(`Property name "${key}" does not match schema.`, ...inner);
    }
  }
  const requiredIf = (map: unknown) => {
    if (typeof map !== "object" || map === null) return;
    for (const [key, needs] of Object.entries(map)) {
      if (!has(key)) continue;
      if (Array.isArray(needs)) {
        for (const other of needs as string[]) {
          if (!has(other)) errors.push(`Instance has "${key}" but does not have "${other}".`);
        }
      } else {
        const inner = check(instance, needs, root);
        if (inner.length > 0)
          errors.push(`Instance has "${key}" but does not match dependant schema.`, ...inner);
      }
    }
  };
  requiredIf(s.dependentRequired);
  requiredIf(s.dependentSchemas);
  requiredIf(s.dependencies);

  const seen = new Set<string>();
  let stop = false;
  if (typeof s.properties === "object" && s.properties !== null) {
    for (const [key, sub] of Object.entries(s.properties as Record<string, unknown>)) {
      if (!has(key)) continue;
      seen.add(key);
      const inner = check(instance[key], sub, root);
      if (inner.length > 0) {
        errors.push(`Property "${key}" does not match schema.`, ...inner);
        stop = true;
        break;
      }
    }
  }
  if (!stop && typeof s.patternProperties === "object" && s.patternProperties !== null) {
    for (const [pattern, sub] of Object.entries(s.patternProperties as Record<string, unknown>)) {
      const regex = new RegExp(pattern, "u");
      for (const key of keys) {
        if (!regex.test(key)) continue;
        seen.add(key);
        const inner = check(instance[key], sub, root);
        if (inner.length > 0) {
          errors.push(
            `Property "${key}" matches pattern "${pattern}" but does not match associated schema.`,
            ...inner,
          );
          stop = true;
        }
      }
    }
  }
  if (!stop && s.additionalProperties !== undefined) {
    for (const key of keys) {
      if (seen.has(key)) continue;
      const inner = check(instance[key], s.additionalProperties, root);
      if (inner.length > 0)
        errors.push(`Property "${key}" does not match additional properties schema.`, ...inner);
    }
  }
}

function checkArray(instance: unknown[], s: Schema, root: JsonSchema, errors: string[]): void {
  const length = instance.length;
  if (typeof s.maxItems === "number" && length > s.maxItems) {
    errors.push(`Array has too many items (${length} > ${s.maxItems}).`);
  }
  if (typeof s.minItems === "number" && length < s.minItems) {
    errors.push(`Array has too few items (${length} < ${s.minItems}).`);
  }
  let i = 0;
  let stop = false;
  /** Checks items from `i` on against `schemaAt(i)` (until it has none), stopping at the first bad one. */
  const items = (
    schemaAt: (index: number) => unknown,
    count: number,
    message: string,
    breakOnError = true,
  ) => {
    for (; i < count; i += 1) {
      const inner = check(instance[i], schemaAt(i), root);
      if (inner.length === 0) continue;
      errors.push(message, ...inner);
      stop = true;
      // (the next keyword resumes at the bad item, as LangChain.js's validator does)
      if (breakOnError) return;
    }
  };
  if (Array.isArray(s.prefixItems)) {
    const prefix = s.prefixItems;
    items((index) => prefix[index], Math.min(prefix.length, length), "Items did not match schema.");
  }
  if (s.items !== undefined) {
    const list = s.items;
    if (Array.isArray(list)) {
      items((index) => list[index], Math.min(list.length, length), "Items did not match schema.");
    } else {
      items(() => list, length, "Items did not match schema.");
    }
    if (!stop && s.additionalItems !== undefined) {
      const extra = s.additionalItems;
      items(() => extra, length, "Items did not match additional items schema.", false);
    }
  }
  if (s.contains !== undefined) checkContains(instance, s, root, errors);
  if (s.uniqueItems === true) {
    for (let a = 0; a < length; a += 1) {
      for (let b = 0; b < length; b += 1) {
        if (a !== b && sameJsonValue(instance[a], instance[b])) {
          errors.push(`Duplicate items at indexes ${a} and ${b}.`);
          return;
        }
      }
    }
  }
}

function checkContains(instance: unknown[], s: Schema, root: JsonSchema, errors: string[]): void {
  const length = instance.length;
  const min = typeof s.minContains === "number" ? s.minContains : undefined;
  const max = typeof s.maxContains === "number" ? s.maxContains : undefined;
  if (length === 0 && min === undefined) {
    errors.push("Array is empty. It must contain at least one item matching the schema.");
    return;
  }
  if (min !== undefined && length < min) {
    errors.push(`Array has less items (${length}) than minContains (${min}).`);
    return;
  }
  const start = errors.length;
  let contained = 0;
  for (const item of instance) {
    const inner = check(item, s.contains, root);
    if (inner.length === 0) contained += 1;
    else errors.push(...inner);
  }
  if (contained >= (min ?? 0)) errors.length = start;
  if (min === undefined && contained === 0) {
    errors.splice(start, 0, "Array does not contain item matching schema.");
  } else if (min !== undefined && contained < min) {
    errors.push(
      `Array must contain at least ${min} items matching schema. Only ${contained} items were found.`,
    );
  } else if (max !== undefined && contained > max) {
    errors.push(`Array may contain at most ${max} items matching schema. ${contained} items were found.`);
  }
}

function checkNumber(instance: number, s: Schema, errors: string[]): void {
  if (typeof s.minimum === "number" && instance < s.minimum)
    errors.push(`${instance} is less than ${s.minimum}.`);
  if (typeof s.maximum === "number" && instance > s.maximum) {
    errors.push(`${instance} is greater than ${s.maximum}.`);
  }
  if (typeof s.exclusiveMinimum === "number" && instance <= s.exclusiveMinimum) {
    errors.push(`${instance} is less than ${s.exclusiveMinimum}.`);
  }
  if (typeof s.exclusiveMaximum === "number" && instance >= s.exclusiveMaximum) {
    errors.push(`${instance} is greater than or equal to ${s.exclusiveMaximum}.`);
  }
  if (typeof s.multipleOf === "number" && !isMultipleOf(instance, s.multipleOf)) {
    errors.push(`${instance} is not a multiple of ${s.multipleOf}.`);
  }
}

function checkString(instance: string, s: Schema, errors: string[]): void {
  if (typeof s.minLength === "number" || typeof s.maxLength === "number") {
    const length = [...instance].length;
    if (typeof s.minLength === "number" && length < s.minLength) {
      errors.push(`String is too short (${length} < ${s.minLength}).`);
    }
    if (typeof s.maxLength === "number" && length > s.maxLength) {
      errors.push(`String is too long (${length} > ${s.maxLength}).`);
    }
  }
  if (typeof s.pattern === "string" && !new RegExp(s.pattern, "u").test(instance)) {
    errors.push("String does not match pattern.");
  }
  if (typeof s.format === "string") {
    const test = FORMATS[s.format];
    if (test !== undefined && !test(instance)) errors.push(`String does not match format "${s.format}".`);
  }
}

const TIME = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?(z|[+-]\d{2}(?::?\d{2})?)?$/i;
const DURATION = /^P(?!$)((\d+Y)?(\d+M)?(\d+W)?(\d+D)?)(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/;
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const HOSTNAME =
  /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$/i;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const URI = /^[a-z][a-z0-9+.-]*:[^\s]*$/i;

function validTime(text: string): boolean {
  const m = TIME.exec(text);
  if (m === null) return false;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  const second = Number(m[3]);
  return hour <= 23 && minute <= 59 && second <= 60;
}

function validIpv6(text: string): boolean {
  if (!/^[0-9a-f:.]+$/i.test(text) || text.split("::").length > 2) return false;
  try {
    return new URL(`http://[${text}]`).hostname.length > 2;
  } catch {
    return false;
  }
}

const FORMATS: Record<string, (text: string) => boolean> = {
  date: isCalendarDate,
  time: validTime,
  "date-time": (text) => {
    const at = text.search(/[tT ]/);
    return at > 0 && isCalendarDate(text.slice(0, at)) && validTime(text.slice(at + 1));
  },
  duration: (text) => DURATION.test(text),
  email: (text) => EMAIL.test(text),
  hostname: (text) => HOSTNAME.test(text),
  ipv4: (text) => IPV4.test(text),
  ipv6: validIpv6,
  uuid: (text) => UUID.test(text),
  uri: (text) => URI.test(text),
  url: (text) => {
    try {
      new URL(text);
      return true;
    } catch {
      return false;
    }
  },
  regex: (text) => {
    try {
      new RegExp(text, "u");
      return true;
    } catch {
      return false;
    }
  },
};

function resolveRef(root: JsonSchema, ref: string): unknown {
  if (ref === "#") return root;
  if (ref.startsWith("#/")) {
    let node: unknown = root;
    for (const raw of ref.slice(2).split("/")) {
      const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      if (typeof node !== "object" || node === null || !Object.hasOwn(node, part)) {
        node = undefined;
        break;
      }
      node = (node as Record<string, unknown>)[part];
    }
    if (node !== undefined) return node;
  }
  throw new InvalidArgumentError(`Unresolved $ref "${ref}".`);
}
