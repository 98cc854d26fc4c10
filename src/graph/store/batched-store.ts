import { BaseStore } from "./base-store.js";
import type { Operation, OperationResults } from "./types.js";

interface QueuedBatch {
  operations: readonly Operation[];
  resolve: (results: unknown[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Wraps a store so that the operations issued while it is running are sent to the wrapped
 * store's `batch` together: every `get`, `search`, `put`, `delete`, `listNamespaces` (and
 * `batch`) call made in the same turn of the event loop becomes one `batch` call. The calls
 * are checked (namespaces, keys) before they are queued, so a malformed one fails alone and
 * never reaches the wrapped store. Same shape as LangGraph.js's `AsyncBatchedStore`.
 *
 * Operations wait in the queue until {@link start} is called; {@link stop} sends what is
 * still queued, then stops. When the wrapped store's `batch` fails, every operation of that
 * batch fails with its error.
 *
 * @example
 * ```ts
 * const store = new AsyncBatchedStore(new InMemoryStore());
 * store.start();
 * await Promise.all([
 *   store.put(["docs"], "a", { text: "one" }),
 *   store.put(["docs"], "b", { text: "two" }),
 * ]); // one batch of two puts
 * await store.stop();
 * ```
 */
export class AsyncBatchedStore extends BaseStore {
  /** Marks the wrapper, as LangGraph.js's does. */
  readonly lg_name = "AsyncBatchedStore";

  /** The wrapped store (never itself an `AsyncBatchedStore`: wrappers are unwrapped). */
  readonly store: BaseStore;

  private queue: QueuedBatch[] = [];
  private running = false;
  private flushScheduled = false;
  private inFlight: Promise<void> | undefined;

  constructor(store: BaseStore) {
    super();
    this.store = store instanceof AsyncBatchedStore ? store.store : store;
  }

  /** Whether queued operations are being sent to the wrapped store. */
  get isRunning(): boolean {
    return this.running;
  }

  /** Queues the operations; they reach the wrapped store together with the others of this turn. */
  batch<Op extends readonly Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    return new Promise<OperationResults<Op>>((resolve, reject) => {
      this.queue.push({
        operations,
        resolve: (results) => resolve(results as OperationResults<Op>),
        reject,
      });
      this.schedule();
    });
  }

  /** Starts sending queued operations to the wrapped store. */
  override start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule();
  }

  /** Sends what is still queued, waits for it, then stops sending. */
  override async stop(): Promise<void> {
    this.running = false;
    while (this.inFlight !== undefined || this.queue.length > 0) {
      if (this.inFlight !== undefined) await this.inFlight;
      else await this.flush();
    }
  }

  /** A summary for logs; the wrapped store is not serialized. */
  toJSON(): { queued: number; running: boolean; store: string } {
    return { queued: this.queue.length, running: this.running, store: "[LangGraphStore]" };
  }

  private schedule(): void {
    if (!this.running || this.flushScheduled || this.inFlight !== undefined || this.queue.length === 0)
      return;
    this.flushScheduled = true;
    // A macrotask, so that every operation issued in this turn (and its microtasks) joins the batch.
    setTimeout(() => {
      this.flushScheduled = false;
      if (this.running) void this.flush();
    }, 0);
  }

  private flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    const run = async (): Promise<void> => {
      if (batch.length === 0) return;
      const operations = batch.flatMap((entry) => entry.operations);
      try {
        const results = (await this.store.batch(operations)) as unknown[];
        let offset = 0;
        for (const entry of batch) {
          entry.resolve(results.slice(offset, offset + entry.operations.length));
          offset += entry.operations.length;
        }
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    };
    const done = run().finally(() => {
      this.inFlight = undefined;
      this.schedule();
    });
    this.inFlight = done;
    return done;
  }
}

/**
 * The store an {@link AsyncBatchedStore} wraps, or `store` itself: what a graph run should use
 * for a store it is given (LangGraph.js's runs unwrap a batched store the same way, so one
 * that was never started still works there).
 *
 * @example
 * ```ts
 * extractStore(new AsyncBatchedStore(inner)) === inner; // true
 * ```
 */
export function extractStore(store: BaseStore): BaseStore {
  return store instanceof AsyncBatchedStore ? store.store : store;
}
