import { BaseChannel, emptyChannel, MISSING, type Missing } from "./base.js";

/**
 * Keeps the last of any number of writes in a superstep (assumes they are equal), and is
 * cleared after a step without writes.
 */
export class AnyValue<Value = unknown> extends BaseChannel<Value, Value, Value> {
  readonly lc_graph_name: string = "AnyValue";
  private value: Value | Missing = MISSING;

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

  get(): Value {
    const value = this.value;
    return value === MISSING ? emptyChannel() : value;
  }

  checkpoint(): Value | undefined {
    const value = this.value;
    return value === MISSING ? undefined : value;
  }

  isAvailable(): boolean {
    return this.value !== MISSING;
  }
}
