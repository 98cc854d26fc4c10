/**
 * `GraphRunStream`: what `streamEvents(input, { version: "v3" })` returns. It is an async
 * iterable of the run's {@link ProtocolEvent}s and offers projections of them: `values`,
 * `output`, `messages`, `subgraphs`, `lifecycle`, `interrupts` and the projections of the
 * run's transformers (`extensions`).
 */
import { INTERRUPT } from "../core/index.js";
import { isNativeTransformer, type SettleableStream, StreamMux, type StreamTransformer } from "./mux.js";
import {
  convertToProtocolEvent,
  type InterruptPayload,
  isRecord,
  type Namespace,
  type ProtocolEvent,
} from "./protocol.js";
import {
  type ChatModelStreamItem,
  createLifecycleTransformer,
  createMessagesTransformer,
  createSubgraphDiscoveryTransformer,
  createValuesTransformer,
  filterLifecycleEntries,
  filterSubgraphHandles,
  type LifecycleEntry,
} from "./transformers.js";
import type { StreamMode } from "./types.js";

/** The extensions a list of transformer factories adds to `run.extensions`. */
export type InferExtensions<T extends ReadonlyArray<() => StreamTransformer<unknown>>> = T extends readonly []
  ? Record<string, never>
  : T extends readonly [
        () => StreamTransformer<infer P>,
        ...infer Rest extends ReadonlyArray<() => StreamTransformer<unknown>>,
      ]
    ? P & InferExtensions<Rest>
    : Record<string, unknown>;

/** Options of {@link createGraphRunStream}. */
export interface CreateGraphRunStreamOptions {
  /** Aborted by `run.abort()`; pass the same controller's signal to the run to cancel it. */
  abortController?: AbortController;
}

/** `run.values`: each state snapshot as it comes, or (awaited) the final state. */
export type ValuesProjection<TValues> = AsyncIterable<TValues> & PromiseLike<TValues>;

const EMPTY: AsyncIterable<never> = {
  [Symbol.asyncIterator]: () => ({
    next: async () => ({ value: undefined, done: true }) as IteratorResult<never>,
  }),
};

/**
 * The stream of one graph run (`path` `[]`) or of one of its subgraphs ({@link SubgraphRunStream}).
 * Iterating it yields the events at or below its namespace, from the start of the run; every
 * iteration and projection is independent and replays from the start.
 *
 * @example
 * ```ts
 * const run = await graph.streamEvents(input, { version: "v3" });
 * for await (const message of run.messages) console.log(await message.text);
 * const finalState = await run.output;
 * ```
 */
export class GraphRunStream<TValues = Record<string, unknown>, TExtensions = Record<string, unknown>>
  implements AsyncIterable<ProtocolEvent>, SettleableStream
{
  /** Namespace of the stream (`[]` for the root run). */
  readonly path: Namespace;
  /** The projections of the run's transformers, by the keys their `init()` returned. */
  readonly extensions: TExtensions;
  /** @internal */
  readonly _mux: StreamMux;
  #discoveryStart: number;
  #eventStart: number;
  #controller: AbortController;
  #finalValues: Promise<TValues>;
  #settle: ((result: { value: unknown } | { error: unknown }) => void) | undefined;
  #valuesLog: AsyncIterable<TValues> | undefined;
  #messagesIterable: AsyncIterable<ChatModelStreamItem> | undefined;
  #lifecycleIterable: AsyncIterable<LifecycleEntry> | undefined;
  #subgraphsIterable: AsyncIterable<SubgraphRunStream> | undefined;

  constructor(
    path: Namespace,
    mux: StreamMux,
    discoveryStart = 0,
    eventStart = 0,
    extensions?: TExtensions,
    abortController?: AbortController,
  ) {
    this.path = path;
    this._mux = mux;
    this.#discoveryStart = discoveryStart;
    this.#eventStart = eventStart;
    this.extensions = extensions ?? ({} as TExtensions);
    this.#controller = abortController ?? new AbortController();
    this.#finalValues = new Promise<TValues>((resolve, reject) => {
      this.#settle = (result) => {
        if ("error" in result) reject(result.error);
        else resolve(result.value as TValues);
      };
    });
    this.#finalValues.catch(() => {});
  }

  [Symbol.asyncIterator](): AsyncIterator<ProtocolEvent> {
    return this._mux.subscribeEvents(this.path, this.#eventStart);
  }

  /** The streams of the subgraphs directly below this one, as they are discovered. */
  get subgraphs(): AsyncIterable<SubgraphRunStream> {
    return (
      this.#subgraphsIterable ??
      (filterSubgraphHandles(
        this._mux.discoveries,
        this.path,
        this.#discoveryStart,
      ) as AsyncIterable<SubgraphRunStream>)
    );
  }

  /** The state snapshots of this (sub)graph as they come; awaited, its final state. */
  get values(): ValuesProjection<TValues> {
    const mux = this._mux;
    const path = this.path;
    const start = this.#eventStart;
    const iterable: AsyncIterable<TValues> = this.#valuesLog ?? {
      [Symbol.asyncIterator]() {
        const base = mux.subscribeEvents(path, start);
        return {
          async next(): Promise<IteratorResult<TValues>> {
            while (true) {
              const result = await base.next();
              if (result.done === true) return { value: undefined, done: true };
              const event = result.value;
              if (event.method === "values" && event.params.namespace.length === path.length) {
                return { value: event.params.data as TValues, done: false };
              }
            }
          },
        };
      },
    };
    const done = this.#finalValues;
    return {
      [Symbol.asyncIterator]: () => iterable[Symbol.asyncIterator](),
      // biome-ignore lint/suspicious/noThenProperty: awaiting `run.values` gives the final state, as in LangGraph.js
      then: (onfulfilled, onrejected) => done.then(onfulfilled, onrejected),
    };
  }

  /**
   * The messages produced by the nodes of this (sub)graph (one {@link ChatModelStreamItem} each,
   * tool messages aside), from the start of the run.
   */
  get messages(): AsyncIterable<ChatModelStreamItem> {
    if (this.#messagesIterable === undefined) {
      const transformer = createMessagesTransformer(this.path);
      this.#messagesIterable = transformer.init().messages;
      this._mux.addTransformer(transformer);
    }
    return this.#messagesIterable;
  }

  /** The messages produced by node `node` of this (sub)graph. */
  messagesFrom(node: string): AsyncIterable<ChatModelStreamItem> {
    const transformer = createMessagesTransformer(this.path, node);
    const { messages } = transformer.init();
    this._mux.addTransformer(transformer);
    return messages;
  }

  /** The lifecycle entries of this (sub)graph and those below it. */
  get lifecycle(): AsyncIterable<LifecycleEntry> {
    return this.#lifecycleIterable ?? EMPTY;
  }

  /** The final state of this (sub)graph (its last `values` snapshot); rejects if the run fails. */
  get output(): Promise<TValues> {
    return this.#finalValues;
  }

  /** True if the run paused at an interrupt (known once the run has ended). */
  get interrupted(): boolean {
    return this._mux.interrupted;
  }

  /** The interrupts the run paused at (`{ interruptId, payload }`). */
  get interrupts(): readonly InterruptPayload[] {
    return this._mux.interrupts;
  }

  /** Cancels the run (its iteration and `output` then fail with the abort error). */
  abort(reason?: unknown): void {
    this.#controller.abort(reason);
  }

  /** The signal {@link abort} aborts. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** @internal */
  settleOutput(result: { value: unknown } | { error: unknown }): void {
    const settle = this.#settle;
    this.#settle = undefined;
    settle?.(result);
  }

  /** @internal */
  wire(parts: {
    values?: AsyncIterable<TValues>;
    messages?: AsyncIterable<ChatModelStreamItem>;
    lifecycle?: AsyncIterable<LifecycleEntry>;
    subgraphs?: AsyncIterable<SubgraphRunStream>;
  }): void {
    if (parts.values !== undefined) this.#valuesLog = parts.values;
    if (parts.messages !== undefined) this.#messagesIterable = parts.messages;
    if (parts.lifecycle !== undefined) this.#lifecycleIterable = parts.lifecycle;
    if (parts.subgraphs !== undefined) this.#subgraphsIterable = parts.subgraphs;
  }
}

/**
 * The stream of a subgraph (or node task) of a run: `name` is its node's name and `index` the
 * number after the last `:` of its namespace segment when that is an integer (else 0).
 */
export class SubgraphRunStream<
  TValues = Record<string, unknown>,
  TExtensions = Record<string, unknown>,
> extends GraphRunStream<TValues, TExtensions> {
  readonly name: string;
  readonly index: number;

  constructor(
    path: Namespace,
    mux: StreamMux,
    discoveryStart = 0,
    eventStart = 0,
    extensions?: TExtensions,
    abortController?: AbortController,
  ) {
    super(path, mux, discoveryStart, eventStart, extensions, abortController);
    const last = path[path.length - 1] ?? "";
    const colon = last.lastIndexOf(":");
    if (colon >= 0) {
      this.name = last.slice(0, colon);
      const suffix = last.slice(colon + 1);
      this.index = /^\d+$/.test(suffix) ? Number(suffix) : 0;
    } else {
      this.name = last;
      this.index = 0;
    }
  }
}

/** Feeds the `[namespace, mode, payload]` chunks of `source` into `mux`, then ends it. */
async function pump(source: AsyncIterable<unknown>, mux: StreamMux): Promise<void> {
  let seq = 0;
  try {
    for await (const chunk of source) {
      if (!Array.isArray(chunk) || chunk.length !== 3) continue;
      const [namespace, mode, payload] = chunk as [Namespace, StreamMode, unknown];
      if (mode === "values" && isRecord(payload) && INTERRUPT in payload) {
        const list = Array.isArray(payload[INTERRUPT]) ? (payload[INTERRUPT] as unknown[]) : [];
        mux.markInterrupted(
          list.map((item) => {
            const entry = isRecord(item) ? item : {};
            return { interruptId: typeof entry.id === "string" ? entry.id : "", payload: entry.value };
          }),
        );
      }
      const events = convertToProtocolEvent({ namespace, mode, payload, seq });
      seq += events.length;
      for (const event of events) mux.push(namespace, event);
    }
  } catch (error) {
    mux.fail(error);
    return;
  }
  mux.close();
}

/**
 * Builds a {@link GraphRunStream} over `source`, the `[namespace, mode, payload]` chunks of a
 * graph stream run with `subgraphs: true` (modes {@link STREAM_EVENTS_V3_MODES}), and starts
 * reading it. Built-in transformers run first (subgraph discovery, lifecycle, values,
 * messages), then `transformers` in order: a native transformer's projection is set on the
 * stream itself, any other's is merged into `run.extensions` (its named channels forwarded as
 * `custom:<name>` events, its promises sent as one `custom` event when the run ends).
 */
export function createGraphRunStream<
  TValues = Record<string, unknown>,
  TExtensions = Record<string, unknown>,
>(
  source: AsyncIterable<unknown>,
  transformers: ReadonlyArray<() => StreamTransformer<unknown>> = [],
  options?: CreateGraphRunStreamOptions | AbortController,
): GraphRunStream<TValues, TExtensions> {
  const abortController = options instanceof AbortController ? options : options?.abortController;
  const mux = new StreamMux();
  const lifecycle = createLifecycleTransformer();
  const lifecycleProjection = lifecycle.init();
  const lifecycleLog = lifecycleProjection._lifecycleLog;
  const discovery = createSubgraphDiscoveryTransformer(mux, {
    createStream: (path, discoveryStart, eventStart) => {
      const stream = new SubgraphRunStream(path, mux, discoveryStart, eventStart);
      stream.wire({
        subgraphs: filterSubgraphHandles(
          mux.discoveries,
          path,
          discoveryStart,
        ) as AsyncIterable<SubgraphRunStream>,
        lifecycle: filterLifecycleEntries(lifecycleLog, path, lifecycleLog.size),
      });
      return stream;
    },
  });
  const discoveryProjection = discovery.init();
  mux.addTransformer(discovery);
  mux.addTransformer(lifecycle);
  const values = createValuesTransformer([]);
  const messages = createMessagesTransformer([]);
  mux.addTransformer(values);
  mux.addTransformer(messages);
  const extensions: Record<string, unknown> = {};
  const native: unknown[] = [];
  for (const factory of transformers) {
    const transformer = factory();
    mux.addTransformer(transformer);
    const projection = transformer.init();
    if (isNativeTransformer(transformer)) {
      native.push(projection);
    } else {
      if (isRecord(projection)) Object.assign(extensions, projection);
      mux.wireChannels(projection);
    }
  }
  const root = new GraphRunStream<TValues, TExtensions>(
    [],
    mux,
    0,
    0,
    extensions as TExtensions,
    abortController,
  );
  for (const projection of native) if (isRecord(projection)) Object.assign(root, projection);
  root.wire({
    values: values.init()._valuesLog as AsyncIterable<TValues>,
    messages: messages.init().messages,
    lifecycle: lifecycleProjection.lifecycle,
    subgraphs: discoveryProjection.subgraphs,
  });
  mux.register([], root);
  void pump(source, mux);
  return root;
}
