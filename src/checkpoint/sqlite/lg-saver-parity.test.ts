// Behaviours of LangGraph.js's SqliteSaver (@langchain/langgraph-checkpoint-sqlite 1.0.4) that a
// program ported to agentgraph/checkpoint/sqlite can observe through the saver's methods.
import { describe, expect, it } from "vitest";
import {
  Annotation,
  type Checkpoint,
  CheckpointConfigError,
  type CheckpointTuple,
  Command,
  emptyCheckpoint,
  START,
  StateGraph,
  TASKS,
} from "../../index.js";
import { SqliteSaver } from "./index.js";

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

/** A thread "chain" of `n` checkpoints (ids c0 < c1 < …), each the parent of the next. */
async function chain(saver: SqliteSaver, n: number): Promise<string[]> {
  const ids: string[] = [];
  let config = { configurable: { thread_id: "chain", checkpoint_ns: "" } } as Record<string, unknown>;
  for (let i = 0; i < n; i += 1) {
    const id = `c${i}`;
    config = (await saver.put(config, checkpointAt(id, { n: i }), meta(i))) as Record<string, unknown>;
    ids.push(id);
  }
  return ids;
}

describe("SqliteSaver as LangGraph.js's SqliteSaver", () => {
  it("getTuple for a named checkpoint answers with the very config it was asked with", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    await chain(saver, 2);
    const asked = { configurable: { thread_id: "chain", checkpoint_id: "c0", user: "ada" }, tags: ["audit"] };
    const named = await saver.getTuple(asked);
    expect(named?.config).toBe(asked);
    expect(named?.checkpoint.channel_values).toEqual({ n: 0 });
    // the latest checkpoint is answered with its ids, namespace included
    const latest = await saver.getTuple({ configurable: { thread_id: "chain" } });
    expect(latest?.config).toEqual({
      configurable: { thread_id: "chain", checkpoint_ns: "", checkpoint_id: "c1" },
    });
  });

  it("answers tuples with a parentConfig key, undefined at a root; getTuple's with checkpoint first", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    await chain(saver, 2);
    const root = await saver.getTuple({ configurable: { thread_id: "chain", checkpoint_id: "c0" } });
    expect(Object.keys(root ?? {})).toEqual([
      "checkpoint",
      "config",
      "metadata",
      "parentConfig",
      "pendingWrites",
    ]);
    expect(root?.parentConfig).toBeUndefined();
    const latest = await saver.getTuple({ configurable: { thread_id: "chain" } });
    expect(Object.keys(latest ?? {})).toEqual([
      "checkpoint",
      "config",
      "metadata",
      "parentConfig",
      "pendingWrites",
    ]);
    expect(latest?.parentConfig).toEqual({
      configurable: { thread_id: "chain", checkpoint_ns: "", checkpoint_id: "c0" },
    });
    const listed = await all(saver.list({ configurable: { thread_id: "chain" } }));
    expect(listed.map((t) => Object.keys(t))).toEqual([
      ["config", "checkpoint", "metadata", "parentConfig", "pendingWrites"],
      ["config", "checkpoint", "metadata", "parentConfig", "pendingWrites"],
    ]);
    expect(listed[1]?.parentConfig).toBeUndefined();
  });

  it("keeps a node that saw nothing in versions_seen", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    const first = await saver.put(
      { configurable: { thread_id: "seen" } },
      checkpointAt("s0", { n: 0 }),
      meta(0),
    );
    const next = { ...checkpointAt("s1", { n: 1 }), versions_seen: { a: {}, b: { n: 1 } } };
    const config = await saver.put(first, next, meta(1));
    // read back from storage (another checkpoint written since), not from what the saver just saved
    await saver.put({ configurable: { thread_id: "seen" } }, checkpointAt("s2", { n: 2 }), meta(0));
    expect((await saver.getTuple(config))?.checkpoint.versions_seen).toStrictEqual({ a: {}, b: { n: 1 } });
  });

  it("takes a checkpoint put again with its own config as its parent", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    const values = (x: number): Checkpoint => ({
      ...emptyCheckpoint(),
      id: "A",
      channel_values: { x, y: "same" },
      channel_versions: { x, y: 1 },
    });
    const config = await saver.put({ configurable: { thread_id: "t" } }, values(1), meta(0));
    await saver.put(config, values(2), meta(1), { x: 2 });
    // read back from storage (another checkpoint written since), not from what the saver just saved
    await saver.put({ configurable: { thread_id: "t" } }, { ...emptyCheckpoint(), id: "0" }, meta(0));
    const tuple = await saver.getTuple({ configurable: { thread_id: "t", checkpoint_id: "A" } });
    expect(tuple?.checkpoint.channel_values).toEqual({ x: 2, y: "same" });
    expect(tuple?.parentConfig).toEqual({
      configurable: { thread_id: "t", checkpoint_ns: "", checkpoint_id: "A" },
    });
  });

  it("getState of a past checkpoint returns the config it was called with", async () => {
    const State = Annotation.Root({ x: Annotation<number>() });
    const graph = new StateGraph(State)
      .addNode("double", (s: { x: number }) => ({ x: s.x * 2 }))
      .addEdge(START, "double")
      .compile({ checkpointer: SqliteSaver.fromConnString(":memory:") });
    await graph.invoke({ x: 3 }, { configurable: { thread_id: "g" } });
    const history = [];
    for await (const snapshot of graph.getStateHistory({ configurable: { thread_id: "g" } }))
      history.push(snapshot);
    const pastId = history[1]?.config.configurable?.checkpoint_id;
    const asked = { configurable: { thread_id: "g", checkpoint_id: pastId, user: "ada" } };
    const snapshot = await graph.getState(asked);
    expect(snapshot.config).toEqual(asked);
    expect(snapshot.values).toEqual({ x: 3 });
  });

  it("list does not narrow to a checkpoint_id given in the config", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    await chain(saver, 3);
    const listed = await all(saver.list({ configurable: { thread_id: "chain", checkpoint_id: "c1" } }));
    expect(listed.map((t) => t.checkpoint.id)).toEqual(["c2", "c1", "c0"]);
  });

  it("list treats a limit of 0 or below as no limit, and cuts a fractional one down", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    await chain(saver, 3);
    const ids = async (limit: number) =>
      (await all(saver.list({ configurable: { thread_id: "chain" } }, { limit }))).map(
        (t) => t.checkpoint.id,
      );
    expect(await ids(0)).toEqual(["c2", "c1", "c0"]);
    expect(await ids(-1)).toEqual(["c2", "c1", "c0"]);
    expect(await ids(2)).toEqual(["c2", "c1"]);
    expect(await ids(1.9)).toEqual(["c2"]);
  });

  it("list with no thread (or an empty one) lists every thread", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    await saver.put({ configurable: { thread_id: "a" } }, checkpointAt("a1", {}), meta(0));
    await saver.put({ configurable: { thread_id: "b" } }, checkpointAt("b1", {}), meta(0));
    const threads = async (config: Parameters<SqliteSaver["list"]>[0]) =>
      (await all(saver.list(config))).map((t) => t.config.configurable?.thread_id);
    expect(await threads({ configurable: { thread_id: "" } })).toEqual(["b", "a"]);
    expect(await threads({})).toEqual(["b", "a"]);
  });

  it("keeps only the checkpoint format's fields", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    const plain = checkpointAt("x1", { k: "v" });
    const withMore = { ...plain, pending_sends: [], note: { by: "hand" } } as Checkpoint;
    const config = await saver.put({ configurable: { thread_id: "fields" } }, withMore, meta(0));
    const read = await saver.getTuple(config);
    expect(read?.checkpoint).toStrictEqual(plain);
  });

  it("gives the sends a pre-v4 checkpoint inherits the newest version it already has", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
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

  it("gives a pre-v4 checkpoint whose parent saved no sends an empty tasks channel", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    const first = await saver.put({ configurable: { thread_id: "old" } }, checkpointAt("o1", {}, 1), meta(0));
    const config = await saver.put(first, checkpointAt("o2", { a: 1 }, 1), meta(1));
    const read = await saver.getTuple(config);
    expect(read?.checkpoint.channel_values).toEqual({ a: 1, [TASKS]: [] });
    expect(read?.checkpoint.channel_versions[TASKS]).toBe(1);
    // the first checkpoint has no parent, so nothing is added to it
    expect((await saver.getTuple(first))?.checkpoint.channel_values).toEqual({});
  });

  it("errors for configs without ids are CheckpointConfigErrors that start with SqliteSaver's texts", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    const failure = async (call: () => Promise<unknown>) => {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CheckpointConfigError);
      return (error as Error).message;
    };
    const checkpoint = checkpointAt("e1", {});
    expect(await failure(() => saver.put({}, checkpoint, meta(0)))).toMatch(
      /^Empty configuration supplied\. /,
    );
    expect(await failure(() => saver.put({ configurable: {} }, checkpoint, meta(0)))).toMatch(
      /^Missing "thread_id" field in passed "config\.configurable"\. .*thread_id/,
    );
    expect(await failure(() => saver.putWrites({}, [["a", 1]], "t"))).toMatch(
      /^Empty configuration supplied\. /,
    );
    expect(
      await failure(() => saver.putWrites({ configurable: { checkpoint_id: "e1" } }, [["a", 1]], "t")),
    ).toMatch(/^Missing thread_id field in config\.configurable\. /);
    expect(await failure(() => saver.putWrites({ configurable: { thread_id: "t" } }, [["a", 1]], "t"))).toBe(
      "Missing checkpoint_id field in config.configurable.",
    );
    // a graph run without a thread fails with the text of its first save: a Command's is its writes
    const graph = new StateGraph(Annotation.Root({ x: Annotation<number>() }))
      .addNode("n", () => ({ x: 1 }))
      .addEdge(START, "n")
      .compile({ checkpointer: saver });
    expect(await failure(() => graph.invoke({ x: 0 }))).toMatch(/^Missing "thread_id" field in passed /);
    expect(await failure(() => graph.invoke(new Command({ resume: 1 })))).toMatch(
      /^Missing thread_id field in config\.configurable\. /,
    );
  });
});
