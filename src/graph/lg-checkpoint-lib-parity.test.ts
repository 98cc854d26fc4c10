// Parity checks found by running @langchain/langgraph-checkpoint's own test files (cache, memory
// saver ordering and guards, namespaces, stores, vector index, batching wrapper) against agentgraph.
import { describe, expect, it, vi } from "vitest";
import {
  Annotation,
  AsyncBatchedStore,
  BaseStore,
  type CacheFullKey,
  compareWritesSortKeys,
  DeltaSnapshot,
  emptyCheckpoint,
  getTextAtPath,
  InMemoryCache,
  InMemoryStore,
  InvalidNamespaceError,
  isDeltaSnapshot,
  MemorySaver,
  type Operation,
  type OperationResults,
  START,
  StateGraph,
  uuid6,
  writesSortKey,
} from "../index.js";

/** Records every batch it is sent and answers from an in-memory store. */
class SpyStore extends BaseStore {
  readonly batches: Operation[][] = [];
  readonly inner = new InMemoryStore();

  async batch<Op extends readonly Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    this.batches.push([...operations]);
    return this.inner.batch(operations);
  }
}

/** Two-dimensional embeddings: "hit" points one way, every other text the other. */
function twoWayEmbeddings() {
  const calls: string[][] = [];
  const embed = (text: string) => (text === "hit" ? [1, 0] : [0, 1]);
  return {
    calls,
    embeddings: {
      embedDocuments: async (texts: string[]) => {
        calls.push([...texts]);
        return texts.map(embed);
      },
      embedQuery: async (text: string) => embed(text),
    },
  };
}

describe("AsyncBatchedStore", () => {
  it("sends the calls made in one turn to the wrapped store as one batch, in order", async () => {
    const spy = new SpyStore();
    const store = new AsyncBatchedStore(spy);
    store.start();
    try {
      const [, , item, found] = await Promise.all([
        store.put(["notes"], "n1", { body: "first" }),
        store.put(["notes"], "n2", { body: "second" }),
        store.get(["notes"], "n1"),
        store.search(["notes"]),
      ]);
      expect(spy.batches).toHaveLength(1);
      expect(spy.batches[0]).toHaveLength(4);
      // reads of a batch see the store as it was before the batch's writes
      expect(item).toBeNull();
      expect(found).toEqual([]);
      expect((await store.get(["notes"], "n2"))?.value).toEqual({ body: "second" });
      expect(await store.listNamespaces()).toEqual([["notes"]]);
    } finally {
      await store.stop();
    }
  });

  it("checks namespaces before queuing, so a malformed call never reaches the wrapped store", async () => {
    const spy = new SpyStore();
    const store = new AsyncBatchedStore(spy);
    await expect(store.get(["team", "a.b"], "k")).rejects.toThrow(InvalidNamespaceError);
    await expect(store.put(["team:x"], "k", { v: 1 })).rejects.toThrow(InvalidNamespaceError);
    await expect(store.delete(["team", ""], "k")).rejects.toThrow(InvalidNamespaceError);
    await expect(store.search(["a.b"])).rejects.toThrow(InvalidNamespaceError);
    expect(spy.batches).toEqual([]);
  });

  it("keeps each put's index choice and unwraps a wrapped wrapper", async () => {
    const { calls, embeddings } = twoWayEmbeddings();
    const inner = new InMemoryStore({ index: { dims: 2, embeddings, fields: ["main"] } });
    const store = new AsyncBatchedStore(new AsyncBatchedStore(inner));
    expect(store.store).toBe(inner);
    store.start();
    try {
      const value = { main: "miss", other: "hit" };
      await Promise.all([
        store.put(["d"], "off", value, false),
        store.put(["d"], "other", value, ["other"]),
        store.put(["d"], "default", value),
      ]);
      expect(calls).toEqual([["hit", "miss"]]);
      const scores = Object.fromEntries(
        (await store.search(["d"], { query: "hit" })).map((item) => [item.key, item.score]),
      );
      expect(scores).toEqual({ other: 1, default: 0, off: undefined });
    } finally {
      await store.stop();
    }
  });

  it("waits for start(), and stop() sends what is still queued", async () => {
    const spy = new SpyStore();
    const store = new AsyncBatchedStore(spy);
    expect(store.isRunning).toBe(false);
    const pending = store.put(["q"], "k", { v: 1 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(spy.batches).toEqual([]);
    store.start();
    expect(store.isRunning).toBe(true);
    await pending;
    expect(spy.batches).toHaveLength(1);
    await store.stop();
    const late = store.put(["q"], "k2", { v: 2 });
    await store.stop();
    await late;
    expect((await spy.inner.get(["q"], "k2"))?.value).toEqual({ v: 2 });
  });

  it("fails every call of a batch the wrapped store rejects", async () => {
    class Broken extends BaseStore {
      async batch<Op extends readonly Operation[]>(_ops: Op): Promise<OperationResults<Op>> {
        throw new Error("backend down");
      }
    }
    const store = new AsyncBatchedStore(new Broken());
    store.start();
    try {
      const results = await Promise.allSettled([store.get(["a"], "x"), store.put(["a"], "y", { v: 1 })]);
      expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    } finally {
      await store.stop();
    }
  });
});

describe("a graph compiled with an AsyncBatchedStore", () => {
  it("runs with the wrapped store, even when the batcher was never started", async () => {
    const inner = new InMemoryStore();
    const graph = new StateGraph(Annotation.Root({ v: Annotation<number> }))
      .addNode("n", async (_state, config) => {
        const store = config.store as BaseStore | undefined;
        await store?.put(["ns"], "k", { v: 1 });
        const item = await store?.get(["ns"], "k");
        return { v: (item?.value as { v: number } | undefined)?.v ?? 0 };
      })
      .addEdge(START, "n")
      .compile({ store: new AsyncBatchedStore(inner) });
    expect(await graph.invoke({ v: 0 })).toEqual({ v: 1 });
    expect((await inner.get(["ns"], "k"))?.value).toEqual({ v: 1 });
  });
});

describe("field paths of the vector index", () => {
  const doc = {
    title: "T",
    meta: { author: "Ann", year: 2024 },
    parts: [{ body: "p1" }, { body: "p2" }],
  };

  it("reads nested paths inside a {…} selection", () => {
    expect(getTextAtPath(doc, "{title,meta.author}")).toEqual(["T", "Ann"]);
    expect(getTextAtPath(doc, "{ title , meta.year }")).toEqual(["T", "2024"]);
    expect(getTextAtPath(doc, "parts[*].{body}")).toEqual(["p1", "p2"]);
  });

  it("selects nothing with an empty or non-numeric index", () => {
    expect(getTextAtPath(doc, "parts[].body")).toEqual([]);
    expect(getTextAtPath(doc, "parts[x].body")).toEqual([]);
    expect(getTextAtPath(doc, "parts[1.5].body")).toEqual([]);
    expect(getTextAtPath(doc, "parts[-1].body")).toEqual(["p2"]);
  });

  it("embeds nested fields of a selection when indexing", async () => {
    const { calls, embeddings } = twoWayEmbeddings();
    const store = new InMemoryStore({ index: { dims: 2, embeddings } });
    await store.put(["d"], "k", { title: "miss", meta: { author: "hit" } }, ["{title,meta.author}"]);
    expect(calls).toEqual([["miss", "hit"]]);
    expect((await store.search(["d"], { query: "hit" }))[0]?.score).toBe(1);
  });
});

describe("embedding the texts of a batch", () => {
  it("embeds each distinct text once, and every item gets its vectors", async () => {
    const { calls, embeddings } = twoWayEmbeddings();
    const store = new InMemoryStore({ index: { dims: 2, embeddings, fields: ["tags[*]"] } });
    await store.batch([
      { namespace: ["d"], key: "a", value: { tags: ["hit", "miss", "hit"] } },
      { namespace: ["d"], key: "b", value: { tags: ["miss"] } },
      { namespace: ["e"], key: "a", value: { tags: ["hit"] } },
    ]);
    expect(calls).toEqual([["hit", "miss"]]);
    const scores = (ns: string[]) =>
      store.search(ns, { query: "hit" }).then((items) => items.map((i) => [i.key, i.score]));
    expect(await scores(["d"])).toEqual([
      ["a", 1],
      ["b", 0],
    ]);
    expect(await scores(["e"])).toEqual([["a", 1]]);
  });

  it("names the first text left without a vector when the model returns too few", async () => {
    const store = new InMemoryStore({
      index: {
        dims: 2,
        fields: ["text"],
        embeddings: { embedDocuments: async () => [[1, 0]], embedQuery: async () => [1, 0] },
      },
    });
    await expect(
      store.batch([
        { namespace: ["d"], key: "a", value: { text: "one" } },
        { namespace: ["d"], key: "b", value: { text: "two" } },
      ]),
    ).rejects.toThrow(/^No embedding found for text: two/);
    expect(await store.get(["d"], "a")).toBeNull();
  });
});

describe("MemorySaver.getDeltaChannelHistory", () => {
  const meta = (step: number) => ({ source: "loop" as const, step, parents: {} });

  it("returns the parent's value as seed and the writes saved at it, for the checkpoint's branch", async () => {
    const saver = new MemorySaver();
    const thread = { configurable: { thread_id: "h", checkpoint_ns: "" } };
    const first = await saver.put(
      thread,
      { ...emptyCheckpoint(), id: "00000001", channel_values: { log: ["a"] } },
      meta(0),
      {},
    );
    await saver.putWrites(
      first,
      [
        ["log", ["b"]],
        ["other", 1],
      ],
      "task-1",
    );
    const second = await saver.put(
      first,
      { ...emptyCheckpoint(), id: "00000002", channel_values: { log: ["a", "b"] } },
      meta(1),
      {},
    );
    await saver.putWrites(second, [["log", ["c"]]], "task-2");
    // a sibling branch forked from the first checkpoint
    await saver.put(
      first,
      { ...emptyCheckpoint(), id: "00000003", channel_values: { log: ["z"] } },
      meta(1),
      {},
    );

    const history = await saver.getDeltaChannelHistory({ config: second, channels: ["log", "absent"] });
    expect(history).toEqual({
      log: { seed: ["a"], writes: [["task-1", "log", ["b"]]] },
      absent: { writes: [] },
    });
    expect(await saver.getDeltaChannelHistory({ config: thread, channels: [] })).toEqual({});
  });
});

describe("helpers @langchain/langgraph-checkpoint exports", () => {
  it("orders write keys by task path, task id (by code point), then index", () => {
    const keys = [
      writesSortKey("~pull, \u{1F600}", "a"),
      writesSortKey("~pull, \uFF00", "a"),
      writesSortKey("", "z", 1),
      writesSortKey("", "z", 0),
      writesSortKey("~pull, a", "b"),
    ];
    expect([...keys].sort(compareWritesSortKeys)).toEqual([
      ["", "z", 0],
      ["", "z", 1],
      ["~pull, a", "b", 0],
      ["~pull, \uFF00", "a", 0],
      ["~pull, \u{1F600}", "a", 0],
    ]);
  });

  it("recognises a DeltaSnapshot by its marker", () => {
    expect(new DeltaSnapshot([1]).value).toEqual([1]);
    expect(isDeltaSnapshot(new DeltaSnapshot("v"))).toBe(true);
    expect(isDeltaSnapshot({ lg_name: "DeltaSnapshot", value: 1 })).toBe(true);
    expect(isDeltaSnapshot({ value: 1 })).toBe(false);
    expect(isDeltaSnapshot(null)).toBe(false);
  });
});

describe("ids and cache keys that must stay apart", () => {
  it("uuid6 keeps increasing when the clock stands still or steps back", () => {
    const now = vi.spyOn(Date, "now");
    try {
      now.mockReturnValueOnce(1_800_000_002_000).mockReturnValueOnce(1_800_000_001_000);
      now.mockReturnValueOnce(1_800_000_001_000).mockReturnValueOnce(1_800_000_002_001);
      const ids = [uuid6(0), uuid6(0), uuid6(0), uuid6(0)];
      expect([...ids].sort()).toEqual(ids);
      expect(new Set(ids).size).toBe(4);
    } finally {
      now.mockRestore();
    }
  });

  it("InMemoryCache keeps the empty namespace apart from a namespace of one empty label", async () => {
    const cache = new InMemoryCache<string>();
    const root: CacheFullKey = [[], "k"];
    const blank: CacheFullKey = [[""], "k"];
    await cache.set([
      { key: root, value: "root" },
      { key: blank, value: "blank" },
    ]);
    expect(await cache.get([root, blank])).toEqual([
      { key: root, value: "root" },
      { key: blank, value: "blank" },
    ]);
    await cache.clear([[""]]);
    expect(await cache.get([root, blank])).toEqual([{ key: root, value: "root" }]);
  });
});
