import { BaseChannel, emptyChannel } from "./base.js";

/** Options of {@link Topic}. */
export interface TopicOptions {
  /** Drop values already seen in this run. */
  unique?: boolean;
  /** Keep values across supersteps instead of clearing them each step. */
  accumulate?: boolean;
}

type Snapshot<Value> = Value[] | [seen: Value[], values: Value[]];

/**
 * A pub/sub list: collects every value written in a superstep (arrays are flattened one
 * level). Cleared each step unless `accumulate`. The engine's `__pregel_tasks` channel, which
 * carries `Send` packets, is a topic.
 */
export class Topic<Value = unknown> extends BaseChannel<Value[], Value | Value[], Snapshot<Value>> {
  readonly lc_graph_name: string = "Topic";
  readonly unique: boolean;
  readonly accumulate: boolean;
  private seen = new Set<Value>();
  private values: Value[] = [];

  constructor(options: TopicOptions = {}) {
    super();
    this.unique = options.unique ?? false;
    this.accumulate = options.accumulate ?? false;
  }

  override get clearsWhenIdle(): boolean {
    return !this.accumulate;
  }

  fromCheckpoint(snapshot?: Snapshot<Value>): this {
    const channel = new Topic<Value>({ unique: this.unique, accumulate: this.accumulate }) as this;
    if (snapshot === undefined) return channel;
    if (this.unique) {
      const [seen, values] = snapshot as [Value[], Value[]];
      channel.seen = new Set(seen);
      channel.values = [...values];
    } else {
      channel.values = [...(snapshot as Value[])];
    }
    return channel;
  }

  update(writes: (Value | Value[])[]): boolean {
    let updated = false;
    if (!this.accumulate && this.values.length > 0) {
      this.values = [];
      updated = true;
    }
    const values = this.values;
    // indexed: the tasks channel takes every step's sends before the engine optimizes this
    for (let i = 0; i < writes.length; i++) {
      const write = writes[i] as Value | Value[];
      if (Array.isArray(write)) {
        for (let j = 0; j < write.length; j++) updated = this.add(values, write[j] as Value) || updated;
      } else {
        updated = this.add(values, write) || updated;
      }
    }
    return updated;
  }

  private add(values: Value[], value: Value): boolean {
    if (this.unique) {
      if (this.seen.has(value)) return false;
      this.seen.add(value);
    }
    values.push(value);
    return true;
  }

  get(): Value[] {
    return this.values.length === 0 ? emptyChannel() : this.values;
  }

  checkpoint(): Snapshot<Value> | undefined {
    if (this.unique) return this.seen.size === 0 ? undefined : [[...this.seen], [...this.values]];
    return this.values.length === 0 ? undefined : [...this.values];
  }

  isAvailable(): boolean {
    return this.values.length !== 0;
  }
}
