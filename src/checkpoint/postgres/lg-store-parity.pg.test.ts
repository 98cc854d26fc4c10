/**
 * Behaviours of LangGraph.js's PostgresStore (1.0.5) that a ported program relies on: search
 * modes, text search with a query, and the vector-index setting this store does not support.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../shared/index.js";
import { type PostgresSearchOptions, PostgresStore } from "./index.js";

const url = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const base = `agentgraph_lg_store_parity_${process.pid}_${Date.now()}`;
let pool: pg.Pool;
let schemas = 0;
const stores: PostgresStore[] = [];

beforeAll(() => {
  pool = new pg.Pool({ connectionString: url, max: 10 });
});

afterAll(async () => {
  for (const store of stores) {
    await store.stop();
    await pool.query(`DROP SCHEMA IF EXISTS "${store.schema}" CASCADE`);
  }
  await pool.end();
});

function freshStore(options: { textSearchLanguage?: string } = {}): PostgresStore {
  const store = new PostgresStore({ pool, schema: `${base}_${schemas++}`, ...options });
  stores.push(store);
  return store;
}

const keys = (items: { key: string }[]) => items.map((item) => item.key);

describe("search modes", () => {
  let store: PostgresStore;
  beforeAll(async () => {
    store = freshStore();
    await store.put(["notes"], "n1", { text: "buy oat milk" });
  });

  it("refuses vector and hybrid searches, with LangGraph.js's message, as a store without an index does", async () => {
    await expect(store.search(["notes"], { query: "milk", mode: "vector" })).rejects.toThrow(
      /^Vector search requested but not configured/,
    );
    await expect(store.search(["notes"], { query: "milk", mode: "hybrid" })).rejects.toThrow(
      /^Hybrid search requested but vector search not configured/,
    );
    await expect(store.search(["notes"], { query: "milk", mode: "vector" })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
  });

  it("refuses an unknown mode", async () => {
    const options = { query: "milk", mode: "fuzzy" } as unknown as PostgresSearchOptions;
    await expect(store.search(["notes"], options)).rejects.toThrow(/^Unknown search mode: fuzzy/);
  });

  it("checks the mode only when there is a query, and takes the vector options without using them", async () => {
    expect(keys(await store.search(["notes"], { mode: "vector" }))).toStrictEqual(["n1"]);
    const found = await store.search(["notes"], {
      query: "milk",
      mode: "auto",
      similarityThreshold: 0.9,
      distanceMetric: "l2",
      vectorWeight: 0.2,
    });
    expect(keys(found)).toStrictEqual(["n1"]);
    expect(keys(await store.search(["notes"], { query: "milk", mode: "text" }))).toStrictEqual(["n1"]);
  });

  it("rejects a vector index setting at construction instead of ignoring it", () => {
    const config = { pool, index: { dims: 2, embed: async (texts: string[]) => texts.map(() => [1, 0]) } };
    expect(
      () => new PostgresStore(config as unknown as ConstructorParameters<typeof PostgresStore>[0]),
    ).toThrow(InvalidArgumentError);
    expect(() => new PostgresStore({ pool, textSearchLanguage: "" })).toThrow(/textSearchLanguage/);
  });
});

describe("text search", () => {
  let store: PostgresStore;
  beforeAll(async () => {
    store = freshStore();
    await store.put(["recipes"], "soup", { title: "Tomato soup", steps: "Simmer the tomatoes, then blend" });
    await store.put(["recipes"], "cake", { title: "Chocolate cake", steps: "Bake for forty minutes" });
    await store.put(["recipes"], "bread", {
      title: "Bread",
      steps: "Knead the bread dough, rest and bake; 100% rye",
    });
    await store.put(["recipes", "quick"], "toast", { title: "Toast", steps: "Toast the bread_slices" });
    await store.put(["drinks"], "tea", { title: "Tea", steps: "Steep the leaves, do not bake" });
  });

  it("finds items whose words match the query, stemmed, under the prefix only", async () => {
    const baked = await store.search(["recipes"], { query: "baking" });
    expect(keys(baked).sort()).toStrictEqual(["bread", "cake"]);
    expect(baked.every((item) => typeof item.score === "number" && item.score > 0)).toBe(true);
    expect(keys(await store.search(["recipes"], { query: "tomato" }))).toStrictEqual(["soup"]);
  });

  it("ranks the better match first (bread twice before bread once, written later)", async () => {
    const found = await store.search(["recipes"], { query: "bread" });
    expect(keys(found)[0]).toBe("bread");
    expect(keys(found).sort()).toStrictEqual(["bread", "toast"]);
  });

  it("also matches text inside words, case-insensitively, without a score, taking % and _ literally", async () => {
    const inside = await store.search([], { query: "OCOLAT" });
    expect(keys(inside)).toStrictEqual(["cake"]);
    expect(inside[0]?.score).toBeUndefined();
    expect(keys(await store.search([], { query: "100%" }))).toStrictEqual(["bread"]);
    expect(keys(await store.search([], { query: "d_s" }))).toStrictEqual(["toast"]);
    expect(await store.search([], { query: "d%s" })).toStrictEqual([]);
    expect(await store.search(["recipes"], { query: "saffron" })).toStrictEqual([]);
  });

  it("uses the configured text-search language", async () => {
    const simple = freshStore({ textSearchLanguage: "simple" });
    await simple.put(["recipes"], "cake", { steps: "Bake for forty minutes" });
    // no stemming in "simple": "baking" is not "bake", and not a substring of it either
    expect(await simple.search(["recipes"], { query: "baking" })).toStrictEqual([]);
    expect(keys(await simple.search(["recipes"], { query: "bake" }))).toStrictEqual(["cake"]);
  });

  it("answers a query in a batch the same way", async () => {
    const [found] = await store.batch([
      { namespacePrefix: ["recipes"], query: "tomato", limit: 10, offset: 0 },
    ]);
    expect(keys(found ?? [])).toStrictEqual(["soup"]);
  });
});

describe("text search with a filter over many matches", () => {
  it("filters and pages in rank order across the scan pages", async () => {
    const store = freshStore();
    const ops = Array.from({ length: 600 }, (_, i) => ({
      namespace: ["bulk"],
      key: `k${String(i).padStart(3, "0")}`,
      // every item matches "apple" equally; one in ten says it twice and ranks higher
      value: { text: i % 10 === 0 ? "apple apple" : "apple", group: i % 3 },
    }));
    await store.batch(ops);
    const wanted = ops
      .filter((op) => op.value.group === 1)
      .sort((a, b) => {
        const rank = (op: (typeof ops)[number]) => (op.value.text === "apple apple" ? 1 : 0);
        return rank(b) - rank(a) || b.key.localeCompare(a.key); // best first, then latest written
      })
      .map((op) => op.key);
    const found = await store.search(["bulk"], {
      query: "apple",
      filter: { group: 1 },
      limit: 150,
      offset: 30,
    });
    expect(keys(found)).toStrictEqual(wanted.slice(30, 180));
  });
});
