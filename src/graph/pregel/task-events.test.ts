/**
 * `tasks` / `debug` / `checkpoints` events around resumed steps and cached tasks. Expected
 * values: @langchain/langgraph 1.7.3 (probes /tmp/probes-b/p7.ts, p8.ts, p6.ts).
 */
import { describe, expect, it } from "vitest";
import {
  Command,
  END,
  entrypoint,
  GraphInterrupt,
  InMemoryCache,
  interrupt,
  MemorySaver,
  START,
  StateGraph,
  task,
} from "../../index.js";
import { ANY_ID, collect, interruptsOf, LogState, thread } from "./persistence.test-helpers.js";

type Chunk = [string, Record<string, unknown>];

/** `b` finishes, `c` interrupts, in the same step. */
function parallel() {
  return new StateGraph(LogState)
    .addNode("b", () => ({ v: ["b"] }))
    .addNode("c", () => ({ v: [`c:${interrupt("c?")}`] }))
    .addEdge(START, "b")
    .addEdge(START, "c")
    .compile({ checkpointer: new MemorySaver() });
}

/** `[mode, event kind, task name]` of a stream's chunks. */
function outline(chunks: Chunk[]): string[] {
  return chunks.map(([mode, payload]) => {
    if (mode === "updates") return `updates:${Object.keys(payload).sort().join(",")}`;
    if (mode === "tasks") return `tasks:${"result" in payload ? "result" : "start"}:${payload.name}`;
    return mode;
  });
}

describe("resuming a step where some tasks finished", () => {
  it("announces the finished tasks again, after their replayed updates", async () => {
    const graph = parallel();
    await graph.invoke({ v: [] }, thread("t"));
    const chunks = (await collect(
      graph.stream(new Command({ resume: "y" }), { ...thread("t"), streamMode: ["tasks", "updates"] }),
    )) as Chunk[];
    expect(outline(chunks)).toEqual([
      "updates:__metadata__,b",
      "tasks:start:b",
      "tasks:start:c",
      "updates:c",
      "tasks:result:c",
    ]);
  });

  it("reports the finished task's result in the checkpoint it resumes from", async () => {
    const graph = parallel();
    await graph.invoke({ v: [] }, thread("t"));
    const chunks = (await collect(
      graph.stream(new Command({ resume: "y" }), { ...thread("t"), streamMode: "checkpoints" }),
    )) as { tasks: Record<string, unknown>[] }[];
    expect(chunks[0]?.tasks).toEqual([
      { id: ANY_ID, name: "b", path: ["__pregel_pull", "b"], interrupts: [], result: { v: ["b"] } },
      {
        id: ANY_ID,
        name: "c",
        path: ["__pregel_pull", "c"],
        interrupts: [{ id: ANY_ID, value: "c?" }],
        result: undefined,
      },
    ]);
  });
});

describe("cached tasks", () => {
  it("a node served from the cache is announced but has no result event", async () => {
    const graph = new StateGraph(LogState)
      .addNode("a", () => ({ v: ["a"] }), { cachePolicy: { ttl: 60 } })
      .addEdge(START, "a")
      .compile({ cache: new InMemoryCache() });
    await graph.invoke({ v: ["k"] });
    const chunks = (await collect(
      graph.stream({ v: ["k"] }, { streamMode: ["tasks", "updates"] }),
    )) as Chunk[];
    expect(outline(chunks)).toEqual(["tasks:start:a", "updates:__metadata__,a"]);
  });

  it("a call replayed on resume is announced, and has no result event", async () => {
    let runs = 0;
    const add = task("add", async (a: number) => {
      runs++;
      return a + 1;
    });
    const wf = entrypoint({ name: "wf", checkpointer: new MemorySaver() }, async (x: number) => {
      const a = await add(x);
      return [a, interrupt("ok?")];
    });
    await wf.invoke(1, thread("f"));
    const chunks = (await collect(
      wf.stream(new Command({ resume: "y" }), { ...thread("f"), streamMode: ["tasks", "updates"] }),
    )) as Chunk[];
    expect(outline(chunks)).toEqual([
      "tasks:start:wf",
      "tasks:start:add",
      "updates:__metadata__,add",
      "updates:wf",
      "tasks:result:wf",
    ]);
    expect(runs).toBe(1);
  });
});

describe("tasks of a step that settle together", () => {
  it("stream their interrupts first, then the successes in start order", async () => {
    const graph = new StateGraph(LogState)
      .addNode("a", () => ({ v: ["a"] }))
      .addNode("b", async () => {
        await null;
        return { v: [`b:${interrupt("b?")}`] };
      })
      .addNode("c", async () => ({ v: ["c"] }))
      .addNode("d", () => ({ v: [`d:${interrupt("d?")}`] }))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .addEdge(START, "c")
      .addEdge(START, "d")
      .compile({ checkpointer: new MemorySaver() });
    const chunks = (await collect(
      graph.stream({ v: [] }, { ...thread("t"), streamMode: "updates" }),
    )) as Record<string, unknown>[];
    expect(chunks).toEqual([
      { __interrupt__: [{ id: ANY_ID, value: "d?" }] },
      { __interrupt__: [{ id: ANY_ID, value: "b?" }] },
      { a: { v: ["a"] } },
      { c: { v: ["c"] } },
    ]);
    expect(interruptsOf(await graph.invoke({ v: [] }, thread("u"))).map((i) => i.value)).toEqual([
      "d?",
      "b?",
    ]);
  });
});

describe("a failed task's result event", () => {
  it("carries the error as LangGraph.js streams it: { message, name }, which survives JSON", async () => {
    const graph = new StateGraph(LogState)
      .addNode("a", async () => {
        await null;
        throw new TypeError("bad thing");
      })
      .addEdge(START, "a")
      .compile();
    const results: Record<string, unknown>[] = [];
    await expect(
      (async () => {
        for await (const chunk of await graph.stream({ v: [] }, { streamMode: "tasks" })) {
          if ("result" in chunk) results.push(chunk as Record<string, unknown>);
        }
      })(),
    ).rejects.toThrow("bad thing");
    expect(results).toHaveLength(1);
    expect(results[0]?.error).toEqual({ message: "bad thing", name: "TypeError" });
    expect(JSON.parse(JSON.stringify(results[0]))).toMatchObject({
      error: { message: "bad thing", name: "TypeError" },
    });
  });
});

describe("result events of tasks that paused", () => {
  it("are not streamed for a task() call that interrupted: its caller's result lists the interrupt", async () => {
    const ask = task("ask", async (x: string) => `${x}:${interrupt({ ask: x })}`);
    const workflow = entrypoint(
      { name: "wf", checkpointer: new MemorySaver() },
      async (x: string) => await ask(x),
    );
    const chunks = (await collect(
      workflow.stream("in", { ...thread("call-interrupt"), streamMode: ["tasks", "updates"] }),
    )) as Chunk[];
    expect(outline(chunks)).toEqual([
      "tasks:start:wf",
      "tasks:start:ask",
      "updates:__interrupt__",
      "tasks:result:wf",
    ]);
    expect(chunks.at(-1)?.[1]).toEqual({
      id: ANY_ID,
      name: "wf",
      result: {},
      interrupts: [{ id: ANY_ID, value: { ask: "in" } }],
      error: null,
    });
  });

  it("are not streamed for a task paused without interrupts (a subgraph's breakpoint, a bare GraphInterrupt)", async () => {
    const child = new StateGraph(LogState)
      .addNode("s1", () => ({ v: ["s1"] }))
      .addNode("s2", () => ({ v: ["s2"] }))
      .addEdge(START, "s1")
      .addEdge("s1", "s2")
      .compile({ interruptBefore: ["s2"] });
    const parent = new StateGraph(LogState)
      .addNode("child", child)
      .addNode("bare", () => {
        throw new GraphInterrupt();
      })
      .addEdge(START, "child")
      .addEdge(START, "bare")
      .addEdge("child", END)
      .compile({ checkpointer: new MemorySaver() });
    const chunks = (await collect(
      parent.stream({ v: [] }, { ...thread("empty-interrupt"), streamMode: ["tasks", "debug"] }),
    )) as Chunk[];
    const results = chunks.filter(
      ([mode, payload]) => (mode === "tasks" && "result" in payload) || payload.type === "task_result",
    );
    expect(results).toEqual([]);
  });
});
