import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BaseChannel,
  BinaryOperatorAggregate,
  EphemeralValue,
  LastValue,
  LastValueAfterFinish,
  NamedBarrierValue,
  Topic,
} from "../channels/index.js";
import { type Checkpoint, emptyCheckpoint } from "../checkpoint/index.js";
import { type ChannelVersion, InvalidUpdateError, nextIntegerVersion, Send } from "../core/index.js";
import {
  applyWrites,
  type Channels,
  type CommittedTask,
  initialWriteState,
  readWithWrites,
  taskPathKey,
} from "./index.js";

const next = (v: ChannelVersion | undefined) => nextIntegerVersion(v);

function pull(name: string, writes: [string, unknown][], trigger = `branch:to:${name}`): CommittedTask {
  return { name, path: ["__pregel_pull", name], triggers: [trigger], writes };
}

function push(name: string, index: number, writes: [string, unknown][]): CommittedTask {
  return { name, path: ["__pregel_push", index], triggers: ["__pregel_push"], writes };
}

const input = (writes: [string, unknown][]): CommittedTask => ({
  name: "__input__",
  path: [],
  triggers: [],
  writes,
});

interface World {
  checkpoint: Checkpoint;
  channels: Channels;
  triggerToNodes: Record<string, string[]>;
  state: ReturnType<typeof initialWriteState>;
  commit(tasks: CommittedTask[]): Set<string>;
}

function world(channels: Channels, triggerToNodes: Record<string, string[]> = {}): World {
  const checkpoint = emptyCheckpoint("c");
  const state = initialWriteState(checkpoint, channels);
  return {
    checkpoint,
    channels,
    triggerToNodes,
    state,
    commit: (tasks) => applyWrites(checkpoint, channels, tasks, next, triggerToNodes, state),
  };
}

const log = () =>
  new BinaryOperatorAggregate<string[]>(
    (a, b) => a.concat(b),
    () => [],
  );

describe("applyWrites", () => {
  it("applies the writes, stamps every updated channel with one new version and returns them", () => {
    const w = world(
      { a: new LastValue(), log: log(), "branch:to:x": new EphemeralValue(false) },
      {
        "branch:to:x": ["x"],
      },
    );
    const updated = w.commit([
      input([
        ["a", 1],
        ["log", ["i"]],
        ["branch:to:x", null],
      ]),
    ]);
    expect(updated).toEqual(new Set(["a", "log", "branch:to:x"]));
    expect(w.checkpoint.channel_versions).toEqual({ a: 1, log: 1, "branch:to:x": 1 });
    expect(w.channels.a?.get()).toBe(1);
    expect(w.channels.log?.get()).toEqual(["i"]);
    const again = w.commit([pull("x", [["a", 2]])]);
    expect(again).toEqual(new Set(["a"]));
    const v = w.checkpoint.channel_versions;
    expect(v.a).toBeGreaterThan(1);
    expect(v.log).toBe(1);
  });

  it("records in versions_seen the version of each trigger a task ran on", () => {
    const w = world({ a: new LastValue(), "branch:to:x": new EphemeralValue(false) });
    w.commit([input([["branch:to:x", null]])]);
    const seenVersion = w.checkpoint.channel_versions["branch:to:x"];
    w.commit([pull("x", [["a", 1]])]);
    expect(w.checkpoint.versions_seen.x).toEqual({ "branch:to:x": seenVersion });
  });

  it("gives a task without triggers (the graph input) an empty versions_seen entry, as LangGraph.js", () => {
    // LangGraph.js's input checkpoint has versions_seen { __input__: {} }
    const w = world({ a: new LastValue() });
    w.commit([input([["a", 1]])]);
    expect(Object.keys(w.checkpoint.versions_seen)).toEqual(["__input__"]);
    expect({ ...w.checkpoint.versions_seen.__input__ }).toEqual({});
  });

  it("clears ephemeral channels nobody wrote in a step where a task ran", () => {
    const w = world({ a: new LastValue(), "branch:to:x": new EphemeralValue(false) });
    w.commit([input([["branch:to:x", null]])]);
    expect(w.channels["branch:to:x"]?.isAvailable()).toBe(true);
    const before = w.checkpoint.channel_versions["branch:to:x"] as number;
    const updated = w.commit([pull("x", [["a", 1]])]);
    expect(w.channels["branch:to:x"]?.isAvailable()).toBe(false);
    expect(w.checkpoint.channel_versions["branch:to:x"]).toBeGreaterThan(before);
    expect(updated.has("branch:to:x")).toBe(false);
  });

  it("does not clear ephemeral channels when only input (no task with triggers) was applied", () => {
    const w = world({ a: new LastValue(), e: new EphemeralValue() });
    w.commit([input([["e", 1]])]);
    w.commit([input([["a", 1]])]);
    expect(w.channels.e?.get()).toBe(1);
  });

  it("consumes a barrier that triggered a task, under a new version", () => {
    const w = world({ a: new LastValue(), "join:p+q:x": new NamedBarrierValue(["p", "q"]) });
    w.commit([pull("p", [["join:p+q:x", "p"]]), pull("q", [["join:p+q:x", "q"]])]);
    expect(w.channels["join:p+q:x"]?.isAvailable()).toBe(true);
    const version = w.checkpoint.channel_versions["join:p+q:x"] as number;
    w.commit([pull("x", [["a", 1]], "join:p+q:x")]);
    expect(w.channels["join:p+q:x"]?.isAvailable()).toBe(false);
    expect(w.checkpoint.versions_seen.x).toEqual({ "join:p+q:x": version });
    expect(w.checkpoint.channel_versions["join:p+q:x"]).toBeGreaterThan(version);
  });

  it("calls finish() when nothing would run next, releasing deferred channels", () => {
    const w = world(
      { a: new LastValue(), "branch:to:d": new LastValueAfterFinish() },
      {
        "branch:to:d": ["d"],
        "branch:to:x": ["x"],
      },
    );
    w.channels["branch:to:x"] = new EphemeralValue(false);
    const first = w.commit([
      pull("p", [
        ["branch:to:d", null],
        ["branch:to:x", null],
      ]),
    ]);
    expect(first.has("branch:to:d")).toBe(false);
    expect(w.channels["branch:to:d"]?.isAvailable()).toBe(false);
    const second = w.commit([pull("x", [["a", 1]])]);
    expect(second.has("branch:to:d")).toBe(true);
    expect(w.channels["branch:to:d"]?.isAvailable()).toBe(true);
  });

  it("does not finish deferred channels while a pending Send still has to run", () => {
    const w = world(
      { __pregel_tasks: new Topic(), "branch:to:d": new LastValueAfterFinish() },
      {
        "branch:to:d": ["d"],
      },
    );
    const updated = w.commit([
      pull("p", [
        ["branch:to:d", null],
        ["__pregel_tasks", new Send("w", {})],
      ]),
    ]);
    expect(updated.has("__pregel_tasks")).toBe(true);
    expect(w.channels["branch:to:d"]?.isAvailable()).toBe(false);
  });

  it("ignores bookkeeping writes and writes to unknown channels", () => {
    const w = world({ a: new LastValue() });
    const updated = w.commit([
      pull("x", [
        ["__no_writes__", null],
        ["__error__", new Error("x")],
        ["__interrupt__", []],
        ["__return__", 1],
        ["nope", 1],
      ]),
    ]);
    expect(updated.size).toBe(0);
    expect(w.checkpoint.channel_versions.nope).toBeUndefined();
  });

  it("applies writes in task-path order (pull before push, push by index), whatever the task order", () => {
    const w = world({ log: log() });
    w.commit([
      push("w", 10, [["log", ["push10"]]]),
      push("w", 2, [["log", ["push2"]]]),
      pull("b", [["log", ["pull-b"]]]),
      pull("a", [["log", ["pull-a"]]]),
    ]);
    expect(w.channels.log?.get()).toEqual(["pull-a", "pull-b", "push2", "push10"]);
  });

  it("names the key and suggests a reducer when two tasks write a single-value key", () => {
    const w = world({ answer: new LastValue() });
    let error: unknown;
    try {
      w.commit([pull("x", [["answer", 1]]), pull("y", [["answer", 2]])]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidUpdateError);
    const e = error as InvalidUpdateError;
    expect(e.lc_error_code).toBe("INVALID_CONCURRENT_GRAPH_UPDATE");
    expect(e.message).toMatch(
      /^Invalid update for channel "answer" with values \[1,2\]: LastValue can only receive one value per step\./,
    );
    expect(e.message).toContain("reducer");
  });
});

describe("readWithWrites", () => {
  it("reads state as it will be once a task's writes are applied, without touching the channels", () => {
    const channels: Channels = { a: new LastValue(), log: log(), empty: new LastValue() };
    channels.a?.update([1]);
    channels.log?.update([["x"]]);
    const fresh = readWithWrites(
      channels,
      ["a", "log", "empty"],
      [
        ["log", ["y"]],
        ["a", 2],
        ["__no_writes__", null],
      ],
    );
    expect(fresh).toEqual({ a: 2, log: ["x", "y"] });
    expect(channels.a?.get()).toBe(1);
    expect(channels.log?.get()).toEqual(["x"]);
  });

  it("names the channel and the values when one task wrote a single-value channel twice, as LangGraph.js does", () => {
    const read = () =>
      readWithWrites(
        { x: new LastValue() },
        ["x"],
        [
          ["x", 1],
          ["x", 2],
        ],
      );
    expect(read).toThrow(InvalidUpdateError);
    expect(read).toThrow(
      /^Invalid update for channel "x" with values \[1,2\]: LastValue can only receive one value per step\./,
    );
  });
});

describe("readWithWrites with a read-only reader", () => {
  /** A concatenating reducer that counts its calls, marked pure when `pure`. */
  function counted(pure: boolean) {
    const calls = { n: 0 };
    const reducer = (a: string[], b: string[]) => {
      calls.n += 1;
      return [...a, ...b];
    };
    if (pure) Object.defineProperty(reducer, Symbol.for("agentgraph.reducer.pure"), { value: true });
    return { calls, channel: new BinaryOperatorAggregate<string[], string[]>(reducer, () => []) };
  }
  const tasks = (writes: [string, unknown][]): CommittedTask[] => [pull("n", writes)];
  const run = (channels: Channels, writes: [string, unknown][]) =>
    applyWrites(
      emptyCheckpoint(),
      channels,
      tasks(writes),
      next,
      {},
      initialWriteState(emptyCheckpoint(), channels),
    );

  it("lets the step's end take the merge a read-only reader computed, for a pure reducer", () => {
    const { calls, channel } = counted(true);
    channel.update([["x"]]);
    calls.n = 0;
    const writes: [string, unknown][] = [["log", ["y"]]];
    const fresh = readWithWrites({ log: channel }, ["log"], writes, true);
    expect(calls.n).toBe(1);
    run({ log: channel }, writes);
    expect(calls.n).toBe(1);
    expect(channel.get()).toBe(fresh.log);
    expect(channel.get()).toEqual(["x", "y"]);
  });

  it("merges again when the step's writes differ from what the reader saw", () => {
    const { calls, channel } = counted(true);
    const writes: [string, unknown][] = [["log", ["y"]]];
    const fresh = readWithWrites({ log: channel }, ["log"], writes, true);
    // another task of the step wrote too
    applyWrites(
      emptyCheckpoint(),
      { log: channel },
      [pull("n", writes), pull("m", [["log", ["z"]]])],
      next,
      {},
      initialWriteState(emptyCheckpoint(), { log: channel }),
    );
    // (tasks apply in path order: "m" before "n")
    expect(channel.get()).toEqual(["z", "y"]);
    expect(channel.get()).not.toBe(fresh.log);
    expect(calls.n).toBe(3);
    // a later step with the same write objects does not reuse the old merge either
    run({ log: channel }, writes);
    expect(channel.get()).toEqual(["z", "y", "y"]);
  });

  it("keeps nothing for a reducer not marked pure, or for a reader that may modify what it reads", () => {
    for (const [pure, readOnly] of [
      [false, true],
      [true, false],
    ] as const) {
      const { calls, channel } = counted(pure);
      const writes: [string, unknown][] = [["log", ["y"]]];
      const fresh = readWithWrites({ log: channel }, ["log"], writes, readOnly);
      (fresh.log as string[]).push("changed by the reader");
      run({ log: channel }, writes);
      expect(calls.n).toBe(2);
      expect(channel.get()).toEqual(["y"]);
    }
  });
});

describe("taskPathKey", () => {
  it("sorts numeric path parts numerically", () => {
    const keys = [10, 9, 100, 1].map((i) => taskPathKey(["__pregel_push", i]));
    expect([...keys].sort()).toEqual([1, 9, 10, 100].map((i) => taskPathKey(["__pregel_push", i])));
    expect(taskPathKey(["__pregel_pull", "z"]) < taskPathKey(["__pregel_push", 0])).toBe(true);
  });
});

describe("applyWrites (property)", () => {
  const taskWrites = fc.record({
    log: fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
    sends: fc.array(fc.nat({ max: 9 }), { maxLength: 2 }),
    touch: fc.boolean(),
  });
  const tasksArb = fc
    .tuple(
      fc.uniqueArray(fc.constantFrom("a", "b", "c", "d"), { maxLength: 4 }),
      fc.array(taskWrites, { maxLength: 4 }),
      fc.array(taskWrites, { minLength: 4, maxLength: 4 }),
      fc.option(fc.nat({ max: 7 })),
    )
    .map(([pullNames, pushWrites, pullWrites, lastWriter]) => {
      const tasks: CommittedTask[] = [];
      const toWrites = (w: { log: string[]; sends: number[]; touch: boolean }, owner: string) => {
        const out: [string, unknown][] = w.log.map((s) => ["log", [`${owner}:${s}`]]);
        for (const k of w.sends) out.push(["__pregel_tasks", new Send("w", { k, owner })]);
        if (w.touch) out.push(["branch:to:a", null]);
        return out;
      };
      pullNames.forEach((name, i) => {
        tasks.push(pull(name, toWrites(pullWrites[i] as never, name)));
      });
      pushWrites.forEach((w, i) => {
        tasks.push(push("w", i, toWrites(w, `w${i}`)));
      });
      // At most one task writes the single-value key.
      if (lastWriter !== null && tasks.length > 0)
        tasks[lastWriter % tasks.length]?.writes.push(["last", lastWriter]);
      return tasks;
    });

  function fresh(): World {
    const channels: Record<string, BaseChannel> = {
      log: log(),
      last: new LastValue(),
      __pregel_tasks: new Topic(),
      "branch:to:a": new EphemeralValue(false),
      "branch:to:b": new EphemeralValue(false),
      "branch:to:c": new EphemeralValue(false),
      "branch:to:d": new EphemeralValue(false),
      deferred: new LastValueAfterFinish(),
    };
    const w = world(channels, { "branch:to:a": ["a"], "branch:to:b": ["b"], deferred: ["z"] });
    w.commit([
      input([
        ["log", ["start"]],
        ["branch:to:a", null],
        ["branch:to:b", null],
        ["branch:to:c", null],
        ["branch:to:d", null],
        ["deferred", "later"],
      ]),
    ]);
    return w;
  }

  const observe = (w: World, updated: Set<string>) => ({
    values: Object.fromEntries(Object.entries(w.channels).map(([k, c]) => [k, c.checkpoint()])),
    versions: w.checkpoint.channel_versions,
    seen: w.checkpoint.versions_seen,
    updated: [...updated].sort(),
  });

  it("gives the same channel values and versions whatever order the tasks finish in", () => {
    fc.assert(
      fc.property(tasksArb, fc.infiniteStream(fc.nat()), (tasks, seeds) => {
        const shuffled = [...tasks];
        const it = seeds[Symbol.iterator]();
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = (it.next().value as number) % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j] as CommittedTask, shuffled[i] as CommittedTask];
        }
        const inOrder = fresh();
        const reordered = fresh();
        const a = inOrder.commit([...tasks]);
        const b = reordered.commit(shuffled);
        expect(observe(reordered, b)).toEqual(observe(inOrder, a));
      }),
      { numRuns: 300 },
    );
  });
});
