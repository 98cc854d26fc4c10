/**
 * `StreamChannel`: an append-only, replayable async stream that v3 run streams are built from,
 * and that a {@link StreamTransformer} returns from `init()` to publish its own projection.
 */

/** Marks channels from any copy of the library (`Symbol.for`, as LangGraph.js does). */
const STREAM_CHANNEL_BRAND: unique symbol = Symbol.for("langgraph.stream_channel") as never;
/** Hooks the run stream's multiplexer uses to forward a named channel's items. */
const WIRE: unique symbol = Symbol("agentgraph.streamChannel.wire") as never;

/** Options of {@link StreamChannel.toEventStream}. */
export interface StreamChannelEventStreamOptions<T> {
  /** Index of the first item (default 0). */
  startAt?: number;
  /** The SSE `event:` name (default: the channel's name; none for a local channel). */
  event?: string;
  /** Turns an item into the `data:` text (default `JSON.stringify`). */
  serialize?: (item: T) => string;
}

/**
 * An append-only stream with independent cursors: every iteration starts from the beginning
 * (or `startAt`) and waits for new items until the channel is closed (or fails, which the
 * iteration rethrows once the buffered items are consumed).
 *
 * A channel made with a name (`StreamChannel.remote(name)` or `new StreamChannel(name)`) and
 * returned from a transformer's `init()` is also forwarded into the run's event stream: each
 * `push` becomes a `custom:<name>` event. A local channel (`StreamChannel.local()`) stays
 * in-process. The run closes the channels of its transformers when it ends.
 *
 * @example
 * ```ts
 * const toolCounter = () => {
 *   const counts = StreamChannel.remote<number>("toolCount");
 *   let n = 0;
 *   return {
 *     init: () => ({ counts }),
 *     process: (event: ProtocolEvent) => {
 *       if (event.method === "tools") counts.push(++n);
 *       return true;
 *     },
 *   };
 * };
 * ```
 */
export class StreamChannel<T = unknown> implements AsyncIterable<T> {
  readonly [STREAM_CHANNEL_BRAND] = true;
  /** Name of the `custom:<name>` events the channel is forwarded as; `undefined` for a local channel. */
  readonly channelName: string | undefined;
  readonly #items: T[] = [];
  #waiters: (() => void)[] = [];
  #closed = false;
  #failure: { error: unknown } | undefined;
  #onPush: ((item: T) => void) | undefined;

  constructor(name?: string) {
    this.channelName = name;
  }

  /** A channel that stays in-process (never forwarded to the event stream). */
  static local<T = unknown>(): StreamChannel<T> {
    return new StreamChannel<T>();
  }

  /** A channel forwarded to the event stream as `custom:<name>` events. */
  static remote<T = unknown>(name: string): StreamChannel<T> {
    return new StreamChannel<T>(name);
  }

  /** True for a channel from any copy of the library. */
  static isInstance(value: unknown): value is StreamChannel<unknown> {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as { [STREAM_CHANNEL_BRAND]?: unknown })[STREAM_CHANNEL_BRAND] === true
    );
  }

  /** Appends an item (and forwards it, for a named channel wired to a run). */
  push(item: T): void {
    this.#items.push(item);
    this.#wake();
    this.#onPush?.(item);
  }

  /** An independent cursor over the items, from `startAt`. */
  iterate(startAt = 0): AsyncIterator<T> {
    let cursor = startAt;
    return {
      next: async (): Promise<IteratorResult<T>> => {
        while (true) {
          if (cursor < this.#items.length) return { value: this.#items[cursor++] as T, done: false };
          if (this.#closed) {
            if (this.#failure !== undefined) throw this.#failure.error;
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => this.#waiters.push(resolve));
        }
      },
    };
  }

  /** The items from `startAt`, as an async iterable. */
  toAsyncIterable(startAt = 0): AsyncIterable<T> {
    return { [Symbol.asyncIterator]: () => this.iterate(startAt) };
  }

  /**
   * The items as Server-Sent Events (`event: <name>` and one `data:` line per line of the
   * serialized item), e.g. for `new Response(channel.toEventStream())`.
   */
  toEventStream(options: StreamChannelEventStreamOptions<T> = {}): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    const iterator = this.iterate(options.startAt);
    const name = options.event ?? this.channelName;
    const serialize = options.serialize ?? ((item: T) => JSON.stringify(item) ?? "null");
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (next.done === true) {
            controller.close();
            return;
          }
          const lines: string[] = [];
          if (name !== undefined) lines.push(`event: ${name}`);
          for (const line of serialize(next.value).split(/\r\n|\r|\n/)) lines.push(`data: ${line}`);
          controller.enqueue(encoder.encode(`${lines.join("\n")}\n\n`));
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        await iterator.return?.();
      },
    });
  }

  /** The item at `index`; a `RangeError` when there is none. */
  get(index: number): T {
    if (index < 0 || index >= this.#items.length) {
      throw new RangeError(`StreamChannel index ${index} out of bounds (size=${this.#items.length})`);
    }
    return this.#items[index] as T;
  }

  /** How many items the channel holds. */
  get size(): number {
    return this.#items.length;
  }

  /** True once the channel is closed or failed. */
  get done(): boolean {
    return this.#closed;
  }

  /** Ends the channel: iterations finish after the buffered items. */
  close(): void {
    this.#closed = true;
    this.#wake();
  }

  /** Fails the channel: iterations rethrow `error` after the buffered items. */
  fail(error: unknown): void {
    if (!this.#closed) this.#failure = { error };
    this.#closed = true;
    this.#wake();
  }

  /** @internal Called by the run stream to forward the items of a named channel. */
  [WIRE](forward: ((item: T) => void) | undefined): void {
    this.#onPush = forward;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return this.iterate();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}

/**
 * LangGraph.js's other name for {@link StreamChannel} (a subclass here, so that the class keeps
 * its name in the build): `EventLog.local()` and `EventLog.remote(name)` make channels.
 */
export class EventLog<T = unknown> extends StreamChannel<T> {}

/** @internal Wires a named channel's pushes to `forward`. */
export function wireStreamChannel<T>(channel: StreamChannel<T>, forward: (item: T) => void): void {
  // a channel of another copy of this library has its own hook; LangGraph.js's is `_wire`
  const own = (channel as { [WIRE]?: unknown })[WIRE];
  const other = (channel as { _wire?: unknown })._wire;
  if (typeof own === "function") channel[WIRE](forward);
  else if (typeof other === "function") (other as (fn: (item: T) => void) => void).call(channel, forward);
}
