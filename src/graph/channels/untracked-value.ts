import { InvalidUpdateError } from "../core/index.js";
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
 */
export class UntrackedValue<Value = unknown> extends BaseChannel<Value, Value, undefined> {
  readonly lc_graph_name: string = "UntrackedValue";
  readonly guard: boolean;
  readonly initialValueFactory: (() => Value) | undefined;
  private value: Value | Missing;

  constructor(options: UntrackedValueOptions<Value> = {}) {
    super();
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
