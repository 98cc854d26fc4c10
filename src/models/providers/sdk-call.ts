/**
 * How the SDK-backed providers (OpenAI, Anthropic) call their SDK: the per-request options they
 * pass, and the streaming loop they share.
 */
import type { ProviderErrorContext } from "../errors/from-sdk-error.js";
import { modelErrorFromSdk } from "../errors/from-sdk-error.js";
import type { ChatModelV1CallOptions } from "../spec/index.js";

/** The SDK request options of a call: its abort signal and extra headers. */
export function sdkRequestOptions(options: ChatModelV1CallOptions): {
  signal: AbortSignal | undefined;
  headers: Record<string, string> | undefined;
} {
  return { signal: options.abortSignal, headers: options.headers };
}

/**
 * The events of an SDK stream that `open` starts. An SDK error, when the request is made or in
 * the middle of the stream, becomes the model error {@link modelErrorFromSdk} makes of it; when
 * the consumer leaves early (break, abort, error) the SDK stream is closed, which stops the HTTP
 * response.
 */
export async function* sdkStream<Event>(
  open: () => Promise<AsyncIterable<Event>>,
  context: ProviderErrorContext,
): AsyncGenerator<Event> {
  let events: AsyncIterable<Event>;
  try {
    events = await open();
  } catch (error) {
    throw modelErrorFromSdk(error, context);
  }
  const iterator = events[Symbol.asyncIterator]();
  try {
    while (true) {
      let next: IteratorResult<Event>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw modelErrorFromSdk(error, context);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await iterator.return?.();
  }
}
