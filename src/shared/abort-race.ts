/**
 * Waiting on an `AbortSignal` without an `EventTarget` listener per wait. Node's
 * `addEventListener`/`removeEventListener` validate their arguments in JavaScript on every call,
 * and a run races its signal several times per step (the task, the model call, each tool call),
 * so each signal gets one listener, installed on the first wait, that calls the waiters
 * registered at that moment; registering and cancelling a waiter is a `Set` operation.
 */

const waiters = new WeakMap<AbortSignal, Set<() => void>>();

/** Signals nothing can abort (see {@link neverAborted}). */
const quiet = new WeakSet<AbortSignal>();

/**
 * A signal of a controller nobody keeps (what a run hands its nodes when the caller passed no
 * signal): it can never abort, so waits on it need no listener and races on it are no races.
 *
 * @example
 * ```ts
 * const signal = neverAborted(new AbortController().signal);
 * ```
 */
export function neverAborted(signal: AbortSignal): AbortSignal {
  quiet.add(signal);
  return signal;
}

/**
 * Calls `callback` once, when `signal` aborts (never if it already has: check `signal.aborted`
 * first). Returns a function that cancels the call; cancel it once the wait is over.
 *
 * @example
 * ```ts
 * const cancel = onAbort(signal, () => socket.destroy());
 * try { await work(); } finally { cancel(); }
 * ```
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  if (quiet.has(signal)) return noop;
  const set = waiters.get(signal) ?? listenTo(signal);
  // a wrapper of its own, so the same callback registered twice is called twice
  const waiter = () => callback();
  set.add(waiter);
  return () => {
    set.delete(waiter);
  };
}

/**
 * Installs the one listener of `signal` that calls its waiters. Made here, not in `onAbort`, so
 * the listener (which stays as long as the signal has not aborted) holds only the signal and its
 * waiters, not the callback of the wait that happened to install it: a long-lived signal, or a
 * run's `timeout` signal until its timer fires, would otherwise keep that wait's run alive.
 */
function listenTo(signal: AbortSignal): Set<() => void> {
  const set = new Set<() => void>();
  waiters.set(signal, set);
  signal.addEventListener(
    "abort",
    () => {
      waiters.delete(signal);
      for (const waiter of set) waiter();
      set.clear();
    },
    { once: true },
  );
  return set;
}

/**
 * Settles like `promise`, or rejects with `reason()` as soon as `signal` aborts (at once if it
 * already has); `promise` keeps running, and its later rejection is ignored. `onReject` sees
 * each rejection just before it happens (in place of a `.then(undefined, …)` on the result,
 * which would make one more promise).
 *
 * @example
 * ```ts
 * const value = await raceSignal(fetchSomething(), signal, () => new AbortError("aborted"));
 * ```
 */
export function raceSignal<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  reason: () => unknown,
  onReject?: (error: unknown) => void,
): Promise<T> {
  if (signal === undefined || quiet.has(signal)) return promise;
  if (signal.aborted) {
    promise.catch(() => {});
    const error = reason();
    onReject?.(error);
    return Promise.reject(error);
  }
  return new Promise<T>((resolve, reject) => {
    const cancel = onAbort(signal, () => {
      promise.catch(() => {});
      const error = reason();
      onReject?.(error);
      reject(error);
    });
    promise.then(
      (value) => {
        cancel();
        resolve(value);
      },
      (error: unknown) => {
        cancel();
        onReject?.(error);
        reject(error);
      },
    );
  });
}

const noop = (): void => {};
