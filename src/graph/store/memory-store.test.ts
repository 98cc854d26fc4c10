import { describe, expect, it } from "vitest";
import { InMemoryStore } from "./index.js";
import { expectStoppedSweepStaysStopped, runStoreConformance } from "./store-conformance.test-helpers.js";

runStoreConformance(
  "InMemoryStore",
  (options) => new InMemoryStore(options),
  (store) => store.stop(),
);

describe("InMemoryStore specifics", () => {
  it("a stopped TTL sweep stays stopped as the store is used, until start()", async () => {
    await expectStoppedSweepStaysStopped(new InMemoryStore({ ttl: { sweepIntervalMinutes: 1 } }));
  });

  it("exposes its index config", () => {
    const embeddings = {
      embedDocuments: async (t: string[]) => t.map(() => [1]),
      embedQuery: async () => [1],
    };
    expect(new InMemoryStore().indexConfig).toBeUndefined();
    expect(new InMemoryStore({ index: { dims: 1, embeddings } }).indexConfig?.dims).toBe(1);
  });

  it("an index without embeddings (Python's { embed, dims }) embeds nothing: puts work, searches filter unscored", async () => {
    // the long-term-memory docs page passes an `embed` function; LangGraph.js ignores it
    const embed = (texts: string[]) => texts.map(() => [1, 2]);
    const store = new InMemoryStore({ index: { embed, dims: 2 } } as unknown as ConstructorParameters<
      typeof InMemoryStore
    >[0]);
    const namespace = ["my-user", "chitchat"];
    await store.put(namespace, "a-memory", { rules: ["short answers"], "my-key": "my-value" });
    await store.put(namespace, "other", { "my-key": "x" });
    expect((await store.get(namespace, "a-memory"))?.value).toEqual({
      rules: ["short answers"],
      "my-key": "my-value",
    });
    const found = await store.search(namespace, {
      filter: { "my-key": "my-value" },
      query: "language preferences",
    });
    expect(found.map((item) => [item.key, item.score])).toEqual([["a-memory", undefined]]);
    expect("score" in (found[0] as object)).toBe(true);
    expect((await store.search(namespace, { query: "q" })).map((item) => item.key)).toEqual([
      "a-memory",
      "other",
    ]);
  });
});

/** A toy embedding: one dimension per vocabulary word present in the text. */
const VOCABULARY = ["cat", "dog", "fish", "bird"];
function fakeEmbeddings() {
  const calls: string[][] = [];
  const embed = (text: string) => VOCABULARY.map((word) => (text.includes(word) ? 1 : 0));
  return {
    calls,
    embeddings: {
      embedDocuments: async (texts: string[]) => {
        calls.push(texts);
        return texts.map(embed);
      },
      embedQuery: async (text: string) => {
        calls.push([`query:${text}`]);
        return embed(text);
      },
    },
  };
}

describe("InMemoryStore vector search", () => {
  it("ranks by cosine similarity of the indexed fields; unindexed items come last with an undefined score", async () => {
    const { embeddings } = fakeEmbeddings();
    const store = new InMemoryStore({ index: { dims: 4, embeddings, fields: ["text"] } });
    await store.put(["d"], "both", { text: "cat and dog" });
    await store.put(["d"], "fish", { text: "fish" });
    await store.put(["d"], "off", { text: "cat" }, false);
    await store.put(["d"], "none", { other: "cat" });
    await store.put(["d"], "cat", { text: "a cat" });
    const found = await store.search(["d"], { query: "cat" });
    expect(found.map((item) => item.key)).toStrictEqual(["cat", "both", "fish", "off", "none"]);
    expect(found[0]?.score).toBeCloseTo(1);
    expect(found[1]?.score).toBeCloseTo(Math.SQRT1_2);
    expect(found[2]?.score).toBe(0);
    expect(found[3]?.score).toBeUndefined();
    // unranked results carry the key, undefined (LangGraph.js 1.7.3)
    expect(found[4]?.score).toBeUndefined();
    expect("score" in (found[4] as object)).toBe(true);
  });

  it("embeds the whole value by default, per-put index paths, and the best of several texts", async () => {
    const { embeddings, calls } = fakeEmbeddings();
    const store = new InMemoryStore({ index: { dims: 4, embeddings } });
    await store.put(["d"], "whole", { text: "bird" });
    expect(calls[0]).toStrictEqual(['{\n  "text": "bird"\n}']);
    await store.put(["d"], "parts", { parts: [{ t: "dog" }, { t: "fish" }] }, ["parts[*].t"]);
    expect(calls[1]).toStrictEqual(["dog", "fish"]);
    const [best] = await store.search(["d"], { query: "fish" });
    expect(best?.key).toBe("parts");
    expect(best?.score).toBeCloseTo(1);
  });

  it("filters and pages before returning ranked results, and embeds each batch's distinct texts in one call", async () => {
    const { embeddings, calls } = fakeEmbeddings();
    const store = new InMemoryStore({ index: { dims: 4, embeddings, fields: ["text"] } });
    await store.batch([
      { namespace: ["d"], key: "1", value: { text: "cat", lang: "en" } },
      { namespace: ["d"], key: "2", value: { text: "cat dog", lang: "en" } },
      { namespace: ["d"], key: "3", value: { text: "cat", lang: "fr" } },
    ]);
    expect(calls).toStrictEqual([["cat", "cat dog"]]);
    const found = await store.search(["d"], { query: "cat", filter: { lang: "en" }, limit: 1, offset: 1 });
    expect(found.map((item) => item.key)).toStrictEqual(["2"]);
  });

  it("an update re-embeds; index false drops the old vectors", async () => {
    const { embeddings } = fakeEmbeddings();
    const store = new InMemoryStore({ index: { dims: 4, embeddings, fields: ["text"] } });
    await store.put(["d"], "k", { text: "cat" });
    await store.put(["d"], "k", { text: "cat" }, false);
    expect((await store.search(["d"], { query: "cat" }))[0]?.score).toBeUndefined();
  });

  it("takes an empty query for no query: nothing embedded, results unranked", async () => {
    const { embeddings, calls } = fakeEmbeddings();
    const store = new InMemoryStore({ index: { dims: 4, embeddings, fields: ["text"] } });
    await store.put(["d"], "fish", { text: "fish" });
    await store.put(["d"], "cat", { text: "cat" });
    const found = await store.search(["d"], { query: "" });
    expect(found.map((item) => [item.key, item.score])).toStrictEqual([
      ["fish", undefined],
      ["cat", undefined],
    ]);
    expect(calls).toStrictEqual([["fish"], ["cat"]]);
  });

  it("does not check vectors against dims, as LangGraph.js's InMemoryStore does not", async () => {
    const { embeddings } = fakeEmbeddings();
    const store = new InMemoryStore({ index: { dims: 1536, embeddings, fields: ["text"] } });
    await store.put(["d"], "k", { text: "cat" });
    const [found] = await store.search(["d"], { query: "cat" });
    expect(found?.score).toBeCloseTo(1);
  });

  it("rejects embeddings that are not vectors", async () => {
    const embeddings = {
      embedDocuments: async (texts: string[]) => texts.map(() => null as unknown as number[]),
      embedQuery: async () => [1],
    };
    const store = new InMemoryStore({ index: { dims: 1, embeddings } });
    await expect(store.put(["d"], "k", { text: "cat" })).rejects.toThrow(/instead of a vector/);
  });
});

describe("InMemoryStore orders as LangGraph.js's", () => {
  it("search returns results namespace by namespace, in the order each namespace was first written", async () => {
    const store = new InMemoryStore();
    await store.put(["mem", "a"], "k1", { v: 1 });
    await store.put(["mem", "b"], "k2", { v: 2 });
    await store.put(["mem", "a"], "k3", { v: 3 });
    expect((await store.search(["mem"])).map((item) => item.key)).toEqual(["k1", "k3", "k2"]);
    expect((await store.search(["mem"], { limit: 2 })).map((item) => item.key)).toEqual(["k1", "k3"]);
  });

  it("search keeps a namespace's place once it was written to, even after it was emptied", async () => {
    const store = new InMemoryStore();
    await store.delete(["mem", "c"], "none"); // a delete counts as a write to the namespace
    await store.put(["mem", "b"], "k1", { v: 1 });
    await store.put(["mem", "a"], "k2", { v: 2 });
    await store.delete(["mem", "b"], "k1");
    await store.put(["mem", "a"], "k3", { v: 3 });
    await store.put(["mem", "b"], "k1", { v: 1 });
    await store.put(["mem", "c"], "k4", { v: 4 });
    expect((await store.search(["mem"])).map((item) => item.key)).toEqual(["k4", "k1", "k2", "k3"]);
  });

  it("listNamespaces sorts by the ':'-joined names in locale order", async () => {
    const store = new InMemoryStore();
    for (const namespace of [["user-1"], ["user", "x"], ["User"], ["user_2"]]) {
      await store.put(namespace, "k", { x: 1 });
    }
    // what LangGraph.js's InMemoryStore lists for these (a code-point order would put "User" first
    // and "user:x" before "user-1")
    expect(await store.listNamespaces()).toEqual([["User"], ["user_2"], ["user-1"], ["user", "x"]]);
  });

  it("filters with range operators compare as numbers", async () => {
    const store = new InMemoryStore();
    await store.put(["p"], "a", { price: "10" });
    await store.put(["p"], "b", { price: 5 });
    await store.put(["p"], "c", { price: null });
    await store.put(["p"], "d", { name: "apple" });
    const keys = async (filter: Record<string, unknown>) =>
      (await store.search(["p"], { filter })).map((item) => item.key);
    expect(await keys({ price: { $gt: 3 } })).toEqual(["a", "b"]);
    expect(await keys({ price: { $lt: 6 } })).toEqual(["b", "c"]);
    expect(await keys({ name: { $lt: "b" } })).toEqual([]);
  });
});

describe("InMemoryStore items", () => {
  it("give their fields in LangGraph.js's InMemoryStore order (value, key, namespace, times, then score)", async () => {
    const store = new InMemoryStore();
    await store.put(["a"], "k", { v: 1 });
    const fields = ["value", "key", "namespace", "createdAt", "updatedAt"];
    expect(Object.keys((await store.get(["a"], "k")) ?? {})).toStrictEqual(fields);
    const [found] = await store.search(["a"]);
    expect(Object.keys(found ?? {})).toStrictEqual([...fields, "score"]);
  });
});

describe("InMemoryStore.batch", () => {
  it("answers a put with null, as LangGraph.js's InMemoryStore does", async () => {
    const store = new InMemoryStore();
    expect(await store.batch([{ namespace: ["a"], key: "k", value: { v: 1 } }])).toEqual([null]);
  });
});
