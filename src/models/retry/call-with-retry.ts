import { AbortError, abortableSleep, abortReasonMessage, onAbort } from "../../shared/index.js";
import { ModelCallError, ModelTimeoutError } from "../errors/model-call-error.js";
import { withAttempts } from "../errors/with-attempts.js";
import { retryDelayMs } from "./retry-delay.js";

/** Settings for {@link callWithRetry}. */
export interface RetrySettings {
  /** Retries after the first attempt (so `maxRetries: 2` makes at most 3 requests). */
  maxRetries: number;
  /** Per-attempt deadline in milliseconds; an attempt that runs over is retried. */
  timeoutMs?: number | undefined;
  /** The caller's signal: aborting it stops the attempt and all retries. */
  signal?: AbortSignal | undefined;
  /** Provider name, for the timeout error. */
  provider: string;
  /** Human provider name, for messages. */
  displayName: string;
  /**
   * Keep a successful attempt's signal linked to `signal` (for streams, which outlive the
   * attempt). Pass a signal scoped to the stream then, so the link dies with it.
   */
  keepLinked?: boolean;
}

/**
 * Runs `attempt` until it succeeds, retrying {@link ModelCallError}s marked `isRetryable`
 * (408/409/429/5xx, network errors, timeouts) after {@link retryDelayMs}. Other errors, and
 * aborts, propagate at once. After the last retry the error says how many attempts were made.
 *
 * Each attempt gets its own signal, aborted when the caller's signal aborts or the attempt's
 * deadline passes. The deadline covers the attempt only: a stream that `attempt` opened keeps
 * running afterwards (still linked to the caller's signal).
 *
 * @example
 * ```ts
 * const result = await callWithRetry((signal) => client.create(body, { signal }), {
 *   maxRetries: 2, timeoutMs: 30_000, provider: "openai", displayName: "OpenAI",
 * });
 * ```
 */
export async function callWithRetry<T>(
  attempt: (signal: AbortSignal) => Promise<T>,
  settings: RetrySettings,
): Promise<T> {
  for (let attemptIndex = 0; ; attemptIndex++) {
    settings.signal?.throwIfAborted();
    try {
      return await runAttempt(attempt, settings);
    } catch (error) {
      if (settings.signal?.aborted) throw toAbortError(settings.signal, error);
      if (!(error instanceof ModelCallError)) throw error;
      const attempts = attemptIndex + 1;
      if (!error.isRetryable || attemptIndex >= settings.maxRetries) throw withAttempts(error, attempts);
      await sleep(retryDelayMs(attemptIndex, error.headers), settings.signal);
    }
  }
}

async function runAttempt<T>(
  attempt: (signal: AbortSignal) => Promise<T>,
  settings: RetrySettings,
): Promise<T> {
  const controller = new AbortController();
  const outer = settings.signal;
  // through the signal's one shared listener: the model calls of a step's parallel tasks share
  // its signal (more than ten would warn MaxListenersExceeded with a listener each)
  const unlink = outer === undefined ? undefined : onAbort(outer, () => controller.abort(outer.reason));
  let timedOut = false;
  const timer =
    settings.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort(new Error("timeout"));
        }, settings.timeoutMs);
  let succeeded = false;
  try {
    const value = await attempt(controller.signal);
    succeeded = true;
    return value;
  } catch (error) {
    if (timedOut && !outer?.aborted) {
      throw new ModelTimeoutError(
        // the SDKs' text first, as LangChain.js's ChatOpenAI throws it
        `Request timed out. ${settings.displayName} did not respond within ${settings.timeoutMs} ms. ` +
          "Raise `timeout` (milliseconds) or check that the server is reachable.",
        { provider: settings.provider, isRetryable: true, code: "MODEL_TIMEOUT", cause: error },
      );
    }
    throw error;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (!(succeeded && settings.keepLinked)) unlink?.();
  }
}

function toAbortError(signal: AbortSignal, error: unknown): Error {
  if (error instanceof AbortError) return error;
  const reason: unknown = signal.reason;
  return new AbortError(abortReasonMessage(reason), { cause: reason ?? error });
}

/** The shared abortable wait, failing with this module's abort error. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return abortableSleep(ms, signal).catch(() => {
    throw toAbortError(signal as AbortSignal, undefined);
  });
}
