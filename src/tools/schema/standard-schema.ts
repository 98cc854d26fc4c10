import { isStandardSchema, type StandardSchemaLike } from "../../shared/index.js";

export {
  isStandardSchema,
  type StandardIssue,
  type StandardResult,
  type StandardSchemaLike,
} from "../../shared/index.js";

/**
 * The parsed type of a schema: the output type of a Standard Schema, or
 * `Record<string, unknown>` for a plain JSON Schema object.
 *
 * @example
 * ```ts
 * type Args = InferSchemaOutput<typeof weatherSchema>; // { city: string }
 * ```
 */
export type InferSchemaOutput<S> =
  S extends StandardSchemaLike<infer Output> ? Output : Record<string, unknown>;

/**
 * The type a schema accepts before parsing (what a model's tool call carries): the input type of
 * a Standard Schema (its output type when it declares none), or `Record<string, unknown>` for a
 * plain JSON Schema object.
 *
 * @example
 * ```ts
 * type Raw = InferSchemaInput<typeof z.object({ n: z.coerce.number() })>; // { n: unknown }
 * ```
 */
export type InferSchemaInput<S> =
  S extends StandardSchemaLike<infer Output, infer Input>
    ? unknown extends Input
      ? Output
      : Input
    : Record<string, unknown>;

/**
 * A plain JSON Schema object (as sent to providers), e.g.
 * `{ type: "object", properties: { city: { type: "string" } }, required: ["city"] }`.
 *
 * @example
 * ```ts
 * const schema: JsonSchema = { type: "object", properties: { q: { type: "string" } } };
 * ```
 */
export type JsonSchema = Record<string, unknown>;

/**
 * True for a Zod 4 schema (classic or mini), from any copy of zod.
 *
 * @example
 * ```ts
 * isZodSchema(z.string()); // true
 * ```
 */
export function isZodSchema(value: unknown): value is StandardSchemaLike {
  return isStandardSchema(value) && value["~standard"].vendor === "zod" && "_zod" in value;
}
