/**
 * The `checkpoints` stream mode and the `debug` mode's checkpoint events. Expected values:
 * @langchain/langgraph 1.7.3 (probes /tmp/probe/q9.ts, q9b.ts, p13.ts).
 */
import { describe, expect, it } from "vitest";
import { Command, interrupt, MemorySaver, START, StateGraph } from "../../index.js";
import {
  ANY_ID,
  checkpointIdOf,
  collect,
  collectAs,
  historyOf,
  LogState,
  thread,
} from "./persistence.test-helpers.js";

interface CheckpointChunk {
  config: { configurable: Record<string, unknown> };
  metadata: { source: string; step: number; parents: Record<string, string> };
  values: unknown;
  next: string[];
  tasks: { id: string; name: string; path: unknown[]; interrupts: unknown[]; error?: unknown }[];
  parentConfig?: { configurable: Record<string, unknown> };
}

interface DebugEvent {
  step: number;
  type: "checkpoint" | "task" | "task_result";
  timestamp: string;
  payload: Record<string, unknown>;
}

function chain() {
  return new StateGraph(LogState)
    .addNode("a", () => ({ v: ["a"] }))
    .addNode("b", () => ({ v: ["b"] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .compile({ checkpointer: new MemorySaver() });
}

function askGraph() {
  return new StateGraph(LogState)
    .addNode("a", () => ({ v: ["a"] }))
    .addNode("ask", () => ({ v: [`ask:${interrupt("q")}`] }))
    .addNode("c", () => ({ v: ["c"] }))
    .addEdge(START, "a")
    .addEdge("a", "ask")
    .addEdge("ask", "c")
    .compile({ checkpointer: new MemorySaver() });
}

const CONFIG = (threadId: string) => ({
  configurable: { checkpoint_ns: "", thread_id: threadId, checkpoint_id: ANY_ID },
  metadata: expect.objectContaining({ thread_id: threadId }),
  recursion_limit: 25,
  tags: [],
});

describe("streamMode: checkpoints", () => {
  it("yields { config, metadata, values, next, tasks, parentConfig } per checkpoint", async () => {
    const graph = chain();
    const chunks = await collectAs<CheckpointChunk>(
      graph.stream({ v: ["x"] }, { ...thread("c1"), streamMode: "checkpoints" }),
    );
    const task = (name: string) => ({ id: ANY_ID, name, path: ["__pregel_pull", name], interrupts: [] });
    expect(chunks).toEqual([
      {
        config: CONFIG("c1"),
        values: { v: [] },
        metadata: { source: "input", step: -1, parents: {} },
        next: ["__start__"],
        tasks: [task("__start__")],
      },
      {
        config: CONFIG("c1"),
        values: { v: ["x"] },
        metadata: { source: "loop", step: 0, parents: {} },
        next: ["a"],
        tasks: [task("a")],
        parentConfig: CONFIG("c1"),
      },
      {
        config: CONFIG("c1"),
        values: { v: ["x", "a"] },
        metadata: { source: "loop", step: 1, parents: {} },
        next: ["b"],
        tasks: [task("b")],
        parentConfig: CONFIG("c1"),
      },
      {
        config: CONFIG("c1"),
        values: { v: ["x", "a", "b"] },
        metadata: { source: "loop", step: 2, parents: {} },
        next: [],
        tasks: [],
        parentConfig: CONFIG("c1"),
      },
    ]);
    expect(chunks[0]!.parentConfig).toBeUndefined();
  });

  it("lists a subgraph task's keys in LangGraph.js's order, its state before its result", async () => {
    const sub = new StateGraph(LogState)
      .addNode("s", () => ({ v: ["s"] }))
      .addEdge(START, "s")
      .compile();
    const graph = new StateGraph(LogState)
      .addNode("sub", sub)
      .addEdge(START, "sub")
      .compile({ checkpointer: new MemorySaver() });
    const chunks = await collectAs<CheckpointChunk>(
      graph.stream({ v: [] }, { ...thread("order"), streamMode: "checkpoints" }),
    );
    const subTask = chunks.flatMap((chunk) => chunk.tasks).find((task) => task.name === "sub");
    expect(Object.keys(subTask ?? {})).toEqual(["id", "name", "path", "interrupts", "state", "result"]);
  });

  it("names the stored checkpoints, each chunk's parent being the previous one", async () => {
    const graph = chain();
    const chunks = await collectAs<CheckpointChunk>(
      graph.stream({ v: ["x"] }, { ...thread("c2"), streamMode: "checkpoints" }),
    );
    const history = await historyOf(graph, thread("c2"));
    expect(chunks.map((c) => c.config.configurable.checkpoint_id)).toEqual(
      history.map((s) => checkpointIdOf(s.config)).reverse(),
    );
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i]!.parentConfig?.configurable.checkpoint_id).toBe(
        chunks[i - 1]!.config.configurable.checkpoint_id,
      );
    }
  });

  it("interleaves with updates, and stops at an interrupt", async () => {
    const graph = askGraph();
    const chunks = await collect(
      graph.stream({ v: ["in"] }, { ...thread("c3"), streamMode: ["checkpoints", "updates"] }),
    );
    expect(
      chunks.map((c) => {
        const [mode, payload] = c as [string, CheckpointChunk | Record<string, unknown>];
        return mode === "checkpoints" ? ["checkpoints", (payload as CheckpointChunk).metadata.step] : c;
      }),
    ).toEqual([
      ["checkpoints", -1],
      ["checkpoints", 0],
      ["updates", { a: { v: ["a"] } }],
      ["checkpoints", 1],
      ["updates", { __interrupt__: [{ id: ANY_ID, value: "q" }] }],
    ]);
  });

  it("on resume first yields the checkpoint resumed from", async () => {
    const graph = askGraph();
    await graph.invoke({ v: ["in"] }, thread("c4"));
    const chunks = await collectAs<CheckpointChunk>(
      graph.stream(new Command({ resume: "Z" }), { ...thread("c4"), streamMode: "checkpoints" }),
    );
    expect(chunks.map((c) => [c.metadata.step, c.metadata.source, c.next, c.values])).toEqual([
      [1, "loop", ["ask"], { v: ["in", "a"] }],
      [2, "loop", ["c"], { v: ["in", "a", "ask:Z"] }],
      [3, "loop", [], { v: ["in", "a", "ask:Z", "c"] }],
    ]);
  });

  it("yields the fork checkpoint when replaying from a past checkpoint", async () => {
    const graph = askGraph();
    await graph.invoke({ v: ["in"] }, thread("c5"));
    await graph.invoke(new Command({ resume: "Z" }), thread("c5"));
    const atAsk = (await historyOf(graph, thread("c5"))).find((s) => s.next[0] === "ask")!;
    const chunks = await collectAs<CheckpointChunk>(
      graph.stream(null, { ...atAsk.config, streamMode: "checkpoints" }),
    );
    expect(chunks.map((c) => [c.metadata.step, c.metadata.source, c.next])).toEqual([[2, "fork", ["ask"]]]);
    expect(chunks[0]!.parentConfig?.configurable.checkpoint_id).toBe(checkpointIdOf(atAsk.config));
  });

  it("describes a fork at the thread's head as saved, with its task's error, though the task runs again", async () => {
    let failures = 1;
    const graph = new StateGraph(LogState)
      .addNode("a", () => ({ v: ["a"] }))
      .addNode("b", () => {
        if (failures-- > 0) throw new Error("boom");
        return { v: ["b"] };
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile({ checkpointer: new MemorySaver() });
    failures = 0;
    await graph.invoke({ v: ["in"] }, thread("c6"));
    const atB = (await historyOf(graph, thread("c6"))).find((s) => s.next[0] === "b")!;
    failures = 1;
    await expect(graph.invoke(null, atB.config)).rejects.toThrow("boom");
    const head = await graph.getState(thread("c6"));
    expect([head.metadata?.source, head.tasks.map((t) => t.error)]).toEqual([
      "fork",
      [{ message: "boom", name: "Error" }],
    ]);
    const chunks = await collectAs<CheckpointChunk>(
      graph.stream(null, { ...head.config, streamMode: "checkpoints" }),
    );
    expect(chunks.map((c) => [c.metadata.source, c.next, c.tasks.map((t) => t.error)])).toEqual([
      ["fork", ["b"], [{ message: "boom", name: "Error" }]],
      ["loop", [], []],
    ]);
  });

  it("with durability exit still yields every checkpoint, though only the last is stored", async () => {
    const graph = askGraph();
    const chunks = await collectAs<CheckpointChunk>(
      graph.stream({ v: ["in"] }, { ...thread("c6"), streamMode: "checkpoints", durability: "exit" }),
    );
    expect(chunks.map((c) => c.metadata.step)).toEqual([-1, 0, 1]);
    expect(await historyOf(graph, thread("c6"))).toHaveLength(1);
  });

  it("keeps the run's own configurable keys in config and parentConfig, in subgraphs too", async () => {
    const sub = new StateGraph(LogState)
      .addNode("s", () => ({ v: ["s"] }))
      .addEdge(START, "s")
      .compile();
    const graph = new StateGraph(LogState)
      .addNode("a", () => ({ v: ["a"] }))
      .addNode("sub", sub)
      .addEdge(START, "a")
      .addEdge("a", "sub")
      .compile({ checkpointer: new MemorySaver() });
    const configurable = { thread_id: "c7", user_id: "u1", ls_agent_type: "x", nested: { k: 1 } };
    const chunks = await collectAs<[string[], CheckpointChunk]>(
      graph.stream({ v: ["in"] }, { configurable, streamMode: "checkpoints", subgraphs: true }),
    );
    expect(chunks).toHaveLength(7);
    for (const [ns, chunk] of chunks) {
      const expected = {
        ...configurable,
        checkpoint_ns: ns.length === 0 ? "" : expect.stringMatching(/^sub:/),
        checkpoint_id: ANY_ID,
      };
      expect(chunk.config.configurable).toEqual(
        ns.length === 0 ? expected : { ...expected, checkpoint_map: { "": ANY_ID } },
      );
      if (chunk.parentConfig !== undefined) {
        expect(chunk.parentConfig.configurable).toEqual(
          chunk.config.configurable.checkpoint_map === undefined
            ? expected
            : { ...expected, checkpoint_map: { "": ANY_ID } },
        );
      }
    }
    // the debug mode's checkpoint events carry the same config
    const events = await collectAs<DebugEvent>(
      graph.stream(
        { v: ["in"] },
        { configurable: { ...configurable, thread_id: "c8" }, streamMode: "debug" },
      ),
    );
    const checkpoints = events.filter((e) => e.type === "checkpoint");
    expect(checkpoints.length).toBeGreaterThan(0);
    for (const event of checkpoints) {
      const config = event.payload.config as { configurable: Record<string, unknown> };
      expect(config.configurable).toMatchObject({
        thread_id: "c8",
        user_id: "u1",
        ls_agent_type: "x",
        nested: { k: 1 },
      });
    }
  });
});

describe("streamMode: debug", () => {
  it("reports checkpoints as { step, type: 'checkpoint', timestamp, payload } between task events", async () => {
    const graph = chain();
    const events = await collectAs<DebugEvent>(
      graph.stream({ v: ["x"] }, { ...thread("d1"), streamMode: "debug" }),
    );
    expect(events.map((e) => [e.step, e.type])).toEqual([
      [-1, "checkpoint"],
      [0, "checkpoint"],
      [1, "task"],
      [1, "task_result"],
      [1, "checkpoint"],
      [2, "task"],
      [2, "task_result"],
      [2, "checkpoint"],
    ]);
    for (const e of events) expect(Number.isNaN(Date.parse(e.timestamp))).toBe(false);
    const checkpoints = await collectAs<CheckpointChunk>(
      graph.stream({ v: ["x"] }, { ...thread("d2"), streamMode: "checkpoints" }),
    );
    const debugCheckpoints = events.filter((e) => e.type === "checkpoint").map((e) => e.payload);
    // Ids differ between the two threads; the rest of each checkpoint is the same.
    const strip = (c: Record<string, unknown>) => ({
      ...c,
      config: undefined,
      parentConfig: undefined,
      tasks: (c.tasks as { name: string; path: unknown[]; interrupts: unknown[] }[]).map(
        ({ name, path, interrupts }) => ({ name, path, interrupts }),
      ),
    });
    expect(debugCheckpoints.map(strip)).toEqual(
      checkpoints.map((c) => strip(c as unknown as Record<string, unknown>)),
    );
    expect(debugCheckpoints[1]).toMatchObject({ config: CONFIG("d1"), parentConfig: CONFIG("d1") });
  });

  it("reports an interrupted task's result with its interrupts and no error", async () => {
    const graph = askGraph();
    const events = await collectAs<DebugEvent>(
      graph.stream({ v: ["in"] }, { ...thread("d3"), streamMode: "debug" }),
    );
    const last = events.at(-1)!;
    expect(last.type).toBe("task_result");
    expect(last.step).toBe(2);
    expect(last.payload).toEqual({
      id: ANY_ID,
      name: "ask",
      result: {},
      interrupts: [{ id: ANY_ID, value: "q" }],
      error: null,
    });
  });
});
