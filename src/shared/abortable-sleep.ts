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
    const onAbort = () => {
      clearTimeout(timer);
      reject(reasonOf(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function reasonOf(signal: AbortSignal): unknown {
  return signal.reason ?? new AbortError();
}
