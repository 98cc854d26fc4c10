import { isStandardSchema, type StandardSchemaLike } from "../../shared/index.js";
import { getSchemaDefaultGetter, InvalidUpdateError } from "../core/index.js";
import { BaseChannel, emptyChannel, MISSING, type Missing } from "./base.js";

/** Options of {@link UntrackedValue}. */
/** The options of an `UntrackedValue` state field (`new UntrackedValue(schema, init)`), as LangGraph.js names them. */
export interface UntrackedValueInit {
  /** Reject several writes in one superstep (default `true`); otherwise keep the last. */
  guard?: boolean;
}

export interface UntrackedValueOptions<Value> {
  /** Reject several writes in one superstep (default `true`); otherwise keep the last. */
  guard?: boolean;
  /** Value the channel starts with in every run. */
  initialValueFactory?: () => Value;
  /** The schema of the state field the channel holds (`new UntrackedValue(schema)`). */
  schema?: StandardSchemaLike<Value>;
}

/**
 * A value that lives only for the current run: it is never checkpointed (nor are writes to
 * it stored), so it may hold things that cannot or should not be saved — a client, a cache,
 * a secret.
 *
 * It is also the `UntrackedValue` field type of a {@link StateSchema}, as in LangGraph.js:
 * `new UntrackedValue(schema?, { guard })`, whose schema (a Standard Schema such as a Zod
 * schema) types the field and gives its initial value from its default.
 *
 * @example
 * ```ts
 * const State = new StateSchema({ cache: new UntrackedValue(z.record(z.string(), z.string())) });
 * const channel = new UntrackedValue<number>({ guard: false, initialValueFactory: () => 0 });
 * ```
 */
export class UntrackedValue<Value = unknown> extends BaseChannel<Value, Value, undefined> {
  readonly lc_graph_name: string = "UntrackedValue";
  readonly guard: boolean;
  readonly initialValueFactory: (() => Value) | undefined;
  /** The field's schema, when made as a state field (`new UntrackedValue(schema)`). */
  readonly schema: StandardSchemaLike<Value> | undefined;
  private value: Value | Missing;

  constructor(options?: UntrackedValueOptions<Value>);
  constructor(schema: StandardSchemaLike<Value> | undefined, init?: UntrackedValueInit);
  constructor(
    schemaOrOptions: StandardSchemaLike<Value> | UntrackedValueOptions<Value> | undefined = {},
    init?: UntrackedValueInit,
  ) {
    super();
    // `new UntrackedValue(schema?, { guard })` (a state field) or `new UntrackedValue(options)`
    const options: UntrackedValueOptions<Value> =
      isStandardSchema(schemaOrOptions) || init !== undefined
        ? withSchema(schemaOrOptions as StandardSchemaLike<Value> | undefined, init?.guard)
        : ((schemaOrOptions ?? {}) as UntrackedValueOptions<Value>);
    this.schema = options.schema;
    this.guard = options.guard ?? true;
    this.initialValueFactory = options.initialValueFactory;
    this.value = this.initialValueFactory === undefined ? MISSING : this.initialValueFactory();
  }

  override get clearsWhenIdle(): boolean {
    return false;
  }

  fromCheckpoint(): this {
    const options: UntrackedValueOptions<Value> = { guard: this.guard };
    if (this.initialValueFactory !== undefined) options.initialValueFactory = this.initialValueFactory;
    if (this.schema !== undefined) options.schema = this.schema;
    const Made = this.constructor as new (options: UntrackedValueOptions<Value>) => this;
    return new Made(options);
  }

  update(values: Value[]): boolean {
    const n = values.length;
    if (n === 0) return false;
    if (n !== 1 && this.guard) {
      throw new InvalidUpdateError(
        "UntrackedValue(guard=true) can receive only one value per step. Use guard=false if you want to store any one of multiple values.",
        { lc_error_code: "INVALID_CONCURRENT_GRAPH_UPDATE" },
      );
    }
    this.value = values[n - 1] as Value;
    return true;
  }

  get(): Value {
    const value = this.value;
    return value === MISSING ? emptyChannel() : value;
  }

  checkpoint(): undefined {
    return undefined;
  }

  isAvailable(): boolean {
    return this.value !== MISSING;
  }
}

/**
 * The channel of an `UntrackedValue` state field (LangGraph.js's `UntrackedValueChannel`, the
 * class `graph.channels` shows for such a field); it behaves as {@link UntrackedValue}.
 */
export class UntrackedValueChannel<Value = unknown> extends UntrackedValue<Value> {}

/** The options of a state field's channel: its schema, and the schema's default as its initial value. */
function withSchema<Value>(
  schema: StandardSchemaLike<Value> | undefined,
  guard: boolean | undefined,
): UntrackedValueOptions<Value> {
  const options: UntrackedValueOptions<Value> = {};
  if (guard !== undefined) options.guard = guard;
  if (schema === undefined) return options;
  options.schema = schema;
  const initial = getSchemaDefaultGetter(schema) as (() => Value) | undefined;
  if (initial !== undefined) options.initialValueFactory = initial;
  return options;
}
