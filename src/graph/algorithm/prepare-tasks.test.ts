import { describe, expect, it } from "vitest";
import { BinaryOperatorAggregate, EphemeralValue, LastValue, Topic } from "../channels/index.js";
import { type Checkpoint, emptyCheckpoint } from "../checkpoint/index.js";
import { InvalidUpdateError, Send } from "../core/index.js";
import { type Channels, type NodeSpec, type PrepareTasksContext, prepareNextTasks } from "./index.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function node(name: string, triggers: string[] = [`branch:to:${name}`], keys = ["a", "b"]): NodeSpec {
  return { name, triggers, channels: Object.fromEntries(keys.map((k) => [k, k])) };
}

function context(overrides: Partial<PrepareTasksContext> = {}): PrepareTasksContext {
  return {
    step: 1,
    parentNs: "",
    updatedChannels: undefined,
    triggerToNodes: {},
    deterministicIds: false,
    ...overrides,
  };
}

/** Channels a, b (state), the trigger channel of x and y, and the send topic. */
function setup(): { checkpoint: Checkpoint; channels: Channels; nodes: Record<string, NodeSpec> } {
  const channels: Channels = {
    a: new LastValue(),
    b: new BinaryOperatorAggregate<number[]>(
      (x, y) => x.concat(y),
      () => [],
    ),
    "branch:to:x": new EphemeralValue(false),
    "branch:to:y": new EphemeralValue(false),
    __pregel_tasks: new Topic(),
  };
  const checkpoint = emptyCheckpoint("checkpoint-1");
  return { checkpoint, channels, nodes: { x: node("x"), y: node("y") } };
}

function write(checkpoint: Checkpoint, channels: Channels, key: string, value: unknown, version: number) {
  (channels[key] as { update(v: unknown[]): boolean }).update([value]);
  checkpoint.channel_versions[key] = version;
}

describe("prepareNextTasks: PULL tasks", () => {
  it("creates a task for a node whose trigger channel has a version it has not seen", () => {
    const { checkpoint, channels, nodes } = setup();
    write(checkpoint, channels, "a", "hello", 1);
    write(checkpoint, channels, "branch:to:x", null, 1);
    const tasks = prepareNextTasks(checkpoint, nodes, channels, context());
    expect(tasks).toHaveLength(1);
    const [task] = tasks;
    expect(task).toMatchObject({
      name: "x",
      path: ["__pregel_pull", "x"],
      triggers: ["branch:to:x"],
      input: { a: "hello", b: [] },
      writes: [],
    });
    expect(task?.id).toMatch(UUID);
    expect(task?.checkpointNs).toBe(`x:${task?.id}`);
    expect(task?.node).toBe(nodes.x);
  });

  it("leaves empty state channels out of the input", () => {
    const { checkpoint, channels, nodes } = setup();
    write(checkpoint, channels, "branch:to:y", null, 1);
    const [task] = prepareNextTasks(checkpoint, nodes, channels, context());
    expect(task?.input).toEqual({ b: [] });
    expect(Object.hasOwn(task?.input as object, "a")).toBe(false);
  });

  it("creates no task once the node has seen the trigger's version", () => {
    const { checkpoint, channels, nodes } = setup();
    write(checkpoint, channels, "branch:to:x", null, 3);
    checkpoint.versions_seen.x = { "branch:to:x": 3 };
    expect(prepareNextTasks(checkpoint, nodes, channels, context())).toEqual([]);
    checkpoint.channel_versions["branch:to:x"] = 4;
    expect(prepareNextTasks(checkpoint, nodes, channels, context()).map((t) => t.name)).toEqual(["x"]);
  });

  it("creates no task when the trigger channel is empty, whatever its version", () => {
    const { checkpoint, channels, nodes } = setup();
    checkpoint.channel_versions["branch:to:x"] = 5;
    expect(prepareNextTasks(checkpoint, nodes, channels, context())).toEqual([]);
  });

  it("uses the first trigger with a new version when a node has several", () => {
    const { checkpoint, channels } = setup();
    channels.join = new EphemeralValue(false);
    const joined = node("x", ["branch:to:x", "join"]);
    write(checkpoint, channels, "join", null, 2);
    write(checkpoint, channels, "branch:to:x", null, 2);
    checkpoint.versions_seen.x = { "branch:to:x": 2 };
    const [task] = prepareNextTasks(checkpoint, { x: joined }, channels, context());
    expect(task?.triggers).toEqual(["join"]);
  });

  it("only considers nodes triggered by the channels the last step updated", () => {
    const { checkpoint, channels, nodes } = setup();
    write(checkpoint, channels, "branch:to:x", null, 1);
    write(checkpoint, channels, "branch:to:y", null, 1);
    const ctx = context({
      updatedChannels: new Set(["branch:to:y"]),
      triggerToNodes: { "branch:to:x": ["x"], "branch:to:y": ["y"] },
    });
    expect(prepareNextTasks(checkpoint, nodes, channels, ctx).map((t) => t.name)).toEqual(["y"]);
    const all = context({ updatedChannels: undefined });
    expect(prepareNextTasks(checkpoint, nodes, channels, all).map((t) => t.name)).toEqual(["x", "y"]);
  });

  it("reads the first available channel when a node reads a list of channels", () => {
    const { checkpoint, channels } = setup();
    const listNode: NodeSpec = { name: "l", triggers: ["branch:to:x"], channels: ["a", "branch:to:x"] };
    write(checkpoint, channels, "branch:to:x", "trigger-value", 1);
    const [task] = prepareNextTasks(checkpoint, { l: listNode }, channels, context());
    expect(task?.input).toBe("trigger-value");
  });

  it("puts the task namespace under the parent graph's namespace", () => {
    const { checkpoint, channels, nodes } = setup();
    write(checkpoint, channels, "branch:to:x", null, 1);
    const [task] = prepareNextTasks(checkpoint, nodes, channels, context({ parentNs: "outer:abc" }));
    expect(task?.checkpointNs).toBe(`outer:abc|x:${task?.id}`);
  });
});

describe("prepareNextTasks: PUSH tasks from Send", () => {
  it("creates one task per Send, in write order, before the PULL tasks", () => {
    const { checkpoint, channels, nodes } = setup();
    write(checkpoint, channels, "branch:to:x", null, 1);
    (channels.__pregel_tasks as Topic<Send>).update([new Send("y", { k: 1 }), new Send("x", { k: 2 })]);
    checkpoint.channel_versions.__pregel_tasks = 1;
    const tasks = prepareNextTasks(checkpoint, nodes, channels, context());
    expect(tasks.map((t) => [t.name, t.path, t.triggers, t.input])).toEqual([
      ["y", ["__pregel_push", 0, false], ["__pregel_push"], { k: 1 }],
      ["x", ["__pregel_push", 1, false], ["__pregel_push"], { k: 2 }],
      ["x", ["__pregel_pull", "x"], ["branch:to:x"], { b: [] }],
    ]);
    expect(new Set(tasks.map((t) => t.id)).size).toBe(3);
  });

  it("rejects a Send to a node the graph does not have", () => {
    const { checkpoint, channels, nodes } = setup();
    (channels.__pregel_tasks as Topic<Send>).update([new Send("zz", {})]);
    expect(() => prepareNextTasks(checkpoint, nodes, channels, context())).toThrow(InvalidUpdateError);
    expect(() => prepareNextTasks(checkpoint, nodes, channels, context())).toThrow(
      /^Invalid node name "zz" in Send packet/,
    );
  });

  it("rejects a packet that is not a Send", () => {
    const { checkpoint, channels, nodes } = setup();
    (channels.__pregel_tasks as Topic<unknown>).update([{ node: "x" }]);
    expect(() => prepareNextTasks(checkpoint, nodes, channels, context())).toThrow(
      /^Invalid packet type, expected a Send/,
    );
  });
});

describe("prepareNextTasks: ids and purity", () => {
  it("gives the same task the same id when ids must be deterministic", () => {
    const { checkpoint, channels, nodes } = setup();
    write(checkpoint, channels, "branch:to:x", null, 1);
    const ctx = context({ deterministicIds: true });
    const first = prepareNextTasks(checkpoint, nodes, channels, ctx)[0]?.id;
    const again = prepareNextTasks(checkpoint, nodes, channels, ctx)[0]?.id;
    expect(first).toMatch(UUID);
    expect(again).toBe(first);
    const nextStep = prepareNextTasks(
      checkpoint,
      nodes,
      channels,
      context({ deterministicIds: true, step: 2 }),
    );
    expect(nextStep[0]?.id).not.toBe(first);
    const otherCheckpoint = { ...checkpoint, id: "checkpoint-2" };
    expect(prepareNextTasks(otherCheckpoint, nodes, channels, ctx)[0]?.id).not.toBe(first);
  });

  it("mints a fresh process-unique id each time otherwise", () => {
    const { checkpoint, channels, nodes } = setup();
    write(checkpoint, channels, "branch:to:x", null, 1);
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const id = prepareNextTasks(checkpoint, nodes, channels, context())[0]?.id as string;
      expect(id).toMatch(UUID);
      ids.add(id);
    }
    expect(ids.size).toBe(50);
  });

  it("does not change the checkpoint or the channels", () => {
    const { checkpoint, channels, nodes } = setup();
    write(checkpoint, channels, "a", "v", 1);
    write(checkpoint, channels, "branch:to:x", null, 1);
    (channels.__pregel_tasks as Topic<Send>).update([new Send("y", {})]);
    checkpoint.channel_versions.__pregel_tasks = 1;
    const before = structuredClone(checkpoint);
    const snapshot = Object.fromEntries(Object.entries(channels).map(([k, c]) => [k, c.checkpoint()]));
    prepareNextTasks(checkpoint, nodes, channels, context());
    expect(checkpoint).toEqual(before);
    expect(Object.fromEntries(Object.entries(channels).map(([k, c]) => [k, c.checkpoint()]))).toEqual(
      snapshot,
    );
  });
});
