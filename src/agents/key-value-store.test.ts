import { describe, expect, it } from "vitest";
import { InMemoryStore } from "./index.js";

describe("agentgraph/agents InMemoryStore", () => {
  it("is the key-value store langchain exports (mget, mset, mdelete, yieldKeys)", async () => {
    const store = new InMemoryStore<string>();
    await store.mset([
      ["user:1", "Ann"],
      ["user:2", "Bob"],
      ["doc:1", "text"],
    ]);
    expect(await store.mget(["user:2", "missing", "doc:1"])).toStrictEqual(["Bob", undefined, "text"]);
    await store.mdelete(["user:1", "missing"]);
    const keys: string[] = [];
    for await (const key of store.yieldKeys()) keys.push(key);
    const users: string[] = [];
    for await (const key of store.yieldKeys("user:")) users.push(key);
    expect([keys, users]).toStrictEqual([["user:2", "doc:1"], ["user:2"]]);
    expect(store.lc_namespace).toStrictEqual(["langchain", "storage"]);
    expect("put" in store).toBe(false);
  });
});
