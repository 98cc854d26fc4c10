/**
 * An issue to print: a message and where it is.
 *
 * @example
 * ```ts
 * const issue: PrintableIssue = { message: "Invalid input: expected string, received number", path: ["city"] };
 * ```
 */
export interface PrintableIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/**
 * Prints validation issues the way zod's `prettifyError` does (`✖ message` then `→ at path`),
 * shortest paths first, so tool argument errors read the same for zod and JSON Schema tools.
 *
 * @example
 * ```ts
 * formatIssues([{ message: "Invalid input: expected string, received number", path: ["city"] }]);
 * // "✖ Invalid input: expected string, received number\n  → at city"
 * ```
 */
export function formatIssues(issues: ReadonlyArray<PrintableIssue>): string {
  return [...issues]
    .sort((a, b) => (a.path?.length ?? 0) - (b.path?.length ?? 0))
    .map((issue) => {
      const path = formatPath(issue.path ?? []);
      return path === "" ? `✖ ${issue.message}` : `✖ ${issue.message}\n  → at ${path}`;
    })
    .join("\n");
}

/**
 * Prints an issue path the way zod does.
 *
 * @example
 * ```ts
 * formatPath(["items", 0, "name"]); // "items[0].name"
 * ```
 */
export function formatPath(path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>): string {
  let out = "";
  for (const segment of path) {
    const key = typeof segment === "object" ? segment.key : segment;
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "symbol") out += `[${String(key)}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}
