/**
 * Merges stored call settings and config under a call's own options, the way LangChain.js
 * merges a binding's config: later values win, except `tags` (union), `metadata` and
 * `configurable` (shallow merge) and `callbacks` (concatenated).
 *
 * @example
 * ```ts
 * mergeCallOptions({ tags: ["a"] }, { tags: ["b"], stop: ["\n"] }); // { tags: ["a", "b"], stop: ["\n"] }
 * ```
 */
export function mergeCallOptions<T extends object>(...layers: Array<Partial<T> | undefined>): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    if (layer === undefined) continue;
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      const current = out[key];
      if (key === "tags" && Array.isArray(current) && Array.isArray(value)) {
        out[key] = [...new Set([...current, ...value])];
      } else if (key === "callbacks" && Array.isArray(current) && Array.isArray(value)) {
        out[key] = [...current, ...value];
      } else if ((key === "metadata" || key === "configurable") && isRecord(current) && isRecord(value)) {
        out[key] = { ...current, ...value };
      } else {
        out[key] = value;
      }
    }
  }
  return out as Partial<T>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
