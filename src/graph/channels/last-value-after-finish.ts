import { BaseChannel, emptyChannel, MISSING, type Missing } from "./base.js";

type Snapshot<Value> = [value: Value, finished: boolean];

/**
 * Like `LastValue`, but the value becomes visible only once the run is about to finish
 * (`finish()`), and reading it consumes it. This is the trigger channel of a deferred node
 * (`addNode(name, fn, { defer: true })`): it runs only when nothing else is pending.
 */
export class LastValueAfterFinish<Value = unknown> extends BaseChannel<Value, Value, Snapshot<Value>> {
  readonly lc_graph_name: string = "LastValueAfterFinish";
  private value: Value | Missing = MISSING;
  private finished = false;

  override get clearsWhenIdle(): boolean {
    return false;
  }

  fromCheckpoint(snapshot?: Snapshot<Value>): this {
    const channel = new (this.constructor as new () => this)();
    if (snapshot !== undefined) {
      channel.value = snapshot[0];
      channel.finished = snapshot[1];
    }
    return channel;
  }

  update(values: Value[]): boolean {
    if (values.length === 0) return false;
    this.finished = false;
    this.value = values[values.length - 1] as Value;
    return true;
  }

  override consume(): boolean {
    if (!this.finished) return false;
    this.finished = false;
    this.value = MISSING;
    return true;
  }

  override finish(): boolean {
    if (this.finished || this.value === MISSING) return false;
    this.finished = true;
    return true;
  }

  get(): Value {
    const value = this.value;
    return value === MISSING || !this.finished ? emptyChannel() : value;
  }

  checkpoint(): Snapshot<Value> | undefined {
    const value = this.value;
    return value === MISSING ? undefined : [value, this.finished];
  }

  isAvailable(): boolean {
    return this.finished && this.value !== MISSING;
  }
}
