import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { BaseStore } from "../../graph/index.js";
import {
  expectStoppedSweepStaysStopped,
  runStoreConformance,
} from "../../graph/store/store-conformance.test-helpers.js";
import { SqliteStore, SqliteStoreError } from "./index.js";

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
  it("a stopped TTL sweep stays stopped as a store on a database passed in is used, until start()", async () => {
    const db = new Database(":memory:");
    await expectStoppedSweepStaysStopped(new SqliteStore(db, { ttl: { sweepIntervalMinutes: 1 } }));
    db.close();
  });

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

  it("a store opened while another connection writes reads without waiting for its lock", async () => {
    const path = join(dir, "busy.db");
    const first = SqliteStore.fromConnString(path);
    await first.put(["a"], "k", { v: 1 });
    const writer = new Database(path);
    writer.exec("BEGIN IMMEDIATE");
    try {
      // a short busy_timeout: taking the write lock would fail rather than wait
      const reader = new SqliteStore(new Database(path, { timeout: 50 }));
      expect((await reader.get(["a"], "k"))?.value).toStrictEqual({ v: 1 });
      expect(await reader.search(["a"])).toHaveLength(1);
      const error = await reader.put(["a"], "k2", { v: 2 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SqliteStoreError);
      expect((error as Error).message).toMatch(
        /^SqliteStore could not put item "k2" of namespace \["a"\]: database is locked \(SQLITE_BUSY\)\. .*busy_timeout/,
      );
      reader.db.close();
    } finally {
      writer.exec("ROLLBACK");
      writer.close();
      await first.stop();
    }
  });

  it("a read that restarts TTLs waits for another process's write lock rather than failing", async () => {
    const path = join(dir, "refresh.db");
    const store = SqliteStore.fromConnString(path, { ttl: { defaultTtl: 60 } });
    await store.put(["a"], "k", { v: 1 });
    // another process takes the write lock, holds it for 300 ms, then commits
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    const holder = spawn(process.execPath, [
      "-e",
      `const db = new (require(${JSON.stringify(driver)}))(${JSON.stringify(path)});
       db.exec("BEGIN IMMEDIATE"); console.log("locked");
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
       db.exec("COMMIT"); db.close();`,
    ]);
    await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
    const exited = new Promise((resolve) => holder.once("exit", resolve));
    try {
      // the read itself does not wait; restarting the item's TTL waits for the lock (busy_timeout)
      expect((await store.get(["a"], "k"))?.value).toStrictEqual({ v: 1 });
      expect(await store.search(["a"])).toHaveLength(1);
    } finally {
      await exited;
      await store.stop();
    }
  });

  it("a closed store, or one on a newer version's tables, gives a SqliteStoreError saying what to do", async () => {
    const path = join(dir, "closed.db");
    const store = SqliteStore.fromConnString(path);
    await store.put(["a"], "k", { v: 1 });
    await store.stop();
    const closed = await store.get(["a"], "k").catch((e: unknown) => e);
    expect(closed).toBeInstanceOf(SqliteStoreError);
    expect((closed as Error).message).toBe(
      'SqliteStore could not get item "k" of namespace ["a"]: The database connection is not open. The store (or its database) was closed: create a new SqliteStore.',
    );
    const db = new Database(path);
    db.prepare("INSERT INTO agentgraph_store_migrations (v) VALUES (7)").run();
    const newer = await new SqliteStore(db).search(["a"]).catch((e: unknown) => e);
    expect(newer).toBeInstanceOf(SqliteStoreError);
    expect((newer as Error).message).toBe(
      "SqliteStore: the tables in this database were set up by a newer version of agentgraph (migration 7; this version knows 0 to 1). Upgrade agentgraph in this process, or use another database file.",
    );
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
