import { type $input, type $output, type $replace, $ZodRegistry, type $ZodType } from "zod/v4/core";
import { type SchemaMeta, SchemaMetaRegistry, schemaMetaRegistry } from "../graph/index.js";

export { SchemaMetaRegistry, schemaMetaRegistry };

/**
 * The prefix of a field description that carries its `jsonSchemaExtra` as JSON (LangGraph.js
 * `META_EXTRAS_DESCRIPTION_PREFIX`): `lg:{"langgraph_type":"messages",...}`.
 */
export const META_EXTRAS_DESCRIPTION_PREFIX = "lg:";

/** A getter for the `.default(...)` of a Zod schema, if it has one (read from its definition). */
function zodDefault(schema: unknown): (() => unknown) | undefined {
  const def = (schema as { _zod?: { def?: { type?: string; defaultValue?: unknown } } })._zod?.def;
  if (def?.type !== "default") return undefined;
  return () => {
    const value = def.defaultValue;
    return typeof value === "function" ? (value as () => unknown)() : structuredClone(value);
  };
}

/**
 * A Zod registry over a {@link SchemaMetaRegistry} (LangGraph.js `LanggraphZodMetaRegistry`):
 * `schema.register(registry, meta)` stores the metadata where the graph builder reads it (both
 * share one map). Metadata registered without a `default` takes the schema's own `.default(...)`.
 *
 * @example
 * ```ts
 * const mine = new LanggraphZodMetaRegistry(schemaMetaRegistry);
 * const State = z.object({ notes: z.array(z.string()).default([]).register(mine, { reducer: { fn: (a, b) => a.concat(b) } }) });
 * ```
 */
type FieldMeta = SchemaMeta<$output, $input>;

export class LanggraphZodMetaRegistry extends $ZodRegistry<FieldMeta, $ZodType> {
  readonly parent: SchemaMetaRegistry;

  constructor(parent: SchemaMetaRegistry) {
    super();
    this.parent = parent;
    // one map: what is registered here is what the builder reads from the parent
    (this as unknown as { _map: WeakMap<object, SchemaMeta> })._map = parent._map;
  }

  override add<S extends $ZodType>(schema: S, ...meta: [$replace<FieldMeta, S>]): this {
    const first = meta[0] as SchemaMeta | undefined;
    if (first !== undefined && !first.default) {
      const fallback = zodDefault(schema);
      if (fallback !== undefined) first.default = fallback;
    }
    return super.add(schema, ...meta);
  }
}

/**
 * The registry that carries reducers and defaults of Zod state fields:
 * `field.register(registry, { reducer: { fn }, default })`. It works with the user's own copy of
 * Zod 4 (fields are recognised by shape, not class).
 */
export const registry: LanggraphZodMetaRegistry = new LanggraphZodMetaRegistry(schemaMetaRegistry);

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
