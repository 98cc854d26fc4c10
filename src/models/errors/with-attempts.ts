import type { ModelCallError } from "./model-call-error.js";

/**
 * Re-creates a {@link ModelCallError} (same class) recording how many requests were made, and
 * saying so in the message.
 *
 * @example
 * ```ts
 * throw withAttempts(lastError, 3); // "… Gave up after 3 attempts."
 * ```
 */
export function withAttempts(error: ModelCallError, attempts: number): ModelCallError {
  if (attempts <= 1) return error;
  const Ctor = error.constructor as new (
    message: string,
    options: ModelCallError["options"],
  ) => ModelCallError;
  const suffix = error.isRetryable
    ? ` Gave up after ${attempts} attempts (raise \`maxRetries\` to try longer).`
    : "";
  const copy = new Ctor(`${error.message}${suffix}`, {
    ...error.options,
    attempts,
    cause: error.options.cause,
  });
  return copy;
}
