import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  Annotation,
  Command,
  entrypoint,
  Graph,
  interrupt,
  MemorySaver,
  MessagesAnnotation,
  Send,
  START,
  StateGraph,
  task,
} from "../../index.js";
import { AIMessage, HumanMessage } from "../../messages/index.js";
import { ToolNode } from "../../prebuilt/index.js";
import type { CallbackHandler } from "../../shared/index.js";
import { FakeListChatModel } from "../../testing/index.js";
import { tool } from "../../tools/index.js";

const Counter = Annotation.Root({
  x: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
});

/** Records what chain callbacks hear: `[event, name, inputs or outputs, tags]`. */
function recorder() {
  const heard: [string, string | undefined, unknown, string[] | undefined][] = [];
  const names = new Map<string, string | undefined>();
  const handler: CallbackHandler = {
    handleChainStart(_chain, inputs, runId, _parent, tags, _metadata, _type, name) {
      names.set(runId, name);
      heard.push(["start", name, inputs, tags]);
    },
    handleChainEnd(outputs, runId, _parent, tags) {
      heard.push(["end", names.get(runId), outputs, tags]);
    },
    handleChainError(_error, runId, _parent, tags) {
      heard.push(["error", names.get(runId), undefined, tags]);
    },
  };
  return { heard, handler };
}

function twoSteps() {
  return new StateGraph(Counter)
    .addNode("a", () => ({ x: 1 }))
    .addNode("b", () => ({ x: 10 }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .compile();
}

describe("the graph's withConfig defaults name and tag its run (LangGraph.js)", () => {
  it("a withConfig runName names the graph's run for chain callbacks and streamEvents", async () => {
    const graph = twoSteps().withConfig({ runName: "Renamed" });
    const { heard, handler } = recorder();
    await graph.invoke({ x: 0 }, { callbacks: [handler] });
    expect(heard.map(([event, name]) => `${event} ${name}`)).toEqual([
      "start Renamed",
      "start __start__",
      "end __start__",
      "start a",
      "end a",
      "start b",
      "end b",
      "end Renamed",
    ]);
    const names: string[] = [];
    for await (const event of graph.streamEvents({ x: 0 }, { version: "v2" })) {
      if (event.event !== "on_chain_stream") names.push(`${event.event} ${event.name}`);
    }
    expect(names[0]).toBe("on_chain_start Renamed");
    expect(names.at(-1)).toBe("on_chain_end Renamed");
    // the call's own runName still wins
    const own: string[] = [];
    for await (const event of graph.streamEvents({ x: 0 }, { version: "v2", runName: "Call" })) {
      own.push(event.name);
    }
    expect(own[0]).toBe("Call");
  });

  it("withConfig tags come before the call's in streamEvents, for the graph and its nodes", async () => {
    const graph = twoSteps().withConfig({ tags: ["default"] });
    const tags: [string, string[]][] = [];
    for await (const event of graph.streamEvents({ x: 0 }, { version: "v2", tags: ["call"] })) {
      if (event.event === "on_chain_start") tags.push([event.name, event.tags]);
    }
    expect(tags).toEqual([
      ["LangGraph", ["default", "call"]],
      ["__start__", ["graph:step:0", "default", "call", "langsmith:hidden"]],
      ["a", ["graph:step:1", "default", "call"]],
      ["b", ["graph:step:2", "default", "call"]],
    ]);
  });
  it("a withConfig thread_id is in the metadata of the graph's own streamEvents events", async () => {
    const graph = twoSteps().withConfig({ configurable: { thread_id: "t1" }, metadata: { app: "x" } });
    const metadata: Record<string, unknown>[] = [];
    for await (const event of graph.streamEvents({ x: 0 }, { version: "v2" })) {
      if (event.name === "LangGraph") metadata.push(event.metadata);
    }
    expect(metadata.length).toBeGreaterThan(0);
    for (const seen of metadata) expect(seen).toMatchObject({ thread_id: "t1", app: "x" });
  });
});

describe("what chain callbacks hear as a run's inputs and outputs (LangChain.js)", () => {
  it("a node ends with what it returned: a Command as returned, anything but an object as { output }", async () => {
    const graph = new StateGraph(Counter)
      .addNode("a", () => new Command({ update: { x: 3 }, goto: "b" }), { ends: ["b"] })
      .addNode("b", () => undefined)
      .addNode("c", () => [new Command({ update: { x: 1 } })])
      .addEdge(START, "a")
      .addEdge("b", "c")
      .compile();
    const { heard, handler } = recorder();
    await graph.invoke({ x: 0 }, { callbacks: [handler] });
    const ends = heard.filter(([event]) => event === "end");
    // the hidden __start__ node ends with the input it wrote
    expect(ends[0]).toEqual(["end", "__start__", { x: 0 }, ["graph:step:0", "langsmith:hidden"]]);
    expect(ends[1]?.[2]).toBeInstanceOf(Command);
    expect(ends.slice(2).map(([, name, outputs]) => [name, outputs])).toEqual([
      ["b", { output: undefined }],
      ["c", { output: [new Command({ update: { x: 1 } })] }],
      ["LangGraph", { x: 4 }],
    ]);
  });

  it("an interrupted graph ends with its state (not __interrupt__); a graph without output with {}", async () => {
    const asks = new StateGraph(Counter)
      .addNode("ask", () => ({ x: interrupt<string, number>("how many?") }))
      .addEdge(START, "ask")
      .compile({ checkpointer: new MemorySaver() });
    const { heard, handler } = recorder();
    const result = await asks.invoke({ x: 2 }, { configurable: { thread_id: "t" }, callbacks: [handler] });
    expect(result).toHaveProperty("__interrupt__");
    expect(heard.at(-1)).toEqual(["end", "LangGraph", { x: 2 }, []]);

    const Empty = Annotation.Root({ v: Annotation<string> });
    const silent = new StateGraph(Empty)
      .addNode("n", () => ({}))
      .addEdge(START, "n")
      .compile();
    const other = recorder();
    expect(await silent.invoke({}, { callbacks: [other.handler] })).toBeUndefined();
    expect(other.heard.at(-1)).toEqual(["end", "LangGraph", {}, []]);
  });

  it("a graph resumed with null, and a node sent a scalar, start with { input }", async () => {
    const Items = Annotation.Root({
      items: Annotation<number[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    });
    const graph = new StateGraph(Items)
      .addNode("w", (n: number) => ({ items: [n] }))
      .addConditionalEdges(START, () => [new Send("w", 7)])
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ["w"] });
    const config = { configurable: { thread_id: "s" } };
    await graph.invoke({ items: [] }, config);
    const { heard, handler } = recorder();
    await graph.invoke(null, { ...config, callbacks: [handler] });
    expect(heard.filter(([event]) => event === "start").map(([, name, inputs]) => [name, inputs])).toEqual([
      ["LangGraph", { input: null }],
      ["w", { input: 7 }],
    ]);
  });
});

describe("streamEvents unwraps { input } and { output } as LangChain.js's event stream does", () => {
  it("a state with input and output keys shows their values; a node returning nothing { output: undefined }", async () => {
    const Io = Annotation.Root({ input: Annotation<string>, output: Annotation<string> });
    const graph = new StateGraph(Io)
      .addNode("answer", (state) => ({ output: `${state.input}!` }))
      .addNode("quiet", () => undefined)
      .addEdge(START, "answer")
      .addEdge("answer", "quiet")
      .compile();
    const data: [string, string, unknown][] = [];
    for await (const event of graph.streamEvents({ input: "hi" }, { version: "v2" })) {
      if (event.event !== "on_chain_stream") data.push([event.event, event.name, event.data]);
    }
    expect(data).toEqual([
      ["on_chain_start", "LangGraph", { input: { input: "hi" } }],
      ["on_chain_start", "__start__", { input: "hi" }],
      ["on_chain_end", "__start__", { input: "hi", output: { input: "hi" } }],
      ["on_chain_start", "answer", { input: "hi" }],
      ["on_chain_end", "answer", { input: "hi", output: "hi!" }],
      ["on_chain_start", "quiet", { input: "hi" }],
      ["on_chain_end", "quiet", { input: { input: "hi", output: "hi!" }, output: { output: undefined } }],
      ["on_chain_end", "LangGraph", { output: "hi!" }],
    ]);
  });
});

describe("nodes still running when a run fails hear it (LangGraph.js)", () => {
  /** Two nodes that run until their signal aborts (or 500 ms pass), after a first node. */
  function waiting(third?: () => Promise<never>) {
    const Log = Annotation.Root({
      log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    });
    const wait = (name: string) => async (_state: unknown, config: { signal?: AbortSignal }) => {
      await new Promise((resolve) => {
        config.signal?.addEventListener("abort", resolve);
        setTimeout(resolve, 500);
      });
      return { log: [name] };
    };
    const builder = new StateGraph(Log)
      .addNode("first", () => ({ log: ["first"] }))
      .addNode("slow", wait("slow"))
      .addNode("slower", wait("slower"))
      .addEdge(START, "first")
      .addEdge("first", "slow")
      .addEdge("first", "slower");
    if (third === undefined) return builder.compile();
    return builder.addNode("bad", third).addEdge("first", "bad").compile();
  }

  function failures(heard: [string, string | undefined, unknown, string[] | undefined][]) {
    return heard.filter(([event]) => event === "error").map(([, name]) => name);
  }

  it("an aborted run: its open nodes fail with the signal's reason, in the order they started", async () => {
    const reason = new RangeError("stop");
    const errors: unknown[] = [];
    const { heard, handler } = recorder();
    const listening: CallbackHandler = {
      ...handler,
      handleChainError(error, runId, parent, tags) {
        errors.push(error);
        handler.handleChainError?.(error, runId, parent, tags);
      },
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 20);
    await expect(
      waiting().invoke({ log: [] }, { signal: controller.signal, callbacks: [listening] }),
    ).rejects.toBe(reason);
    expect(failures(heard)).toEqual(["slow", "slower", "LangGraph"]);
    expect(errors).toEqual([reason, reason, reason]);

    const events = recorder();
    const again = new AbortController();
    setTimeout(() => again.abort(reason), 20);
    const stream = waiting().streamEvents(
      { log: [] },
      { version: "v2", signal: again.signal, callbacks: [events.handler] },
    );
    await expect(
      (async () => {
        for await (const _ of stream) {
          // drained
        }
      })(),
    ).rejects.toBe(reason);
    expect(failures(events.heard)).toEqual(["slow", "slower", "LangGraph"]);
  });

  it("a run failed by a node: the nodes aborted with it fail with an AbortError", async () => {
    const errors: [string | undefined, unknown][] = [];
    const names = new Map<string, string | undefined>();
    const handler: CallbackHandler = {
      handleChainStart(_chain, _inputs, runId, _parent, _tags, _metadata, _type, name) {
        names.set(runId, name);
      },
      handleChainError(error, runId) {
        errors.push([names.get(runId), error]);
      },
    };
    const graph = waiting(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw new TypeError("bad");
    });
    await expect(graph.invoke({ log: [] }, { callbacks: [handler] })).rejects.toThrow("bad");
    expect(errors.map(([name, error]) => [name, (error as Error).name, (error as Error).message])).toEqual([
      ["bad", "TypeError", "bad"],
      ["slow", "AbortError", "This operation was aborted"],
      ["slower", "AbortError", "This operation was aborted"],
      ["LangGraph", "TypeError", "bad"],
    ]);
  });
});

describe("the arguments chain callbacks get, as LangChain.js passes them", () => {
  it("start: the graph serialized without a name, and a ninth argument (extra), undefined", async () => {
    const starts: unknown[][] = [];
    const handler: CallbackHandler = {
      handleChainStart(...args: unknown[]) {
        starts.push(args);
      },
    };
    await twoSteps().invoke({ x: 0 }, { callbacks: [handler] });
    const graphStart = starts[0] as unknown[];
    expect(graphStart).toHaveLength(9);
    expect(graphStart[0]).toStrictEqual({
      lc: 1,
      type: "not_implemented",
      id: ["langgraph", "pregel", "CompiledStateGraph"],
    });
    expect(graphStart[7]).toBe("LangGraph");
    expect(graphStart[8]).toBeUndefined();
    for (const start of starts) expect(start).toHaveLength(9);
  });

  it("end and error: a fifth argument (kwargs), undefined, for the graph and its nodes", async () => {
    const ends: unknown[][] = [];
    const handler: CallbackHandler = {
      handleChainEnd(...args: unknown[]) {
        ends.push(args);
      },
      handleChainError(...args: unknown[]) {
        ends.push(args);
      },
    };
    await twoSteps().invoke({ x: 0 }, { callbacks: [handler] });
    const failing = new StateGraph(Counter)
      .addNode("bad", () => {
        throw new Error("nope");
      })
      .addEdge(START, "bad")
      .compile();
    await expect(failing.invoke({ x: 0 }, { callbacks: [handler] })).rejects.toThrow("nope");
    // __start__, a, b, the graph; then __start__, the failing node and its graph
    expect(ends).toHaveLength(7);
    for (const args of ends) {
      expect(args).toHaveLength(5);
      expect(args[4]).toBeUndefined();
    }
  });
});

describe("model and tool calls in a node are children of the node's run (LangChain.js)", () => {
  /** Records `[what, name, run, parent]`, run ids as the order they were first seen in. */
  function treeRecorder() {
    const heard: [string, string | undefined, number, number | undefined][] = [];
    const ids = new Map<string, number>();
    const id = (runId: string) => {
      if (!ids.has(runId)) ids.set(runId, ids.size);
      return ids.get(runId) as number;
    };
    const parentOf = (parent: string | undefined) => (parent === undefined ? undefined : id(parent));
    const handler: CallbackHandler = {
      handleChainStart(_c, _i, runId, parent, _t, _m, _type, name) {
        heard.push(["chain", name, id(runId), parentOf(parent)]);
      },
      handleChainEnd(_o, runId, parent) {
        heard.push(["chain end", undefined, id(runId), parentOf(parent)]);
      },
      handleChatModelStart(_l, _m, runId, parent) {
        heard.push(["model", undefined, id(runId), parentOf(parent)]);
      },
      handleLLMEnd(_o, runId, parent) {
        heard.push(["model end", undefined, id(runId), parentOf(parent)]);
      },
      handleToolStart(_t, _i, runId, parent, _tags, _m, name) {
        heard.push(["tool", name, id(runId), parentOf(parent)]);
      },
      handleToolEnd(_o, runId, parent) {
        heard.push(["tool end", undefined, id(runId), parentOf(parent)]);
      },
    };
    return { heard, handler };
  }

  function modelThenTool() {
    const model = new FakeListChatModel({ responses: ["hello"] });
    const lookup = tool(async () => "found", { name: "lookup", description: "d", schema: z.object({}) });
    return new StateGraph(MessagesAnnotation)
      .addNode("ask", async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addNode("look", async () => ({ messages: [new AIMessage(String(await lookup.invoke({})))] }))
      .addEdge(START, "ask")
      .addEdge("ask", "look")
      .compile();
  }

  const expected = [
    ["chain", "LangGraph", 0, undefined],
    ["chain", "__start__", 1, 0],
    ["chain end", undefined, 1, 0],
    ["chain", "ask", 2, 0],
    ["model", undefined, 3, 2],
    ["model end", undefined, 3, 2],
    ["chain end", undefined, 2, 0],
    ["chain", "look", 4, 0],
    ["tool", "lookup", 5, 4],
    ["tool end", undefined, 5, 4],
    ["chain end", undefined, 4, 0],
    ["chain end", undefined, 0, undefined],
  ];

  it("invoke: a node's start is heard before the calls made in it, which name it as their parent", async () => {
    const { heard, handler } = treeRecorder();
    await modelThenTool().invoke({ messages: [new HumanMessage("hi")] }, { callbacks: [handler] });
    expect(heard).toEqual(expected);
  });

  it("stream(), and invoke with a streamMode, report the graph and its nodes too", async () => {
    const streamed = treeRecorder();
    const stream = await modelThenTool().stream(
      { messages: [new HumanMessage("hi")] },
      { callbacks: [streamed.handler], streamMode: "updates" },
    );
    const chunks: unknown[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks).toHaveLength(2);
    expect(streamed.heard).toEqual(expected);
    const custom = treeRecorder();
    await modelThenTool().invoke(
      { messages: [new HumanMessage("hi")] },
      { callbacks: [custom.handler], streamMode: "custom" },
    );
    expect(custom.heard).toEqual(expected);
  });

  it("streamEvents: the same tree, its node runs under their events' run ids", async () => {
    const { heard, handler } = treeRecorder();
    const nodeEvents: string[] = [];
    const nodeRuns: string[] = [];
    const runIds: CallbackHandler = {
      handleChainStart(_c, _i, runId, _p, _t, _m, _type, name) {
        if (name === "ask") nodeRuns.push(runId);
      },
    };
    for await (const event of modelThenTool().streamEvents(
      { messages: [new HumanMessage("hi")] },
      { version: "v2", callbacks: [handler, runIds] },
    )) {
      if (event.event === "on_chain_start" && event.name === "ask") nodeEvents.push(event.run_id);
    }
    expect(heard).toEqual(expected);
    expect(nodeEvents).toHaveLength(1);
    expect(nodeRuns).toEqual(nodeEvents);
  });

  it("a tool run by a ToolNode is a child of the tools node's run, as a tool called in a node", async () => {
    // the tools node gives each call a copy of its executionInfo (the call's idempotency key)
    const lookup = tool(async () => "found", { name: "lookup", description: "d", schema: z.object({}) });
    const call = { name: "lookup", args: {}, id: "c1", type: "tool_call" as const };
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("tools", new ToolNode([lookup]))
      .addEdge(START, "tools")
      .compile();
    const { heard, handler } = treeRecorder();
    await graph.invoke(
      { messages: [new AIMessage({ content: "", tool_calls: [call] })] },
      { callbacks: [handler] },
    );
    expect(heard).toEqual([
      ["chain", "LangGraph", 0, undefined],
      ["chain", "__start__", 1, 0],
      ["chain end", undefined, 1, 0],
      ["chain", "tools", 2, 0],
      ["tool", "lookup", 3, 2],
      ["tool end", undefined, 3, 2],
      ["chain end", undefined, 2, 0],
      ["chain end", undefined, 0, undefined],
    ]);
  });

  it("a model called bare in a node runs under the node's signal (handleChatModelStart's options show it)", async () => {
    const signals: unknown[] = [];
    const model = new FakeListChatModel({ responses: ["hello"] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("ask", async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addEdge(START, "ask")
      .compile();
    await graph.invoke(
      { messages: [new HumanMessage("hi")] },
      {
        callbacks: [
          {
            handleChatModelStart: (_l, _m, _r, _p, extra) =>
              signals.push((extra?.options as { signal?: unknown } | undefined)?.signal),
          },
        ],
      },
    );
    expect(signals).toHaveLength(1);
    expect(signals[0]).toBeInstanceOf(AbortSignal);
  });

  it("a model's own callbacks in a graph run without callbacks hear no parent", async () => {
    const parents: unknown[] = [];
    const model = new FakeListChatModel({
      responses: ["hello"],
      callbacks: [{ handleChatModelStart: (_l, _m, _r, parent) => parents.push(parent) }],
    });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("ask", async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addEdge(START, "ask")
      .compile();
    await graph.invoke({ messages: [new HumanMessage("hi")] });
    expect(parents).toEqual([undefined]);
  });
});

describe("the graph's serialized id names its class, as LangChain.js's toJSON does", () => {
  it("CompiledStateGraph, CompiledGraph, and LangGraph for an entrypoint; in invoke, stream and streamEvents", async () => {
    const ids: unknown[] = [];
    const handler: CallbackHandler = {
      handleChainStart(chain, _inputs, _runId, parent) {
        if (parent === undefined) ids.push(chain.id.at(-1));
      },
    };
    await twoSteps().invoke({ x: 0 }, { callbacks: [handler] });
    const graph = new Graph()
      .addNode("n", (x: unknown) => x)
      .addEdge(START, "n")
      .compile();
    await graph.invoke(1, { callbacks: [handler] });
    for await (const _ of graph.streamEvents(1, { version: "v2", callbacks: [handler] })) {
      // drain
    }
    const workflow = entrypoint("wf", async (x: number) => x + 1);
    await workflow.invoke(1, { callbacks: [handler] });
    for await (const _ of await workflow.stream(1, { callbacks: [handler] })) {
      // drain
    }
    expect(ids).toEqual(["CompiledStateGraph", "CompiledGraph", "CompiledGraph", "LangGraph", "LangGraph"]);
  });
});

describe("every run of a node is a run of its own for chain callbacks (LangChain.js)", () => {
  function idRecorder() {
    const heard: string[] = [];
    const ids = new Map<string, number>();
    const id = (runId: string | undefined) => {
      if (runId === undefined) return "-";
      if (!ids.has(runId)) ids.set(runId, ids.size);
      return String(ids.get(runId));
    };
    const handler: CallbackHandler = {
      handleChainStart(_c, _i, runId, parent, _t, _m, _type, name) {
        heard.push(`start ${name} ${id(runId)}<${id(parent)}`);
      },
      handleChainEnd(_o, runId) {
        heard.push(`end ${id(runId)}`);
      },
      handleChainError(error, runId) {
        heard.push(`error ${id(runId)} ${(error as Error).message}`);
      },
      handleChatModelStart(_l, _m, runId, parent) {
        heard.push(`model ${id(runId)}<${id(parent)}`);
      },
    };
    return { heard, handler };
  }

  it("a retried node: the failed attempt ends with its error, the next starts a new run its calls belong to", async () => {
    const { heard, handler } = idRecorder();
    const model = new FakeListChatModel({ responses: ["ok"] });
    let attempts = 0;
    const graph = new StateGraph(MessagesAnnotation)
      .addNode(
        "flaky",
        async () => {
          attempts += 1;
          if (attempts === 1) throw new Error("first attempt");
          return { messages: [await model.invoke("hi")] };
        },
        { retryPolicy: { maxAttempts: 2, initialInterval: 1, jitter: false, logWarning: false } },
      )
      .addEdge(START, "flaky")
      .compile();
    await graph.invoke({ messages: [] }, { callbacks: [handler] });
    expect(heard).toEqual([
      "start LangGraph 0<-",
      "start __start__ 1<0",
      "end 1",
      "start flaky 2<0",
      "error 2 first attempt",
      "start flaky 3<0",
      "model 4<3",
      "end 3",
      "end 0",
    ]);
  });

  it("two runs resumed at once from one checkpoint (same task ids) keep their node runs apart", async () => {
    const model = new FakeListChatModel({ responses: ["ok", "ok"] });
    const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("prep", () => ({}))
      .addNode(
        "ask",
        async (_state, config) => {
          await pause();
          if (config.executionInfo?.nodeAttempt === 1) throw new Error("first attempt");
          await pause();
          return { messages: [await model.invoke("hi", config)] };
        },
        { retryPolicy: { maxAttempts: 2, initialInterval: 1, jitter: false, logWarning: false } },
      )
      .addEdge(START, "prep")
      .addEdge("prep", "ask")
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ["ask"] });
    const config = { configurable: { thread_id: "twin-runs" } };
    await graph.invoke({ messages: [] }, config);
    const first = idRecorder();
    const second = idRecorder();
    await Promise.all([
      graph.invoke(null, { ...config, callbacks: [first.handler] }),
      graph.invoke(null, { ...config, callbacks: [second.handler] }),
    ]);
    const each = [
      "start LangGraph 0<-",
      "start ask 1<0",
      "error 1 first attempt",
      "start ask 2<0",
      "model 3<2",
      "end 2",
      "end 0",
    ];
    expect(first.heard).toEqual(each);
    expect(second.heard).toEqual(each);
  });

  it("a node resumed after an interrupt starts a run with a new id", async () => {
    const { heard, handler } = idRecorder();
    const graph = new StateGraph(Counter)
      .addNode("ask", () => ({ x: Number(interrupt("how many?")) }))
      .addEdge(START, "ask")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "resume-ids" }, callbacks: [handler] };
    await graph.invoke({ x: 0 }, config);
    await graph.invoke(new Command({ resume: 2 }), config);
    // a run resumed with a Command runs no __start__ node
    expect(heard).toEqual([
      "start LangGraph 0<-",
      "start __start__ 1<0",
      "end 1",
      "start ask 2<0",
      expect.stringMatching(/^error 2 /),
      "end 0",
      "start LangGraph 3<-",
      "start ask 4<3",
      "end 4",
      "end 3",
    ]);
  });
});

describe("functional API calls are heard ending as they return (LangChain.js)", () => {
  it("a task() awaited before the next is called ends before that one starts", async () => {
    const heard: string[] = [];
    const names = new Map<string, string | undefined>();
    const handler: CallbackHandler = {
      handleChainStart(_c, _i, runId, _p, _t, _m, _type, name) {
        names.set(runId, name);
        heard.push(`start ${name}`);
      },
      handleChainEnd(outputs, runId) {
        heard.push(`end ${names.get(runId)} ${JSON.stringify(outputs)}`);
      },
    };
    const addOne = task("addOne", async (x: number) => x + 1);
    const workflow = entrypoint({ name: "wf", checkpointer: new MemorySaver() }, async (x: number) => {
      const once = await addOne(x);
      return addOne(once);
    });
    expect(await workflow.invoke(1, { configurable: { thread_id: "calls" }, callbacks: [handler] })).toBe(3);
    expect(heard).toEqual([
      "start wf",
      "start wf",
      "start addOne",
      'end addOne {"output":2}',
      "start addOne",
      'end addOne {"output":3}',
      // the hidden runs that take the entrypoint's result apart, inside its node's run
      "start pluckReturnValue",
      'end pluckReturnValue {"output":3}',
      "start pluckSaveValue",
      'end pluckSaveValue {"output":3}',
      'end wf {"output":3}',
      "end wf 3",
    ]);
  });
});

describe("a graph run in a node with callbacks of its own reports to them (LangGraph.js)", () => {
  /** A subgraph of two steps, and a parent whose node runs it the way `call` does. */
  function nested(call: (inner: ReturnType<typeof twoSteps>, handler: CallbackHandler) => Promise<unknown>) {
    const own = recorder();
    const inner = new StateGraph(Counter)
      .addNode("a", () => ({ x: 1 }))
      .addNode("b", () => ({ x: 10 }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile({ name: "inner" });
    const outer = new StateGraph(Counter)
      .addNode("runner", async () => {
        await call(inner, own.handler);
        return { x: 100 };
      })
      .addEdge(START, "runner")
      .compile();
    return { outer, own };
  }
  const expected = [
    "start inner",
    "start __start__",
    "end __start__",
    "start a",
    "end a",
    "start b",
    "end b",
    "end inner",
  ];

  it("invoke, stream and streamEvents called with { callbacks } inside a node", async () => {
    const runs: Record<string, (inner: ReturnType<typeof twoSteps>, h: CallbackHandler) => Promise<unknown>> =
      {
        invoke: (inner, h) => inner.invoke({ x: 0 }, { callbacks: [h] }),
        stream: async (inner, h) => {
          for await (const _ of await inner.stream({ x: 0 }, { callbacks: [h] })) {
            // drained
          }
        },
        streamEvents: async (inner, h) => {
          for await (const _ of inner.streamEvents({ x: 0 }, { version: "v2", callbacks: [h] })) {
            // drained
          }
        },
      };
    for (const [how, call] of Object.entries(runs)) {
      const { outer, own } = nested(call);
      await outer.invoke({ x: 0 });
      expect(
        own.heard.map(([event, name]) => `${event} ${name}`),
        how,
      ).toEqual(expected);
    }
  });

  it("its nodes are children of its run, and the outer run's handlers (replaced) do not hear them", async () => {
    const parents: [string | undefined, string | undefined][] = [];
    const ids = new Map<string, string | undefined>();
    const { outer } = nested((inner) =>
      inner.invoke(
        { x: 0 },
        {
          callbacks: [
            {
              handleChainStart(_c, _i, runId, parent, _t, _m, _r, name) {
                ids.set(runId, name);
                parents.push([name, parent === undefined ? undefined : ids.get(parent)]);
              },
            },
          ],
        },
      ),
    );
    const root = recorder();
    await outer.invoke({ x: 0 }, { callbacks: [root.handler] });
    expect(parents).toEqual([
      ["inner", undefined],
      ["__start__", "inner"],
      ["a", "inner"],
      ["b", "inner"],
    ]);
    expect(root.heard.map(([event, name]) => `${event} ${name}`)).toEqual([
      "start LangGraph",
      "start __start__",
      "end __start__",
      "start runner",
      "end runner",
      "end LangGraph",
    ]);
  });
});

describe("a model called inside a tool is the tool's child (LangChain.js)", () => {
  it("with the tool's config passed on, and without any", async () => {
    for (const passConfig of [true, false]) {
      const runs = new Map<string, string>();
      const parents: string[] = [];
      const handler: CallbackHandler = {
        handleChainStart(_c, _i, runId, _p, _t, _m, _r, name) {
          runs.set(runId, `chain ${name}`);
        },
        handleToolStart(_t, _i, runId, parent, _tags, _m, name) {
          runs.set(runId, `tool ${name}`);
          parents.push(`tool under ${parent === undefined ? "-" : runs.get(parent)}`);
        },
        handleChatModelStart(_l, _m, _runId, parent) {
          parents.push(`model under ${parent === undefined ? "-" : runs.get(parent)}`);
        },
      };
      const model = new FakeListChatModel({ responses: ["ok"] });
      const lookup = tool(
        async (_args, config) => {
          const reply = passConfig ? await model.invoke("q", config) : await model.invoke("q");
          return String(reply.content);
        },
        { name: "lookup", description: "looks up", schema: z.object({ q: z.string() }) },
      );
      const graph = new StateGraph(Counter)
        .addNode("caller", async (_state, config) => {
          await lookup.invoke({ q: "x" }, config);
          return { x: 1 };
        })
        .addEdge(START, "caller")
        .compile();
      await graph.invoke({ x: 0 }, { callbacks: [handler] });
      expect(parents, String(passConfig)).toEqual(["tool under chain caller", "model under tool lookup"]);
    }
  });
});

describe("the hidden __start__ node and routing functions are runs of their own (LangChain.js)", () => {
  /** Records `event name run<parent tags data`, run ids as the order they were first seen in. */
  function runRecorder() {
    const heard: string[] = [];
    const ids = new Map<string, number>();
    const id = (runId: string | undefined) => {
      if (runId === undefined) return "-";
      if (!ids.has(runId)) ids.set(runId, ids.size);
      return String(ids.get(runId));
    };
    const handler: CallbackHandler = {
      handleChainStart(chain, inputs, runId, parent, tags, _m, _type, name) {
        const kind = chain.id.at(-1) === "RunnableLambda" ? " (lambda)" : "";
        heard.push(
          `start ${name}${kind} ${id(runId)}<${id(parent)} ${JSON.stringify(tags)} ${JSON.stringify(inputs)}`,
        );
      },
      handleChainEnd(outputs, runId, parent, tags) {
        heard.push(`end ${id(runId)}<${id(parent)} ${JSON.stringify(tags)} ${JSON.stringify(outputs)}`);
      },
      handleChainError(error, runId, parent) {
        heard.push(`error ${id(runId)}<${id(parent)} ${(error as Error).message}`);
      },
    };
    return { heard, handler };
  }

  function routed() {
    return new StateGraph(Counter)
      .addNode("a", () => ({ x: 1 }))
      .addNode("b", () => ({ x: 10 }))
      .addEdge(START, "a")
      .addConditionalEdges("a", function route(state) {
        return state.x > 100 ? "__end__" : "b";
      })
      .addEdge("b", "__end__")
      .compile();
  }

  const expected = [
    'start LangGraph 0<- [] {"x":1}',
    'start __start__ 1<0 ["graph:step:0","langsmith:hidden"] {"x":1}',
    'end 1<0 ["graph:step:0","langsmith:hidden"] {"x":1}',
    'start a 2<0 ["graph:step:1"] {"x":1}',
    // the router reads the state as the node left it
    'start RunnableLambda (lambda) 3<2 [] {"x":2}',
    'end 3<2 [] {"output":"b"}',
    'end 2<0 ["graph:step:1"] {"x":1}',
    'start b 4<0 ["graph:step:2"] {"x":2}',
    'end 4<0 ["graph:step:2"] {"x":10}',
    'end 0<- [] {"x":12}',
  ];

  it("invoke and stream: __start__ (tagged hidden) and the router inside its node", async () => {
    const invoked = runRecorder();
    await routed().invoke({ x: 1 }, { callbacks: [invoked.handler] });
    expect(invoked.heard).toEqual(expected);
    const streamed = runRecorder();
    for await (const _ of await routed().stream({ x: 1 }, { callbacks: [streamed.handler] })) {
      // drained
    }
    expect(streamed.heard).toEqual(expected);
  });

  it("a router from START runs inside __start__ and inherits its hidden tag; graph tags come first", async () => {
    const graph = new StateGraph(Counter)
      .addNode("a", () => ({ x: 1 }))
      .addConditionalEdges(START, () => "a")
      .compile();
    const { heard, handler } = runRecorder();
    await graph.invoke({ x: 1 }, { callbacks: [handler], tags: ["mine"] });
    expect(heard).toEqual([
      'start LangGraph 0<- ["mine"] {"x":1}',
      'start __start__ 1<0 ["graph:step:0","mine","langsmith:hidden"] {"x":1}',
      'start RunnableLambda (lambda) 2<1 ["mine","langsmith:hidden"] {"x":1}',
      'end 2<1 ["mine","langsmith:hidden"] {"output":"a"}',
      'end 1<0 ["graph:step:0","mine","langsmith:hidden"] {"x":1}',
      'start a 3<0 ["graph:step:1","mine"] {"x":1}',
      'end 3<0 ["graph:step:1","mine"] {"x":1}',
      'end 0<- ["mine"] {"x":2}',
    ]);
  });

  it("a subgraph's __start__ and router are under its run; a router's Sends are its output", async () => {
    const sub = new StateGraph(Counter)
      .addNode("s1", () => ({ x: 2 }))
      .addEdge(START, "s1")
      .addConditionalEdges("s1", () => "__end__")
      .compile();
    const graph = new StateGraph(Counter)
      .addNode("sub", sub)
      .addNode("w", (state) => ({ x: state.x }))
      .addEdge(START, "sub")
      .addConditionalEdges("sub", () => [new Send("w", { x: 3 })])
      .compile();
    const { heard, handler } = runRecorder();
    await graph.invoke({ x: 1 }, { callbacks: [handler] });
    expect(heard).toEqual([
      'start LangGraph 0<- [] {"x":1}',
      'start __start__ 1<0 ["graph:step:0","langsmith:hidden"] {"x":1}',
      'end 1<0 ["graph:step:0","langsmith:hidden"] {"x":1}',
      'start sub 2<0 ["graph:step:1"] {"x":1}',
      'start LangGraph 3<2 [] {"x":1}',
      'start __start__ 4<3 ["graph:step:0","langsmith:hidden"] {"x":1}',
      'end 4<3 ["graph:step:0","langsmith:hidden"] {"x":1}',
      'start s1 5<3 ["graph:step:1"] {"x":1}',
      'start RunnableLambda (lambda) 6<5 [] {"x":3}',
      'end 6<5 [] {"output":"__end__"}',
      'end 5<3 ["graph:step:1"] {"x":2}',
      'end 3<2 [] {"x":3}',
      'start RunnableLambda (lambda) 7<2 [] {"x":4}',
      'end 7<2 [] {"output":[{"lg_name":"Send","node":"w","args":{"x":3}}]}',
      'end 2<0 ["graph:step:1"] {"x":3}',
      'start w 8<0 ["graph:step:2"] {"x":3}',
      'end 8<0 ["graph:step:2"] {"x":3}',
      'end 0<- [] {"x":7}',
    ]);
  });

  it("a router that throws fails its run, then the node's", async () => {
    const graph = new StateGraph(Counter)
      .addNode("a", () => ({ x: 1 }))
      .addEdge(START, "a")
      .addConditionalEdges("a", () => {
        throw new Error("no way");
      })
      .compile();
    const { heard, handler } = runRecorder();
    await expect(graph.invoke({ x: 1 }, { callbacks: [handler] })).rejects.toThrow("no way");
    expect(heard.slice(4)).toEqual([
      'start RunnableLambda (lambda) 3<2 [] {"x":2}',
      "error 3<2 no way",
      "error 2<0 no way",
      "error 0<- no way",
    ]);
  });
});

describe("an entrypoint's result is taken apart by hidden runs inside its node's (LangGraph.js)", () => {
  it("pluckReturnValue and pluckSaveValue read what it returned; entrypoint.final splits it", async () => {
    const heard: string[] = [];
    const names = new Map<string, string | undefined>();
    const handler: CallbackHandler = {
      handleChainStart(chain, inputs, runId, parent, tags, _m, _type, name) {
        names.set(runId, name);
        heard.push(
          `start ${name} ${JSON.stringify(chain.id)} <${names.get(parent ?? "")} ${JSON.stringify(tags)} ${JSON.stringify(inputs)}`,
        );
      },
      handleChainEnd(outputs, runId) {
        heard.push(`end ${names.get(runId)} ${JSON.stringify(outputs)}`);
      },
    };
    const workflow = entrypoint({ name: "wf" }, async (x: number) =>
      entrypoint.final({ value: x + 1, save: x * 10 }),
    );
    expect(await workflow.invoke(1, { callbacks: [handler], tags: ["T"] })).toBe(2);
    const final = '{"value":2,"save":10,"__lg_type":"__pregel_final"}';
    expect(heard.slice(2)).toEqual([
      `start pluckReturnValue ["langgraph","RunnableCallable"] <wf ["langsmith:hidden","T"] ${final}`,
      'end pluckReturnValue {"output":2}',
      `start pluckSaveValue ["langgraph","RunnableCallable"] <wf ["langsmith:hidden","T"] ${final}`,
      'end pluckSaveValue {"output":10}',
      // the node's run ends with what the function returned
      `end wf ${final}`,
      "end wf 2",
    ]);
  });

  it("are not heard when a failed task() call, caught by the function, has failed the step", async () => {
    // LangGraph.js ends the run as the call fails, before the function returns
    const heard: string[] = [];
    const names = new Map<string, string | undefined>();
    const handler: CallbackHandler = {
      handleChainStart(_chain, _inputs, runId, _parent, _tags, _m, _type, name) {
        names.set(runId, name);
        heard.push(`start ${name}`);
      },
      handleChainEnd(_outputs, runId) {
        heard.push(`end ${names.get(runId)}`);
      },
      handleChainError(error, runId) {
        heard.push(`error ${names.get(runId)} ${(error as Error).message}`);
      },
    };
    const failing = task("failing", async () => {
      throw new Error("boom");
    });
    const workflow = entrypoint({ name: "wf" }, async (x: number) => {
      try {
        await failing();
      } catch {}
      return x;
    });
    await expect(workflow.invoke(1, { callbacks: [handler] })).rejects.toThrow("boom");
    expect(heard).toEqual([
      "start wf",
      "start wf",
      "start failing",
      "error failing boom",
      "error wf This operation was aborted",
      "error wf boom",
    ]);
  });
});

describe("chain callbacks: a graph's handler with raiseError and awaitHandlers fails the run, as in LangChain.js", () => {
  function counter() {
    return new StateGraph(Counter)
      .addNode("inc", () => ({ x: 1 }))
      .addEdge(START, "inc")
      .compile({ checkpointer: new MemorySaver() });
  }
  /** Fails hearing the graph (`LangGraph`) start, or its end. */
  function guard(at: "start" | "end") {
    const heard: string[] = [];
    const handler: CallbackHandler = {
      raiseError: true,
      awaitHandlers: true,
      async handleChainStart(_chain, _inputs, _runId, parent, _tags, _metadata, _type, name) {
        heard.push(`start ${name}`);
        if (at === "start" && parent === undefined) throw new Error("input rejected");
      },
      async handleChainEnd(_outputs, _runId, parent) {
        heard.push("end");
        if (at === "end" && parent === undefined) throw new Error("output rejected");
      },
      handleChainError: () => {
        heard.push("error");
      },
    };
    return { heard, handler };
  }

  it("a failing start: the run does not start (no checkpoint, no chain error), invoke and stream", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (const streamed of [false, true]) {
        const graph = counter();
        const { heard, handler } = guard("start");
        const config = { configurable: { thread_id: "t" }, callbacks: [handler] };
        const run = streamed
          ? (async () => {
              for await (const _ of await graph.stream({ x: 1 }, config));
            })()
          : graph.invoke({ x: 1 }, config);
        await expect(run).rejects.toThrow("input rejected");
        expect(heard).toEqual(["start LangGraph"]);
        expect((await graph.getState({ configurable: { thread_id: "t" } })).values).toEqual({});
      }
    } finally {
      error.mockRestore();
    }
  });

  it("a failing end: the run fails with the handler's error, its steps saved", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (const streamed of [false, true]) {
        const graph = counter();
        const { heard, handler } = guard("end");
        const config = { configurable: { thread_id: "t" }, callbacks: [handler] };
        const chunks: unknown[] = [];
        const run = streamed
          ? (async () => {
              for await (const chunk of await graph.stream({ x: 1 }, config)) chunks.push(chunk);
            })()
          : graph.invoke({ x: 1 }, config);
        await expect(run).rejects.toThrow("output rejected");
        expect(heard.at(-1)).toBe("end");
        expect(heard).not.toContain("error");
        expect((await graph.getState({ configurable: { thread_id: "t" } })).values).toEqual({ x: 2 });
        if (streamed) expect(chunks).toEqual([{ inc: { x: 1 } }]);
      }
    } finally {
      error.mockRestore();
    }
  });
});

describe("chain callbacks: a node's start heard by a handler with raiseError and awaitHandlers", () => {
  it("failing, fails the node before it runs (its task keeps the error; no chain error for the node), as in LangGraph.js", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      let ran = 0;
      const graph = new StateGraph(Counter)
        .addNode("inc", () => ({ x: 1 }))
        .addNode("guarded", () => {
          ran++;
          return { x: 10 };
        })
        .addEdge(START, "inc")
        .addEdge("inc", "guarded")
        .compile({ checkpointer: new MemorySaver() });
      const heard: string[] = [];
      const handler: CallbackHandler = {
        raiseError: true,
        awaitHandlers: true,
        async handleChainStart(_chain, _inputs, _runId, _parent, _tags, _metadata, _type, name) {
          heard.push(`start ${name}`);
          if (name === "guarded") throw new Error("not allowed");
        },
        handleChainError: () => {
          heard.push("error");
        },
      };
      const config = { configurable: { thread_id: "t" }, callbacks: [handler] };
      await expect(graph.invoke({ x: 1 }, config)).rejects.toThrow("not allowed");
      expect(ran).toBe(0);
      expect(heard).toEqual(["start LangGraph", "start __start__", "start inc", "start guarded", "error"]);
      const state = await graph.getState(config);
      expect([state.values, state.next, state.tasks.map((t) => t.error)]).toEqual([
        { x: 2 },
        ["guarded"],
        [expect.objectContaining({ message: "not allowed" })],
      ]);
    } finally {
      error.mockRestore();
    }
  });
});
