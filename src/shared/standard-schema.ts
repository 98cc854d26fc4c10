/**
 * Structural view of a schema object that follows the Standard Schema interface
 * (`~standard`), which Zod 4 (classic and mini), Valibot and ArkType implement. Schemas are
 * recognised by shape, never with `instanceof`, so a user's own copy of zod works.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * const schema: StandardSchemaLike<{ city: string }> = z.object({ city: z.string() });
 * ```
 */
export interface StandardSchemaLike<Output = unknown, Input = unknown> {
  readonly "~standard": {
    readonly version: number;
    readonly vendor: string;
    validate(value: unknown): StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/**
 * One validation problem reported by a Standard Schema.
 *
 * @example
 * ```ts
 * const issue: StandardIssue = { message: "Required", path: ["city"] };
 * ```
 */
export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/**
 * What `~standard.validate` returns: the value, or the issues.
 *
 * @example
 * ```ts
 * const result: StandardResult<{ city: string }> = await schema["~standard"].validate(input);
 * if (result.issues === undefined) console.log(result.value.city);
 * ```
 */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardIssue> };

/**
 * True for any object implementing Standard Schema (`~standard.validate`).
 *
 * @example
 * ```ts
 * isStandardSchema(z.object({})); // true
 * isStandardSchema({ type: "object" }); // false
 * ```
 */
export function isStandardSchema(value: unknown): value is StandardSchemaLike {
  if (typeof value !== "object" || value === null) return false;
  const std = (value as { "~standard"?: unknown })["~standard"];
  return (
    typeof std === "object" && std !== null && typeof (std as { validate?: unknown }).validate === "function"
  );
}
