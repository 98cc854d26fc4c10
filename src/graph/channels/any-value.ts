import { MISSING, SingleValueChannel } from "./base.js";

/**
 * Keeps the last of any number of writes in a superstep (assumes they are equal), and is
 * cleared after a step without writes.
 */
export class AnyValue<Value = unknown> extends SingleValueChannel<Value> {
  readonly lc_graph_name: string = "AnyValue";

  fromCheckpoint(snapshot?: Value): this {
    const channel = new AnyValue<Value>() as this;
    if (snapshot !== undefined) channel.value = snapshot;
    return channel;
  }

  update(values: Value[]): boolean {
    const n = values.length;
    if (n === 0) {
      if (this.value === MISSING) return false;
      this.value = MISSING;
      return true;
    }
    this.value = values[n - 1] as Value;
    return true;
  }
}
