/**
 * `Promise.try` (not in Node 20): calls `fn` now and gives its result as a promise; a synchronous
 * throw becomes a rejection. Hot paths use it instead of `async` functions, which under Node's
 * `AsyncLocalStorage` run hooks for their promise and every resumption; a native promise `fn`
 * returns is handed back as it is.
 *
 * @example
 * ```ts
 * const answer = promiseTry(() => model.invoke(messages)); // rejects if invoke throws
 * ```
 */
export function promiseTry<T>(fn: () => T | PromiseLike<T>): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * `promise.then(onValue)` where a rejection of `promise` and a throw of `onValue` both go to
 * `onError`, in one continuation (`.then(onValue).catch(onError)` makes a second promise, and
 * under Node's `AsyncLocalStorage` each promise runs hooks). A promise `onValue` returns is
 * followed as it is: its rejection is not sent to `onError`.
 *
 * @example
 * ```ts
 * const message = thenOrElse(model.invoke(messages), (answer) => finish(answer), (error) => report(error));
 * ```
 */
export function thenOrElse<T, R>(
  promise: T | PromiseLike<T>,
  onValue: (value: T) => R | PromiseLike<R>,
  onError: (error: unknown) => R | PromiseLike<R>,
): Promise<R> {
  return Promise.resolve(promise).then((value) => {
    try {
      return onValue(value);
    } catch (error) {
      return onError(error);
    }
  }, onError);
}

/**
 * True for a promise or any other thenable (an object with a `then` method), from any realm.
 *
 * @example
 * ```ts
 * isThenable(Promise.resolve(1)); // true
 * isThenable({ value: 1 }); // false
 * ```
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function"
  );
}
