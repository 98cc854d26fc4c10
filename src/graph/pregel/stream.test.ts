import { describe, expect, it, vi } from "vitest";
import { AIMessage, type BaseMessage, type Messages, messagesStateReducer } from "../../messages/index.js";
import { InvalidArgumentError } from "../../shared/index.js";
import { Annotation, Command, START, StateGraph } from "../index.js";

const State = Annotation.Root({
  i: Annotation<number>,
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

async function collect<T>(stream: Promise<AsyncIterable<T>>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of await stream) out.push(chunk);
  return out;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** a → b; a writes a custom chunk, b carries node metadata. */
const graph = new StateGraph(State)
  .addNode("a", (s, config) => {
    config.writer?.({ from: "a" });
    return { i: s.i + 1, log: ["a"] };
  })
  .addNode(
    "b",
    (_s, config) => {
      config.writer?.("b-chunk");
      return { log: ["b"] };
    },
    { metadata: { kind: "bee" } },
  )
  .addEdge(START, "a")
  .addEdge("a", "b")
  .compile();

const ID = expect.any(String);

describe("invoke", () => {
  it("returns the final values", async () => {
    expect(await graph.invoke({ i: 0 })).toEqual({ i: 1, log: ["a", "b"] });
  });

  it("returns undefined when no step wrote a state key", async () => {
    const quiet = new StateGraph(State)
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .compile();
    expect(await quiet.invoke({})).toBeUndefined();
    expect(await quiet.invoke({ i: 1 })).toEqual({ i: 1, log: [] });
  });

  it("with another streamMode returns the list of chunks", async () => {
    expect(await graph.invoke({ i: 0 }, { streamMode: "updates" })).toEqual([
      { a: { i: 1, log: ["a"] } },
      { b: { log: ["b"] } },
    ]);
    expect(await graph.invoke({ i: 0 }, { streamMode: "values" })).toEqual({ i: 1, log: ["a", "b"] });
  });

  it("with subgraphs: true returns the last [namespace, values] pair, as LangGraph.js", async () => {
    const sub = new StateGraph(State)
      .addNode("s", () => ({ log: ["s"] }))
      .addEdge(START, "s")
      .compile();
    const outer = new StateGraph(State)
      .addNode("a", (s) => ({ i: s.i + 1, log: ["a"] }))
      .addNode("sub", sub)
      .addEdge(START, "a")
      .addEdge("a", "sub")
      .compile();
    expect(await outer.invoke({ i: 0 }, { subgraphs: true })).toEqual([[], { i: 1, log: ["a", "a", "s"] }]);
    expect(
      await outer.invoke({ i: 0 }, { subgraphs: true, streamMode: "values", outputKeys: ["i"] }),
    ).toEqual([[], { i: 1 }]);
    expect(await outer.invoke({ i: 0 }, { subgraphs: false })).toEqual({ i: 1, log: ["a", "a", "s"] });
    const quiet = new StateGraph(State)
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .compile();
    expect(await quiet.invoke({}, { subgraphs: true })).toBeUndefined();
  });
});

describe("stream modes", () => {
  it("stream() resolves to a ReadableStream that is also async-iterable", async () => {
    const stream = await graph.stream({ i: 0 });
    expect(stream).toBeInstanceOf(ReadableStream);
    const reader = stream.getReader();
    const chunks: unknown[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    expect(chunks).toEqual([{ a: { i: 1, log: ["a"] } }, { b: { log: ["b"] } }]);
  });

  it("hands each chunk out once, in order, when iteration and a reader are mixed", async () => {
    const stream = await graph.stream({ i: 0 }, { streamMode: "values" });
    const first = await stream.next();
    expect(first).toEqual({ done: false, value: { i: 0, log: [] } });
    const reader = stream.getReader();
    const rest: unknown[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest.push(value);
    }
    expect(rest).toEqual([
      { i: 1, log: ["a"] },
      { i: 1, log: ["a", "b"] },
    ]);
  });

  it("an error thrown by a node ends a for-await loop after the chunks before it", async () => {
    const failing = new StateGraph(Annotation.Root({ i: Annotation<number> }))
      .addNode("ok", () => ({ i: 1 }))
      .addNode("bad", () => {
        throw new Error("bad node");
      })
      .addEdge(START, "ok")
      .addEdge("ok", "bad")
      .compile();
    const seen: unknown[] = [];
    const stream = await failing.stream({ i: 0 });
    await expect(
      (async () => {
        for await (const chunk of stream) seen.push(chunk);
      })(),
    ).rejects.toThrow("bad node");
    expect(seen).toEqual([{ ok: { i: 1 } }]);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it("next() waits for the run and hands out each chunk once; after the end it keeps answering done", async () => {
    const slow = new StateGraph(Annotation.Root({ i: Annotation<number> }))
      .addNode("one", async () => {
        await sleep(5);
        return { i: 1 };
      })
      .addNode("two", async () => {
        await sleep(5);
        return { i: 2 };
      })
      .addEdge(START, "one")
      .addEdge("one", "two")
      .compile();
    const stream = await slow.stream({ i: 0 });
    // asked before the run has produced anything: each call waits for its own chunk
    const first = stream.next();
    expect(await first).toEqual({ done: false, value: { one: { i: 1 } } });
    expect(await stream.next()).toEqual({ done: false, value: { two: { i: 2 } } });
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it("defaults to updates: { node: update } per finished task", async () => {
    expect(await collect(graph.stream({ i: 0 }))).toEqual([
      { a: { i: 1, log: ["a"] } },
      { b: { log: ["b"] } },
    ]);
  });

  it("updates: messages an async node writes to a messages key have their ids when the chunk arrives", async () => {
    const Chat = Annotation.Root({
      messages: Annotation<BaseMessage[], Messages>({ reducer: messagesStateReducer, default: () => [] }),
    });
    const chat = new StateGraph(Chat)
      .addNode("a", async () => ({ messages: [new AIMessage("one")] }))
      .addNode("b", async () => ({ messages: new AIMessage("two") }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    const ids: unknown[] = [];
    for await (const chunk of await chat.stream({ messages: [] }, { streamMode: "updates" })) {
      const update = Object.values(chunk)[0] as { messages: BaseMessage | BaseMessage[] };
      for (const message of ([] as BaseMessage[]).concat(update.messages)) ids.push(message.id);
    }
    expect(ids).toEqual([ID, ID]);
    // a plain message object is coerced by the reducer into a new message: it stays as written
    const plain = new StateGraph(Chat)
      .addNode("a", async () => ({ messages: [{ role: "ai", content: "x" }] }))
      .addEdge(START, "a")
      .compile();
    const [chunk] = await collect(plain.stream({ messages: [] }, { streamMode: "updates" }));
    expect(chunk).toEqual({ a: { messages: [{ role: "ai", content: "x" }] } });
  });

  it("values: the state after the input and after each step", async () => {
    expect(await collect(graph.stream({ i: 0 }, { streamMode: "values" }))).toEqual([
      { i: 0, log: [] },
      { i: 1, log: ["a"] },
      { i: 1, log: ["a", "b"] },
    ]);
  });

  it("values: no chunk for a step that wrote nothing", async () => {
    const g = new StateGraph(State)
      .addNode("a", () => ({}))
      .addNode("b", () => ({ i: 1 }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    expect(await collect(g.stream({ i: 0 }, { streamMode: "values" }))).toEqual([
      { i: 0, log: [] },
      { i: 1, log: [] },
    ]);
  });

  it("custom: whatever nodes write with config.writer", async () => {
    expect(await collect(graph.stream({ i: 0 }, { streamMode: "custom" }))).toEqual([
      { from: "a" },
      "b-chunk",
    ]);
  });

  it("config.writer is a function (a no-op) even when custom is not streamed", async () => {
    let kind: string | undefined;
    const g = new StateGraph(State)
      .addNode("a", (_s, config) => {
        kind = typeof config.writer;
        config.writer?.("ignored");
        return {};
      })
      .addEdge(START, "a")
      .compile();
    expect(await collect(g.stream({ i: 0 }))).toEqual([{ a: {} }]);
    expect(kind).toBe("function");
  });

  it("a router may write custom chunks too", async () => {
    const g = new StateGraph(State)
      .addNode("a", () => ({ i: 1 }))
      .addNode("b", () => ({}))
      .addEdge(START, "a")
      .addConditionalEdges("a", (_s, config) => {
        config.writer?.("from-router");
        return "b";
      })
      .compile();
    expect(await collect(g.stream({ i: 0 }, { streamMode: "custom" }))).toEqual(["from-router"]);
  });

  it("several modes: [mode, chunk] in the order they happen", async () => {
    expect(await collect(graph.stream({ i: 0 }, { streamMode: ["values", "updates", "custom"] }))).toEqual([
      ["values", { i: 0, log: [] }],
      ["custom", { from: "a" }],
      ["updates", { a: { i: 1, log: ["a"] } }],
      ["values", { i: 1, log: ["a"] }],
      ["custom", "b-chunk"],
      ["updates", { b: { log: ["b"] } }],
      ["values", { i: 1, log: ["a", "b"] }],
    ]);
  });

  it("a one-element mode list still yields [mode, chunk]", async () => {
    expect(await collect(graph.stream({ i: 0 }, { streamMode: ["updates"] }))).toEqual([
      ["updates", { a: { i: 1, log: ["a"] } }],
      ["updates", { b: { log: ["b"] } }],
    ]);
  });

  it("tasks: a start and a result payload per task", async () => {
    const chunks = (await collect(graph.stream({ i: 0 }, { streamMode: "tasks" }))) as Record<
      string,
      unknown
    >[];
    expect(chunks).toEqual([
      {
        id: ID,
        name: "a",
        input: { i: 0, log: [] },
        triggers: ["branch:to:a"],
        interrupts: [],
        metadata: { ls_integration: "langgraph" },
      },
      { id: ID, name: "a", result: { i: 1, log: ["a"] }, interrupts: [], error: null },
      {
        id: ID,
        name: "b",
        input: { i: 1, log: ["a"] },
        triggers: ["branch:to:b"],
        interrupts: [],
        metadata: { ls_integration: "langgraph", kind: "bee" },
      },
      { id: ID, name: "b", result: { log: ["b"] }, interrupts: [], error: null },
    ]);
    expect(chunks[0]?.id).toBe(chunks[1]?.id);
    expect(chunks[2]?.id).not.toBe(chunks[0]?.id);
  });

  it("tasks: run metadata appears in the payload, configurable values do not", async () => {
    const chunks = (await collect(
      graph.stream(
        { i: 0 },
        { streamMode: "tasks", metadata: { user: "u" }, configurable: { thread: "t", n: 3 } },
      ),
    )) as Record<string, unknown>[];
    expect(chunks[0]?.metadata).toEqual({ ls_integration: "langgraph", user: "u" });
  });

  it("tasks: repeated writes to one key are reported as $writes", async () => {
    const g = new StateGraph(State)
      .addNode("a", () => [new Command({ update: { log: ["x"] } }), new Command({ update: { log: ["y"] } })])
      .addEdge(START, "a")
      .compile();
    const chunks = (await collect(g.stream({ i: 0 }, { streamMode: "tasks" }))) as Record<string, unknown>[];
    expect(chunks[1]).toEqual({
      id: ID,
      name: "a",
      result: { log: { $writes: [["x"], ["y"]] } },
      interrupts: [],
      error: null,
    });
    expect(await collect(g.stream({ i: 0 }))).toEqual([{ a: [{ log: ["x"] }, { log: ["y"] }] }]);
  });

  it("tasks: a failed task reports its error", async () => {
    const g = new StateGraph(State)
      .addNode("a", () => {
        throw new Error("bad");
      })
      .addEdge(START, "a")
      .compile();
    const chunks: Record<string, unknown>[] = [];
    await expect(
      (async () => {
        for await (const chunk of await g.stream({ i: 0 }, { streamMode: "tasks" }))
          chunks.push(chunk as never);
      })(),
    ).rejects.toThrow("bad");
    expect(chunks).toHaveLength(2);
    expect(chunks[1]).toMatchObject({ name: "a", result: {}, interrupts: [] });
    expect((chunks[1]?.error as Error | undefined)?.message).toBe("bad");
  });

  it("debug: { step, type, timestamp, payload } for each task and result", async () => {
    const chunks = (await collect(graph.stream({ i: 0 }, { streamMode: "debug" }))) as Record<
      string,
      unknown
    >[];
    expect(chunks.map((c) => [c.step, c.type, (c.payload as { name: string }).name])).toEqual([
      [1, "task", "a"],
      [1, "task_result", "a"],
      [2, "task", "b"],
      [2, "task_result", "b"],
    ]);
    for (const chunk of chunks) {
      expect(Object.keys(chunk).sort()).toEqual(["payload", "step", "timestamp", "type"]);
      expect(new Date(chunk.timestamp as string).toISOString()).toBe(chunk.timestamp);
    }
    expect(chunks[0]?.payload).toEqual({
      id: ID,
      name: "a",
      input: { i: 0, log: [] },
      triggers: ["branch:to:a"],
      interrupts: [],
      metadata: { ls_integration: "langgraph" },
    });
    expect(chunks[3]?.payload).toEqual({
      id: ID,
      name: "b",
      result: { log: ["b"] },
      interrupts: [],
      error: null,
    });
  });

  it("rejects an unknown stream mode", async () => {
    await expect(graph.stream({ i: 0 }, { streamMode: "bogus" as never })).rejects.toThrow(
      InvalidArgumentError,
    );
  });
});

describe("stopping a stream", () => {
  it("breaking out of for await stops the run: later nodes do not execute", async () => {
    const ran: string[] = [];
    const g = new StateGraph(State)
      .addNode("a", async () => {
        ran.push("a");
        return { i: 1 };
      })
      .addNode("b", async () => {
        ran.push("b");
        await sleep(5);
        return { i: 2 };
      })
      .addNode("c", async () => {
        ran.push("c");
        return { i: 3 };
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", "c")
      .compile();
    for await (const chunk of await g.stream({ i: 0 })) {
      expect(chunk).toEqual({ a: { i: 1 } });
      break;
    }
    await sleep(40);
    expect(ran).not.toContain("c");
    expect(ran[0]).toBe("a");
  });

  it("cancelling the stream aborts the running node's signal", async () => {
    let aborted: boolean | undefined;
    const g = new StateGraph(State)
      .addNode("a", () => ({ i: 1 }))
      .addNode("b", async (_s, config) => {
        await sleep(20);
        aborted = config.signal?.aborted;
        return {};
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    const stream = await g.stream({ i: 0 });
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel();
    await sleep(40);
    expect(aborted).toBe(true);
  });

  it("a node sees the reason the stream was cancelled with; leaving for await gives the platform's AbortError, as in LangGraph.js", async () => {
    const reasons: unknown[] = [];
    const g = new StateGraph(State)
      .addNode("a", () => ({ i: 1 }))
      .addNode("b", async (_s, config) => {
        const signal = config.signal as AbortSignal;
        await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
        reasons.push(signal.reason);
        return {};
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    for await (const _ of await g.stream({ i: 0 })) break;
    const stream = await g.stream({ i: 0 });
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel("enough");
    await sleep(10);
    expect(reasons).toHaveLength(2);
    expect(reasons[0]).toBeInstanceOf(Error);
    expect(reasons[0]).toMatchObject({ name: "AbortError", message: "This operation was aborted" });
    expect(reasons[1]).toBe("enough");
  });
});

describe("a signal shared by many runs", () => {
  it("gets one listener however many streams use it at once, and aborting it stops them all", async () => {
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, "addEventListener");
    const aborted: boolean[] = [];
    const g = new StateGraph(State)
      .addNode("a", async (_s, config) => {
        const signal = config.signal as AbortSignal;
        await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
        aborted.push(signal.aborted);
        return {};
      })
      .addEdge(START, "a")
      .compile();
    const runs = Array.from({ length: 20 }, async () => {
      const events = g.streamEvents({ i: 0 }, { version: "v2", signal: controller.signal });
      for await (const _ of events) {
        // read to the end
      }
    });
    const streams = Array.from({ length: 20 }, async () => {
      for await (const _ of await g.stream({ i: 0 }, { signal: controller.signal })) {
        // read to the end
      }
    });
    await sleep(20);
    expect(add).toHaveBeenCalledTimes(1);
    controller.abort();
    const outcomes = await Promise.allSettled([...runs, ...streams]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(new Array(40).fill("rejected"));
    expect(aborted).toEqual(new Array(40).fill(true));
  });
});

describe("outputKeys", () => {
  const graph = () =>
    new StateGraph(State)
      .addNode("a", () => ({ i: 1, log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();

  it("one key makes the result that key's value; several, an object of them (LangGraph.js's run option)", async () => {
    expect(await graph().invoke({ i: 0 }, { outputKeys: "i" })).toBe(1);
    expect(await graph().invoke({ i: 0 }, { outputKeys: ["log"] })).toEqual({ log: ["a", "b"] });
  });

  it("limits the values and updates streams to those keys (a step that writes none of them has no values chunk)", async () => {
    expect(await collect(graph().stream({ i: 0 }, { streamMode: "values", outputKeys: ["i"] }))).toEqual([
      { i: 0 },
      { i: 1 },
    ]);
    expect(await collect(graph().stream({ i: 0 }, { streamMode: "updates", outputKeys: ["i"] }))).toEqual([
      { a: { i: 1 } },
      { b: {} },
    ]);
  });

  it("rejects a key that is not a channel, naming the state keys", async () => {
    await expect(graph().invoke({ i: 0 }, { outputKeys: ["nope"] })).rejects.toThrow(
      /^Key nope not found in channels: outputKeys names "nope", which is not a channel of this graph\. Name state keys: "i", "log"\./,
    );
  });
});
