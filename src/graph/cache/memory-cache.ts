import { isSyncSerializer } from "../checkpoint/index.js";
import { BaseCache, type CacheFullKey, type CacheNamespace } from "./base-cache.js";

interface Entry {
  type: string;
  data: Uint8Array | string;
  /** Epoch milliseconds after which the entry is gone; undefined for never. */
  expiresAt: number | undefined;
}

/**
 * A namespace's labels as JSON: no two namespaces share it, whatever their labels contain
 * (`["a,b"]` and `["a", "b"]`, `[]` and `[""]` stay apart).
 */
const namespaceId = (namespace: readonly string[]) => JSON.stringify(namespace);

/**
 * A cache kept in memory. Values are stored encoded, so a cached value is a copy: mutating what
 * `get` returned changes nothing cached. Expired entries are dropped when read.
 *
 * @example
 * ```ts
 * const cache = new InMemoryCache();
 * await cache.set([{ key: [["ns"], "k"], value: { answer: 42 }, ttl: 60 }]);
 * await cache.get([[["ns"], "k"]]); // [{ key: [["ns"], "k"], value: { answer: 42 } }]
 * await cache.clear([["ns"]]);
 * const graph = builder.compile({ cache });
 * ```
 */
export class InMemoryCache<V = unknown> extends BaseCache<V> {
  private readonly namespaces = new Map<string, Map<string, Entry>>();

  async get(keys: CacheFullKey[]): Promise<{ key: CacheFullKey; value: V }[]> {
    const now = Date.now();
    const found: { key: CacheFullKey; value: V }[] = [];
    for (const key of keys) {
      const [namespace, id] = key;
      const entries = this.namespaces.get(namespaceId(namespace));
      const entry = entries?.get(id);
      if (entries === undefined || entry === undefined) continue;
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) {
        entries.delete(id);
        continue;
      }
      found.push({ key, value: (await this.decode(entry)) as V });
    }
    return found;
  }

  async set(pairs: { key: CacheFullKey; value: V; ttl?: number | undefined }[]): Promise<void> {
    const now = Date.now();
    const encoded = await Promise.all(pairs.map(({ value }) => this.encode(value)));
    pairs.forEach(({ key: [namespace, id], ttl }, i) => {
      const nsId = namespaceId(namespace);
      let entries = this.namespaces.get(nsId);
      if (entries === undefined) {
        entries = new Map();
        this.namespaces.set(nsId, entries);
      }
      const [type, data] = encoded[i] as [string, Uint8Array | string];
      // a null ttl (from JavaScript) means no expiry, as an absent one does
      entries.set(id, { type, data, expiresAt: ttl == null ? undefined : now + ttl * 1000 });
    });
  }

  async clear(namespaces?: CacheNamespace[]): Promise<void> {
    if (namespaces === undefined || namespaces.length === 0) {
      this.namespaces.clear();
      return;
    }
    for (const namespace of namespaces) this.namespaces.delete(namespaceId(namespace));
  }

  private async encode(value: unknown): Promise<[string, Uint8Array | string]> {
    return isSyncSerializer(this.serde) ? ["json", this.serde.encode(value)] : this.serde.dumpsTyped(value);
  }

  private async decode({ type, data }: Entry): Promise<unknown> {
    if (type === "json" && typeof data === "string" && isSyncSerializer(this.serde))
      return this.serde.decode(data);
    return this.serde.loadsTyped(type, data);
  }
}
