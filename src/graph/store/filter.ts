import { InvalidArgumentError } from "../../shared/index.js";

/**
 * Search filters: `{ field: value }` means deep equality, `{ field: { $op: operand } }`
 * applies operators. A field is a top-level key of the value, or a dotted path when the value
 * has no such key (`"meta.lang"` reaches `value.meta.lang`).
 */

const OPERATORS = new Set(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists"]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** True when `condition` is an operator object (`{ $gt: 1 }`), false for a plain value. */
function isOperatorObject(field: string, condition: unknown): condition is Record<string, unknown> {
  if (!isPlainObject(condition)) return false;
  const keys = Object.keys(condition);
  // an empty condition is an empty list of operators, which every value meets (LangGraph.js)
  if (keys.length === 0) return true;
  const operators = keys.filter((key) => key.startsWith("$"));
  if (operators.length === 0) return false;
  if (operators.length !== keys.length) {
    throw new InvalidArgumentError(
      `Search filter on "${field}" mixes operators and plain keys (${keys.join(", ")}). Use either operators ({ $gt: 1 }) or a value to compare for equality ({ $eq: { … } }).`,
    );
  }
  for (const operator of operators) {
    if (!OPERATORS.has(operator)) {
      throw new InvalidArgumentError(
        `Search filter on "${field}" uses the unknown operator ${operator}. Supported: ${[...OPERATORS].join(", ")}.`,
      );
    }
  }
  return true;
}

/**
 * Checks a search filter, throwing an `InvalidArgumentError` for unknown operators or operands
 * of the wrong kind, so that a mistake fails even when nothing is stored yet.
 *
 * @example
 * ```ts
 * validateFilter({ score: { $gte: 3 }, color: "red" }); // ok
 * validateFilter({ score: { $between: [1, 2] } }); // throws
 * ```
 */
export function validateFilter(filter: Record<string, unknown> | undefined): void {
  if (filter === undefined) return;
  if (!isPlainObject(filter)) {
    throw new InvalidArgumentError(
      `A search filter must be an object of field conditions, got ${Array.isArray(filter) ? "an array" : typeof filter}.`,
    );
  }
  for (const [field, condition] of Object.entries(filter)) {
    if (!isOperatorObject(field, condition)) continue;
    for (const operator of ["$in", "$nin"]) {
      if (operator in condition && !Array.isArray(condition[operator])) {
        throw new InvalidArgumentError(`Search filter on "${field}": ${operator} takes an array of values.`);
      }
    }
    if ("$exists" in condition && typeof condition.$exists !== "boolean") {
      throw new InvalidArgumentError(`Search filter on "${field}": $exists takes true or false.`);
    }
  }
}

/** The value at `field`: an own key, else a dotted path through own keys. */
function fieldValue(value: unknown, field: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  if (Object.hasOwn(value, field)) return (value as Record<string, unknown>)[field];
  if (!field.includes(".")) return undefined;
  let current: unknown = value;
  for (const part of field.split(".")) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/**
 * Deep equality of stored values: primitives by value (`NaN` equals `NaN`), Dates by time,
 * arrays element by element, Maps, Sets and objects entry by entry.
 *
 * @example
 * ```ts
 * valuesEqual({ a: [1, new Date(0)] }, { a: [1, new Date(0)] }); // true
 * ```
 */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => valuesEqual(item, b[i]));
  }
  if (Array.isArray(b)) return false;
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && Object.is(a.getTime(), b.getTime());
  }
  if (a instanceof Map || b instanceof Map) {
    if (!(a instanceof Map && b instanceof Map) || a.size !== b.size) return false;
    for (const [key, item] of a) if (!b.has(key) || !valuesEqual(item, b.get(key))) return false;
    return true;
  }
  if (a instanceof Set || b instanceof Set) {
    if (!(a instanceof Set && b instanceof Set) || a.size !== b.size) return false;
    for (const item of a) if (!b.has(item)) return false;
    return true;
  }
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  return keysA.every(
    (key) =>
      Object.hasOwn(b, key) &&
      valuesEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/**
 * The range operators compare as numbers, as LangGraph.js's stores do (`Number(actual) >
 * Number(operand)`): numeric strings count by their value, `null` as 0, a Date by its time; a
 * value with no numeric reading (`NaN`) meets no range.
 */
function compareNumbers(operator: string, actual: unknown, operand: unknown): boolean {
  const x = asNumber(actual);
  const y = asNumber(operand);
  if (operator === "$gt") return x > y;
  if (operator === "$gte") return x >= y;
  if (operator === "$lt") return x < y;
  return x <= y; // $lte
}

function asNumber(value: unknown): number {
  try {
    return Number(value);
  } catch {
    // a value without a numeric reading at all (a symbol, an object whose valueOf throws)
    return Number.NaN;
  }
}

function applyOperator(operator: string, actual: unknown, operand: unknown): boolean {
  switch (operator) {
    case "$eq":
      return valuesEqual(actual, operand);
    case "$ne":
      return !valuesEqual(actual, operand);
    case "$in":
      return (operand as unknown[]).some((candidate) => valuesEqual(actual, candidate));
    case "$nin":
      return !(operand as unknown[]).some((candidate) => valuesEqual(actual, candidate));
    case "$exists":
      return (actual !== undefined) === operand;
    default:
      return compareNumbers(operator, actual, operand);
  }
}

/**
 * True when a stored value meets every condition of a search filter (see
 * {@link validateFilter}); no filter matches everything.
 *
 * @example
 * ```ts
 * matchesFilter({ score: 4, color: "red" }, { score: { $gt: 3 }, color: "red" }); // true
 * ```
 */
export function matchesFilter(value: unknown, filter: Record<string, unknown> | undefined): boolean {
  if (filter === undefined) return true;
  for (const field in filter) {
    const condition = filter[field];
    const actual = fieldValue(value, field);
    if (isOperatorObject(field, condition)) {
      for (const operator in condition) {
        if (!applyOperator(operator, actual, condition[operator])) return false;
      }
    } else if (!valuesEqual(actual, condition)) {
      return false;
    }
  }
  return true;
}
