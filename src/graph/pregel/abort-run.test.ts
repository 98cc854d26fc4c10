/**
 * Aborting a run through the caller's `signal`. Expected values: @langchain/langgraph 1.7.3
 * (probes q8–q10): the error LangChain.js makes from the reason, and a checkpoint that keeps the
 * step's running tasks pending, whatever they do once the run gave up on them.
 */
import { describe, expect, it } from "vitest";
import { Annotation, MemorySaver, Send, START, StateGraph } from "../index.js";

const State = Annotation.Root({
  v: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** a → (b, c), whose nodes ignore the signal and finish after the run was aborted. */
function fanOut() {
  return new StateGraph(State)
    .addNode("a", () => ({ v: ["a"] }))
    .addNode("b", async () => {
      await sleep(40);
      return { v: ["b"] };
    })
    .addNode("c", async () => {
      await sleep(50);
      return { v: ["c"] };
    })
    .addNode("d", () => ({ v: ["d"] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("a", "c")
    .addEdge(["b", "c"], "d")
    .compile({ checkpointer: new MemorySaver() });
}

describe("aborting a run", () => {
  it("leaves the running tasks pending: their late writes are not saved, and resuming runs them", async () => {
    const graph = fanOut();
    const config = { configurable: { thread_id: "ab1" } };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    await expect(graph.invoke({ v: [] }, { ...config, signal: controller.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
    await sleep(80);
    const state = await graph.getState(config);
    expect(state.values).toEqual({ v: ["a"] });
    expect(state.next).toEqual(["b", "c"]);
    expect(state.tasks.map((task) => task.error)).toEqual([undefined, undefined]);
    expect(await graph.invoke(null, config)).toEqual({ v: ["a", "b", "c", "d"] });
  });

  it("fails with LangChain.js's error for the reason: the Error, Error(string), else Error('Aborted')", async () => {
    const graph = fanOut();
    const cases: [unknown, string][] = [
      [new TypeError("own"), "own"],
      ["text reason", "text reason"],
      [42, "Aborted"],
    ];
    for (const [index, [reason, message]] of cases.entries()) {
      const before = new AbortController();
      before.abort(reason);
      const early = await graph
        .invoke({ v: [] }, { configurable: { thread_id: `pre${index}` }, signal: before.signal })
        .catch((error: unknown) => error);
      expect(early).toBeInstanceOf(Error);
      expect((early as Error).message).toBe(message);
      const during = new AbortController();
      setTimeout(() => during.abort(reason), 10);
      const late = await graph
        .invoke({ v: [] }, { configurable: { thread_id: `mid${index}` }, signal: during.signal })
        .catch((error: unknown) => error);
      expect(late).toBeInstanceOf(Error);
      expect((late as Error).message).toBe(message);
      if (reason instanceof Error) expect(late).toBe(reason);
    }
  });

  it("saves nothing when the signal aborted before the run started, as LangGraph.js", async () => {
    const saver = new MemorySaver();
    const graph = new StateGraph(State)
      .addNode("a", () => ({ v: ["a"] }))
      .addEdge(START, "a")
      .compile({ checkpointer: saver });
    const controller = new AbortController();
    controller.abort();
    await expect(
      graph.invoke({ v: [] }, { configurable: { thread_id: "pre" }, signal: controller.signal }),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(await checkpointsOf(saver)).toBe(0);
  });
});

/** How many checkpoints `saver` holds, every thread and namespace. */
async function checkpointsOf(saver: MemorySaver): Promise<number> {
  let count = 0;
  for await (const _ of saver.list({})) count++;
  return count;
}

/** A MemorySaver whose checkpoints take a while to save. */
class SlowSaver extends MemorySaver {
  override async put(...args: Parameters<MemorySaver["put"]>): ReturnType<MemorySaver["put"]> {
    await sleep(20);
    return super.put(...args);
  }
}

describe("leaving a stream early", () => {
  /** a → b, where b takes its time. */
  const twoSteps = (saver: MemorySaver) =>
    new StateGraph(State)
      .addNode("a", () => ({ v: ["a"] }))
      .addNode("b", async () => {
        await sleep(100);
        return { v: ["b"] };
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile({ checkpointer: saver });

  it("returns once the run is over: the thread then holds all the run saved (stream and streamEvents)", async () => {
    for (const events of [false, true]) {
      const saver = new SlowSaver();
      const graph = twoSteps(saver);
      const config = { configurable: { thread_id: "t" } };
      if (events) {
        for await (const e of graph.streamEvents({ v: [] }, { ...config, version: "v2" }))
          if (e.event === "on_chain_end" && e.name === "a") break;
      } else {
        for await (const _ of await graph.stream({ v: [] }, config)) break;
      }
      // the input, a's step, and the checkpoint before b, as LangGraph.js 1.7.3 has then
      expect(await checkpointsOf(saver)).toBe(3);
      await sleep(60);
      expect(await checkpointsOf(saver)).toBe(3);
      expect((await graph.getState(config)).next).toEqual(["b"]);
    }
  });

  it("a subgraph being started when the stream was left saves nothing afterwards", async () => {
    const saver = new MemorySaver();
    const sub = new StateGraph(State)
      .addNode("s", () => ({ v: ["s"] }))
      .addEdge(START, "s")
      .compile();
    const graph = new StateGraph(State)
      .addNode("a", () => ({ v: ["a"] }))
      .addNode("sub", sub)
      .addEdge(START, "a")
      .addConditionalEdges("a", () => [new Send("sub", { v: [] }), new Send("sub", { v: [] })])
      .compile({ checkpointer: saver });
    const config = { configurable: { thread_id: "t" } };
    for await (const _ of await graph.stream({ v: [] }, { ...config, subgraphs: true })) break;
    await saver.deleteThread("t");
    await sleep(30);
    expect(await checkpointsOf(saver)).toBe(0);
  });
});
