import type { AIMessage, AIMessageChunk } from "../../messages/index.js";
import { abortableSleep, InvalidArgumentError } from "../../shared/index.js";
import { abortErrorFor } from "./call-setup.js";
import { type ChatModelBatch, chatModelBatch } from "./run-batch.js";
import type { BaseChatModelCallOptions, BaseLanguageModelInput } from "./types.js";

/** What `withRetry` and `withFallbacks` wrap: a chat model, or a model with bound settings. */
export interface ChatModelRunnable<CallOptions extends BaseChatModelCallOptions = BaseChatModelCallOptions> {
  invoke(input: BaseLanguageModelInput, options?: Partial<CallOptions>): Promise<AIMessage>;
  stream(
    input: BaseLanguageModelInput,
    options?: Partial<CallOptions>,
  ): Promise<AsyncGenerator<AIMessageChunk>>;
  getName(): string;
}

/**
 * Options of `withRetry` (LangChain.js `RunnableRetry`): at most `stopAfterAttempt` calls
 * (default 3); `onFailedAttempt(error, input)` runs after every failed call, and throwing from
 * it stops the retries.
 *
 * @example
 * ```ts
 * const fields: RetryFields = { stopAfterAttempt: 2, onFailedAttempt: (e) => console.warn(e) };
 * ```
 */
export interface RetryFields {
  stopAfterAttempt?: number | undefined;
  onFailedAttempt?: ((error: Error, input: BaseLanguageModelInput) => unknown) | undefined;
}

/** A thrown non-`Error` becomes a `TypeError`, as `p-retry` (which LangChain.js uses) makes it. */
function asError(error: unknown): Error {
  return error instanceof Error
    ? error
    : new TypeError(`Non-error was thrown: "${String(error)}". You should only throw errors.`);
}

/** A `TypeError` that is not a network failure is a bug, not worth a retry (`p-retry`'s rule). */
function isRetryable(error: Error): boolean {
  if (!(error instanceof TypeError)) return true;
  return /fetch failed|network|Failed to fetch|Load failed|terminated/i.test(error.message);
}

/**
 * A chat model whose `invoke` is retried (LangChain.js `model.withRetry()`): up to
 * `stopAfterAttempt` calls, waiting 1–2 s before the second, twice as long before each next
 * one (`p-retry`'s randomized backoff). `stream` and `batch` go to the model (a stream is not
 * retried, as in LangChain.js).
 *
 * @example
 * ```ts
 * const sturdy = model.withRetry({ stopAfterAttempt: 2 });
 * await sturdy.invoke("Hi");
 * ```
 */
export class ChatModelWithRetry<CallOptions extends BaseChatModelCallOptions = BaseChatModelCallOptions>
  implements ChatModelRunnable<CallOptions>
{
  readonly maxAttemptNumber: number;
  readonly onFailedAttempt: (error: Error, input: BaseLanguageModelInput) => unknown;

  constructor(
    readonly bound: ChatModelRunnable<CallOptions>,
    fields: RetryFields = {},
  ) {
    const attempts = fields.stopAfterAttempt ?? 3;
    if (!Number.isInteger(attempts) || attempts < 1) {
      throw new InvalidArgumentError(
        `withRetry: stopAfterAttempt must be a whole number ≥ 1, got ${String(attempts)}.`,
      );
    }
    this.maxAttemptNumber = attempts;
    this.onFailedAttempt = fields.onFailedAttempt ?? (() => {});
  }

  getName(): string {
    return this.bound.getName();
  }

  async invoke(input: BaseLanguageModelInput, options?: Partial<CallOptions>): Promise<AIMessage> {
    const signal = options?.signal;
    for (let attempt = 1; ; attempt++) {
      try {
        // a retried call's run is tagged `retry:attempt:<n>` before its other tags, as in LangChain.js
        const tagged =
          attempt === 1
            ? options
            : ({
                ...options,
                tags: [`retry:attempt:${attempt}`, ...(options?.tags ?? [])],
              } as Partial<CallOptions>);
        return await this.bound.invoke(input, tagged);
      } catch (caught) {
        const error = asError(caught);
        await this.onFailedAttempt(error, input);
        if (attempt >= this.maxAttemptNumber || !isRetryable(error) || signal?.aborted) throw error;
        const delay = Math.round((Math.random() + 1) * 1000 * 2 ** (attempt - 1));
        // an abort during the wait fails as an aborted model call
        await abortableSleep(delay, signal).catch(() => {
          throw abortErrorFor(signal as AbortSignal);
        });
      }
    }
  }

  stream(
    input: BaseLanguageModelInput,
    options?: Partial<CallOptions>,
  ): Promise<AsyncGenerator<AIMessageChunk>> {
    return this.bound.stream(input, options);
  }

  /** Invokes on several inputs, at most `maxConcurrency` at a time (`returnExceptions` keeps failures in place). */
  readonly batch: ChatModelBatch<CallOptions> = chatModelBatch<CallOptions>((input, options) =>
    this.invoke(input, options),
  );

  withRetry(fields?: RetryFields): ChatModelWithRetry<CallOptions> {
    return new ChatModelWithRetry(this.bound, fields);
  }

  withFallbacks(
    fallbacks: ChatModelRunnable<CallOptions>[] | { fallbacks: ChatModelRunnable<CallOptions>[] },
  ): ChatModelWithFallbacks<CallOptions> {
    return new ChatModelWithFallbacks(this, Array.isArray(fallbacks) ? fallbacks : fallbacks.fallbacks);
  }
}

/**
 * A chat model that falls back to other models (LangChain.js `model.withFallbacks()`): each is
 * tried in turn until one answers; when all fail, the first error is thrown. A stream falls
 * back only while opening (before its first chunk).
 *
 * @example
 * ```ts
 * const resilient = primary.withFallbacks([backup]);
 * await resilient.invoke("Hi"); // backup's answer when primary fails
 * ```
 */
export class ChatModelWithFallbacks<CallOptions extends BaseChatModelCallOptions = BaseChatModelCallOptions>
  implements ChatModelRunnable<CallOptions>
{
  constructor(
    readonly runnable: ChatModelRunnable<CallOptions>,
    readonly fallbacks: ChatModelRunnable<CallOptions>[],
  ) {}

  getName(): string {
    return this.runnable.getName();
  }

  /** The model, then its fallbacks. */
  *runnables(): Generator<ChatModelRunnable<CallOptions>> {
    yield this.runnable;
    yield* this.fallbacks;
  }

  async invoke(input: BaseLanguageModelInput, options?: Partial<CallOptions>): Promise<AIMessage> {
    return this.firstThatWorks((model) => model.invoke(input, options), options);
  }

  async stream(
    input: BaseLanguageModelInput,
    options?: Partial<CallOptions>,
  ): Promise<AsyncGenerator<AIMessageChunk>> {
    return this.firstThatWorks(async (model) => {
      const stream = await model.stream(input, options);
      const first = await stream.next();
      return (async function* () {
        if (first.done) return;
        yield first.value;
        yield* stream;
      })();
    }, options);
  }

  /** Invokes on several inputs, at most `maxConcurrency` at a time (`returnExceptions` keeps failures in place). */
  readonly batch: ChatModelBatch<CallOptions> = chatModelBatch<CallOptions>((input, options) =>
    this.invoke(input, options),
  );

  withRetry(fields?: RetryFields): ChatModelWithRetry<CallOptions> {
    return new ChatModelWithRetry(this, fields);
  }

  private async firstThatWorks<T>(
    run: (model: ChatModelRunnable<CallOptions>) => Promise<T>,
    options: Partial<CallOptions> | undefined,
  ): Promise<T> {
    let firstError: unknown;
    let failed = false;
    for (const model of this.runnables()) {
      const signal = options?.signal;
      if (signal?.aborted) throw abortErrorFor(signal);
      try {
        return await run(model);
      } catch (error) {
        if (!failed) {
          failed = true;
          firstError = error;
        }
      }
    }
    throw firstError;
  }
}
