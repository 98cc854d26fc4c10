/**
 * Durability modes sync / async / exit: same results, different numbers of stored checkpoints.
 * Expected values: @langchain/langgraph 1.7.3 (probe /tmp/probe/q8.ts).
 */
import { describe, expect, it } from "vitest";
import {
  Annotation,
  Command,
  type Durability,
  interrupt,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from "../../index.js";
import { AIMessage, ToolMessage } from "../../messages/index.js";
import {
  historyOf,
  interruptsOf,
  LogState,
  outline,
  RunCounter,
  thread,
} from "./persistence.test-helpers.js";

const MODES: Durability[] = ["sync", "async", "exit"];

function chain(runs = new RunCounter()) {
  const node = (name: string) => () => {
    runs.bump(name);
    return { v: [name] };
  };
  return new StateGraph(LogState)
    .addNode("a", node("a"))
    .addNode("b", node("b"))
    .addNode("c", node("c"))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", "c")
    .compile({ checkpointer: new MemorySaver() });
}

function askGraph(runs: RunCounter) {
  return new StateGraph(LogState)
    .addNode("a", () => {
      runs.bump("a");
      return { v: ["a"] };
    })
    .addNode("b", () => {
      runs.bump("b");
      return { v: ["b"] };
    })
    .addNode("ask", () => {
      runs.bump("ask");
      return { v: [`ask:${interrupt("q")}`] };
    })
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", "ask")
    .compile({ checkpointer: new MemorySaver() });
}

describe("durability", () => {
  it.each(MODES)("%s gives the same results and continues the thread", async (durability) => {
    const graph = chain();
    expect(await graph.invoke({ v: ["in"] }, { ...thread("d"), durability })).toEqual({
      v: ["in", "a", "b", "c"],
    });
    expect((await graph.getState(thread("d"))).values).toEqual({ v: ["in", "a", "b", "c"] });
    expect(await graph.invoke({ v: ["in2"] }, { ...thread("d"), durability })).toEqual({
      v: ["in", "a", "b", "c", "in2", "a", "b", "c"],
    });
  });

  it("sync and async store every checkpoint of the run", async () => {
    for (const durability of ["sync", "async"] as const) {
      const graph = chain();
      await graph.invoke({ v: ["in"] }, { ...thread("d"), durability });
      expect(outline(await historyOf(graph, thread("d")))).toEqual([
        "3:loop:",
        "2:loop:c",
        "1:loop:b",
        "0:loop:a",
        "-1:input:__start__",
      ]);
      await graph.invoke({ v: ["in2"] }, { ...thread("d"), durability });
      expect(await historyOf(graph, thread("d"))).toHaveLength(10);
    }
  });

  it("exit stores only the last checkpoint of each run", async () => {
    const graph = chain();
    await graph.invoke({ v: ["in"] }, { ...thread("d"), durability: "exit" });
    const history = await historyOf(graph, thread("d"));
    expect(outline(history)).toEqual(["3:loop:"]);
    expect(history[0]!.values).toEqual({ v: ["in", "a", "b", "c"] });
    await graph.invoke({ v: ["in2"] }, { ...thread("d"), durability: "exit" });
    expect(await historyOf(graph, thread("d"))).toHaveLength(2);
  });

  it.each(MODES)("%s saves an interrupted run so that it resumes", async (durability) => {
    const runs = new RunCounter();
    const graph = askGraph(runs);
    const paused = await graph.invoke({ v: ["in"] }, { ...thread("i"), durability });
    expect(paused).toEqual({ v: ["in", "a", "b"], __interrupt__: [{ id: expect.any(String), value: "q" }] });
    const state = await graph.getState(thread("i"));
    expect(state.values).toEqual({ v: ["in", "a", "b"] });
    expect(state.next).toEqual(["ask"]);
    expect(state.tasks[0]!.interrupts).toEqual(interruptsOf(paused));
    const history = await historyOf(graph, thread("i"));
    expect(outline(history)).toEqual(
      durability === "exit" ? ["2:loop:ask"] : ["2:loop:ask", "1:loop:b", "0:loop:a", "-1:input:__start__"],
    );
    expect(await graph.invoke(new Command({ resume: "R" }), { ...thread("i"), durability })).toEqual({
      v: ["in", "a", "b", "ask:R"],
    });
    expect(runs.counts).toEqual({ a: 1, b: 1, ask: 2 });
    expect(await historyOf(graph, thread("i"))).toHaveLength(history.length + 1);
  });

  it("exit keeps the writes of tasks that finished beside an interrupt, and does not re-run them", async () => {
    const runs = new RunCounter();
    const graph = new StateGraph(LogState)
      .addNode("x", () => {
        runs.bump("x");
        return { v: [`x:${interrupt("x?")}`] };
      })
      .addNode("z", () => {
        runs.bump("z");
        return { v: ["z"] };
      })
      .addEdge(START, "x")
      .addEdge(START, "z")
      .compile({ checkpointer: new MemorySaver() });
    await graph.invoke({ v: [] }, { ...thread("p"), durability: "exit" });
    const state = await graph.getState(thread("p"));
    expect(state.values).toEqual({ v: ["z"] });
    expect(state.next).toEqual(["x"]);
    expect(state.tasks.map((t) => [t.name, t.result, t.interrupts.length])).toEqual([
      ["x", undefined, 1],
      ["z", { v: ["z"] }, 0],
    ]);
    expect(await graph.invoke(new Command({ resume: "A" }), { ...thread("p"), durability: "exit" })).toEqual({
      v: ["x:A", "z"],
    });
    expect(runs.counts).toEqual({ x: 2, z: 1 });
  });

  it.each([
    ["async", ["in", "a", "h:r1:r1"]],
    ["exit", ["in", "a"]],
  ] as const)(
    "%s: a later null input finds the resume answer a paused run used, unless exit",
    async (durability, v) => {
      // LangGraph.js saves a Command's scalar answer at once, except with exit, whose save at the
      // end leaves out the answer the run used up: a node that paused again then pauses once more
      const saver = new MemorySaver();
      const graph = new StateGraph(LogState)
        .addNode("a", () => ({ v: ["a"] }))
        .addNode("h", () => ({ v: [`h:${interrupt("q1")}:${interrupt("q2")}`] }))
        .addEdge(START, "a")
        .addEdge("a", "h")
        .compile({ checkpointer: saver });
      await graph.invoke({ v: ["in"] }, thread("r"));
      await graph.invoke(new Command({ resume: "r1" }), { ...thread("r"), durability });
      const saved = (await saver.getTuple(thread("r")))?.pendingWrites?.map(([, channel, value]) => [
        channel,
        value,
      ]);
      expect(saved?.filter(([channel]) => channel === "__resume__")).toEqual(
        durability === "exit"
          ? [["__resume__", ["r1"]]]
          : [
              ["__resume__", "r1"],
              ["__resume__", ["r1"]],
            ],
      );
      const result = await graph.invoke(null, thread("r"));
      expect(result.v).toEqual(v);
    },
  );

  it.each(["sync", "exit"] as const)(
    "%s saves a failed run with the failing task pending",
    async (durability) => {
      const graph = new StateGraph(LogState)
        .addNode("a", () => ({ v: ["a"] }))
        .addNode("boom", () => {
          throw new Error("boom");
        })
        .addEdge(START, "a")
        .addEdge("a", "boom")
        .compile({ checkpointer: new MemorySaver() });
      await expect(graph.invoke({ v: [] }, { ...thread("e"), durability })).rejects.toThrow("boom");
      const history = await historyOf(graph, thread("e"));
      expect(history).toHaveLength(durability === "exit" ? 1 : 3);
      const state = await graph.getState(thread("e"));
      expect(state.values).toEqual({ v: ["a"] });
      expect(state.next).toEqual(["boom"]);
      expect((state.tasks[0]!.error as { message?: string }).message).toBe("boom");
    },
  );
});

describe("messages written without an id", () => {
  // LangGraph.js 1.7.3 stores every message with the id its messages reducer gave it, in every
  // mode; the saver used to encode a finished task's writes before the step's end gave the ids
  it.each(MODES)("are stored with their ids when a sibling finishes later (%s)", async (durability) => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("fast", () => ({ messages: [new ToolMessage({ content: "t", tool_call_id: "c1" })] }))
      .addNode("slow", async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { messages: [new AIMessage("slow")] };
      })
      .addEdge(START, "fast")
      .addEdge(START, "slow")
      .compile({ checkpointer: new MemorySaver() });
    const output = await graph.invoke(
      { messages: [{ role: "user", content: "hi" }] },
      { ...thread("m"), durability },
    );
    const ids = output.messages.map((message) => message.id);
    expect(ids.every((id) => typeof id === "string")).toBe(true);
    const stored = (await graph.getState(thread("m"))).values.messages;
    expect(stored.map((message) => [message.getType(), message.id])).toEqual([
      ["human", ids[0]],
      ["tool", ids[1]],
      ["ai", ids[2]],
    ]);
  });
});

describe("async durability with a saver that has no putBatch", () => {
  it("saves the same checkpoints one call at a time (LangGraph.js's savers have no putBatch)", async () => {
    const inner = new MemorySaver();
    const calls: string[] = [];
    // only the LangGraph.js saver methods, delegating to a MemorySaver
    const foreign = {
      getTuple: (config: Parameters<MemorySaver["getTuple"]>[0]) => inner.getTuple(config),
      list: (config: Parameters<MemorySaver["list"]>[0], options?: Parameters<MemorySaver["list"]>[1]) =>
        inner.list(config, options),
      put: (...args: Parameters<MemorySaver["put"]>) => {
        calls.push("put");
        return inner.put(...args);
      },
      putWrites: (...args: Parameters<MemorySaver["putWrites"]>) => {
        calls.push("putWrites");
        return inner.putWrites(...args);
      },
      getNextVersion: (current: Parameters<MemorySaver["getNextVersion"]>[0]) =>
        inner.getNextVersion(current),
      deleteThread: (threadId: string) => inner.deleteThread(threadId),
    };
    const node = (name: string) => () => ({ v: [name] });
    const graph = new StateGraph(LogState)
      .addNode("a", node("a"))
      .addNode("b", node("b"))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile({ checkpointer: foreign as unknown as MemorySaver });
    const config = thread("foreign");
    expect(await graph.invoke({ v: [] }, { ...config, durability: "async" })).toEqual({ v: ["a", "b"] });
    expect(calls.filter((c) => c === "put")).toHaveLength(4); // one per step: the input, __start__, a and b
    const latest = await inner.getTuple({ configurable: { thread_id: config.configurable.thread_id } });
    expect(latest?.checkpoint.channel_values.v).toEqual(["a", "b"]);
  });
});

describe("a save that fails in a run that pauses", () => {
  // LangGraph.js 1.7.3 rejects with the saver's error in every mode (its serializer writes a
  // cycle as "[Circular]", so the probe used a saver whose put throws; here a toJSON that throws).
  const ValueState = Annotation.Root({ v: Annotation<unknown>() });
  function pausing(value: () => unknown) {
    return new StateGraph(ValueState)
      .addNode("a", () => ({ v: value() }))
      .addNode("ask", () => {
        interrupt("q");
        return {};
      })
      .addEdge(START, "a")
      .addEdge("a", "ask")
      .compile({ checkpointer: new MemorySaver() });
  }

  it.each(MODES)(
    "fails the run with the save's error (%s) rather than returning the pause",
    async (durability) => {
      const ok = pausing(() => ({ fine: true }));
      expect(interruptsOf(await ok.invoke({ v: 0 }, { ...thread("ok"), durability }))).toHaveLength(1);
      const unsaved = pausing(() => ({
        toJSON() {
          throw new Error("cannot save me");
        },
      }));
      await expect(unsaved.invoke({ v: 0 }, { ...thread("cyclic"), durability })).rejects.toThrow(
        "cannot save me",
      );
      const streamed = async () => {
        for await (const _chunk of await unsaved.stream({ v: 0 }, { ...thread("cyclic2"), durability })) {
          // drain
        }
      };
      await expect(streamed()).rejects.toThrow("cannot save me");
    },
  );

  it('a circular value does not fail the run: the checkpoint holds "[Circular]" (LangGraph.js)', async () => {
    const graph = new StateGraph(ValueState)
      .addNode("a", () => {
        const circular: { k: number; self?: unknown } = { k: 1 };
        circular.self = circular;
        return { v: circular };
      })
      .addNode("b", (state) => ({ v: { sawItself: (state.v as { self?: unknown }).self === state.v } }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile({ checkpointer: new MemorySaver() });
    const config = thread("circular");
    expect(await graph.invoke({ v: 0 }, config)).toEqual({ v: { sawItself: true } });
    const history = [];
    for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot.values);
    expect(history[1]).toEqual({ v: { k: 1, self: "[Circular]" } });
  });
});
