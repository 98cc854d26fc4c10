import { describe, expect, it } from "vitest";
import {
  type Checkpoint,
  compareChannelVersions,
  deepCopy,
  EXCLUDED_METADATA_KEYS,
  emptyCheckpoint,
  MemorySaver,
  maxChannelVersion,
  uuid5,
  uuid6,
} from "./index.js";

describe("LangGraph.js checkpoint helpers", () => {
  it("deepCopy copies plain objects and arrays", () => {
    const value = { a: 1, b: { c: [1, { d: 2 }] } };
    const copy = deepCopy(value);
    expect(copy).toEqual(value);
    expect(copy.b).not.toBe(value.b);
    expect(copy.b.c[1]).not.toBe(value.b.c[1]);
  });

  it("compareChannelVersions orders numbers by value and strings by text", () => {
    expect([
      compareChannelVersions(1, 2),
      compareChannelVersions(1, 1),
      compareChannelVersions(2, 1),
    ]).toEqual([-1, 0, 1]);
    expect(compareChannelVersions("1.abc", "2")).toBe(-1);
    expect(compareChannelVersions("10.a", "10.b")).toBe(-1);
    expect(maxChannelVersion("01.a", "02.a", "10.a")).toBe("10.a");
  });

  it("uuid6 is time-ordered with the given clock sequence, uuid5 is RFC 4122 v5", () => {
    const first = uuid6(0);
    const second = uuid6(0);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-6[0-9a-f]{3}-8000-[0-9a-f]{12}$/);
    expect(second > first).toBe(true);
    expect(uuid6(-1)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-6[0-9a-f]{3}-ffff-[0-9a-f]{12}$/);
    // the RFC's DNS namespace
    expect(uuid5("hello", "6ba7b810-9dad-11d1-80b4-00c04fd430c8")).toBe(
      "9342d47a-1bab-5709-9869-c840b2eac501",
    );
  });

  it("emptyCheckpoint() has a fresh time-ordered id, as in LangGraph.js", () => {
    const checkpoint = emptyCheckpoint();
    expect(checkpoint.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-6[0-9a-f]{3}-8000-[0-9a-f]{12}$/);
    expect(emptyCheckpoint().id > checkpoint.id).toBe(true);
    expect(emptyCheckpoint("given").id).toBe("given");
  });

  it("EXCLUDED_METADATA_KEYS lists the run keys kept out of metadata", () => {
    expect(EXCLUDED_METADATA_KEYS.has("thread_id")).toBe(true);
    expect(EXCLUDED_METADATA_KEYS.has("checkpoint_map")).toBe(true);
  });
});

describe("a checkpoint put by hand", () => {
  it("keeps channel values that have no version, with that checkpoint only", async () => {
    const saver = new MemorySaver();
    const config = { configurable: { thread_id: "t", checkpoint_ns: "" } };
    const checkpoint: Checkpoint = {
      v: 4,
      id: uuid6(0),
      ts: "2024-04-19T17:19:07.952Z",
      channel_values: { someKey1: "someValue1" },
      channel_versions: { someKey2: 1 },
      versions_seen: { someKey3: { someKey4: 1 } },
    };
    const saved = await saver.put(config, checkpoint, { source: "update", step: -1, parents: {} });
    expect((await saver.getTuple(config))?.checkpoint).toEqual(checkpoint);
    const child: Checkpoint = { ...checkpoint, id: uuid6(0), channel_values: {} };
    await saver.put(saved, child, { source: "update", step: 0, parents: {} });
    const listed: Checkpoint[] = [];
    for await (const tuple of saver.list(config)) listed.push(tuple.checkpoint);
    expect(listed.map((c) => c.channel_values)).toEqual([{}, { someKey1: "someValue1" }]);
  });

  it("saves every versioned value when put is given no newVersions (LangGraph.js's three-argument put)", async () => {
    const saver = new MemorySaver();
    const config = { configurable: { thread_id: "t", checkpoint_ns: "" } };
    const checkpoint: Checkpoint = {
      v: 4,
      id: uuid6(0),
      ts: "2024-04-19T17:19:07.952Z",
      channel_values: { a: "x", list: [1, 2] },
      channel_versions: { a: 1, list: 1 },
      versions_seen: {},
    };
    await saver.put(config, checkpoint, { source: "update", step: -1, parents: {} });
    expect((await saver.getTuple(config))?.checkpoint.channel_values).toEqual({ a: "x", list: [1, 2] });
  });
});

describe("MemorySaver ids", () => {
  const checkpoint = (): Checkpoint => ({
    v: 4,
    id: uuid6(0),
    ts: new Date().toISOString(),
    channel_values: {},
    channel_versions: {},
    versions_seen: {},
  });
  const meta = { source: "input" as const, step: 0, parents: {} };

  it.each(["__proto__", "constructor", "prototype"])(
    "refuses %s as LangGraph.js's MemorySaver does",
    async (key) => {
      const saver = new MemorySaver();
      const reserved = /would mutate Object\.prototype/;
      await expect(
        saver.put({ configurable: { thread_id: key, checkpoint_ns: "" } }, checkpoint(), meta, {}),
      ).rejects.toThrow(reserved);
      await expect(
        saver.put({ configurable: { thread_id: "a", checkpoint_ns: key } }, checkpoint(), meta, {}),
      ).rejects.toThrow(reserved);
      await expect(
        saver.put(
          { configurable: { thread_id: "a", checkpoint_ns: "" } },
          { ...checkpoint(), id: key },
          meta,
          {},
        ),
      ).rejects.toThrow(reserved);
      await expect(
        saver.putWrites(
          { configurable: { thread_id: "a", checkpoint_ns: "", checkpoint_id: uuid6(0) } },
          [],
          key,
        ),
      ).rejects.toThrow(reserved);
      await expect(saver.deleteThread(key)).rejects.toThrow(reserved);
      await expect(saver.getTuple({ configurable: { thread_id: key } })).rejects.toThrow(reserved);
      await expect(saver.list({ configurable: { thread_id: key } }).next()).rejects.toThrow(reserved);
    },
  );

  it("refuses ids that are not strings (numbers are taken as their text)", async () => {
    const saver = new MemorySaver();
    await expect(
      saver.put({ configurable: { thread_id: { foo: 1 }, checkpoint_ns: "" } }, checkpoint(), meta, {}),
    ).rejects.toThrow(/expected a string identifier \(got object\)/);
    await expect(saver.deleteThread(["a"] as never)).rejects.toThrow(/got array/);
    const saved = await saver.put(
      { configurable: { thread_id: 7, checkpoint_ns: "" } },
      checkpoint(),
      meta,
      {},
    );
    expect(saved.configurable?.thread_id).toBe("7");
  });
});

describe("fields beyond the checkpoint format", () => {
  it("are not kept by MemorySaver, as LangGraph.js's MemorySaver keeps only the format's fields", async () => {
    const saver = new MemorySaver();
    const config = { configurable: { thread_id: "t" } };
    const old = { ...emptyCheckpointFor(), v: 1, pending_sends: [] } as Checkpoint;
    await saver.put(config, old, { source: "update", step: -1, parents: {} }, {});
    const { pending_sends: _dropped, ...formatFields } = old as Checkpoint & { pending_sends: unknown };
    expect((await saver.getTuple(config))?.checkpoint).toEqual(formatFields);
  });
});

describe("list filters", () => {
  it("compare metadata values structurally, as the SQL savers of LangGraph.js do", async () => {
    const saver = new MemorySaver();
    const config = { configurable: { thread_id: "t", checkpoint_ns: "" } };
    const first = await saver.put(
      config,
      { ...emptyCheckpointFor() },
      { source: "input", step: -1, parents: {} },
      {},
    );
    const parentId = String(first.configurable?.checkpoint_id);
    await saver.put(
      first,
      emptyCheckpointFor(),
      { source: "update", step: 0, parents: { "": parentId } },
      {},
    );
    const steps = async (filter: Record<string, unknown>) => {
      const out: unknown[] = [];
      for await (const tuple of saver.list(config, { filter })) out.push(tuple.metadata?.step);
      return out;
    };
    expect(await steps({ parents: { "": parentId } })).toEqual([0]);
    expect(await steps({ parents: {} })).toEqual([-1]);
    expect(await steps({ source: "update", step: 0 })).toEqual([0]);
    expect(await steps({ source: undefined })).toEqual([0, -1]);
  });
});

function emptyCheckpointFor(): Checkpoint {
  return {
    v: 4,
    id: uuid6(0),
    ts: new Date().toISOString(),
    channel_values: {},
    channel_versions: {},
    versions_seen: {},
  };
}
