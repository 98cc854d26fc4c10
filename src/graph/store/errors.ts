import { AgentGraphError } from "../../shared/index.js";

/**
 * A store namespace is not usable: empty where an item needs one, a label that is not a
 * non-empty string or contains `.`, `:` or a NUL byte, or the reserved root label `"langgraph"`
 * in a write. The message starts with LangGraph.js's text and says how to fix it.
 *
 * @example
 * ```ts
 * try {
 *   await store.put(["users.eu"], "k", {});
 * } catch (e) {
 *   if (e instanceof InvalidNamespaceError) console.log(e.message); // "Invalid namespace label 'users.eu' …"
 * }
 * ```
 */
export class InvalidNamespaceError extends AgentGraphError {
  static override readonly brandName: string = "InvalidNamespaceError";
}
