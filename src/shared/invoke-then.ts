/**
 * Calling a runnable and going on with its answer in the continuation that finishes the call.
 * `await target.invoke(input)` (or `.then` on it) costs the caller a promise of its own on top
 * of the callee's, and under Node's `AsyncLocalStorage` each promise runs hooks: the agent's
 * model node makes one model call per step. A callee that finishes its call with a continuation
 * of its own (agentgraph's chat models) implements {@link INVOKE_THEN} and runs `then` there.
 */

/** The method of the protocol (a registered symbol: it holds across copies of the library). */
export const INVOKE_THEN: unique symbol = Symbol.for("agentgraph.invokeThen") as never;

/** A callee that hands its answer to `then` in the continuation that finishes the call. */
export interface InvokesThen<Input, Options, Answer> {
  [INVOKE_THEN]<R>(input: Input, options: Options, then: (answer: Answer) => R | PromiseLike<R>): Promise<R>;
}

/**
 * `Promise.resolve(target.invoke(input, options)).then(then)`, in one continuation when `target`
 * implements {@link INVOKE_THEN}. A rejection of the call rejects the result without reaching
 * `then`; what `then` throws rejects it too.
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
): Promise<R> {
  const own = (target as Partial<InvokesThen<Input, Options, Answer>>)[INVOKE_THEN];
  if (typeof own === "function") return own.call(target, input, options, then) as Promise<R>;
  return Promise.resolve(target.invoke(input, options)).then(then);
}
