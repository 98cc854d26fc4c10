import { describe, expect, it } from "vitest";
import { BaseStore } from "./base-store.js";
import type { Operation, OperationResults } from "./types.js";

/** A store that records the operations its convenience methods hand to `batch`. */
class RecordingStore extends BaseStore {
  readonly batches: Operation[][] = [];

  async batch<Op extends readonly Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    this.batches.push([...operations]);
    return operations.map(() => []) as unknown as OperationResults<Op>;
  }
}

describe("BaseStore's convenience methods", () => {
  it("search hands batch the default limit and offset, as LangGraph.js does", async () => {
    const store = new RecordingStore();
    await store.search(["docs"]);
    await store.search(["docs"], { limit: 20, offset: 5, filter: { lang: "en" } });
    expect(store.batches).toEqual([
      [{ namespacePrefix: ["docs"], limit: 10, offset: 0 }],
      [{ namespacePrefix: ["docs"], limit: 20, offset: 5, filter: { lang: "en" } }],
    ]);
  });

  it("hand batch operations with LangGraph.js's fields, no more (what toStrictEqual sees)", async () => {
    const store = new RecordingStore();
    await store.get(["a"], "k");
    await store.search(["a"], { query: "q" });
    await store.put(["a"], "k", { v: 1 });
    await store.get(["a"], "k", { refreshTtl: false });
    await store.put(["a"], "k", { v: 1 }, false, { ttl: 5 });
    expect(store.batches).toStrictEqual([
      [{ namespace: ["a"], key: "k" }],
      [{ namespacePrefix: ["a"], filter: undefined, limit: 10, offset: 0, query: "q" }],
      [{ namespace: ["a"], key: "k", value: { v: 1 }, index: undefined }],
      [{ namespace: ["a"], key: "k", refreshTtl: false }],
      [{ namespace: ["a"], key: "k", value: { v: 1 }, index: false, options: { ttl: 5 } }],
    ]);
  });

  it("listNamespaces leaves matchConditions out when there are none", async () => {
    const store = new RecordingStore();
    await store.listNamespaces();
    await store.listNamespaces({ prefix: ["a"], suffix: ["c"], maxDepth: 2, limit: 5, offset: 1 });
    const [[plain], [conditioned]] = store.batches as [[Operation], [Operation]];
    expect((plain as { matchConditions?: unknown }).matchConditions).toBeUndefined();
    expect(conditioned).toEqual({
      matchConditions: [
        { matchType: "prefix", path: ["a"] },
        { matchType: "suffix", path: ["c"] },
      ],
      maxDepth: 2,
      limit: 5,
      offset: 1,
    });
  });
});

describe("BaseStore's namespace checks", () => {
  it("refuse malformed namespaces in get, delete, search and listNamespaces before batch runs", async () => {
    const store = new RecordingStore();
    const dotted = ["tenant", "alice.files"];
    await expect(store.get(dotted, "k")).rejects.toThrow(/cannot contain periods/);
    await expect(store.delete(["tenant:alice"], "k")).rejects.toThrow(/cannot contain colons/);
    await expect(store.search(["a", ""])).rejects.toThrow(/cannot be empty strings/);
    await expect(store.listNamespaces({ prefix: ["tenant.alice"] })).rejects.toThrow(
      /cannot contain periods/,
    );
    await expect(store.listNamespaces({ suffix: ["alice.files"] })).rejects.toThrow(/cannot contain periods/);
    expect(store.batches).toEqual([]);
    // the empty namespace, the reserved root and wildcards are fine for reading
    await store.search([]);
    await store.get(["langgraph", "x"], "k");
    await store.listNamespaces({ prefix: ["tenant", "*"] });
    expect(store.batches).toHaveLength(3);
  });
});
