/**
 * What a graph asks of its node cache, as LangGraph.js 1.7.3 asks it: the keys (namespace
 * `["__pregel_ns_writes", "__dynamic__", node]` for a node, `["__pregel_ns_writes", name]` for
 * a `task()`), and one `keyFunc` call per task; and that a task that does not run (cached, or
 * replayed on resume) reports no chain run.
 */
import { describe, expect, it } from "vitest";
import {
  Annotation,
  type CacheFullKey,
  Command,
  entrypoint,
  GraphRecursionError,
  InMemoryCache,
  interrupt,
  MemorySaver,
  START,
  StateGraph,
  task,
} from "../../index.js";

const State = Annotation.Root({
  n: Annotation<number>(),
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

/** An in-memory cache recording the namespaces it is asked for. */
class RecordingCache extends InMemoryCache {
  readonly asked: string[][] = [];
  override async get(keys: CacheFullKey[]) {
    for (const [namespace] of keys) this.asked.push([...namespace]);
    return super.get(keys);
  }
}

/** A node body logging "a", and how many times it ran. */
function countedNode() {
  const counted = {
    runs: 0,
    node: () => {
      counted.runs += 1;
      return { log: ["a"] };
    },
  };
  return counted;
}

describe("node cache keys", () => {
  it("keeps a node's entries under [__pregel_ns_writes, __dynamic__, node] and a task's under [__pregel_ns_writes, name]", async () => {
    const cache = new RecordingCache();
    const graph = new StateGraph(State)
      .addNode("a", () => ({ log: ["a"] }), { cachePolicy: {} })
      .addEdge(START, "a")
      .compile({ cache });
    await graph.invoke({ n: 1 });
    const double = task({ name: "double", cachePolicy: {} }, async (x: number) => x * 2);
    const workflow = entrypoint({ name: "wf", cache }, async (x: number) => double(x));
    await workflow.invoke(1);
    expect(cache.asked).toStrictEqual([
      ["__pregel_ns_writes", "__dynamic__", "a"],
      ["__pregel_ns_writes", "double"],
    ]);
  });

  it("calls keyFunc once per task, whether the cache has the entry or not", async () => {
    let calls = 0;
    const graph = new StateGraph(State)
      .addNode("a", () => ({ log: ["a"] }), {
        cachePolicy: {
          keyFunc: () => {
            calls += 1;
            return "same";
          },
        },
      })
      .addEdge(START, "a")
      .compile({ cache: new InMemoryCache() });
    await graph.invoke({ n: 1 });
    expect(calls).toBe(1);
    await graph.invoke({ n: 1 });
    expect(calls).toBe(2);
  });

  it("fails a run whose keyFunc returns no string, as LangGraph.js does (its hash throws a TypeError)", async () => {
    const a = countedNode();
    const graph = new StateGraph(State)
      .addNode(
        "a",
        a.node,
        // JavaScript callers can return anything; a number must not give all inputs one entry
        { cachePolicy: { keyFunc: ((args: [{ n: number }]) => args[0].n) as unknown as () => string } },
      )
      .addEdge(START, "a")
      .compile({ cache: new InMemoryCache() });
    await expect(graph.invoke({ n: 1 })).rejects.toThrow(TypeError);
    await expect(graph.invoke({ n: 2 })).rejects.toThrow('The cachePolicy keyFunc of "a" returned number');
    expect(a.runs).toBe(0);

    const half = task(
      { name: "half", cachePolicy: { keyFunc: (() => null) as unknown as () => string } },
      async (x: number) => x / 2,
    );
    const workflow = entrypoint({ name: "wf", cache: new InMemoryCache() }, async (x: number) =>
      half(x).catch((error: unknown) => (error instanceof TypeError ? "TypeError" : "other")),
    );
    expect(await workflow.invoke(4)).toBe("TypeError");
  });

  it("serves a node that runs again in the next step from what its first run stored", async () => {
    const a = countedNode();
    const graph = new StateGraph(State)
      .addNode("a", a.node, { cachePolicy: { keyFunc: () => "same" } })
      .addEdge(START, "a")
      // the route is among the cached writes, so the served steps loop on "a" as well
      .addConditionalEdges("a", () => "a")
      .compile({ cache: new InMemoryCache() });
    const chunks: unknown[] = [];
    const run = async () => {
      for await (const chunk of await graph.stream({ n: 1 }, { streamMode: "updates", recursionLimit: 3 }))
        chunks.push(chunk);
    };
    await expect(run()).rejects.toThrow(GraphRecursionError);
    expect(a.runs).toBe(1);
    expect(chunks).toStrictEqual([
      { a: { log: ["a"] } },
      { a: { log: ["a"] }, __metadata__: { cached: true } },
      { a: { log: ["a"] }, __metadata__: { cached: true } },
    ]);
  });
});

/** The chain runs `streamEvents` reports: [event, name], the graph's own left out. */
async function chainRuns(events: AsyncIterable<{ event: string; name: string }>, graphName: string) {
  const runs: string[][] = [];
  for await (const { event, name } of events) {
    if (name !== graphName && (event === "on_chain_start" || event === "on_chain_end"))
      runs.push([event, name]);
  }
  return runs;
}

describe("tasks that do not run", () => {
  it("a cached node reports no chain run to streamEvents or callbacks (LangGraph.js runs nothing)", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => ({ log: ["a"] }), { cachePolicy: {} })
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile({ cache: new InMemoryCache() });
    await graph.invoke({ n: 1 });
    // the hidden __start__ node runs; the cached node does not
    expect(await chainRuns(graph.streamEvents({ n: 1 }, { version: "v2" }), "LangGraph")).toStrictEqual([
      ["on_chain_start", "__start__"],
      ["on_chain_end", "__start__"],
      ["on_chain_start", "b"],
      ["on_chain_end", "b"],
    ]);
    const started: string[] = [];
    await graph.invoke(
      { n: 1 },
      {
        callbacks: [
          {
            handleChainStart: (...args: unknown[]) => {
              started.push(String(args[7]));
            },
          },
        ],
      },
    );
    // the hidden __start__ node runs; the cached node does not
    expect(started).toStrictEqual(["LangGraph", "__start__", "b"]);
  });

  it("a cached task() call, and one replayed on resume, report no chain run", async () => {
    const cache = new InMemoryCache();
    const double = task({ name: "double", cachePolicy: {} }, async (x: number) => x * 2);
    const cached = entrypoint({ name: "cached", cache }, async (x: number) => double(x));
    await cached.invoke(1);
    // only the entrypoint's own hidden runs, which take its result apart
    const plucks = [
      ["on_chain_start", "pluckReturnValue"],
      ["on_chain_end", "pluckReturnValue"],
      ["on_chain_start", "pluckSaveValue"],
      ["on_chain_end", "pluckSaveValue"],
    ];
    expect(await chainRuns(cached.streamEvents(1, { version: "v2" }), "cached")).toStrictEqual(plucks);

    const first = task("first", async () => "one");
    const ask = task("ask", async () => interrupt("q"));
    const resumed = entrypoint({ name: "resumed", checkpointer: new MemorySaver() }, async () => [
      await first(),
      await ask(),
    ]);
    const config = { configurable: { thread_id: "t" } };
    await resumed.invoke({}, config);
    const runs = await chainRuns(
      resumed.streamEvents(new Command({ resume: "x" }), { ...config, version: "v2" }),
      "resumed",
    );
    expect(runs).toStrictEqual([["on_chain_start", "ask"], ["on_chain_end", "ask"], ...plucks]);
  });
});
