import {
  type BaseChannel,
  type BinaryOperator,
  BinaryOperatorAggregate,
  LastValue,
} from "../channels/index.js";

/**
 * What a Zod field of graph state may carry: a reducer (and the schema of its updates), a
 * default, and extra JSON Schema for tooling. Attached with `.register(registry, meta)` or
 * `withLangGraph(schema, meta)` from `agentgraph/zod`.
 */
/**
 * The type of a Zod state field registered with metadata (LangGraph.js `ReducedZodChannel`):
 * `field.register(registry, { reducer })` returns the field typed with `lg_reducer_schema`, a
 * schema whose input is the reducer's update type, so a graph's update type takes what the
 * reducer takes (message-likes for `MessagesZodMeta`) rather than the field's own type. Type only.
 */
export type ReducedZodChannel<T, TReducerSchema> = T & { lg_reducer_schema: TReducerSchema };

export interface SchemaMeta<Value = unknown, Update = Value> {
  reducer?: { fn: BinaryOperator<Value, Update>; schema?: unknown };
  default?: () => Value;
  jsonSchemaExtra?: Record<string, unknown>;
}

/**
 * Where state-field metadata is kept, keyed by the field's schema object. Shaped like a Zod 4
 * registry (`add`, `get`, `has`, `remove`, `clear`), so `schema.register(registry, meta)` works
 * with the user's own copy of Zod; the engine never imports Zod.
 */
export class SchemaMetaRegistry {
  /** Field schema → metadata (named as in Zod's registries, which tools such as `z.toJSONSchema` read). */
  _map = new WeakMap<object, SchemaMeta>();
  /** Registered ids (unused; present for Zod registry compatibility). */
  _idmap = new Map<string, unknown>();
  /** Schemas made by {@link getExtendedChannelSchemas}, by effects and then by schema. */
  _extensionCache = new Map<string, WeakMap<object, object>>();

  add(schema: object, meta?: SchemaMeta): this {
    const stored: SchemaMeta = { ...meta };
    if (stored.default === undefined && stored.reducer !== undefined) {
      const fallback = zodDefaultGetter(schema);
      if (fallback !== undefined) stored.default = fallback;
    }
    this._map.set(schema, stored);
    return this;
  }

  get(schema: object): SchemaMeta | undefined {
    return this._map.get(schema);
  }

  has(schema: object): boolean {
    return this._map.has(schema);
  }

  /** Replaces a field's metadata with what `predicate` makes of the current one (LangGraph.js `extend`). */
  extend<Value, Update = Value>(
    schema: object,
    predicate: (meta: SchemaMeta<Value, Update> | undefined) => SchemaMeta<Value, Update>,
  ): void {
    this._map.set(
      schema,
      predicate(this._map.get(schema) as SchemaMeta<Value, Update> | undefined) as SchemaMeta,
    );
  }

  /** One channel per field of a Zod object schema, from the metadata registered here. */
  getChannelsForSchema(schema: object): Record<string, BaseChannel> {
    const channels: Record<string, BaseChannel> = {};
    for (const [key, field] of Object.entries(zodObjectShape(schema))) {
      const meta = typeof field === "object" && field !== null ? this.get(field) : undefined;
      channels[key] =
        meta?.reducer !== undefined
          ? new BinaryOperatorAggregate(meta.reducer.fn, meta.default)
          : new LastValue(meta?.default);
    }
    return channels;
  }

  /**
   * A Zod object schema with its fields changed (LangGraph.js `getExtendedChannelSchemas`):
   * `withReducerSchema` puts each reducer's update schema in place of its field,
   * `withJsonSchemaExtrasAsDescription` writes a field's `jsonSchemaExtra` (and description) into
   * its description as `lg:{...}`, `asPartial` makes every field optional. Cached per schema
   * and effects.
   */
  getExtendedChannelSchemas(schema: object, effects: ExtendedSchemaEffects): object {
    const names = (Object.keys(effects) as (keyof ExtendedSchemaEffects)[]).filter(
      (k) => effects[k] === true,
    );
    if (Object.keys(effects).length === 0) return schema;
    const cacheKey = names.sort().join("|");
    let cache = this._extensionCache.get(cacheKey);
    if (cache === undefined) {
      cache = new WeakMap();
      this._extensionCache.set(cacheKey, cache);
    }
    const cached = cache.get(schema);
    if (cached !== undefined) return cached;
    let modified = schema as ZodObjectSchemaMethods;
    if (effects.withReducerSchema === true || effects.withJsonSchemaExtrasAsDescription === true) {
      const shape: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(zodObjectShape(schema))) {
        const meta = typeof field === "object" && field !== null ? this.get(field) : undefined;
        let out = effects.withReducerSchema === true ? (meta?.reducer?.schema ?? field) : field;
        if (effects.withJsonSchemaExtrasAsDescription === true && meta?.jsonSchemaExtra !== undefined) {
          const description = descriptionOf(out) ?? descriptionOf(field);
          const describe = (out as { describe?: (text: string) => unknown }).describe;
          if (typeof describe === "function") {
            out = describe.call(out, `lg:${JSON.stringify({ ...meta.jsonSchemaExtra, description })}`);
          }
        }
        shape[key] = out;
      }
      if (typeof modified.extend === "function") modified = modified.extend(shape) as ZodObjectSchemaMethods;
    }
    if (effects.asPartial === true && typeof modified.partial === "function") {
      modified = modified.partial() as ZodObjectSchemaMethods;
    }
    cache.set(schema, modified);
    return modified;
  }

  remove(schema: object): this {
    this._map.delete(schema);
    return this;
  }

  clear(): this {
    this._map = new WeakMap();
    this._idmap = new Map();
    this._extensionCache = new Map();
    return this;
  }
}

/** What {@link SchemaMetaRegistry.getExtendedChannelSchemas} changes in a Zod object schema. */
export interface ExtendedSchemaEffects {
  /** Each field with a reducer takes the reducer's update schema (`reducer.schema`, when given). */
  withReducerSchema?: boolean;
  /** A field's `jsonSchemaExtra` goes into its description, as `lg:{...}`. */
  withJsonSchemaExtrasAsDescription?: boolean;
  /** Every field optional. */
  asPartial?: boolean;
}

type ZodObjectSchemaMethods = {
  extend?: (shape: Record<string, unknown>) => unknown;
  partial?: () => unknown;
};

/** A Zod schema's `.describe()` text, if it has one. */
function descriptionOf(schema: unknown): string | undefined {
  const description = (schema as { description?: unknown } | null)?.description;
  return typeof description === "string" ? description : undefined;
}

const REGISTRY_KEY = Symbol.for("agentgraph.zod.registry");

/** The process-wide registry (shared by every copy of the library). */
function sharedRegistry(): SchemaMetaRegistry {
  const holder = globalThis as Record<symbol, unknown>;
  const existing = holder[REGISTRY_KEY];
  if (typeof existing === "object" && existing !== null) return existing as SchemaMetaRegistry;
  const created = new SchemaMetaRegistry();
  holder[REGISTRY_KEY] = created;
  return created;
}

export const schemaMetaRegistry: SchemaMetaRegistry = sharedRegistry();

interface ZodLike {
  _zod?: {
    def?: { type?: string; shape?: Record<string, unknown>; defaultValue?: unknown; innerType?: unknown };
  };
  /** Zod 3 (`zod/v3`) definition. */
  _def?: { typeName?: unknown; defaultValue?: unknown; innerType?: unknown };
  shape?: Record<string, unknown>;
  parse?: (value: unknown) => unknown;
  safeParse?: (value: unknown) => { success: boolean; data?: unknown; error?: unknown };
}

/**
 * True for a Zod object schema, recognised by shape, not `instanceof`: Zod 4, or Zod 3
 * (`zod/v3`), which LangGraph.js also takes as state ("interop" Zod objects).
 */
export function isZodObjectSchema(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const z = value as ZodLike;
  if (z._zod !== undefined) return z._zod.def?.type === "object" && typeof z._zod.def.shape === "object";
  return z._def?.typeName === "ZodObject" && typeof z.shape === "object" && z.shape !== null;
}

/** The fields of a Zod object schema. */
export function zodObjectShape(schema: unknown): Record<string, unknown> {
  const z = schema as ZodLike;
  return (z._zod?.def?.shape ?? z.shape ?? {}) as Record<string, unknown>;
}

/** A getter for the `.default(...)` of a Zod schema (Zod 4 or 3), if it has one. */
export function zodDefaultGetter(schema: unknown): (() => unknown) | undefined {
  const z = schema as ZodLike;
  const def = z._zod?.def;
  if (def === undefined) {
    // Zod 3 keeps the default as a getter
    const v3 = z._def;
    if (v3?.typeName !== "ZodDefault" || typeof v3.defaultValue !== "function") return undefined;
    return v3.defaultValue as () => unknown;
  }
  if (def.type !== "default") return undefined;
  return () => {
    const value = (def as { defaultValue?: unknown }).defaultValue;
    return typeof value === "function" ? (value as () => unknown)() : structuredClone(value);
  };
}

/** A Zod schema without its outer `.default(...)` (the schema itself when it has none). */
export function stripZodDefault(schema: unknown): unknown {
  const z = schema as ZodLike;
  const def = z._zod?.def;
  if (def === undefined) {
    const v3 = z._def;
    return v3?.typeName === "ZodDefault" && v3.innerType !== undefined ? v3.innerType : schema;
  }
  if (def.type !== "default" || def.innerType === undefined) return schema;
  return def.innerType;
}

/** One channel per field of a Zod object schema, using the reducers and defaults registered for the fields. */
export function channelsFromZodObject(schema: unknown): Record<string, BaseChannel> {
  const channels: Record<string, BaseChannel> = {};
  for (const [key, field] of Object.entries(zodObjectShape(schema))) {
    const meta = typeof field === "object" && field !== null ? schemaMetaRegistry.get(field) : undefined;
    channels[key] =
      meta?.reducer !== undefined
        ? new BinaryOperatorAggregate(meta.reducer.fn, meta.default)
        : new LastValue(meta?.default);
  }
  return channels;
}
