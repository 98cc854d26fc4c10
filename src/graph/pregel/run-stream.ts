import { attachDirectSource, IterableReadableStream, type StreamMode, StreamSink } from "../stream/index.js";

/** A stream being fed by a run, and the handles the run uses to feed it. */
export interface RunStream<Chunk> {
  readonly stream: IterableReadableStream<Chunk>;
  readonly sink: StreamSink;
  /** Aborted when the consumer cancels (or the caller's signal aborts). */
  readonly signal: AbortSignal;
  /** The run is over: the consumer gets the remaining chunks, then the end (or the error). */
  end(error?: { error: unknown }): void;
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
    else {
      const onAbort = () => abort.abort(userSignal.reason);
      userSignal.addEventListener("abort", onAbort, { once: true });
      unlink = () => userSignal.removeEventListener("abort", onAbort);
    }
  }
  const queue: unknown[] = [];
  let head = 0;
  let finished = false;
  let failure: { error: unknown } | undefined;
  let cancelled = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  /** The next chunk, the end, or the run's error, waiting for the run when the queue is empty. */
  const take = async (): Promise<IteratorResult<Chunk>> => {
    while (head === queue.length && !finished) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
    if (head < queue.length) {
      const value = queue[head++] as Chunk;
      if (head === queue.length) {
        queue.length = 0;
        head = 0;
      }
      return { done: false, value };
    }
    if (failure !== undefined) throw failure.error;
    return { done: true, value: undefined };
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
        abort.abort(reason ?? new Error("The stream was cancelled."));
        notify();
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
    },
  };
}
