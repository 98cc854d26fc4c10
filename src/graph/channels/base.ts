import { EmptyChannelError } from "../core/index.js";

/** Marks "no value" inside channels, so that `undefined` stays a legal value. */
export const MISSING: unique symbol = Symbol.for("agentgraph.channel.missing") as never;
export type Missing = typeof MISSING;

/**
 * The channel contract. A channel holds one piece of graph state and decides how the writes
 * of a superstep combine into it.
 *
 * The engine calls, per superstep: `consume()` on the channels that triggered a task,
 * `update(values)` with all writes of the step for this channel (an empty list when the step
 * wrote nothing here and the channel {@link clearsWhenIdle}), and `finish()` when the graph is
 * about to stop (this releases deferred nodes). Each returns whether the channel changed;
 * a change bumps the channel's version, and new versions are what trigger nodes.
 *
 * `checkpoint()` gives a JSON-able snapshot (or `undefined` when empty) and
 * `fromCheckpoint(snapshot)` builds a fresh channel of the same kind and settings from one.
 * A channel must be restorable exactly: `c.fromCheckpoint(c.checkpoint())` behaves as `c`.
 */
export abstract class BaseChannel<Value = unknown, Update = unknown, Snapshot = unknown> {
  /** Type-only carriers, for inference. */
  declare ValueType: Value;
  declare UpdateType: Update;

  /** Class name as LangGraph.js reports it (stable across minification). */
  abstract readonly lc_graph_name: string;

  /** Brand, so that channels from another copy of the library are recognised. */
  readonly lg_is_channel = true;

  /**
   * Whether `update([])` can change this channel (it drops its value after a step without
   * writes). The engine calls `update([])` only on such channels, and only while they hold a
   * value, so that a superstep costs what changed rather than what exists. Custom channels
   * keep the safe default `true`.
   */
  get clearsWhenIdle(): boolean {
    return true;
  }

  /** A new channel with the same settings, restored from `snapshot` (empty when undefined). */
  abstract fromCheckpoint(snapshot?: Snapshot): this;

  /** Applies the writes of one superstep; returns whether the channel changed. */
  abstract update(values: Update[]): boolean;

  /** The current value; throws {@link EmptyChannelError} when there is none. */
  abstract get(): Value;

  /** A JSON-able snapshot of the value, or `undefined` when the channel is empty. */
  abstract checkpoint(): Snapshot | undefined;

  /** Whether the channel holds a value (`get()` would not throw). */
  abstract isAvailable(): boolean;

  /** Called when a task triggered by this channel runs; returns whether the channel changed. */
  consume(): boolean {
    return false;
  }

  /** Called when the run is about to finish; returns whether the channel changed. */
  finish(): boolean {
    return false;
  }

  /**
   * Whether `other` is the same channel as this one, as a state key declared twice (by the state
   * and by an input, output or node-input schema) must be: by default only this very channel;
   * channels with settings (a reducer) compare those.
   */
  equals(other: BaseChannel): boolean {
    return other === this;
  }
}

/**
 * A channel that holds at most one value ({@link MISSING} while empty), with the reads every such
 * channel shares: `get()` throws when empty, `checkpoint()` is the value itself (`undefined` when
 * empty), `isAvailable()` tells which. Subclasses decide how writes combine in `update`.
 */
export abstract class SingleValueChannel<Value = unknown, Update = Value> extends BaseChannel<
  Value,
  Update,
  Value
> {
  protected value: Value | Missing = MISSING;

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

/** True for a channel instance from any copy of the library. */
export function isBaseChannel(value: unknown): value is BaseChannel {
  return (
    value instanceof BaseChannel ||
    (typeof value === "object" &&
      value !== null &&
      (value as { lg_is_channel?: unknown }).lg_is_channel === true)
  );
}

/** Throws the engine's "empty channel" signal. */
export function emptyChannel(): never {
  throw new EmptyChannelError();
}
