import type { $input, $output, $ZodRegistry, $ZodType } from "zod/v4/core";
import { type SchemaMeta, schemaMetaRegistry } from "../graph/index.js";

/**
 * The registry that carries reducers and defaults of Zod state fields:
 * `field.register(registry, { reducer: { fn }, default })`. It works with the user's own copy of
 * Zod 4 (it is recognised by shape, not class).
 */
export const registry: $ZodRegistry<
  SchemaMeta<$output, $input>,
  $ZodType
> = schemaMetaRegistry as unknown as $ZodRegistry<SchemaMeta<$output, $input>, $ZodType>;

/**
 * Attaches a reducer and/or a default to a Zod state field and returns the field.
 *
 * @example
 * ```ts
 * const State = z.object({
 *   items: withLangGraph(z.array(z.string()), { reducer: { fn: (a, b) => a.concat(b) }, default: () => [] }),
 * });
 * ```
 */
export function withLangGraph<Schema extends object, Value = unknown, Update = Value>(
  schema: Schema,
  meta: SchemaMeta<Value, Update>,
): Schema {
  schemaMetaRegistry.add(schema, meta as SchemaMeta);
  return schema;
}
