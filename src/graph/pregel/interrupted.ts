import { INTERRUPT, type Interrupt } from "../core/index.js";

/**
 * True when a run's result says the run paused on interrupts (`result.__interrupt__`).
 *
 * @example
 * ```ts
 * const result = await graph.invoke(input, config);
 * if (isInterrupted(result)) console.log(result.__interrupt__[0].value);
 * ```
 */
export function isInterrupted<Value = unknown>(value: unknown): value is { [INTERRUPT]: Interrupt<Value>[] } {
  if (typeof value !== "object" || value === null) return false;
  const interrupts = (value as Record<string, unknown>)[INTERRUPT];
  return Array.isArray(interrupts) && interrupts.length > 0;
}
