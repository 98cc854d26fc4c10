import { isStandardSchema, type StandardSchemaLike } from "../../shared/index.js";
import { getSchemaDefaultGetter, InvalidUpdateError } from "../core/index.js";

import { BaseChannel, emptyChannel, MISSING, type Missing } from "./base.js";

/** Options of {@link UntrackedValue}. */
export interface UntrackedValueOptions<Value> {
  /** Reject several writes in one superstep (default `true`); otherwise keep the last. */
  guard?: boolean;
  /** Value the channel starts with in every run. */
  initialValueFactory?: () => Value;
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
  constructor(schema: StandardSchemaLike<Value> | undefined, init?: { guard?: boolean });
  constructor(
    schemaOrOptions: StandardSchemaLike<Value> | UntrackedValueOptions<Value> | undefined = {},
    init?: { guard?: boolean },
  ) {
    super();
    if (isStandardSchema(schemaOrOptions) || init !== undefined) {
      const schema = isStandardSchema(schemaOrOptions)
        ? (schemaOrOptions as StandardSchemaLike<Value>)
        : undefined;
      this.schema = schema;
      this.guard = init?.guard ?? true;
      this.initialValueFactory = getSchemaDefaultGetter(schema) as (() => Value) | undefined;
    } else {
      const options = (schemaOrOptions ?? {}) as UntrackedValueOptions<Value>;
      this.schema = undefined;
      this.guard = options.guard ?? true;
      this.initialValueFactory = options.initialValueFactory;
    }
    this.value = this.initialValueFactory === undefined ? MISSING : this.initialValueFactory();
  }

  override get clearsWhenIdle(): boolean {
    return false;
  }

  fromCheckpoint(): this {
    if (this.schema !== undefined)
      return new UntrackedValue<Value>(this.schema, { guard: this.guard }) as this;
    const options: UntrackedValueOptions<Value> = { guard: this.guard };
    if (this.initialValueFactory !== undefined) options.initialValueFactory = this.initialValueFactory;
    return new UntrackedValue<Value>(options) as this;
  }

  update(values: Value[]): boolean {
    const n = values.length;
    if (n === 0) return false;
    if (n !== 1 && this.guard) {
      throw new InvalidUpdateError(
        "UntrackedValue(guard=true) can receive only one value per step. Use guard=false if you want to store any one of multiple values.",
        { code: "INVALID_CONCURRENT_GRAPH_UPDATE" },
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
