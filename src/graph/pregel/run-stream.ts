import { onAbort } from "../../shared/index.js";
import { afterTurns } from "../loop/index.js";
import { attachDirectSource, IterableReadableStream, type StreamMode, StreamSink } from "../stream/index.js";

/**
 * Microtask turns between a chunk reaching a consumer that waits for it and the consumer getting
 * it. LangGraph.js hands chunks over through two streams and a generator; with this much of a
 * delay, and a root run's steps gathered as there (see `RunnerContext.gatherAlone`), a consumer
 * reads each step's chunks after the next step's nodes have started and before the one after,
 * as there.
 */
const HAND_OVER_TURNS = 2;

/** A stream being fed by a run, and the handles the run uses to feed it. */
export interface RunStream<Chunk> {
  readonly stream: IterableReadableStream<Chunk>;
  readonly sink: StreamSink;
  /** Aborted when the consumer cancels (or the caller's signal aborts). */
  readonly signal: AbortSignal;
  /** The run is over: the consumer gets the remaining chunks, then the end (or the error). */
  end(error?: { error: unknown }): void;
  /**
   * Settles once the stream holds its first chunk or has ended; rejects with the run's error when
   * the run failed before producing any chunk (the error is then taken: iterating ends at once).
   * `graph.stream()` waits for it, as LangChain.js's `stream()` runs the graph to its first chunk.
   */
  ready(): Promise<void>;
}

/**
 * Opens the stream `graph.stream()` returns. Chunks wait in a queue until the consumer pulls
 * them, so an error reaches the consumer only after every chunk produced before it; leaving a
 * `for await` loop early cancels the stream, which aborts the run.
 */
export function openRunStream<Chunk>(
  modes: readonly StreamMode[],
  subgraphs: boolean,
  multi: boolean,
  baseDepth: number,
  userSignal: AbortSignal | undefined,
): RunStream<Chunk> {
  const abort = new AbortController();
  let unlink: (() => void) | undefined;
  if (userSignal !== undefined) {
    if (userSignal.aborted) abort.abort(userSignal.reason);
    // one listener on the caller's signal however many runs share it (a server's shutdown
    // signal given to every stream it opens: more than ten would warn MaxListenersExceeded)
    else unlink = onAbort(userSignal, () => abort.abort(userSignal.reason));
  }
  const queue: unknown[] = [];
  let head = 0;
  let finished = false;
  let failure: { error: unknown } | undefined;
  let cancelled = false;
  /** A `cancel()` waiting for the run to be over (see `cancel`). */
  let ended: (() => void) | undefined;
  /** A `take` waiting for the run: answered by `notify` with the next chunk or the end. */
  let waiting: { resolve(result: IteratorResult<Chunk>): void; reject(error: unknown): void } | undefined;
  let failureTaken = false;
  const next = (): IteratorResult<Chunk> => {
    const value = queue[head++] as Chunk;
    if (head === queue.length) {
      queue.length = 0;
      head = 0;
    }
    return { done: false, value };
  };
  /** The end: the run's error the first time it is taken, then `done` (as a finished iterator). */
  const ending = (): { error: unknown } | undefined => {
    if (failure === undefined || failureTaken) return undefined;
    failureTaken = true;
    return failure;
  };
  /** A `ready()` waiting for the first chunk or the end. */
  let readyWaiter: { resolve(): void; reject(error: unknown): void } | undefined;
  const settleReady = () => {
    const r = readyWaiter;
    if (r === undefined) return;
    if (head < queue.length) {
      readyWaiter = undefined;
      r.resolve();
    } else if (finished) {
      readyWaiter = undefined;
      const error = ending();
      if (error === undefined) r.resolve();
      else r.reject(error.error);
    }
  };
  const notify = () => {
    if (readyWaiter !== undefined) settleReady();
    const w = waiting;
    if (w === undefined) return;
    if (head < queue.length) {
      waiting = undefined;
      const chunk = next();
      afterTurns(() => w.resolve(chunk), HAND_OVER_TURNS);
    } else if (finished) {
      waiting = undefined;
      const error = ending();
      if (error === undefined) w.resolve({ done: true, value: undefined });
      else w.reject(error.error);
    }
  };
  /**
   * The next chunk, the end, or the run's error (once; then the end), waiting for the run when
   * the queue is empty. Not an `async` function, and a waiting `take` is answered with its chunk
   * directly: each chunk costs one promise (under Node's `AsyncLocalStorage` each runs hooks).
   */
  const take = (): Promise<IteratorResult<Chunk>> => {
    if (head < queue.length) return Promise.resolve(next());
    if (finished) {
      const error = ending();
      return error === undefined
        ? Promise.resolve({ done: true, value: undefined })
        : Promise.reject(error.error);
    }
    return new Promise<IteratorResult<Chunk>>((resolve, reject) => {
      waiting = { resolve, reject };
    });
  };
  const stream = new IterableReadableStream<Chunk>(
    {
      async pull(controller) {
        try {
          const result = await take();
          if (result.done) controller.close();
          else controller.enqueue(result.value);
        } catch (error) {
          controller.error(error);
        }
      },
      cancel(reason) {
        cancelled = true;
        // the consumer's reason as given: leaving a for-await loop gives none, so the nodes see
        // the platform's AbortError, as LangGraph.js's do
        abort.abort(reason);
        notify();
        // settles once the run is over, its last saves made: a consumer who leaves the loop and
        // then reads or deletes the thread sees what the run left (as in LangGraph.js)
        if (finished) return undefined;
        return new Promise<void>((resolve) => {
          ended = resolve;
        });
      },
    },
    { highWaterMark: 0 },
  );
  // `for await` takes chunks from the queue directly; getReader() still works, on the same queue
  attachDirectSource(stream, { take });
  const sink = new StreamSink(
    modes,
    subgraphs,
    multi,
    (chunk) => {
      if (cancelled) return;
      queue.push(chunk);
      notify();
    },
    baseDepth,
  );
  return {
    stream,
    sink,
    signal: abort.signal,
    end(error) {
      unlink?.();
      failure = error;
      finished = true;
      notify();
      ended?.();
    },
    ready() {
      return new Promise<void>((resolve, reject) => {
        readyWaiter = { resolve, reject };
        settleReady();
      });
    },
  };
}
