/**
 * The order of the interrupts of parallel nested graphs (a compiled graph run as a node, a graph
 * invoked inside a node function), in `invoke`'s `__interrupt__` and in the streamed chunks, and
 * what is left after a resume that answers some of them. Expected values: @langchain/langgraph
 * 1.7.3, where a nested graph starts its first step as long after its task as either way, its
 * step ends when its last task settles, and a pause that comes through a node function reaches
 * its task a few turns after one of a graph node.
 */
import { describe, expect, it } from "vitest";
import { Annotation, Command, interrupt, MemorySaver, Send, START, StateGraph } from "../../index.js";

const State = Annotation.Root({
  l: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

/** A graph whose nodes (one per name, all from START) each ask `interrupt(name)`. */
function asking(names: string[]) {
  const graph = new StateGraph(State);
  for (const name of names) {
    graph.addNode(name, () => ({ l: [interrupt<string, string>(name)] })).addEdge(START, name);
  }
  return graph.compile();
}

type Paused = { l: string[]; __interrupt__?: { id: string; value: unknown }[] };
const values = (result: Paused) => result.__interrupt__?.map((i) => i.value);

describe("interrupts of parallel nested graphs", () => {
  it("a graph invoked inside a node starts as late as a graph node, so both keep their tasks' order", async () => {
    const called = asking(["c1"]);
    const callIt = async () => ({ l: (await called.invoke({ l: [] })).l });
    const graph = new StateGraph(State)
      .addNode("a", asking(["a1"]))
      .addNode("b", callIt)
      .addEdge(START, "a")
      .addEdge(START, "b")
      .compile({ checkpointer: new MemorySaver() });
    const result: Paused = await graph.invoke({ l: [] }, { configurable: { thread_id: "1" } });
    expect(values(result)).toEqual(["a1", "c1"]);

    // the graph node listed first in the graph: the called graph's chunks still come second
    const swapped = new StateGraph(State)
      .addNode("b", callIt)
      .addNode("a", asking(["a1"]))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .compile({ checkpointer: new MemorySaver() });
    const chunks: string[] = [];
    for await (const [namespace, chunk] of await swapped.stream(
      { l: [] },
      { configurable: { thread_id: "2" }, subgraphs: true },
    )) {
      const where = namespace.map((segment) => segment.split(":")[0]).join("/");
      chunks.push(`${where}:${(chunk as Paused).__interrupt__?.map((i) => i.value).join(",")}`);
    }
    expect(chunks).toEqual(["a:a1", "b:c1", ":a1", ":c1"]);
  });

  it("a graph node that paused beside a graph run in a node function comes first", async () => {
    const called = asking(["c1"]);
    const graph = new StateGraph(State)
      .addNode("a", async () => ({ l: (await called.invoke({ l: [] })).l }))
      .addNode("b", asking(["b1"]))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .compile({ checkpointer: new MemorySaver() });
    const result: Paused = await graph.invoke({ l: [] }, { configurable: { thread_id: "1" } });
    expect(values(result)).toEqual(["b1", "c1"]);
  });

  it("keeps the tasks' order when one nested step paused twice, and a resume of part of it lists the rest", async () => {
    const graph = new StateGraph(State)
      .addNode("a", asking(["a1", "a2"]))
      .addNode("b", asking(["b1"]))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "1" } };
    const first: Paused = await graph.invoke({ l: [] }, config);
    expect(values(first)).toEqual(["a1", "a2", "b1"]);
    const ids = Object.fromEntries((first.__interrupt__ ?? []).map((i) => [String(i.value), i.id]));

    // a2 answered: a's step now ends after a2's update, so b, paused at once, comes first
    const second: Paused = await graph.invoke(new Command({ resume: { [String(ids.a2)]: "A2" } }), config);
    expect(values(second)).toEqual(["b1", "a1"]);
    const state = await graph.getState(config);
    expect(state.tasks.map((t) => [t.name, t.interrupts.map((i) => i.value)])).toEqual([
      ["a", ["a1"]],
      ["b", ["b1"]],
    ]);

    const third: Paused = await graph.invoke(new Command({ resume: { [String(ids.b1)]: "B1" } }), config);
    expect(values(third)).toEqual(["a1"]);
    expect(third.l).toEqual(["B1"]);
  });

  it("streams the Send tasks that pause again before those a partial resume lets go on", async () => {
    const Inner = Annotation.Root({
      l: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
      x: Annotation<number>,
    });
    const inner = new StateGraph(Inner)
      .addNode("ask", (s) => ({ l: [`${s.x}=${interrupt<string, string>(`q${s.x}`)}`] }))
      .addEdge(START, "ask")
      .compile();
    const graph = new StateGraph(State)
      .addNode("sub", inner)
      .addConditionalEdges(START, () => [0, 1, 2].map((x) => new Send("sub", { x })))
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "1" } };
    const first: Paused = await graph.invoke({ l: [] }, config);
    const q0 = first.__interrupt__?.find((i) => i.value === "q0")?.id ?? "";
    const chunks: string[] = [];
    for await (const [namespace, chunk] of await graph.stream(new Command({ resume: { [q0]: "A0" } }), {
      ...config,
      streamMode: "updates",
      subgraphs: true,
    })) {
      const paused = (chunk as Paused).__interrupt__;
      const what = paused === undefined ? JSON.stringify(chunk) : paused.map((i) => i.value).join(",");
      chunks.push(`${namespace.length}:${what}`);
    }
    expect(chunks).toEqual([
      "1:q1",
      "1:q2",
      '1:{"ask":{"l":["0=A0"]}}',
      "0:q1",
      "0:q2",
      '0:{"sub":{"l":["0=A0"]}}',
    ]);
  });

  it("interleaves the steps of parallel subgraph nodes", async () => {
    const twoSteps = (p: string) =>
      new StateGraph(State)
        .addNode(`${p}1`, () => ({ l: [`${p}1`] }))
        .addNode(`${p}2`, () => ({ l: [`${p}2`] }))
        .addEdge(START, `${p}1`)
        .addEdge(`${p}1`, `${p}2`)
        .compile();
    const graph = new StateGraph(State)
      .addNode("a", twoSteps("a"))
      .addNode("b", twoSteps("b"))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .compile();
    const chunks: string[] = [];
    for await (const [namespace, mode, chunk] of await graph.stream(
      { l: [] },
      { streamMode: ["updates", "values"], subgraphs: true },
    )) {
      const where = namespace.map((segment) => segment.split(":")[0]).join("/");
      const what =
        mode === "values" ? (chunk as { l: string[] }).l.join(",") : Object.keys(chunk as object).join(",");
      chunks.push(`${where}|${mode}|${what}`);
    }
    expect(chunks).toEqual([
      "|values|",
      "a|values|",
      "b|values|",
      "a|updates|a1",
      "b|updates|b1",
      "a|values|a1",
      "b|values|b1",
      "a|updates|a2",
      "b|updates|b2",
      "a|values|a1,a2",
      "b|values|b1,b2",
      "|updates|a",
      "|updates|b",
      "|values|a1,a2,b1,b2",
    ]);
  });
});
