/**
 * The key-value store `langchain` exports from its root as `InMemoryStore` (LangChain's
 * `@langchain/core/stores` one: `mget` / `mset` / `mdelete` / `yieldKeys`), for caches of
 * embeddings, documents and the like. It is not the graph's long-term memory store: that one
 * (`put` / `get` / `search` under namespaces, for `createAgent({ store })`) is `InMemoryStore`
 * from `agentgraph`, as it is `InMemoryStore` from `@langchain/langgraph`.
 *
 * @example
 * ```ts
 * import { InMemoryStore } from "agentgraph/agents";
 *
 * const store = new InMemoryStore<string>();
 * await store.mset([["a", "1"], ["b", "2"]]);
 * await store.mget(["a", "c"]); // ["1", undefined]
 * for await (const key of store.yieldKeys("a")) console.log(key); // "a"
 * ```
 */
export class InMemoryStore<T = unknown> {
  /** LangChain's serialization namespace of the class. */
  readonly lc_namespace = ["langchain", "storage"];

  /** The values by key (no prototype, so any text is a key). */
  store: Record<string, T> = Object.create(null) as Record<string, T>;

  /** The values of `keys`, in order; `undefined` for a key that has none. */
  async mget(keys: string[]): Promise<(T | undefined)[]> {
    return keys.map((key) => this.store[key]);
  }

  /** Sets each key to its value. */
  async mset(keyValuePairs: [string, T][]): Promise<void> {
    for (const [key, value] of keyValuePairs) this.store[key] = value;
  }

  /** Deletes the keys (a missing key is ignored). */
  async mdelete(keys: string[]): Promise<void> {
    for (const key of keys) delete this.store[key];
  }

  /** The keys, in the order they were first set, those starting with `prefix` when given. */
  async *yieldKeys(prefix?: string): AsyncGenerator<string> {
    for (const key of Object.keys(this.store)) {
      if (prefix === undefined || key.startsWith(prefix)) yield key;
    }
  }
}
