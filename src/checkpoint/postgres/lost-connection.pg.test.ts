import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codecOf, EncodedCheckpointSaver, type StorageBatch } from "../../graph/index.js";
import { Annotation, END, START, StateGraph } from "../../index.js";
import {
  PostgresCheckpointStorage,
  PostgresSaver,
  PostgresSaverError,
  PostgresStore,
  PostgresStoreError,
} from "./index.js";

// Connections terminated under a running saver or store (pg_terminate_backend, as an administrator,
// a failover or a server closing sessions does). LangGraph.js's PostgresSaver fails the run with
// pg's own error (57P01, ECONNRESET or "Connection terminated unexpectedly"; a connection that dies
// between the statements of its transaction even raises an uncaught 'error' event); the pool hands
// out a new connection to the next call. Here a statement that is safe to run twice is run again
// on a new connection, so the run goes on.

const url = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const database = `agentgraph_lost_conn_${process.pid}_${Date.now().toString(36)}`;
const admin = new pg.Pool({ connectionString: url, max: 2 });
let dbUrl = "";
/** A connection to the test database that takes locks and terminates backends. */
let control: pg.Pool;
let counter = 0;

beforeAll(async () => {
  await admin.query(`CREATE DATABASE "${database}"`);
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  dbUrl = parsed.toString();
  control = new pg.Pool({ connectionString: dbUrl, max: 4 });
  // the pool's end() does not wait for its connections to close: DROP DATABASE may end them
  control.on("error", () => {});
});

afterAll(async () => {
  await control?.end();
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.end();
});

/** A pool whose connections carry an application name of their own, so that they can be told apart. */
function namedPool(): { pool: pg.Pool; application: string } {
  const application = `lost_conn_${counter++}`;
  const pool = new pg.Pool({ connectionString: dbUrl, application_name: application, max: 4 });
  pool.on("error", () => {});
  return { pool, application };
}

/**
 * Locks `table` (qualified) in `mode` and terminates, one after the other, the first `times`
 * backends of `application` that wait on a lock; then releases the lock. Resolves with the
 * number of backends terminated once the lock is held (the returned `done` with the count).
 */
async function killWaiters(
  application: string,
  table: string,
  mode: "EXCLUSIVE" | "ACCESS EXCLUSIVE",
  times: number,
): Promise<{ done: Promise<number> }> {
  const locker = await control.connect();
  await locker.query("BEGIN");
  await locker.query(`LOCK TABLE ${table} IN ${mode} MODE`);
  const done = (async () => {
    let killed = 0;
    const deadline = Date.now() + 10_000;
    try {
      while (killed < times && Date.now() < deadline) {
        const { rows } = await control.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
          [application],
        );
        const pid = rows[0]?.pid;
        if (pid === undefined) {
          await new Promise((resolve) => setTimeout(resolve, 2));
          continue;
        }
        await control.query("SELECT pg_terminate_backend($1)", [pid]);
        // wait until it is gone, so that the next waiter is another backend
        for (;;) {
          const gone = await control.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [pid]);
          if (gone.rows.length === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        killed++;
      }
    } finally {
      await locker.query("ROLLBACK");
      locker.release();
    }
    return killed;
  })();
  return { done };
}

/** Terminates the idle connections of `application` (as a server closing idle sessions does). */
async function killIdle(application: string): Promise<number> {
  const { rows } = await control.query<{ ok: boolean }>(
    "SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle'",
    [application],
  );
  return rows.filter((row) => row.ok).length;
}

const State = Annotation.Root({
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});
const STEPS = 64;

/** A graph of STEPS steps; `beforeSave` runs in each step (its saves come after it). */
function chain(saver: PostgresSaver, beforeSave: (step: number) => Promise<void>) {
  return new StateGraph(State)
    .addNode("step", async (state) => {
      await beforeSave(state.log.length);
      return { log: [String(state.log.length)] };
    })
    .addEdge(START, "step")
    .addConditionalEdges("step", (state) => (state.log.length < STEPS ? "step" : END))
    .compile({ checkpointer: saver });
}

/** What a thread holds: its state and each checkpoint's step, values and writes, newest first. */
async function contents(saver: PostgresSaver, threadId: string) {
  const history: unknown[] = [];
  for await (const tuple of saver.list({ configurable: { thread_id: threadId } })) {
    history.push({
      step: tuple.metadata?.step,
      source: tuple.metadata?.source,
      values: tuple.checkpoint.channel_values,
      versions: Object.keys(tuple.checkpoint.channel_versions).sort(),
      writes: (tuple.pendingWrites ?? []).map(([, channel, value]) => [channel, value]),
    });
  }
  return history;
}

describe("PostgreSQL connections terminated under a saver", () => {
  it("a run with sync durability whose connections are terminated 64 times or more completes, as an uninterrupted run", async () => {
    const { pool, application } = namedPool();
    const saver = new PostgresSaver(pool);
    await saver.setup();
    const table = `public.agentgraph_checkpoints`;
    let killedInSaves = 0;
    let killedIdle = 0;
    let killing: Promise<number> | undefined;
    const graph = chain(saver, async (step) => {
      if (killing !== undefined) killedInSaves += await killing;
      killing = undefined;
      // one step in two, the pool's idle connections die (the next save may take one before the
      // pool has seen it die); in the others, the first save after the step is terminated while
      // it runs (it waits on a lock)
      if (step % 2 === 0) killedIdle += await killIdle(application);
      else killing = (await killWaiters(application, table, "EXCLUSIVE", 1)).done;
    });
    const config = { configurable: { thread_id: "killed" }, recursionLimit: 100 };
    const result = await graph.invoke({ log: [] }, { ...config, durability: "sync" });
    if (killing !== undefined) killedInSaves += await killing;
    expect(killedInSaves).toBe(STEPS / 2);
    expect(killedIdle).toBeGreaterThanOrEqual(STEPS / 2);
    expect(result.log).toStrictEqual(Array.from({ length: STEPS }, (_, i) => String(i)));

    const quiet = chain(saver, async () => {});
    await quiet.invoke({ log: [] }, { configurable: { thread_id: "quiet" }, recursionLimit: 100 });
    const killed = await contents(saver, "killed");
    expect(killed).toHaveLength(STEPS + 2);
    expect(killed).toStrictEqual(await contents(saver, "quiet"));
    expect((await graph.getState(config)).values).toStrictEqual(result);
    await pool.end();
  });

  it("getTuple, list, deleteThread and prune whose connection is terminated once answer on a new one", async () => {
    const { pool, application } = namedPool();
    const saver = new PostgresSaver(pool);
    await saver.setup();
    const graph = chain(saver, async () => {});
    for (const thread of ["a", "b"])
      await graph.invoke({ log: [] }, { configurable: { thread_id: thread }, recursionLimit: 100 });
    const before = await contents(saver, "a");
    const killOnce = () => killWaiters(application, "public.agentgraph_checkpoints", "ACCESS EXCLUSIVE", 1);
    const config = { configurable: { thread_id: "a", checkpoint_ns: "" } };
    // a saver of its own for each call, so that it reads the database (not what it remembers)
    const fresh = () => new PostgresSaver(pool);

    let { done } = await killOnce();
    const tuple = await fresh().getTuple(config);
    expect(await done).toBe(1);
    expect(tuple?.checkpoint.channel_values).toStrictEqual({
      log: Array.from({ length: STEPS }, (_, i) => String(i)),
    });

    ({ done } = await killOnce());
    const listed = await contents(fresh(), "a");
    expect(await done).toBe(1);
    expect(listed).toStrictEqual(before);

    ({ done } = await killOnce());
    await fresh().prune(["a"], { keepLast: 3 });
    expect(await done).toBe(1);
    expect(await contents(saver, "a")).toStrictEqual(before.slice(0, 3));

    ({ done } = await killOnce());
    await fresh().deleteThread("a");
    expect(await done).toBe(1);
    expect(await fresh().getTuple(config)).toBeUndefined();
    expect(await contents(saver, "b")).toHaveLength(STEPS + 2);
    await pool.end();
  });

  it("a read just after every idle connection of the pool was terminated (a restart, a failover) answers on a new one", async () => {
    const { pool, application } = namedPool();
    const saver = new PostgresSaver(pool);
    await saver.setup();
    const graph = chain(saver, async () => {});
    const config = { configurable: { thread_id: "restarted" }, recursionLimit: 100 };
    await graph.invoke({ log: [] }, config);
    for (let round = 0; round < 20; round++) {
      const idle = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
      for (const client of idle) client.release();
      expect(await killIdle(application)).toBe(3);
      // the backends' goodbyes reach the pool's sockets before the pool has read them
      const until = Date.now() + 30;
      while (Date.now() < until) {}
      const tuple = await saver.getTuple(config);
      expect(tuple?.checkpoint.channel_values.log).toHaveLength(STEPS);
    }
    await pool.end();
  });

  it("a statement whose connection is terminated twice fails with a PostgresSaverError that says so; nothing is lost", async () => {
    const { pool, application } = namedPool();
    const saver = new PostgresSaver(pool);
    await saver.setup();
    await chain(saver, async () => {}).invoke(
      { log: [] },
      { configurable: { thread_id: "t" }, recursionLimit: 100 },
    );
    const before = await contents(saver, "t");
    const config = { configurable: { thread_id: "t", checkpoint_ns: "" } };
    const table = "public.agentgraph_checkpoints";
    for (const operation of [
      () => new PostgresSaver(pool).getTuple(config),
      () => contents(new PostgresSaver(pool), "t"),
      () => new PostgresSaver(pool).deleteThread("t"),
      () => new PostgresSaver(pool).prune(["t"], { keepLast: 1 }),
    ]) {
      const { done } = await killWaiters(application, table, "ACCESS EXCLUSIVE", 2);
      const error = await operation().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(await done).toBe(2);
      expect(error).toBeInstanceOf(PostgresSaverError);
      expect((error as Error).message).toMatch(
        /^PostgresSaver \(schema "public"\) could not .* of thread "t".*: terminating connection due to administrator command \(57P01\)\. The server ended or refused the connection/,
      );
      expect(await contents(saver, "t")).toStrictEqual(before);
    }
    await pool.end();
  });
});

describe("a save done twice (its connection lost after it committed)", () => {
  /** Storage whose every write is made twice, as a write retried after its COMMIT's answer was lost is. */
  class TwiceStorage extends PostgresCheckpointStorage {
    override async write(batch: StorageBatch): Promise<void> {
      await super.write(batch);
      await super.write(batch);
    }
  }

  it("stores what it stores once, packed writes included", async () => {
    const { pool } = namedPool();
    const once = new PostgresCheckpointStorage(pool, { schema: "saved_once" });
    const twice = new TwiceStorage(pool, { schema: "saved_twice" });
    const contentsOf = async (storage: PostgresCheckpointStorage) => {
      const saver = new EncodedCheckpointSaver(storage, codecOf(undefined));
      for (const durability of ["async", "sync"] as const) {
        await chain(saver as PostgresSaver, async () => {}).invoke(
          { log: [] },
          { configurable: { thread_id: durability }, recursionLimit: 100, durability },
        );
      }
      const reader = new EncodedCheckpointSaver(storage, codecOf(undefined)) as PostgresSaver;
      return {
        async: await contents(reader, "async"),
        sync: await contents(reader, "sync"),
        bytes: await storage.storedBytes(),
      };
    };
    const expected = await contentsOf(once);
    // the grouped saves of async durability keep their writes packed in their checkpoint's row
    const { rows } = await pool.query(
      "SELECT count(*)::int AS n FROM saved_once.agentgraph_checkpoints WHERE writes IS NOT NULL",
    );
    expect(rows[0]?.n).toBeGreaterThan(0);
    expect(await contentsOf(twice)).toStrictEqual(expected);
    await pool.end();
  });
});

describe("PostgreSQL connections terminated under a store", () => {
  it("a batch whose connection is terminated before its COMMIT runs again; twice, a PostgresStoreError", async () => {
    const { pool, application } = namedPool();
    const store = new PostgresStore({ pool, schema: "store_lost" });
    await store.setup();
    await store.put(["docs"], "a", { v: 1 });
    const table = "store_lost.agentgraph_store";
    let { done } = await killWaiters(application, table, "ACCESS EXCLUSIVE", 1);
    const results = await store.batch([
      { namespace: ["docs"], key: "a" },
      { namespace: ["docs"], key: "a", value: { v: 2 } },
    ]);
    expect(await done).toBe(1);
    expect((results[0] as { value: unknown } | null)?.value).toStrictEqual({ v: 1 });
    expect((await store.get(["docs"], "a"))?.value).toStrictEqual({ v: 2 });

    ({ done } = await killWaiters(application, table, "ACCESS EXCLUSIVE", 2));
    const error = await store.put(["docs"], "a", { v: 3 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(await done).toBe(2);
    expect(error).toBeInstanceOf(PostgresStoreError);
    expect((error as Error).message).toMatch(
      /terminating connection due to administrator command \(57P01\)\. The server ended or refused the connection .* the store's pool opens new connections\./,
    );
    expect((await store.get(["docs"], "a"))?.value).toStrictEqual({ v: 2 });
    await store.stop();
    await pool.end();
  });
});
