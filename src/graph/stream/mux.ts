/**
 * The multiplexer behind a v3 run stream: it passes each protocol event through the run's
 * transformers, keeps the event log every iteration reads from, forwards the items of named
 * transformer channels, and settles the run's projections when the run ends.
 */

import { hasPrefix, nsKey } from "../../shared/index.js";
import type { InterruptPayload, Namespace, ProtocolEvent } from "./protocol.js";
import { StreamChannel, wireStreamChannel } from "./stream-channel.js";

/** Receives the events a transformer injects (`StreamTransformer.onRegister`). */
export interface StreamEmitter {
  /** Injects `event` (its `seq` is replaced) as coming from namespace `ns`. */
  push(ns: Namespace, event: ProtocolEvent): void;
}

/**
 * Watches (and may drop or add to) the events of a v3 run: `init()` returns the projection the
 * run exposes (on `run.extensions`), `process(event)` sees every event in order and returns
 * `false` to keep it out of the event stream, `finalize()` / `fail(error)` are called when the
 * run ends. A factory `() => StreamTransformer` is registered per call (`transformers`) or at
 * compile time (`compile({ transformers })`).
 */
export interface StreamTransformer<TProjection = unknown> {
  init(): TProjection;
  onRegister?(emitter: StreamEmitter): void;
  process(event: ProtocolEvent): boolean;
  finalize?(): void | PromiseLike<void>;
  fail?(error: unknown): void;
}

/** A transformer whose projection the run wires itself (not merged into `run.extensions`). */
export interface NativeStreamTransformer<TProjection = unknown> extends StreamTransformer<TProjection> {
  readonly __native: true;
}

/** True for a {@link NativeStreamTransformer}. */
export function isNativeTransformer(
  transformer: StreamTransformer<unknown>,
): transformer is NativeStreamTransformer<unknown> {
  return "__native" in transformer && (transformer as { __native?: unknown }).__native === true;
}

/** What a run stream handle must offer the mux: settling its `output`. */
export interface SettleableStream {
  /** @internal */
  settleOutput(result: { value: unknown } | { error: unknown }): void;
}

/** A subgraph stream announced by the discovery transformer. */
export interface SubgraphDiscovery<TStream = unknown> {
  ns: Namespace;
  stream: TStream;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** @internal One per v3 run: see the module comment. */
export class StreamMux {
  /** Every event of the run, in order (after the transformers). */
  readonly events = StreamChannel.local<ProtocolEvent>();
  /** Subgraph streams, as they are discovered. */
  readonly discoveries = StreamChannel.local<SubgraphDiscovery>();
  private nextSeq = 0;
  private ended: { error: unknown } | { error?: undefined } | undefined;
  private currentNamespace: Namespace = [];
  private readonly transformers: StreamTransformer<unknown>[] = [];
  private readonly channels: StreamChannel<unknown>[] = [];
  private readonly streams = new Map<string, SettleableStream>();
  private readonly latestValues = new Map<string, unknown>();
  private readonly finalValues: { name: string; promise: PromiseLike<unknown> }[] = [];
  private readonly interruptList: InterruptPayload[] = [];
  private wasInterrupted = false;

  /** Associates a stream handle with its namespace (its `output` settles when the run ends). */
  register(ns: Namespace, stream: SettleableStream): void {
    this.streams.set(nsKey(ns), stream);
  }

  /** Adds an initialized transformer; it first sees the events already logged. */
  addTransformer(transformer: StreamTransformer<unknown>): void {
    const logged = this.events.size;
    this.transformers.push(transformer);
    transformer.onRegister?.({ push: (ns, event) => this.push(ns, event) });
    for (let i = 0; i < logged; i += 1) transformer.process(this.events.get(i));
    if (this.ended !== undefined) {
      if ("error" in this.ended && this.ended.error !== undefined) transformer.fail?.(this.ended.error);
      else void transformer.finalize?.();
    }
  }

  /**
   * Wires a transformer's projection: a named {@link StreamChannel} is forwarded as
   * `custom:<name>` events; a promise is sent as one `custom` event `{ name, payload }` when the
   * run ends.
   */
  wireChannels(projection: unknown): void {
    if (typeof projection !== "object" || projection === null) return;
    for (const [key, value] of Object.entries(projection)) {
      if (StreamChannel.isInstance(value)) {
        this.channels.push(value);
        const name = value.channelName;
        if (typeof name !== "string") continue;
        wireStreamChannel(value, (item) => {
          this.events.push(this.stamp(`custom:${name}`, this.currentNamespace, item));
        });
      } else if (isPromiseLike(value)) {
        this.finalValues.push({ name: key, promise: value });
      }
    }
  }

  /** Passes `event` through the transformers, then logs it unless one of them dropped it. */
  push(ns: Namespace, event: ProtocolEvent): void {
    if (event.method === "values") this.latestValues.set(nsKey(ns), event.params.data);
    const outer = this.currentNamespace;
    this.currentNamespace = ns;
    let keep = true;
    try {
      for (const transformer of this.transformers) if (!transformer.process(event)) keep = false;
    } finally {
      this.currentNamespace = outer;
    }
    if (keep) this.events.push({ ...event, seq: this.nextSeq++ });
  }

  /** Ends the run normally: settles outputs, finalizes transformers, flushes final values. */
  close(): void {
    if (this.ended !== undefined) return;
    this.ended = {};
    for (const [key, values] of this.latestValues) this.streams.get(key)?.settleOutput({ value: values });
    const pending: PromiseLike<unknown>[] = [];
    for (const transformer of this.transformers) {
      const result = transformer.finalize?.();
      if (isPromiseLike(result)) pending.push(result);
    }
    for (const channel of this.channels) channel.close();
    for (const stream of this.streams.values()) stream.settleOutput({ value: undefined });
    const finish = (): void => {
      this.events.close();
      this.discoveries.close();
    };
    if (this.finalValues.length === 0 && pending.length === 0) {
      finish();
      return;
    }
    const flushes = this.finalValues.map(async ({ name, promise }) => {
      try {
        const payload = await promise;
        if (!this.events.done) this.events.push(this.stamp("custom", [], { name, payload }));
      } catch {
        // a projection that failed has no final value to send
      }
    });
    void Promise.allSettled([...pending, ...flushes]).then(finish);
  }

  /** Ends the run with `error`: transformers, channels, logs and outputs all fail with it. */
  fail(error: unknown): void {
    if (this.ended !== undefined) return;
    this.ended = { error };
    for (const transformer of this.transformers) transformer.fail?.(error);
    for (const channel of this.channels) channel.fail(error);
    this.events.fail(error);
    this.discoveries.fail(error);
    for (const stream of this.streams.values()) stream.settleOutput({ error });
  }

  /** Records the interrupts the run paused at. */
  markInterrupted(interrupts: readonly InterruptPayload[]): void {
    this.wasInterrupted = true;
    this.interruptList.push(...interrupts);
  }

  get interrupted(): boolean {
    return this.wasInterrupted;
  }

  get interrupts(): readonly InterruptPayload[] {
    return this.interruptList;
  }

  /** The logged events under namespace `path`, from log position `startAt`. */
  subscribeEvents(path: Namespace, startAt = 0): AsyncIterator<ProtocolEvent> {
    const base = this.events.iterate(startAt);
    return {
      async next(): Promise<IteratorResult<ProtocolEvent>> {
        while (true) {
          const result = await base.next();
          if (result.done === true || hasPrefix(result.value.params.namespace, path)) return result;
        }
      },
    };
  }

  private stamp(method: string, namespace: Namespace, data: unknown): ProtocolEvent {
    return {
      type: "event",
      seq: this.nextSeq++,
      method,
      params: { namespace, timestamp: Date.now(), data },
    };
  }
}
