/**
 * interrupt() and Command({ resume }) with MemorySaver: what invoke, stream and getState report,
 * and which code runs again on resume. Expected values: @langchain/langgraph 1.7.3
 * (probes /tmp/probe/q1.ts, q2.ts, q10.ts, q11.ts, p9x.ts).
 */
import { describe, expect, it } from "vitest";
import { Command, END, interrupt, isInterrupted, MemorySaver, Send, START, StateGraph } from "../../index.js";
import {
  ANY_ID,
  checkpointIdOf,
  collect,
  historyOf,
  INTERRUPT_ID,
  interruptsOf,
  LogState,
  outline,
  RunCounter,
  thread,
} from "./persistence.test-helpers.js";

/** a → ask (one interrupt) → END. */
function askGraph(runs: RunCounter) {
  return new StateGraph(LogState)
    .addNode("a", () => {
      runs.bump("a");
      return { v: ["a"] };
    })
    .addNode("ask", () => {
      runs.bump("ask");
      const answer = interrupt({ q: "name?" });
      runs.bump("ask-after");
      return { v: [`ans:${answer}`] };
    })
    .addEdge(START, "a")
    .addEdge("a", "ask")
    .addEdge("ask", END)
    .compile({ checkpointer: new MemorySaver() });
}

/** x and y interrupt, z finishes, all three in step 0; w joins them. */
function parallelGraph(runs: RunCounter) {
  return new StateGraph(LogState)
    .addNode("x", () => {
      runs.bump("x");
      return { v: [`x:${interrupt("x?")}`] };
    })
    .addNode("y", () => {
      runs.bump("y");
      return { v: [`y:${interrupt("y?")}`] };
    })
    .addNode("z", () => {
      runs.bump("z");
      return { v: ["z"] };
    })
    .addNode("w", () => {
      runs.bump("w");
      return { v: ["w"] };
    })
    .addEdge(START, "x")
    .addEdge(START, "y")
    .addEdge(START, "z")
    .addEdge(["x", "y", "z"], "w")
    .compile({ checkpointer: new MemorySaver() });
}

describe("interrupt()", () => {
  it("makes invoke return the state with __interrupt__: [{ id, value }]", async () => {
    const graph = askGraph(new RunCounter());
    const result = await graph.invoke({ v: ["in"] }, thread("t1"));
    expect(result).toEqual({ v: ["in", "a"], __interrupt__: [{ id: ANY_ID, value: { q: "name?" } }] });
    const [first] = interruptsOf(result);
    expect(Object.keys(first!)).toEqual(["id", "value"]);
    expect(first!.id).toMatch(INTERRUPT_ID);
    expect(isInterrupted(result)).toBe(true);
  });

  it("keeps the interrupt id of a task stable, and differs across threads", async () => {
    const runs = new RunCounter();
    const graph = askGraph(runs);
    const [first] = interruptsOf(await graph.invoke({ v: ["in"] }, thread("t1")));
    const state = await graph.getState(thread("t1"));
    expect(state.tasks[0]!.interrupts).toEqual([first]);
    // Running again without an answer re-runs the node and raises the same interrupt.
    expect(interruptsOf(await graph.invoke(null, thread("t1")))).toEqual([first]);
    expect(runs.counts).toEqual({ a: 1, ask: 2 });
    const [other] = interruptsOf(await graph.invoke({ v: ["in"] }, thread("t2")));
    expect(other!.id).toMatch(INTERRUPT_ID);
    expect(other!.id).not.toBe(first!.id);
  });

  it("streams { __interrupt__ } as an updates chunk and as a values chunk", async () => {
    const graph = askGraph(new RunCounter());
    const updates = await collect(graph.stream({ v: ["x"] }, thread("s1")));
    expect(updates).toEqual([
      { a: { v: ["a"] } },
      { __interrupt__: [{ id: ANY_ID, value: { q: "name?" } }] },
    ]);
    const values = await collect(graph.stream({ v: ["x"] }, { ...thread("s2"), streamMode: "values" }));
    expect(values).toEqual([
      { v: ["x"] },
      { v: ["x", "a"] },
      { __interrupt__: [{ id: ANY_ID, value: { q: "name?" } }] },
    ]);
    const resumed = await collect(
      graph.stream(new Command({ resume: 1 }), { ...thread("s2"), streamMode: "values" }),
    );
    expect(resumed).toEqual([{ v: ["x", "a"] }, { v: ["x", "a", "ans:1"] }]);
  });

  it("leaves a snapshot with the pending task, its interrupts and the checkpoint's metadata", async () => {
    const graph = askGraph(new RunCounter());
    const result = await graph.invoke({ v: ["in"] }, thread("t1"));
    const state = await graph.getState(thread("t1"));
    expect(state.values).toEqual({ v: ["in", "a"] });
    expect(state.next).toEqual(["ask"]);
    expect(state.tasks).toEqual([
      { id: ANY_ID, name: "ask", path: ["__pregel_pull", "ask"], interrupts: interruptsOf(result) },
    ]);
    expect(state.metadata).toEqual({ source: "loop", step: 1, parents: {}, thread_id: "t1" });
    expect(state.config).toEqual({
      configurable: { thread_id: "t1", checkpoint_ns: "", checkpoint_id: ANY_ID },
    });
    expect(state.parentConfig).toEqual({
      configurable: { thread_id: "t1", checkpoint_ns: "", checkpoint_id: ANY_ID },
    });
    expect(typeof state.createdAt).toBe("string");
    expect(Number.isNaN(Date.parse(state.createdAt!))).toBe(false);
    const history = await historyOf(graph, thread("t1"));
    expect(checkpointIdOf(state.parentConfig)).toBe(checkpointIdOf(history[1]!.config));
  });

  it("resumes with a scalar: the node runs again from its start and gets the answer", async () => {
    const runs = new RunCounter();
    const graph = askGraph(runs);
    await graph.invoke({ v: ["in"] }, thread("t1"));
    expect(await graph.invoke(new Command({ resume: "bob" }), thread("t1"))).toEqual({
      v: ["in", "a", "ans:bob"],
    });
    expect(runs.counts).toEqual({ a: 1, ask: 2, "ask-after": 1 });
    const state = await graph.getState(thread("t1"));
    expect(state.next).toEqual([]);
    expect(state.tasks).toEqual([]);
    expect(outline(await historyOf(graph, thread("t1")))).toEqual([
      "2:loop:",
      "1:loop:ask",
      "0:loop:a",
      "-1:input:__start__",
    ]);
    // A resume on a finished thread runs nothing and returns the state.
    expect(await graph.invoke(new Command({ resume: "again" }), thread("t1"))).toEqual({
      v: ["in", "a", "ans:bob"],
    });
    expect(runs.counts).toEqual({ a: 1, ask: 2, "ask-after": 1 });
  });
});

describe("several interrupts in one node", () => {
  function threeQuestions(log: string[]) {
    return new StateGraph(LogState)
      .addNode("ask", () => {
        log.push("start");
        const a = interrupt("first");
        log.push(`got1:${a}`);
        const b = interrupt("second");
        log.push(`got2:${b}`);
        const c = interrupt("third");
        log.push(`got3:${c}`);
        return { v: [`${a},${b},${c}`] };
      })
      .addEdge(START, "ask")
      .compile({ checkpointer: new MemorySaver() });
  }

  const replayLog = [
    "start",
    "start",
    "got1:A",
    "start",
    "got1:A",
    "got2:B",
    "start",
    "got1:A",
    "got2:B",
    "got3:C",
  ];

  it("are answered one by one with scalars: earlier answers are replayed in order", async () => {
    const log: string[] = [];
    const graph = threeQuestions(log);
    const results = [await graph.invoke({ v: [] }, thread("m"))];
    for (const answer of ["A", "B", "C"])
      results.push(await graph.invoke(new Command({ resume: answer }), thread("m")));
    expect(results).toEqual([
      { v: [], __interrupt__: [{ id: ANY_ID, value: "first" }] },
      { v: [], __interrupt__: [{ id: ANY_ID, value: "second" }] },
      { v: [], __interrupt__: [{ id: ANY_ID, value: "third" }] },
      { v: ["A,B,C"] },
    ]);
    expect(log).toEqual(replayLog);
    const ids = results.slice(0, 3).map((r) => interruptsOf(r)[0]!.id);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(INTERRUPT_ID);
  });

  it("are answered one by one with maps keyed by interrupt id", async () => {
    const log: string[] = [];
    const graph = threeQuestions(log);
    let result = await graph.invoke({ v: [] }, thread("m"));
    for (const answer of ["A", "B", "C"]) {
      const [pending] = interruptsOf(result);
      const state = await graph.getState(thread("m"));
      expect(state.tasks[0]!.interrupts).toEqual([pending]);
      result = await graph.invoke(new Command({ resume: { [pending!.id]: answer } }), thread("m"));
    }
    expect(result).toEqual({ v: ["A,B,C"] });
    expect(log).toEqual(replayLog);
  });

  it("are numbered by the answers so far, not by calls whose interrupt the node caught", async () => {
    // a wrapper that retries a failed call (a tool's interrupt caught and the tool run again)
    const graph = new StateGraph(LogState)
      .addNode("ask", () => {
        try {
          interrupt("caught");
        } catch {
          // swallowed
        }
        return { v: [String(interrupt("asked"))] };
      })
      .addEdge(START, "ask")
      .compile({ checkpointer: new MemorySaver() });
    const first = await graph.invoke({ v: [] }, thread("c"));
    const again = await graph.invoke(new Command({ resume: "A" }), thread("c"));
    const [pending] = interruptsOf(first);
    const [next] = interruptsOf(again);
    // LangGraph.js: the first pause is numbered 0 (no answers yet), the second 1
    expect([pending?.value, next?.value]).toEqual(["asked", "asked"]);
    expect(next?.id).not.toBe(pending?.id);
  });

  it("keep the node in next while it waits for its second answer (documented difference)", async () => {
    const graph = threeQuestions([]);
    await graph.invoke({ v: [] }, thread("m"));
    await graph.invoke(new Command({ resume: "A" }), thread("m"));
    const state = await graph.getState(thread("m"));
    expect(state.next).toEqual(["ask"]);
    expect(state.tasks.map((t) => t.interrupts.map((i) => i.value))).toEqual([["second"]]);
  });
});

describe("interrupts of parallel tasks", () => {
  it("are merged; values include the writes of tasks that finished, next excludes them", async () => {
    const runs = new RunCounter();
    const graph = parallelGraph(runs);
    const result = await graph.invoke({ v: ["in"] }, thread("p"));
    expect(result).toEqual({
      v: ["in", "z"],
      __interrupt__: [
        { id: ANY_ID, value: "x?" },
        { id: ANY_ID, value: "y?" },
      ],
    });
    expect(runs.counts).toEqual({ x: 1, y: 1, z: 1 });
    const state = await graph.getState(thread("p"));
    expect(state.values).toEqual({ v: ["in", "z"] });
    expect(state.next).toEqual(["x", "y"]);
    const [ix, iy] = interruptsOf(result);
    expect(state.tasks.map(({ name, interrupts, result: r }) => ({ name, interrupts, result: r }))).toEqual([
      { name: "x", interrupts: [ix], result: undefined },
      { name: "y", interrupts: [iy], result: undefined },
      { name: "z", interrupts: [], result: { v: ["z"] } },
    ]);
    expect(state.metadata).toEqual({ source: "loop", step: 0, parents: {}, thread_id: "p" });
  });

  it("resumed by id answer only that interrupt; finished siblings are not re-run", async () => {
    const runs = new RunCounter();
    const graph = parallelGraph(runs);
    const [ix, iy] = interruptsOf(await graph.invoke({ v: ["in"] }, thread("p")));
    const second = await graph.invoke(new Command({ resume: { [iy!.id]: "B" } }), thread("p"));
    expect(second).toEqual({ v: ["in", "y:B", "z"], __interrupt__: [ix] });
    expect(runs.counts).toEqual({ x: 2, y: 2, z: 1 });
    const state = await graph.getState(thread("p"));
    expect(state.next).toEqual(["x"]);
    expect(state.tasks.map((t) => [t.name, t.result])).toEqual([
      ["x", undefined],
      ["y", { v: ["y:B"] }],
      ["z", { v: ["z"] }],
    ]);
    const done = await graph.invoke(new Command({ resume: { [ix!.id]: "A" } }), thread("p"));
    expect(done).toEqual({ v: ["in", "x:A", "y:B", "z", "w"] });
    expect(runs.counts).toEqual({ x: 3, y: 2, z: 1, w: 1 });
    expect(outline(await historyOf(graph, thread("p")))).toEqual([
      "2:loop:",
      "1:loop:w",
      "0:loop:x,y,z",
      "-1:input:__start__",
    ]);
  });

  it("resumed with a scalar answer every pending interrupt once", async () => {
    const runs = new RunCounter();
    const graph = parallelGraph(runs);
    await graph.invoke({ v: [] }, thread("p"));
    expect(await graph.invoke(new Command({ resume: "S" }), thread("p"))).toEqual({
      v: ["x:S", "y:S", "z", "w"],
    });
    expect(runs.counts).toEqual({ x: 2, y: 2, z: 1, w: 1 });
  });

  it("resumed with a map naming both interrupts answer both", async () => {
    const runs = new RunCounter();
    const graph = parallelGraph(runs);
    const [ix, iy] = interruptsOf(await graph.invoke({ v: [] }, thread("p")));
    const done = await graph.invoke(new Command({ resume: { [ix!.id]: 1, [iy!.id]: 2 } }), thread("p"));
    expect(done).toEqual({ v: ["x:1", "y:2", "z", "w"] });
    expect(runs.counts).toEqual({ x: 2, y: 2, z: 1, w: 1 });
  });

  it("raised by Send tasks are merged and listed with push paths", async () => {
    const graph = new StateGraph(LogState)
      .addNode("fan", () => ({}))
      .addNode("worker", (s) => ({ v: [`w${s.v[0]}:${interrupt(`w${s.v[0]}?`)}`] }))
      .addEdge(START, "fan")
      .addConditionalEdges("fan", () => [new Send("worker", { v: ["1"] }), new Send("worker", { v: ["2"] })])
      .compile({ checkpointer: new MemorySaver() });
    const result = await graph.invoke({ v: [] }, thread("s"));
    expect(result).toEqual({
      v: [],
      __interrupt__: [
        { id: ANY_ID, value: "w1?" },
        { id: ANY_ID, value: "w2?" },
      ],
    });
    const state = await graph.getState(thread("s"));
    expect(state.next).toEqual(["worker", "worker"]);
    expect(state.tasks.map((t) => ({ path: t.path, values: t.interrupts.map((i) => i.value) }))).toEqual([
      { path: ["__pregel_push", 0, false], values: ["w1?"] },
      { path: ["__pregel_push", 1, false], values: ["w2?"] },
    ]);
    expect(await graph.invoke(new Command({ resume: "ok" }), thread("s"))).toEqual({ v: ["w1:ok", "w2:ok"] });
  });

  it("stream one { __interrupt__ } chunk per interrupted task, then the state with the finished writes", async () => {
    const graph = parallelGraph(new RunCounter());
    const chunks = await collect(
      graph.stream({ v: [] }, { ...thread("p"), streamMode: ["updates", "values"] }),
    );
    const updates = chunks
      .filter((c) => (c as [string, unknown])[0] === "updates")
      .map((c) => (c as unknown[])[1]);
    expect(updates).toHaveLength(3);
    expect(updates).toEqual(
      expect.arrayContaining([
        { __interrupt__: [{ id: ANY_ID, value: "x?" }] },
        { __interrupt__: [{ id: ANY_ID, value: "y?" }] },
        { z: { v: ["z"] } },
      ]),
    );
    expect(chunks[0]).toEqual(["values", { v: [] }]);
    expect(chunks.at(-1)).toEqual(["values", { v: ["z"] }]);
  });

  it("stream an interrupt in updates and values mode as two chunks (one list for an interrupt(), two for a breakpoint)", async () => {
    // as LangGraph.js: a consumer that changes one chunk does not change the other
    const pick = (chunks: unknown[], mode: string) =>
      (chunks as [string, { __interrupt__?: unknown[] }][]).find(
        (c) => c[0] === mode && "__interrupt__" in c[1],
      )?.[1];
    const asked = await collect(
      askGraph(new RunCounter()).stream({ v: [] }, { ...thread("iu"), streamMode: ["updates", "values"] }),
    );
    const [askUpdate, askValues] = [pick(asked, "updates"), pick(asked, "values")];
    expect(askValues).toEqual({ __interrupt__: [{ id: ANY_ID, value: { q: "name?" } }] });
    expect(askValues).not.toBe(askUpdate);
    expect(askValues?.__interrupt__).toBe(askUpdate?.__interrupt__);
    const paused = new StateGraph(LogState)
      .addNode("a", () => ({ v: ["a"] }))
      .addEdge(START, "a")
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ["a"] });
    const stopped = await collect(
      paused.stream({ v: [] }, { ...thread("ib"), streamMode: ["updates", "values"] }),
    );
    const [stopUpdate, stopValues] = [pick(stopped, "updates"), pick(stopped, "values")];
    expect(stopValues).toEqual({ __interrupt__: [] });
    expect(stopValues).not.toBe(stopUpdate);
    expect(stopValues?.__interrupt__).not.toBe(stopUpdate?.__interrupt__);
  });

  it("stream the writes of the finished sibling as a cached update on resume", async () => {
    const graph = parallelGraph(new RunCounter());
    await graph.invoke({ v: [] }, thread("p"));
    const chunks = await collect(
      graph.stream(new Command({ resume: "S" }), { ...thread("p"), streamMode: "updates" }),
    );
    expect(chunks).toEqual([
      { z: { v: ["z"] }, __metadata__: { cached: true } },
      { x: { v: ["x:S"] } },
      { y: { v: ["y:S"] } },
      { w: { v: ["w"] } },
    ]);
  });
});

describe("Command input on an interrupted thread", () => {
  it("with update and resume applies the update, then resumes the node", async () => {
    const runs = new RunCounter();
    const graph = new StateGraph(LogState)
      .addNode("a", () => ({ v: ["a"] }))
      .addNode("ask", (s) => {
        runs.bump("ask");
        return { v: [`ask:${interrupt("q")}:${s.v.join("+")}`] };
      })
      .addEdge(START, "a")
      .addEdge("a", "ask")
      .compile({ checkpointer: new MemorySaver() });
    await graph.invoke({ v: ["in"] }, thread("u"));
    const chunks = await collect(
      graph.stream(new Command({ resume: "R", update: { v: ["upd"] } }), {
        ...thread("u"),
        streamMode: ["updates", "values"],
      }),
    );
    expect(chunks).toEqual([
      ["values", { v: ["in", "a", "upd"] }],
      ["updates", { ask: { v: ["ask:R:in+a+upd"] } }],
      ["values", { v: ["in", "a", "upd", "ask:R:in+a+upd"] }],
    ]);
    expect(runs.counts).toEqual({ ask: 2 });
    const state = await graph.getState(thread("u"));
    expect(state.values).toEqual({ v: ["in", "a", "upd", "ask:R:in+a+upd"] });
    expect(state.next).toEqual([]);
    expect(outline(await historyOf(graph, thread("u")))).toEqual([
      "2:loop:",
      "1:loop:ask",
      "0:loop:a",
      "-1:input:__start__",
    ]);
  });

  it("with only an update re-runs the interrupted node, which interrupts again", async () => {
    const runs = new RunCounter();
    const graph = new StateGraph(LogState)
      .addNode("ask", () => {
        runs.bump("ask");
        return { v: [`ask:${interrupt("q")}`] };
      })
      .addEdge(START, "ask")
      .compile({ checkpointer: new MemorySaver() });
    await graph.invoke({ v: ["in"] }, thread("u"));
    const result = await graph.invoke(new Command({ update: { v: ["upd"] } }), thread("u"));
    expect(result).toEqual({ v: ["in", "upd"], __interrupt__: [{ id: ANY_ID, value: "q" }] });
    expect(runs.counts).toEqual({ ask: 2 });
    expect((await graph.getState(thread("u"))).next).toEqual(["ask"]);
  });

  it("that is empty is an EmptyInputError", async () => {
    const graph = askGraph(new RunCounter());
    await graph.invoke({ v: [] }, thread("e"));
    await expect(graph.invoke(new Command({}), thread("e"))).rejects.toMatchObject({
      name: "EmptyInputError",
      message: expect.stringMatching(/^Received empty Command input/),
    });
  });

  it("whose resume is null is an empty Command too (EmptyInputError)", async () => {
    const runs = new RunCounter();
    const graph = askGraph(runs);
    await graph.invoke({ v: [] }, thread("e"));
    await expect(graph.invoke(new Command({ resume: null }), thread("e"))).rejects.toMatchObject({
      name: "EmptyInputError",
      message: expect.stringMatching(/^Received empty Command input/),
    });
    expect(runs.counts).toEqual({ a: 1, ask: 1 });
  });
});
