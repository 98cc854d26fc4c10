/**
 * Shapes of getState, updateState and the checkpoints stream that LangGraph.js 1.7.3 reports
 * (probed side by side with @langchain/langgraph 1.7.3).
 */
import { describe, expect, it } from "vitest";
import { Annotation, Command, interrupt, MemorySaver, Send, START, StateGraph } from "../../index.js";

const Log = Annotation.Root({
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  inner: Annotation<string>,
});

async function collect<T>(stream: AsyncIterable<T> | Promise<AsyncIterable<T>>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of await stream) out.push(chunk);
  return out;
}

describe("getState tasks", () => {
  it("always carry a result key, undefined until the task finished", async () => {
    const graph = new StateGraph(Log)
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ["b"] });
    const config = { configurable: { thread_id: "t" } };
    await graph.invoke({ log: [] }, config);
    const [task] = (await graph.getState(config)).tasks;
    expect(task).toBeDefined();
    expect(Object.keys(task ?? {})).toContain("result");
    expect(task?.result).toBeUndefined();
  });
});

describe("getState of a failed subgraph task", () => {
  it("lists no state for it, but reads it: a state that cannot be built fails the call", async () => {
    // two nodes of the subgraph write the single-value `inner` in one step: its saved writes
    // conflict, so its state cannot be built (LangGraph.js 1.7.3 throws the same error)
    const sub = new StateGraph(Log)
      .addNode("x", () => ({ inner: "x" }))
      .addNode("y", () => ({ inner: "y" }))
      .addEdge(START, "x")
      .addEdge(START, "y")
      .compile();
    const graph = new StateGraph(Log)
      .addNode("sub", sub)
      .addEdge(START, "sub")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    await expect(graph.invoke({ log: [] }, config)).rejects.toThrow(/^Invalid update for channel "inner"/);
    const [task] = (await graph.getState(config)).tasks;
    expect(task?.error).toMatchObject({ name: "InvalidUpdateError" });
    expect(task && "state" in task).toBe(false);
    await expect(graph.getState(config, { subgraphs: true })).rejects.toThrow(
      /^Invalid update for channel "inner"/,
    );
  });
});

describe("getState of a subgraph whose node handed off after a resume", () => {
  it("lists no next node in the subgraph's state (LangGraph.js 1.7.3 counts the node as done)", async () => {
    const sub = new StateGraph(Log)
      .addNode("ask", () => {
        const answer = interrupt("where?");
        return new Command({ goto: "p1", graph: Command.PARENT, update: { log: [`ask=${answer}`] } });
      })
      .addEdge(START, "ask")
      .compile();
    const graph = new StateGraph(Log)
      .addNode("sub", sub, { ends: ["p1"] })
      .addNode("p1", () => ({ log: ["p1"] }))
      .addConditionalEdges(START, () => [new Send("sub", { log: ["a"] }), new Send("sub", { log: ["b"] })], [
        "sub",
      ])
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    await graph.invoke({ log: [] }, config);
    const [first] = (await graph.getState(config)).tasks.flatMap((t) => t.interrupts);
    // only the first is answered: its subgraph hands off, the other still waits
    await graph.invoke(new Command({ resume: { [first?.id ?? ""]: "here" } }), config);
    const state = await graph.getState(config, { subgraphs: true });
    expect(state.values.log).toEqual(["ask=here"]);
    const subStates = state.tasks.map(
      (t) => t.state as { next: string[]; tasks: { interrupts: unknown[] }[] },
    );
    expect(subStates.map((s) => s.next)).toEqual([[], ["ask"]]);
    // the answered interrupt stays listed with the node, as there
    expect(subStates.map((s) => s.tasks.map((t) => t.interrupts.length))).toEqual([[1], [1]]);
  });
});

describe("getState keys", () => {
  it("come in LangGraph.js's order; a failed subgraph task has its error and no state", async () => {
    const sub = new StateGraph(Log)
      .addNode("s", () => {
        throw new Error("boom");
      })
      .addEdge(START, "s")
      .compile();
    const graph = new StateGraph(Log)
      .addNode("sub", sub)
      .addNode("ok", () => ({ log: ["ok"] }))
      .addEdge(START, "sub")
      .addEdge(START, "ok")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    await expect(graph.invoke({ log: [] }, config)).rejects.toThrow("boom");
    const state = await graph.getState(config, { subgraphs: true });
    expect(Object.keys(state)).toEqual([
      "values",
      "next",
      "tasks",
      "metadata",
      "config",
      "createdAt",
      "parentConfig",
    ]);
    expect(state.tasks.map((task) => Object.keys(task))).toEqual([
      ["id", "name", "path", "error", "interrupts", "result"],
      ["id", "name", "path", "interrupts", "result"],
    ]);
  });
});

describe("getStateHistory tasks", () => {
  it("report no result for a task that wrote to no state key (the input's __start__ with unknown keys)", async () => {
    const graph = new StateGraph(Log)
      .addNode("a", () => ({ log: ["a"] }))
      .addEdge(START, "a")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    await graph.invoke({ unknown: 1 } as never, config);
    const history = [];
    for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot);
    const input = history[history.length - 1];
    expect(input?.metadata?.source).toBe("input");
    expect(input?.tasks.map((t) => [t.name, t.result])).toEqual([["__start__", undefined]]);
  });
});

describe("the checkpoints stream of a resumed run", () => {
  it("reports the checkpoint resumed from with its saved interrupts and parent config", async () => {
    const saver = new MemorySaver();
    const graph = new StateGraph(Log)
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: [`b:${String(interrupt("question"))}`] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile({ checkpointer: saver });
    const config = { configurable: { thread_id: "t" } };
    const first = (await collect(
      graph.stream({ log: [] }, { ...config, streamMode: "checkpoints" }),
    )) as Record<string, unknown>[];
    expect(first[0]?.parentConfig).toBeUndefined();
    expect(Object.keys(first[0] ?? {})).toContain("parentConfig");
    const paused = await saver.getTuple(config);
    const resumed = (await collect(
      graph.stream(new Command({ resume: "yes" }), { ...config, streamMode: "checkpoints" }),
    )) as { parentConfig?: unknown; tasks: { interrupts: { value: unknown }[]; result?: unknown }[] }[];
    const [again] = resumed;
    expect(again?.parentConfig).toEqual(paused?.parentConfig);
    expect(again?.tasks[0]?.interrupts.map((i) => i.value)).toEqual(["question"]);
    expect(Object.keys(again?.tasks[0] ?? {})).toContain("result");
  });
});

describe("updateState on a subgraph's checkpoint", () => {
  it("returns a config naming the parents' checkpoints and records only them as parents", async () => {
    const sub = new StateGraph(Log)
      .addNode("s1", () => ({ log: ["s1"], inner: "i" }))
      .addNode("s2", () => ({ log: [`s2:${String(interrupt("q"))}`] }))
      .addEdge(START, "s1")
      .addEdge("s1", "s2")
      .compile();
    const graph = new StateGraph(Log).addNode("sub", sub).addEdge(START, "sub").compile({
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "t" } };
    await graph.invoke({ log: [] }, config);
    const root = await graph.getState(config);
    const subState = (await graph.getState(config, { subgraphs: true })).tasks[0]?.state as {
      config: { configurable: Record<string, unknown> };
    };
    const ns = String(subState.config.configurable.checkpoint_ns);
    const updated = await graph.updateState(subState.config, { inner: "patched" });
    const rootId = root.config.configurable?.checkpoint_id;
    expect(updated.configurable?.checkpoint_map).toEqual({
      "": rootId,
      [ns]: updated.configurable?.checkpoint_id,
    });
    const after = (await graph.getState(config, { subgraphs: true })).tasks[0]?.state as {
      values: Record<string, unknown>;
      metadata: { parents: Record<string, string> };
    };
    expect(after.values.inner).toBe("patched");
    expect(after.metadata.parents).toEqual({ "": rootId });
  });
});
