/**
 * Where a stream's chunks can be taken from directly: the same chunks its underlying source
 * hands to the Web stream, one `take()` each. See {@link attachDirectSource}.
 */
export interface DirectSource<T> {
  /**
   * The next chunk; after the end, `done` every time. A failure of the source rejects one
   * `take`, and those after it are `done`.
   */
  take(): Promise<IteratorResult<T>>;
}

const directSources = new WeakMap<object, DirectSource<unknown>>();

/**
 * Lets `for await` read `stream` from `source` instead of through the Web stream machinery
 * (a reader, read requests and a promise chain per chunk, all in JavaScript in Node): the
 * iterator takes chunks straight from the run's queue. The underlying source must pull from the
 * same `source`, so that a consumer who calls `getReader()` instead (or later) gets the chunks
 * the iterator has not taken, in order.
 */
export function attachDirectSource<T>(stream: IterableReadableStream<T>, source: DirectSource<T>): void {
  directSources.set(stream, source as DirectSource<unknown>);
}

/**
 * The stream `graph.stream()` resolves to: a Web `ReadableStream` that is also an async
 * iterator, as in LangGraph.js (`for await (const chunk of await graph.stream(input))`).
 * Cancelling it (or leaving a `for await` loop early) stops the run.
 */
export class IterableReadableStream<T> extends ReadableStream<T> implements AsyncIterableIterator<T> {
  /**
   * A stream of what `generator` yields, pulled one value at a time (LangChain.js
   * `IterableReadableStream.fromAsyncGenerator`); cancelling the stream returns the generator.
   * `onCancel`, when given, runs first with the cancel's reason (to stop what the generator is
   * waiting on, which `return()` would wait behind), and its promise is awaited after the return.
   *
   * @example
   * ```ts
   * const stream = IterableReadableStream.fromAsyncGenerator((async function* () { yield 1; })());
   * ```
   */
  static fromAsyncGenerator<T>(
    generator: AsyncGenerator<T>,
    onCancel?: (reason: unknown) => Promise<void> | undefined,
  ): IterableReadableStream<T> {
    return new IterableReadableStream<T>({
      async pull(controller) {
        const next = await generator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel(reason) {
        const stopped = onCancel?.(reason);
        await generator.return(undefined);
        await stopped;
      },
    });
  }

  private reader: ReadableStreamDefaultReader<T> | undefined;
  /** The iteration was left (`return` or `throw`): it is over, whatever the source still holds. */
  private directDone = false;

  private ensureReader(): ReadableStreamDefaultReader<T> {
    this.reader ??= this.getReader();
    return this.reader;
  }

  next(): Promise<IteratorResult<T>> {
    const direct = this.reader === undefined ? directSources.get(this) : undefined;
    if (direct !== undefined && !this.locked) {
      // the source's own promise, not an `async` layer over it (one promise per chunk)
      if (this.directDone) return Promise.resolve({ done: true, value: undefined });
      return direct.take() as Promise<IteratorResult<T>>;
    }
    return this.readNext();
  }

  private async readNext(): Promise<IteratorResult<T>> {
    const reader = this.ensureReader();
    try {
      const result = await reader.read();
      if (result.done) {
        reader.releaseLock();
        return { done: true, value: undefined };
      }
      return { done: false, value: result.value };
    } catch (error) {
      reader.releaseLock();
      throw error;
    }
  }

  async return(): Promise<IteratorResult<T>> {
    if (this.reader === undefined && !this.locked && directSources.has(this)) {
      this.directDone = true;
      await this.cancel();
      return { done: true, value: undefined };
    }
    const reader = this.ensureReader();
    if (this.locked) {
      const cancelled = reader.cancel();
      reader.releaseLock();
      await cancelled;
    }
    return { done: true, value: undefined };
  }

  async throw(error: unknown): Promise<IteratorResult<T>> {
    if (this.reader === undefined && !this.locked && directSources.has(this)) {
      this.directDone = true;
      await this.cancel(error);
      throw error;
    }
    const reader = this.ensureReader();
    if (this.locked) {
      const cancelled = reader.cancel(error);
      reader.releaseLock();
      await cancelled;
    }
    throw error;
  }

  override [Symbol.asyncIterator](): this {
    return this;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.return();
  }
}
