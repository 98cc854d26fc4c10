/**
 * Namespaces of nested graphs (`["parent:<task id>", "child:<task id>"]`) as map keys and
 * prefixes, for the streams that group events by the graph they came from.
 */

/** `ns` as a map key (segments never hold a NUL). */
export function nsKey(ns: readonly string[]): string {
  return ns.join("\0");
}

/** True when `ns` starts with all of `prefix`'s segments. */
export function hasPrefix(ns: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length > ns.length) return false;
  for (let i = 0; i < prefix.length; i += 1) if (ns[i] !== prefix[i]) return false;
  return true;
}
