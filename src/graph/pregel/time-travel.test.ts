/**
 * Time travel and forks: running from a past checkpoint, forking with updateState, and what
 * each branch reads. Expected values: @langchain/langgraph 1.7.3 (probes /tmp/probe/q5.ts,
 * q5b.ts, q9.ts, p11x.ts), except where noted as an agentgraph guarantee (API.md, improvements 2
 * and 3).
 */
import { describe, expect, it } from "vitest";
import {
  Annotation,
  Command,
  type ExecutionInfo,
  interrupt,
  type LangGraphRunnableConfig,
  MemorySaver,
  START,
  StateGraph,
  type StateSnapshot,
} from "../../index.js";
import {
  checkpointIdOf,
  collect,
  historyOf,
  outline,
  RunCounter,
  thread,
} from "./persistence.test-helpers.js";

const State = Annotation.Root({
  v: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  last: Annotation<string>,
});

function chain(runs = new RunCounter(), saver = new MemorySaver()) {
  return new StateGraph(State)
    .addNode("a", () => {
      runs.bump("a");
      return { v: ["a"], last: "a" };
    })
    .addNode("b", (s) => {
      runs.bump("b");
      return { v: ["b"], last: `b(${s.last})` };
    })
    .addNode("c", () => {
      runs.bump("c");
      return { v: ["c"] };
    })
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", "c")
    .compile({ checkpointer: saver });
}

/** The snapshot whose next node is `node`. */
function at(history: StateSnapshot[], node: string): StateSnapshot {
  const found = history.find((s) => s.next[0] === node);
  if (found === undefined) throw new Error(`no checkpoint before ${node}`);
  return found;
}

describe("replaying from a past checkpoint", () => {
  it("writes a fork checkpoint and re-runs only the later nodes", async () => {
    const runs = new RunCounter();
    const graph = chain(runs);
    await graph.invoke({ v: ["in"] }, thread("tt"));
    const atB = at(await historyOf(graph, thread("tt")), "b");
    runs.reset();
    const updates = await collect(graph.stream(null, { ...atB.config, streamMode: "updates" }));
    expect(updates).toEqual([{ b: { v: ["b"], last: "b(a)" } }, { c: { v: ["c"] } }]);
    expect(runs.counts).toEqual({ b: 1, c: 1 });
    const latest = await graph.getState(thread("tt"));
    expect(latest.values).toEqual({ v: ["in", "a", "b", "c"], last: "b(a)" });
    expect(latest.metadata).toEqual({ source: "loop", step: 4, parents: {}, thread_id: "tt" });
  });

  it("the fork is a child of the checkpoint replayed from; the old branch stays in the history", async () => {
    const graph = chain();
    await graph.invoke({ v: ["in"] }, thread("tt"));
    const atB = at(await historyOf(graph, thread("tt")), "b");
    await graph.invoke(null, atB.config);
    const history = await historyOf(graph, thread("tt"));
    expect(outline(history)).toEqual([
      "4:loop:",
      "3:loop:c",
      "2:fork:b",
      "3:loop:",
      "2:loop:c",
      "1:loop:b",
      "0:loop:a",
      "-1:input:__start__",
    ]);
    const fork = history[2]!;
    expect(checkpointIdOf(fork.parentConfig)).toBe(checkpointIdOf(atB.config));
    expect(checkpointIdOf(history[4]!.parentConfig)).toBe(checkpointIdOf(atB.config));
    expect(checkpointIdOf(history[1]!.parentConfig)).toBe(checkpointIdOf(fork.config));
    expect(fork.values).toEqual({ v: ["in", "a"], last: "a" });
    expect(fork.metadata).toEqual({ source: "fork", step: 2, parents: {}, thread_id: "tt" });
    expect(fork.tasks.map((t) => [t.name, t.result])).toEqual([["b", { v: ["b"], last: "b(a)" }]]);
    // The history of the new head walks back through the fork to the shared past.
    expect(outline(await historyOf(graph, history[0]!.config))).toEqual(["4:loop:"]);
  });

  it("with new input writes an input checkpoint that drops the pending node", async () => {
    const runs = new RunCounter();
    const graph = chain(runs);
    await graph.invoke({ v: ["in"] }, thread("ni"));
    const atB = at(await historyOf(graph, thread("ni")), "b");
    runs.reset();
    expect(await graph.invoke({ v: ["new"] }, atB.config)).toEqual({
      v: ["in", "a", "new", "a", "b", "c"],
      last: "b(a)",
    });
    expect(runs.counts).toEqual({ a: 1, b: 1, c: 1 });
    const history = await historyOf(graph, thread("ni"));
    expect(outline(history.slice(0, 5))).toEqual([
      "6:loop:",
      "5:loop:c",
      "4:loop:b",
      "3:loop:a",
      "2:input:__start__",
    ]);
    expect(checkpointIdOf(history[4]!.parentConfig)).toBe(checkpointIdOf(atB.config));
  });

  it("from that input checkpoint runs the graph from the start only", async () => {
    const runs = new RunCounter();
    const graph = chain(runs);
    await graph.invoke({ v: ["in"] }, thread("ni"));
    const atB = at(await historyOf(graph, thread("ni")), "b");
    await graph.invoke({ v: ["new"] }, { ...atB.config, interruptBefore: ["a"] });
    const input = (await historyOf(graph, thread("ni"))).find(
      (s) => s.metadata?.source === "input" && s.metadata.step === 2,
    )!;
    runs.reset();
    expect(await graph.invoke(null, input.config)).toEqual({
      v: ["in", "a", "new", "a", "b", "c"],
      last: "b(a)",
    });
    expect(runs.counts).toEqual({ a: 1, b: 1, c: 1 });
  });
});

describe("forks made with updateState", () => {
  it("two forks of one checkpoint never read each other's values", async () => {
    const saver = new MemorySaver();
    const runs = new RunCounter();
    const graph = chain(runs, saver);
    await graph.invoke({ v: ["in"] }, thread("f"));
    const atB = at(await historyOf(graph, thread("f")), "b");
    const f1 = await graph.updateState(atB.config, { v: ["f1"], last: "f1" }, "a");
    const f2 = await graph.updateState(atB.config, { v: ["f2"], last: "f2" }, "a");
    expect((await graph.getState(f1)).values).toEqual({ v: ["in", "a", "f1"], last: "f1" });
    expect((await graph.getState(f2)).values).toEqual({ v: ["in", "a", "f2"], last: "f2" });
    for (const fork of [f1, f2]) {
      const snapshot = await graph.getState(fork);
      expect(snapshot.metadata).toEqual({ source: "update", step: 2, parents: {}, thread_id: "f" });
      expect(checkpointIdOf(snapshot.parentConfig)).toBe(checkpointIdOf(atB.config));
      expect(snapshot.next).toEqual(["b"]);
    }
    runs.reset();
    expect(await graph.invoke(null, f1)).toEqual({ v: ["in", "a", "f1", "b", "c"], last: "b(f1)" });
    expect(await graph.invoke(null, f2)).toEqual({ v: ["in", "a", "f2", "b", "c"], last: "b(f2)" });
    expect(runs.counts).toEqual({ b: 2, c: 2 });
    // Reading the forks again after both branches ran still gives each its own values.
    expect((await graph.getState(f1)).values).toEqual({ v: ["in", "a", "f1"], last: "f1" });
    expect((await graph.getState(f2)).values).toEqual({ v: ["in", "a", "f2"], last: "f2" });
  });

  it("mint channel versions unique across the branches (agentgraph guarantee)", async () => {
    const saver = new MemorySaver();
    const graph = chain(new RunCounter(), saver);
    await graph.invoke({ v: ["in"] }, thread("f"));
    const atB = at(await historyOf(graph, thread("f")), "b");
    const f1 = await saver.getTuple(await graph.updateState(atB.config, { v: ["f1"] }, "a"));
    const f2 = await saver.getTuple(await graph.updateState(atB.config, { v: ["f2"] }, "a"));
    const v1 = f1!.checkpoint.channel_versions.v;
    const v2 = f2!.checkpoint.channel_versions.v;
    expect(v1).toBeDefined();
    expect(v1).not.toEqual(v2);
  });

  it("an edit of a later turn's input (no asNode) counts as input: the first node runs on the edit", async () => {
    const runs = new RunCounter();
    const graph = chain(runs);
    await graph.invoke({ v: ["in"] }, thread("turn"));
    await graph.invoke({ v: ["in2"] }, thread("turn"));
    // the checkpoint after the second turn's input: `__start__` ran last there, not "c"
    const atA = at(await historyOf(graph, thread("turn")), "a");
    expect(atA.metadata?.step).toBe(5);
    const edited = await graph.getState(await graph.updateState(atA.config, { v: ["edit"] }));
    expect(edited.next).toEqual(["a"]);
    expect(edited.metadata).toMatchObject({ source: "update", step: 6 });
    runs.reset();
    expect(await graph.invoke(null, edited.config)).toEqual({
      v: ["in", "a", "b", "c", "in2", "edit", "a", "b", "c"],
      last: "b(a)",
    });
    expect(runs.counts).toEqual({ a: 1, b: 1, c: 1 });
  });

  it('"__copy__" makes a sibling of the copied checkpoint that runs like it', async () => {
    const runs = new RunCounter();
    const graph = chain(runs);
    await graph.invoke({ v: ["in"] }, thread("cp"));
    const history = await historyOf(graph, thread("cp"));
    const atB = at(history, "b");
    const copy = await graph.getState(await graph.updateState(atB.config, null, "__copy__"));
    expect(copy.values).toEqual({ v: ["in", "a"], last: "a" });
    expect(copy.next).toEqual(["b"]);
    expect(copy.metadata).toEqual({ source: "fork", step: 2, parents: {}, thread_id: "cp" });
    expect(checkpointIdOf(copy.parentConfig)).toBe(checkpointIdOf(atB.parentConfig));
    runs.reset();
    expect(await graph.invoke(null, copy.config)).toEqual({ v: ["in", "a", "b", "c"], last: "b(a)" });
    expect(runs.counts).toEqual({ b: 1, c: 1 });
  });

  it("null input at the latest checkpoint named by id re-runs an update's paused node without its answers", async () => {
    // LangGraph.js resumes the head named by id only when a step made it; an updateState (or
    // fork) head is replayed: the node runs again from its start and pauses on its first interrupt
    const build = () =>
      new StateGraph(State)
        .addNode("a", () => ({ v: ["a"] }))
        .addNode("h", () => ({ v: [`h:${interrupt("q1")}:${interrupt("q2")}`] }))
        .addEdge(START, "a")
        .addEdge("a", "h")
        .compile({ checkpointer: new MemorySaver() });
    const graph = build();
    await graph.invoke({ v: ["in"] }, thread("u"));
    await graph.updateState(thread("u"), { v: ["u"] });
    await graph.invoke(new Command({ resume: "r1" }), thread("u"));
    const head = await graph.getState(thread("u"));
    expect(head.metadata?.source).toBe("update");
    expect(await graph.invoke(null, head.config)).toEqual({
      v: ["in", "a", "u"],
      __interrupt__: [{ id: expect.stringMatching(/^[0-9a-f]{32}$/), value: "q1" }],
    });
    // without the id, the same head is resumed (the saved answer serves both interrupts)
    const other = build();
    await other.invoke({ v: ["in"] }, thread("u"));
    await other.updateState(thread("u"), { v: ["u"] });
    await other.invoke(new Command({ resume: "r1" }), thread("u"));
    expect(await other.invoke(null, thread("u"))).toEqual({ v: ["in", "a", "u", "h:r1:r1"] });
  });
});

describe("config.executionInfo", () => {
  function recordingGraph(infos: { node: string; info: ExecutionInfo }[]) {
    const record = (node: string, config: LangGraphRunnableConfig) => {
      infos.push({ node, info: { ...config.executionInfo! } });
    };
    return new StateGraph(State)
      .addNode("a", (_s, config) => {
        record("a", config);
        return { v: ["a"] };
      })
      .addNode("ask", (_s, config) => {
        record("ask", config);
        return { v: [`ask:${interrupt("q")}`] };
      })
      .addEdge(START, "a")
      .addEdge("a", "ask")
      .compile({ checkpointer: new MemorySaver() });
  }

  it("names the task; the same on a resume of that task, new on a fork", async () => {
    const infos: { node: string; info: ExecutionInfo }[] = [];
    const graph = recordingGraph(infos);
    await graph.invoke({ v: ["in"] }, thread("e"));
    await graph.invoke(new Command({ resume: "R" }), thread("e"));
    const [a, ask1, ask2] = infos;
    expect(a!.info).toMatchObject({ threadId: "e", nodeAttempt: 1, checkpointNs: `a:${a!.info.taskId}` });
    expect(ask1!.info.taskId).toBe(ask2!.info.taskId);
    expect(ask1!.info.checkpointId).toBe(ask2!.info.checkpointId);
    expect(ask1!.info.checkpointNs).toBe(`ask:${ask1!.info.taskId}`);
    const atAsk = at(await historyOf(graph, thread("e")), "ask");
    expect(ask1!.info.checkpointId).toBe(checkpointIdOf(atAsk.config));
    infos.length = 0;
    await graph.invoke(null, atAsk.config);
    expect(infos.map((i) => i.node)).toEqual(["ask"]);
    expect(infos[0]!.info.taskId).not.toBe(ask1!.info.taskId);
    expect(infos[0]!.info.checkpointId).not.toBe(ask1!.info.checkpointId);
  });

  it("carries an idempotencyKey, stable across a resume and different after a fork (agentgraph guarantee)", async () => {
    const infos: { node: string; info: ExecutionInfo }[] = [];
    const graph = recordingGraph(infos);
    await graph.invoke({ v: ["in"] }, thread("k"));
    await graph.invoke(new Command({ resume: "R" }), thread("k"));
    const [a, ask1, ask2] = infos;
    expect(typeof a!.info.idempotencyKey).toBe("string");
    expect(typeof ask1!.info.idempotencyKey).toBe("string");
    expect(ask2!.info.idempotencyKey).toBe(ask1!.info.idempotencyKey);
    expect(a!.info.idempotencyKey).not.toBe(ask1!.info.idempotencyKey);
    infos.length = 0;
    await graph.invoke(null, at(await historyOf(graph, thread("k")), "ask").config);
    expect(typeof infos[0]!.info.idempotencyKey).toBe("string");
    expect(infos[0]!.info.idempotencyKey).not.toBe(ask1!.info.idempotencyKey);
  });
});
