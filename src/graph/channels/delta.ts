import { InvalidUpdateError, type Overwrite, unwrapOverwrite } from "../core/index.js";
import { type BaseChannel, MISSING, type Missing, SingleValueChannel } from "./base.js";
import { stampMessageIds } from "./message-ids.js";

/**
 * A batch reducer for a {@link DeltaChannel}: folds all the writes of a step into the value in
 * one call, `reducer(state, [write1, write2, ...]) -> newState`. It must be batching-invariant,
 * `reducer(reducer(s, xs), ys)` equal to `reducer(s, xs.concat(ys))`, as LangGraph.js requires.
 */
export type DeltaReducer<Value, Update = unknown> = (state: Value, writes: Update[]) => Value;

/** Options of {@link DeltaChannel}. */
export interface DeltaChannelOptions<Value> {
  /**
   * Accepted for LangGraph.js compatibility (a positive integer, default 100). It has no effect
   * here: every saver of agentgraph already stores lists as splices of their previous version
   * (linear storage, ADR 0001), so there are no snapshots to space out.
   */
  snapshotFrequency?: number | undefined;
  /** The value the channel starts with (default: `() => []`). */
  initialValueFactory?: (() => Value) | undefined;
}

/**
 * Key under which a reducer may carry how a write to its channel gets message ids
 * (`messagesDeltaReducer` does: it coerces message-likes to messages with ids). Without it,
 * message objects in a write (alone, in arrays, or in an `Overwrite`) get an id when they lack
 * one.
 */
const DELTA_WRITE_IDS: unique symbol = Symbol.for("agentgraph.delta_channel.write_ids") as never;

function writeIdsOf(reducer: unknown): (value: unknown) => unknown {
  const own = (reducer as { [DELTA_WRITE_IDS]?: unknown })[DELTA_WRITE_IDS];
  if (typeof own === "function") return own as (value: unknown) => unknown;
  return (value) => {
    stampMessageIds(value, true);
    return value;
  };
}

/** One pending write as savers store it: `[taskId, channel, value]`. */
export type DeltaPendingWrite = readonly [taskId: string, channel: string, value: unknown];

/**
 * A reducer channel whose reducer takes all the writes of a step at once (LangGraph.js
 * `DeltaChannel`, the channel of `DeltaValue` and `MessagesDeltaValue`). The value starts as
 * `initialValueFactory()` (default `[]`); each step's writes are folded in with one
 * `reducer(value, writes)` call; an `Overwrite` write replaces the value (its other writes that
 * step are dropped; `Overwrite(null)` resets to the initial value), and two in one step are an
 * `InvalidUpdateError`. Message objects written to it get ids before they are folded in, so
 * they can be replaced or removed by id later.
 *
 * In LangGraph.js this channel exists so that checkpoints store per-step deltas instead of the
 * whole accumulated list. agentgraph's savers store every list that way already (ADR 0001), so
 * here it checkpoints its value like any reducer channel and the storage is still linear;
 * `snapshotFrequency` is accepted and has no effect.
 *
 * @example
 * ```ts
 * import { Annotation, DeltaChannel, messagesDeltaReducer } from "agentgraph";
 *
 * const State = Annotation.Root({
 *   messages: new DeltaChannel(messagesDeltaReducer),
 *   log: new DeltaChannel((state: string[], writes: string[]) => state.concat(writes)),
 * });
 * ```
 */
export class DeltaChannel<Value = unknown, Update = unknown> extends SingleValueChannel<
  Value,
  Update | Overwrite<Value>
> {
  readonly lc_graph_name: string = "DeltaChannel";
  readonly reducer: DeltaReducer<Value, Update>;
  /** Accepted for compatibility; has no effect (storage is linear already, see the class doc). */
  readonly snapshotFrequency: number;
  readonly initialValueFactory: () => Value;
  /** @internal A write with ids on the messages it holds (see {@link prepareDeltaWrites}). */
  readonly prepareWrite: (value: unknown) => unknown;

  constructor(reducer: DeltaReducer<Value, Update>, options?: DeltaChannelOptions<Value>) {
    super();
    const snapshotFrequency = options?.snapshotFrequency ?? 100;
    if (!Number.isInteger(snapshotFrequency) || snapshotFrequency <= 0) {
      throw new Error(`snapshotFrequency must be a positive integer, got ${snapshotFrequency}`);
    }
    if (typeof reducer !== "function") {
      throw new InvalidUpdateError(
        "new DeltaChannel(reducer) needs a batch reducer function `(state, writes) => newState`.",
      );
    }
    this.reducer = reducer;
    this.snapshotFrequency = snapshotFrequency;
    this.initialValueFactory = options?.initialValueFactory ?? (() => [] as Value);
    this.prepareWrite = writeIdsOf(reducer);
  }

  override get clearsWhenIdle(): boolean {
    return false;
  }

  /** A channel with the same settings holding `snapshot` (the initial value when undefined). */
  fromCheckpoint(snapshot?: Value | { lg_name: "DeltaSnapshot"; value: Value }): this {
    const channel = new DeltaChannel(this.reducer, {
      snapshotFrequency: this.snapshotFrequency,
      initialValueFactory: this.initialValueFactory,
    }) as this;
    if (snapshot === undefined) channel.value = this.initialValueFactory();
    else if (isDeltaSnapshot(snapshot)) channel.value = snapshot.value as Value;
    else channel.value = snapshot as Value;
    return channel;
  }

  /**
   * Applies saved writes (`[taskId, channel, value]`, oldest first) with one reducer call. The
   * last `Overwrite` among them is the new base, and only the writes after it are reduced.
   */
  replayWrites(writes: readonly DeltaPendingWrite[]): void {
    if (writes.length === 0) return;
    let base: Value | Missing = this.value;
    let start = 0;
    for (let i = 0; i < writes.length; i += 1) {
      const overwrite = unwrapOverwrite((writes[i] as DeltaPendingWrite)[2]);
      if (overwrite !== undefined) {
        base = overwrite.value == null ? this.initialValueFactory() : (overwrite.value as Value);
        start = i + 1;
      }
    }
    const rest = writes.slice(start).map((write) => write[2] as Update);
    if (rest.length === 0) {
      this.value = base;
      return;
    }
    this.value = this.reducer(base === MISSING ? this.initialValueFactory() : base, rest);
  }

  update(values: (Update | Overwrite<Value>)[]): boolean {
    if (values.length === 0) return false;
    const writes: Update[] = [];
    let overwrite: { value: unknown } | undefined;
    for (const raw of values) {
      const value = this.prepareWrite(raw);
      const replacing = unwrapOverwrite(value);
      if (replacing === undefined) {
        writes.push(value as Update);
        continue;
      }
      if (overwrite !== undefined) {
        throw new InvalidUpdateError(
          "Can receive only one Overwrite value per step. Two tasks wrote `new Overwrite(...)` to this key in the same superstep; let one of them write it.",
        );
      }
      overwrite = replacing;
    }
    if (overwrite !== undefined) {
      this.value = overwrite.value == null ? this.initialValueFactory() : (overwrite.value as Value);
      return true;
    }
    const base = this.value === MISSING ? this.initialValueFactory() : this.value;
    this.value = this.reducer(base, writes);
    return true;
  }

  /**
   * @internal Gives the messages in a task's writes to delta channels their ids before the
   * writes are saved and streamed (as LangGraph.js does), so that a write saved once and applied
   * again (a resumed or forked step) carries the same ids. Changed writes are replaced in
   * `writes` by a new `[channel, value]` pair.
   */
  static prepareWrites(channels: Readonly<Record<string, BaseChannel>>, writes: [string, unknown][]): void {
    prepareDeltaWrites(channels, writes);
  }

  /** Whether `other` is a `DeltaChannel` with the same reducer and `snapshotFrequency`. */
  override equals(other: BaseChannel): boolean {
    if (other === this) return true;
    if ((other as { lc_graph_name?: unknown } | null)?.lc_graph_name !== "DeltaChannel") return false;
    const delta = other as DeltaChannel<Value, Update>;
    return delta.snapshotFrequency === this.snapshotFrequency && delta.reducer === this.reducer;
  }
}

/** Per channels object: its delta channels by name (`null` when it has none). */
const deltaChannelsOf = new WeakMap<object, Map<string, DeltaChannel> | null>();

/** See {@link DeltaChannel.prepareWrites}. */
function prepareDeltaWrites(
  channels: Readonly<Record<string, BaseChannel>>,
  writes: [string, unknown][],
): void {
  let deltas = deltaChannelsOf.get(channels);
  if (deltas === undefined) {
    let found: Map<string, DeltaChannel> | null = null;
    for (const [name, channel] of Object.entries(channels)) {
      if (channel.lc_graph_name !== "DeltaChannel") continue;
      if (typeof (channel as DeltaChannel).prepareWrite !== "function") continue;
      found ??= new Map();
      found.set(name, channel as DeltaChannel);
    }
    deltas = found;
    deltaChannelsOf.set(channels, deltas);
  }
  if (deltas === null) return;
  for (let i = 0; i < writes.length; i += 1) {
    const [name, value] = writes[i] as [string, unknown];
    const channel = deltas.get(name);
    if (channel === undefined) continue;
    const prepared = channel.prepareWrite(value);
    if (prepared !== value) writes[i] = [name, prepared];
  }
}

function isDeltaSnapshot(value: unknown): value is { lg_name: "DeltaSnapshot"; value: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { lg_name?: unknown }).lg_name === "DeltaSnapshot"
  );
}
