import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BaseStore, Item, Operation, SearchItem } from "../../graph/index.js";
import {
  expectStoppedSweepStaysStopped,
  runStoreConformance,
} from "../../graph/store/store-conformance.test-helpers.js";
import { type DistanceMetric, PostgresSaver, PostgresStore, PostgresStoreError } from "./index.js";

const url = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const base = `agentgraph_store_test_${process.pid}_${Date.now()}`;
let pool: pg.Pool;
let schemas = 0;
const created: string[] = [];

beforeAll(() => {
  pool = new pg.Pool({ connectionString: url, max: 20 });
});

afterAll(async () => {
  for (const schema of created) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

/** A store in a schema of its own, so that every test starts empty. */
function freshSchema(): string {
  const schema = `${base}_${schemas++}`;
  created.push(schema);
  return schema;
}

async function dropSchema(store: BaseStore): Promise<void> {
  await store.stop();
  await pool.query(`DROP SCHEMA IF EXISTS "${(store as PostgresStore).schema}" CASCADE`);
}

runStoreConformance(
  "PostgresStore",
  (options) => new PostgresStore({ pool, schema: freshSchema(), ...options }),
  dropSchema,
  "recent",
  "text",
);

describe("PostgresStore specifics", () => {
  it("fromConnString creates its own pool, setup() is idempotent, end() closes the pool", async () => {
    const schema = freshSchema();
    const store = PostgresStore.fromConnString(url, { schema });
    await Promise.all([store.setup(), store.setup()]);
    await store.setup();
    await store.put(["a"], "k", { when: new Date(5), n: 10n });
    const versions = await pool.query(`SELECT v FROM "${schema}".agentgraph_store_migrations ORDER BY v`);
    expect(versions.rows).toStrictEqual([{ v: 0 }, { v: 1 }, { v: 2 }]);
    await store.end();
    await store.end();
    const again = PostgresStore.fromConnString(url, { schema });
    expect((await again.get(["a"], "k"))?.value).toStrictEqual({ when: new Date(5), n: 10n });
    await again.stop();
  });

  it("concurrent setups of the same schema from separate stores do not race", async () => {
    const schema = freshSchema();
    const stores = Array.from({ length: 4 }, () => new PostgresStore({ pool, schema }));
    await Promise.all(stores.map((store) => store.setup()));
    await Promise.all(stores.map((store, i) => store.put(["a"], `k${i}`, { i })));
    expect((await stores[0]?.search(["a"]))?.length).toBe(4);
  });

  it("a store and a saver setting up a new schema at once both succeed", async () => {
    for (let round = 0; round < 5; round++) {
      const schema = freshSchema();
      const saver = new PostgresSaver(pool, undefined, { schema });
      const store = new PostgresStore({ pool, schema });
      await Promise.all([store.setup(), saver.setup()]);
      await store.put(["a"], "k", { round });
      expect(await saver.getTuple({ configurable: { thread_id: "t" } })).toBeUndefined();
    }
  });

  it("a schema set up by a newer version is refused with a PostgresStoreError saying so", async () => {
    const schema = freshSchema();
    await new PostgresStore({ pool, schema }).setup();
    await pool.query(`INSERT INTO "${schema}".agentgraph_store_migrations (v) VALUES (42)`);
    const store = new PostgresStore({ pool, schema });
    const error = await store.get(["a"], "k").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresStoreError);
    expect((error as Error).message).toBe(
      `PostgresStore: the tables in schema "${schema}" were set up by a newer version of agentgraph (migration 42; this version knows 0 to 2). Upgrade agentgraph in this process, or use another schema.`,
    );
  });

  it("database failures give a PostgresStoreError naming the operation and what to check", async () => {
    const offline = PostgresStore.fromConnString("postgresql://postgres@127.0.0.1:1/postgres", {
      schema: "nowhere",
    });
    const unreachable = await offline.put(["a"], "k", { v: 1 }).catch((e: unknown) => e);
    expect(unreachable).toBeInstanceOf(PostgresStoreError);
    expect((unreachable as Error).message).toMatch(
      /^PostgresStore \(schema "nowhere"\) could not set up its tables: .*PostgreSQL is running and reachable/,
    );
    await offline.end();

    const schema = freshSchema();
    const ended = PostgresStore.fromConnString(url, { schema });
    await ended.put(["users", "u1"], "prefs", { theme: "dark" });
    await ended.end();
    const afterEnd = await ended.get(["users", "u1"], "prefs").catch((e: unknown) => e);
    expect(afterEnd).toBeInstanceOf(PostgresStoreError);
    expect((afterEnd as Error).message).toMatch(
      `PostgresStore (schema "${schema}") could not get item "prefs" of namespace ["users","u1"]: Cannot use a pool after calling end on the pool. The store's pool was ended: create a new PostgresStore.`,
    );

    const dropped = new PostgresStore({ pool, schema: freshSchema() });
    await dropped.setup();
    await pool.query(`DROP SCHEMA "${dropped.schema}" CASCADE`);
    const missing = await dropped.search(["users"]).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(PostgresStoreError);
    expect((missing as Error).message).toMatch(
      /could not search namespace \["users"\]: .*\(42P01\).*store\.setup\(\)/,
    );
  });

  it("a batch whose connection is terminated inside it, and again when run again, rejects, rolled back, without crashing the process", async () => {
    const schema = freshSchema();
    const application = `${base}_terminated`;
    const own = new pg.Pool({ connectionString: url, application_name: application, max: 1 });
    const store = new PostgresStore({ pool: own, schema });
    await store.put(["a"], "k", { v: 1 });
    // another connection locks the item, so the store's batch waits inside its transaction
    const locker = await pool.connect();
    await locker.query("BEGIN");
    await locker.query(`SELECT * FROM "${schema}".agentgraph_store WHERE key = 'k' FOR UPDATE`);
    const put = store
      .batch([
        { namespace: ["a"], key: "other", value: { v: 3 } },
        { namespace: ["a"], key: "k", value: { v: 2 } },
      ])
      .catch((e: unknown) => e);
    // a batch whose connection is lost before its COMMIT runs once more, on a new connection
    const terminated = new Set<number>();
    while (terminated.size < 2) {
      const { rows } = await pool.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
        [application],
      );
      const waiting = rows[0]?.pid;
      if (waiting === undefined || terminated.has(waiting)) continue;
      await pool.query("SELECT pg_terminate_backend($1)", [waiting]);
      terminated.add(waiting);
    }
    const error = await put;
    await locker.query("ROLLBACK");
    locker.release();
    expect(error).toBeInstanceOf(PostgresStoreError);
    expect((error as Error).message).toMatch(/could not run a batch of 2 operations: .*\(57P01\)/);
    // the dead connection is not reused, and nothing of the batch was kept
    expect((await store.get(["a"], "k"))?.value).toStrictEqual({ v: 1 });
    expect(await store.get(["a"], "other")).toBeNull();
    await own.end();
  });

  it("concurrent batches writing the same items in different orders do not deadlock", async () => {
    const schema = freshSchema();
    const pools = [0, 1, 2].map(() => new pg.Pool({ connectionString: url, max: 2 }));
    const stores = pools.map((own) => new PostgresStore({ pool: own, schema }));
    await stores[0]?.setup();
    const keys = ["k0", "k1", "k2", "k3", "k4"];
    // each batch writes every item, in an order of its own (a rotation, reversed every other time)
    const failures = await Promise.all(
      stores.map(async (store, w) => {
        let failed = 0;
        for (let round = 0; round < 20; round++) {
          const start = (w * 2 + round) % keys.length;
          const order = [...keys.slice(start), ...keys.slice(0, start)];
          if (round % 2 === 1) order.reverse();
          const ops = order.map((key, i) => ({
            namespace: ["shared"],
            key,
            value: i === 4 ? null : { w, round },
          }));
          await store.batch(ops).catch(() => failed++);
        }
        return failed;
      }),
    );
    expect(failures).toStrictEqual([0, 0, 0]);
    for (const own of pools) await own.end();
  });

  it("concurrent batches restarting TTLs of the same items in different orders do not deadlock", async () => {
    const schema = freshSchema();
    const pools = [0, 1, 2].map(() => new pg.Pool({ connectionString: url, max: 2 }));
    const stores = pools.map((own) => new PostgresStore({ pool: own, schema, ttl: { defaultTtl: 60 } }));
    const keys = ["k0", "k1", "k2", "k3", "k4"];
    for (const key of keys) await stores[0]?.put(["shared"], key, { key });
    const before = await pool.query<{ key: string; expires_at: Date }>(
      `SELECT key, expires_at FROM "${schema}".agentgraph_store ORDER BY key`,
    );
    // reads of every item (and a search) in orders of their own, some batches writing one item too
    const failures = await Promise.all(
      stores.flatMap((store, w) =>
        [0, 1].map(async (lane) => {
          const failed: string[] = [];
          for (let round = 0; round < 8; round++) {
            const start = (w * 2 + lane + round) % keys.length;
            const order = [...keys.slice(start), ...keys.slice(0, start)];
            if ((round + lane) % 2 === 1) order.reverse();
            const ops: Operation[] = order.map((key) => ({ namespace: ["shared"], key }));
            if (lane === 1) ops.push({ namespacePrefix: ["shared"], limit: 10 });
            if (round % 3 === 0)
              ops.push({ namespace: ["shared"], key: order[0] ?? "", value: { w, round } });
            await store.batch(ops).catch((e: unknown) => failed.push((e as Error).message));
          }
          return failed;
        }),
      ),
    );
    expect(failures.flat()).toStrictEqual([]);
    const after = await pool.query<{ key: string; expires_at: Date }>(
      `SELECT key, expires_at FROM "${schema}".agentgraph_store ORDER BY key`,
    );
    // every read restarted the TTLs
    after.rows.forEach((row, i) => {
      expect(row.expires_at.getTime()).toBeGreaterThan(before.rows[i]?.expires_at.getTime() ?? Infinity);
    });
    for (const own of pools) await own.end();
  });

  it("a read whose item another transaction holds locked answers without waiting for it", async () => {
    const schema = freshSchema();
    const store = new PostgresStore({ pool, schema, ttl: { defaultTtl: 60 } });
    await store.put(["a"], "k", { v: 1 });
    const locker = await pool.connect();
    await locker.query("BEGIN");
    await locker.query(`SELECT * FROM "${schema}".agentgraph_store WHERE key = 'k' FOR UPDATE`);
    const batch = store.batch([
      { namespace: ["a"], key: "k" },
      { namespacePrefix: ["a"], limit: 10 },
    ]);
    const waited = new Promise<"waited">((resolve) => setTimeout(() => resolve("waited"), 3000).unref());
    const first = await Promise.race([batch, waited]);
    await locker.query("ROLLBACK");
    locker.release();
    expect(first).not.toBe("waited");
    const [got, found] = (await batch) as unknown as [Item | null, SearchItem[]];
    expect(got?.value).toStrictEqual({ v: 1 });
    expect(found.map((item) => item.key)).toStrictEqual(["k"]);
  });

  it("a sweep skips the expired items another transaction holds locked, and takes them next time", async () => {
    const schema = freshSchema();
    const store = new PostgresStore({ pool, schema, ttl: { defaultTtl: 60 } });
    await store.put(["a"], "held", { v: 1 });
    await store.put(["a"], "free", { v: 2 });
    await pool.query(`UPDATE "${schema}".agentgraph_store SET expires_at = now() - interval '1 minute'`);
    const locker = await pool.connect();
    await locker.query("BEGIN");
    await locker.query(`SELECT * FROM "${schema}".agentgraph_store WHERE key = 'held' FOR UPDATE`);
    const sweep = store.sweepExpiredItems();
    const waited = new Promise<"waited">((resolve) => setTimeout(() => resolve("waited"), 3000).unref());
    const first = await Promise.race([sweep, waited]);
    await locker.query("ROLLBACK");
    locker.release();
    expect(first).toBe(1);
    expect(await sweep).toBe(1);
    expect(await store.sweepExpiredItems()).toBe(1);
    expect((await pool.query(`SELECT key FROM "${schema}".agentgraph_store`)).rows).toStrictEqual([]);
  });

  it("a stopped TTL sweep stays stopped as a store on a pool passed in is used, until start()", async () => {
    const store = new PostgresStore({ pool, schema: freshSchema(), ttl: { sweepIntervalMinutes: 1 } });
    await expectStoppedSweepStaysStopped(store);
  });

  it("a store on a shared pool leaves it open on stop()", async () => {
    const store = new PostgresStore(pool);
    await store.stop();
    expect((await pool.query("SELECT 1 AS one")).rows).toStrictEqual([{ one: 1 }]);
  });

  it("a failing batch is rolled back", async () => {
    const store = new PostgresStore({ pool, schema: freshSchema() });
    await store.put(["a"], "k", { v: 1 });
    await pool.query(`UPDATE "${store.schema}".agentgraph_store SET value = '{' WHERE key = 'k'`);
    await expect(
      store.batch([
        { namespace: ["a"], key: "new", value: { v: 2 } },
        { namespace: ["a"], key: "k" },
      ]),
    ).rejects.toThrow(/store item "k" in namespace \[a\]/);
    expect(await store.get(["a"], "new")).toBeNull();
  });

  it("gives an item's fields in LangGraph.js's order (namespace, key, value, times, then score)", async () => {
    const store = new PostgresStore({ pool, schema: freshSchema() });
    await store.put(["a"], "k", { text: "quick fox" });
    const fields = ["namespace", "key", "value", "createdAt", "updatedAt"];
    expect(Object.keys((await store.get(["a"], "k")) ?? {})).toStrictEqual(fields);
    const [found] = await store.search(["a"], { query: "fox" });
    expect(Object.keys(found ?? {})).toStrictEqual([...fields, "score"]);
  });

  it("getStats counts items, expired ones, namespaces and creation times, as LangGraph.js's", async () => {
    const store = new PostgresStore({ pool, schema: freshSchema() });
    expect(await store.getStats()).toStrictEqual({
      totalItems: 0,
      expiredItems: 0,
      namespaceCount: 0,
      oldestItem: null,
      newestItem: null,
    });
    await store.put(["n1"], "k1", { v: 1 });
    await store.put(["n1"], "k2", { v: 2 });
    await store.put(["n2", "sub"], "k1", { v: 3 }, undefined, { ttl: 1 });
    await pool.query(
      `UPDATE "${store.schema}".agentgraph_store SET expires_at = now() - interval '1 minute' WHERE key = 'k1' AND prefix <> $1`,
      ["n1"],
    );
    const stats = await store.getStats();
    expect(stats).toMatchObject({ totalItems: 3, expiredItems: 1, namespaceCount: 2 });
    expect(stats.oldestItem).toBeInstanceOf(Date);
    expect(stats.newestItem).toBeInstanceOf(Date);
    expect((stats.newestItem as Date).getTime()).toBeGreaterThanOrEqual((stats.oldestItem as Date).getTime());
    await store.sweepExpiredItems();
    expect(await store.getStats()).toMatchObject({ totalItems: 2, expiredItems: 0, namespaceCount: 1 });
  });

  it("vectorSearch and hybridSearch say vector search is not configured, as LangGraph.js's without an index", async () => {
    const store = new PostgresStore({ pool, schema: freshSchema() });
    await expect(store.vectorSearch(["docs"], "q")).rejects.toThrow(/^Vector search not configured\./);
    await expect(store.hybridSearch(["docs"], "q", { vectorWeight: 0.5 })).rejects.toThrow(
      /^Vector search not configured\./,
    );
    // LangGraph.js's name for the distanceMetric option's type
    const distanceMetric: DistanceMetric = "cosine";
    await expect(store.vectorSearch(["docs"], "q", { distanceMetric })).rejects.toThrow(
      /^Vector search not configured\./,
    );
  });

  it("requires a pool or connection options", () => {
    expect(() => new PostgresStore({})).toThrow(/needs a pool or connectionOptions/);
  });
});
