import { AbortError, raceSignal } from "../shared/index.js";

/**
 * The error an agent run fails with when the agent's own `signal` aborts, as LangChain.js
 * makes it: the signal's reason when it is an `Error`, an error with the reason as its message
 * when it is a string, else `Aborted`.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * controller.abort("stop");
 * abortReason(controller.signal).message; // "stop"
 * ```
 */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  if (typeof reason === "string") return new AbortError(reason);
  return new AbortError("Aborted");
}

/** Settles like `work`, or fails with {@link abortReason} as soon as the agent's `signal` aborts. */
export function raceAgentSignal<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  return raceSignal(work, signal, () => abortReason(signal));
}
