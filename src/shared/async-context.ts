/**
 * The async-context slot shared by every layer.
 *
 * The engine must run in any JavaScript runtime, so it cannot import `node:async_hooks`.
 * Instead the platform entry point installs a storage here (`AsyncLocalStorage` on Node),
 * and the engine, models and tools read "the config of the task I am running in" through it.
 * Without a provider, helpers that need the ambient context throw a clear error and
 * everything else keeps working with explicitly passed configs.
 */
export interface AsyncContextStorage<T> {
  run<R>(store: T, fn: () => R): R;
  getStore(): T | undefined;
}

let storage: AsyncContextStorage<unknown> | undefined;

/** Installs the platform's async-context storage (called once by the Node entry point). */
export function installAsyncContextStorage(provider: AsyncContextStorage<unknown>): void {
  storage ??= provider;
}

/** True when a storage has been installed. */
export function hasAsyncContextStorage(): boolean {
  return storage !== undefined;
}

/** Runs `fn` with `store` as the ambient context (a plain call when no storage is installed). */
export function runInAsyncContext<T, R>(store: T, fn: () => R): R {
  return storage === undefined ? fn() : storage.run(store, fn);
}

/** The ambient context, or `undefined` outside any run (or without a storage). */
export function getAsyncContext<T>(): T | undefined {
  return storage?.getStore() as T | undefined;
}
