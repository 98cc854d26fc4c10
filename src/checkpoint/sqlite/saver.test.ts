import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  Annotation,
  type BaseCheckpointSaver,
  CheckpointCorruptError,
  Command,
  END,
  emptyCheckpoint,
  interrupt,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from "../../index.js";
import { AIMessage, type BaseMessage, HumanMessage } from "../../messages/index.js";
import { saverConformanceCases } from "../../testing/index.js";
import { checkForkedLists } from "../forked-lists.test-helpers.js";
import { checkOwnReads } from "../own-reads.test-helpers.js";
import { checkStorageParity } from "../storage-parity.test-helpers.js";
import { SqliteCheckpointStorage, SqliteSaver, SqliteSaverError } from "./index.js";
import { CHECKPOINT_MIGRATIONS } from "./saver-migrations.js";
import {
  CREATE_MIGRATIONS_TABLE,
  fromStoredId,
  fromStoredPath,
  INSERT_MIGRATION_VERSION,
  SQL,
  storedWrite,
  storedWriteText,
  toStoredId,
  toStoredPath,
} from "./saver-sql.js";

const dir = mkdtempSync(join(tmpdir(), "agentgraph-sqlite-saver-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = () => join(dir, `saver-${files++}.db`);

const dbOf = (saver: BaseCheckpointSaver) => (saver as SqliteSaver).db;

/** The graph that wrote fixtures/text-ids-v5.json: reply, then ask (interrupts), then end. */
function legacyGraph(saver: BaseCheckpointSaver) {
  const State = Annotation.Root({
    ...MessagesAnnotation.spec,
    count: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
  });
  return new StateGraph(State)
    .addNode("reply", (s) => ({
      messages: [new AIMessage({ content: `reply ${s.messages.length}`, id: `ai-${s.messages.length}` })],
      count: 1,
    }))
    .addNode("ask", () => ({
      messages: [new HumanMessage({ content: String(interrupt("ok?")), id: "answer" })],
    }))
    .addEdge(START, "reply")
    .addEdge("reply", "ask")
    .addEdge("ask", END)
    .compile({ checkpointer: saver });
}

/** Ways to damage a thread's rows; each must surface as CheckpointCorruptError naming thread and checkpoint. */
const CORRUPTIONS: Record<string, (saver: BaseCheckpointSaver, threadId: string) => void> = {
  "truncated checkpoint record": (saver, threadId) => {
    dbOf(saver)
      .prepare(
        `UPDATE agentgraph_checkpoints SET record = substr(record, 1, length(record) / 2)
         WHERE thread_id = ? AND checkpoint_id = (SELECT max(checkpoint_id) FROM agentgraph_checkpoints WHERE thread_id = ?)`,
      )
      .run(threadId, threadId);
  },
  "missing row in the checkpoint chain": (saver, threadId) => {
    const row = dbOf(saver)
      .prepare(
        "SELECT checkpoint_id FROM agentgraph_checkpoints WHERE thread_id = ? AND depth > 0 ORDER BY checkpoint_id LIMIT 1 OFFSET 3",
      )
      .get(threadId) as { checkpoint_id: string };
    dbOf(saver)
      .prepare("DELETE FROM agentgraph_checkpoints WHERE thread_id = ? AND checkpoint_id = ?")
      .run(threadId, row.checkpoint_id);
  },
  "missing list item": (saver, threadId) => {
    dbOf(saver)
      .prepare(
        "DELETE FROM agentgraph_checkpoint_items WHERE rowid = (SELECT min(rowid) FROM agentgraph_checkpoint_items WHERE thread_id = ?)",
      )
      .run(threadId);
  },
  "truncated list item": (saver, threadId) => {
    dbOf(saver)
      .prepare(
        `UPDATE agentgraph_checkpoint_items SET data = substr(data, 1, length(data) / 2)
         WHERE rowid = (SELECT max(rowid) FROM agentgraph_checkpoint_items WHERE thread_id = ?)`,
      )
      .run(threadId);
  },
  // valid JSON among the others' texts, but two values where one was stored
  "list item holding two values": (saver, threadId) => {
    dbOf(saver)
      .prepare(
        `UPDATE agentgraph_checkpoint_items SET data = data || ',1'
         WHERE rowid = (SELECT min(rowid) FROM agentgraph_checkpoint_items WHERE thread_id = ?)`,
      )
      .run(threadId);
  },
  "truncated list splice": (saver, threadId) => {
    dbOf(saver)
      .prepare(
        "UPDATE agentgraph_checkpoint_blobs SET data = substr(data, 1, 3) WHERE thread_id = ? AND kind = 'splice'",
      )
      .run(threadId);
  },
  "missing splice node": (saver, threadId) => {
    dbOf(saver)
      .prepare(
        `DELETE FROM agentgraph_checkpoint_blobs WHERE thread_id = @thread AND kind = 'splice'
          AND version = (SELECT min(version) FROM agentgraph_checkpoint_blobs WHERE thread_id = @thread AND kind = 'splice')`,
      )
      .run({ thread: threadId });
  },
  "cyclic splice chain": (saver, threadId) => {
    // the oldest splice of a list names the newest one as its previous version
    const db = dbOf(saver);
    const oldest = db
      .prepare(
        "SELECT channel, version FROM agentgraph_checkpoint_blobs WHERE thread_id = ? AND kind = 'splice' ORDER BY version LIMIT 1",
      )
      .get(threadId) as { channel: string; version: string };
    const newest = db
      .prepare(
        "SELECT max(version) AS version FROM agentgraph_checkpoint_blobs WHERE thread_id = ? AND channel = ? AND kind = 'splice'",
      )
      .get(threadId, oldest.channel) as { version: string };
    db.prepare(
      "UPDATE agentgraph_checkpoint_blobs SET prev = ? WHERE thread_id = ? AND channel = ? AND version = ?",
    ).run(newest.version, threadId, oldest.channel, oldest.version);
  },
  "truncated channel value": (saver, threadId) => {
    dbOf(saver)
      .prepare(
        "UPDATE agentgraph_checkpoint_blobs SET data = substr(data, 1, 2) WHERE thread_id = ? AND kind = 'value'",
      )
      .run(threadId);
  },
};

for (const [label, create] of [
  ["file", () => SqliteSaver.fromConnString(freshFile())],
  [":memory:", () => SqliteSaver.fromConnString(":memory:")],
] as const) {
  describe(`saver conformance: SqliteSaver (${label})`, () => {
    for (const c of saverConformanceCases()) it(c.name, () => c.run(create));
    const corruptCase = saverConformanceCases().find((c) => c.requires.includes("corrupt"));
    for (const [kind, corrupt] of Object.entries(CORRUPTIONS)) {
      it(`damaged rows (${kind}) → CheckpointCorruptError`, async () => {
        const [c] = saverConformanceCases({ corrupt }).filter((x) => x.name === corruptCase?.name);
        await c?.run(create);
      });
    }
  });
}

describe("SqliteSaver specifics", () => {
  it("sets WAL and synchronous=NORMAL on files, runs migrations once, and setup() is idempotent", async () => {
    const file = freshFile();
    const saver = SqliteSaver.fromConnString(file);
    await saver.setup();
    await saver.setup();
    expect(saver.db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(saver.db.pragma("synchronous", { simple: true })).toBe(1);
    const versions = saver.db.prepare("SELECT v FROM agentgraph_checkpoint_migrations ORDER BY v").all();
    expect(versions).toEqual(CHECKPOINT_MIGRATIONS.map((_, v) => ({ v })));
    await saver.close();
    const again = new SqliteSaver(file);
    await again.setup();
    expect(again.db.prepare("SELECT count(*) AS n FROM agentgraph_checkpoint_migrations").get()).toEqual({
      n: CHECKPOINT_MIGRATIONS.length,
    });
    await again.close();
  });

  it("converts a database of the text-id schema (migrations 0-5) and resumes its paused thread", async () => {
    // rows written by the saver before ids were stored as blobs: a thread paused at an interrupt
    const fixture = JSON.parse(
      readFileSync(new URL("./fixtures/text-ids-v5.json", import.meta.url), "utf8"),
    ) as { rows: Record<string, Record<string, unknown>[]>; expected: Record<string, unknown> };
    const file = freshFile();
    const old = new Database(file);
    old.exec(CREATE_MIGRATIONS_TABLE);
    for (let v = 0; v < 6; v++) {
      old.exec(CHECKPOINT_MIGRATIONS[v] as string);
      old.prepare(INSERT_MIGRATION_VERSION).run(v);
    }
    for (const [table, rows] of Object.entries(fixture.rows)) {
      for (const row of rows) {
        const columns = Object.keys(row);
        old
          .prepare(
            `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`,
          )
          .run(row);
      }
    }
    old.close();

    const saver = SqliteSaver.fromConnString(file);
    const graph = legacyGraph(saver);
    const config = { configurable: { thread_id: "legacy" } };
    const state = await graph.getState(config);
    expect(state.next).toEqual(fixture.expected.next);
    expect(state.tasks.map((t) => t.interrupts.map((i) => i.value))).toEqual(fixture.expected.interrupts);
    const contents = (values: unknown) =>
      (values as { messages: BaseMessage[] }).messages.map((m) => m.content);
    expect(contents(state.values)).toEqual(fixture.expected.messages);
    const history = [];
    for await (const s of graph.getStateHistory(config))
      history.push({
        id: s.config.configurable?.checkpoint_id,
        next: s.next,
        values: contents(s.values),
      });
    expect(history).toEqual(fixture.expected.history);
    const types = saver.db
      .prepare(
        "SELECT DISTINCT typeof(checkpoint_id) AS t FROM agentgraph_checkpoints UNION ALL SELECT DISTINCT typeof(task_id) FROM agentgraph_checkpoint_writes",
      )
      .all();
    expect(types).toEqual([{ t: "blob" }, { t: "blob" }]);

    const done = await graph.invoke(new Command({ resume: "yes" }), config);
    expect(done.messages.map((m) => m.content)).toEqual(["hi", "reply 1", "yes"]);
    expect((await graph.getState(config)).next).toEqual([]);
    await saver.close();
  });

  it("keeps ids that are not lowercase UUIDs as text, in order", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    const ids = ["A-upper-not-uuid", "0001", "1F1ED736-3F50-6520-B603-3FF44C8E3DE6"];
    for (const id of ids) {
      const config = { configurable: { thread_id: "named", checkpoint_id: id } };
      await saver.put(config, { ...emptyCheckpoint(), id }, { source: "update", step: -1, parents: {} }, {});
    }
    const listed = [];
    for await (const t of saver.list({ configurable: { thread_id: "named" } })) listed.push(t.checkpoint.id);
    expect(listed).toEqual([...ids].sort().reverse());
    const upper = ids[2] as string;
    const tuple = await saver.getTuple({ configurable: { thread_id: "named", checkpoint_id: upper } });
    expect(tuple?.checkpoint.id).toBe(upper);
    expect(
      saver.db.prepare("SELECT DISTINCT typeof(checkpoint_id) AS t FROM agentgraph_checkpoints").all(),
    ).toEqual([{ t: "text" }]);
    await saver.close();
  });

  it("sets up lazily on first use", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    expect(await saver.getTuple({ configurable: { thread_id: "t" } })).toBeUndefined();
    expect(saver.db.prepare("SELECT count(*) AS n FROM agentgraph_checkpoints").get()).toEqual({ n: 0 });
    await saver.close();
  });

  it("close() closes a database it opened, not one it was given", async () => {
    const owned = SqliteSaver.fromConnString(":memory:");
    await owned.close();
    expect(owned.db.open).toBe(false);
    const db = new Database(":memory:");
    const given = new SqliteSaver(db);
    await given.setup();
    await given.close();
    expect(db.open).toBe(true);
    db.close();
  });

  it("a closed database gives a SqliteSaverError that says what to do", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    await saver.setup();
    saver.db.close();
    const error = await saver.getTuple({ configurable: { thread_id: "t-closed" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SqliteSaverError);
    expect((error as Error).message).toMatch(/thread "t-closed".*create a new SqliteSaver/s);
  });

  it("a database set up by a newer version is refused with a SqliteSaverError saying so", async () => {
    const file = freshFile();
    const first = new SqliteSaver(file);
    await first.setup();
    first.db.prepare("INSERT INTO agentgraph_checkpoint_migrations (v) VALUES (99)").run();
    await first.close();
    const saver = new SqliteSaver(file);
    const error = await saver.getTuple({ configurable: { thread_id: "t" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SqliteSaverError);
    expect((error as Error).message).toBe(
      `SqliteSaver: the tables in this database were set up by a newer version of agentgraph (migration 99; this version knows 0 to ${CHECKPOINT_MIGRATIONS.length - 1}). Upgrade agentgraph in this process, or use another database file.`,
    );
    await saver.close();
  });

  it("a file that is not a database gives a CheckpointCorruptError naming the thread", async () => {
    const file = freshFile();
    writeFileSync(file, "this is not a SQLite database, just text ".repeat(200));
    const saver = new SqliteSaver(file);
    const error = await saver.getTuple({ configurable: { thread_id: "t-garbage" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointCorruptError);
    expect((error as Error).message).toContain('"t-garbage"');
    await saver.close();
  });

  it("writes each batch in one transaction: a failing row rolls back the whole put", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    const storage = new SqliteCheckpointStorage(saver.db);
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
    expect(() =>
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
    ).toThrow(SqliteSaverError);
    expect(storage.checkpointChain("atomic", "", undefined)).toEqual([]);
    await saver.close();
  });

  it("a full disk under async durability keeps the steps saved before it, and the thread resumes", async () => {
    const db = new Database(join(dir, "full.db"));
    const saver = new SqliteSaver(db);
    await saver.setup();
    const State = Annotation.Root({
      log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    });
    let runs = 0;
    // eight steps of about five pages each, and no node yields: async durability groups the saves
    const graph = new StateGraph(State)
      .addNode("step", (state) => {
        runs++;
        return { log: [`${state.log.length} ${"x".repeat(20_000)}`] };
      })
      .addEdge(START, "step")
      .addConditionalEdges("step", (state) => (state.log.length < 8 ? "step" : END))
      .compile({ checkpointer: saver });
    const config = { configurable: { thread_id: "full" } };
    const pages = db.pragma("page_count", { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + 30}`);
    const error = await graph
      .invoke({ log: [] }, { ...config, durability: "async" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SqliteSaverError);
    expect((error as Error).message).toMatch(
      /^SqliteSaver could not save a checkpoint of thread "full" \(checkpoint .+\): database or disk is full \(SQLITE_FULL\)\. The disk is full: free space/,
    );
    // as with sync durability: the steps before the one that did not fit are stored (six here)
    const stored = await graph.getState(config);
    const kept = stored.values.log.length;
    expect(kept).toBeGreaterThan(2);
    expect(stored.next).toStrictEqual(["step"]);
    db.pragma("max_page_count = 1073741823");
    runs = 0;
    const resumed = await graph.invoke(null, config);
    expect(runs).toBe(8 - kept);
    expect(resumed.log.map((line) => Number(line.split(" ")[0]))).toStrictEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    db.close();
  });

  it("mirrors MemoryCheckpointStorage on random batches", async () => {
    const db = new Database(":memory:");
    await checkStorageParity(new SqliteCheckpointStorage(db), "parity", 80, 7);
    db.close();
  });

  it("stores a larger object a task writes once, shared with the checkpoint that holds it", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    const send = { node: "tools", args: [{ name: "lookup", args: { query: "q".repeat(80) }, id: "c1" }] };
    const first = "1ef00000-0000-6000-8000-000000000001";
    const second = "1ef00000-0000-6000-8000-000000000002";
    const empty = { v: 4, ts: "2024-01-01T00:00:00.000Z", versions_seen: {} };
    await saver.put(
      { configurable: { thread_id: "w", checkpoint_ns: "" } },
      { ...empty, id: first, channel_values: {}, channel_versions: {} },
      { source: "loop", step: 0, parents: {} },
      {},
    );
    const at = { configurable: { thread_id: "w", checkpoint_ns: "", checkpoint_id: first } };
    await saver.putWrites(
      at,
      [
        ["tasks", send],
        ["flag", { ok: true }],
      ],
      "task-1",
    );
    await saver.put(
      at,
      { ...empty, id: second, channel_values: { tasks: [send] }, channel_versions: { tasks: 1 } },
      { source: "loop", step: 1, parents: {} },
      { tasks: 1 },
    );
    const items = saver.db
      .prepare("SELECT count(*) AS n FROM agentgraph_checkpoint_items WHERE thread_id = 'w'")
      .get();
    expect(items).toEqual({ n: 1 });
    const reader = new SqliteSaver(saver.db);
    expect((await reader.getTuple(at))?.pendingWrites).toEqual([
      ["task-1", "tasks", send],
      ["task-1", "flag", { ok: true }],
    ]);
    const latest = await reader.getTuple({ configurable: { thread_id: "w" } });
    expect(latest?.checkpoint.channel_values.tasks).toEqual([send]);
    await saver.close();
  });

  it("stores the loop's plain metadata compactly and everything else whole", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    const cases = [
      { source: "loop", step: 3, parents: {} },
      { source: "input", step: -1, parents: {} },
      { source: "loop", step: 4, parents: { "": "1ef00000-0000-6000-8000-000000000001" } },
      { source: "update", step: 5, parents: {}, writes: { a: 1 } },
      { source: "loop", step: 6, parents: {}, userId: "u1" },
    ];
    for (const [i, metadata] of cases.entries()) {
      const id = `1ef00000-0000-6000-8000-${String(i + 10).padStart(12, "0")}`;
      await saver.put(
        { configurable: { thread_id: "meta", checkpoint_ns: "" } },
        {
          v: 4,
          id,
          ts: "2024-01-01T00:00:00.000Z",
          channel_values: {},
          channel_versions: {},
          versions_seen: {},
        },
        metadata as never,
        {},
      );
      const tuple = await new SqliteSaver(saver.db).getTuple({
        configurable: { thread_id: "meta", checkpoint_id: id },
      });
      expect(tuple?.metadata).toEqual(metadata);
      expect(Object.keys(tuple?.metadata ?? {})).toEqual(Object.keys(metadata));
    }
    const stored = saver.db
      .prepare("SELECT metadata FROM agentgraph_checkpoints WHERE thread_id = 'meta' ORDER BY checkpoint_id")
      .all() as { metadata: string }[];
    expect(stored.map((row) => row.metadata.startsWith("{"))).toEqual([false, false, true, true, true]);
    expect(stored[0]?.metadata).toBe("loop:3");
    await saver.close();
  });

  it("reads long lists on forked branches whose versions interleave", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    // a second saver on the same database has no caches: every list is read back from the rows
    await checkForkedLists(saver, () => new SqliteSaver(saver.db));
    await saver.close();
  });

  it("prepares at setup() every statement a read runs: a fresh saver's first getState compiles none", async () => {
    const file = freshFile();
    const writer = SqliteSaver.fromConnString(file);
    const graph = legacyGraph(writer);
    // long enough for the list to be a chain of splices and the items to be read in one walk
    for (let i = 0; i < 150; i++) {
      await graph.invoke(
        { messages: [new HumanMessage({ content: `q${i}`, id: `h-${i}` })] },
        {
          configurable: { thread_id: "long" },
        },
      );
      await graph.invoke(new Command({ resume: `a${i}` }), { configurable: { thread_id: "long" } });
    }
    const expected = (await graph.getState({ configurable: { thread_id: "long" } })).values;
    await writer.close();

    const reader = SqliteSaver.fromConnString(file);
    await reader.setup();
    const prepared: string[] = [];
    const prepare = reader.db.prepare.bind(reader.db);
    reader.db.prepare = ((sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    }) as typeof reader.db.prepare;
    const snapshot = await legacyGraph(reader).getState({ configurable: { thread_id: "long" } });
    expect(snapshot.values).toEqual(expected);
    // 150 questions and replies, and the one answer each resume replaces (its id is fixed)
    expect((snapshot.values as { messages: BaseMessage[] }).messages.length).toBe(301);
    expect(prepared).toEqual([]);
    await reader.close();
  });

  it("reads back its own writes from what it knows, and still sees other savers' changes and lost rows", async () => {
    const file = freshFile();
    const saver = SqliteSaver.fromConnString(file);
    const others: SqliteSaver[] = [];
    await checkOwnReads(
      saver,
      () => {
        const other = SqliteSaver.fromConnString(file);
        others.push(other);
        return other;
      },
      async (threadId) => {
        saver.db
          .prepare(
            "DELETE FROM agentgraph_checkpoint_items WHERE rowid = (SELECT max(rowid) FROM agentgraph_checkpoint_items WHERE thread_id = ?)",
          )
          .run(threadId);
      },
    );
    for (const other of others) await other.close();
    await saver.close();
  });

  it("reads a long list back whether its thread holds little else or many other items", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    /**
     * 300 messages; in round r > 0, the first `changed` of them rewritten. Some hold a tagged
     * value inside (a Date), some a text ending in the tag key, as any stored value may: a read
     * decodes a long list's items together and must give what decoding each would.
     */
    let changed = 300;
    const messages = (round: number) =>
      Array.from({ length: 300 }, (_, i) => {
        const r = i < changed ? round : 0;
        return new HumanMessage({
          content: i % 11 === 0 ? `m${i} r${r} ~t` : `m${i} r${r}`,
          id: `m${i}`,
          ...(i % 7 === 0 ? { additional_kwargs: { at: new Date(Date.UTC(2026, 0, 1 + i)) } } : {}),
        });
      });
    const fields = (list: BaseMessage[]) => list.map((m) => [m.content, m.additional_kwargs]);
    // thread "few": 300 items, 50 of them rewritten once: the thread holds 350 items, the list
    // needs 300 (read in one walk of the thread's items, skipping the other 50); thread "many":
    // the whole list rewritten three times: 1,200 items, 300 needed (read with lookups)
    const save = async (thread: string, rounds: number) => {
      let parent: string | undefined;
      let version: string | undefined;
      for (let round = 0; round < rounds; round++) {
        version = saver.getNextVersion(version);
        const id = `1ef00000-0000-6000-8000-${String(round).padStart(12, "0")}`;
        await saver.put(
          { configurable: { thread_id: thread, checkpoint_ns: "", checkpoint_id: parent } },
          {
            ...emptyCheckpoint(id),
            channel_values: { messages: messages(round) },
            channel_versions: { messages: version },
          },
          { source: "loop", step: round, parents: {} },
          { messages: version },
        );
        parent = id;
      }
    };
    changed = 50;
    await save("few", 2);
    const few = fields(messages(1));
    changed = 300;
    await save("many", 4);
    const many = fields(messages(3));
    const fresh = new SqliteSaver(saver.db);
    for (const [thread, want] of [
      ["few", few],
      ["many", many],
    ] as const) {
      const tuple = await fresh.getTuple({ configurable: { thread_id: thread } });
      const read = tuple?.checkpoint.channel_values.messages as BaseMessage[];
      expect(fields(read)).toEqual(want);
      expect(read[7]?.additional_kwargs.at).toBeInstanceOf(Date);
    }
    await saver.close();
  });

  it("counts stored bytes as MemorySaver does", async () => {
    const memory = new MemorySaver();
    const sqlite = SqliteSaver.fromConnString(":memory:");
    for (const saver of [memory, sqlite]) {
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
    expect(sqlite.storedBytes("bytes")).toBe(memory.storedBytes("bytes"));
    expect(sqlite.storedBytes()).toBe(memory.storedBytes());
    await sqlite.close();
  });

  it("reads the latest checkpoint, chain steps, list nodes and items by primary key", () => {
    const db = new Database(":memory:");
    new SqliteCheckpointStorage(db).setup();
    const plan = (sql: string) =>
      (
        db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({
          thread: "t",
          ns: "",
          id: "c",
          limit: 10,
          stop: null,
          wanted: "[]",
          hashes: "[]",
          checkpointId: "c",
          cutoff: 0,
        }) as { detail: string }[]
      ).map((r) => r.detail);
    const chain = plan(SQL.chainLatest);
    expect(chain).toContain(
      "SEARCH c USING PRIMARY KEY (thread_id=? AND checkpoint_ns=? AND checkpoint_id=?)",
    );
    expect(chain).toContain(
      "SEARCH agentgraph_checkpoints USING PRIMARY KEY (thread_id=? AND checkpoint_ns=?)",
    );
    const blobs = plan(SQL.blobs).filter((line) => line.startsWith("SEARCH b "));
    expect(blobs).toHaveLength(2);
    for (const line of blobs)
      expect(line).toMatch(/\(thread_id=\? AND checkpoint_ns=\? AND channel=\? AND version=\?\)/);
    for (const sql of [SQL.items, SQL.itemsJson])
      expect(plan(sql)).toContain(
        "SEARCH agentgraph_checkpoint_items USING INDEX sqlite_autoindex_agentgraph_checkpoint_items_1 (thread_id=? AND hash=?)",
      );
    for (const sql of [SQL.threadItems, SQL.threadItemsJson])
      expect(plan(sql).join("\n")).toMatch(
        /SEARCH agentgraph_checkpoint_items USING INDEX .*\(thread_id=\?\)/,
      );
    expect(plan(SQL.staleThreads).join("\n")).toMatch(
      /agentgraph_checkpoint_threads_updated_at_idx \(updated_at<\?\)/,
    );
    const all = [
      ...chain,
      ...plan(SQL.blobs),
      ...plan(SQL.items),
      ...plan(SQL.itemsJson),
      ...plan(SQL.threadItemsJson),
      ...plan(SQL.writes),
      ...plan(SQL.staleThreads),
    ].join("\n");
    expect(all).not.toMatch(/SCAN agentgraph/);
    db.close();
  });
});

describe("SqliteSaver's stored forms of ids and task paths", () => {
  const pathPart = fc.oneof(
    fc.constantFrom(
      "__pregel_pull",
      "__pregel_push",
      "~",
      "0000000000",
      "0000000003",
      "-000000002",
      "1234567890",
    ),
    fc.string({ maxLength: 12 }),
  );
  const path = fc.array(pathPart, { minLength: 1, maxLength: 5 }).map((parts) => `~${parts.join(", ")}`);

  it("reads back every task path it stores, and stores the engine's paths shorter", () => {
    fc.assert(
      fc.property(fc.oneof(path, fc.string()), (p) => {
        expect(fromStoredPath(toStoredPath(p))).toBe(p);
      }),
      { numRuns: 2000 },
    );
    const push = "~__pregel_push, 0000000000, 0000000012";
    expect(toStoredPath(push)).toBe("~\u0002, \u00030, \u000312");
    expect(fromStoredPath("~__pregel_pull, model_request")).toBe("~__pregel_pull, model_request");
  });

  it("stores a write's text as JSON.stringify would, and refuses data that is not JSON", () => {
    const refs = fc.array(fc.string({ maxLength: 20 }), { maxLength: 6 });
    const list = fc.oneof(
      refs.map((r) => JSON.stringify(r)),
      fc.string({ maxLength: 20 }).map((item) => JSON.stringify({ item })),
    );
    const row = fc.record({
      idx: fc.integer({ min: -4, max: 40 }),
      channel: fc.string({ maxLength: 20 }),
      kind: fc.constantFrom("value" as const, "list" as const),
      value: fc.string({ maxLength: 40 }),
      list,
    });
    fc.assert(
      fc.property(row, ({ idx, channel, kind, value, list }) => {
        const write = { idx, channel, kind, data: kind === "list" ? list : value };
        expect(storedWriteText(write)).toBe(JSON.stringify(storedWrite(write)));
        expect(JSON.parse(storedWriteText(write))).toEqual(storedWrite(write));
      }),
      { numRuns: 1000 },
    );
    // not written by the encoder: parsed and written again, or refused
    expect(storedWriteText({ idx: 0, channel: "m", kind: "list", data: ' ["a"]' })).toBe('[0,"m","l",["a"]]');
    expect(() => storedWriteText({ idx: 0, channel: "m", kind: "list", data: "[oops" })).toThrow(SyntaxError);
  });

  it("stores exactly the lowercase UUIDs as 16 bytes, and reads them back", () => {
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const nearUuid = fc
      .array(fc.constantFrom(..."0123456789abcdefA-g"), { minLength: 36, maxLength: 36 })
      .map((chars) => {
        // mostly well-placed dashes, so that near misses are common
        for (const at of [8, 13, 18, 23]) if (chars[at] !== "g") chars[at] = "-";
        return chars.join("");
      });
    fc.assert(
      fc.property(fc.oneof(fc.uuid(), nearUuid, fc.string()), (id) => {
        const stored = toStoredId(id);
        if (UUID.test(id)) {
          expect(Buffer.isBuffer(stored) && stored.byteLength === 16).toBe(true);
          expect(fromStoredId(stored as Buffer)).toBe(id);
        } else expect(stored).toBe(id);
      }),
      { numRuns: 2000 },
    );
  });

  it("converts ids and paths the same way when asked again", () => {
    const id = "1ef00000-0000-6000-8000-0000000000aa";
    const first = toStoredId(id);
    expect(Buffer.isBuffer(first)).toBe(true);
    expect(fromStoredId(first as Buffer)).toBe(id);
    for (let i = 0; i < 600; i++) toStoredId(`1ef00000-0000-6000-8000-${String(i).padStart(12, "0")}`);
    expect(fromStoredId(toStoredId(id) as Buffer)).toBe(id);
    expect(toStoredId("not-a-uuid")).toBe("not-a-uuid");
    expect(toStoredId("1EF00000-0000-6000-8000-0000000000AA")).toBe("1EF00000-0000-6000-8000-0000000000AA");
    const push = "~__pregel_push, 0000000000, 0000000012";
    expect(toStoredPath(push)).toBe(toStoredPath(push));
    expect(fromStoredPath(toStoredPath(push))).toBe(push);
  });

  it("reports a blob id that is not 16 bytes as damaged, naming the thread", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    await saver.put(
      { configurable: { thread_id: "short-id" } },
      emptyCheckpoint("1ef00000-0000-6000-8000-000000000001"),
      { source: "input", step: -1, parents: {} },
      {},
    );
    saver.db
      .prepare("UPDATE agentgraph_checkpoints SET checkpoint_id = x'0102' WHERE thread_id = 'short-id'")
      .run();
    const failure = saver.getTuple({ configurable: { thread_id: "short-id" } });
    await expect(failure).rejects.toBeInstanceOf(CheckpointCorruptError);
    await expect(failure).rejects.toThrow(/short-id.*2-byte blob/);
    await saver.close();
  });

  it("reads back every id it stores: lowercase UUIDs as 16 bytes, anything else as text", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uuid().map((u) => u.toLowerCase()),
          fc.uuid().map((u) => u.toUpperCase()),
          fc.string(),
          // 36 characters of hex digits and dashes, dashes anywhere
          fc.string({ unit: fc.constantFrom(..."0123456789abcdefG-"), minLength: 36, maxLength: 36 }),
        ),
        (id) => {
          const stored = toStoredId(id);
          expect(fromStoredId(stored)).toBe(id);
          const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);
          expect(typeof stored !== "string").toBe(uuid);
          if (typeof stored !== "string") expect(stored).toHaveLength(16);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
