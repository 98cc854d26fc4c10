import {
  isStandardSchema,
  isThenable,
  type StandardResult,
  type StandardSchemaLike,
} from "../../shared/index.js";

/** The output type of a Standard Schema (what validation returns). */
export type StandardSchemaOutput<S> = S extends StandardSchemaLike<infer O, unknown> ? O : unknown;
/** The input type of a Standard Schema (what it accepts). */
export type StandardSchemaInput<S> = S extends StandardSchemaLike<unknown, infer I> ? I : unknown;

/** What a schema makes of a missing value, when it accepts one synchronously. */
function defaultOf(schema: StandardSchemaLike): { value: unknown } | undefined {
  let result: unknown;
  try {
    result = schema["~standard"].validate(undefined);
  } catch {
    return undefined;
  }
  if (isThenable(result) || typeof result !== "object" || result === null) return undefined;
  const checked = result as StandardResult<unknown>;
  return checked.issues === undefined ? { value: checked.value } : undefined;
}

/**
 * The default of a schema: what it makes of a missing value (`z.number().default(0)` → `0`), as a
 * getter; `undefined` when the schema rejects a missing value or validates asynchronously.
 * LangGraph.js derives a state field's initial value this way. Each call validates again, so
 * a mutable default (`z.array(z.string()).default(() => [])`) is a fresh value every time.
 */
export function getSchemaDefaultGetter(schema: unknown): (() => unknown) | undefined {
  if (!isStandardSchema(schema)) return undefined;
  const first = defaultOf(schema);
  if (first === undefined) return undefined;
  return () => (defaultOf(schema) ?? first).value;
}
