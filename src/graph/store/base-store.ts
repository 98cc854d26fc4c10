import { validateNamespace } from "./namespace.js";
import type {
  GetOperation,
  Item,
  ListNamespacesOptions,
  MatchCondition,
  Operation,
  OperationResults,
  PutOperation,
  PutOptions,
  SearchItem,
  SearchOptions,
} from "./types.js";

/**
 * A long-term store: items (JSON-like objects) under hierarchical namespaces, shared across
 * threads — user memories, documents, preferences. Nodes reach the graph's store as
 * `config.store` (or `getStore()`). A store implements `batch`; the other methods are built
 * on it. Same shape as LangGraph.js's `BaseStore`.
 *
 * @example
 * ```ts
 * const store: BaseStore = new InMemoryStore();
 * await store.put(["users", "u1"], "prefs", { theme: "dark" });
 * const item = await store.get(["users", "u1"], "prefs"); // item.value.theme === "dark"
 * const found = await store.search(["users"], { filter: { theme: "dark" } });
 * await store.delete(["users", "u1"], "prefs");
 * ```
 */
/**
 * How the convenience methods check the namespaces they read or delete under (as LangGraph.js
 * does): `[]` and the reserved `"langgraph"` root are allowed, malformed labels are not.
 */
const LOOKUP = { allowEmpty: true, allowReservedRoot: true } as const;

export abstract class BaseStore {
  /**
   * Runs several operations in one go (in one transaction for database stores) and returns
   * their results in order. Reads see the store as it was before the batch's writes.
   */
  abstract batch<Op extends readonly Operation[]>(operations: Op): Promise<OperationResults<Op>>;

  /** The item at `namespace` / `key`, or `null`. */
  async get<Value extends Record<string, unknown> = Record<string, unknown>>(
    namespace: string[],
    key: string,
    options: { refreshTtl?: boolean | undefined } = {},
  ): Promise<Item<Value> | null> {
    validateNamespace(namespace, LOOKUP);
    // the operation has LangGraph.js's fields, and refreshTtl only when given
    const op: GetOperation = { namespace, key };
    if (options.refreshTtl !== undefined) op.refreshTtl = options.refreshTtl;
    const [item] = await this.batch([op] as const);
    return item as Item<Value> | null;
  }

  /**
   * Items under a namespace prefix (`[]` for all), filtered on their fields, optionally ranked
   * by similarity to `query` when the store has a vector index; 10 by default.
   */
  async search<Value extends Record<string, unknown> = Record<string, unknown>>(
    namespacePrefix: string[],
    options: SearchOptions = {},
  ): Promise<SearchItem<Value>[]> {
    validateNamespace(namespacePrefix, LOOKUP);
    // the operation has LangGraph.js's fields, with its defaults ({ limit: 10, offset: 0 }), then
    // the store-specific options given (refreshTtl, a PostgresStore's mode)
    const { filter, limit = 10, offset = 0, query, ...rest } = options;
    const [items] = await this.batch([{ namespacePrefix, filter, limit, offset, query, ...rest }] as const);
    return items as SearchItem<Value>[];
  }

  /**
   * Writes an item (replacing the one at the same namespace and key). `index` chooses the
   * fields to embed (`false` for none); `options.ttl` sets its expiry in minutes.
   */
  async put(
    namespace: string[],
    key: string,
    value: Record<string, unknown>,
    index?: false | string[],
    options?: PutOptions,
  ): Promise<void> {
    validateNamespace(namespace);
    const op: PutOperation = { namespace, key, value, index };
    if (options !== undefined) op.options = options;
    await this.batch([op] as const);
  }

  /** Deletes the item at `namespace` / `key` (nothing happens when there is none). */
  async delete(namespace: string[], key: string): Promise<void> {
    validateNamespace(namespace, LOOKUP);
    await this.batch([{ namespace, key, value: null }] as const);
  }

  /** The namespaces holding items, filtered by prefix / suffix, truncated to `maxDepth`; 100 by default. */
  async listNamespaces(options: ListNamespacesOptions = {}): Promise<string[][]> {
    // no conditions: `matchConditions` is left out, as LangGraph.js leaves it
    if (options.prefix !== undefined) validateNamespace(options.prefix, LOOKUP);
    if (options.suffix !== undefined) validateNamespace(options.suffix, LOOKUP);
    const conditions: MatchCondition[] = [];
    if (options.prefix !== undefined) conditions.push({ matchType: "prefix", path: options.prefix });
    if (options.suffix !== undefined) conditions.push({ matchType: "suffix", path: options.suffix });
    const matchConditions = conditions.length > 0 ? conditions : undefined;
    const [namespaces] = await this.batch([
      {
        matchConditions,
        maxDepth: options.maxDepth,
        limit: options.limit ?? 100,
        offset: options.offset ?? 0,
      },
    ] as const);
    return namespaces;
  }

  /** Prepares the store (connections, tables, sweepers). Override when needed. */
  start(): void | Promise<void> {}

  /** Releases what {@link start} acquired. Override when needed. */
  stop(): void | Promise<void> {}
}
