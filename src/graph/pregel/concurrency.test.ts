import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../shared/index.js";
import { Annotation, Send, START, StateGraph } from "../index.js";

const State = Annotation.Root({
  i: Annotation<number>,
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** fan → six `w` tasks (Sends) that record how many run at the same time. */
function fanOut() {
  const gauge = { current: 0, max: 0 };
  const graph = new StateGraph(State)
    .addNode("fan", () => ({}))
    .addNode("w", (async (arg: { k: number }) => {
      gauge.current += 1;
      gauge.max = Math.max(gauge.max, gauge.current);
      await sleep(10);
      gauge.current -= 1;
      return { log: [String(arg.k)] };
    }) as never)
    .addEdge(START, "fan")
    .addConditionalEdges("fan", () => Array.from({ length: 6 }, (_, k) => new Send("w", { k })))
    .compile();
  return { graph, gauge };
}

describe("maxConcurrency", () => {
  it("runs all tasks of a step at once by default", async () => {
    const { graph, gauge } = fanOut();
    await graph.invoke({ i: 0 });
    expect(gauge.max).toBe(6);
  });

  it.each([1, 2, 4])("runs at most %i tasks at a time, with the same result", async (limit) => {
    const { graph, gauge } = fanOut();
    const result = await graph.invoke({ i: 0 }, { maxConcurrency: limit });
    expect(result.log).toEqual(["0", "1", "2", "3", "4", "5"]);
    expect(gauge.max).toBe(limit);
  });

  it("rejects a maxConcurrency below 1 (the reference hangs)", async () => {
    const { graph } = fanOut();
    await expect(graph.invoke({ i: 0 }, { maxConcurrency: 0 })).rejects.toThrow(InvalidArgumentError);
  });
});

describe("abort", () => {
  it("an already aborted signal rejects with its reason before any node runs", async () => {
    let ran = false;
    const graph = new StateGraph(State)
      .addNode("a", () => {
        ran = true;
        return {};
      })
      .addEdge(START, "a")
      .compile();
    const controller = new AbortController();
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(graph.invoke({ i: 0 }, { signal: controller.signal })).rejects.toBe(reason);
    expect(ran).toBe(false);
  });

  it("aborting during a run rejects with the signal's reason and runs no later node", async () => {
    const ran: string[] = [];
    const graph = new StateGraph(State)
      .addNode("a", async () => {
        ran.push("a");
        await sleep(50);
        return { i: 1 };
      })
      .addNode("b", () => {
        ran.push("b");
        return {};
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    const controller = new AbortController();
    const reason = new Error("stop");
    setTimeout(() => controller.abort(reason), 10);
    await expect(graph.invoke({ i: 0 }, { signal: controller.signal })).rejects.toBe(reason);
    await sleep(70);
    expect(ran).toEqual(["a"]);
  });

  it("aborting without a reason rejects with an AbortError", async () => {
    const graph = new StateGraph(State)
      .addNode("a", async () => {
        await sleep(50);
        return {};
      })
      .addEdge(START, "a")
      .compile();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 5);
    const error = await graph.invoke({ i: 0 }, { signal: controller.signal }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.name).toBe("AbortError");
  });

  it("aborts a stream too", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => ({ i: 1 }))
      .addNode("b", async () => {
        await sleep(50);
        return { i: 2 };
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    const controller = new AbortController();
    const reason = new Error("stop");
    const chunks: unknown[] = [];
    const consume = (async () => {
      for await (const chunk of await graph.stream({ i: 0 }, { signal: controller.signal })) {
        chunks.push(chunk);
        controller.abort(reason);
      }
    })();
    await expect(consume).rejects.toBe(reason);
    expect(chunks).toEqual([{ a: { i: 1 } }]);
  });
});

describe("isolation", () => {
  it("concurrent invocations of one compiled graph see only their own state and config", async () => {
    const graph = new StateGraph(State)
      .addNode("a", async (s, config) => {
        await sleep(10);
        return { log: [`${config.configurable?.who}:${s.i}`] };
      })
      .addNode("b", async (s, config) => {
        await sleep(5);
        return { log: [`${config.configurable?.who}:${s.log.length}`] };
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    const results = await Promise.all(
      ["x", "y", "z"].map((who, i) => graph.invoke({ i }, { configurable: { who } })),
    );
    expect(results).toEqual([
      { i: 0, log: ["x:0", "x:1"] },
      { i: 1, log: ["y:1", "y:1"] },
      { i: 2, log: ["z:2", "z:1"] },
    ]);
  });

  it("a run does not change the graph's channels or a later run's defaults", async () => {
    const graph = new StateGraph(State)
      .addNode("a", (s) => ({ log: [`seen ${s.log.length}`] }))
      .addEdge(START, "a")
      .compile();
    expect((await graph.invoke({ i: 0 })).log).toEqual(["seen 0"]);
    expect((await graph.invoke({ i: 0 })).log).toEqual(["seen 0"]);
    expect(graph.channels.log?.get()).toEqual([]);
  });
});
