/**
 * Static breakpoints: interruptBefore / interruptAfter, as compile options and as run options.
 * Expected values: @langchain/langgraph 1.7.3 (probes /tmp/probe/q3.ts, p10x.ts).
 */
import { describe, expect, it } from "vitest";
import { Command, END, isInterrupted, MemorySaver, START, StateGraph } from "../../index.js";
import { collect, historyOf, LogState, outline, RunCounter, thread } from "./persistence.test-helpers.js";

/** a → b → c, each appending its name. */
function chain(runs = new RunCounter()) {
  const node = (name: string) => () => {
    runs.bump(name);
    return { v: [name] };
  };
  return new StateGraph(LogState)
    .addNode("a", node("a"))
    .addNode("b", node("b"))
    .addNode("c", node("c"))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", "c");
}

describe("interruptBefore", () => {
  it("Command({ goto: END }) is input, not an empty Command: the paused node runs anew", async () => {
    const runs = new RunCounter();
    const graph = chain(runs).compile({ checkpointer: new MemorySaver(), interruptBefore: ["b"] });
    await graph.invoke({ v: ["x"] }, thread("end"));
    expect(await graph.invoke(new Command({ goto: END }), thread("end"))).toEqual({
      v: ["x", "a", "b", "c"],
    });
    expect(runs.counts).toEqual({ a: 1, b: 1, c: 1 });
    expect(
      await chain()
        .compile()
        .invoke(new Command({ goto: END })),
    ).toEqual({ v: [] });
  });

  it("pauses before the node: __interrupt__: [], next names it, its task has no interrupts", async () => {
    const runs = new RunCounter();
    const graph = chain(runs).compile({ checkpointer: new MemorySaver(), interruptBefore: ["b"] });
    const result = await graph.invoke({ v: ["x"] }, thread("ib"));
    expect(result).toEqual({ v: ["x", "a"], __interrupt__: [] });
    expect(runs.counts).toEqual({ a: 1 });
    const state = await graph.getState(thread("ib"));
    expect(state.values).toEqual({ v: ["x", "a"] });
    expect(state.next).toEqual(["b"]);
    expect(state.tasks.map(({ name, interrupts }) => ({ name, interrupts }))).toEqual([
      { name: "b", interrupts: [] },
    ]);
    expect(state.metadata).toEqual({ source: "loop", step: 1, parents: {}, thread_id: "ib" });
  });

  it("isInterrupted is true for a result paused at a breakpoint", async () => {
    const graph = chain().compile({ checkpointer: new MemorySaver(), interruptBefore: ["b"] });
    const result = await graph.invoke({ v: ["x"] }, thread("ib"));
    expect(isInterrupted(result)).toBe(true);
  });

  it("resumes with null input and does not pause at the same node again", async () => {
    const runs = new RunCounter();
    const graph = chain(runs).compile({ checkpointer: new MemorySaver(), interruptBefore: ["b"] });
    await graph.invoke({ v: ["x"] }, thread("ib"));
    expect(await graph.invoke(null, thread("ib"))).toEqual({ v: ["x", "a", "b", "c"] });
    expect(await graph.invoke(null, thread("ib"))).toEqual({ v: ["x", "a", "b", "c"] });
    expect(runs.counts).toEqual({ a: 1, b: 1, c: 1 });
    expect(outline(await historyOf(graph, thread("ib")))).toEqual([
      "3:loop:",
      "2:loop:c",
      "1:loop:b",
      "0:loop:a",
      "-1:input:__start__",
    ]);
  });

  it("streams { __interrupt__: [] } in updates and values", async () => {
    const graph = chain().compile({ checkpointer: new MemorySaver(), interruptBefore: ["b"] });
    expect(
      await collect(graph.stream({ v: ["y"] }, { ...thread("s1"), streamMode: ["updates", "values"] })),
    ).toEqual([
      ["values", { v: ["y"] }],
      ["updates", { a: { v: ["a"] } }],
      ["values", { v: ["y", "a"] }],
      ["updates", { __interrupt__: [] }],
      ["values", { __interrupt__: [] }],
    ]);
    expect(await collect(graph.stream({ v: ["y"] }, thread("s2")))).toEqual([
      { a: { v: ["a"] } },
      { __interrupt__: [] },
    ]);
    expect(await collect(graph.stream(null, { ...thread("s1"), streamMode: ["updates", "values"] }))).toEqual(
      [
        ["values", { v: ["y", "a"] }],
        ["updates", { b: { v: ["b"] } }],
        ["values", { v: ["y", "a", "b"] }],
        ["updates", { c: { v: ["c"] } }],
        ["values", { v: ["y", "a", "b", "c"] }],
      ],
    );
  });

  it('"*" pauses before every node', async () => {
    const graph = chain().compile({ checkpointer: new MemorySaver(), interruptBefore: "*" });
    const seen: unknown[] = [await graph.invoke({ v: ["x"] }, thread("all"))];
    const nexts = [(await graph.getState(thread("all"))).next];
    for (let i = 0; i < 3; i++) {
      seen.push(await graph.invoke(null, thread("all")));
      nexts.push((await graph.getState(thread("all"))).next);
    }
    expect(seen).toEqual([
      { v: ["x"], __interrupt__: [] },
      { v: ["x", "a"], __interrupt__: [] },
      { v: ["x", "a", "b"], __interrupt__: [] },
      { v: ["x", "a", "b", "c"] },
    ]);
    expect(nexts).toEqual([["a"], ["b"], ["c"], []]);
  });

  it("as a run option overrides the compiled graph's (none)", async () => {
    const graph = chain().compile({ checkpointer: new MemorySaver() });
    expect(await graph.invoke({ v: ["x"] }, { ...thread("run"), interruptBefore: ["c"] })).toEqual({
      v: ["x", "a", "b"],
      __interrupt__: [],
    });
    expect((await graph.getState(thread("run"))).next).toEqual(["c"]);
    expect(await graph.invoke(null, thread("run"))).toEqual({ v: ["x", "a", "b", "c"] });
  });

  it("new input while paused discards the pending node and runs from the start", async () => {
    const graph = chain().compile({ checkpointer: new MemorySaver(), interruptBefore: ["b"] });
    await graph.invoke({ v: ["x"] }, thread("p"));
    expect(await graph.invoke({ v: ["z"] }, thread("p"))).toEqual({
      v: ["x", "a", "z", "a"],
      __interrupt__: [],
    });
    expect((await graph.getState(thread("p"))).next).toEqual(["b"]);
  });

  it("updateState while paused, then null, runs the paused node on the edited state", async () => {
    const graph = chain().compile({ checkpointer: new MemorySaver(), interruptBefore: ["b"] });
    await graph.invoke({ v: ["x"] }, thread("u"));
    await graph.updateState(thread("u"), { v: ["edited"] });
    const state = await graph.getState(thread("u"));
    expect(state.next).toEqual(["b"]);
    expect(state.values).toEqual({ v: ["x", "a", "edited"] });
    expect(state.metadata).toEqual({ source: "update", step: 2, parents: {}, thread_id: "u" });
    expect(await graph.invoke(null, thread("u"))).toEqual({ v: ["x", "a", "edited", "b", "c"] });
  });
});

describe("interruptAfter", () => {
  it("pauses after the node, with its writes applied", async () => {
    const graph = chain().compile({ checkpointer: new MemorySaver(), interruptAfter: ["a"] });
    expect(
      await collect(graph.stream({ v: ["x"] }, { ...thread("ia"), streamMode: ["updates", "values"] })),
    ).toEqual([
      ["values", { v: ["x"] }],
      ["updates", { a: { v: ["a"] } }],
      ["values", { v: ["x", "a"] }],
      ["updates", { __interrupt__: [] }],
      ["values", { __interrupt__: [] }],
    ]);
    const state = await graph.getState(thread("ia"));
    expect(state.values).toEqual({ v: ["x", "a"] });
    expect(state.next).toEqual(["b"]);
    expect(state.tasks.map(({ name, interrupts }) => ({ name, interrupts }))).toEqual([
      { name: "b", interrupts: [] },
    ]);
    expect(await graph.invoke(null, thread("ia"))).toEqual({ v: ["x", "a", "b", "c"] });
  });

  it('"*" as a run option pauses after every node while it is passed', async () => {
    const graph = chain().compile({ checkpointer: new MemorySaver() });
    const config = thread("star");
    expect(await graph.invoke({ v: ["x"] }, { ...config, interruptAfter: "*" })).toEqual({
      v: ["x", "a"],
      __interrupt__: [],
    });
    expect((await graph.getState(config)).next).toEqual(["b"]);
    expect(await graph.invoke(null, { ...config, interruptAfter: "*" })).toEqual({
      v: ["x", "a", "b"],
      __interrupt__: [],
    });
    expect((await graph.getState(config)).next).toEqual(["c"]);
    expect(await graph.invoke(null, config)).toEqual({ v: ["x", "a", "b", "c"] });
    expect((await graph.getState(config)).next).toEqual([]);
  });
});

describe("breakpoints in the checkpoints stream and in subgraphs", () => {
  type Chunk = [string, { metadata?: { step: number }; next?: string[] } & Record<string, unknown>];
  const order = (chunks: Chunk[]) =>
    chunks.map(([mode, payload]) =>
      mode === "checkpoints"
        ? `checkpoint ${payload.metadata?.step} -> ${payload.next?.join(",")}`
        : JSON.stringify(payload),
    );

  it("streams the checkpoint it pauses at before an interruptBefore (not an interruptAfter), as LangGraph.js", async () => {
    const before = chain().compile({ checkpointer: new MemorySaver(), interruptBefore: ["b"] });
    const modes = { streamMode: ["checkpoints", "updates"] as ("checkpoints" | "updates")[] };
    expect(
      order((await collect(before.stream({ v: [] }, { ...thread("cb"), ...modes }))) as Chunk[]),
    ).toEqual([
      "checkpoint -1 -> __start__",
      "checkpoint 0 -> a",
      '{"a":{"v":["a"]}}',
      "checkpoint 1 -> b",
      '{"__interrupt__":[]}',
    ]);
    const after = chain().compile({ checkpointer: new MemorySaver(), interruptAfter: ["a"] });
    expect(order((await collect(after.stream({ v: [] }, { ...thread("ca"), ...modes }))) as Chunk[])).toEqual(
      [
        "checkpoint -1 -> __start__",
        "checkpoint 0 -> a",
        '{"a":{"v":["a"]}}',

        '{"__interrupt__":[]}',
      ],
    );
  });

  it("reports a subgraph's breakpoint once, as its task's interrupt", async () => {
    const sub = chain().compile({ interruptBefore: ["b"] });
    const graph = new StateGraph(LogState).addNode("sub", sub).addEdge(START, "sub").compile({
      checkpointer: new MemorySaver(),
    });
    const chunks = await collect(
      graph.stream({ v: [] }, { ...thread("sb"), streamMode: ["updates", "values"] }),
    );
    expect(chunks).toEqual([
      ["values", { v: [] }],
      ["updates", { __interrupt__: [] }],
      ["values", { __interrupt__: [] }],
    ]);
    expect((await graph.getState(thread("sb"))).next).toEqual(["sub"]);
  });
});
