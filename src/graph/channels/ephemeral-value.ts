import { InvalidUpdateError } from "../core/index.js";
import { MISSING, SingleValueChannel } from "./base.js";

/**
 * Holds a value for exactly one superstep: it is cleared when a step passes without writes to
 * it. Node trigger channels (`branch:to:<node>`) and the graph's input channel (`__start__`)
 * are ephemeral. With `guard` (the default), two writes in one step are an error.
 */
export class EphemeralValue<Value = unknown> extends SingleValueChannel<Value> {
  readonly lc_graph_name: string = "EphemeralValue";
  readonly guard: boolean;

  constructor(guard = true) {
    super();
    this.guard = guard;
  }

  fromCheckpoint(snapshot?: Value): this {
    const channel = new EphemeralValue<Value>(this.guard) as this;
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
    if (n !== 1 && this.guard) {
      throw new InvalidUpdateError("EphemeralValue can only receive one value per step.", {
        code: "INVALID_CONCURRENT_GRAPH_UPDATE",
      });
    }
    this.value = values[n - 1] as Value;
    return true;
  }
}
