/**
 * The data shapes of long-term stores, as LangGraph.js names them: items, the four batch
 * operations and their results, search filters, vector-index and TTL settings.
 */

/**
 * A stored item: its value, its key, the namespace it lives in and when it was written.
 *
 * @example
 * ```ts
 * const item: Item | null = await store.get(["users", "u1"], "prefs");
 * item?.value.theme; // "dark"
 * ```
 */
export interface Item<Value extends Record<string, unknown> = Record<string, unknown>> {
  /** The stored data. Its top-level fields can be filtered on. */
  value: Value;
  /** Identifier of the item within its namespace. */
  key: string;
  /** Hierarchical path of the collection holding the item, e.g. `["users", "u1"]`. */
  namespace: string[];
  /** When the item was first written. */
  createdAt: Date;
  /** When the item was last written. */
  updatedAt: Date;
}

/**
 * An item found by `search`, with its relevance `score` when the search was ranked by a
 * `query` (cosine similarity, higher is closer; absent for unranked results).
 *
 * @example
 * ```ts
 * const [best] = await store.search(["docs"], { query: "refund policy" });
 * best?.score; // 0.83
 * ```
 */
export interface SearchItem<Value extends Record<string, unknown> = Record<string, unknown>>
  extends Item<Value> {
  /**
   * Similarity to the query, when the search had one and the store has a vector index; the key is
   * present (`undefined`) on unranked results, as in LangGraph.js.
   */
  score?: number | undefined;
}

/**
 * Reads one item.
 *
 * @example
 * ```ts
 * const [item] = await store.batch([{ namespace: ["users", "u1"], key: "prefs" }]);
 * ```
 */
export interface GetOperation {
  /** Namespace of the item. */
  namespace: string[];
  /** Key of the item. */
  key: string;
  /** Whether reading it restarts its TTL (default: the store's `ttl.refreshOnRead`). */
  refreshTtl?: boolean | undefined;
}

/**
 * Comparison operators of a search filter, applied to one field of the item's value.
 *
 * @example
 * ```ts
 * const filter: Record<string, FilterOperators> = { price: { $gte: 10, $lt: 20 } };
 * ```
 */
export interface FilterOperators {
  /** Equal (deep equality for objects and arrays). */
  $eq?: unknown;
  /** Not equal (a missing field is not equal to anything). */
  $ne?: unknown;
  /** Greater than (numbers with numbers, strings with strings, Dates with Dates). */
  $gt?: unknown;
  /** Greater than or equal. */
  $gte?: unknown;
  /** Less than. */
  $lt?: unknown;
  /** Less than or equal. */
  $lte?: unknown;
  /** Equal to one of the listed values. */
  $in?: unknown[];
  /** Equal to none of the listed values. */
  $nin?: unknown[];
  /** Whether the field is present (and not undefined). */
  $exists?: boolean;
}

/**
 * Lists items under a namespace prefix, optionally filtered and ranked by a query.
 *
 * @example
 * ```ts
 * const [items] = await store.batch([{ namespacePrefix: ["docs"], filter: { lang: "en" }, limit: 5 }]);
 * ```
 */
export interface SearchOperation {
  /** Namespace prefix to search under (`[]` searches everything). */
  namespacePrefix: string[];
  /**
   * Conditions on the top-level fields of the value (a dotted path reaches nested fields):
   * a plain value means equality, an object of {@link FilterOperators} compares.
   */
  filter?: Record<string, unknown> | undefined;
  /** Maximum number of items to return (default 10). */
  limit?: number | undefined;
  /** Number of matching items to skip (default 0). */
  offset?: number | undefined;
  /** Natural-language query: ranks results by similarity when the store has a vector index. */
  query?: string | undefined;
  /** Whether returning the items restarts their TTL (default: the store's `ttl.refreshOnRead`). */
  refreshTtl?: boolean | undefined;
}

/**
 * Per-item write options.
 *
 * @example
 * ```ts
 * await store.put(["sessions"], "s1", { user: "u1" }, undefined, { ttl: 30 }); // expires in 30 minutes
 * ```
 */
export interface PutOptions {
  /** Minutes until the item expires; `null` for never (default: the store's `ttl.defaultTtl`). */
  ttl?: number | null | undefined;
}

/**
 * Writes or deletes one item.
 *
 * @example
 * ```ts
 * await store.batch([{ namespace: ["docs"], key: "d1", value: { text: "hello" } }]);
 * await store.batch([{ namespace: ["docs"], key: "d1", value: null }]); // deletes it
 * ```
 */
export interface PutOperation {
  /** Namespace of the item. */
  namespace: string[];
  /** Key of the item. */
  key: string;
  /** The value to store, or `null` to delete the item. */
  value: Record<string, unknown> | null;
  /**
   * Which fields to embed for vector search: `false` for none, a list of paths
   * (`"title"`, `"meta.summary"`, `"chapters[*].text"`), or the store's default when absent.
   */
  index?: false | string[] | undefined;
  /** Expiry of the item. */
  options?: PutOptions | undefined;
}

/**
 * Whether a {@link MatchCondition} compares the start or the end of namespaces.
 *
 * @example
 * ```ts
 * const matchType: NamespaceMatchType = "suffix";
 * ```
 */
export type NamespaceMatchType = "prefix" | "suffix";

/**
 * A namespace pattern; `"*"` matches any one label.
 *
 * @example
 * ```ts
 * const pattern: NameSpacePath = ["users", "*", "memories"];
 * ```
 */
export type NameSpacePath = (string | "*")[];

/**
 * A condition on namespaces for {@link ListNamespacesOperation}.
 *
 * @example
 * ```ts
 * const condition: MatchCondition = { matchType: "prefix", path: ["users", "*"] };
 * ```
 */
export interface MatchCondition {
  /** Compare the start (`"prefix"`) or the end (`"suffix"`) of each namespace. */
  matchType: NamespaceMatchType;
  /** The labels to match; `"*"` matches any label. */
  path: NameSpacePath;
}

/**
 * Lists the namespaces that hold items.
 *
 * @example
 * ```ts
 * const [namespaces] = await store.batch([{ matchConditions: [{ matchType: "prefix", path: ["users"] }], limit: 100, offset: 0 }]);
 * ```
 */
export interface ListNamespacesOperation {
  /** Conditions every listed namespace meets. */
  matchConditions?: MatchCondition[] | undefined;
  /** Truncate namespaces to this many labels (duplicates are then listed once). */
  maxDepth?: number | undefined;
  /** Maximum number of namespaces to return. */
  limit: number;
  /** Number of namespaces to skip. */
  offset: number;
}

/**
 * Any store operation.
 *
 * @example
 * ```ts
 * const ops: Operation[] = [{ namespace: ["a"], key: "k" }, { namespacePrefix: ["a"] }];
 * ```
 */
export type Operation = GetOperation | SearchOperation | PutOperation | ListNamespacesOperation;

/**
 * The result of each operation of a batch, position by position: an item or `null` for a
 * get, a list of items for a search, nothing for a put, namespaces for a list.
 *
 * @example
 * ```ts
 * const [item, found] = await store.batch([
 *   { namespace: ["a"], key: "k" },
 *   { namespacePrefix: ["a"] },
 * ] as const);
 * ```
 */
export type OperationResults<Tuple extends readonly Operation[]> = {
  [K in keyof Tuple]: Tuple[K] extends PutOperation
    ? // biome-ignore lint/suspicious/noConfusingVoidType: LangGraph.js types a put's result as void
      void
    : Tuple[K] extends SearchOperation
      ? SearchItem[]
      : Tuple[K] extends GetOperation
        ? Item | null
        : Tuple[K] extends ListNamespacesOperation
          ? string[][]
          : never;
};

/**
 * What a vector index needs from an embeddings model (a LangChain `Embeddings` instance fits).
 *
 * @example
 * ```ts
 * const embeddings: Embeddings = {
 *   embedDocuments: async (texts) => texts.map(myEmbed),
 *   embedQuery: async (text) => myEmbed(text),
 * };
 * ```
 */
export interface Embeddings {
  /** One vector per text. */
  embedDocuments(texts: string[]): Promise<number[][]>;
  /** The vector of a query. */
  embedQuery(text: string): Promise<number[]>;
}

/**
 * Vector-search settings of a store.
 *
 * @example
 * ```ts
 * const store = new InMemoryStore({ index: { dims: 1536, embeddings, fields: ["text"] } });
 * ```
 */
export interface IndexConfig {
  /** Length of the embedding vectors (informative: not checked, as in LangGraph.js). */
  dims: number;
  /** The model that embeds stored fields and queries. */
  embeddings: Embeddings;
  /** Paths of the fields to embed (default `["$"]`, the whole value as JSON). */
  fields?: string[] | undefined;
}

/**
 * Expiry settings of a store. Times are in minutes.
 *
 * @example
 * ```ts
 * const store = new InMemoryStore({ ttl: { defaultTtl: 60 * 24, sweepIntervalMinutes: 10 } });
 * ```
 */
export interface TTLConfig {
  /** Minutes until an item expires when `put` gives no `ttl` (default: never). */
  defaultTtl?: number | undefined;
  /** Whether reading an item restarts its TTL (default `true`). */
  refreshOnRead?: boolean | undefined;
  /** Minutes between sweeps that delete expired items (default: no automatic sweep). */
  sweepIntervalMinutes?: number | undefined;
}

/**
 * Options of `store.search`.
 *
 * @example
 * ```ts
 * await store.search(["docs"], { filter: { lang: "en" }, query: "refunds", limit: 3 });
 * ```
 */
export type SearchOptions = Omit<SearchOperation, "namespacePrefix">;

/**
 * Options of `store.listNamespaces`.
 *
 * @example
 * ```ts
 * await store.listNamespaces({ prefix: ["users"], maxDepth: 2, limit: 50 });
 * ```
 */
export interface ListNamespacesOptions {
  /** Only namespaces starting with these labels (`"*"` matches any label). */
  prefix?: NameSpacePath | undefined;
  /** Only namespaces ending with these labels (`"*"` matches any label). */
  suffix?: NameSpacePath | undefined;
  /** Truncate namespaces to this many labels. */
  maxDepth?: number | undefined;
  /** Maximum number of namespaces (default 100). */
  limit?: number | undefined;
  /** Number of namespaces to skip (default 0). */
  offset?: number | undefined;
}
