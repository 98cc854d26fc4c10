/**
 * getState, getStateHistory and updateState with MemorySaver. Expected values:
 * @langchain/langgraph 1.7.3 (probes /tmp/probe/q4.ts, q4b.ts, p11x.ts).
 */
import { describe, expect, it } from "vitest";
import { Annotation, Command, END, interrupt, MemorySaver, Send, START, StateGraph } from "../../index.js";
import {
  ANY_ID,
  checkpointIdOf,
  historyOf,
  interruptsOf,
  LogState,
  outline,
  RunCounter,
  thread,
} from "./persistence.test-helpers.js";

const State = Annotation.Root({
  v: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  n: Annotation<number>,
});

function chain(runs = new RunCounter()) {
  return new StateGraph(State)
    .addNode("a", () => {
      runs.bump("a");
      return { v: ["a"] };
    })
    .addNode("b", () => {
      runs.bump("b");
      return { v: ["b"], n: 1 };
    })
    .addNode("c", () => {
      runs.bump("c");
      return { v: ["c"] };
    })
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", "c")
    .compile({ checkpointer: new MemorySaver() });
}

describe("getStateHistory", () => {
  it("lists checkpoints newest first, each with values, next, metadata and tasks' results", async () => {
    const graph = chain();
    await graph.invoke({ v: ["in"] }, thread("h"));
    const history = await historyOf(graph, thread("h"));
    expect(
      history.map((s) => ({
        values: s.values,
        next: s.next,
        metadata: s.metadata,
        tasks: s.tasks.map((t) => ({ name: t.name, result: t.result, interrupts: t.interrupts })),
      })),
    ).toEqual([
      { values: { v: ["in", "a", "b", "c"], n: 1 }, next: [], metadata: md(3, "loop"), tasks: [] },
      {
        values: { v: ["in", "a", "b"], n: 1 },
        next: ["c"],
        metadata: md(2, "loop"),
        tasks: [{ name: "c", result: { v: ["c"] }, interrupts: [] }],
      },
      {
        values: { v: ["in", "a"] },
        next: ["b"],
        metadata: md(1, "loop"),
        tasks: [{ name: "b", result: { v: ["b"], n: 1 }, interrupts: [] }],
      },
      {
        values: { v: ["in"] },
        next: ["a"],
        metadata: md(0, "loop"),
        tasks: [{ name: "a", result: { v: ["a"] }, interrupts: [] }],
      },
      {
        values: { v: [] },
        next: ["__start__"],
        metadata: md(-1, "input"),
        tasks: [{ name: "__start__", result: { v: ["in"] }, interrupts: [] }],
      },
    ]);
    // Each snapshot's parent is the next one; the first checkpoint has none.
    for (let i = 0; i < history.length - 1; i++) {
      expect(checkpointIdOf(history[i]!.parentConfig)).toBe(checkpointIdOf(history[i + 1]!.config));
    }
    expect(history.at(-1)!.parentConfig).toBeUndefined();
    expect(history[0]!.config).toEqual({
      configurable: { thread_id: "h", checkpoint_ns: "", checkpoint_id: ANY_ID },
    });
    const created = history.map((s) => s.createdAt!);
    expect([...created].sort().reverse()).toEqual(created);
  });

  it("honours limit, before and filter", async () => {
    const graph = chain();
    await graph.invoke({ v: ["in"] }, thread("h"));
    const all = await historyOf(graph, thread("h"));
    const steps = async (options: Parameters<typeof historyOf>[2]) =>
      (await historyOf(graph, thread("h"), options)).map((s) => s.metadata?.step);
    expect(await steps({ limit: 2 })).toEqual([3, 2]);
    expect(await steps({ before: all[1]!.config })).toEqual([1, 0, -1]);
    expect(await steps({ before: all[1]!.config, limit: 1 })).toEqual([1]);
    expect(await steps({ filter: { source: "input" } })).toEqual([-1]);
    expect(await steps({ filter: { step: 1 } })).toEqual([1]);
    expect(await steps({ filter: { source: "loop", step: 2 } })).toEqual([2]);
  });

  it("from a config with checkpoint_id yields that checkpoint; getState reads any past one", async () => {
    const graph = chain();
    await graph.invoke({ v: ["in"] }, thread("h"));
    const all = await historyOf(graph, thread("h"));
    expect((await historyOf(graph, all[2]!.config)).map((s) => s.metadata?.step)).toEqual([1]);
    const past = await graph.getState(all[2]!.config);
    expect(past.values).toEqual({ v: ["in", "a"] });
    expect(past.next).toEqual(["b"]);
    expect(past.metadata?.step).toBe(1);
  });

  it("a checkpoint a Command's goto was saved on lists the node it sent to as next, with its result", async () => {
    const graph = chain();
    await graph.invoke({ v: ["in"] }, thread("g"));
    await graph.invoke(new Command({ update: { v: ["u"] }, resume: "x", goto: "c" }), thread("g"));
    const [, sentFrom] = await historyOf(graph, thread("g"));
    expect(sentFrom?.metadata?.step).toBe(3);
    expect(sentFrom?.values).toEqual({ v: ["in", "a", "b", "c", "u"], n: 1 });
    expect(sentFrom?.next).toEqual(["c"]);
    expect(sentFrom?.tasks.map((t) => [t.name, t.result])).toEqual([["c", { v: ["c"] }]]);
  });

  it("a goto saved on a checkpoint whose trigger never had a version there adds no next node", async () => {
    // the snapshot applies the saved writes without new versions, as LangGraph.js does
    const graph = chain();
    await graph.invoke({ v: ["in"] }, thread("f"));
    const [first] = (await historyOf(graph, thread("f"))).slice(-1);
    const fork = await graph.updateState(first!.config, { v: ["x"] });
    await graph.invoke(new Command({ goto: "b" }), { ...fork, interruptBefore: ["b"] });
    const forked = await graph.getState(fork);
    expect(forked.metadata?.source).toBe("update");
    expect(forked.next).toEqual(["a"]);
  });
});

describe("updateState", () => {
  it("without asNode counts as the node that ran last", async () => {
    const graph = chain();
    await graph.invoke({ v: ["in"] }, thread("u"));
    const before = await graph.getState(thread("u"));
    const config = await graph.updateState(thread("u"), { v: ["manual"] });
    expect(config).toEqual({ configurable: { thread_id: "u", checkpoint_ns: "", checkpoint_id: ANY_ID } });
    const state = await graph.getState(thread("u"));
    expect(checkpointIdOf(state.config)).toBe(checkpointIdOf(config));
    expect(checkpointIdOf(state.parentConfig)).toBe(checkpointIdOf(before.config));
    expect(state.values).toEqual({ v: ["in", "a", "b", "c", "manual"], n: 1 });
    expect(state.metadata).toEqual({ source: "update", step: 4, parents: {}, thread_id: "u" });
    expect(state.next).toEqual([]);
  });

  it("with asNode applies the values as that node's output and follows its edges", async () => {
    const runs = new RunCounter();
    const graph = chain(runs);
    await graph.invoke({ v: ["in"] }, thread("u"));
    await graph.updateState(thread("u"), { n: 5 }, "c");
    expect((await graph.getState(thread("u"))).values).toEqual({ v: ["in", "a", "b", "c"], n: 5 });
    await graph.updateState(thread("u"), { v: ["again"] }, "a");
    expect((await graph.getState(thread("u"))).next).toEqual(["b"]);
    runs.reset();
    expect(await graph.invoke(null, thread("u"))).toEqual({
      v: ["in", "a", "b", "c", "again", "b", "c"],
      n: 1,
    });
    expect(runs.counts).toEqual({ b: 1, c: 1 });
  });

  it('is ambiguous when several nodes ran last: InvalidUpdateError "Ambiguous update"', async () => {
    const graph = new StateGraph(LogState)
      .addNode("x", () => ({ v: ["x"] }))
      .addNode("y", () => ({ v: ["y"] }))
      .addEdge(START, "x")
      .addEdge(START, "y")
      .compile({ checkpointer: new MemorySaver() });
    await graph.invoke({ v: [] }, thread("amb"));
    await expect(graph.updateState(thread("amb"), { v: ["?"] })).rejects.toMatchObject({
      name: "InvalidUpdateError",
      message: expect.stringMatching(/^Ambiguous update, specify "asNode"/),
    });
    await graph.updateState(thread("amb"), { v: ["!"] }, "x");
    expect((await graph.getState(thread("amb"))).values).toEqual({ v: ["x", "y", "!"] });
  });

  it("refuses an unknown asNode", async () => {
    const graph = chain();
    await graph.invoke({ v: ["in"] }, thread("u"));
    await expect(graph.updateState(thread("u"), { n: 1 }, "zzz")).rejects.toMatchObject({
      name: "InvalidUpdateError",
      message: expect.stringMatching(/^Node "zzz" does not exist/),
    });
  });

  it("on an empty thread counts as input to the first node", async () => {
    const graph = chain();
    const config = await graph.updateState(thread("empty"), { v: ["seed"] });
    expect(config.configurable?.checkpoint_ns).toBe("");
    const state = await graph.getState(thread("empty"));
    expect(state.values).toEqual({ v: ["seed"] });
    expect(state.next).toEqual(["a"]);
    expect(state.metadata).toEqual({ source: "update", step: 0, parents: {}, thread_id: "empty" });
    expect(await graph.invoke(null, thread("empty"))).toEqual({ v: ["seed", "a", "b", "c"], n: 1 });
  });

  it("on an empty thread of a one-node graph counts as input too (the `__start__` node counts)", async () => {
    const graph = new StateGraph(State)
      .addNode("only", () => ({ n: 1 }))
      .addEdge(START, "only")
      .compile({ checkpointer: new MemorySaver() });
    await graph.updateState(thread("one"), { v: ["seed"] });
    expect((await graph.getState(thread("one"))).next).toEqual(["only"]);
    expect(await graph.invoke(null, thread("one"))).toEqual({ v: ["seed"], n: 1 });
    // once the node has run, an update counts as its output: nothing is left to run
    await graph.updateState(thread("one"), { n: 2 });
    expect((await graph.getState(thread("one"))).next).toEqual([]);
  });

  it("of a checkpoint_id the thread does not have starts from an empty state, that id as parent", async () => {
    const graph = chain();
    await graph.invoke({ v: ["in"] }, thread("gone"));
    const missing = "1ef00000-0000-6000-8000-000000000000";
    const config = await graph.updateState(
      { configurable: { thread_id: "gone", checkpoint_id: missing } },
      { v: ["seed"] },
    );
    const state = await graph.getState(config);
    expect(state.values).toEqual({ v: ["seed"] });
    expect(state.next).toEqual(["a"]);
    expect(state.parentConfig).toEqual({
      configurable: { thread_id: "gone", checkpoint_ns: "", checkpoint_id: missing },
    });
  });

  it('"__input__" applies the values as new graph input', async () => {
    const graph = chain();
    await graph.updateState(thread("in"), { v: ["seed"] }, "__input__");
    const state = await graph.getState(thread("in"));
    expect(state.values).toEqual({ v: [] });
    expect(state.next).toEqual(["__start__"]);
    expect(state.metadata).toEqual({ source: "input", step: -1, parents: {}, thread_id: "in" });
    expect(await graph.invoke(null, thread("in"))).toEqual({ v: ["seed", "a", "b", "c"], n: 1 });
  });

  it('"__copy__" forks the checkpoint unchanged with source "fork", ignoring the values', async () => {
    const graph = chain();
    await graph.invoke({ v: ["in"] }, thread("cp"));
    const copy = await graph.updateState(thread("cp"), { v: ["ignored"] }, "__copy__");
    const state = await graph.getState(copy);
    expect(state.values).toEqual({ v: ["in", "a", "b", "c"], n: 1 });
    expect(state.next).toEqual([]);
    expect(state.metadata).toEqual({ source: "fork", step: 4, parents: {}, thread_id: "cp" });
  });
});

describe("updateState on a thread paused by interrupt()", () => {
  function askGraph(runs: RunCounter) {
    return new StateGraph(LogState)
      .addNode("a", () => ({ v: ["a"] }))
      .addNode("ask", (s) => {
        runs.bump("ask");
        return { v: [`ask:${interrupt("q")}:${s.v.join("+")}`] };
      })
      .addEdge(START, "a")
      .addEdge("a", "ask")
      .compile({ checkpointer: new MemorySaver() });
  }

  it("keeps the node pending (its interrupt is cleared), and a resume runs it on the new state", async () => {
    const runs = new RunCounter();
    const graph = askGraph(runs);
    await graph.invoke({ v: ["in"] }, thread("p"));
    await graph.updateState(thread("p"), { v: ["patched"] });
    const state = await graph.getState(thread("p"));
    expect(state.values).toEqual({ v: ["in", "a", "patched"] });
    expect(state.next).toEqual(["ask"]);
    expect(state.metadata).toEqual({ source: "update", step: 2, parents: {}, thread_id: "p" });
    expect(state.tasks.map((t) => [t.name, t.interrupts])).toEqual([["ask", []]]);
    expect(await graph.invoke(new Command({ resume: "R" }), thread("p"))).toEqual({
      v: ["in", "a", "patched", "ask:R:in+a+patched"],
    });
  });

  it("as the interrupted node answers for it: nothing is left to run", async () => {
    const runs = new RunCounter();
    const graph = askGraph(runs);
    const paused = await graph.invoke({ v: ["in"] }, thread("p"));
    expect(interruptsOf(paused)).toHaveLength(1);
    await graph.updateState(thread("p"), { v: ["manual-ask"] }, "ask");
    const state = await graph.getState(thread("p"));
    expect(state.values).toEqual({ v: ["in", "a", "manual-ask"] });
    expect(state.next).toEqual([]);
    expect(await graph.invoke(null, thread("p"))).toEqual({ v: ["in", "a", "manual-ask"] });
    expect(runs.counts).toEqual({ ask: 1 });
    expect(outline(await historyOf(graph, thread("p")))).toEqual([
      "2:update:",
      "1:loop:ask",
      "0:loop:a",
      "-1:input:__start__",
    ]);
  });
});

describe("updateState on a paused step: what finished is applied, and the step ends", () => {
  // a → b and c in parallel; b waits for an answer unless "r" is in the log
  function parallel(runs: RunCounter) {
    return new StateGraph(LogState)
      .addNode("a", () => ({ v: ["a"] }))
      .addNode("b", (s) => {
        runs.bump("b");
        if (!s.v.includes("r")) interrupt("wait");
        return { v: ["b"] };
      })
      .addNode("c", () => {
        runs.bump("c");
        return { v: ["c"] };
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("a", "c")
      .compile({ checkpointer: new MemorySaver() });
  }
  // a → b → c, paused before b
  function paused() {
    return new StateGraph(LogState)
      .addNode("a", () => ({ v: ["a"] }))
      .addNode("b", () => ({ v: ["b"] }))
      .addNode("c", () => ({ v: ["c"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", "c")
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ["b"] });
  }
  // a → b and c, paused before both, then d once both ran
  function join() {
    return new StateGraph(LogState)
      .addNode("a", () => ({ v: ["a"] }))
      .addNode("b", () => ({ v: ["b"] }))
      .addNode("c", () => ({ v: ["c"] }))
      .addNode("d", () => ({ v: ["d"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("a", "c")
      .addEdge(["b", "c"], "d")
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ["b", "c"] });
  }
  const history = ["1:loop:b,c", "0:loop:a", "-1:input:__start__"];

  it("applies the writes of the tasks that finished, then the update; the interrupted task is dropped", async () => {
    for (const asNode of [undefined, "b"]) {
      const runs = new RunCounter();
      const graph = parallel(runs);
      await graph.invoke({ v: [] }, thread("p"));
      await graph.updateState(thread("p"), { v: ["r"] }, asNode);
      const state = await graph.getState(thread("p"));
      expect(state.values, String(asNode)).toEqual({ v: ["a", "c", "r"] });
      expect(state.next).toEqual([]);
      expect(await graph.invoke(null, thread("p"))).toEqual({ v: ["a", "c", "r"] });
      expect(runs.counts).toEqual({ b: 1, c: 1 });
      expect(outline(await historyOf(graph, thread("p")))).toEqual(["2:update:", ...history]);
    }
  });

  it("null as END ends the step: finished tasks' writes applied, the rest counted as done", async () => {
    const graph = parallel(new RunCounter());
    await graph.invoke({ v: [] }, thread("e"));
    await graph.updateState(thread("e"), null, END);
    expect(await graph.invoke(null, thread("e"))).toEqual({ v: ["a", "c"] });
    expect(outline(await historyOf(graph, thread("e")))).toEqual(["2:update:", ...history]);

    const before = paused();
    await before.invoke({ v: [] }, thread("e2"));
    await before.updateState(thread("e2"), null, END);
    expect((await before.getState(thread("e2"))).next).toEqual([]);
    expect(await before.invoke(null, thread("e2"))).toEqual({ v: ["a"] });
  });

  it("an update as a node other than the pending one ends the pending trigger", async () => {
    const graph = paused();
    await graph.invoke({ v: [] }, thread("c"));
    await graph.updateState(thread("c"), { v: ["u"] }, "c");
    expect((await graph.getState(thread("c"))).next).toEqual([]);
    expect(await graph.invoke(null, thread("c"))).toEqual({ v: ["a", "u"] });

    const both = join();
    await both.invoke({ v: [] }, thread("j"));
    await both.updateState(thread("j"), { v: ["u"] }, "b");
    expect((await both.getState(thread("j"))).next).toEqual([]);
    expect(await both.invoke(null, thread("j"))).toEqual({ v: ["a", "u"] });
  });

  it("as the pending node, its edges decide what runs next", async () => {
    const graph = paused();
    await graph.invoke({ v: [] }, thread("b"));
    await graph.updateState(thread("b"), { v: ["u"] }, "b");
    expect((await graph.getState(thread("b"))).next).toEqual(["c"]);
    expect(await graph.invoke(null, thread("b"))).toEqual({ v: ["a", "u", "c"] });
  });

  it("null with no asNode saves a copy: the pending task still runs", async () => {
    const graph = paused();
    await graph.invoke({ v: [] }, thread("n"));
    await graph.updateState(thread("n"), undefined);
    const state = await graph.getState(thread("n"));
    expect(state.values).toEqual({ v: ["a"] });
    expect(state.next).toEqual(["b"]);
    expect(state.metadata).toEqual({ source: "update", step: 2, parents: {}, thread_id: "n" });
    expect(await graph.invoke(null, thread("n"))).toEqual({ v: ["a", "b", "c"] });
  });

  it("bulkUpdateState: updates of one superstep count as one step, each superstep is a checkpoint", async () => {
    const graph = join();
    await graph.invoke({ v: [] }, thread("k"));
    await graph.bulkUpdateState(thread("k"), [
      {
        updates: [
          { values: { v: ["ub"] }, asNode: "b" },
          { values: { v: ["uc"] }, asNode: "c" },
        ],
      },
    ]);
    expect((await graph.getState(thread("k"))).next).toEqual(["d"]);
    expect(await graph.invoke(null, thread("k"))).toEqual({ v: ["a", "ub", "uc", "d"] });
    expect(outline(await historyOf(graph, thread("k")))).toEqual(["3:loop:", "2:update:d", ...history]);

    const steps = join();
    await steps.invoke({ v: [] }, thread("k2"));
    await steps.bulkUpdateState(thread("k2"), [
      { updates: [{ values: { v: ["ub"] }, asNode: "b" }] },
      { updates: [{ values: { v: ["uc"] }, asNode: "c" }] },
    ]);
    expect(await steps.invoke(null, thread("k2"))).toEqual({ v: ["a", "ub", "uc", "d"] });
    expect(outline(await historyOf(steps, thread("k2")))).toEqual([
      "4:loop:",
      "3:update:d",
      "2:update:",
      ...history,
    ]);
  });

  it('"__copy__" with [values, asNode] pairs forks, then applies them as one step', async () => {
    const graph = join();
    await graph.invoke({ v: [] }, thread("f"));
    await graph.updateState(
      thread("f"),
      [
        [{ v: ["ub"] }, "b"],
        [{ v: ["uc"] }, "c"],
      ],
      "__copy__",
    );
    expect(outline(await historyOf(graph, thread("f")))).toEqual(["3:update:d", "2:fork:b,c", ...history]);
    expect(await graph.invoke(null, thread("f"))).toEqual({ v: ["a", "ub", "uc", "d"] });
  });

  it("refuses malformed bulk updates with the reference's errors", async () => {
    const graph = join();
    await graph.invoke({ v: [] }, thread("x"));
    const cases: [Parameters<typeof graph.bulkUpdateState>[1], string][] = [
      [[], "No supersteps provided"],
      [[{ updates: [] }], "No updates provided"],
      [
        [{ updates: [{ values: { v: ["x"] } }, { values: { v: ["y"] }, asNode: "b" }] }],
        '"asNode" is required when applying multiple updates',
      ],
      [
        [
          {
            updates: [
              { values: null, asNode: END },
              { values: null, asNode: END },
            ],
          },
        ],
        "Cannot apply multiple updates when clearing state",
      ],
      [
        [{ updates: [{ values: null }, { values: null, asNode: "b" }] }],
        "Cannot create empty checkpoint with multiple updates",
      ],
    ];
    for (const [supersteps, message] of cases) {
      await expect(graph.bulkUpdateState(thread("x"), supersteps)).rejects.toMatchObject({
        name: "InvalidUpdateError",
        message,
      });
    }
    await expect(graph.updateState(thread("none"), {}, "__copy__")).rejects.toThrow(
      "Cannot copy a non-existent checkpoint",
    );
  });
});

function md(step: number, source: string) {
  return { source, step, parents: {}, thread_id: "h" };
}

describe("getState after a Command({ resume, goto })", () => {
  it("lists the node the goto sent the run to, with the interrupt it raised", async () => {
    let xCalls = 0;
    const graph = new StateGraph(State)
      .addNode("x", () => {
        xCalls += 1;
        if (xCalls === 1) return { v: ["x1"] };
        return { v: [`x:${String(interrupt("qx"))}`] };
      })
      .addNode("s", () => ({ v: [`s:${String(interrupt("qs"))}`] }), { ends: ["x"] })
      .addEdge(START, "x")
      .addConditionalEdges("x", () => [new Send("s", { v: [] })])
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    await graph.invoke({ v: [] }, config);
    const paused = await graph.getState(config);
    const id = paused.tasks[0]?.interrupts[0]?.id as string;
    const out = await graph.invoke(new Command({ resume: { [id]: "v" }, goto: "x" }), config);
    expect(out.v).toEqual(["x1", "s:v"]);
    const state = await graph.getState(config);
    expect(state.next).toEqual(["x"]);
    expect(state.tasks.map((t) => [t.name, t.path, t.interrupts.map((i) => i.value)])).toEqual([
      ["s", ["__pregel_push", 0, false], ["qs"]],
      ["x", ["__pregel_pull", "x"], ["qx"]],
    ]);
  });
});
