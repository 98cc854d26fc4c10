import { InvalidUpdateError } from "../core/index.js";
import { MISSING, SingleValueChannel } from "./base.js";

/**
 * Holds the last value written. At most one write per superstep: two nodes writing the same
 * key in one step is a bug in the graph (give the key a reducer instead), reported as an
 * `InvalidUpdateError`. This is the channel of `Annotation<T>()`.
 */
export class LastValue<Value = unknown> extends SingleValueChannel<Value> {
  readonly lc_graph_name: string = "LastValue";
  readonly initialValueFactory: (() => Value) | undefined;

  constructor(initialValueFactory?: () => Value) {
    super();
    this.initialValueFactory = initialValueFactory;
    this.value = initialValueFactory === undefined ? MISSING : initialValueFactory();
  }

  override get clearsWhenIdle(): boolean {
    return false;
  }

  fromCheckpoint(snapshot?: Value): this {
    const channel = new (this.constructor as new (f?: () => Value) => this)(this.initialValueFactory);
    if (snapshot !== undefined) channel.value = snapshot;
    return channel;
  }

  update(values: Value[]): boolean {
    const n = values.length;
    if (n === 0) return false;
    if (n !== 1) {
      throw new InvalidUpdateError("LastValue can only receive one value per step.", {
        lc_error_code: "INVALID_CONCURRENT_GRAPH_UPDATE",
      });
    }
    this.value = values[0] as Value;
    return true;
  }
}
