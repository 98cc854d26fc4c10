/**
 * Replaces a reducer channel's value instead of folding into it.
 *
 * @example
 * ```ts
 * // with `items: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] })`
 * return { items: new Overwrite(["only this"]) };
 * ```
 */
/**
 * The JSON form of an {@link Overwrite} (LangGraph.js's `OverwriteValue`), which a reducer
 * channel takes as an `Overwrite` too.
 *
 * @example
 * ```ts
 * const update: OverwriteValue<string[]> = { __overwrite__: ["only this"] };
 * ```
 */
export interface OverwriteValue<Value> {
  __overwrite__: Value;
}

export class Overwrite<Value = unknown> {
  readonly lg_name = "Overwrite";
  /** The value written (an own property, as in LangGraph.js; {@link value} reads it). */
  readonly __overwrite__: Value;
  constructor(value: Value) {
    this.__overwrite__ = value;
  }
  /** The value written. */
  get value(): Value {
    return this.__overwrite__;
  }
  toJSON(): { __overwrite__: Value } {
    return { __overwrite__: this.__overwrite__ };
  }
  /**
   * True for an `Overwrite` from any copy of the library, or its JSON form (an object with an
   * `__overwrite__` key), as LangGraph.js's `Overwrite.isInstance` answers.
   *
   * @example
   * ```ts
   * Overwrite.isInstance(new Overwrite([])); // true
   * Overwrite.isInstance({ __overwrite__: [] }); // true
   * ```
   */
  static isInstance(value: unknown): value is Overwrite | { __overwrite__: unknown } {
    if (typeof value !== "object" || value === null) return false;
    if ("__overwrite__" in value) return true;
    return (value as { lg_name?: unknown }).lg_name === "Overwrite";
  }
}

/** If `value` is an {@link Overwrite} (or its JSON form `{ __overwrite__: v }`), its wrapped value. */
export function unwrapOverwrite(value: unknown): { overwrite: true; value: unknown } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  if (value instanceof Overwrite || (value as { lg_name?: unknown }).lg_name === "Overwrite") {
    return { overwrite: true, value: (value as Overwrite).value };
  }
  if (Object.hasOwn(value, "__overwrite__") && Object.keys(value).length === 1) {
    return { overwrite: true, value: (value as { __overwrite__: unknown }).__overwrite__ };
  }
  return undefined;
}
