import { INTERRUPT, type Interrupt } from "../core/index.js";

/**
 * True when a run's result says the run paused (`result.__interrupt__`): on `interrupt()` calls,
 * or at a breakpoint (then the list is empty).
 *
 * @example
 * ```ts
 * const result = await graph.invoke(input, config);
 * if (isInterrupted(result)) console.log(result.__interrupt__[0]?.value);
 * ```
 */
export function isInterrupted<Value = unknown>(value: unknown): value is { [INTERRUPT]: Interrupt<Value>[] } {
  if (typeof value !== "object" || value === null) return false;
  const interrupts = (value as Record<string, unknown>)[INTERRUPT];
  // a breakpoint pauses with no interrupt values (`__interrupt__: []`): still a paused run
  return Array.isArray(interrupts);
}
