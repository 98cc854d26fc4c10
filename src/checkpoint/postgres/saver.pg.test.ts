import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  codecOf,
  EncodedCheckpointSaver,
  MemoryCheckpointStorage,
  type SaverBatchOp,
} from "../../graph/index.js";
import {
  Annotation,
  type BaseCheckpointSaver,
  CheckpointCorruptError,
  END,
  emptyCheckpoint,
  MemorySaver,
  START,
  StateGraph,
} from "../../index.js";
import { HumanMessage } from "../../messages/index.js";
import { saverConformanceCases } from "../../testing/index.js";
import { checkForkedLists } from "../forked-lists.test-helpers.js";
import { checkOwnReads } from "../own-reads.test-helpers.js";
import { checkStorageParity } from "../storage-parity.test-helpers.js";
import { PostgresCheckpointStorage, PostgresSaver, PostgresSaverError } from "./index.js";
import { checkpointSql, quoteSchema } from "./saver-sql.js";

const url = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const base = `agentgraph_saver_test_${process.pid}_${Date.now().toString(36)}`;
const pool = new pg.Pool({ connectionString: url, max: 10 });
const schemas: string[] = [];
let counter = 0;

/** A schema of its own (dropped after the file's tests). */
function freshSchema(): string {
  const schema = `${base}_${counter++}`;
  schemas.push(schema);
  return schema;
}

afterAll(async () => {
  for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

const schemaOf = (saver: BaseCheckpointSaver) => `"${(saver as PostgresSaver).schema}"`;

/** Ways to damage a thread's rows; each must surface as CheckpointCorruptError naming thread and checkpoint. */
const sql = async (text: string, params: unknown[]): Promise<void> => {
  await pool.query(text, params);
};

const CORRUPTIONS: Record<string, (saver: BaseCheckpointSaver, threadId: string) => Promise<void>> = {
  "truncated checkpoint record": (saver, threadId) =>
    sql(
      `UPDATE ${schemaOf(saver)}.agentgraph_checkpoints SET record = left(record, length(record) / 2)
       WHERE thread_id = $1 AND checkpoint_id = (SELECT max(checkpoint_id) FROM ${schemaOf(saver)}.agentgraph_checkpoints WHERE thread_id = $1)`,
      [threadId],
    ),
  "missing row in the checkpoint chain": (saver, threadId) =>
    sql(
      `DELETE FROM ${schemaOf(saver)}.agentgraph_checkpoints WHERE thread_id = $1 AND checkpoint_id =
        (SELECT checkpoint_id FROM ${schemaOf(saver)}.agentgraph_checkpoints WHERE thread_id = $1 AND depth > 0
          ORDER BY checkpoint_id OFFSET 3 LIMIT 1)`,
      [threadId],
    ),
  "missing list item": (saver, threadId) =>
    sql(
      `DELETE FROM ${schemaOf(saver)}.agentgraph_checkpoint_items WHERE thread_id = $1 AND hash =
        (SELECT min(hash) FROM ${schemaOf(saver)}.agentgraph_checkpoint_items WHERE thread_id = $1)`,
      [threadId],
    ),
  "truncated list item": (saver, threadId) =>
    sql(
      `UPDATE ${schemaOf(saver)}.agentgraph_checkpoint_items SET data = left(data, length(data) / 2) WHERE thread_id = $1 AND hash =
        (SELECT max(hash) FROM ${schemaOf(saver)}.agentgraph_checkpoint_items WHERE thread_id = $1)`,
      [threadId],
    ),
  // valid JSON among the others' texts, but two values where one was stored
  "list item holding two values": (saver, threadId) =>
    sql(
      `UPDATE ${schemaOf(saver)}.agentgraph_checkpoint_items SET data = data || ',1' WHERE thread_id = $1 AND hash =
        (SELECT min(hash) FROM ${schemaOf(saver)}.agentgraph_checkpoint_items WHERE thread_id = $1)`,
      [threadId],
    ),
  "truncated list splice": (saver, threadId) =>
    sql(
      `UPDATE ${schemaOf(saver)}.agentgraph_checkpoint_blobs SET data = left(data, 3) WHERE thread_id = $1 AND kind = 'splice'`,
      [threadId],
    ),
  "truncated channel value": (saver, threadId) =>
    sql(
      `UPDATE ${schemaOf(saver)}.agentgraph_checkpoint_blobs SET data = left(data, 2) WHERE thread_id = $1 AND kind = 'value'`,
      [threadId],
    ),
};

describe("saver conformance: PostgresSaver", () => {
  const schema = freshSchema();
  const create = () => new PostgresSaver(pool, undefined, { schema });
  for (const c of saverConformanceCases()) it(c.name, () => c.run(create));
  const corruptName = saverConformanceCases().find((c) => c.requires.includes("corrupt"))?.name;
  for (const [kind, corrupt] of Object.entries(CORRUPTIONS)) {
    it(`damaged rows (${kind}) → CheckpointCorruptError`, async () => {
      const [c] = saverConformanceCases({ corrupt }).filter((x) => x.name === corruptName);
      await c?.run(create);
    });
  }
});

describe("saver conformance: PostgresSaver without prepared statements", () => {
  const schema = freshSchema();
  const [values, lists] = saverConformanceCases();
  for (const c of [values, lists]) {
    if (c !== undefined)
      it(c.name, () =>
        c.run(() => new PostgresSaver(pool, undefined, { schema, preparedStatements: false })),
      );
  }
});

describe("PostgresSaver specifics", () => {
  it("concurrent setups in a new schema apply each migration once", async () => {
    const schema = freshSchema();
    const savers = Array.from({ length: 6 }, () => new PostgresSaver(pool, undefined, { schema }));
    await Promise.all(savers.map((s) => s.setup()));
    await savers[0]?.setup();
    const { rows } = await pool.query(
      `SELECT v FROM "${schema}".agentgraph_checkpoint_migrations ORDER BY v`,
    );
    expect(rows).toEqual([{ v: 0 }, { v: 1 }, { v: 2 }, { v: 3 }, { v: 4 }, { v: 5 }, { v: 6 }]);
  });

  it("a schema set up by a newer version is refused with a PostgresSaverError saying so", async () => {
    const schema = freshSchema();
    await new PostgresSaver(pool, undefined, { schema }).setup();
    await pool.query(`INSERT INTO "${schema}".agentgraph_checkpoint_migrations (v) VALUES (99)`);
    const saver = new PostgresSaver(pool, undefined, { schema });
    const error = await saver.getTuple({ configurable: { thread_id: "t" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresSaverError);
    expect((error as Error).message).toBe(
      `PostgresSaver: the tables in schema "${schema}" were set up by a newer version of agentgraph (migration 99; this version knows 0 to 6). Upgrade agentgraph in this process, or use another schema.`,
    );
  });

  it("sets up in an existing schema its user owns without the right to create schemas", async () => {
    const database = `${base}_owned`;
    const role = `${base}_owner`;
    await pool.query(`CREATE DATABASE "${database}"`);
    await pool.query(`CREATE ROLE "${role}" LOGIN`);
    const adminUrl = new URL(url);
    adminUrl.pathname = `/${database}`;
    const admin = new pg.Client({ connectionString: adminUrl.href });
    await admin.connect();
    try {
      await admin.query(`REVOKE CREATE ON DATABASE "${database}" FROM PUBLIC`);
      await admin.query(`CREATE SCHEMA agents AUTHORIZATION "${role}"`);
      const roleUrl = new URL(adminUrl.href);
      roleUrl.username = role;
      roleUrl.password = "";
      const saver = PostgresSaver.fromConnString(roleUrl.href, { schema: "agents" });
      try {
        await saver.setup();
        expect(await saver.getTuple({ configurable: { thread_id: "t" } })).toBeUndefined();
      } finally {
        await saver.end();
      }
    } finally {
      await admin.end();
      await pool.query(`DROP DATABASE "${database}" WITH (FORCE)`);
      await pool.query(`DROP ROLE "${role}"`);
    }
  });

  it("reads long lists on forked branches whose versions interleave", async () => {
    const schema = freshSchema();
    const saver = new PostgresSaver(pool, undefined, { schema });
    // a second saver on the same schema has no caches: every list is read back from the rows
    await checkForkedLists(saver, () => new PostgresSaver(pool, undefined, { schema }));
  });

  it("reads back its own writes from what it knows, and still sees other savers' changes and lost rows", async () => {
    const schema = freshSchema();
    const saver = new PostgresSaver(pool, undefined, { schema });
    await checkOwnReads(
      saver,
      () => new PostgresSaver(pool, undefined, { schema }),
      async (threadId) => {
        await pool.query(
          `DELETE FROM "${schema}".agentgraph_checkpoint_items WHERE thread_id = $1
             AND hash = (SELECT max(hash) FROM "${schema}".agentgraph_checkpoint_items WHERE thread_id = $1)`,
          [threadId],
        );
      },
    );
  });

  it("sets up lazily on first use", async () => {
    const schema = freshSchema();
    const saver = new PostgresSaver(pool, undefined, { schema });
    expect(await saver.getTuple({ configurable: { thread_id: "t" } })).toBeUndefined();
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM "${schema}".agentgraph_checkpoints`);
    expect(rows).toEqual([{ n: 0 }]);
  });

  it("fromConnString owns its pool and end() closes it; a pool passed in stays open", async () => {
    const schema = freshSchema();
    const owned = PostgresSaver.fromConnString(url, { schema });
    await owned.setup();
    await owned.end();
    await owned.end();
    expect((owned.pool as pg.Pool & { ended: boolean }).ended).toBe(true);
    const given = new PostgresSaver(pool, undefined, { schema });
    await given.end();
    expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("survives its idle pooled connection being terminated, and keeps working", async () => {
    const schema = freshSchema();
    const saver = PostgresSaver.fromConnString(url, { schema });
    await saver.setup();
    const client = await saver.pool.connect();
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    client.release();
    // the connection dies while idle in the saver's pool: pg emits 'error' on the pool, which
    // must not crash the process
    await pool.query("SELECT pg_terminate_backend($1)", [rows[0]?.pid]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await saver.getTuple({ configurable: { thread_id: "t", checkpoint_ns: "" } })).toBeUndefined();
    await saver.end();
  });

  it("an unreachable server gives a PostgresSaverError that says what to check", async () => {
    const saver = PostgresSaver.fromConnString("postgresql://postgres@127.0.0.1:1/postgres", {
      schema: "nowhere",
    });
    const error = await saver.getTuple({ configurable: { thread_id: "t-offline" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresSaverError);
    expect((error as Error).message).toMatch(/PostgreSQL is running and reachable/);
    await saver.end();
  });

  it("a pool with no free connection within its timeout gives a PostgresSaverError saying so", async () => {
    const schema = freshSchema();
    const small = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 50 });
    const saver = new PostgresSaver(small, undefined, { schema });
    await saver.setup();
    const held = await small.connect();
    const error = await saver.getTuple({ configurable: { thread_id: "t-busy" } }).catch((e: unknown) => e);
    held.release();
    expect(error).toBeInstanceOf(PostgresSaverError);
    expect((error as Error).message).toMatch(
      /thread "t-busy": timeout exceeded when trying to connect\. No connection of the pool came free .*connectionTimeoutMillis/,
    );
    await small.end();
  });

  it("tables dropped under a running saver give a PostgresSaverError naming thread and fix", async () => {
    const schema = freshSchema();
    const saver = new PostgresSaver(pool, undefined, { schema });
    await saver.setup();
    await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
    const error = await saver.getTuple({ configurable: { thread_id: "t-dropped" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresSaverError);
    expect((error as Error).message).toMatch(/thread "t-dropped".*setup\(\)/s);
  });

  it("writes each batch in one statement: a failing row rolls back the whole put", async () => {
    const schema = freshSchema();
    const storage = new PostgresCheckpointStorage(pool, { schema });
    const row = {
      threadId: "atomic",
      ns: "",
      id: "c1",
      parentId: null,
      createdAt: 1,
      record: "{}",
      metadata: "{}",
      depth: 0,
    };
    await expect(
      storage.write({
        checkpoints: [row],
        blobs: [
          {
            threadId: "atomic",
            ns: "",
            channel: "x",
            version: "1",
            kind: "bogus" as "value",
            data: "1",
            prev: null,
            depth: 0,
          },
        ],
        items: [],
        writes: [],
      }),
    ).rejects.toBeInstanceOf(PostgresSaverError);
    expect(await storage.checkpointChain("atomic", "", undefined)).toEqual([]);
  });

  it("a batch repeating a control write keeps the last, as MemorySaver does", async () => {
    const schema = freshSchema();
    const saver = new PostgresSaver(pool, undefined, { schema });
    const config = { configurable: { thread_id: "dup", checkpoint_ns: "", checkpoint_id: "c1" } };
    await saver.putWrites(
      config,
      [
        ["__interrupt__", "first"],
        ["__interrupt__", "second"],
        ["a", 1],
      ],
      "task",
    );
    const memory = new MemorySaver();
    await memory.putWrites(
      config,
      [
        ["__interrupt__", "first"],
        ["__interrupt__", "second"],
        ["a", 1],
      ],
      "task",
    );
    const storage = new PostgresCheckpointStorage(pool, { schema });
    const rows = (await storage.writes("dup", "", "c1")).map((r) => [r.idx, r.channel, r.data]);
    expect(rows.sort()).toEqual(
      [
        [-3, "__interrupt__", '"second"'],
        [2, "a", "1"],
      ].sort(),
    );
  });

  it("keeps a batch's writes in their checkpoint's row, and later writes of that checkpoint as rows", async () => {
    const schema = freshSchema();
    const saver = new PostgresSaver(pool, undefined, { schema });
    const id = "1ef00000-0000-6000-8000-000000000001";
    const at = { configurable: { thread_id: "packed", checkpoint_ns: "", checkpoint_id: id } };
    const checkpoint = { ...emptyCheckpoint(id), channel_values: { n: 1 }, channel_versions: { n: 1 } };
    const metadata = { source: "loop" as const, step: 0, parents: {} };
    const put: SaverBatchOp = {
      kind: "checkpoint",
      config: { configurable: { thread_id: "packed", checkpoint_ns: "" } },
      checkpoint,
      metadata,
      newVersions: { n: 1 },
    };
    const writes = (taskId: string, ...values: [string, unknown][]): SaverBatchOp => ({
      kind: "writes",
      config: at,
      writes: values,
      taskId,
      taskPath: `~__pregel_pull, ${taskId}`,
    });
    await saver.putBatch([
      put,
      writes("task-a", ["n", 2], ["note", "first"]),
      writes("task-a", ["note", "ignored: task-a wrote idx 0 first"]),
    ]);
    const rows = async () =>
      (
        await pool.query(
          `SELECT task_id, idx FROM "${schema}".agentgraph_checkpoint_writes ORDER BY task_id, idx`,
        )
      ).rows;
    expect(await rows()).toEqual([]);
    // a write of the stored checkpoint, a second task's, is a row; task-a's idx 0 again is not stored
    await saver.putWrites(at, [["note", "second"]], "task-b", "~__pregel_pull, task-b");
    await saver.putWrites(at, [["note", "ignored too"]], "task-a", "~__pregel_pull, task-a");
    expect(await rows()).toEqual([{ task_id: "task-b", idx: 0 }]);
    // the checkpoint stored again keeps the writes it held and adds the batch's
    await saver.putBatch([put, writes("task-c", ["note", "third"])]);
    const expected = [
      ["task-a", "n", 2],
      ["task-a", "note", "first"],
      ["task-b", "note", "second"],
      ["task-c", "note", "third"],
    ];
    expect((await saver.getTuple(at))?.pendingWrites).toEqual(expected);
    const reader = new PostgresSaver(pool, undefined, { schema });
    expect((await reader.getTuple(at))?.pendingWrites).toEqual(expected);
    const listed = [];
    for await (const tuple of reader.list({ configurable: { thread_id: "packed" } }))
      listed.push(tuple.pendingWrites);
    expect(listed).toEqual([expected]);
    // counted as the rows they stand for
    const memory = new MemorySaver();
    await memory.put({ configurable: { thread_id: "packed", checkpoint_ns: "" } }, checkpoint, metadata, {
      n: 1,
    });
    await memory.putWrites(
      at,
      [
        ["n", 2],
        ["note", "first"],
      ],
      "task-a",
      "~__pregel_pull, task-a",
    );
    await memory.putWrites(at, [["note", "second"]], "task-b", "~__pregel_pull, task-b");
    await memory.putWrites(at, [["note", "third"]], "task-c", "~__pregel_pull, task-c");
    expect(await saver.storedBytes("packed")).toBe(memory.storedBytes("packed"));

    // a damaged pack is a corrupt checkpoint, named
    await pool.query(
      `UPDATE "${schema}".agentgraph_checkpoints SET writes = left(writes, 9) WHERE thread_id = 'packed'`,
    );
    const error = await new PostgresSaver(pool, undefined, { schema }).getTuple(at).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointCorruptError);
    expect((error as Error).message).toMatch(new RegExp(`${id} of thread "packed".*pending writes`));
  });

  it("async durability: a grouped save whose connection is terminated is saved again, and the run goes on", async () => {
    const schema = freshSchema();
    const application = `${base}_grouped`;
    const own = new pg.Pool({ connectionString: url, application_name: application });
    own.on("error", () => {});
    const saver = new PostgresSaver(own, undefined, { schema });
    await saver.setup();
    const State = Annotation.Root({
      log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    });
    let runs = 0;
    let terminated = 0;
    let killing: Promise<void> | undefined;
    const graph = new StateGraph(State)
      .addNode("step", async (state) => {
        runs++;
        if (state.log.length === 2) {
          // the saves after this step wait on a lock; the connection of the one that waits is
          // terminated, then the lock released
          const locker = await pool.connect();
          await locker.query("BEGIN");
          await locker.query(`LOCK TABLE "${schema}".agentgraph_checkpoints IN EXCLUSIVE MODE`);
          killing = (async () => {
            for (;;) {
              const { rows } = await pool.query<{ pid: number }>(
                "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
                [application],
              );
              if (rows[0] !== undefined) {
                await pool.query("SELECT pg_terminate_backend($1)", [rows[0].pid]);
                terminated++;
                break;
              }
              await new Promise((resolve) => setTimeout(resolve, 5));
            }
            await locker.query("ROLLBACK");
            locker.release();
          })();
        }
        return { log: [String(state.log.length)] };
      })
      .addEdge(START, "step")
      .addConditionalEdges("step", (state) => (state.log.length < 5 ? "step" : END))
      .compile({ checkpointer: saver });
    const config = { configurable: { thread_id: "grouped" } };
    const result = await graph.invoke({ log: [] }, { ...config, durability: "async" });
    await killing;
    expect(terminated).toBe(1);
    expect(result.log).toStrictEqual(["0", "1", "2", "3", "4"]);
    expect(runs).toBe(5);
    const reader = new PostgresSaver(pool, undefined, { schema });
    const history: (number | undefined)[] = [];
    for await (const tuple of reader.list(config)) history.push(tuple.metadata?.step);
    expect(history).toStrictEqual([5, 4, 3, 2, 1, 0, -1]);
    await own.end();
  });

  it("a prune keeps the writes saved to a kept checkpoint while it read the thread", async () => {
    const schema = freshSchema();
    const runner = new PostgresSaver(pool, undefined, { schema });
    const metadata = { source: "loop" as const, step: 0, parents: {} };
    let config = { configurable: { thread_id: "busy", checkpoint_ns: "" } } as {
      configurable: { thread_id: string; checkpoint_ns: string; checkpoint_id?: string };
    };
    const ids: string[] = [];
    for (let step = 1; step <= 3; step++) {
      const id = `1ef00000-0000-6000-8000-00000000000${step}`;
      const checkpoint = {
        ...emptyCheckpoint(id),
        channel_values: { n: step },
        channel_versions: { n: step },
      };
      const at = { configurable: { thread_id: "busy", checkpoint_ns: "", checkpoint_id: id } };
      // the checkpoint and its first task's writes in one batch: the writes are packed in its row
      await runner.putBatch([
        { kind: "checkpoint", config, checkpoint, metadata: { ...metadata, step }, newVersions: { n: step } },
        { kind: "writes", config: at, writes: [["n", step * 10]], taskId: "task-a", taskPath: "~a" },
      ]);
      config = at;
      ids.push(id);
    }
    const latest = config;
    const late = Array.from({ length: 12 }, (_, i) => ({ text: `late message ${i} `.repeat(8) }));
    const storage = new PostgresCheckpointStorage(pool, { schema });
    let replacements = 0;
    const racing = new Proxy(storage, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          if (key === "replaceThread" && replacements++ === 0)
            await runner.putWrites(latest, [["notes", late]], "task-late", "~late");
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    await new EncodedCheckpointSaver(racing, codecOf(undefined)).prune(["busy"], { keepLast: 2 });
    // refused once (the write came in), then read again
    expect(replacements).toBe(2);
    const reader = new PostgresSaver(pool, undefined, { schema });
    expect((await reader.getTuple(latest))?.pendingWrites).toStrictEqual([
      ["task-a", "n", 30],
      ["task-late", "notes", late],
    ]);
    const listed: string[] = [];
    for await (const tuple of reader.list({ configurable: { thread_id: "busy" } }))
      listed.push(tuple.checkpoint.id);
    expect(listed).toStrictEqual([ids[2], ids[1]]);
    // a prune with nothing coming in replaces the thread at once, packed writes and all
    replacements = 1;
    await new EncodedCheckpointSaver(racing, codecOf(undefined)).prune(["busy"], { keepLast: 1 });
    expect(replacements).toBe(2);
    expect((await reader.getTuple(latest))?.pendingWrites).toStrictEqual([
      ["task-a", "n", 30],
      ["task-late", "notes", late],
    ]);
  });

  it("keeps a small Send in its write and in the next checkpoint's record: no item, no blob row", async () => {
    const schema = freshSchema();
    const saver = new PostgresSaver(pool, undefined, { schema });
    const send = { node: "tools", args: [{ name: "lookup", args: { query: "q1" }, id: "c1" }] };
    const first = "1ef00000-0000-6000-8000-000000000001";
    const second = "1ef00000-0000-6000-8000-000000000002";
    const empty = { v: 4, ts: "2024-01-01T00:00:00.000Z", versions_seen: {} };
    await saver.put(
      { configurable: { thread_id: "s", checkpoint_ns: "" } },
      { ...empty, id: first, channel_values: {}, channel_versions: {} },
      { source: "loop", step: 0, parents: {} },
      {},
    );
    const at = { configurable: { thread_id: "s", checkpoint_ns: "", checkpoint_id: first } };
    await saver.putWrites(at, [["tasks", send]], "task-1");
    await saver.put(
      at,
      { ...empty, id: second, channel_values: { tasks: [send] }, channel_versions: { tasks: 1 } },
      { source: "loop", step: 1, parents: {} },
      { tasks: 1 },
    );
    const count = async (table: string) =>
      (await pool.query(`SELECT count(*)::int AS n FROM "${schema}".${table} WHERE thread_id = 's'`)).rows;
    expect(await count("agentgraph_checkpoint_items")).toEqual([{ n: 0 }]);
    expect(await count("agentgraph_checkpoint_blobs")).toEqual([{ n: 0 }]);
    const reader = new PostgresSaver(pool, undefined, { schema });
    expect((await reader.getTuple(at))?.pendingWrites).toEqual([["task-1", "tasks", send]]);
    const latest = await reader.getTuple({ configurable: { thread_id: "s" } });
    expect(latest?.checkpoint.channel_values.tasks).toEqual([send]);
  });

  it("mirrors MemoryCheckpointStorage on random batches", async () => {
    await checkStorageParity(
      new PostgresCheckpointStorage(pool, { schema: freshSchema() }),
      "parity",
      60,
      11,
    );
  });

  it("counts stored bytes as MemorySaver does", async () => {
    // a memory storage that keeps short lists inline as PostgreSQL does (the first step's one message)
    const storage = new MemoryCheckpointStorage({ inlineShortLists: true });
    const memory = Object.assign(new EncodedCheckpointSaver(storage, codecOf(undefined)), {
      storedBytes: (threadId?: string) => storage.storedBytes(threadId),
    });
    const postgres = new PostgresSaver(pool, undefined, { schema: freshSchema() });
    for (const saver of [memory, postgres]) {
      let messages: HumanMessage[] = [];
      let parent: string | undefined;
      for (let i = 0; i < 80; i++) {
        messages = [...messages, new HumanMessage({ content: `message ${i}`, id: `m-${i}` })];
        const id = `1ef00000-0000-6000-8000-${String(i).padStart(12, "0")}`;
        const config = {
          configurable: {
            thread_id: "bytes",
            checkpoint_ns: "",
            ...(parent ? { checkpoint_id: parent } : {}),
          },
        };
        await saver.put(
          config,
          {
            v: 4,
            id,
            ts: "2024-01-01T00:00:00.000Z",
            channel_values: { messages, n: i },
            channel_versions: { messages: i + 1, n: i + 1 },
            versions_seen: {},
          },
          { source: "loop", step: i, parents: {} },
          { messages: i + 1, n: i + 1 },
        );
        parent = id;
      }
    }
    expect(await postgres.storedBytes("bytes")).toBe(memory.storedBytes("bytes"));
    expect(await postgres.storedBytes()).toBe(memory.storedBytes());
  });

  it("reads the latest checkpoint, chain steps, list nodes and items by primary key, even without statistics", async () => {
    const schema = freshSchema();
    const saver = new PostgresSaver(pool, undefined, { schema });
    let messages: HumanMessage[] = [];
    let parent: string | undefined;
    const versions: Record<string, string> = {};
    for (let i = 0; i < 150; i++) {
      messages = [...messages, new HumanMessage({ content: `m ${i}`, id: `m-${i}` })];
      const next = { messages: saver.getNextVersion(versions.messages), n: saver.getNextVersion(versions.n) };
      Object.assign(versions, next);
      const id = `1ef00000-0000-6000-8000-${String(i).padStart(12, "0")}`;
      const config = {
        configurable: { thread_id: "plans", checkpoint_ns: "", ...(parent ? { checkpoint_id: parent } : {}) },
      };
      await saver.put(
        config,
        {
          v: 4,
          id,
          ts: "2024-01-01T00:00:00.000Z",
          channel_values: { messages, n: i },
          channel_versions: { ...versions },
          versions_seen: {},
        },
        { source: "loop", step: i, parents: {} },
        next,
      );
      parent = id;
    }
    // A new table has no statistics: the planner then guesses one row per thread, which makes a
    // plain join scan the whole thread at every step. The statements must not depend on that.
    const sql = checkpointSql(quoteSchema(schema));
    const client = await pool.connect();
    try {
      await client.query("SET plan_cache_mode = force_generic_plan");
      const plan = async (name: string, text: string, values: unknown[]) =>
        (await client.query({ name, text: `EXPLAIN ANALYZE ${text}`, values })).rows
          .map((r: { "QUERY PLAN": string }) => r["QUERY PLAN"])
          .join("\n");
      const chain = await plan("plan_chain", sql.chainLatest, ["plans", "", 1000, null]);
      expect(chain).toMatch(/Index Only Scan Backward using agentgraph_checkpoints_pkey/);
      expect(chain).toMatch(/checkpoint_id = chain_1\.parent_checkpoint_id/);
      const blobs = await plan("plan_blobs", sql.blobs, [
        "plans",
        "",
        ["messages", "n"],
        [versions.messages, versions.n],
        1000,
      ]);
      expect(blobs).toMatch(/version = node_1\.prev/);
      const items = await plan("plan_items", sql.items, ["plans", ["a", "b"]]);
      expect(items).toMatch(/Index Cond: .*hash = h\.hash/);
      expect(`${chain}\n${blobs}\n${items}`).not.toMatch(/Rows Removed by Join Filter|Seq Scan|Aggregate/);
    } finally {
      client.release();
    }
  });
});
