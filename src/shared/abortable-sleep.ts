import { onAbort } from "./abort-race.js";
import { AbortError } from "./errors.js";

/**
 * Resolves after `ms` milliseconds, or rejects as soon as `signal` aborts (with the signal's
 * reason, or an {@link AbortError} when it has none), so a cancelled run stops waiting between
 * retries. The timer and the listener are released either way.
 *
 * @example
 * ```ts
 * await abortableSleep(500, config.signal);
 * ```
 */
export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(reasonOf(signal));
      return;
    }
    // through the signal's one shared listener: the tasks of a step waiting to retry all wait
    // on its signal (thirty of them would warn MaxListenersExceeded with a listener each)
    const cancel =
      signal === undefined
        ? undefined
        : onAbort(signal, () => {
            clearTimeout(timer);
            reject(reasonOf(signal));
          });
    const timer = setTimeout(() => {
      cancel?.();
      resolve();
    }, ms);
  });
}

function reasonOf(signal: AbortSignal): unknown {
  return signal.reason ?? new AbortError();
}
