/**
 * What persistence refuses, and what it does on an empty thread. Expected values:
 * @langchain/langgraph 1.7.3 (probe /tmp/probe/q1.ts). Our messages may add a fix after the
 * reference's text, so messages are matched by their beginning.
 */
import { describe, expect, it } from "vitest";
import { Command, interrupt, MemorySaver, START, StateGraph } from "../../index.js";
import { historyOf, LogState, RunCounter, thread } from "./persistence.test-helpers.js";

const THREAD_ID_MESSAGE =
  'Failed to put checkpoint. The passed RunnableConfig is missing a required "thread_id" field in its "configurable" property. When using a checkpointer, you must pass a "thread_id" so the checkpointer knows which conversation thread to persist state for. Example: graph.stream(input, { configurable: { thread_id: "my-thread-id" } })';

function plainGraph(runs: RunCounter, checkpointer?: MemorySaver) {
  return new StateGraph(LogState)
    .addNode("a", () => {
      runs.bump("a");
      return { v: ["a"] };
    })
    .addEdge(START, "a")
    .compile(checkpointer === undefined ? {} : { checkpointer });
}

describe("without a checkpointer", () => {
  it("checkpointer: true refuses to run, stream or read state without a parent's saver", async () => {
    const root = new StateGraph(LogState)
      .addNode("a", () => ({ v: ["a"] }))
      .addEdge(START, "a")
      .compile({ checkpointer: true });
    const refused = {
      name: "GraphValueError",
      message: expect.stringMatching(/^checkpointer: true cannot be used for root graphs\./),
    };
    await expect(root.invoke({ v: [] })).rejects.toMatchObject(refused);
    await expect(
      (async () => {
        for await (const _ of await root.stream({ v: [] })) {
          // drain
        }
      })(),
    ).rejects.toMatchObject(refused);
    await expect(root.getState(thread("t"))).rejects.toMatchObject(refused);
    // as a node of a parent without a saver there is still none to borrow
    const parent = new StateGraph(LogState).addNode("sub", root).addEdge(START, "sub").compile();
    await expect(parent.invoke({ v: [] })).rejects.toMatchObject(refused);
    // a parent with a saver lends it
    const saved = new StateGraph(LogState)
      .addNode("sub", root)
      .addEdge(START, "sub")
      .compile({ checkpointer: new MemorySaver() });
    await expect(saved.invoke({ v: [] }, thread("t"))).resolves.toEqual({ v: ["a"] });
  });

  it("interrupt() fails with GraphValueError MISSING_CHECKPOINTER", async () => {
    const graph = new StateGraph(LogState)
      .addNode("x", () => {
        interrupt("q");
        return {};
      })
      .addEdge(START, "x")
      .compile();
    const error = await graph.invoke({ v: [] }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: "GraphValueError",
      lc_error_code: "MISSING_CHECKPOINTER",
      message: expect.stringMatching(/^No checkpointer set/),
    });
  });

  it("Command({ resume }) as input is refused", async () => {
    const runs = new RunCounter();
    const graph = plainGraph(runs);
    await expect(graph.invoke(new Command({ resume: "x" }))).rejects.toThrow(
      /^Cannot use Command\(resume=\.\.\.\) without checkpointer/,
    );
    expect(runs.counts).toEqual({});
  });

  it("null input is an EmptyInputError", async () => {
    const graph = plainGraph(new RunCounter());
    await expect(graph.invoke(null)).rejects.toMatchObject({
      name: "EmptyInputError",
      message: expect.stringMatching(/^Received no input writes for "__start__"/),
    });
  });

  it("getState is refused with MISSING_CHECKPOINTER", async () => {
    const graph = plainGraph(new RunCounter());
    const error = await graph.getState(thread("x")).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: "GraphValueError",
      lc_error_code: "MISSING_CHECKPOINTER",
      message: expect.stringMatching(/^No checkpointer set/),
    });
  });

  it("interruptBefore still pauses the run (nothing is saved)", async () => {
    const graph = new StateGraph(LogState)
      .addNode("a", () => ({ v: ["a"] }))
      .addNode("b", () => ({ v: ["b"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile({ interruptBefore: ["b"] });
    expect(await graph.invoke({ v: ["x"] })).toEqual({ v: ["x", "a"], __interrupt__: [] });
  });
});

describe("with a checkpointer", () => {
  it("a run without thread_id is refused", async () => {
    const graph = plainGraph(new RunCounter(), new MemorySaver());
    await expect(graph.invoke({ v: [] }, {})).rejects.toThrow(THREAD_ID_MESSAGE);
    await expect(graph.invoke({ v: [] })).rejects.toThrow(THREAD_ID_MESSAGE);
    await expect(collectAll(graph.stream({ v: [] }, { configurable: {} }))).rejects.toThrow(
      THREAD_ID_MESSAGE,
    );
  });

  it("a Command without thread_id is refused with the text of the writes' save", async () => {
    const graph = plainGraph(new RunCounter(), new MemorySaver());
    const writesMessage = THREAD_ID_MESSAGE.replace("Failed to put checkpoint.", "Failed to put writes.");
    await expect(graph.invoke(new Command({ resume: "x" }))).rejects.toThrow(writesMessage);
    await expect(graph.invoke(new Command({ update: { v: ["u"] } }), {})).rejects.toThrow(writesMessage);
  });

  it("getState without a thread_id returns an empty snapshot", async () => {
    const graph = plainGraph(new RunCounter(), new MemorySaver());
    expect(await graph.getState({ configurable: {} })).toEqual({
      values: {},
      next: [],
      config: { configurable: {} },
      tasks: [],
    });
  });

  it("getState and getStateHistory of an unknown thread are empty", async () => {
    const graph = plainGraph(new RunCounter(), new MemorySaver());
    expect(await graph.getState(thread("nope"))).toEqual({
      values: {},
      next: [],
      config: { configurable: { thread_id: "nope" } },
      tasks: [],
    });
    expect(await historyOf(graph, thread("nope"))).toEqual([]);
  });

  it("null input on a thread with no history is an EmptyInputError and saves nothing", async () => {
    const saver = new MemorySaver();
    const runs = new RunCounter();
    const graph = plainGraph(runs, saver);
    await expect(graph.invoke(null, thread("fresh"))).rejects.toMatchObject({
      name: "EmptyInputError",
      message: expect.stringMatching(/^Received no input writes for "__start__"/),
    });
    expect(runs.counts).toEqual({});
    expect(await historyOf(graph, thread("fresh"))).toEqual([]);
  });

  it("a resume on a thread with no history runs nothing and saves an input checkpoint", async () => {
    const runs = new RunCounter();
    const graph = plainGraph(runs, new MemorySaver());
    expect(await graph.invoke(new Command({ resume: "x" }), thread("fresh"))).toEqual({ v: [] });
    expect(runs.counts).toEqual({});
    const history = await historyOf(graph, thread("fresh"));
    expect(history.map((s) => ({ values: s.values, next: s.next, metadata: s.metadata }))).toEqual([
      {
        values: { v: [] },
        next: [],
        metadata: { source: "input", step: -1, parents: {}, thread_id: "fresh" },
      },
    ]);
  });

  it("a checkpoint no channel was written to is not resumed: null is no input, a resume is input", async () => {
    const runs = new RunCounter();
    const graph = plainGraph(runs, new MemorySaver());
    await graph.updateState(thread("blank"), null);
    await expect(graph.invoke(null, thread("blank"))).rejects.toMatchObject({
      name: "EmptyInputError",
      message: expect.stringMatching(/^Received no input writes for "__start__"/),
    });
    await graph.invoke(new Command({ resume: "x" }), thread("fresh"));
    expect(await graph.invoke(new Command({ resume: "y" }), thread("fresh"))).toEqual({ v: [] });
    await expect(graph.invoke(null, thread("fresh"))).rejects.toMatchObject({ name: "EmptyInputError" });
    expect(runs.counts).toEqual({});
    const history = await historyOf(graph, thread("fresh"));
    expect(history.map((s) => [s.metadata?.source, s.metadata?.step, s.parentConfig !== undefined])).toEqual([
      ["input", 0, true],
      ["input", -1, false],
    ]);
  });

  it("threads are isolated: a run on one thread neither reads nor changes another", async () => {
    const saver = new MemorySaver();
    const runs = new RunCounter();
    const graph = plainGraph(runs, saver);
    await graph.invoke({ v: ["one"] }, thread("t1"));
    await graph.invoke({ v: ["two"] }, thread("t2"));
    await graph.invoke({ v: ["one-again"] }, thread("t1"));
    expect((await graph.getState(thread("t1"))).values).toEqual({ v: ["one", "a", "one-again", "a"] });
    expect((await graph.getState(thread("t2"))).values).toEqual({ v: ["two", "a"] });
    expect(await historyOf(graph, thread("t1"))).toHaveLength(6);
    expect(await historyOf(graph, thread("t2"))).toHaveLength(3);
    // A checkpoint id of thread t1 is not found under thread t2.
    const [latestOfT1] = await historyOf(graph, thread("t1"));
    const crossed = await graph.getState({
      configurable: { thread_id: "t2", checkpoint_id: latestOfT1!.config.configurable?.checkpoint_id },
    });
    expect(crossed.values).toEqual({});
    expect(crossed.next).toEqual([]);
  });

  it("an interrupt on one thread does not pause another", async () => {
    const graph = new StateGraph(LogState)
      .addNode("ask", () => ({ v: [`ask:${interrupt("q")}`] }))
      .addEdge(START, "ask")
      .compile({ checkpointer: new MemorySaver() });
    await graph.invoke({ v: [] }, thread("t1"));
    await graph.invoke({ v: [] }, thread("t2"));
    expect(await graph.invoke(new Command({ resume: "one" }), thread("t1"))).toEqual({ v: ["ask:one"] });
    expect((await graph.getState(thread("t2"))).next).toEqual(["ask"]);
    expect(await graph.invoke(new Command({ resume: "two" }), thread("t2"))).toEqual({ v: ["ask:two"] });
    expect((await graph.getState(thread("t1"))).values).toEqual({ v: ["ask:one"] });
  });
});

async function collectAll(stream: Promise<AsyncIterable<unknown>>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const chunk of await stream) out.push(chunk);
  return out;
}
