/**
 * What a graph asks of its node cache, as LangGraph.js 1.7.3 asks it: the keys (namespace
 * `["__pregel_ns_writes", "__dynamic__", node]` for a node, `["__pregel_ns_writes", name]` for
 * a `task()`), and one `keyFunc` call per task.
 */
import { describe, expect, it } from "vitest";
import {
  Annotation,
  type CacheFullKey,
  entrypoint,
  InMemoryCache,
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
});
