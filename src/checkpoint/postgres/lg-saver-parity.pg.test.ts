// Behaviours of LangGraph.js's PostgresSaver (@langchain/langgraph-checkpoint-postgres 1.0.5) that
// a program ported to agentgraph/checkpoint/postgres can observe through the saver's methods.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  type Checkpoint,
  CheckpointConfigError,
  type CheckpointTuple,
  emptyCheckpoint,
  TASKS,
} from "../../index.js";
import { PostgresSaver } from "./index.js";

const url = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const base = `agentgraph_lg_saver_parity_${process.pid}_${Date.now().toString(36)}`;
const pool = new pg.Pool({ connectionString: url, max: 5 });
const schemas: string[] = [];

afterAll(async () => {
  for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

/** A saver on a schema of its own (dropped after the file's tests). */
async function freshSaver(): Promise<PostgresSaver> {
  const schema = `${base}_${schemas.length}`;
  schemas.push(schema);
  const saver = new PostgresSaver(pool, undefined, { schema });
  await saver.setup();
  return saver;
}

const meta = (step: number) => ({ source: "loop" as const, step, parents: {} });

function checkpointAt(id: string, values: Record<string, unknown>, v = 4): Checkpoint {
  const versions: Record<string, number> = {};
  for (const key of Object.keys(values)) versions[key] = 1;
  return { ...emptyCheckpoint(), v, id, channel_values: values, channel_versions: versions };
}

async function all(iterable: AsyncIterable<CheckpointTuple>): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = [];
  for await (const tuple of iterable) out.push(tuple);
  return out;
}

describe("PostgresSaver as LangGraph.js's PostgresSaver", () => {
  it("getTuple for a named checkpoint answers with its thread, namespace and checkpoint ids only", async () => {
    const saver = await freshSaver();
    await saver.put({ configurable: { thread_id: "t" } }, checkpointAt("c0", { n: 0 }), meta(0));
    const named = await saver.getTuple({
      configurable: { thread_id: "t", checkpoint_id: "c0", user: "ada" },
    });
    expect(named?.config).toEqual({
      configurable: { thread_id: "t", checkpoint_ns: "", checkpoint_id: "c0" },
    });
  });

  it("answers tuples with a parentConfig key, undefined at a root, before pendingWrites", async () => {
    const saver = await freshSaver();
    const first = await saver.put({ configurable: { thread_id: "t" } }, checkpointAt("c0", {}), meta(0));
    await saver.put(first, checkpointAt("c1", {}), meta(1));
    const keys = ["config", "checkpoint", "metadata", "parentConfig", "pendingWrites"];
    const root = await saver.getTuple(first);
    expect(Object.keys(root ?? {})).toEqual(keys);
    expect(root?.parentConfig).toBeUndefined();
    const latest = await saver.getTuple({ configurable: { thread_id: "t" } });
    expect(Object.keys(latest ?? {})).toEqual(keys);
    expect(latest?.parentConfig).toEqual({
      configurable: { thread_id: "t", checkpoint_ns: "", checkpoint_id: "c0" },
    });
    const listed = await all(saver.list({ configurable: { thread_id: "t" } }));
    expect(listed.map((t) => Object.keys(t))).toEqual([keys, keys]);
  });

  it("list filters metadata by containment (metadata @> filter)", async () => {
    const saver = await freshSaver();
    const put = (id: string, metadata: Record<string, unknown>) =>
      saver.put({ configurable: { thread_id: "f" } }, checkpointAt(id, {}), metadata as never);
    await put("c0", { source: "input", step: -1, parents: {}, tags: ["a", "b"], deep: { x: [[1, 2], 3] } });
    await put("c1", { source: "loop", step: 0, parents: { "": "c0" }, tags: ["b"], deep: { x: 1, y: null } });
    const ids = async (filter: Record<string, unknown>) =>
      (await all(saver.list({ configurable: { thread_id: "f" } }, { filter }))).map((t) => t.checkpoint.id);
    expect(await ids({ parents: {} })).toEqual(["c1", "c0"]);
    expect(await ids({ parents: { "": "c0" } })).toEqual(["c1"]);
    expect(await ids({ tags: ["b"] })).toEqual(["c1", "c0"]);
    expect(await ids({ tags: ["b", "a", "a"] })).toEqual(["c0"]);
    expect(await ids({ tags: "b" })).toEqual([]);
    expect(await ids({ deep: { x: [[1]] } })).toEqual(["c0"]);
    expect(await ids({ deep: { y: null } })).toEqual(["c1"]);
    expect(await ids({ deep: {}, step: 0 })).toEqual(["c1"]);
    expect(await ids({ missing: undefined, source: "input" })).toEqual(["c0"]);
  });

  it("reads back only the values of channels the checkpoint has a version for", async () => {
    const saver = await freshSaver();
    const checkpoint: Checkpoint = {
      ...emptyCheckpoint(),
      id: "c0",
      channel_values: { a: 1, b: [], c: "x" },
      channel_versions: { a: 1 },
    };
    const config = await saver.put({ configurable: { thread_id: "t" } }, checkpoint, meta(-1), { a: 1 });
    expect((await saver.getTuple(config))?.checkpoint.channel_values).toStrictEqual({ a: 1 });
  });

  it("list narrows to a checkpoint_id in the config, a limit of 0 lists nothing, a fractional one is cut", async () => {
    const saver = await freshSaver();
    let config = await saver.put({ configurable: { thread_id: "t" } }, checkpointAt("c0", {}), meta(0));
    config = await saver.put(config, checkpointAt("c1", {}), meta(1));
    await saver.put(config, checkpointAt("c2", {}), meta(2));
    const ids = async (config: Parameters<PostgresSaver["list"]>[0], limit?: number) =>
      (await all(saver.list(config, limit === undefined ? {} : { limit }))).map((t) => t.checkpoint.id);
    expect(await ids({ configurable: { thread_id: "t", checkpoint_id: "c1" } })).toEqual(["c1"]);
    expect(await ids({ configurable: { thread_id: "t" } }, 0)).toEqual([]);
    // a fractional limit (or text) is cut as parseInt cuts it
    expect(await ids({ configurable: { thread_id: "t" } }, 0.5)).toEqual([]);
    expect(await ids({ configurable: { thread_id: "t" } }, 1.9)).toEqual(["c2"]);
    expect(await ids({ configurable: { thread_id: "t" } }, "2" as unknown as number)).toEqual(["c2", "c1"]);
  });

  it("list without a config, or with an empty thread id, lists every thread", async () => {
    const saver = await freshSaver();
    await saver.put({ configurable: { thread_id: "a" } }, checkpointAt("a1", {}), meta(0));
    await saver.put({ configurable: { thread_id: "b" } }, checkpointAt("b1", {}), meta(0));
    const threads = async (config: Parameters<PostgresSaver["list"]>[0]) =>
      (await all(saver.list(config))).map((t) => t.config.configurable?.thread_id);
    expect(await threads(undefined)).toEqual(["b", "a"]);
    expect(await threads({ configurable: { thread_id: "" } })).toEqual(["b", "a"]);
  });

  it("keeps the fields a checkpoint carries beyond the format's", async () => {
    const saver = await freshSaver();
    const withMore = {
      ...checkpointAt("x1", { k: "v" }),
      pending_sends: [],
      note: { by: "hand" },
    } as Checkpoint;
    const config = await saver.put({ configurable: { thread_id: "fields" } }, withMore, meta(0));
    expect((await saver.getTuple(config))?.checkpoint).toEqual(withMore);
  });

  it("gives the sends a pre-v4 checkpoint inherits the newest version it already has", async () => {
    const saver = await freshSaver();
    const first = await saver.put({ configurable: { thread_id: "old" } }, checkpointAt("o1", {}, 1), meta(0));
    await saver.putWrites(first, [[TASKS, "send"]], "task");
    const second: Checkpoint = {
      ...checkpointAt("o2", { a: 1, b: 2 }, 1),
      channel_versions: { a: 3, b: 11 },
    };
    const config = await saver.put(first, second, meta(1));
    const read = await saver.getTuple(config);
    expect(read?.checkpoint.channel_values[TASKS]).toEqual(["send"]);
    expect(read?.checkpoint.channel_versions[TASKS]).toBe(11);
  });

  it("leaves a pre-v4 checkpoint whose parent saved no sends without a tasks channel", async () => {
    const saver = await freshSaver();
    const first = await saver.put({ configurable: { thread_id: "old" } }, checkpointAt("o1", {}, 1), meta(0));
    const config = await saver.put(first, checkpointAt("o2", { a: 1 }, 1), meta(1));
    const read = await saver.getTuple(config);
    expect(read?.checkpoint.channel_values).toEqual({ a: 1 });
    expect(read?.checkpoint.channel_versions).toEqual({ a: 1 });
  });

  it("put without configurable fails with a CheckpointConfigError that starts with PostgresSaver's text", async () => {
    const saver = await freshSaver();
    const error = await saver.put({}, checkpointAt("e1", {}), meta(0)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CheckpointConfigError);
    expect((error as Error).message).toMatch(/^Missing "configurable" field in "config" param\. .*thread_id/);
  });
});
