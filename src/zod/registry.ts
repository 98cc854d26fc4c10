// the module the declaration below adds to, imported by a name the declaration uses so that the
// emitted types keep the import (an unused one is dropped, and the declaration then finds no module)
import type { ZodType as ZodTypeV4 } from "zod/v4";
import type * as core from "zod/v4/core";
import { type $input, type $output, type $replace, $ZodRegistry, type $ZodType } from "zod/v4/core";
import {
  type ReducedZodChannel,
  type SchemaMeta,
  SchemaMetaRegistry,
  schemaMetaRegistry,
} from "../graph/index.js";

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
export function withLangGraph<
  Schema extends object,
  Value = Schema extends { _zod: { output: infer Output } }
    ? Output
    : Schema extends { _output: infer Output } // a Zod 3 (`zod/v3`) schema
      ? Output
      : unknown,
  Update = Value,
>(
  schema: Schema,
  meta: SchemaMeta<NoInfer<Value>, Update>,
): ReducedZodChannel<Schema, $ZodType<Value, Update>> {
  schemaMetaRegistry.add(schema, meta as SchemaMeta);
  // as LangGraph.js: a field with a reducer carries the schema of its updates
  if (meta.reducer !== undefined) {
    Object.assign(schema, { lg_reducer_schema: meta.reducer.schema ?? schema });
  }
  return schema as ReducedZodChannel<Schema, $ZodType<Value, Update>>;
}

// `field.register(registry, meta)` types the field with its reducer's update type, as LangGraph.js
// declares it: a graph's updates (node returns, `invoke` input) then take what the reducer takes,
// e.g. message-likes for a field registered with `MessagesZodMeta`. Declared for `zod` and
// `zod/v4` (the same classes; LangGraph.js declares `zod/v4` only).
declare module "zod/v4" {
  interface ZodType<
    out Output = unknown,
    out Input = unknown,
    out Internals extends core.$ZodTypeInternals<Output, Input> = core.$ZodTypeInternals<Output, Input>,
  > extends core.$ZodType<Output, Input, Internals> {
    register<
      R extends LanggraphZodMetaRegistry,
      TOutput = core.output<this>,
      TInput = core.input<this>,
      TInternals extends core.$ZodTypeInternals<TOutput, TInput> = core.$ZodTypeInternals<TOutput, TInput>,
    >(
      registry: R,
      meta: SchemaMeta<NoInfer<TOutput>, TInput>,
    ): ReducedZodChannel<this, ZodTypeV4<TOutput, TInput, TInternals>>;
  }
}
