import { isStandardSchema, isThenable, type StandardSchemaLike } from "../../shared/index.js";
import {
  type BaseChannel,
  BinaryOperatorAggregate,
  DeltaChannel,
  type DeltaReducer,
  isBaseChannel,
  LastValue,
  UntrackedValue,
  UntrackedValueChannel,
  type UntrackedValueOptions,
} from "../channels/index.js";
import {
  getSchemaDefaultGetter,
  InvalidGraphError,
  InvalidUpdateError,
  type Overwrite,
  type StandardSchemaInput,
  type StandardSchemaOutput,
  unwrapOverwrite,
} from "../core/index.js";

const REDUCED_VALUE = Symbol.for("langgraph.state.reduced_value");
const STATE_SCHEMA = Symbol.for("langgraph.state.state_schema");
const DELTA_VALUE = Symbol.for("langgraph.state.delta_value");

/** Options of {@link ReducedValue}: the reducer, and optionally the schema of its updates. */
export interface ReducedValueInit<Value = unknown, Input = Value> {
  /** Folds an update into the current value. */
  reducer: (current: Value, next: Input) => Value;
  /** Schema the updates are validated with (default: the value's schema). */
  inputSchema?: StandardSchemaLike<Input>;
  /** Extra JSON Schema for tooling (`{ langgraph_type: "messages" }`). */
  jsonSchemaExtra?: Record<string, unknown>;
}

/**
 * A {@link StateSchema} field combined by a reducer (LangGraph.js `ReducedValue`): the value's
 * schema gives its type and initial value (its default), updates are validated by
 * `inputSchema` (default: the value's schema) and folded in by `reducer`.
 *
 * @example
 * ```ts
 * const State = new StateSchema({
 *   count: new ReducedValue(z.number().default(0), { reducer: (a, b) => a + b }),
 * });
 * ```
 */
export class ReducedValue<Value = unknown, Input = Value> {
  readonly [REDUCED_VALUE] = true as const;
  readonly valueSchema: StandardSchemaLike<Value>;
  readonly inputSchema: StandardSchemaLike<Input | Value>;
  readonly reducer: (current: Value, next: Input) => Value;
  readonly jsonSchemaExtra: Record<string, unknown> | undefined;
  /** Type-level only: the field's value. */
  declare ValueType: Value;
  /** Type-level only: what an update may write. */
  declare InputType: Input;

  constructor(valueSchema: StandardSchemaLike<Value>, init: ReducedValueInit<Value, Input>) {
    if (!isStandardSchema(valueSchema)) {
      throw new InvalidGraphError(
        "new ReducedValue(schema, { reducer }) needs a schema (a Zod schema or another Standard Schema) as its first argument.",
      );
    }
    if (typeof init?.reducer !== "function") {
      throw new InvalidGraphError("new ReducedValue(schema, { reducer }) needs a `reducer` function.");
    }
    this.valueSchema = valueSchema;
    this.inputSchema = init.inputSchema ?? valueSchema;
    this.reducer = init.reducer;
    this.jsonSchemaExtra = init.jsonSchemaExtra;
  }

  /** True for a `ReducedValue` (from any copy of the library). */
  static isInstance(value: unknown): value is ReducedValue {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as Record<symbol, unknown>)[REDUCED_VALUE] === true
    );
  }
}

/** Options of {@link DeltaValue}: the batch reducer, and optionally the schema of its writes. */
export interface DeltaValueInit<Value = unknown, Input = Value> {
  /**
   * Folds a step's writes into the value in one call: `reducer(state, [w1, w2, ...])`. It must
   * be batching-invariant: `reducer(reducer(s, xs), ys)` equals `reducer(s, xs.concat(ys))`.
   */
  reducer: DeltaReducer<Value, Input>;
  /** Schema each write is validated with (default: the value's schema). */
  inputSchema?: StandardSchemaLike<Input>;
  /**
   * Accepted for LangGraph.js compatibility (a positive integer; the channel's default is 100).
   * It has no effect: agentgraph's savers store lists linearly already (ADR 0001).
   */
  snapshotFrequency?: number;
  /** Extra JSON Schema for tooling (`{ langgraph_type: "messages" }`). */
  jsonSchemaExtra?: Record<string, unknown>;
}

/**
 * A {@link StateSchema} field backed by a {@link DeltaChannel} (LangGraph.js `DeltaValue`): the
 * value's schema gives its type and initial value (its default; `[]` without one), writes are
 * validated by `inputSchema` (default: the value's schema), and a step's writes are folded in
 * by one call of the batch `reducer`. It behaves like a {@link ReducedValue} whose reducer takes
 * the step's writes at once; storage is the same (linear) either way in agentgraph.
 *
 * @example
 * ```ts
 * const State = new StateSchema({
 *   history: new DeltaValue(z.array(z.string()).default(() => []), {
 *     inputSchema: z.string(),
 *     reducer: (current, writes) => [...current, ...writes],
 *   }),
 * });
 * ```
 */
export class DeltaValue<Value = unknown, Input = Value> {
  readonly [DELTA_VALUE] = true as const;
  readonly valueSchema: StandardSchemaLike<Value>;
  readonly inputSchema: StandardSchemaLike<Input | Value>;
  readonly reducer: DeltaReducer<Value, Input>;
  readonly snapshotFrequency: number | undefined;
  readonly jsonSchemaExtra: Record<string, unknown> | undefined;
  /** Type-level only: the field's value. */
  declare ValueType: Value;
  /** Type-level only: what an update may write. */
  declare InputType: Input;

  constructor(valueSchema: StandardSchemaLike<Value>, init: DeltaValueInit<Value, Input>) {
    if (!isStandardSchema(valueSchema)) {
      throw new InvalidGraphError(
        "new DeltaValue(schema, { reducer }) needs a schema (a Zod schema or another Standard Schema) as its first argument.",
      );
    }
    if (typeof init?.reducer !== "function") {
      throw new InvalidGraphError(
        "new DeltaValue(schema, { reducer }) needs a `reducer` function `(state, writes) => newState`.",
      );
    }
    this.valueSchema = valueSchema;
    this.inputSchema = init.inputSchema ?? valueSchema;
    this.reducer = init.reducer;
    this.snapshotFrequency = init.snapshotFrequency;
    this.jsonSchemaExtra = init.jsonSchemaExtra;
  }

  /** True for a `DeltaValue` (from any copy of the library). */
  static isInstance(value: unknown): value is DeltaValue {
    return (
      typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[DELTA_VALUE] === true
    );
  }
}

/** What a {@link StateSchema} field may be. */
export type StateSchemaField =
  // biome-ignore lint/suspicious/noExplicitAny: any value and update types
  | ReducedValue<any, any>
  // biome-ignore lint/suspicious/noExplicitAny: any value and update types
  | DeltaValue<any, any>
  // biome-ignore lint/suspicious/noExplicitAny: any value type
  | UntrackedValue<any>
  // biome-ignore lint/suspicious/noExplicitAny: any schema
  | StandardSchemaLike<any, any>
  | BaseChannel;

/** The fields of a {@link StateSchema}. */
export type StateSchemaFields = { [key: string]: StateSchemaField };

/** The state a field holds. */
export type StateSchemaFieldValue<F> =
  F extends ReducedValue<infer V, infer _Input>
    ? V
    : F extends DeltaValue<infer V, infer _Input>
      ? V
      : F extends UntrackedValue<infer V>
        ? V
        : F extends BaseChannel<infer V, unknown, unknown>
          ? V
          : F extends StandardSchemaLike<unknown, unknown>
            ? StandardSchemaOutput<F>
            : never;

/** What an update may write to a field. */
export type StateSchemaFieldUpdate<F> =
  F extends ReducedValue<infer V, infer I>
    ? I | Overwrite<V>
    : F extends DeltaValue<infer V, infer I>
      ? I | Overwrite<V>
      : F extends UntrackedValue<infer V>
        ? V
        : F extends BaseChannel<unknown, infer U, unknown>
          ? U
          : F extends StandardSchemaLike<unknown, unknown>
            ? StandardSchemaInput<F>
            : never;

/** The state object of a schema's fields. */
export type InferStateSchemaValue<F extends StateSchemaFields> = {
  [K in keyof F]: StateSchemaFieldValue<F[K]>;
};
/** The updates a node may return: any subset of the fields. */
export type InferStateSchemaUpdate<F extends StateSchemaFields> = {
  [K in keyof F]?: StateSchemaFieldUpdate<F[K]>;
};

/**
 * A graph state declared field by field (LangGraph.js `StateSchema`, the form its docs prefer):
 * each field is a Standard Schema such as a Zod schema (a last-value field, its default the
 * initial value), a {@link ReducedValue} (combined by a reducer), a {@link DeltaValue} (combined
 * by a batch reducer), `MessagesValue` or `MessagesDeltaValue` (a messages list), an
 * `UntrackedValue` (never checkpointed), or a channel. Graph input and node updates
 * are validated field by field; `typeof State.State` is the state type and `typeof
 * State.Update` the update type.
 *
 * @example
 * ```ts
 * const State = new StateSchema({
 *   messages: MessagesValue,
 *   question: z.string(),
 *   steps: new ReducedValue(z.number().default(0), { reducer: (a, b) => a + b }),
 * });
 * const graph = new StateGraph(State).addNode("ask", (s) => ({ steps: 1 })).addEdge(START, "ask").compile();
 * ```
 */
export class StateSchema<Fields extends StateSchemaFields = StateSchemaFields> {
  readonly [STATE_SCHEMA] = true as const;
  readonly fields: Fields;
  /** Type-level only: the state. */
  declare State: InferStateSchemaValue<Fields>;
  /** Type-level only: a node's update. */
  declare Update: InferStateSchemaUpdate<Fields>;
  /** Type-level only: a node of this state. */
  declare Node: (
    state: InferStateSchemaValue<Fields>,
  ) => InferStateSchemaUpdate<Fields> | Promise<InferStateSchemaUpdate<Fields>>;

  constructor(fields: Fields) {
    if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
      throw new InvalidGraphError("new StateSchema({ ... }) needs an object of fields.");
    }
    for (const [key, field] of Object.entries(fields)) fieldKind(key, field);
    this.fields = fields;
  }

  /** One channel per field. */
  getChannels(): Record<string, BaseChannel> {
    const channels: Record<string, BaseChannel> = {};
    for (const [key, field] of Object.entries(this.fields)) {
      switch (fieldKind(key, field)) {
        case "reduced": {
          const reduced = field as ReducedValue;
          channels[key] = new BinaryOperatorAggregate(
            reduced.reducer,
            getSchemaDefaultGetter(reduced.valueSchema),
          );
          break;
        }
        case "delta": {
          const delta = field as DeltaValue;
          channels[key] = new DeltaChannel(delta.reducer, {
            snapshotFrequency: delta.snapshotFrequency,
            initialValueFactory: getSchemaDefaultGetter(delta.valueSchema),
          });
          break;
        }
        case "channel":
          // an UntrackedValue field runs in an UntrackedValueChannel, as LangGraph.js names it
          channels[key] =
            field instanceof UntrackedValue && !(field instanceof UntrackedValueChannel)
              ? untrackedChannelOf(field)
              : (field as BaseChannel);
          break;
        case "schema":
          channels[key] = new LastValue(getSchemaDefaultGetter(field));
          break;
      }
    }
    return channels;
  }

  /** The field names, in order. */
  getChannelKeys(): string[] {
    return Object.keys(this.fields);
  }

  /** The field names, in order (the same as {@link getChannelKeys}: every field is a channel). */
  getAllKeys(): string[] {
    return this.getChannelKeys();
  }

  /**
   * Validates the fields `data` holds (other keys pass through): a reduced field's update by
   * its input schema (an `Overwrite` by the value's schema), other fields by their schema.
   * Resolves to the validated values; rejects with `Validation failed for field "<key>": …`.
   */
  async validateInput<T>(data: T): Promise<T> {
    return this.validateSync(data);
  }

  /** @internal {@link validateInput}, for schemas that validate synchronously (the engine's path). */
  validateSync<T>(data: T): T {
    if (data === null || typeof data !== "object") return data;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(data)) out[key] = this.validateValue(key, value);
    return out as T;
  }

  /** @internal One field's update, validated (keys that are not fields pass through). */
  validateValue(key: string, value: unknown): unknown {
    const field = Object.hasOwn(this.fields, key) ? this.fields[key] : undefined;
    if (field === undefined) return value;
    if (ReducedValue.isInstance(field) || DeltaValue.isInstance(field)) {
      const overwrite = unwrapOverwrite(value);
      if (overwrite !== undefined) {
        return { __overwrite__: validateField(field.valueSchema, key, overwrite.value) };
      }
      return validateField(field.inputSchema, key, value);
    }
    if (field instanceof UntrackedValue) {
      return field.schema === undefined ? value : validateField(field.schema, key, value);
    }
    if (isBaseChannel(field)) return value;
    return validateField(field as StandardSchemaLike, key, value);
  }

  /** True for a `StateSchema` (from any copy of the library). */
  static isInstance(value: unknown): value is StateSchema {
    return (
      typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[STATE_SCHEMA] === true
    );
  }
}

function fieldKind(key: string, field: unknown): "reduced" | "delta" | "channel" | "schema" {
  if (ReducedValue.isInstance(field)) return "reduced";
  if (DeltaValue.isInstance(field)) return "delta";
  if (isBaseChannel(field)) return "channel";
  if (isStandardSchema(field)) return "schema";
  throw new InvalidGraphError(
    `Invalid state field "${key}": must be a schema, ReducedValue, DeltaValue, UntrackedValue, or a channel.`,
  );
}

/**
 * Validates one state field's value: the value the schema returns (defaults and transforms
 * applied), or an `InvalidUpdateError` with LangGraph.js's text, `Validation failed for field
 * "<key>": <issues as JSON>`. A schema that validates asynchronously cannot check state updates,
 * which the engine applies synchronously: that is an error naming the field.
 *
 * @internal Also how `createAgent` checks the Zod fields of its state (exported for it).
 */
export function validateField(schema: StandardSchemaLike, key: string, value: unknown): unknown {
  const result = schema["~standard"].validate(value);
  if (isThenable(result)) {
    throw new InvalidUpdateError(
      `The schema of state field "${key}" validates asynchronously, which state fields cannot: use a schema without async refinements or transforms.`,
    );
  }
  if (result.issues !== undefined) {
    throw new InvalidUpdateError(`Validation failed for field "${key}": ${JSON.stringify(result.issues)}`);
  }
  return result.value;
}

/**
 * A schema that validates and describes itself as JSON Schema (LangGraph.js
 * `SerializableSchema`): a Standard Schema that also implements Standard JSON Schema
 * (`~standard.jsonSchema`), as Zod 4 schemas do.
 */
export interface SerializableSchema<Input = unknown, Output = Input>
  extends StandardSchemaLike<Output, Input> {
  readonly "~standard": StandardSchemaLike<Output, Input>["~standard"] & {
    readonly jsonSchema: {
      input(options: { target: string; libraryOptions?: Record<string, unknown> }): Record<string, unknown>;
      output(options: { target: string; libraryOptions?: Record<string, unknown> }): Record<string, unknown>;
    };
  };
}

/**
 * True for a {@link SerializableSchema}: a Standard Schema (`~standard.validate`) that also
 * offers Standard JSON Schema (`~standard.jsonSchema`).
 *
 * @example
 * ```ts
 * isSerializableSchema(z.string()); // true
 * isSerializableSchema({ type: "string" }); // false
 * ```
 */
export function isSerializableSchema<Input = unknown, Output = Input>(
  schema: unknown,
): schema is SerializableSchema<Input, Output> {
  if (!isStandardSchema(schema)) return false;
  const std = schema["~standard"] as { jsonSchema?: unknown };
  return "jsonSchema" in std;
}

/**
 * The JSON Schema of a {@link SerializableSchema}'s input side (draft-07), as LangGraph.js's
 * `getJsonSchemaFromSchema` gives it; `undefined` for a schema without Standard JSON Schema or
 * one that cannot be converted.
 *
 * @example
 * ```ts
 * getJsonSchemaFromSchema(z.object({ city: z.string() }));
 * // { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { city: { type: "string" } }, ... }
 * ```
 */
export function getJsonSchemaFromSchema(schema: unknown): Record<string, unknown> | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const std = (schema as { "~standard"?: unknown })["~standard"];
  if (typeof std !== "object" || std === null || !("jsonSchema" in std)) return undefined;
  try {
    const converter = (std as { jsonSchema: { input: (options: { target: string }) => unknown } }).jsonSchema;
    return converter.input({ target: "draft-07" }) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function untrackedChannelOf(field: UntrackedValue): UntrackedValueChannel {
  const options: UntrackedValueOptions<unknown> = { guard: field.guard };
  if (field.initialValueFactory !== undefined) options.initialValueFactory = field.initialValueFactory;
  if (field.schema !== undefined) options.schema = field.schema;
  return new UntrackedValueChannel(options);
}
