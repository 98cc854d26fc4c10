/**
 * Calling a runnable and going on with its answer in the continuation that finishes the call.
 * `await target.invoke(input)` (or `.then` on it) costs the caller a promise of its own on top
 * of the callee's, and under Node's `AsyncLocalStorage` each promise runs hooks: the agent's
 * model node makes one model call per step. A callee that finishes its call with a continuation
 * of its own (agentgraph's chat models) implements {@link INVOKE_THEN} and runs `then` there.
 */

import { promiseTry } from "./promise-try.js";

/** The method of the protocol (a registered symbol: it holds across copies of the library). */
export const INVOKE_THEN: unique symbol = Symbol.for("agentgraph.invokeThen") as never;

/** A callee that hands its answer to `then` (its failure to `onError`) in the continuation that finishes the call. */
export interface InvokesThen<Input, Options, Answer> {
  [INVOKE_THEN]<R>(
    input: Input,
    options: Options,
    then: (answer: Answer) => R | PromiseLike<R>,
    onError?: (error: unknown) => R | PromiseLike<R>,
  ): Promise<R>;
}

/**
 * `Promise.resolve(target.invoke(input, options)).then(then, onError)`, in one continuation when
 * `target` implements {@link INVOKE_THEN}. A failure of the call (a synchronous throw of `invoke`
 * included) goes to `onError`, or rejects the result without reaching `then` when there is none;
 * what `then` throws rejects the result (it does not reach `onError`).
 *
 * @example
 * ```ts
 * const update = await invokeThen(model, messages, {}, (answer) => ({ messages: [answer] }));
 * ```
 */
export function invokeThen<Input, Options, Answer, R>(
  target: { invoke(input: Input, options?: Options): PromiseLike<Answer> | Answer },
  input: Input,
  options: Options,
  then: (answer: Answer) => R | PromiseLike<R>,
  onError?: (error: unknown) => R | PromiseLike<R>,
): Promise<R> {
  const own = (target as Partial<InvokesThen<Input, Options, Answer>>)[INVOKE_THEN];
  if (typeof own === "function") return own.call(target, input, options, then, onError) as Promise<R>;
  return thenThroughInvoke(target, input, options, then, onError);
}

/**
 * {@link invokeThen} through `target.invoke` whatever else `target` implements: what an
 * {@link INVOKE_THEN} falls back to when a subclass replaced the `invoke` it stands for.
 *
 * @example
 * ```ts
 * if (this.invoke !== Base.prototype.invoke) return thenThroughInvoke(this, input, options, then, onError);
 * ```
 */
export function thenThroughInvoke<Input, Options, Answer, R>(
  target: { invoke(input: Input, options?: Options): PromiseLike<Answer> | Answer },
  input: Input,
  options: Options,
  then: (answer: Answer) => R | PromiseLike<R>,
  onError?: (error: unknown) => R | PromiseLike<R>,
): Promise<R> {
  let pending: PromiseLike<Answer> | Answer;
  try {
    pending = target.invoke(input, options);
  } catch (error) {
    return failedBeforeThen(error, onError);
  }
  return Promise.resolve(pending).then(then, onError);
}

/**
 * What an {@link INVOKE_THEN} returns for a call that failed before its continuation: what
 * `onError` makes of the failure, or the failure when there is no `onError`.
 *
 * @example
 * ```ts
 * try { call = this.prepare(input); } catch (error) { return failedBeforeThen(error, onError); }
 * ```
 */
export function failedBeforeThen<R>(
  error: unknown,
  onError: ((error: unknown) => R | PromiseLike<R>) | undefined,
): Promise<R> {
  return onError === undefined ? Promise.reject(error) : promiseTry(() => onError(error));
}
