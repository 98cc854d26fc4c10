import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "./agents/index.js";
import {
  Command,
  dispatchCustomEvent,
  InMemoryCache,
  interrupt,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
  type StreamEvent,
} from "./index.js";
import { AIMessage, type BaseMessage, HumanMessage } from "./messages/index.js";
import { ToolNode, toolsCondition } from "./prebuilt/index.js";
import { FakeChatModel } from "./testing/index.js";
import { StructuredTool, tool } from "./tools/index.js";

const lookup = tool(async ({ q }: { q: string }) => `found ${q}`, {
  name: "lookup",
  description: "Looks a thing up.",
  schema: z.object({ q: z.string() }),
});

const script = () =>
  new FakeChatModel({
    responses: [
      new AIMessage({ content: "", id: "c1", tool_calls: [{ id: "t1", name: "lookup", args: { q: "x" } }] }),
      new AIMessage({ content: "final", id: "f2" }),
    ],
  });

function shape(event: StreamEvent): unknown[] {
  const show = (value: unknown): unknown => {
    if (value === undefined) return undefined;
    const v = value as { messages?: unknown[]; content?: unknown };
    if (Array.isArray(v.messages)) {
      const list = (Array.isArray(v.messages[0]) ? v.messages[0] : v.messages) as BaseMessage[];
      return { messages: list.map((m) => m.content) };
    }
    if (typeof v.content === "string") return { content: v.content };
    return typeof value === "object" && value !== null ? Object.keys(value) : value;
  };
  return [event.event, event.name, event.tags, show(event.data.input), show(event.data.output)];
}

describe("streamEvents", () => {
  it("yields the graph's, the nodes', the model's and the tools' events in order", async () => {
    const model = script();
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("agent", async (s) => ({ messages: [await model.invoke(s.messages)] }))
      .addNode("tools", new ToolNode([lookup]))
      .addEdge(START, "agent")
      .addConditionalEdges("agent", toolsCondition)
      .addEdge("tools", "agent")
      .compile();
    const events: StreamEvent[] = [];
    for await (const event of graph.streamEvents(
      { messages: [new HumanMessage({ content: "yo", id: "h" })] },
      { version: "v2" },
    )) {
      events.push(event);
    }
    const model_ = events.filter((e) => e.event.startsWith("on_chat_model")).map((e) => e.event);
    // the fake model streams its answer: tokens between start and end
    expect(model_[0]).toBe("on_chat_model_start");
    expect(model_).toContain("on_chat_model_stream");
    // the same sequence LangGraph.js yields, tokens aside: the graph's stream event of a step comes
    // once the next step's node has started
    expect(events.filter((e) => e.event !== "on_chat_model_stream").map(shape)).toEqual([
      ["on_chain_start", "LangGraph", [], { messages: ["yo"] }, undefined],
      // the hidden __start__ node, and the router inside each agent run (LangChain.js's v2)
      ["on_chain_start", "__start__", ["graph:step:0", "langsmith:hidden"], { messages: ["yo"] }, undefined],
      [
        "on_chain_end",
        "__start__",
        ["graph:step:0", "langsmith:hidden"],
        { messages: ["yo"] },
        { messages: ["yo"] },
      ],
      ["on_chain_start", "agent", ["graph:step:1"], { messages: ["yo"] }, undefined],
      ["on_chat_model_start", "FakeChatModel", [], { messages: ["yo"] }, undefined],
      ["on_chat_model_end", "FakeChatModel", [], { messages: ["yo"] }, { content: "" }],
      ["on_chain_start", "RunnableLambda", [], { messages: ["yo", ""] }, undefined],
      ["on_chain_end", "RunnableLambda", [], { messages: ["yo", ""] }, "tools"],
      ["on_chain_end", "agent", ["graph:step:1"], { messages: ["yo"] }, { messages: [""] }],
      ["on_chain_start", "tools", ["graph:step:2"], { messages: ["yo", ""] }, undefined],
      ["on_chain_stream", "LangGraph", [], undefined, undefined],
      ["on_tool_start", "lookup", [], ["q"], undefined],
      ["on_tool_end", "lookup", [], ["q"], { content: "found x" }],
      ["on_chain_end", "tools", ["graph:step:2"], { messages: ["yo", ""] }, { messages: ["found x"] }],
      ["on_chain_start", "agent", ["graph:step:3"], { messages: ["yo", "", "found x"] }, undefined],
      ["on_chain_stream", "LangGraph", [], undefined, undefined],
      ["on_chat_model_start", "FakeChatModel", [], { messages: ["yo", "", "found x"] }, undefined],
      ["on_chat_model_end", "FakeChatModel", [], { messages: ["yo", "", "found x"] }, { content: "final" }],
      ["on_chain_start", "RunnableLambda", [], { messages: ["yo", "", "found x", "final"] }, undefined],
      ["on_chain_end", "RunnableLambda", [], { messages: ["yo", "", "found x", "final"] }, "__end__"],
      [
        "on_chain_end",
        "agent",
        ["graph:step:3"],
        { messages: ["yo", "", "found x"] },
        { messages: ["final"] },
      ],
      ["on_chain_stream", "LangGraph", [], undefined, undefined],
      ["on_chain_end", "LangGraph", [], undefined, { messages: ["yo", "", "found x", "final"] }],
    ]);
    const streamed = events
      .filter((e) => e.event === "on_chain_stream")
      .map((e) => Object.keys(e.data.chunk as object));
    expect(streamed).toEqual([["agent"], ["tools"], ["agent"]]);
    const tokens = events.filter((e) => e.event === "on_chat_model_stream");
    expect(tokens.map((e) => (e.data.chunk as { content: string }).content).join("")).toBe("final");
    expect(tokens.every((e) => e.metadata.langgraph_node === "agent")).toBe(true);
  });

  it("carries LangGraph.js's metadata (graph: ls_integration and thread_id; nodes: their run metadata) and no parent_ids", async () => {
    const model = script();
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("agent", async (s) => ({ messages: [await model.invoke(s.messages)] }), {
        metadata: { own: 1 },
      })
      .addEdge(START, "agent")
      .compile({ checkpointer: new MemorySaver(), name: "G" });
    const events: StreamEvent[] = [];
    for await (const event of graph.streamEvents(
      { messages: [new HumanMessage({ content: "yo", id: "h" })] },
      { version: "v2", configurable: { thread_id: "t1", user_id: "u" }, metadata: { rm: 1 }, tags: ["rt"] },
    )) {
      events.push(event);
    }
    for (const event of events) {
      expect(Object.keys(event).sort()).toEqual(["data", "event", "metadata", "name", "run_id", "tags"]);
    }
    const graphStart = events.find((e) => e.event === "on_chain_start" && e.name === "G");
    expect(graphStart?.metadata).toEqual({ ls_integration: "langgraph", rm: 1, thread_id: "t1" });
    const nodeStart = events.find((e) => e.event === "on_chain_start" && e.name === "agent");
    const ns = nodeStart?.metadata.langgraph_checkpoint_ns;
    expect(ns).toMatch(/^agent:/);
    expect(nodeStart?.tags).toEqual(["graph:step:1", "rt"]);
    expect(nodeStart?.metadata).toEqual({
      ls_integration: "langgraph",
      rm: 1,
      own: 1,
      thread_id: "t1",
      langgraph_step: 1,
      langgraph_node: "agent",
      langgraph_triggers: ["branch:to:agent"],
      langgraph_path: ["__pregel_pull", "agent"],
      langgraph_checkpoint_ns: ns,
      checkpoint_ns: ns,
    });
    const nodeEnd = events.find((e) => e.event === "on_chain_end" && e.name === "agent");
    expect(nodeEnd?.metadata).toEqual(nodeStart?.metadata);
  });

  it("gives an interrupted or failed node no end event, and ends the graph with its state", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("ask", () => ({ messages: [new AIMessage({ content: String(interrupt("q?")), id: "r" })] }))
      .addNode("bad", () => {
        throw new Error("bad!");
      })
      .addEdge(START, "ask")
      .addEdge("ask", "bad")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "ie" }, version: "v2" as const };
    const first: StreamEvent[] = [];
    for await (const event of graph.streamEvents({ messages: [] }, config)) first.push(event);
    expect(first.map((e) => [e.event, e.name])).toEqual([
      ["on_chain_start", "LangGraph"],
      ["on_chain_start", "__start__"],
      ["on_chain_end", "__start__"],
      ["on_chain_start", "ask"],
      ["on_chain_stream", "LangGraph"],
      ["on_chain_end", "LangGraph"],
    ]);
    expect(first.at(-1)?.data.output).toEqual({ messages: [] });
    const second: StreamEvent[] = [];
    await expect(async () => {
      for await (const event of graph.streamEvents(new Command({ resume: "yes" }), config))
        second.push(event);
    }).rejects.toThrow("bad!");
    expect(second.map((e) => [e.event, e.name])).toEqual([
      ["on_chain_start", "LangGraph"],
      ["on_chain_start", "ask"],
      ["on_chain_end", "ask"],
      ["on_chain_start", "bad"],
      ["on_chain_stream", "LangGraph"],
    ]);
  });

  it("chain callbacks hear an interrupted node end with a GraphInterrupt, in invoke and streamEvents", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("ask", () => ({ messages: [new AIMessage({ content: String(interrupt("q?")), id: "r" })] }))
      .addEdge(START, "ask")
      .compile({ checkpointer: new MemorySaver() });
    const heard: string[] = [];
    const names = new Map<string, string>();
    const handler = {
      handleChainStart(
        _serialized: unknown,
        _input: unknown,
        runId: string,
        _parent?: string,
        _tags?: string[],
        _metadata?: Record<string, unknown>,
        _type?: string,
        name?: string,
      ) {
        names.set(runId, String(name));
        heard.push(`start ${name}`);
      },
      handleChainEnd(_output: unknown, runId: string) {
        heard.push(`end ${names.get(runId)}`);
      },
      handleChainError(error: unknown, runId: string) {
        heard.push(`error ${names.get(runId)} ${(error as Error).name}`);
      },
    };
    await graph.invoke({ messages: [] }, { configurable: { thread_id: "cb1" }, callbacks: [handler] });
    const expected = [
      "start LangGraph",
      "start __start__",
      "end __start__",
      "start ask",
      "error ask GraphInterrupt",
      "end LangGraph",
    ];
    expect(heard.splice(0)).toEqual(expected);
    for await (const _ of graph.streamEvents(
      { messages: [] },
      { configurable: { thread_id: "cb2" }, callbacks: [handler], version: "v2" },
    )) {
      // drained
    }
    expect(heard).toEqual(expected);
  });

  it("invoke's chain callbacks hear a node with its whole run metadata", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("n", () => ({}), { metadata: { own: 2 } })
      .addEdge(START, "n")
      .compile({ checkpointer: new MemorySaver(), name: "G" });
    const heard: [string, Record<string, unknown>][] = [];
    const handler = {
      handleChainStart(
        _serialized: unknown,
        _input: unknown,
        _runId: string,
        _parent?: string,
        _tags?: string[],
        metadata?: Record<string, unknown>,
        _type?: string,
        name?: string,
      ) {
        heard.push([String(name), metadata ?? {}]);
      },
    };
    await graph.invoke({ messages: [] }, { configurable: { thread_id: "t2" }, callbacks: [handler] });
    const node = heard.find(([name]) => name === "n")?.[1];
    expect(node).toMatchObject({
      own: 2,
      thread_id: "t2",
      langgraph_step: 1,
      langgraph_node: "n",
      langgraph_triggers: ["branch:to:n"],
      langgraph_path: ["__pregel_pull", "n"],
      checkpoint_ns: expect.stringMatching(/^n:/),
    });
  });

  it("names a StructuredTool subclass's run after its class, and a tool()'s after the tool", async () => {
    class Sub extends StructuredTool {
      name = "sub";
      description = "d";
      schema = z.object({ q: z.string() });
      protected async _call() {
        return "r";
      }
    }
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("tools", new ToolNode([new Sub(), lookup]))
      .addEdge(START, "tools")
      .compile();
    const ai = new AIMessage({
      content: "",
      tool_calls: [
        { name: "sub", args: { q: "a" }, id: "c1", type: "tool_call" },
        { name: "lookup", args: { q: "b" }, id: "c2", type: "tool_call" },
      ],
    });
    const names: string[] = [];
    for await (const event of graph.streamEvents({ messages: [ai] }, { version: "v2" })) {
      if (event.event === "on_tool_start") names.push(event.name);
    }
    expect(names).toEqual(["Sub", "lookup"]);
  });

  it("filters by type and name, and needs a schema version", async () => {
    const model = new FakeChatModel({ responses: ["hi there", "again"] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("chat", async (s) => ({ messages: [await model.invoke(s.messages)] }))
      .addEdge(START, "chat")
      .compile();
    const types: string[] = [];
    for await (const e of graph.streamEvents(
      { messages: [] },
      { version: "v2" },
      { includeTypes: ["chat_model"] },
    )) {
      types.push(e.event);
    }
    expect(types[0]).toBe("on_chat_model_start");
    expect(types.at(-1)).toBe("on_chat_model_end");
    expect(new Set(types)).toEqual(
      new Set(["on_chat_model_start", "on_chat_model_stream", "on_chat_model_end"]),
    );
    const named: string[] = [];
    for await (const e of graph.streamEvents(
      { messages: [] },
      { version: "v2" },
      { includeNames: ["chat"] },
    )) {
      named.push(e.event);
    }
    expect(named).toEqual(["on_chain_start", "on_chain_end"]);
    expect(() => graph.streamEvents({ messages: [] }, {} as never)).toThrow(
      'Only versions "v1" and "v2" of the schema are currently supported',
    );
  });

  it("gives the first event kept by a filter the call's input, and that run's end no input (LangChain.js's v2 stream)", async () => {
    const model = new FakeChatModel({ responses: ["hi there", "again"] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("chat", async (s) => ({ messages: [await model.invoke(s.messages)] }))
      .addEdge(START, "chat")
      .compile();
    const input = { messages: [new HumanMessage("question")] };
    const events: StreamEvent[] = [];
    for await (const e of graph.streamEvents(input, { version: "v2" }, { includeTypes: ["chat_model"] })) {
      events.push(e);
    }
    expect(events[0]?.event).toBe("on_chat_model_start");
    expect(events[0]?.data.input).toBe(input);
    const end = events.at(-1);
    expect(end?.event).toBe("on_chat_model_end");
    expect(end?.data).not.toHaveProperty("input");
    expect(end?.data.output).toBeDefined();
    // a later run keeps its own input, and an unfiltered stream's graph start has the input as ever
    const nodes: StreamEvent[] = [];
    for await (const e of graph.streamEvents(input, { version: "v2" }, { includeNames: ["chat"] })) {
      nodes.push(e);
    }
    expect(nodes.map((e) => [e.event, e.data.input])).toEqual([
      ["on_chain_start", input],
      ["on_chain_end", undefined],
    ]);
  });

  it("works on an agent made by createAgent", async () => {
    const agent = createAgent({ model: script(), tools: [lookup] });
    const names: string[] = [];
    for await (const e of agent.streamEvents(
      { messages: [{ role: "user", content: "yo" }] },
      { version: "v2" },
    )) {
      if (e.event === "on_chain_start" || e.event.startsWith("on_tool")) names.push(`${e.event}:${e.name}`);
    }
    // the hidden __start__ node, and the agent's router inside each model_request run
    expect(names).toEqual([
      "on_chain_start:LangGraph",
      "on_chain_start:__start__",
      "on_chain_start:model_request",
      "on_chain_start:RunnableLambda",
      "on_chain_start:tools",
      "on_tool_start:lookup",
      "on_tool_end:lookup",
      "on_chain_start:model_request",
      "on_chain_start:RunnableLambda",
    ]);
  });

  // as LangChain.js 1.5.14: its event stream has no on_chat_model_error, and an on_tool_error's
  // error is the text its tracers record
  it("reports a failing tool's error as its message and stack, and a failing model call with no event", async () => {
    const failing = tool(
      async () => {
        throw new Error("tool failed");
      },
      { name: "failing", description: "Fails.", schema: z.object({}) },
    );
    const agent = createAgent({
      model: new FakeChatModel({
        responses: [
          new AIMessage({ content: "", id: "c1", tool_calls: [{ id: "t1", name: "failing", args: {} }] }),
          new AIMessage({ content: "done", id: "f2" }),
        ],
      }),
      tools: [failing],
    });
    const events: StreamEvent[] = [];
    for await (const event of agent.streamEvents({ messages: [new HumanMessage("go")] }, { version: "v2" })) {
      events.push(event);
    }
    const toolError = events.find((e) => e.event === "on_tool_error");
    expect(Object.keys(toolError?.data ?? {})).toEqual(["input", "error"]);
    expect(typeof toolError?.data.error).toBe("string");
    expect(toolError?.data.error).toMatch(/^tool failed\n\nError: tool failed\n {4}at /);

    const broken = createAgent({ model: new FakeChatModel({ responses: [] }), tools: [] });
    const names: string[] = [];
    await expect(async () => {
      for await (const event of broken.streamEvents(
        { messages: [new HumanMessage("go")] },
        { version: "v2" },
      )) {
        names.push(event.event);
      }
    }).rejects.toThrow();
    expect(names).toContain("on_chat_model_start");
    expect(names.filter((n) => n.startsWith("on_chat_model"))).toEqual(["on_chat_model_start"]);
  });

  it("streams the graph's chunks of the call's streamMode and subgraphs, as stream() yields them", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("a", async (_s, config) => {
        config.writer?.({ hello: 1 });
        return { messages: [new AIMessage({ content: "A", id: "a1" })] };
      })
      .addEdge(START, "a")
      .compile();
    const streamed = async (options: Record<string, unknown>) => {
      const chunks: unknown[] = [];
      for await (const e of graph.streamEvents(
        { messages: [new HumanMessage({ content: "yo", id: "h" })] },
        { version: "v2", ...options },
      )) {
        if (e.event === "on_chain_stream") chunks.push(e.data.chunk);
      }
      return chunks;
    };
    const ids = (value: unknown) => (value as { messages: BaseMessage[] }).messages.map((m) => m.id);
    // a custom chunk comes as it is written, before the step's values
    const both = (await streamed({ streamMode: ["custom", "values"] })) as [string, unknown][];
    expect(both.map(([mode]) => mode)).toEqual(["values", "custom", "values"]);
    expect(both[1]?.[1]).toEqual({ hello: 1 });
    expect(ids(both[2]?.[1])).toEqual(["h", "a1"]);
    const values = await streamed({ streamMode: "values" });
    expect(values.map(ids)).toEqual([["h"], ["h", "a1"]]);
    expect(await streamed({ streamMode: "custom" })).toEqual([{ hello: 1 }]);
    expect(await streamed({ streamMode: "custom", subgraphs: true })).toEqual([[[], { hello: 1 }]]);
    // no streamMode: the graph's updates
    expect((await streamed({})).map((chunk) => Object.keys(chunk as object))).toEqual([["a"]]);
  });
});

describe("leaving a streamEvents loop early", () => {
  /** A tool that waits for its signal (at most `ms`), and says when it was aborted. */
  const waiting = (aborted: string[], ms: number) =>
    tool(
      async (_args: Record<string, never>, config) => {
        const signal = config?.signal as AbortSignal;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          signal.addEventListener(
            "abort",
            () => {
              aborted.push(String((signal.reason as Error).name));
              clearTimeout(timer);
              resolve();
            },
            { once: true },
          );
        });
        return "waited";
      },
      { name: "wait", description: "Waits.", schema: z.object({}) },
    );
  const calling = () =>
    new FakeChatModel({
      responses: [
        new AIMessage({ content: "", id: "c1", tool_calls: [{ id: "t1", name: "wait", args: {} }] }),
        new AIMessage({ content: "done", id: "c2" }),
      ],
    });

  it("stops the run at once, aborting a tool in flight, though no event comes until the tool ends", async () => {
    const aborted: string[] = [];
    const agent = () => createAgent({ model: calling(), tools: [waiting(aborted, 2_000)] });
    // the agent's own streamEvents, and its graph's
    for (const events of [
      agent().streamEvents({ messages: [{ role: "user", content: "yo" }] }, { version: "v2" }),
      agent().graph.streamEvents({ messages: [new HumanMessage("yo")] }, { version: "v2" }),
    ]) {
      const started = Date.now();
      for await (const e of events) {
        // the consumer does something with each event, as the stream reads the next one
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (e.event === "on_tool_start") break;
      }
      expect(Date.now() - started).toBeLessThan(1_000);
    }
    expect(aborted).toEqual(["AbortError", "AbortError"]);
  });

  it("a reader cancelled while it waits for the next event stops the run too, with the reason given", async () => {
    const aborted: string[] = [];
    const agent = createAgent({ model: calling(), tools: [waiting(aborted, 2_000)] });
    const reader = agent.streamEvents({ messages: [new HumanMessage("yo")] }, { version: "v2" }).getReader();
    for (;;) {
      const { value } = await reader.read();
      if (value?.event === "on_tool_start") break;
    }
    const pending = reader.read();
    const started = Date.now();
    await reader.cancel(new TypeError("enough"));
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(aborted).toEqual(["TypeError"]);
  });
});

describe("streamEvents of graphs run inside nodes", () => {
  const child = (name?: string) =>
    new StateGraph(MessagesAnnotation)
      .addNode("inner", async () => ({ messages: [new AIMessage({ content: "x", id: "x1" })] }))
      .addEdge(START, "inner")
      .compile(name === undefined ? {} : { name });
  type Parent = ReturnType<typeof withChild>;
  const withChild = (sub: ReturnType<typeof child>) =>
    new StateGraph(MessagesAnnotation).addNode("n0", sub).addEdge(START, "n0").compile();
  const callingChild = (sub: ReturnType<typeof child>) =>
    new StateGraph(MessagesAnnotation)
      .addNode("n0", async (s, config) => ({ messages: (await sub.invoke(s, config)).messages.slice(-1) }))
      .addEdge(START, "n0")
      .compile();
  const chainEvents = async (graph: Parent) => {
    const out: unknown[] = [];
    for await (const e of graph.streamEvents(
      { messages: [new HumanMessage({ content: "hi", id: "h" })] },
      { version: "v2", tags: ["rt"] },
    )) {
      if (e.event === "on_chain_start" || e.event === "on_chain_end")
        out.push([e.event, e.name, e.tags, e.metadata.langgraph_node, shape(e)[3], shape(e)[4]]);
    }
    return out;
  };

  // each graph's hidden __start__ node, as LangChain.js's v2 events show it
  const hiddenTags = ["graph:step:0", "rt", "langsmith:hidden"];
  const hiddenStart = [
    ["on_chain_start", "__start__", hiddenTags, "__start__", { messages: ["hi"] }, undefined],
    ["on_chain_end", "__start__", hiddenTags, "__start__", { messages: ["hi"] }, { messages: ["hi"] }],
  ];

  it("reports a subgraph node's own run between the node's events, named after the subgraph", async () => {
    expect(await chainEvents(withChild(child("child")))).toEqual([
      ["on_chain_start", "LangGraph", ["rt"], undefined, { messages: ["hi"] }, undefined],
      ...hiddenStart,
      ["on_chain_start", "n0", ["graph:step:1", "rt"], "n0", { messages: ["hi"] }, undefined],
      ["on_chain_start", "child", ["rt"], "n0", { messages: ["hi"] }, undefined],
      ...hiddenStart,
      ["on_chain_start", "inner", ["graph:step:1", "rt"], "inner", { messages: ["hi"] }, undefined],
      ["on_chain_end", "inner", ["graph:step:1", "rt"], "inner", { messages: ["hi"] }, { messages: ["x"] }],
      ["on_chain_end", "child", ["rt"], "n0", { messages: ["hi"] }, { messages: ["hi", "x"] }],
      ["on_chain_end", "n0", ["graph:step:1", "rt"], "n0", { messages: ["hi"] }, { messages: ["hi", "x"] }],
      ["on_chain_end", "LangGraph", ["rt"], undefined, undefined, { messages: ["hi", "x"] }],
    ]);
  });

  it("reports a graph invoked inside a node's function the same way", async () => {
    const events = await chainEvents(callingChild(child()));
    expect(events.map((e) => (e as unknown[]).slice(0, 2))).toEqual([
      ["on_chain_start", "LangGraph"],
      ["on_chain_start", "__start__"],
      ["on_chain_end", "__start__"],
      ["on_chain_start", "n0"],
      ["on_chain_start", "LangGraph"],
      ["on_chain_start", "__start__"],
      ["on_chain_end", "__start__"],
      ["on_chain_start", "inner"],
      ["on_chain_end", "inner"],
      ["on_chain_end", "LangGraph"],
      ["on_chain_end", "n0"],
      ["on_chain_end", "LangGraph"],
    ]);
    expect(events[4]).toEqual(["on_chain_start", "LangGraph", ["rt"], "n0", { messages: ["hi"] }, undefined]);
  });

  it("streams the messages a subgraph node returns as the node's, without subgraphs, as stream() does", async () => {
    const graph = withChild(child("child"));
    const messages = async (subgraphs: boolean) => {
      const out: unknown[] = [];
      for await (const e of graph.streamEvents(
        { messages: [new HumanMessage({ content: "hi", id: "h" })] },
        { version: "v2", streamMode: "messages", subgraphs },
      )) {
        if (e.event !== "on_chain_stream") continue;
        const [namespace, [message, metadata]] = (subgraphs ? e.data.chunk : [[], e.data.chunk]) as [
          string[],
          [BaseMessage, Record<string, unknown>],
        ];
        out.push([namespace.length, message.content, metadata.langgraph_node]);
      }
      return out;
    };
    expect(await messages(false)).toEqual([[0, "x", "n0"]]);
    expect(await messages(true)).toEqual([[1, "x", "inner"]]);
  });

  it("reports the nested graph's run to chain callbacks, under its node (LangChain.js)", async () => {
    const starts = async (graph: Parent, call: "invoke" | "streamEvents") => {
      const started: [string, string | undefined, string][] = [];
      const names = new Map<string | undefined, string>();
      const handler = {
        handleChainStart: (...args: unknown[]) =>
          void started.push([args[7] as string, args[3] as string | undefined, args[2] as string]),
      };
      const input = { messages: [new HumanMessage("hi")] };
      if (call === "invoke") await graph.invoke(input, { callbacks: [handler] });
      else for await (const _ of graph.streamEvents(input, { version: "v2", callbacks: [handler] }));
      // each run named with its parent's name (the hidden __start__ runs end before the next starts)
      for (const [name, , runId] of started) names.set(runId, name);
      return started.map(([name, parent]) => `${name}<${names.get(parent) ?? "-"}`);
    };
    const expected = [
      "LangGraph<-",
      "__start__<LangGraph",
      "n0<LangGraph",
      "child<n0",
      "__start__<child",
      "inner<child",
    ];
    for (const graph of [withChild(child("child")), callingChild(child("child"))]) {
      expect(await starts(graph, "streamEvents")).toEqual(expected);
      expect(await starts(graph, "invoke")).toEqual(expected);
    }
  });
});

describe("dispatchCustomEvent", () => {
  const progress = async () => {
    await dispatchCustomEvent("progress", { chunk: "Four" });
    await dispatchCustomEvent("progress", { chunk: "score" });
    return {};
  };
  const custom = (events: StreamEvent[]) =>
    events
      .filter((e) => e.event === "on_custom_event")
      .map((e) => [e.name, e.data, e.tags, e.metadata.langgraph_node, e.metadata.langgraph_step]);

  it("shows a node's custom events as on_custom_event with the node's run id, tags and metadata (LangChain.js)", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("work", progress)
      .addEdge(START, "work")
      .compile();
    const events: StreamEvent[] = [];
    for await (const e of graph.streamEvents({ messages: [] }, { version: "v2" })) events.push(e);
    expect(custom(events)).toEqual([
      ["progress", { chunk: "Four" }, ["graph:step:1"], "work", 1],
      ["progress", { chunk: "score" }, ["graph:step:1"], "work", 1],
    ]);
    const node = events.find((e) => e.event === "on_chain_start" && e.name === "work");
    const first = events.findIndex((e) => e.event === "on_custom_event");
    expect(events[first]?.run_id).toBe(node?.run_id);
    expect(events.indexOf(node as StreamEvent)).toBeLessThan(first);
    // the node's own config passed explicitly, and a subgraph's node, work the same way
    const explicit = new StateGraph(MessagesAnnotation)
      .addNode("work", async (_s, config) => {
        await dispatchCustomEvent("explicit", 1, config);
        return {};
      })
      .addEdge(START, "work")
      .compile();
    const outer = new StateGraph(MessagesAnnotation).addNode("sub", explicit).addEdge(START, "sub").compile();
    const nested: StreamEvent[] = [];
    for await (const e of outer.streamEvents({ messages: [] }, { version: "v2" })) nested.push(e);
    expect(custom(nested)).toEqual([["explicit", 1, ["graph:step:1"], "work", 1]]);
  });

  it("keeps or filters a custom event as its run: by the run's name and type, not the event's name", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("work", progress)
      .addEdge(START, "work")
      .compile();
    const names = async (filter: Record<string, string[]>) => {
      const out: string[] = [];
      for await (const e of graph.streamEvents({ messages: [] }, { version: "v2" }, filter)) {
        out.push(`${e.event}:${e.name}`);
      }
      return out;
    };
    expect(await names({ includeNames: ["work"] })).toEqual([
      "on_chain_start:work",
      "on_custom_event:progress",
      "on_custom_event:progress",
      "on_chain_end:work",
    ]);
    // before: kept by the event's own name
    expect(await names({ includeNames: ["progress"] })).toEqual([]);
    expect(
      await names({ includeTypes: ["chain"], excludeNames: ["work", "LangGraph", "__start__"] }),
    ).toEqual([]);
  });

  it("gives a tool's custom event the tool's run, and does nothing outside a run", async () => {
    const items = tool(
      async ({ q }: { q: string }) => {
        await dispatchCustomEvent("tool_progress", { q });
        return "books";
      },
      { name: "items", description: "Lists items.", schema: z.object({ q: z.string() }) },
    );
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("tools", new ToolNode([items]))
      .addEdge(START, "tools")
      .compile();
    const call = new AIMessage({
      content: "",
      id: "a",
      tool_calls: [{ id: "t1", name: "items", args: { q: "shelf" } }],
    });
    const events: StreamEvent[] = [];
    for await (const e of graph.streamEvents({ messages: [call] }, { version: "v2" })) events.push(e);
    expect(custom(events)).toEqual([["tool_progress", { q: "shelf" }, [], "tools", 1]]);
    const toolStart = events.find((e) => e.event === "on_tool_start");
    expect(events.find((e) => e.event === "on_custom_event")?.run_id).toBe(toolStart?.run_id);
    await expect(dispatchCustomEvent("outside", {})).resolves.toBeUndefined();
  });

  it("tells the run's callback handlers, with the node's run id, the inherited tags and the node's metadata", async () => {
    const heard: unknown[] = [];
    const started: Record<string, string> = {};
    const handler = {
      handleChainStart(
        _c: unknown,
        _i: unknown,
        runId: string,
        _p?: string,
        _t?: string[],
        _m?: unknown,
        _r?: string,
        name?: string,
      ) {
        if (name !== undefined) started[name] = runId;
      },
      handleCustomEvent(
        name: string,
        data: unknown,
        runId: string,
        tags?: string[],
        metadata?: Record<string, unknown>,
      ) {
        heard.push([name, data, runId, tags, metadata?.langgraph_node]);
      },
    };
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("work", progress)
      .addEdge(START, "work")
      .compile();
    await graph.invoke({ messages: [] }, { callbacks: [handler] });
    expect(heard).toEqual([
      ["progress", { chunk: "Four" }, started.work, [], "work"],
      ["progress", { chunk: "score" }, started.work, [], "work"],
    ]);
    // a run nobody listens to hears nothing, and the node runs as usual
    expect(await graph.invoke({ messages: [] })).toEqual({ messages: [] });
  });
});

describe("the Runnable helpers of a compiled graph", () => {
  const graph = () =>
    new StateGraph(MessagesAnnotation)
      .addNode("echo", (s) => {
        const last = s.messages.at(-1);
        if (last?.content === "boom") throw new Error("boom");
        return {
          messages: [new AIMessage({ content: `echo ${String(last?.content)}`, id: `e-${last?.id}` })],
        };
      })
      .addEdge(START, "echo")
      .compile();

  it("batch runs each input, and returnExceptions keeps a failure in its place", async () => {
    const inputs = ["a", "b", "boom"].map((text) => ({
      messages: [new HumanMessage({ content: text, id: text })],
    }));
    await expect(graph().batch(inputs)).rejects.toThrow("boom");
    const results = await graph().batch(inputs, undefined, { returnExceptions: true, maxConcurrency: 1 });
    expect(
      results.slice(0, 2).map((r) => (r as { messages: BaseMessage[] }).messages.at(-1)?.content),
    ).toEqual(["echo a", "echo b"]);
    expect(results[2]).toBeInstanceOf(Error);
  });

  it("getName, isInterrupted, clearCache and getSubgraphsAsync", async () => {
    const g = graph();
    expect(g.getName()).toBe("LangGraph");
    expect(g.getName("-x")).toBe("LangGraph-x");
    expect(g.isInterrupted({ __interrupt__: [] })).toBe(true);
    expect(g.isInterrupted({ messages: [] })).toBe(false);
    await expect(g.clearCache()).resolves.toBeUndefined();
    let runs = 0;
    const cached = new StateGraph(MessagesAnnotation)
      .addNode(
        "slow",
        () => {
          runs += 1;
          return {};
        },
        { cachePolicy: {} },
      )
      .addEdge(START, "slow")
      .compile({ cache: new InMemoryCache() });
    await cached.invoke({ messages: [] });
    await cached.invoke({ messages: [] });
    expect(runs).toBe(1);
    await cached.clearCache();
    await cached.invoke({ messages: [] });
    expect(runs).toBe(2);
    const parent = new StateGraph(MessagesAnnotation).addNode("inner", g).addEdge(START, "inner").compile();
    const found: string[] = [];
    for await (const [ns] of parent.getSubgraphsAsync()) found.push(ns);
    expect(found).toEqual(["inner"]);
  });
});
