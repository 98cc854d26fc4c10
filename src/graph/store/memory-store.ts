import { defaultSerializer } from "../checkpoint/index.js";
import { BaseStore } from "./base-store.js";
import { matchesFilter } from "./filter.js";
import { namespaceToPath, selectNamespaces } from "./namespace.js";
import { planStoreBatch, type StoreRead } from "./operations.js";
import { StoreTtlPolicy } from "./ttl.js";
import type {
  GetOperation,
  IndexConfig,
  Item,
  ListNamespacesOperation,
  Operation,
  OperationResults,
  PutOperation,
  SearchItem,
  SearchOperation,
  TTLConfig,
} from "./types.js";
import { embedPuts, embedQueries, type StoredVector, similarity } from "./vectors.js";

interface StoredItem {
  namespace: readonly string[];
  path: string;
  key: string;
  /** The value as the serializer wrote it: every read decodes a fresh copy. */
  text: string;
  /** A private decoded copy that filters read (never handed out). */
  value: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  ttlMinutes: number | undefined;
  expiresAt: number | undefined;
  vectors: StoredVector[] | undefined;
}

const itemId = (path: string, key: string) => `${path}\0${key}`;

/**
 * Options of {@link InMemoryStore}.
 *
 * @example
 * ```ts
 * const options: InMemoryStoreOptions = { ttl: { defaultTtl: 60 } };
 * ```
 */
export interface InMemoryStoreOptions {
  /** Vector search: embed fields of stored values and rank `search({ query })` by cosine similarity. */
  index?: IndexConfig | undefined;
  /** Expiry of items. */
  ttl?: TTLConfig | undefined;
}

/**
 * A store kept in memory, for tests and single-process apps (data is lost when the process
 * exits; use `SqliteStore` or `PostgresStore` to keep it). Values are stored through the
 * checkpoint serializer, so what you read is a copy (mutating it changes nothing stored) and
 * behaves as it would in a database store. With `index`, `search({ query })` ranks items by
 * cosine similarity of their embedded fields.
 *
 * @example
 * ```ts
 * const store = new InMemoryStore();
 * await store.put(["users", "u1"], "prefs", { theme: "dark" });
 * (await store.get(["users", "u1"], "prefs"))?.value; // { theme: "dark" }
 *
 * const semantic = new InMemoryStore({ index: { dims: 1536, embeddings, fields: ["text"] } });
 * await semantic.put(["docs"], "d1", { text: "Refunds take 5 days." });
 * await semantic.search(["docs"], { query: "how long do refunds take?" }); // [{ …, score: 0.82 }]
 * ```
 */
export class InMemoryStore extends BaseStore {
  private readonly items = new Map<string, StoredItem>();
  /**
   * Each namespace ever written to (a delete counts), by the order of its first write: search
   * lists namespaces in that order, which emptying a namespace does not change (LangGraph.js's
   * store keeps its namespaces once made).
   */
  private readonly namespaceRanks = new Map<string, number>();
  private readonly ttl: StoreTtlPolicy;
  private readonly index: IndexConfig | undefined;

  constructor(options: InMemoryStoreOptions = {}) {
    super();
    this.index = options.index;
    this.ttl = new StoreTtlPolicy(options.ttl);
  }

  /** The vector-index settings, when the store has them. */
  get indexConfig(): IndexConfig | undefined {
    return this.index;
  }

  async batch<Op extends readonly Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const plan = planStoreBatch(operations);
    // Embeddings are awaited first; then reads and writes run without interruption, so the
    // batch is atomic and its reads see the store as it was before its writes.
    // an empty query is no query (nothing is embedded, results keep their order), as in LangGraph.js
    const queries = plan.reads.flatMap((read) =>
      read.kind === "search" && read.op.query ? [read.op.query] : [],
    );
    // an index without `embeddings` (say, Python's `{ embed, dims }`) embeds nothing: searches
    // filter and page unscored, as in LangGraph.js
    const index = this.index?.embeddings ? this.index : undefined;
    const queryVectors = index && queries.length > 0 ? await embedQueries(index, queries) : undefined;
    const putVectors = index ? await embedPuts(index, plan.puts) : undefined;
    const writes = plan.puts.map((op) => this.prepareWrite(op, putVectors?.get(op)));
    const now = Date.now();
    // a put's result is null, as LangGraph.js's InMemoryStore answers it
    const results: unknown[] = new Array(operations.length).fill(null);
    for (const read of plan.reads) results[read.index] = this.read(read, now, queryVectors);
    for (const write of writes) this.applyWrite(write, now);
    if (writes.length > 0) this.ttl.startSweeper(() => this.sweepExpiredItems());
    return results as OperationResults<Op>;
  }

  /** Deletes expired items now; returns how many. (Expired items are never returned anyway.) */
  async sweepExpiredItems(): Promise<number> {
    const now = Date.now();
    let count = 0;
    for (const [id, item] of this.items) {
      if (item.expiresAt !== undefined && item.expiresAt <= now) {
        this.items.delete(id);
        count++;
      }
    }
    return count;
  }

  /** Starts the TTL sweep (when configured), again after a {@link stop} too. */
  override start(): void {
    this.ttl.restartSweeper(() => this.sweepExpiredItems());
  }

  /** Stops the TTL sweep, which later writes do not restart (only {@link start} does). */
  override stop(): void {
    this.ttl.stopSweeper();
  }

  private live(id: string, now: number): StoredItem | undefined {
    const item = this.items.get(id);
    return item !== undefined && (item.expiresAt === undefined || item.expiresAt > now) ? item : undefined;
  }

  private read(read: StoreRead, now: number, queryVectors: Map<string, StoredVector> | undefined): unknown {
    if (read.kind === "get") return this.readItem(read.op, now);
    if (read.kind === "search") return this.searchItems(read.op, now, queryVectors);
    return this.listNamespacesNow(read.op, now);
  }

  private readItem(op: GetOperation, now: number): Item | null {
    const item = this.live(itemId(namespaceToPath(op.namespace), op.key), now);
    if (item === undefined) return null;
    this.refresh(item, op.refreshTtl, now);
    return toItem(item);
  }

  private searchItems(
    op: SearchOperation,
    now: number,
    queryVectors: Map<string, StoredVector> | undefined,
  ): SearchItem[] {
    const prefix = namespaceToPath(op.namespacePrefix);
    const under = `${prefix}.`;
    // LangGraph.js's store keeps items by namespace, so its results come namespace by namespace
    // (in the order each was first written to), in write order within one
    const byNamespace = new Map<string, StoredItem[]>();
    for (const item of this.items.values()) {
      if (item.expiresAt !== undefined && item.expiresAt <= now) continue;
      if (prefix !== "" && item.path !== prefix && !item.path.startsWith(under)) continue;
      if (!matchesFilter(item.value, op.filter)) continue;
      const list = byNamespace.get(item.path);
      if (list === undefined) byNamespace.set(item.path, [item]);
      else list.push(item);
    }
    const ranked = [...byNamespace].sort(
      ([a], [b]) => (this.namespaceRanks.get(a) ?? 0) - (this.namespaceRanks.get(b) ?? 0),
    );
    const candidates: StoredItem[] = [];
    for (const [, list] of ranked) for (const item of list) candidates.push(item);
    const offset = op.offset ?? 0;
    const limit = op.limit ?? 10;
    const query = op.query ? queryVectors?.get(op.query) : undefined;
    let page: { item: StoredItem; score?: number }[];
    if (query === undefined) {
      page = candidates.slice(offset, offset + limit).map((item) => ({ item }));
    } else {
      const scored = candidates.map((item) => ({ item, score: similarity(query, item.vectors) }));
      const ranked = scored
        .filter((entry) => entry.score !== undefined)
        .sort((a, b) => (b.score as number) - (a.score as number));
      const unranked = scored.filter((entry) => entry.score === undefined).map(({ item }) => ({ item }));
      page = [...ranked, ...unranked].slice(offset, offset + limit);
    }
    return page.map(({ item, score }) => {
      this.refresh(item, op.refreshTtl, now);
      const found: SearchItem = toItem(item);
      found.score = score;
      return found;
    });
  }

  private listNamespacesNow(op: ListNamespacesOperation, now: number): string[][] {
    const namespaces = new Map<string, readonly string[]>();
    for (const item of this.items.values()) {
      if (item.expiresAt !== undefined && item.expiresAt <= now) continue;
      if (!namespaces.has(item.path)) namespaces.set(item.path, item.namespace);
    }
    // sorted as LangGraph.js's InMemoryStore sorts them: by the ":"-joined names, in locale order
    return selectNamespaces(namespaces.values(), op, (a, b) => a.join(":").localeCompare(b.join(":")));
  }

  private refresh(item: StoredItem, requested: boolean | undefined, now: number): void {
    if (item.ttlMinutes !== undefined && this.ttl.refreshOnRead(requested)) {
      item.expiresAt = this.ttl.expiresAt(item.ttlMinutes, now);
    }
  }

  /** Encodes a write up front, so that a value that cannot be stored fails the whole batch. */
  private prepareWrite(op: PutOperation, vectors: StoredVector[] | undefined): PreparedWrite {
    const path = namespaceToPath(op.namespace);
    if (op.value === null) return { op, path, text: undefined, value: undefined, vectors };
    const text = defaultSerializer.encode(op.value);
    const value = defaultSerializer.decode(text) as Record<string, unknown>;
    return { op, path, text, value, vectors };
  }

  private applyWrite({ op, path, text, value, vectors }: PreparedWrite, now: number): void {
    if (!this.namespaceRanks.has(path)) this.namespaceRanks.set(path, this.namespaceRanks.size);
    const id = itemId(path, op.key);
    if (text === undefined || value === undefined) {
      this.items.delete(id);
      return;
    }
    const existing = this.live(id, now);
    if (existing === undefined) this.items.delete(id); // an expired item is replaced, not updated
    const ttlMinutes = this.ttl.ttlOf(op);
    this.items.set(id, {
      namespace: existing?.namespace ?? Object.freeze([...op.namespace]),
      path,
      key: op.key,
      text,
      value,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
      ttlMinutes,
      expiresAt: this.ttl.expiresAt(ttlMinutes, now),
      vectors,
    });
  }
}

interface PreparedWrite {
  op: PutOperation;
  path: string;
  text: string | undefined;
  value: Record<string, unknown> | undefined;
  vectors: StoredVector[] | undefined;
}

function toItem(item: StoredItem): Item {
  return {
    value: defaultSerializer.decode(item.text) as Record<string, unknown>,
    key: item.key,
    namespace: [...item.namespace],
    createdAt: new Date(item.createdAt),
    updatedAt: new Date(item.updatedAt),
  };
}
