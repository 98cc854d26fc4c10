// Reading a thread while a run of it streams, stopping a stream early, and the errors of a run
// without a thread, with MemorySaver and SqliteSaver, as a LangGraph.js program sees them.
import { describe, expect, it } from "vitest";
import {
  Annotation,
  type BaseCheckpointSaver,
  CheckpointConfigError,
  END,
  interrupt,
  MemorySaver,
  START,
  StateGraph,
} from "../index.js";
import { SqliteSaver } from "./sqlite/index.js";

const State = Annotation.Root({
  n: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
});

const SAVERS: Record<string, () => BaseCheckpointSaver> = {
  MemorySaver: () => new MemorySaver(),
  SqliteSaver: () => SqliteSaver.fromConnString(":memory:"),
};

/** a → b → c, each adding to `n`, recording what ran in `ran`. */
function chain(saver: BaseCheckpointSaver, ran: string[] = []) {
  return new StateGraph(State)
    .addNode("a", async () => {
      ran.push("a");
      return { n: 1 };
    })
    .addNode("b", async () => {
      ran.push("b");
      return { n: 10 };
    })
    .addNode("c", async () => {
      ran.push("c");
      return { n: 100 };
    })
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", "c")
    .addEdge("c", END)
    .compile({ checkpointer: saver });
}

describe.each(Object.entries(SAVERS))("%s", (_name, create) => {
  it("getState at the __interrupt__ chunk of a stream shows the paused step (async durability)", async () => {
    for (const durability of ["async", "sync"] as const) {
      const graph = new StateGraph(State)
        .addNode("a", async () => ({ n: 1 }))
        .addNode("h", async () => ({ n: interrupt("ok?") as number }))
        .addEdge(START, "a")
        .addEdge("a", "h")
        .addEdge("h", END)
        .compile({ checkpointer: create() });
      const config = { configurable: { thread_id: `t-${durability}` } };
      const seen: unknown[] = [];
      for await (const chunk of await graph.stream(
        { n: 0 },
        { ...config, durability, streamMode: "updates" },
      )) {
        if (!("__interrupt__" in chunk)) continue;
        const snapshot = await graph.getState(config);
        seen.push([snapshot.next, snapshot.values, snapshot.tasks.map((task) => task.interrupts.length)]);
      }
      expect(seen).toEqual([[["h"], { n: 1 }, [1]]]);
    }
  });

  it("a node reading its own thread sees the steps before its own", async () => {
    const seen: unknown[] = [];
    const saver = create();
    const config = { configurable: { thread_id: "inside" } };
    const graph = new StateGraph(State)
      .addNode("a", async () => ({ n: 1 }))
      .addNode("b", async () => {
        const snapshot = await graph.getState(config);
        seen.push([snapshot.metadata?.step, snapshot.next, snapshot.values]);
        return { n: 10 };
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile({ checkpointer: saver });
    await graph.invoke({ n: 0 }, config);
    expect(seen).toEqual([[1, ["b"], { n: 1 }]]);
  });

  it("leaving a stream at a step's last chunk keeps that step: the next node is next, and runs again on resume", async () => {
    const ran: string[] = [];
    const graph = chain(create(), ran);
    const config = { configurable: { thread_id: "break" } };
    for await (const chunk of await graph.stream({ n: 0 }, { ...config, streamMode: "updates" })) {
      if ("b" in chunk) break;
    }
    // the run keeps a step ahead of its consumer: `c` had started when the consumer left (as in
    // LangGraph.js 1.7.3), and its step was not kept
    expect(ran).toEqual(["a", "b", "c"]);
    const snapshot = await graph.getState(config);
    expect([snapshot.metadata?.step, snapshot.next, snapshot.values]).toEqual([2, ["c"], { n: 11 }]);
    expect(await graph.invoke(null, config)).toEqual({ n: 111 });
    expect(ran).toEqual(["a", "b", "c", "c"]);
  });

  it("getStateHistory while streaming lists the steps taken so far", async () => {
    const graph = chain(create());
    const config = { configurable: { thread_id: "history" } };
    const lengths: number[] = [];
    for await (const _ of await graph.stream({ n: 0 }, { ...config, streamMode: "checkpoints" })) {
      const history = [];
      for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot);
      lengths.push(history.length);
    }
    // each checkpoint chunk's own checkpoint is in the history by the time the chunk is read
    for (let i = 0; i < lengths.length; i++) expect(lengths[i]).toBeGreaterThanOrEqual(i + 1);
  });

  it("a run without a thread id fails at once with the saver's text; so does updateState", async () => {
    const graph = chain(create());
    const isSqlite = create() instanceof SqliteSaver;
    const text = isSqlite
      ? 'Missing "thread_id" field in passed "config.configurable".'
      : 'Failed to put checkpoint. The passed RunnableConfig is missing a required "thread_id" field in its "configurable" property.';
    for (const attempt of [
      () => graph.invoke({ n: 1 }),
      () => graph.invoke({ n: 1 }, { configurable: {} }),
      () => graph.updateState({}, { n: 5 }),
      () => graph.updateState({ configurable: {} }, { n: 5 }, "a"),
    ]) {
      const error = await attempt().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CheckpointConfigError);
      expect((error as Error).message.startsWith(text)).toBe(true);
    }
  });
});

describe("an empty thread id", () => {
  it("is no thread id to SqliteSaver, as to LangGraph.js's (nothing is written under thread '')", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    const graph = chain(saver);
    for (const attempt of [
      () => graph.invoke({ n: 1 }, { configurable: { thread_id: "" } }),
      () => graph.updateState({ configurable: { thread_id: "" } }, { n: 5 }, "a"),
    ]) {
      await expect(attempt()).rejects.toThrow(/^Missing "thread_id" field in passed "config.configurable"\./);
    }
    expect(await saver.getTuple({ configurable: { thread_id: "" } })).toBeUndefined();
  });

  it("is refused by MemorySaver as a storage key, as LangGraph.js's refuses it", async () => {
    const graph = chain(new MemorySaver());
    await expect(graph.updateState({ configurable: { thread_id: "" } }, { n: 5 }, "a")).rejects.toThrow(
      /^Invalid configurable value for key "thread_id": empty string is not permitted/,
    );
  });
});

describe("stream()", () => {
  it("rejects when the run fails before its first chunk, as LangChain.js's stream() does", async () => {
    const graph = new StateGraph(State)
      .addNode("a", async () => {
        throw new TypeError("boom");
      })
      .addEdge(START, "a")
      .compile();
    await expect(graph.stream({ n: 0 })).rejects.toThrow("boom");
  });

  it("resolves with the first chunk waiting; a later failure is thrown by the iteration", async () => {
    const graph = new StateGraph(State)
      .addNode("a", async () => ({ n: 1 }))
      .addNode("b", async () => {
        throw new TypeError("late");
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    const stream = await graph.stream({ n: 0 });
    const chunks: unknown[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream) chunks.push(chunk);
      })(),
    ).rejects.toThrow("late");
    expect(chunks).toEqual([{ a: { n: 1 } }]);
  });
});
