import { describe, expect, it } from "vitest";
import type { SerializerProtocol } from "../checkpoint/index.js";
import { BaseCache, type CacheFullKey, InMemoryCache } from "./index.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("InMemoryCache", () => {
  it("returns the values set, leaving out missing keys", async () => {
    const cache = new InMemoryCache();
    await cache.set([
      { key: [["ns", "x"], "k1"], value: { a: 1 } },
      { key: [["other"], "k1"], value: 3 },
    ]);
    const found = await cache.get([
      [["ns", "x"], "k1"],
      [["nope"], "k"],
      [["other"], "k1"],
      [["ns"], "k1"],
    ]);
    expect(found).toStrictEqual([
      { key: [["ns", "x"], "k1"], value: { a: 1 } },
      { key: [["other"], "k1"], value: 3 },
    ]);
  });

  it("stores copies of rich values (Dates, Maps, undefined)", async () => {
    const cache = new InMemoryCache<Record<string, unknown>>();
    const value = { when: new Date(0), byId: new Map([["a", 1]]), gone: undefined, list: [1] };
    await cache.set([{ key: [["ns"], "k"], value }]);
    value.list.push(2);
    const [entry] = await cache.get([[["ns"], "k"]]);
    expect(entry?.value).toStrictEqual({
      when: new Date(0),
      byId: new Map([["a", 1]]),
      gone: undefined,
      list: [1],
    });
    (entry?.value.list as number[] | undefined)?.push(3);
    const [again] = await cache.get([[["ns"], "k"]]);
    expect(again?.value.list).toStrictEqual([1]);
  });

  it("expires entries after ttl seconds; ttl 0 expires at once", async () => {
    const cache = new InMemoryCache();
    await cache.set([
      { key: [["ns"], "short"], value: 1, ttl: 0.05 },
      { key: [["ns"], "long"], value: 2, ttl: 60 },
      { key: [["ns"], "zero"], value: 3, ttl: 0 },
    ]);
    expect((await cache.get([[["ns"], "short"]])).length).toBe(1);
    expect(await cache.get([[["ns"], "zero"]])).toStrictEqual([]);
    await sleep(80);
    expect(
      await cache.get([
        [["ns"], "short"],
        [["ns"], "long"],
      ]),
    ).toStrictEqual([{ key: [["ns"], "long"], value: 2 }]);
  });

  it("keeps an entry set with a null ttl (from JavaScript) until cleared, as LangGraph.js does", async () => {
    const cache = new InMemoryCache();
    const ttl = null as unknown as undefined;
    await cache.set([{ key: [["ns"], "k"], value: 1, ttl }]);
    await sleep(5);
    expect(await cache.get([[["ns"], "k"]])).toStrictEqual([{ key: [["ns"], "k"], value: 1 }]);
  });

  it("overwrites an entry with a later set", async () => {
    const cache = new InMemoryCache();
    await cache.set([{ key: [["ns"], "k"], value: 1 }]);
    await cache.set([{ key: [["ns"], "k"], value: 2 }]);
    expect(await cache.get([[["ns"], "k"]])).toStrictEqual([{ key: [["ns"], "k"], value: 2 }]);
  });

  it("clear removes exactly the given namespaces, or everything", async () => {
    const cache = new InMemoryCache();
    const keys: CacheFullKey[] = [
      [["ns"], "a"],
      [["ns", "x"], "b"],
      [["other"], "c"],
    ];
    await cache.set(keys.map((key, i) => ({ key, value: i })));
    await cache.clear([["ns"]]);
    expect((await cache.get(keys)).map((entry) => entry.value)).toStrictEqual([1, 2]);
    await cache.clear([["ns", "x"]]);
    expect((await cache.get(keys)).map((entry) => entry.value)).toStrictEqual([2]);
    await cache.clear();
    expect(await cache.get(keys)).toStrictEqual([]);
    await cache.set([{ key: [["a"], "k"], value: 1 }]);
    await cache.clear([]);
    expect(await cache.get([[["a"], "k"]])).toStrictEqual([]);
  });

  it("namespaces are compared label by label", async () => {
    const cache = new InMemoryCache();
    await cache.set([{ key: [["a,b"], "k"], value: 1 }]);
    expect(await cache.get([[["a", "b"], "k"]])).toStrictEqual([]);
  });

  it("uses a custom SerializerProtocol through dumpsTyped / loadsTyped", async () => {
    const calls: string[] = [];
    const serde: SerializerProtocol = {
      dumpsTyped: async (value) => {
        calls.push("dumps");
        return ["json", new TextEncoder().encode(JSON.stringify(value))];
      },
      loadsTyped: async (_type, data) => {
        calls.push("loads");
        return JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data));
      },
    };
    const cache = new InMemoryCache(serde);
    expect(cache.serde).toBe(serde);
    await cache.set([{ key: [["ns"], "k"], value: { a: 1 } }]);
    expect(await cache.get([[["ns"], "k"]])).toStrictEqual([{ key: [["ns"], "k"], value: { a: 1 } }]);
    expect(calls).toStrictEqual(["dumps", "loads"]);
  });

  it("is a BaseCache", () => {
    expect(new InMemoryCache()).toBeInstanceOf(BaseCache);
  });
});
