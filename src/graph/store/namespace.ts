import { InvalidArgumentError } from "../../shared/index.js";
import { InvalidNamespaceError } from "./errors.js";
import type { ListNamespacesOperation, MatchCondition } from "./types.js";

const FIX = "Use non-empty labels made of anything but '.', ':' and NUL, e.g. [\"users\", userId].";

/**
 * Checks a namespace as LangGraph.js does, throwing an {@link InvalidNamespaceError}: it must
 * be a non-empty array (unless `allowEmpty`) of non-empty strings without `.`, `:` or NUL,
 * whose first label is not `"langgraph"` (unless `allowReservedRoot`).
 *
 * @example
 * ```ts
 * validateNamespace(["users", "u1"]); // ok
 * validateNamespace([], { allowEmpty: true }); // ok: search([]) searches everything
 * validateNamespace(["a.b"]); // throws InvalidNamespaceError
 * ```
 */
export function validateNamespace(
  namespace: readonly unknown[],
  options: { allowEmpty?: boolean; allowReservedRoot?: boolean } = {},
): void {
  if (!Array.isArray(namespace)) {
    throw new InvalidNamespaceError(
      `A namespace must be an array of strings, got ${namespace === null ? "null" : typeof namespace}. ${FIX}`,
    );
  }
  if (namespace.length === 0) {
    if (options.allowEmpty) return;
    throw new InvalidNamespaceError(
      `Namespace cannot be empty. Give the item a namespace such as ["memories"].`,
    );
  }
  for (const label of namespace) {
    if (typeof label !== "string") {
      throw new InvalidNamespaceError(
        `Invalid namespace label '${String(label)}' found in ${namespace}. Namespace labels must be strings, but got ${typeof label}. ${FIX}`,
      );
    }
    if (label.includes(".")) {
      throw new InvalidNamespaceError(
        `Invalid namespace label '${label}' found in ${namespace}. Namespace labels cannot contain periods ('.'). ${FIX}`,
      );
    }
    if (label.includes(":")) {
      throw new InvalidNamespaceError(
        `Invalid namespace label '${label}'. Namespace labels cannot contain colons (':'). ${FIX}`,
      );
    }
    if (label.includes("\0"))
      throw new InvalidNamespaceError(`Namespace labels cannot contain NUL bytes. ${FIX}`);
    if (label === "") {
      throw new InvalidNamespaceError(
        `Namespace labels cannot be empty strings. Got ${label} in ${namespace}. ${FIX}`,
      );
    }
  }
  if (namespace[0] === "langgraph" && !options.allowReservedRoot) {
    throw new InvalidNamespaceError(
      `Root label for namespace cannot be "langgraph". Got: ${namespace}. The "langgraph" root is reserved for the library; start the namespace with your own label.`,
    );
  }
}

/**
 * The text form of a namespace: its labels joined with `.` (labels cannot contain `.`), so
 * `["a", "b"]` is `"a.b"` and the namespaces under it are the texts starting with `"a.b."`.
 *
 * @example
 * ```ts
 * namespaceToPath(["users", "u1"]); // "users.u1"
 * ```
 */
export function namespaceToPath(namespace: readonly string[]): string {
  return namespace.join(".");
}

/**
 * The namespace of a text written by {@link namespaceToPath}.
 *
 * @example
 * ```ts
 * pathToNamespace("users.u1"); // ["users", "u1"]
 * ```
 */
export function pathToNamespace(path: string): string[] {
  return path === "" ? [] : path.split(".");
}

/**
 * Orders namespaces label by label (a namespace before its extensions), as `listNamespaces`
 * returns them.
 *
 * @example
 * ```ts
 * [["b"], ["a", "x"], ["a"]].sort(compareNamespaces); // [["a"], ["a", "x"], ["b"]]
 * ```
 */
export function compareNamespaces(a: readonly string[], b: readonly string[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

function matches(namespace: readonly string[], condition: MatchCondition): boolean {
  const { path } = condition;
  if (path.length > namespace.length) return false;
  const start = condition.matchType === "suffix" ? namespace.length - path.length : 0;
  for (let i = 0; i < path.length; i++) {
    const label = path[i];
    if (label !== "*" && label !== namespace[start + i]) return false;
  }
  return true;
}

/** Checks the conditions, depth and page of a list-namespaces operation. */
export function validateListNamespaces(op: ListNamespacesOperation): void {
  for (const condition of op.matchConditions ?? []) {
    if (condition.matchType !== "prefix" && condition.matchType !== "suffix") {
      throw new InvalidArgumentError(
        `listNamespaces: matchType must be "prefix" or "suffix", got ${JSON.stringify(condition.matchType)}.`,
      );
    }
    validateNamespace(condition.path, { allowEmpty: true, allowReservedRoot: true });
  }
  if (op.maxDepth !== undefined && (!Number.isInteger(op.maxDepth) || op.maxDepth < 1)) {
    throw new InvalidArgumentError(
      `listNamespaces: maxDepth must be a positive integer, got ${op.maxDepth}. Omit it to list namespaces at full depth.`,
    );
  }
  validatePage("listNamespaces", op.limit, op.offset);
}

/** Checks `limit` and `offset` of a search or a namespace listing. */
export function validatePage(what: string, limit: unknown, offset: unknown): void {
  if (limit !== undefined && (!Number.isInteger(limit) || (limit as number) < 0)) {
    throw new InvalidArgumentError(`${what}: limit must be a non-negative integer, got ${String(limit)}.`);
  }
  if (offset !== undefined && (!Number.isInteger(offset) || (offset as number) < 0)) {
    throw new InvalidArgumentError(`${what}: offset must be a non-negative integer, got ${String(offset)}.`);
  }
}

/**
 * Applies a list-namespaces operation to the namespaces that hold items: keeps those meeting
 * every condition, truncates them to `maxDepth`, lists each once, sorts them with
 * {@link compareNamespaces} and returns the page `offset … offset + limit`.
 *
 * @example
 * ```ts
 * selectNamespaces([["a", "b", "c"], ["a", "d"]], { maxDepth: 2, limit: 10, offset: 0 }); // [["a", "b"], ["a", "d"]]
 * ```
 */
export function selectNamespaces(
  namespaces: Iterable<readonly string[]>,
  op: ListNamespacesOperation,
  order: (a: readonly string[], b: readonly string[]) => number = compareNamespaces,
): string[][] {
  const conditions = op.matchConditions ?? [];
  const seen = new Map<string, string[]>();
  for (const namespace of namespaces) {
    if (!conditions.every((condition) => matches(namespace, condition))) continue;
    const kept = op.maxDepth !== undefined ? namespace.slice(0, op.maxDepth) : [...namespace];
    const key = namespaceToPath(kept);
    if (!seen.has(key)) seen.set(key, kept);
  }
  const sorted = [...seen.values()].sort(order);
  const offset = op.offset ?? 0;
  return sorted.slice(offset, offset + (op.limit ?? 100));
}
