import { BaseChannel, emptyChannel } from "./base.js";
import { recordArrivals } from "./named-barrier-value.js";

type Snapshot<Name> = [seen: Name[], finished: boolean];

/**
 * A {@link NamedBarrierValue} for deferred nodes: complete barriers become available only
 * when the run is about to finish, so the node behind it runs last.
 */
export class NamedBarrierValueAfterFinish<Name = string> extends BaseChannel<void, Name, Snapshot<Name>> {
  readonly lc_graph_name: string = "NamedBarrierValueAfterFinish";
  readonly names: ReadonlySet<Name>;
  private seen = new Set<Name>();
  private finished = false;

  constructor(names: Iterable<Name>) {
    super();
    this.names = names instanceof Set ? (names as ReadonlySet<Name>) : new Set(names);
  }

  override get clearsWhenIdle(): boolean {
    return false;
  }

  fromCheckpoint(snapshot?: Snapshot<Name>): this {
    const channel = new (this.constructor as new (names: ReadonlySet<Name>) => this)(this.names);
    if (snapshot !== undefined) {
      channel.seen = new Set(snapshot[0]);
      channel.finished = snapshot[1];
    }
    return channel;
  }

  update(values: Name[]): boolean {
    return recordArrivals(this.names, this.seen, values);
  }

  private complete(): boolean {
    return this.seen.size === this.names.size;
  }

  get(): void {
    if (!this.finished || !this.complete()) emptyChannel();
  }

  checkpoint(): Snapshot<Name> | undefined {
    return this.seen.size === 0 && !this.finished ? undefined : [[...this.seen], this.finished];
  }

  override consume(): boolean {
    if (!this.finished || !this.complete()) return false;
    this.seen = new Set();
    this.finished = false;
    return true;
  }

  override finish(): boolean {
    if (this.finished || !this.complete()) return false;
    this.finished = true;
    return true;
  }

  isAvailable(): boolean {
    return this.finished && this.complete();
  }
}
