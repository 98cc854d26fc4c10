// Behaviours of LangGraph.js's MemorySaver (@langchain/langgraph 1.7.3) that a program ported to
// agentgraph can observe through the saver's methods (found by differential testing).
import { describe, expect, it } from "vitest";
import {
  type Checkpoint,
  CheckpointCorruptError,
  type CheckpointTuple,
  emptyCheckpoint,
  MemorySaver,
} from "../../index.js";

const meta = (step: number) => ({ source: "loop" as const, step, parents: {} });

function checkpointAt(id: string, seen: Record<string, Record<string, number>> = {}): Checkpoint {
  return {
    ...emptyCheckpoint(),
    id,
    channel_values: { n: 1 },
    channel_versions: { n: 1 },
    versions_seen: seen,
  };
}

async function all(iterable: AsyncIterable<CheckpointTuple>): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = [];
  for await (const tuple of iterable) out.push(tuple);
  return out;
}

describe("MemorySaver as LangGraph.js's MemorySaver", () => {
  it("answers the latest checkpoint with { thread_id, checkpoint_id, checkpoint_ns }, in that order", async () => {
    const saver = new MemorySaver();
    const first = await saver.put({ configurable: { thread_id: "t" } }, checkpointAt("c0"), meta(0));
    expect(Object.keys(first.configurable ?? {})).toEqual(["thread_id", "checkpoint_ns", "checkpoint_id"]);
    await saver.put(first, checkpointAt("c1"), meta(1));
    const latest = await saver.getTuple({ configurable: { thread_id: "t" } });
    expect(Object.keys(latest?.config.configurable ?? {})).toEqual([
      "thread_id",
      "checkpoint_id",
      "checkpoint_ns",
    ]);
    expect(Object.keys(latest ?? {})).toEqual([
      "config",
      "checkpoint",
      "metadata",
      "pendingWrites",
      "parentConfig",
    ]);
    // listed tuples name the namespace before the checkpoint, and a root has no parentConfig key
    const listed = await all(saver.list({ configurable: { thread_id: "t" } }));
    expect(Object.keys(listed[0]?.config.configurable ?? {})).toEqual([
      "thread_id",
      "checkpoint_ns",
      "checkpoint_id",
    ]);
    expect(Object.keys(listed[1] ?? {})).toEqual(["config", "checkpoint", "metadata", "pendingWrites"]);
  });

  it("lists the threads in the order of their first checkpoint, whatever writes came before", async () => {
    const saver = new MemorySaver();
    await saver.putWrites(
      { configurable: { thread_id: "c", checkpoint_ns: "", checkpoint_id: "x" } },
      [["a", 1]],
      "task",
    );
    await saver.put({ configurable: { thread_id: "a" } }, checkpointAt("c9"), meta(0));
    await saver.put({ configurable: { thread_id: "b" } }, checkpointAt("c1"), meta(0));
    await saver.put({ configurable: { thread_id: "c" } }, checkpointAt("c5"), meta(0));
    await saver.deleteThread("a");
    await saver.put({ configurable: { thread_id: "a" } }, checkpointAt("c2"), meta(0));
    const threads = (await all(saver.list({}))).map((t) => t.config.configurable?.thread_id);
    expect(threads).toEqual(["b", "c", "a"]);
  });

  it("keeps a node that saw nothing in versions_seen", async () => {
    const saver = new MemorySaver();
    const first = await saver.put({ configurable: { thread_id: "t" } }, checkpointAt("c0"), meta(0));
    const config = await saver.put(first, checkpointAt("c1", { a: {}, b: { n: 1 } }), meta(1));
    // read back from storage (another checkpoint written since), not from what the saver just saved
    await saver.put({ configurable: { thread_id: "t" } }, checkpointAt("c2"), meta(0));
    expect((await saver.getTuple(config))?.checkpoint.versions_seen).toStrictEqual({ a: {}, b: { n: 1 } });
  });

  it("takes a checkpoint put again with its own config as its parent", async () => {
    const saver = new MemorySaver();
    const values = (x: number) => ({
      ...emptyCheckpoint(),
      id: "A",
      channel_values: { x, y: "same" },
      channel_versions: { x, y: 1 },
    });
    const config = await saver.put({ configurable: { thread_id: "t" } }, values(1), meta(0));
    // only x changed: y is found at its version, as for any parent
    await saver.put(config, values(2), meta(1), { x: 2 });
    // read back from storage (another checkpoint written since), not from what the saver just saved
    await saver.put({ configurable: { thread_id: "t" } }, { ...emptyCheckpoint(), id: "0" }, meta(0));
    const tuple = await saver.getTuple({ configurable: { thread_id: "t", checkpoint_id: "A" } });
    expect(tuple?.checkpoint.channel_values).toEqual({ x: 2, y: "same" });
    expect(tuple?.metadata).toEqual(meta(1));
    expect(tuple?.parentConfig).toEqual({
      configurable: { thread_id: "t", checkpoint_ns: "", checkpoint_id: "A" },
    });
  });

  it("reports a cycle of parents as a corrupt checkpoint instead of walking it forever", async () => {
    const saver = new MemorySaver();
    const a = await saver.put({ configurable: { thread_id: "t" } }, checkpointAt("A"), meta(0));
    const b = await saver.put(a, checkpointAt("B"), meta(1));
    await saver.put(b, checkpointAt("A"), meta(2));
    await saver.put({ configurable: { thread_id: "t" } }, checkpointAt("C"), meta(0));
    await expect(saver.getTuple(a)).rejects.toBeInstanceOf(CheckpointCorruptError);
  });

  it("refuses writes whose config has no checkpoint_ns, with LangGraph.js's message", async () => {
    const saver = new MemorySaver();
    await saver.put({ configurable: { thread_id: "t" } }, checkpointAt("c0"), meta(0));
    await expect(
      saver.putWrites({ configurable: { thread_id: "t", checkpoint_id: "c0" } }, [["a", 1]], "task"),
    ).rejects.toThrow(
      'Invalid configurable value for key "checkpoint_ns": expected a string identifier (got undefined). This guard protects MemorySaver from prototype pollution.',
    );
    // without a checkpoint id, that is what it reports
    await expect(saver.putWrites({ configurable: { thread_id: "t" } }, [["a", 1]], "task")).rejects.toThrow(
      /^Failed to put writes\. .*"checkpoint_id"/,
    );
  });

  it("checks ids where and in the order LangGraph.js's MemorySaver checks them", async () => {
    const saver = new MemorySaver();
    const outcome = (call: () => Promise<unknown>) =>
      call().then(
        (value) => ({ ok: (value as CheckpointTuple | undefined)?.config ?? value }),
        (error: Error) => ({ error: error.message.split(". ")[0] }),
      );
    const at = (id: string): Checkpoint => ({
      ...emptyCheckpoint(),
      id,
      channel_values: { x: 1 },
      channel_versions: { x: 1 },
    });
    // a missing thread is reported before the checkpoint's own id is looked at
    expect(
      await outcome(() => saver.put({ configurable: { checkpoint_id: "x" } }, at("prototype"), meta(0))),
    ).toEqual({
      error: "Failed to put checkpoint",
    });
    expect(await outcome(() => saver.put({ configurable: { thread_id: "t" } }, at(""), meta(0)))).toEqual({
      error:
        'Invalid configurable value for key "checkpoint_id": empty string is not permitted as an in-memory storage key.',
    });
    // a null namespace is "" for put and getTuple, and refused by list and putWrites
    const ids = { thread_id: "t", checkpoint_ns: "", checkpoint_id: "c1" };
    expect(
      await outcome(() =>
        saver.put({ configurable: { thread_id: "t", checkpoint_ns: null } }, at("c1"), meta(0)),
      ),
    ).toEqual({
      ok: { configurable: ids },
    });
    expect(
      await outcome(() => saver.getTuple({ configurable: { thread_id: "t", checkpoint_ns: null } })),
    ).toEqual({
      ok: { configurable: { thread_id: "t", checkpoint_id: "c1", checkpoint_ns: "" } },
    });
    const nullNs = {
      error: 'Invalid configurable value for key "checkpoint_ns": expected a string identifier (got null)',
    };
    expect(
      await outcome(() => all(saver.list({ configurable: { thread_id: "t", checkpoint_ns: null } }))),
    ).toEqual(nullNs);
    expect(
      await outcome(() =>
        saver.putWrites({ configurable: { ...ids, checkpoint_ns: null } }, [["a", 1]], "task"),
      ),
    ).toEqual(nullNs);
    // putWrites reports a missing checkpoint id before it looks at the task id, and a null thread id is not missing
    const noCheckpoint = { error: "Failed to put writes" };
    expect(
      await outcome(() => saver.putWrites({ configurable: { thread_id: "t" } }, [["a", 1]], "__proto__")),
    ).toEqual(noCheckpoint);
    const nullThread = await saver
      .putWrites({ configurable: { thread_id: null } }, [["a", 1]], "task")
      .catch((e: Error) => e.message);
    expect(nullThread).toMatch(/^Failed to put writes\. .*"checkpoint_id"/);
  });
});
