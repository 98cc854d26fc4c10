/**
 * The stream `graph.stream()` resolves to: a Web `ReadableStream` that is also an async
 * iterator, as in LangGraph.js (`for await (const chunk of await graph.stream(input))`).
 * Cancelling it (or leaving a `for await` loop early) stops the run.
 */
export class IterableReadableStream<T> extends ReadableStream<T> implements AsyncIterableIterator<T> {
  private reader: ReadableStreamDefaultReader<T> | undefined;

  private ensureReader(): ReadableStreamDefaultReader<T> {
    this.reader ??= this.getReader();
    return this.reader;
  }

  async next(): Promise<IteratorResult<T>> {
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
    const reader = this.ensureReader();
    if (this.locked) {
      const cancelled = reader.cancel();
      reader.releaseLock();
      await cancelled;
    }
    return { done: true, value: undefined };
  }

  async throw(error: unknown): Promise<IteratorResult<T>> {
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
