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
