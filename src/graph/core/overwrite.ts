/**
 * Replaces a reducer channel's value instead of folding into it.
 *
 * @example
 * ```ts
 * // with `items: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] })`
 * return { items: new Overwrite(["only this"]) };
 * ```
 */
export class Overwrite<Value = unknown> {
  readonly lg_name = "Overwrite";
  readonly value: Value;
  constructor(value: Value) {
    this.value = value;
  }
  toJSON(): { __overwrite__: Value } {
    return { __overwrite__: this.value };
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
