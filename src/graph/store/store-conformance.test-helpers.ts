/**
 * The conformance suite every store runs: `runStoreConformance(name, create, destroy)` defines
 * vitest tests of the `BaseStore` contract (items, namespaces, search, filters, listing,
 * batches, expiry). `create` receives the store options a test needs (a TTL configuration).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { InvalidArgumentError } from "../../shared/index.js";
import { InvalidNamespaceError } from "./errors.js";
import type { BaseStore } from "./index.js";
import type { Item, TTLConfig } from "./types.js";

/** What a test asks of the store it creates. */
export interface StoreConformanceOptions {
  ttl?: TTLConfig;
}

type Create = (options: StoreConformanceOptions) => BaseStore | Promise<BaseStore>;
type Destroy = (store: BaseStore) => void | Promise<void>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const keys = (items: readonly Item[]) => items.map((item) => item.key);
type Sweeping = BaseStore & { sweepExpiredItems?: () => Promise<number> };

/** Thrown by a timing-dependent scenario when the machine was too slow for it to tell anything. */
class TooSlow extends Error {}

/**
 * Runs a scenario whose expectations hold only within time windows (an item must still be
 * there before its TTL ends). The scenario measures itself with the `late` it is given and throws
 * {@link TooSlow} when a window was missed; it then runs again in a new namespace, up to five times.
 */
async function withinWindows(
  body: (namespace: string[], late: (deadlineMs: number) => void) => Promise<void>,
): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const started = performance.now();
    const late = (deadlineMs: number) => {
      if (performance.now() - started >= deadlineMs) throw new TooSlow();
    };
    try {
      await body(["ttl", `attempt${attempt}`], late);
      return;
    } catch (error) {
      if (!(error instanceof TooSlow)) throw error;
    }
  }
  throw new Error("the machine was too slow five times over for the time windows of this scenario");
}

/**
 * The order `search` lists items in (without a query): `inserted` — by first put, an update
 * keeping the item's place (LangGraph.js's InMemoryStore) —, or `recent` — the most recently
 * written first (LangGraph.js's PostgresStore, `ORDER BY updated_at DESC`).
 */
export type StoreSearchOrder = "inserted" | "recent";

/**
 * What a `query` does in a store without a vector index: `ignored` — results as without it,
 * unranked (LangGraph.js's InMemoryStore) —, or `text` — a full-text search: only matching
 * items, the best first, with a score (LangGraph.js's PostgresStore).
 */
export type StoreQueryMode = "ignored" | "text";

/** Defines the store conformance tests for one store implementation. */
export function runStoreConformance(
  name: string,
  create: Create,
  destroy: Destroy,
  order: StoreSearchOrder = "inserted",
  queries: StoreQueryMode = "ignored",
): void {
  /** Keys listed oldest first, in the order this store's search lists them. */
  const ordered = (oldestFirst: string[]) => (order === "recent" ? [...oldestFirst].reverse() : oldestFirst);
  describe(`${name}: store conformance`, () => {
    let store: BaseStore;
    beforeEach(async () => {
      store = await create({});
    });
    afterEach(async () => {
      await destroy(store);
    });

    /** Runs `body` with another store made with `options`, destroyed afterwards. */
    async function withStore(options: StoreConformanceOptions, body: (s: BaseStore) => Promise<void>) {
      const other = await create(options);
      try {
        await body(other);
      } finally {
        await destroy(other);
      }
    }

    describe("items", () => {
      it("put then get returns the item with its namespace, key and timestamps", async () => {
        const before = Date.now();
        await store.put(["users", "u1"], "prefs", { theme: "dark", n: 1 });
        const item = await store.get(["users", "u1"], "prefs");
        expect(item).not.toBeNull();
        expect(item?.value).toStrictEqual({ theme: "dark", n: 1 });
        expect(item?.key).toBe("prefs");
        expect(item?.namespace).toStrictEqual(["users", "u1"]);
        expect(item?.createdAt).toBeInstanceOf(Date);
        expect(item?.updatedAt).toBeInstanceOf(Date);
        expect(item?.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
        expect(item?.updatedAt.getTime()).toBe(item?.createdAt.getTime());
        // in the order of the store's LangGraph.js counterpart (see each store's own tests)
        expect(Object.keys(item as object).sort()).toStrictEqual([
          "createdAt",
          "key",
          "namespace",
          "updatedAt",
          "value",
        ]);
      });

      it("get of a missing item is null", async () => {
        expect(await store.get(["users", "nobody"], "prefs")).toBeNull();
        await store.put(["users", "u1"], "prefs", { a: 1 });
        expect(await store.get(["users", "u1"], "other")).toBeNull();
        expect(await store.get(["users"], "prefs")).toBeNull();
      });

      it("values round-trip through the serializer: Dates, Maps, undefined, BigInt, nesting", async () => {
        const value = {
          when: new Date("2024-01-02T03:04:05.006Z"),
          tags: new Set(["a"]),
          byId: new Map([["x", { n: 1n }]]),
          missing: undefined,
          nested: { list: [1, "two", null, { deep: true }] },
          "~t": "not a tag",
          text: "héllo \u0000 日本 😀",
        };
        await store.put(["types"], "all", value);
        expect((await store.get(["types"], "all"))?.value).toStrictEqual(value);
      });

      it("a second put replaces the value, keeps createdAt and moves updatedAt", async () => {
        await store.put(["docs"], "d", { v: 1, old: true });
        const first = await store.get(["docs"], "d");
        await sleep(15);
        await store.put(["docs"], "d", { v: 2 });
        const second = await store.get(["docs"], "d");
        expect(second?.value).toStrictEqual({ v: 2 });
        expect(second?.createdAt.getTime()).toBe(first?.createdAt.getTime());
        expect(second?.updatedAt.getTime()).toBeGreaterThan(first?.updatedAt.getTime() as number);
      });

      it("delete removes the item; deleting a missing item does nothing", async () => {
        await store.put(["docs"], "d", { v: 1 });
        await store.delete(["docs"], "d");
        expect(await store.get(["docs"], "d")).toBeNull();
        await expect(store.delete(["docs"], "d")).resolves.toBeUndefined();
        await expect(store.delete(["nowhere"], "x")).resolves.toBeUndefined();
      });

      it("stored values are copies: mutating what was put or read changes nothing", async () => {
        const value = { list: [1], inner: { a: 1 } };
        await store.put(["docs"], "d", value);
        value.list.push(2);
        value.inner.a = 99;
        const read = await store.get(["docs"], "d");
        expect(read?.value).toStrictEqual({ list: [1], inner: { a: 1 } });
        (read?.value.list as number[] | undefined)?.push(3);
        read?.namespace.push("x");
        const again = await store.get(["docs"], "d");
        expect(again?.value).toStrictEqual({ list: [1], inner: { a: 1 } });
        expect(again?.namespace).toStrictEqual(["docs"]);
      });

      it("keys may hold any characters but NUL; labels any but '.', ':' and NUL", async () => {
        const odd = ["a.b", "c:d", "e/f", "", "日本", "%_\\'\"", "😀"];
        for (const key of odd) await store.put(["ключ", "%_*"], key, { key });
        for (const key of odd) expect((await store.get(["ключ", "%_*"], key))?.value).toStrictEqual({ key });
        expect((await store.search(["ключ"], { limit: 20 })).length).toBe(odd.length);
      });

      it("keeps large values whole", async () => {
        const value = { text: "x".repeat(200_000), list: Array.from({ length: 2000 }, (_, i) => ({ i })) };
        await store.put(["big"], "k", value);
        expect((await store.get(["big"], "k"))?.value).toStrictEqual(value);
      });

      it("concurrent writes all land", async () => {
        await Promise.all(Array.from({ length: 40 }, (_, i) => store.put(["many"], `k${i}`, { i })));
        expect((await store.search(["many"], { limit: 100 })).length).toBe(40);
      });
    });

    describe("validation", () => {
      it("rejects invalid namespaces with InvalidNamespaceError", async () => {
        await expect(store.put([], "k", {})).rejects.toThrow(InvalidNamespaceError);
        await expect(store.put([], "k", {})).rejects.toThrow("Namespace cannot be empty.");
        await expect(store.put(["a.b"], "k", {})).rejects.toThrow(
          "Invalid namespace label 'a.b' found in a.b. Namespace labels cannot contain periods ('.').",
        );
        await expect(store.put(["a:b"], "k", {})).rejects.toThrow(
          "Invalid namespace label 'a:b'. Namespace labels cannot contain colons (':').",
        );
        await expect(store.put(["a", ""], "k", {})).rejects.toThrow(
          "Namespace labels cannot be empty strings.",
        );
        await expect(store.put(["a\u0000"], "k", {})).rejects.toThrow("NUL");
        await expect(store.put(["a", 3 as unknown as string], "k", {})).rejects.toThrow(
          "Namespace labels must be strings, but got number.",
        );
        await expect(store.get([], "k")).rejects.toThrow(InvalidNamespaceError);
        await expect(store.get(["a.b"], "k")).rejects.toThrow(InvalidNamespaceError);
        await expect(store.delete([], "k")).rejects.toThrow(InvalidNamespaceError);
        await expect(store.search(["a.b"])).rejects.toThrow(InvalidNamespaceError);
        await expect(store.listNamespaces({ prefix: ["a:b"] })).rejects.toThrow(InvalidNamespaceError);
        await expect(store.listNamespaces({ suffix: [""] })).rejects.toThrow(InvalidNamespaceError);
      });

      it('reserves the "langgraph" root for put, but not for reads, deletes or batch writes', async () => {
        await expect(store.put(["langgraph", "x"], "k", {})).rejects.toThrow(
          'Root label for namespace cannot be "langgraph". Got: langgraph,x',
        );
        await store.put(["x", "langgraph"], "k", { ok: 1 });
        expect(await store.get(["langgraph"], "k")).toBeNull();
        expect(await store.search(["langgraph"])).toStrictEqual([]);
        await store.delete(["langgraph"], "k");
        await store.batch([{ namespace: ["langgraph"], key: "k", value: { internal: true } }]);
        expect((await store.get(["langgraph"], "k"))?.value).toStrictEqual({ internal: true });
      });

      it("rejects non-string keys, non-object values, bad pages and unknown operations", async () => {
        await expect(store.put(["a"], 5 as unknown as string, {})).rejects.toThrow(InvalidArgumentError);
        await expect(store.put(["a"], "nul\u0000", {})).rejects.toThrow(InvalidArgumentError);
        await expect(store.get(["a"], 5 as unknown as string)).rejects.toThrow(InvalidArgumentError);
        await expect(store.put(["a"], "k", "text" as unknown as Record<string, unknown>)).rejects.toThrow(
          InvalidArgumentError,
        );
        await expect(store.search(["a"], { limit: -1 })).rejects.toThrow(InvalidArgumentError);
        await expect(store.search(["a"], { offset: 1.5 })).rejects.toThrow(InvalidArgumentError);
        await expect(store.listNamespaces({ maxDepth: 0 })).rejects.toThrow(InvalidArgumentError);
        await expect(store.batch([{ nonsense: true } as never])).rejects.toThrow(InvalidArgumentError);
        await expect(store.put(["a"], "k", {}, undefined, { ttl: -1 })).rejects.toThrow(InvalidArgumentError);
      });
    });

    describe("search", () => {
      beforeEach(async () => {
        await store.put(["docs", "en"], "a", { lang: "en", score: 3, tags: ["x"], meta: { year: 2020 } });
        await store.put(["docs", "fr"], "b", { lang: "fr", score: 5, tags: ["y"], meta: { year: 2021 } });
        await store.put(["docs"], "c", { lang: "en", score: 4.5, when: new Date(1000) });
        await store.put(["docsx"], "d", { lang: "en", score: 1 });
        await store.put(["other", "docs"], "e", { lang: "de" });
      });

      it("finds items under a namespace prefix, label by label", async () => {
        expect(keys(await store.search(["docs"]))).toStrictEqual(ordered(["a", "b", "c"]));
        expect(keys(await store.search(["docs", "en"]))).toStrictEqual(ordered(["a"]));
        expect(keys(await store.search(["doc"]))).toStrictEqual([]);
        expect(keys(await store.search([]))).toStrictEqual(ordered(["a", "b", "c", "d", "e"]));
      });

      it(
        order === "recent"
          ? "returns the most recently written items first; an update moves an item to the front"
          : "returns items namespace by namespace, oldest first; an update keeps its place, a re-created item goes last in its namespace (which keeps its place)",
        async () => {
          await store.put(["docs", "en"], "a", { lang: "en", score: 0 });
          expect(keys(await store.search(["docs"]))).toStrictEqual(
            order === "recent" ? ["a", "c", "b"] : ["a", "b", "c"],
          );
          await store.put(["docs"], "c", { lang: "en", score: 4.5, when: new Date(1000) });
          expect(keys(await store.search(["docs"]))).toStrictEqual(
            order === "recent" ? ["c", "a", "b"] : ["a", "b", "c"],
          );
          await store.delete(["docs", "en"], "a");
          await store.put(["docs", "en"], "a", { lang: "en" });
          expect(keys(await store.search(["docs"]))).toStrictEqual(
            order === "recent" ? ["a", "c", "b"] : ["a", "b", "c"],
          );
        },
      );

      it("returns full items without a score", async () => {
        const [first] = await store.search(["docs", "en"]);
        expect(first?.value).toStrictEqual({ lang: "en", score: 3, tags: ["x"], meta: { year: 2020 } });
        expect(first?.namespace).toStrictEqual(["docs", "en"]);
        expect(first?.createdAt).toBeInstanceOf(Date);
        expect(first?.score).toBeUndefined();
        // the key is there, as in LangGraph.js (an unranked result has `score: undefined`)
        expect(Object.keys(first ?? {}).sort()).toStrictEqual([
          "createdAt",
          "key",
          "namespace",
          "score",
          "updatedAt",
          "value",
        ]);
      });

      it("pages with limit (default 10) and offset", async () => {
        await Promise.all(
          Array.from({ length: 12 }, (_, i) => store.put(["page"], `p${String(i).padStart(2, "0")}`, { i })),
        );
        expect((await store.search(["page"])).length).toBe(10);
        expect((await store.search(["page"], { limit: 20 })).length).toBe(12);
        expect((await store.search(["page"], { limit: 0 })).length).toBe(0);
        const all = keys(await store.search(["page"], { limit: 20 }));
        expect(keys(await store.search(["page"], { limit: 3, offset: 4 }))).toStrictEqual(all.slice(4, 7));
        expect(await store.search(["page"], { offset: 50 })).toStrictEqual([]);
      });

      it("filters by equality and operators", async () => {
        const find = async (filter: Record<string, unknown>) =>
          keys(await store.search(["docs"], { filter }));
        expect(await find({ lang: "en" })).toStrictEqual(ordered(["a", "c"]));
        expect(await find({ lang: { $eq: "fr" } })).toStrictEqual(ordered(["b"]));
        expect(await find({ lang: { $ne: "en" } })).toStrictEqual(ordered(["b"]));
        expect(await find({ score: { $gt: 3 } })).toStrictEqual(ordered(["b", "c"]));
        expect(await find({ score: { $gte: 3 } })).toStrictEqual(ordered(["a", "b", "c"]));
        expect(await find({ score: { $lt: 4.5 } })).toStrictEqual(ordered(["a"]));
        expect(await find({ score: { $lte: 4.5 } })).toStrictEqual(ordered(["a", "c"]));
        expect(await find({ score: { $gt: 3, $lt: 5 } })).toStrictEqual(ordered(["c"]));
        expect(await find({ lang: "en", score: { $gt: 3 } })).toStrictEqual(ordered(["c"]));
        expect(await find({ lang: { $in: ["fr", "de"] } })).toStrictEqual(ordered(["b"]));
        expect(await find({ lang: { $nin: ["fr"] } })).toStrictEqual(ordered(["a", "c"]));
        expect(await find({ tags: { $exists: true } })).toStrictEqual(ordered(["a", "b"]));
        expect(await find({ tags: { $exists: false } })).toStrictEqual(ordered(["c"]));
      });

      it("compares deeply, reaches nested fields by dotted path, and compares Dates", async () => {
        const find = async (filter: Record<string, unknown>) =>
          keys(await store.search(["docs"], { filter }));
        expect(await find({ tags: ["y"] })).toStrictEqual(ordered(["b"]));
        expect(await find({ meta: { year: 2020 } })).toStrictEqual(ordered(["a"]));
        expect(await find({ "meta.year": 2021 })).toStrictEqual(ordered(["b"]));
        expect(await find({ "meta.year": { $gte: 2020 } })).toStrictEqual(ordered(["a", "b"]));
        expect(await find({ when: new Date(1000) })).toStrictEqual(ordered(["c"]));
        expect(await find({ when: { $lt: new Date(2000) } })).toStrictEqual(ordered(["c"]));
      });

      it("a missing field equals nothing, is not equal to anything, and compares to nothing", async () => {
        const find = async (filter: Record<string, unknown>) =>
          keys(await store.search(["docs"], { filter }));
        expect(await find({ nope: "x" })).toStrictEqual([]);
        expect(await find({ nope: { $ne: "x" } })).toStrictEqual(ordered(["a", "b", "c"]));
        expect(await find({ nope: { $gt: 0 } })).toStrictEqual([]);
        expect(await find({ lang: { $gt: 1 } })).toStrictEqual([]); // a string does not compare to a number
      });

      it("pages after filtering", async () => {
        const filtered = await store.search([], { filter: { lang: "en" }, limit: 2, offset: 1 });
        expect(keys(filtered)).toStrictEqual(ordered(["a", "c", "d"]).slice(1, 3));
      });

      it("rejects unknown filter operators", async () => {
        await expect(store.search(["docs"], { filter: { score: { $between: [1, 2] } } })).rejects.toThrow(
          InvalidArgumentError,
        );
        await expect(store.search(["docs"], { filter: { score: { $gt: 1, plain: 2 } } })).rejects.toThrow(
          InvalidArgumentError,
        );
      });

      if (queries === "ignored") {
        it("without a vector index, a query leaves results unranked", async () => {
          const found = await store.search(["docs"], { query: "english documents" });
          expect(keys(found)).toStrictEqual(ordered(["a", "b", "c"]));
          expect(found.every((item) => item.score === undefined)).toBe(true);
        });
      } else {
        it("without a vector index, a query is a text search: matching items only, best first, scored", async () => {
          const found = await store.search(["docs"], { query: "fr" });
          expect(keys(found)).toStrictEqual(["b"]);
          expect(found[0]?.score).toBeGreaterThan(0);
          // a match inside a word (the JSON text contains it) is found, without a score
          const inside = await store.search(["docs"], { query: "yea" });
          expect(keys(inside)).toStrictEqual(ordered(["a", "b"]));
          expect(inside.every((item) => item.score === undefined)).toBe(true);
          expect(await store.search(["docs"], { query: "absent" })).toStrictEqual([]);
          // the filter and the page apply to the matching items
          expect(
            keys(await store.search(["docs"], { query: "en", filter: { score: { $gt: 4 } } })),
          ).toStrictEqual(["c"]);
          expect(keys(await store.search(["docs"], { query: "yea", limit: 1, offset: 1 }))).toStrictEqual(
            ordered(["a", "b"]).slice(1),
          );
        });
      }
    });

    describe("listNamespaces", () => {
      beforeEach(async () => {
        await store.put(["a", "b", "c", "d"], "k", {});
        await store.put(["a", "b", "e"], "k", {});
        await store.put(["a", "x", "c"], "k", {});
        await store.put(["z"], "k", {});
        await store.put(["a", "b", "e"], "k2", {});
      });

      it("lists each namespace holding items once, sorted", async () => {
        expect(await store.listNamespaces()).toStrictEqual([
          ["a", "b", "c", "d"],
          ["a", "b", "e"],
          ["a", "x", "c"],
          ["z"],
        ]);
      });

      it("filters by prefix and suffix, with * wildcards", async () => {
        expect(await store.listNamespaces({ prefix: ["a", "b"] })).toStrictEqual([
          ["a", "b", "c", "d"],
          ["a", "b", "e"],
        ]);
        expect(await store.listNamespaces({ prefix: ["a", "*", "c"] })).toStrictEqual([
          ["a", "b", "c", "d"],
          ["a", "x", "c"],
        ]);
        expect(await store.listNamespaces({ suffix: ["c"] })).toStrictEqual([["a", "x", "c"]]);
        expect(await store.listNamespaces({ suffix: ["*", "e"] })).toStrictEqual([["a", "b", "e"]]);
        expect(await store.listNamespaces({ prefix: ["a"], suffix: ["c"] })).toStrictEqual([["a", "x", "c"]]);
        expect(await store.listNamespaces({ prefix: ["ab"] })).toStrictEqual([]);
      });

      it("truncates to maxDepth, listing each truncated namespace once", async () => {
        expect(await store.listNamespaces({ maxDepth: 2 })).toStrictEqual([["a", "b"], ["a", "x"], ["z"]]);
        expect(await store.listNamespaces({ maxDepth: 1 })).toStrictEqual([["a"], ["z"]]);
        expect(await store.listNamespaces({ prefix: ["a"], maxDepth: 3 })).toStrictEqual([
          ["a", "b", "c"],
          ["a", "b", "e"],
          ["a", "x", "c"],
        ]);
      });

      it("pages with limit and offset", async () => {
        expect(await store.listNamespaces({ limit: 2, offset: 1 })).toStrictEqual([
          ["a", "b", "e"],
          ["a", "x", "c"],
        ]);
      });

      it("forgets a namespace once its last item is deleted", async () => {
        await store.delete(["a", "x", "c"], "k");
        await store.delete(["z"], "k");
        expect(await store.listNamespaces()).toStrictEqual([
          ["a", "b", "c", "d"],
          ["a", "b", "e"],
        ]);
      });
    });

    describe("batch", () => {
      it("returns one result per operation, in order", async () => {
        await store.put(["b"], "k", { v: 1 });
        const [got, found, put, listed] = await store.batch([
          { namespace: ["b"], key: "k" },
          { namespacePrefix: ["b"], limit: 5 },
          { namespace: ["b"], key: "k2", value: { v: 2 } },
          { matchConditions: [{ matchType: "prefix", path: ["b"] }], limit: 10, offset: 0 },
        ] as const);
        expect(got?.value).toStrictEqual({ v: 1 });
        expect(keys(found)).toStrictEqual(["k"]);
        // nothing to return for a put: null (InMemoryStore, as LangGraph.js's) or undefined (SQL stores)
        expect(put ?? null).toBeNull();
        expect(listed).toStrictEqual([["b"]]);
        expect((await store.get(["b"], "k2"))?.value).toStrictEqual({ v: 2 });
      });

      it("reads see the store as it was before the batch's writes", async () => {
        const [before, listed] = await store
          .batch([
            { namespace: ["b"], key: "k", value: { v: 1 } },
            { namespace: ["b"], key: "k" },
            { matchConditions: [], limit: 10, offset: 0 },
          ] as const)
          .then((results) => [results[1], results[2]] as const);
        expect(before).toBeNull();
        expect(listed).toStrictEqual([]);
        expect((await store.get(["b"], "k"))?.value).toStrictEqual({ v: 1 });
      });

      it("the last write to an item wins", async () => {
        await store.batch([
          { namespace: ["b"], key: "k", value: { v: 1 } },
          { namespace: ["b"], key: "k", value: { v: 2 } },
          { namespace: ["b"], key: "gone", value: { v: 1 } },
          { namespace: ["b"], key: "gone", value: null },
        ]);
        expect((await store.get(["b"], "k"))?.value).toStrictEqual({ v: 2 });
        expect(await store.get(["b"], "gone")).toBeNull();
      });

      it("an invalid operation fails the whole batch before anything is written", async () => {
        await expect(
          store.batch([
            { namespace: ["b"], key: "k", value: { v: 1 } },
            { namespace: ["bad.label"], key: "k", value: { v: 1 } },
          ]),
        ).rejects.toThrow(InvalidNamespaceError);
        expect(await store.get(["b"], "k")).toBeNull();
      });

      it("an empty batch returns an empty list", async () => {
        expect(await store.batch([])).toStrictEqual([]);
      });
    });

    describe("time to live", () => {
      const TTL = 0.01; // minutes: 600 ms

      it("an item with a ttl disappears once it expires", async () => {
        await store.put(["ttl"], "short", { v: 1 }, undefined, { ttl: TTL });
        await store.put(["ttl"], "long", { v: 2 });
        expect((await store.get(["ttl"], "short"))?.value).toStrictEqual({ v: 1 });
        await sleep(TTL * 60_000 + 250);
        expect(await store.get(["ttl"], "short")).toBeNull();
        expect(keys(await store.search(["ttl"]))).toStrictEqual(["long"]);
        await store.delete(["ttl"], "long");
        expect(await store.listNamespaces()).toStrictEqual([]);
        const sweeping = store as Sweeping;
        if (typeof sweeping.sweepExpiredItems === "function") {
          expect(await sweeping.sweepExpiredItems()).toBe(1);
          expect(await sweeping.sweepExpiredItems()).toBe(0);
        }
      });

      it("re-creating an expired item starts it afresh", async () => {
        await store.put(["ttl"], "k", { v: 1 }, undefined, { ttl: TTL });
        const first = await store.get(["ttl"], "k", { refreshTtl: false });
        await sleep(TTL * 60_000 + 250);
        await store.put(["ttl"], "k", { v: 2 });
        const second = await store.get(["ttl"], "k");
        expect(second?.value).toStrictEqual({ v: 2 });
        expect(second?.createdAt.getTime()).toBeGreaterThan(first?.createdAt.getTime() as number);
      });

      it("reads restart the ttl unless refreshTtl is false", async () => {
        const ttlMs = TTL * 60_000;
        await withinWindows(async (ns, late) => {
          await store.put(ns, "read", { v: 1 }, undefined, { ttl: TTL });
          await store.put(ns, "unread", { v: 2 }, undefined, { ttl: TTL });
          await sleep(300);
          const refreshedFrom = performance.now();
          const read = await store.get(ns, "read");
          const unread = await store.get(ns, "unread", { refreshTtl: false });
          late(ttlMs); // both were read before their TTL ended
          expect(read).not.toBeNull();
          expect(unread).not.toBeNull();
          await sleep(ttlMs - 300 + 100);
          expect(await store.get(ns, "unread")).toBeNull();
          const live = keys(await store.search(ns, { refreshTtl: false }));
          if (performance.now() - refreshedFrom >= ttlMs) throw new TooSlow(); // "read" may have expired too
          expect(live).toStrictEqual(["read"]);
        });
      });

      it("a default ttl applies to puts without one; ttl null means never; refreshOnRead false", async () => {
        const ttlMs = TTL * 60_000;
        await withStore({ ttl: { defaultTtl: TTL, refreshOnRead: false } }, async (s) => {
          await withinWindows(async (ns, late) => {
            await s.put(ns, "default", { v: 1 });
            await s.put(ns, "forever", { v: 2 }, undefined, { ttl: null });
            await sleep(300);
            const early = await s.get(ns, "default"); // does not refresh
            late(ttlMs);
            expect(early).not.toBeNull();
            await sleep(ttlMs - 300 + 100);
            expect(await s.get(ns, "default")).toBeNull();
            expect(keys(await s.search(ns))).toStrictEqual(["forever"]);
          });
        });
      });
    });
  });
}

/**
 * Checks that a store's TTL sweep, once `stop()`ped, stays stopped while the store is used
 * (writes, reads, `setup()` where there is one) and starts again only on `start()`. `store` must
 * have been made with `ttl: { sweepIntervalMinutes: 1 }` on a connection that stays open after
 * `stop()` (one the test passed in). Sweeps are counted through `sweepExpiredItems`, under fake
 * interval timers.
 */
export async function expectStoppedSweepStaysStopped(store: BaseStore & { setup?: () => Promise<void> }) {
  const sweeping = store as BaseStore & { sweepExpiredItems: () => Promise<number> };
  const sweep = sweeping.sweepExpiredItems.bind(store);
  let sweeps = 0;
  sweeping.sweepExpiredItems = () => {
    sweeps++;
    return sweep();
  };
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  try {
    await store.setup?.();
    await store.put(["sweep"], "k", { v: 1 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sweeps).toBe(1);
    await store.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sweeps).toBe(1);
    await store.put(["sweep"], "k", { v: 2 });
    expect((await store.get(["sweep"], "k"))?.value).toStrictEqual({ v: 2 });
    await store.setup?.();
    await vi.advanceTimersByTimeAsync(180_000);
    expect(sweeps).toBe(1);
    await store.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sweeps).toBe(2);
  } finally {
    await store.stop();
    vi.useRealTimers();
  }
}
