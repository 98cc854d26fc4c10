import { InvalidUpdateError } from "../core/index.js";
import { BaseChannel, emptyChannel } from "./base.js";

/**
 * Adds the writers in `values` to `seen` (a barrier's arrivals); returns whether any was new.
 * Only the barrier's `names` may write to it.
 */
export function recordArrivals<Name>(
  names: ReadonlySet<Name>,
  seen: Set<Name>,
  values: readonly Name[],
): boolean {
  let updated = false;
  for (const name of values) {
    if (!names.has(name)) {
      throw new InvalidUpdateError(
        `Value ${JSON.stringify(name)} not in names ${JSON.stringify([...names])}: only the sources of this waiting edge may write to its barrier.`,
      );
    }
    if (!seen.has(name)) {
      seen.add(name);
      updated = true;
    }
  }
  return updated;
}

/**
 * A barrier: available once every one of `names` has written to it in some superstep, and
 * reset when the task it triggers runs. It implements waiting edges, `addEdge(["a", "b"], "c")`:
 * `c` runs once both `a` and `b` have finished (channel `join:a+b:c`).
 */
export class NamedBarrierValue<Name = string> extends BaseChannel<void, Name, Name[]> {
  readonly lc_graph_name: string = "NamedBarrierValue";
  readonly names: ReadonlySet<Name>;
  protected seen = new Set<Name>();

  constructor(names: Iterable<Name>) {
    super();
    this.names = names instanceof Set ? (names as ReadonlySet<Name>) : new Set(names);
  }

  override get clearsWhenIdle(): boolean {
    return false;
  }

  fromCheckpoint(snapshot?: Name[]): this {
    const channel = new (this.constructor as new (names: ReadonlySet<Name>) => this)(this.names);
    if (snapshot !== undefined) channel.seen = new Set(snapshot);
    return channel;
  }

  update(values: Name[]): boolean {
    return recordArrivals(this.names, this.seen, values);
  }

  protected complete(): boolean {
    return this.seen.size === this.names.size;
  }

  get(): void {
    if (!this.complete()) emptyChannel();
  }

  checkpoint(): Name[] | undefined {
    return this.seen.size === 0 ? undefined : [...this.seen];
  }

  override consume(): boolean {
    if (!this.complete()) return false;
    this.seen = new Set();
    return true;
  }

  isAvailable(): boolean {
    return this.complete();
  }
}
