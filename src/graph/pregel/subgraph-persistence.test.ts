/**
 * Subgraphs under a checkpointed parent: interrupts inside them, their saved state, checkpoint
 * namespaces and resume. Expected values: @langchain/langgraph 1.7.3 (probes /tmp/probe/q6.ts,
 * q11.ts, p10x.ts).
 */
import { describe, expect, it } from "vitest";
import { Command, interrupt, MemorySaver, START, StateGraph, type StateSnapshot } from "../../index.js";
import type { RunnableConfig } from "../../shared/index.js";
import {
  ANY_ID,
  checkpointIdOf,
  collect,
  historyOf,
  interruptsOf,
  LogState,
  listAll,
  outline,
  RunCounter,
  thread,
} from "./persistence.test-helpers.js";

/** a → sub (s1 → s2, which interrupts) → b. */
function build(runs = new RunCounter(), saver = new MemorySaver()) {
  const sub = new StateGraph(LogState)
    .addNode("s1", () => {
      runs.bump("s1");
      return { v: ["s1"] };
    })
    .addNode("s2", () => {
      runs.bump("s2");
      return { v: [`s2:${interrupt("sub?")}`] };
    })
    .addEdge(START, "s1")
    .addEdge("s1", "s2")
    .compile();
  return new StateGraph(LogState)
    .addNode("a", () => {
      runs.bump("a");
      return { v: ["a"] };
    })
    .addNode("sub", sub)
    .addNode("b", () => {
      runs.bump("b");
      return { v: ["b"] };
    })
    .addEdge(START, "a")
    .addEdge("a", "sub")
    .addEdge("sub", "b")
    .compile({ checkpointer: saver });
}

const NS = /^sub:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("an interrupt inside a subgraph", () => {
  it("pauses the parent run, which returns the interrupt", async () => {
    const runs = new RunCounter();
    const graph = build(runs);
    const result = await graph.invoke({ v: ["in"] }, thread("t"));
    expect(result).toEqual({ v: ["in", "a"], __interrupt__: [{ id: ANY_ID, value: "sub?" }] });
    expect(runs.counts).toEqual({ a: 1, s1: 1, s2: 1 });
  });

  it("getState lists the subgraph task with the interrupt and the config of its state", async () => {
    const graph = build();
    const result = await graph.invoke({ v: ["in"] }, thread("t"));
    const state = await graph.getState(thread("t"));
    expect(state.next).toEqual(["sub"]);
    expect(state.metadata).toEqual({ source: "loop", step: 1, parents: {}, thread_id: "t" });
    const [task] = state.tasks;
    expect(task!.name).toBe("sub");
    expect(task!.interrupts).toEqual(interruptsOf(result));
    expect(task!.state).toEqual({ configurable: { thread_id: "t", checkpoint_ns: `sub:${task!.id}` } });
    expect((task!.state as RunnableConfig).configurable?.checkpoint_ns).toMatch(NS);
  });

  it("getState with subgraphs: true nests the subgraph's snapshot", async () => {
    const graph = build();
    const result = await graph.invoke({ v: ["in"] }, thread("t"));
    const state = await graph.getState(thread("t"), { subgraphs: true });
    const inner = state.tasks[0]!.state as StateSnapshot;
    const ns = `sub:${state.tasks[0]!.id}`;
    expect(inner.values).toEqual({ v: ["in", "a", "s1"] });
    expect(inner.next).toEqual(["s2"]);
    expect(inner.tasks.map((t) => [t.name, t.interrupts])).toEqual([["s2", interruptsOf(result)]]);
    expect(inner.metadata).toEqual({
      source: "loop",
      step: 1,
      parents: { "": checkpointIdOf(state.config) },
      thread_id: "t",
    });
    expect(inner.config).toEqual({
      configurable: {
        thread_id: "t",
        checkpoint_ns: ns,
        checkpoint_id: ANY_ID,
        checkpoint_map: { "": checkpointIdOf(state.config), [ns]: checkpointIdOf(inner.config) },
      },
    });
    expect(inner.parentConfig?.configurable?.checkpoint_ns).toBe(ns);
  });

  it("the subgraph's state is read through its config, with its next nodes", async () => {
    const graph = build();
    await graph.invoke({ v: ["in"] }, thread("t"));
    const subConfig = (await graph.getState(thread("t"))).tasks[0]!.state as RunnableConfig;
    const inner = await graph.getState(subConfig);
    expect(inner.values).toEqual({ v: ["in", "a", "s1"] });
    expect(inner.next).toEqual(["s2"]);
    expect(outline(await historyOf(graph, subConfig))).toEqual([
      "1:loop:s2",
      "0:loop:s1",
      "-1:input:__start__",
    ]);
  });

  it("updateState through the subgraph's config links the new checkpoint to the parent's", async () => {
    const graph = build();
    await graph.invoke({ v: ["in"] }, thread("t"));
    const root = await graph.getState(thread("t"));
    const subConfig = root.tasks[0]!.state as RunnableConfig;
    const ns = subConfig.configurable?.checkpoint_ns as string;
    const updated = await graph.updateState(subConfig, { v: ["edit"] });
    const id = checkpointIdOf(updated);
    // as in LangGraph.js: the saved checkpoint's parents name the root checkpoint, and so does the map
    expect(updated.configurable?.checkpoint_map).toEqual({ "": checkpointIdOf(root.config), [ns]: id });
    const inner = await graph.getState(updated);
    expect(inner.metadata?.parents).toEqual({ "": checkpointIdOf(root.config) });
    expect(inner.values).toEqual({ v: ["in", "a", "s1", "edit"] });
  });

  it("saves the subgraph's checkpoints under its namespace, linked to the parent's", async () => {
    const saver = new MemorySaver();
    const graph = build(new RunCounter(), saver);
    await graph.invoke({ v: ["in"] }, thread("t"));
    const parentId = checkpointIdOf((await graph.getState(thread("t"))).config);
    const all = await listAll(saver, thread("t"));
    const rows = all.map((t) => ({
      ns: t.config.configurable?.checkpoint_ns === "" ? "" : "sub",
      step: t.metadata?.step,
      source: t.metadata?.source,
      parents: t.metadata?.parents,
    }));
    expect(rows).toEqual(
      expect.arrayContaining([
        { ns: "", step: 1, source: "loop", parents: {} },
        { ns: "", step: 0, source: "loop", parents: {} },
        { ns: "", step: -1, source: "input", parents: {} },
        { ns: "sub", step: 1, source: "loop", parents: { "": parentId } },
        { ns: "sub", step: 0, source: "loop", parents: { "": parentId } },
        { ns: "sub", step: -1, source: "input", parents: { "": parentId } },
      ]),
    );
    expect(rows).toHaveLength(6);
    for (const t of all) expect(t.config.configurable?.checkpoint_ns).toMatch(/^(|sub:.+)$/);
    const subNs = all.find((t) => t.config.configurable?.checkpoint_ns !== "")!.config.configurable
      ?.checkpoint_ns;
    expect(await listAll(saver, { configurable: { thread_id: "t", checkpoint_ns: subNs } })).toHaveLength(3);
    expect(await listAll(saver, { configurable: { thread_id: "t", checkpoint_ns: "" } })).toHaveLength(3);
    expect(await historyOf(graph, thread("t"))).toHaveLength(3);
  });

  it("list() without a namespace yields the namespaces in the order they were first written", async () => {
    const saver = new MemorySaver();
    const graph = build(new RunCounter(), saver);
    await graph.invoke({ v: ["in"] }, thread("t"));
    const order = (await listAll(saver, thread("t"))).map((t) =>
      t.config.configurable?.checkpoint_ns === "" ? `root:${t.metadata?.step}` : `sub:${t.metadata?.step}`,
    );
    expect(order).toEqual(["root:1", "root:0", "root:-1", "sub:1", "sub:0", "sub:-1"]);
  });

  it("resumes inside the subgraph: finished nodes are not re-run", async () => {
    const saver = new MemorySaver();
    const runs = new RunCounter();
    const graph = build(runs, saver);
    await graph.invoke({ v: ["in"] }, thread("t"));
    runs.reset();
    expect(await graph.invoke(new Command({ resume: "yes" }), thread("t"))).toEqual({
      v: ["in", "a", "in", "a", "s1", "s2:yes", "b"],
    });
    expect(runs.counts).toEqual({ s2: 1, b: 1 });
    const state = await graph.getState(thread("t"), { subgraphs: true });
    expect(state.next).toEqual([]);
    expect(state.tasks).toEqual([]);
    const rows = (await listAll(saver, thread("t"))).map((t) =>
      t.config.configurable?.checkpoint_ns === "" ? `root:${t.metadata?.step}` : `sub:${t.metadata?.step}`,
    );
    expect(rows.sort()).toEqual([
      "root:-1",
      "root:0",
      "root:1",
      "root:2",
      "root:3",
      "sub:-1",
      "sub:0",
      "sub:1",
      "sub:2",
    ]);
  });

  it("keeps its interrupt id when the parent re-runs without an answer", async () => {
    const graph = build();
    const first = interruptsOf(await graph.invoke({ v: ["in"] }, thread("t")));
    const again = interruptsOf(await graph.invoke(null, thread("t")));
    expect(again).toEqual(first);
    const inner = (await graph.getState(thread("t"), { subgraphs: true })).tasks[0]!.state as StateSnapshot;
    expect(inner.tasks[0]!.interrupts).toEqual(first);
  });

  it("a root run given the subgraph's snapshot config starts from the root checkpoint it belongs to", async () => {
    const saver = new MemorySaver();
    const runs = new RunCounter();
    const graph = build(runs, saver);
    await graph.invoke({ v: ["in"] }, thread("t"));
    const inner = (await graph.getState(thread("t"), { subgraphs: true })).tasks[0]!.state as StateSnapshot;
    expect(inner.config.configurable?.checkpoint_ns).toMatch(NS);
    runs.reset();
    // LangGraph.js reads checkpoint_map[""] (the subgraph's own checkpoint id names no root
    // checkpoint) and resumes there: the subgraph goes on from its own checkpoint
    expect(await graph.invoke(new Command({ resume: "ok" }), inner.config)).toEqual({
      v: ["in", "a", "in", "a", "s1", "s2:ok", "b"],
    });
    expect(runs.counts).toEqual({ s2: 1, b: 1 });
  });

  it("a root run given a past subgraph checkpoint's config replays the subgraph from that checkpoint", async () => {
    // the subgraph-manage-state how-to: the history entry of the subgraph before its first node
    const runs = new RunCounter();
    const sub = new StateGraph(LogState)
      .addNode("s1", () => {
        runs.bump("s1");
        return { v: ["s1"] };
      })
      .addNode("s2", () => {
        runs.bump("s2");
        return { v: ["s2"] };
      })
      .addEdge(START, "s1")
      .addEdge("s1", "s2")
      .compile({ interruptBefore: ["s2"] });
    const graph = new StateGraph(LogState)
      .addNode("a", () => ({ v: ["a"] }))
      .addNode("sub", sub)
      .addEdge(START, "a")
      .addEdge("a", "sub")
      .compile({ checkpointer: new MemorySaver() });
    await graph.invoke({ v: ["in"] }, thread("t"));
    let before: StateSnapshot | undefined;
    for await (const past of graph.getStateHistory(thread("t"))) if (past.next[0] === "sub") before = past;
    let first: StateSnapshot | undefined;
    for await (const past of graph.getStateHistory(before?.tasks[0]?.state as RunnableConfig)) {
      if (past.next[0] === "s1") first = past;
    }
    const ns = String(first?.config.configurable?.checkpoint_ns);
    runs.reset();
    const chunks = await collect(
      graph.stream(null, { ...first?.config, streamMode: "updates", subgraphs: true }),
    );
    // s1 runs again and the subgraph stops before s2 again (before: it went on from its latest
    // checkpoint, ran s2 and ended the parent); the breakpoint is streamed under its namespace
    expect(runs.counts).toEqual({ s1: 1 });
    expect(chunks).toEqual([
      [[ns], { s1: { v: ["s1"] } }],
      [[ns], { __interrupt__: [] }],
    ]);
    const state = await graph.getState(thread("t"), { subgraphs: true });
    expect(state.next).toEqual(["sub"]);
    expect((state.tasks[0]!.state as StateSnapshot).next).toEqual(["s2"]);
  });

  it("a root run given a subgraph config without a checkpoint map starts from the latest checkpoint", async () => {
    const graph = build();
    await graph.invoke({ v: ["in"] }, thread("t"));
    const inner = (await graph.getState(thread("t"), { subgraphs: true })).tasks[0]!.state as StateSnapshot;
    const { checkpoint_map: _map, ...configurable } = inner.config.configurable ?? {};
    expect(interruptsOf(await graph.invoke(null, { configurable }))).toEqual([{ id: ANY_ID, value: "sub?" }]);
  });

  it("new input while the subgraph is paused starts over and pauses again", async () => {
    const graph = build();
    await graph.invoke({ v: ["in"] }, thread("t"));
    expect(await graph.invoke({ v: ["again"] }, thread("t"))).toEqual({
      v: ["in", "a", "again", "a"],
      __interrupt__: [{ id: ANY_ID, value: "sub?" }],
    });
  });

  it("follows the run's durability: with exit it saves only its last checkpoint, then resumes", async () => {
    const saver = new MemorySaver();
    const graph = build(new RunCounter(), saver);
    await graph.invoke({ v: ["in"] }, { ...thread("t"), durability: "exit" });
    const rows = (await listAll(saver, thread("t"))).map((t) => [
      t.config.configurable?.checkpoint_ns === "" ? "root" : "sub",
      t.metadata?.source,
      t.metadata?.step,
      t.parentConfig !== undefined,
    ]);
    expect(rows.sort()).toEqual([
      ["root", "loop", 1, false],
      ["sub", "loop", 1, false],
    ]);
    expect(await graph.invoke(new Command({ resume: "ok" }), { ...thread("t"), durability: "exit" })).toEqual(
      {
        v: ["in", "a", "in", "a", "s1", "s2:ok", "b"],
      },
    );
    // the subgraph ended without failing: it saves nothing more (its state stays where it paused)
    const after = (await listAll(saver, thread("t"))).filter(
      (t) => t.config.configurable?.checkpoint_ns !== "",
    );
    expect(after.map((t) => [t.metadata?.source, t.metadata?.step])).toEqual([["loop", 1]]);
  });

  it("an answer given after updateState reaches no subgraph that starts afresh: it pauses again", async () => {
    // the update makes a new parent checkpoint, so the sub task (and its namespace) is new:
    // LangGraph.js runs the subgraph from its start and its interrupt gets no answer
    const runs = new RunCounter();
    const graph = build(runs);
    const first = interruptsOf(await graph.invoke({ v: ["in"] }, thread("t")));
    await graph.updateState(thread("t"), { v: ["u"] });
    runs.reset();
    const again = await graph.invoke(new Command({ resume: "yes" }), thread("t"));
    expect(again).toEqual({ v: ["in", "a", "u"], __interrupt__: [{ id: ANY_ID, value: "sub?" }] });
    expect(interruptsOf(again)).not.toEqual(first);
    expect(runs.counts).toEqual({ s1: 1, s2: 1 });
    // the next answer goes to the paused subgraph, which resumes
    expect(await graph.invoke(new Command({ resume: "ok" }), thread("t"))).toEqual({
      v: ["in", "a", "u", "in", "a", "u", "s1", "s2:ok", "b"],
    });
  });
});

describe("streaming a subgraph interrupt with subgraphs: true", () => {
  const nsNames = (chunks: unknown[]) =>
    chunks.map((c) => {
      const [ns, payload] = c as [string[], unknown];
      return [ns.map((s) => s.split(":")[0]), payload];
    });

  it("yields the interrupt from the subgraph's namespace and from the root", async () => {
    const graph = build();
    const chunks = await collect(
      graph.stream({ v: ["in"] }, { ...thread("s"), subgraphs: true, streamMode: "updates" }),
    );
    expect(nsNames(chunks)).toEqual([
      [[], { a: { v: ["a"] } }],
      [["sub"], { s1: { v: ["s1"] } }],
      [["sub"], { __interrupt__: [{ id: ANY_ID, value: "sub?" }] }],
      [[], { __interrupt__: [{ id: ANY_ID, value: "sub?" }] }],
    ]);
  });

  it("yields the subgraph's and then the parent's updates on resume", async () => {
    const graph = build();
    await graph.invoke({ v: ["in"] }, thread("s"));
    const chunks = await collect(
      graph.stream(new Command({ resume: "ok" }), { ...thread("s"), subgraphs: true, streamMode: "updates" }),
    );
    expect(nsNames(chunks)).toEqual([
      [["sub"], { s2: { v: ["s2:ok"] } }],
      [[], { sub: { v: ["in", "a", "s1", "s2:ok"] } }],
      [[], { b: { v: ["b"] } }],
    ]);
  });

  it("checkpoints mode yields the subgraph's checkpoints under its namespace", async () => {
    const sub = new StateGraph(LogState)
      .addNode("s1", () => ({ v: ["s1"] }))
      .addEdge(START, "s1")
      .compile();
    const graph = new StateGraph(LogState)
      .addNode("sub", sub)
      .addEdge(START, "sub")
      .compile({ checkpointer: new MemorySaver() });
    const chunks = await collect(
      graph.stream({ v: [] }, { ...thread("c"), streamMode: "checkpoints", subgraphs: true }),
    );
    expect(
      chunks.map((c) => {
        const [ns, ck] = c as [
          string[],
          { metadata: { step: number; source: string; parents: object }; next: string[] },
        ];
        return [
          ns.map((s) => s.split(":")[0]),
          ck.metadata.step,
          ck.metadata.source,
          Object.keys(ck.metadata.parents),
          ck.next,
        ];
      }),
    ).toEqual([
      [[], -1, "input", [], ["__start__"]],
      [[], 0, "loop", [], ["sub"]],
      [["sub"], -1, "input", [""], ["__start__"]],
      [["sub"], 0, "loop", [""], ["s1"]],
      [["sub"], 1, "loop", [""], []],
      [[], 1, "loop", [], []],
    ]);
    // the parent's task names where the subgraph's checkpoints are, and those name their parent's
    type Chunk = [
      string[],
      {
        config: { configurable: Record<string, unknown> };
        tasks: { name: string; state?: unknown }[];
      },
    ];
    const [parentStart, parentLoop, childStart] = chunks as Chunk[];
    const childNs = childStart?.[0][0];
    expect(parentStart?.[1].tasks[0]).not.toHaveProperty("state");
    expect(parentLoop?.[1].tasks[0]).toEqual({
      id: expect.any(String),
      name: "sub",
      path: ["__pregel_pull", "sub"],
      interrupts: [],
      state: { configurable: { thread_id: "c", checkpoint_ns: childNs } },
    });
    expect(childStart?.[1].config.configurable).toEqual({
      checkpoint_ns: childNs,
      thread_id: "c",
      checkpoint_map: { "": parentLoop?.[1].config.configurable.checkpoint_id },
      checkpoint_id: expect.any(String),
    });
    expect(parentLoop?.[1].config.configurable).not.toHaveProperty("checkpoint_map");
  });
});

describe("subgraphs by namespace", () => {
  /** outer → mid (a node running `inner`), two levels deep. */
  function nested() {
    const inner = new StateGraph(LogState)
      .addNode("i1", () => ({ v: [`i1:${interrupt("deep?")}`] }))
      .addEdge(START, "i1")
      .compile();
    const mid = new StateGraph(LogState).addNode("inner", inner).addEdge(START, "inner").compile();
    const outer = new StateGraph(LogState)
      .addNode("mid", mid)
      .addEdge(START, "mid")
      .compile({ checkpointer: new MemorySaver() });
    return { inner, mid, outer };
  }

  it("getSubgraphs lists the direct subgraphs, or every level with recurse, named by node path", () => {
    const { inner, mid, outer } = nested();
    expect([...outer.getSubgraphs()]).toEqual([["mid", mid]]);
    expect([...outer.getSubgraphs(undefined, true)]).toEqual([
      ["mid", mid],
      ["mid|inner", inner],
    ]);
    expect([...outer.getSubgraphs("mid|inner", true)]).toEqual([["mid|inner", inner]]);
    expect([...outer.getSubgraphs("nope", true)]).toEqual([]);
  });

  it("getState and getStateHistory of a nested namespace read the innermost graph's checkpoints", async () => {
    const { outer } = nested();
    await outer.invoke({ v: [] }, thread("n"));
    const top = await outer.getState(thread("n"), { subgraphs: true });
    const midState = top.tasks[0]!.state as StateSnapshot;
    const innerState = midState.tasks[0]!.state as StateSnapshot;
    expect(innerState.next).toEqual(["i1"]);
    expect(innerState.tasks[0]!.interrupts.map((i) => i.value)).toEqual(["deep?"]);
    const innerConfig = innerState.config;
    expect(String(innerConfig.configurable?.checkpoint_ns)).toMatch(/^mid:[^|]+\|inner:[^|]+$/);
    const read = await outer.getState(innerConfig);
    expect(read.next).toEqual(["i1"]);
    expect(read.values).toEqual({ v: [] });
    const innerThread = {
      configurable: { thread_id: "n", checkpoint_ns: innerConfig.configurable?.checkpoint_ns },
    };
    expect(outline(await historyOf(outer, innerThread))).toEqual(["0:loop:i1", "-1:input:__start__"]);
  });

  it("a namespace that names no subgraph is refused", async () => {
    const { outer } = nested();
    await outer.invoke({ v: [] }, thread("n"));
    await expect(
      outer.getState({ configurable: { thread_id: "n", checkpoint_ns: "zzz:1234" } }),
    ).rejects.toThrow(/^Subgraph with namespace "zzz" not found/);
  });
});

describe("a resumed subgraph task that sends a command to its parent", () => {
  it("is streamed as finished with its answer (an empty update, no error), as LangGraph.js does", async () => {
    const sub = new StateGraph(LogState)
      .addNode("ask", () => {
        const answer = interrupt("go?");
        return new Command({ graph: Command.PARENT, goto: "after", update: { v: [`ask:${answer}`] } });
      })
      .addEdge(START, "ask")
      .compile();
    const graph = new StateGraph(LogState)
      .addNode("sub", sub, { ends: ["after"] })
      .addNode("after", () => ({ v: ["after"] }))
      .addEdge(START, "sub")
      .compile({ checkpointer: new MemorySaver() });
    const config = thread("resumed-parent-command");
    await graph.invoke({ v: [] }, config);
    const seen: string[] = [];
    for await (const [ns, mode, chunk] of await graph.stream(new Command({ resume: "y" }), {
      ...config,
      streamMode: ["updates", "tasks"],
      subgraphs: true,
    })) {
      if (ns.length === 0) continue;
      const data = chunk as Record<string, unknown>;
      seen.push(
        mode === "tasks"
          ? `${mode} ${JSON.stringify([data.result, data.error])}`
          : `${mode} ${JSON.stringify(data)}`,
      );
    }
    // its start, then its update and result (without an answer: a ParentCommand error, no update)
    expect(seen).toEqual(["tasks [null,null]", 'updates {"ask":{}}', "tasks [{},null]"]);
    expect((await graph.getState(config)).values).toEqual({ v: ["ask:y", "after"] });
  });
});

describe("several graphs run by one node function", () => {
  it("each get a namespace of their own (the task's, then `|1`, `|2`…), as in LangGraph.js", async () => {
    const named = (name: string) =>
      new StateGraph(LogState)
        .addNode(name, (_state, config) => ({
          v: [`${name}@${String(config.configurable?.checkpoint_ns).replace(/:[^|]+/g, "")}`],
        }))
        .addEdge(START, name)
        .compile();
    const a = named("a");
    const b = named("b");
    const graph = new StateGraph(LogState)
      .addNode("w", async (state, config) => {
        const runs = [
          await a.invoke(state, config),
          await b.invoke(state, config),
          await a.invoke(state, config),
        ];
        return { v: runs.flatMap((run) => run.v) };
      })
      .addEdge(START, "w")
      .compile({ checkpointer: new MemorySaver() });
    const namespaces: number[] = [];
    for await (const [ns] of await graph.stream(
      { v: [] },
      { ...thread("several-nested"), streamMode: "updates", subgraphs: true },
    )) {
      namespaces.push(ns.length);
    }
    expect(namespaces).toEqual([1, 2, 2, 0]);
    // without their own namespaces, the later runs would continue the first one's checkpoints
    expect((await graph.getState(thread("several-nested"))).values).toEqual({
      v: ["a@w|a", "b@w|1|b", "a@w|2|a"],
    });
  });
});

describe("getState of a step with a subgraph compiled with checkpointer: false", () => {
  it("lists no subgraph state for its task (it keeps none), as LangGraph.js", async () => {
    const build = (checkpointer: false | undefined) => {
      const sub = new StateGraph(LogState)
        .addNode("s", () => ({ v: ["s"] }))
        .addEdge(START, "s")
        .compile(checkpointer === undefined ? {} : { checkpointer });
      return new StateGraph(LogState)
        .addNode("sub", sub)
        .addNode("ask", () => ({ v: [String(interrupt("q"))] }))
        .addEdge(START, "sub")
        .addEdge(START, "ask")
        .compile({ checkpointer: new MemorySaver() });
    };
    const states = [];
    for (const checkpointer of [false, undefined] as const) {
      const graph = build(checkpointer);
      const config = thread("t");
      await graph.invoke({ v: [] }, config);
      const { tasks } = await graph.getState(config);
      states.push(tasks.map((t) => [t.name, t.state === undefined ? "none" : "state"]));
    }
    expect(states).toEqual([
      [
        ["sub", "none"],
        ["ask", "none"],
      ],
      [
        ["sub", "state"],
        ["ask", "none"],
      ],
    ]);
  });
});
