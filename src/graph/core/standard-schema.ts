import { isStandardSchema, type StandardResult, type StandardSchemaLike } from "../../shared/index.js";

/** The output type of a Standard Schema (what validation returns). */
export type StandardSchemaOutput<S> = S extends StandardSchemaLike<infer O, unknown> ? O : unknown;
/** The input type of a Standard Schema (what it accepts). */
export type StandardSchemaInput<S> = S extends StandardSchemaLike<unknown, infer I> ? I : unknown;

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * The default of a schema: what it makes of a missing value (`z.number().default(0)` → `0`), as a
 * getter; `undefined` when the schema rejects a missing value or validates asynchronously.
 * LangGraph.js derives a state field's initial value this way.
 */
export function getSchemaDefaultGetter(schema: unknown): (() => unknown) | undefined {
  if (!isStandardSchema(schema)) return undefined;
  let result: unknown;
  try {
    result = schema["~standard"].validate(undefined);
  } catch {
    return undefined;
  }
  if (isPromiseLike(result) || typeof result !== "object" || result === null) return undefined;
  const checked = result as StandardResult<unknown>;
  if (checked.issues !== undefined) return undefined;
  const value = checked.value;
  return () => value;
}
