/**
 * Calls `fn` and returns its result: an immediately invoked function expression as a helper
 * (LangChain.js `iife`), handy for computing a `const` with statements.
 *
 * @example
 * ```ts
 * const label = iife(() => {
 *   if (count === 0) return "none";
 *   return count === 1 ? "one" : "many";
 * });
 * ```
 */
export const iife = <T>(fn: () => T): T => fn();
