import { InvalidUpdateError, unwrapOverwrite } from "../core/index.js";
import { MISSING, SingleValueChannel } from "./base.js";

/** A reducer: folds one update into the current value. */
export type BinaryOperator<Value, Update = Value> = (current: Value, update: Update) => Value;

/**
 * Folds every write into the value with a reducer: `value = reducer(value, write)`, in the
 * deterministic order of the writing tasks. The first write to an empty channel (no default)
 * is stored as is. An `Overwrite` write replaces the value instead (one per superstep).
 * This is the channel of `Annotation<T>({ reducer, default })`.
 */
export class BinaryOperatorAggregate<Value = unknown, Update = Value> extends SingleValueChannel<
  Value,
  Update
> {
  readonly lc_graph_name: string = "BinaryOperatorAggregate";
  readonly operator: BinaryOperator<Value, Update>;
  readonly initialValueFactory: (() => Value) | undefined;

  constructor(operator: BinaryOperator<Value, Update>, initialValueFactory?: () => Value) {
    super();
    this.operator = operator;
    this.initialValueFactory = initialValueFactory;
    this.value = initialValueFactory === undefined ? MISSING : initialValueFactory();
  }

  override get clearsWhenIdle(): boolean {
    return false;
  }

  fromCheckpoint(snapshot?: Value): this {
    const channel = new BinaryOperatorAggregate(this.operator, this.initialValueFactory) as this;
    if (snapshot !== undefined) channel.value = snapshot;
    return channel;
  }

  update(values: Update[]): boolean {
    const n = values.length;
    if (n === 0) return false;
    let start = 0;
    if (this.value === MISSING) {
      const first = values[0];
      const overwrite = unwrapOverwrite(first);
      this.value = (overwrite === undefined ? first : overwrite.value) as Value;
      start = 1;
    }
    let overwritten = false;
    for (let i = start; i < n; i++) {
      const incoming = values[i] as Update;
      const overwrite = unwrapOverwrite(incoming);
      if (overwrite !== undefined) {
        if (overwritten) {
          throw new InvalidUpdateError(
            "Can receive only one Overwrite value per step. Two tasks wrote `new Overwrite(...)` to this key in the same superstep; let one of them write it.",
          );
        }
        this.value = overwrite.value as Value;
        overwritten = true;
      } else if (!overwritten) {
        this.value = this.operator(this.value as Value, incoming);
      }
    }
    return true;
  }
}
