import { defaultSerializer, type SerializerProtocol } from "../checkpoint/index.js";

/**
 * A cache namespace: the path entries are grouped under (for node caching, the node's:
 * `["__pregel_ns_writes", "__dynamic__", node]` for a graph node, `["__pregel_ns_writes", name]`
 * for a `task()`, as in LangGraph.js).
 *
 * @example
 * ```ts
 * const namespace: CacheNamespace = ["__pregel_ns_writes", "__dynamic__", "summarize"];
 * ```
 */
export type CacheNamespace = string[];

/**
 * The full key of a cache entry: its namespace and its key within it.
 *
 * @example
 * ```ts
 * const key: CacheFullKey = [["__pregel_ns_writes", "__dynamic__", "summarize"], "3f9a…"];
 * ```
 */
export type CacheFullKey = [namespace: CacheNamespace, key: string];

/**
 * The cache of node results (`compile({ cache })`, nodes with a `cachePolicy`): values by
 * namespace and key, with an optional time-to-live in seconds. Same shape as LangGraph.js's
 * `BaseCache`; values are stored through `serde`.
 *
 * @example
 * ```ts
 * class MapCache extends BaseCache {
 *   private entries = new Map<string, unknown>();
 *   async get(keys: CacheFullKey[]) {
 *     return keys.flatMap((key) => {
 *       const id = JSON.stringify(key);
 *       return this.entries.has(id) ? [{ key, value: this.entries.get(id) }] : [];
 *     });
 *   }
 *   async set(pairs: { key: CacheFullKey; value: unknown; ttl?: number }[]) {
 *     for (const { key, value } of pairs) this.entries.set(JSON.stringify(key), value);
 *   }
 *   async clear() {
 *     this.entries.clear();
 *   }
 * }
 * ```
 */
export abstract class BaseCache<V = unknown> {
  /** How values are encoded. */
  serde: SerializerProtocol;

  constructor(serde: SerializerProtocol = defaultSerializer) {
    this.serde = serde;
  }

  /** The entries found for `keys` (missing and expired ones are left out). */
  abstract get(keys: CacheFullKey[]): Promise<{ key: CacheFullKey; value: V }[]>;

  /** Stores values; `ttl` is in seconds (none: kept until cleared). */
  abstract set(pairs: { key: CacheFullKey; value: V; ttl?: number | undefined }[]): Promise<void>;

  /** Deletes the entries of the given namespaces (exact matches), or every entry when none are given. */
  abstract clear(namespaces?: CacheNamespace[]): Promise<void>;
}
