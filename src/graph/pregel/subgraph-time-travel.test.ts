/**
 * Time travel into a `checkpointer: true` subgraph (one history per thread, under a namespace
 * without task ids): a root run continued from a past checkpoint starts such a subgraph from its
 * last checkpoint saved before the replay point; later runs go on from its latest. Expected
 * values: @langchain/langgraph 1.7.3 (its `ReplayState`).
 */
import { describe, expect, it } from "vitest";
import {
  Annotation,
  Command,
  interrupt,
  MemorySaver,
  START,
  StateGraph,
  type StateSnapshot,
} from "../../index.js";

const concat = { reducer: (a: string[], b: string[]) => a.concat(b), default: () => [] as string[] };
const State = Annotation.Root({ l: Annotation<string[]>(concat), n: Annotation<number> });
const SubState = Annotation.Root({
  l: Annotation<string[]>(concat),
  n: Annotation<number>,
  // how many times the subgraph ran in the history it starts from
  c: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
});

/** pre → sub (s1 → s2, `checkpointer: true`) → post; s2 asks when `ask`. */
function build(ask: boolean) {
  const sub = new StateGraph(SubState)
    .addNode("s1", (s) => ({ c: 1, l: [`s1(n=${s.n},c=${s.c})`] }))
    .addNode("s2", (s) => ({ l: [`s2(c=${s.c}${ask ? `,${interrupt<string, string>(`q${s.n}`)}` : ""})`] }))
    .addEdge(START, "s1")
    .addEdge("s1", "s2")
    .compile({ checkpointer: true });
  return new StateGraph(State)
    .addNode("pre", (s) => ({ l: [`pre(${s.n})`] }))
    .addNode("sub", sub)
    .addNode("post", () => ({ l: ["post"] }))
    .addEdge(START, "pre")
    .addEdge("pre", "sub")
    .addEdge("sub", "post")
    .compile({ checkpointer: new MemorySaver() });
}

const config = { configurable: { thread_id: "t" } };
/** Checkpoint ids grow with time: runs a millisecond apart keep their checkpoints apart. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 2));

async function historyOf(graph: ReturnType<typeof build>): Promise<StateSnapshot[]> {
  const history: StateSnapshot[] = [];
  for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot);
  return history;
}

function beforeSub(history: StateSnapshot[], n: number): StateSnapshot {
  const found = history.find((s) => (s.values as { n?: number }).n === n && s.next[0] === "sub");
  if (found === undefined) throw new Error(`no checkpoint before sub in run ${n}`);
  return found;
}

describe("time travel into a checkpointer: true subgraph", () => {
  it("starts it from its checkpoint before the replay point, then goes on from its latest", async () => {
    const graph = build(false);
    for (const n of [1, 2, 3]) {
      await graph.invoke({ n }, config);
      await tick();
    }
    const history = await historyOf(graph);

    // replayed before run 2's subgraph: the subgraph had run once (run 1)
    const replayed = await graph.invoke(null, beforeSub(history, 2).config);
    expect(replayed.l.slice(-3)).toEqual(["s1(n=2,c=1)", "s2(c=2)", "post"]);
    await tick();

    // a fork made there with updateState replays from the checkpoint it was made on
    const forked = await graph.updateState(beforeSub(history, 1).config, { n: 9 });
    const fromFork = await graph.invoke(null, forked);
    expect(fromFork.l.slice(-3)).toEqual(["s1(n=9,c=0)", "s2(c=1)", "post"]);
    await tick();

    // a new run goes on from the subgraph's latest checkpoint (the fork's)
    const next = await graph.invoke({ n: 4 }, config);
    expect(next.l.slice(-3)).toEqual(["s1(n=4,c=1)", "s2(c=2)", "post"]);

    // the subgraph's history holds every branch, newest first
    const steps: string[] = [];
    for await (const s of graph.getStateHistory({ configurable: { thread_id: "t", checkpoint_ns: "sub" } })) {
      steps.push(`${s.metadata?.step}:${(s.values as unknown as { c: number }).c}`);
    }
    expect(steps).toEqual([
      ...["6:2", "5:2", "4:1", "3:1"], // the new run, from the fork's end
      ...["2:1", "1:1", "0:0", "-1:0"], // the fork, from before run 1's
      ...["6:2", "5:2", "4:1", "3:1"], // the replay of run 2, from run 1's end
      ...["10:3", "9:3", "8:2", "7:2"], // runs 3, 2 and 1
      ...["6:2", "5:2", "4:1", "3:1"],
      ...["2:1", "1:1", "0:0", "-1:0"],
    ]);
  });

  it("asks again from the earlier state, and the resume goes on from there", async () => {
    const graph = build(true);
    for (const n of [1, 2]) {
      await graph.invoke({ n }, config);
      await tick();
      await graph.invoke(new Command({ resume: `a${n}` }), config);
      await tick();
    }
    const replayed: { l: string[]; __interrupt__?: { value: unknown }[] } = await graph.invoke(
      null,
      beforeSub(await historyOf(graph), 2).config,
    );
    expect(replayed.__interrupt__?.map((i) => i.value)).toEqual(["q2"]);
    const state = await graph.getState(config, { subgraphs: true });
    const subState = state.tasks[0]?.state as StateSnapshot<{ c: number }> | undefined;
    expect([subState?.values.c, subState?.next]).toEqual([2, ["s2"]]);
    const resumed = await graph.invoke(new Command({ resume: "z" }), config);
    expect(resumed.l.slice(-3)).toEqual(["s1(n=2,c=1)", "s2(c=2,z)", "post"]);
  });
});
