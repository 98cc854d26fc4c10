/**
 * The functional API with a checkpointer: entrypoint + task + interrupt, and the previous value
 * of a thread. Expected values: @langchain/langgraph 1.7.3 (probe /tmp/probe/q7.ts).
 */
import { describe, expect, it } from "vitest";
import { Command, entrypoint, getPreviousState, interrupt, MemorySaver, task } from "../../index.js";
import {
  ANY_ID,
  collect,
  historyOf,
  interruptsOf,
  outline,
  RunCounter,
  thread,
} from "./persistence.test-helpers.js";

/** An entrypoint's `invoke`/`stream` take its input, a `Command`, or `null` (as in LangGraph.js). */
const resume = (value: unknown) => new Command({ resume: value });

/** step1 → interrupt → step2. */
function workflow(runs: RunCounter, saver = new MemorySaver()) {
  const step1 = task("step1", async (x: string) => {
    runs.bump("step1");
    return `s1(${x})`;
  });
  const step2 = task("step2", async (x: string) => {
    runs.bump("step2");
    return `s2(${x})`;
  });
  return entrypoint({ name: "wf", checkpointer: saver }, async (input: string) => {
    runs.bump("entry");
    const a = await step1(input);
    const answer = interrupt({ ask: a });
    return step2(`${a}+${answer}`);
  });
}

describe("entrypoint with interrupt()", () => {
  it("returns { __interrupt__ } and leaves the entrypoint task pending", async () => {
    const runs = new RunCounter();
    const wf = workflow(runs);
    const result = await wf.invoke("hi", thread("f"));
    expect(result).toEqual({ __interrupt__: [{ id: ANY_ID, value: { ask: "s1(hi)" } }] });
    expect(runs.counts).toEqual({ entry: 1, step1: 1 });
    const state = await wf.getState(thread("f"));
    expect(state.next).toEqual(["wf"]);
    expect(state.tasks.map((t) => ({ name: t.name, path: t.path, interrupts: t.interrupts }))).toEqual([
      { name: "wf", path: ["__pregel_pull", "wf"], interrupts: interruptsOf(result) },
    ]);
    expect(state.metadata).toEqual({ source: "input", step: -1, parents: {}, thread_id: "f" });
  });

  it("has null values while nothing was returned yet", async () => {
    const wf = workflow(new RunCounter());
    await wf.invoke("hi", thread("f"));
    expect((await wf.getState(thread("f"))).values).toBeNull();
  });

  it("resumes: the entrypoint runs again, tasks that finished are replayed, not re-run", async () => {
    const runs = new RunCounter();
    const wf = workflow(runs);
    await wf.invoke("hi", thread("f"));
    expect(await wf.invoke(resume("yes"), thread("f"))).toBe("s2(s1(hi)+yes)");
    expect(runs.counts).toEqual({ entry: 2, step1: 1, step2: 1 });
    const state = await wf.getState(thread("f"));
    expect(state.values).toBe("s2(s1(hi)+yes)");
    expect(state.next).toEqual([]);
    expect(state.metadata).toEqual({ source: "loop", step: 0, parents: {}, thread_id: "f" });
    expect(outline(await historyOf(wf, thread("f")))).toEqual(["0:loop:", "-1:input:wf"]);
  });

  it("streams the replayed task's result as a cached update on resume", async () => {
    const wf = workflow(new RunCounter());
    expect(await collect(wf.stream("x", { ...thread("s"), streamMode: "updates" }))).toEqual([
      { step1: "s1(x)" },
      { __interrupt__: [{ id: ANY_ID, value: { ask: "s1(x)" } }] },
    ]);
    expect(await collect(wf.stream(resume("r"), { ...thread("s"), streamMode: "updates" }))).toEqual([
      { step1: "s1(x)", __metadata__: { cached: true } },
      { step2: "s2(s1(x)+r)" },
      { wf: "s2(s1(x)+r)" },
    ]);
  });

  it("does not re-run parallel tasks that finished before the interrupt", async () => {
    const runs = new RunCounter();
    const t1 = task("t1", async () => {
      runs.bump("t1");
      return 1;
    });
    const t2 = task("t2", async () => {
      runs.bump("t2");
      return 2;
    });
    const wf = entrypoint({ name: "wf2", checkpointer: new MemorySaver() }, async () => {
      const [a, b] = await Promise.all([t1(), t2()]);
      const x = interrupt("more?") as number;
      return a + b + x;
    });
    expect(await wf.invoke({}, thread("p"))).toEqual({ __interrupt__: [{ id: ANY_ID, value: "more?" }] });
    expect(runs.counts).toEqual({ t1: 1, t2: 1 });
    expect(await wf.invoke(resume(10), thread("p"))).toBe(13);
    expect(runs.counts).toEqual({ t1: 1, t2: 1 });
  });

  it("without a checkpointer, interrupt() fails with MISSING_CHECKPOINTER", async () => {
    const wf = entrypoint("nocp", async () => interrupt("x"));
    const error = await wf.invoke(1).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: "GraphValueError",
      lc_error_code: "MISSING_CHECKPOINTER",
      message: expect.stringMatching(/^No checkpointer set/),
    });
  });
});

describe("interrupt() inside a task", () => {
  /** An entrypoint that does some work, then asks twice through a task that interrupts. */
  function asking(runs: RunCounter) {
    const work = task("work", async (x: number) => {
      runs.bump("work");
      return x + 1;
    });
    const ask = task("ask", async (question: string) => {
      runs.bump(`ask:${question}`);
      return interrupt(question);
    });
    return entrypoint({ name: "wf", checkpointer: new MemorySaver() }, async () => {
      const w = await work(1);
      const a = await ask("q1");
      const b = await ask("q2");
      return `${w}:${a}:${b}`;
    });
  }

  it("pauses the entrypoint, and each answer resumes the task that asked", async () => {
    const runs = new RunCounter();
    const wf = asking(runs);
    const config = thread("ask");
    expect(interruptsOf(await wf.invoke({}, config))).toEqual([{ id: ANY_ID, value: "q1" }]);
    const paused = await wf.getState(config);
    expect(paused.next).toEqual(["wf"]);
    expect(paused.tasks.map((t) => [t.name, t.interrupts.map((i) => i.value)])).toEqual([["wf", ["q1"]]]);
    expect(interruptsOf(await wf.invoke(resume("A"), config))).toEqual([{ id: ANY_ID, value: "q2" }]);
    expect(await wf.invoke(resume("B"), config)).toBe("2:A:B");
    // the finished task is replayed, the asking task runs again to take its answer
    expect(runs.counts).toEqual({ work: 1, "ask:q1": 2, "ask:q2": 2 });
  });

  it("streams the task's answer and the replayed results on resume", async () => {
    const runs = new RunCounter();
    const wf = asking(runs);
    const config = thread("ask-stream");
    await wf.invoke({}, config);
    expect(await collect(wf.stream(resume("A"), { ...config, streamMode: "updates" }))).toEqual([
      { work: 2, __metadata__: { cached: true } },
      { ask: "A" },
      { __interrupt__: [{ id: ANY_ID, value: "q2" }] },
    ]);
  });
});

describe("the previous value of a thread", () => {
  it("getPreviousState() is the last return value on the thread", async () => {
    const saver = new MemorySaver();
    const sum = entrypoint({ name: "sum", checkpointer: saver }, async (n: number) => {
      const previous = getPreviousState<number>();
      return (previous ?? 0) + n;
    });
    expect(await sum.invoke(1, thread("a"))).toBe(1);
    expect(await sum.invoke(10, thread("a"))).toBe(11);
    expect((await sum.getState(thread("a"))).values).toBe(11);
    expect(await sum.invoke(5, thread("b"))).toBe(5);
  });

  it("entrypoint.final returns one value and saves another for the next invocation", async () => {
    const counter = entrypoint({ name: "counter", checkpointer: new MemorySaver() }, async (n: number) => {
      const previous = getPreviousState<number>();
      return entrypoint.final({ value: `prev=${previous}`, save: (previous ?? 0) + n });
    });
    expect(await counter.invoke(1, thread("c"))).toBe("prev=undefined");
    expect((await counter.getState(thread("c"))).values).toBe("prev=undefined");
    expect(await counter.invoke(2, thread("c"))).toBe("prev=1");
    expect(await counter.invoke(3, thread("c"))).toBe("prev=3");
    expect(await counter.invoke(5, thread("other"))).toBe("prev=undefined");
  });
});

describe("an entrypoint's history", () => {
  it("shows the entrypoint task's result as the value it returned", async () => {
    const double = task("double", async (x: number) => x * 2);
    const wf = entrypoint({ name: "wf", checkpointer: new MemorySaver() }, async (n: number) => {
      const a = await double(n);
      return { a, b: await Promise.all([double(a), double(a + 1)]) };
    });
    expect(await wf.invoke(3, thread("h"))).toEqual({ a: 6, b: [12, 14] });
    const history = await historyOf(wf, thread("h"));
    expect(history.map((s) => s.tasks.map((t) => [t.name, t.result]))).toEqual([
      [],
      [["wf", { a: 6, b: [12, 14] }]],
    ]);
  });
});
