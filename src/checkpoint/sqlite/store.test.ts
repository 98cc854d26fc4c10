import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { BaseStore } from "../../graph/index.js";
import { runStoreConformance } from "../../graph/store/store-conformance.test-helpers.js";
import { SqliteStore } from "./index.js";

const dir = mkdtempSync(join(tmpdir(), "agentgraph-sqlite-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

runStoreConformance(
  "SqliteStore (file)",
  (options) => SqliteStore.fromConnString(join(dir, `store-${files++}.db`), options),
  (store: BaseStore) => store.stop(),
  "recent",
);

runStoreConformance(
  "SqliteStore (:memory:)",
  (options) => new SqliteStore(":memory:", options),
  (store: BaseStore) => store.stop(),
  "recent",
);

describe("SqliteStore specifics", () => {
  it("keeps items across reopening the file, and setup() is idempotent", async () => {
    const path = join(dir, "reopen.db");
    const first = SqliteStore.fromConnString(path);
    await first.setup();
    await first.put(["a"], "k", { when: new Date(5) });
    await first.stop();
    const second = SqliteStore.fromConnString(path);
    await second.setup();
    await second.setup();
    expect((await second.get(["a"], "k"))?.value).toStrictEqual({ when: new Date(5) });
    const versions = second.db.prepare("SELECT v FROM agentgraph_store_migrations ORDER BY v").all();
    expect(versions).toStrictEqual([{ v: 0 }, { v: 1 }]);
    await second.stop();
  });

  it("works on a database it was given and leaves it open on stop()", async () => {
    const db = new Database(":memory:");
    const store = new SqliteStore(db);
    await store.put(["a"], "k", { v: 1 });
    await store.stop();
    expect(db.open).toBe(true);
    expect(db.prepare("SELECT count(*) AS n FROM agentgraph_store").get()).toStrictEqual({ n: 1 });
    db.close();
  });

  it("corrupt stored values are a SerializationError naming the item", async () => {
    const store = new SqliteStore(":memory:");
    await store.put(["a"], "k", { v: 1 });
    store.db.prepare("UPDATE agentgraph_store SET value = '{\"v\":'").run();
    await expect(store.get(["a"], "k")).rejects.toThrow(/store item "k" in namespace \[a\].*not valid JSON/);
    await store.stop();
  });
});
