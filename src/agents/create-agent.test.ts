import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  Annotation,
  Command,
  END,
  getCurrentTaskInput,
  interrupt,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from "../index.js";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from "../messages/index.js";
import { FakeChatModel } from "../testing/index.js";
import { tool } from "../tools/index.js";
import {
  answer,
  asking,
  call,
  lookup,
  outline,
  question,
  RecordingModel,
  search,
} from "./agent.test-helpers.js";
import { createAgent, createMiddleware, MultipleToolsBoundError } from "./index.js";

type Edge = { source: string; target: string; conditional?: boolean };
function edges(agent: { graph: { getGraph(): { edges: Edge[] } } }): string[] {
  return agent.graph
    .getGraph()
    .edges.map((e) => `${e.source}->${e.target}${e.conditional ? "?" : ""}`)
    .sort();
}
function channels(agent: { graph: unknown }): string[] {
  return Object.entries((agent.graph as { channels: Record<string, object> }).channels).map(
    ([key, channel]) => `${channel.constructor.name}:${key}`,
  );
}

describe("createAgent: the loop", () => {
  it("calls the model, runs the tools, and stops when the model answers without tool calls", async () => {
    const model = new FakeChatModel({
      responses: [asking("a1", call("search", { query: "weather" }, "c1")), answer("a2", "It is sunny.")],
    });
    const agent = createAgent({ model, tools: [search] });
    const { messages } = await agent.invoke(question("Weather?"));
    expect(outline(messages)).toEqual([
      "human:Weather?",
      "ai:",
      "tool:results for weather",
      "ai:It is sunny.",
    ]);
    expect(messages[2]).toMatchObject({ tool_call_id: "c1", name: "search" });
    // LangChain.js stamps the agent's name (default "model") on the model's messages
    expect(messages[1]?.name).toBe("model");
    expect(messages[3]?.name).toBe("model");
  });

  it("sends the system prompt on every model call and never stores it", async () => {
    const model = new FakeChatModel({
      responses: [asking("a1", call("search", { query: "q" }, "c1")), answer("a2", "done")],
    });
    const agent = createAgent({ model, tools: [search], systemPrompt: "You are a helpful assistant" });
    const { messages } = await agent.invoke(question());
    expect(model.calls).toHaveLength(2);
    for (const received of model.calls) {
      expect(received[0]).toBeInstanceOf(SystemMessage);
      // one text block, as LangChain.js builds it from a string
      expect(received[0]?.content).toEqual([{ type: "text", text: "You are a helpful assistant" }]);
      expect(received[0]?.text).toBe("You are a helpful assistant");
    }
    expect(outline(model.calls[1] ?? [])).toEqual([
      `system:${JSON.stringify([{ type: "text", text: "You are a helpful assistant" }])}`,
      "human:hi",
      "ai:",
      "tool:results for q",
    ]);
    expect(messages.some((m) => m.getType() === "system")).toBe(false);
  });

  it("accepts a SystemMessage as the prompt, and no prompt at all", async () => {
    const withMessage = new FakeChatModel({ responses: ["ok"] });
    await createAgent({ model: withMessage, systemPrompt: new SystemMessage("Be brief.") }).invoke(
      question(),
    );
    expect(outline(withMessage.calls[0] ?? [])).toEqual(["system:Be brief.", "human:hi"]);
    const without = new FakeChatModel({ responses: ["ok"] });
    await createAgent({ model: without }).invoke(question());
    expect(outline(without.calls[0] ?? [])).toEqual(["human:hi"]);
  });

  it("accepts plain message objects as input and names messages after the agent", async () => {
    const model = new FakeChatModel({ responses: ["hello"] });
    const agent = createAgent({ model, name: "helper" });
    const { messages } = await agent.invoke({ messages: [{ role: "user", content: "hi" }] });
    expect(outline(messages)).toEqual(["human:hi", "ai:hello"]);
    expect(messages[1]?.name).toBe("helper");
  });

  it("binds the tools on each call", async () => {
    const model = new RecordingModel([answer("a1", "no tools needed")]);
    await createAgent({ model, tools: [search, lookup] }).invoke(question());
    expect(model.options[0]?.tools).toEqual(["search", "lookup"]);
  });

  it("resolves a model string lazily through initChatModel", () => {
    const agent = createAgent({ model: "openai:gpt-4.1-mini", tools: [search] });
    expect(Object.keys(agent.graph.getGraph().nodes)).toContain("model_request");
  });

  it("refuses a model that already has tools bound", () => {
    const model = new FakeChatModel({ responses: [] }).bindTools([search]);
    expect(() => createAgent({ model, tools: [search] })).toThrow(MultipleToolsBoundError);
    expect(() => createAgent({ model, tools: [search] })).toThrow(
      "The provided LLM already has bound tools. Please provide an LLM without bound tools to createAgent. The agent will bind the tools provided in the 'tools' parameter.",
    );
  });

  it("requires a model", () => {
    expect(() => createAgent({ model: undefined as never })).toThrow(
      "`model` option is required to create an agent.",
    );
  });
});

describe("createAgent: tools", () => {
  it("wraps a plain function as a tool named after it", async () => {
    const getWeather = Object.assign(
      async function get_weather(args: { city: string }) {
        return `It's always sunny in ${args.city}!`;
      },
      { description: "Get weather for a given city." },
    );
    const model = new RecordingModel([
      asking("a1", call("get_weather", { city: "Suzhou" }, "c1")),
      answer("a2", "Sunny."),
    ]);
    const { messages } = await createAgent({ model, tools: [getWeather] }).invoke(question());
    expect(model.options[0]?.tools).toEqual(["get_weather"]);
    expect(outline(messages)[2]).toBe("tool:It's always sunny in Suzhou!");
  });

  it('runs tool calls a model wrote without type: "tool_call" (messages keep calls as given)', async () => {
    const getWeather = tool(async ({ city }: { city: string }) => `Sunny in ${city}`, {
      name: "get_weather",
      description: "Weather of a city.",
      schema: z.object({ city: z.string() }),
    });
    const untagged = new AIMessage({
      id: "a1",
      content: "",
      tool_calls: [
        { name: "get_weather", args: { city: "Suzhou" }, id: "c1" },
        { name: "get_weather", args: { city: "Hangzhou" }, id: "c2" },
      ],
    });
    expect(untagged.tool_calls[0]).not.toHaveProperty("type");
    const model = new FakeChatModel({ responses: [untagged, "Both sunny."] });
    const { messages } = await createAgent({ model, tools: [getWeather] }).invoke({
      messages: [new HumanMessage("Weather?")],
    });
    expect(messages.map((m) => [m.type, m.content])).toEqual([
      ["human", "Weather?"],
      ["ai", ""],
      ["tool", "Sunny in Suzhou"],
      ["tool", "Sunny in Hangzhou"],
      ["ai", "Both sunny."],
    ]);
  });

  it("binds provider-side tools but never runs them (no tools node for them alone)", async () => {
    const webSearch = {
      name: "web_search",
      description: "Search (run by the provider).",
      parameters: { type: "object", properties: {} },
    };
    const model = new RecordingModel([
      new AIMessage({ id: "a1", content: "Found it.", tool_calls: [call("web_search", {}, "s1")] }),
    ]);
    const agent = createAgent({ model, tools: [webSearch] });
    expect(Object.keys(agent.graph.getGraph().nodes)).not.toContain("tools");
    const { messages } = await agent.invoke(question());
    expect(model.options[0]?.tools).toEqual(["web_search"]);
    expect(outline(messages)).toEqual(["human:hi", "ai:Found it."]);
  });

  it("routes only client tool calls to the tools node when provider tools are mixed in", async () => {
    const webSearch = { name: "web_search", description: "Provider search.", parameters: { type: "object" } };
    const model = new FakeChatModel({
      responses: [
        new AIMessage({
          id: "a1",
          content: "",
          tool_calls: [call("web_search", {}, "s1"), call("search", { query: "q" }, "c1")],
        }),
        answer("a2", "done"),
      ],
    });
    const { messages } = await createAgent({ model, tools: [search, webSearch] }).invoke(question());
    expect(outline(messages)).toEqual(["human:hi", "ai:", "tool:results for q", "ai:done"]);
  });

  it("turns a tool error into an error message for the model", async () => {
    const broken = tool(
      async () => {
        throw new Error("disk full");
      },
      { name: "broken", description: "Fails.", schema: z.object({}) },
    );
    const model = new FakeChatModel({
      responses: [asking("a1", call("broken", {}, "c1")), answer("a2", "sorry")],
    });
    const { messages } = await createAgent({ model, tools: [broken] }).invoke(question());
    expect(messages[2]?.content).toBe("Error: disk full\n Please fix your mistakes.");
    expect(messages[2]).toMatchObject({ status: "error" });
  });
});

describe("createAgent: returnDirect", () => {
  it("ends after the tools when every executed tool is returnDirect", async () => {
    const model = new FakeChatModel({ responses: [asking("a1", call("lookup", { key: "k" }, "c1"))] });
    const { messages } = await createAgent({ model, tools: [search, lookup] }).invoke(question());
    expect(outline(messages)).toEqual(["human:hi", "ai:", "tool:value of k"]);
    expect(model.calls).toHaveLength(1);
  });

  it("goes back to the model when only some executed tools are returnDirect", async () => {
    const model = new FakeChatModel({
      responses: [
        asking("a1", call("lookup", { key: "k" }, "c1"), call("search", { query: "q" }, "c2")),
        answer("a2", "combined"),
      ],
    });
    const { messages } = await createAgent({ model, tools: [search, lookup] }).invoke(question());
    expect(outline(messages)).toEqual([
      "human:hi",
      "ai:",
      "tool:value of k",
      "tool:results for q",
      "ai:combined",
    ]);
    expect(model.calls).toHaveLength(2);
  });

  it("ends when several returnDirect tools run in parallel", async () => {
    const model = new FakeChatModel({
      responses: [asking("a1", call("lookup", { key: "a" }, "c1"), call("lookup", { key: "b" }, "c2"))],
    });
    const { messages } = await createAgent({ model, tools: [lookup] }).invoke(question());
    expect(outline(messages)).toEqual(["human:hi", "ai:", "tool:value of a", "tool:value of b"]);
  });

  it("goes back to the model after a jump to tools that finds every call answered", async () => {
    // a later turn of a thread whose last tool was returnDirect: the jump runs no tool, so the
    // earlier answer does not end the run (LangChain.js 1.5.14 calls the model: "ai:done")
    const model = new FakeChatModel({
      responses: [asking("a1", call("lookup", { key: "k" }, "c1")), answer("a2", "done")],
    });
    let jumped = false;
    const jumper = createMiddleware({
      name: "Jumper",
      beforeModel: {
        canJumpTo: ["tools"],
        hook: (state) => {
          const last = state.messages.at(-1);
          if (jumped || !HumanMessage.isInstance(last) || last.content !== "again") return undefined;
          jumped = true;
          return { jumpTo: "tools" as const };
        },
      },
    });
    const agent = createAgent({
      model,
      tools: [lookup],
      middleware: [jumper],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "t" } };
    await agent.invoke(question(), config);
    const { messages } = await agent.invoke({ messages: [new HumanMessage("again")] }, config);
    expect(jumped).toBe(true);
    expect(outline(messages)).toEqual(["human:hi", "ai:", "tool:value of k", "human:again", "ai:done"]);
  });

  it("draws the tools → exit edge only when a returnDirect tool exists", () => {
    const model = new FakeChatModel({ responses: [] });
    expect(edges(createAgent({ model, tools: [search] }))).toContain("tools->model_request");
    expect(edges(createAgent({ model, tools: [search, lookup] }))).toEqual(
      expect.arrayContaining(["tools->model_request?", "tools->__end__?"]),
    );
  });
});

describe("createAgent: graph shape", () => {
  it("prints its channels and nodes like the seed (JS names)", () => {
    const model = new FakeChatModel({ responses: [] });
    const agent = createAgent({ model, tools: [search], systemPrompt: "You are a helpful assistant" });
    expect(channels(agent)).toEqual([
      "BinaryOperatorAggregate:messages",
      "EphemeralValue:jumpTo",
      "LastValue:structuredResponse",
      "EphemeralValue:__start__",
      "Topic:__pregel_tasks",
      "EphemeralValue:branch:to:model_request",
      "EphemeralValue:branch:to:tools",
    ]);
    const nodes = (agent.graph as unknown as { nodes: Record<string, { triggers: string[] }> }).nodes;
    expect(Object.keys(nodes)).toEqual(["__start__", "model_request", "tools"]);
    expect(nodes.model_request?.triggers).toEqual(["branch:to:model_request"]);
    expect(nodes.tools?.triggers).toEqual(["branch:to:tools"]);
    const pregel = agent.graph as unknown as {
      inputChannels: unknown;
      outputChannels: unknown;
      triggerToNodes: Record<string, string[]>;
    };
    expect(pregel.inputChannels).toBe("__start__");
    expect(pregel.outputChannels).toEqual(["messages", "structuredResponse"]);
    expect(pregel.triggerToNodes).toEqual({
      __start__: ["__start__"],
      "branch:to:model_request": ["model_request"],
      "branch:to:tools": ["tools"],
    });
    expect(edges(agent)).toEqual([
      "__start__->model_request",
      "model_request->__end__?",
      "model_request->tools?",
      "tools->model_request",
    ]);
  });

  it("has no tools node and a plain exit edge without tools", () => {
    const agent = createAgent({ model: new FakeChatModel({ responses: [] }) });
    expect(Object.keys(agent.graph.getGraph().nodes)).toEqual(["__start__", "model_request", "__end__"]);
    expect(edges(agent)).toEqual(["__start__->model_request", "model_request->__end__"]);
  });

  it("puts structuredResponse after the schema fields, in LangChain.js's order", async () => {
    const m = createMiddleware({ name: "S", stateSchema: z.object({ bar: z.number().default(1) }) });
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["hi"] }),
      stateSchema: z.object({ foo: z.string().default("f") }),
      middleware: [m],
    });
    expect(Object.keys(agent.graph.channels).slice(0, 5)).toEqual([
      "messages",
      "jumpTo",
      "foo",
      "bar",
      "structuredResponse",
    ]);
    expect(agent.graph.outputChannels).toEqual(["messages", "foo", "bar", "structuredResponse"]);
  });

  it("reports its nodes' runnables in toJSON() as LangChain.js names them", () => {
    const noop = () => undefined;
    const m = createMiddleware({
      name: "A",
      beforeAgent: noop,
      beforeModel: noop,
      afterModel: noop,
      afterAgent: noop,
    });
    const data = (agent: {
      graph: { getGraph(): { toJSON(): { nodes: { id: string | number; data: unknown }[] } } };
    }) =>
      Object.fromEntries(
        agent.graph
          .getGraph()
          .toJSON()
          .nodes.map((node) => [node.id, node.data]),
      );
    const agent = createAgent({
      model: new FakeChatModel({ responses: [] }),
      tools: [search],
      middleware: [m],
    });
    expect(data(agent)).toMatchObject({
      "A.before_agent": {
        id: ["langchain", "agents", "beforeAgentNodes", "BeforeAgentNode"],
        name: "BeforeAgentNode_A",
      },
      "A.before_model": {
        id: ["langchain", "agents", "beforeModelNodes", "BeforeModelNode"],
        name: "BeforeModelNode_A",
      },
      "A.after_model": {
        id: ["langchain", "agents", "afterModelNodes", "AfterModelNode"],
        name: "AfterModelNode_A",
      },
      "A.after_agent": {
        id: ["langchain", "agents", "afterAgentNodes", "AfterAgentNode"],
        name: "AfterAgentNode_A",
      },
      model_request: { id: ["langgraph", "AgentNode"], name: "model" },
      tools: { id: ["langgraph", "ToolNode"], name: "func" },
    });
    const named = createAgent({
      model: new FakeChatModel({ responses: [] }),
      tools: [search],
      name: "bob",
      signal: new AbortController().signal,
    });
    expect(data(named)).toMatchObject({
      model_request: { id: ["langgraph", "AgentNode"], name: "bob" },
      tools: { id: ["langgraph", "ToolNode"], name: "func" },
    });
  });

  it("drawMermaidPng() returns the rendered image's bytes, as LangChain.js does", async () => {
    const fetch = vi.fn(async (_url: string) => new Response(new Uint8Array([7, 8])));
    vi.stubGlobal("fetch", fetch);
    try {
      const agent = createAgent({ model: new FakeChatModel({ responses: [] }) });
      const png = await agent.drawMermaidPng({ curveStyle: "basis" });
      expect(png).toBeInstanceOf(Uint8Array);
      expect([...png]).toEqual([7, 8]);
      expect(fetch.mock.calls[0]?.[0]).toMatch(
        /^https:\/\/mermaid\.ink\/img\/[\w-]+\?bgColor=!white&type=png$/,
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("adds a tools node for a wrapToolCall middleware even without tools", () => {
    const m = createMiddleware({ name: "Dyn", wrapToolCall: (request, handler) => handler(request) });
    const agent = createAgent({ model: new FakeChatModel({ responses: [] }), middleware: [m] });
    expect(Object.keys(agent.graph.getGraph().nodes)).toContain("tools");
  });

  it("wires middleware hooks between the entry, loop and exit anchors", () => {
    const noop = () => undefined;
    const a = createMiddleware({
      name: "A",
      beforeAgent: noop,
      beforeModel: noop,
      afterModel: noop,
      afterAgent: noop,
    });
    const b = createMiddleware({
      name: "B",
      beforeModel: { hook: noop, canJumpTo: ["end", "tools"] },
      afterModel: noop,
    });
    const agent = createAgent({
      model: new FakeChatModel({ responses: [] }),
      tools: [search],
      middleware: [a, b],
    });
    expect(Object.keys(agent.graph.getGraph().nodes)).toEqual([
      "__start__",
      "A.before_agent",
      "A.before_model",
      "A.after_model",
      "A.after_agent",
      "B.before_model",
      "B.after_model",
      "model_request",
      "tools",
      "__end__",
    ]);
    expect(edges(agent)).toEqual(
      [
        "__start__->A.before_agent",
        "A.before_agent->A.before_model",
        "A.before_model->B.before_model",
        "B.before_model->model_request?",
        "B.before_model->A.after_agent?",
        "B.before_model->tools?",
        "model_request->B.after_model",
        "B.after_model->A.after_model",
        "A.after_model->tools?",
        "A.after_model->model_request?",
        "A.after_model->A.after_agent?",
        "A.after_agent->__end__",
        "tools->A.before_model",
      ].sort(),
    );
  });

  it("streams one updates chunk per node, named as in LangChain.js", async () => {
    const model = new FakeChatModel({
      responses: [
        asking("a1", call("search", { query: "a" }, "c1"), call("search", { query: "b" }, "c2")),
        answer("a2", "ok"),
      ],
    });
    const noop = () => undefined;
    const m = createMiddleware({ name: "Log", beforeModel: noop, afterModel: noop });
    const names: string[] = [];
    for await (const chunk of await createAgent({ model, tools: [search], middleware: [m] }).stream(
      question(),
      {
        streamMode: "updates",
      },
    )) {
      names.push(...Object.keys(chunk as object));
    }
    expect(names).toEqual([
      "Log.before_model",
      "model_request",
      "Log.after_model",
      "tools",
      "tools",
      "Log.before_model",
      "model_request",
      "Log.after_model",
    ]);
  });
});

describe("createAgent: Send payload", () => {
  it("dispatches each pending call in its own Send carrying only the tool call", async () => {
    const model = new FakeChatModel({
      responses: [
        asking("a1", call("search", { query: "a" }, "c1"), call("search", { query: "b" }, "c2")),
        answer("a2", "ok"),
      ],
    });
    const agent = createAgent({ model, tools: [search], checkpointer: new MemorySaver() });
    const inputs: unknown[] = [];
    for await (const chunk of await agent.stream(question(), {
      streamMode: "tasks",
      configurable: { thread_id: "send" },
    })) {
      const task = chunk as { name: string; input?: unknown };
      if (task.name === "tools" && "input" in task) inputs.push(task.input);
    }
    expect(inputs).toEqual([[call("search", { query: "a" }, "c1")], [call("search", { query: "b" }, "c2")]]);
  });

  it("stores only the tool call in the checkpoint's pending sends", async () => {
    const saver = new MemorySaver();
    const model = new FakeChatModel({
      responses: [asking("a1", call("search", { query: "a" }, "c1")), answer("a2", "ok")],
    });
    const agent = createAgent({ model, tools: [search], checkpointer: saver, interruptBefore: ["tools"] });
    const config = { configurable: { thread_id: "writes" } };
    await agent.invoke(question(), config);
    const state = await agent.getState(config);
    expect(state.next).toEqual(["tools"]);
    const tuple = await saver.getTuple(config);
    const sends = ((tuple?.checkpoint.channel_values ?? {}) as Record<string, unknown>)
      .__pregel_tasks as Array<{
      node: string;
      args: unknown;
    }>;
    expect(sends).toHaveLength(1);
    expect(sends[0]?.node).toBe("tools");
    // the payload is the call alone: no copy of the messages in what the task was sent
    expect(sends[0]?.args).toEqual([call("search", { query: "a" }, "c1")]);
    const resumed = await agent.invoke(null, config);
    expect(outline(resumed.messages)).toEqual(["human:hi", "ai:", "tool:results for a", "ai:ok"]);
  });

  it("shows its tools LangChain.js's Send payload through getCurrentTaskInput()", async () => {
    // the subagents docs page reads the conversation this way inside a tool
    const seen: unknown[] = [];
    const peek = tool(
      async () => {
        const input = getCurrentTaskInput<Record<string, unknown> & { messages: BaseMessage[] }>();
        seen.push([Object.keys(input), input.lg_tool_call, outline(input.messages), input.note]);
        return "peeked";
      },
      { name: "peek", description: "Look at the state.", schema: z.object({ x: z.number() }) },
    );
    const model = new FakeChatModel({
      responses: [
        asking("a1", call("peek", { x: 1 }, "c1"), call("peek", { x: 2 }, "c2")),
        answer("a2", "ok"),
      ],
    });
    const agent = createAgent({
      model,
      tools: [peek],
      stateSchema: z.object({ note: z.string().optional() }),
    });
    const result = await agent.invoke({ ...question(), note: "n" });
    expect(outline(result.messages)).toEqual(["human:hi", "ai:", "tool:peeked", "tool:peeked", "ai:ok"]);
    expect(seen).toEqual([
      [["messages", "note", "lg_tool_call"], call("peek", { x: 1 }, "c1"), ["human:hi", "ai:"], "n"],
      [["messages", "note", "lg_tool_call"], call("peek", { x: 2 }, "c2"), ["human:hi", "ai:"], "n"],
    ]);
  });

  it("gives its tools the Send payload as runtime.state, and a wrapToolCall hook the state alone", async () => {
    const seen: unknown[] = [];
    const peek = tool(
      async (_args, runtime) => {
        const state = runtime.state as Record<string, unknown>;
        seen.push(["tool", Object.keys(state), state.lg_tool_call, state === getCurrentTaskInput(runtime)]);
        seen.push(["control", typeof (runtime as { control?: unknown }).control]);
        return "peeked";
      },
      { name: "peek", description: "Look at the state.", schema: z.object({}) },
    );
    const hook = createMiddleware({
      name: "Hook",
      wrapToolCall: (request, handler) => {
        seen.push(["hook", Object.keys(request.state)]);
        // the tool keeps the Send payload whatever state the hook passes on
        return handler({ ...request, state: { messages: [] } });
      },
    });
    const model = new FakeChatModel({
      responses: [asking("a1", call("peek", {}, "c1")), answer("a2", "ok")],
    });
    await createAgent({ model, tools: [peek], middleware: [hook] }).invoke(question());
    expect(seen).toEqual([
      ["hook", ["messages"]],
      ["tool", ["messages", "lg_tool_call"], call("peek", {}, "c1"), true],
      ["control", "object"],
    ]);
  });
});

describe('createAgent: version "v1"', () => {
  it("runs every pending call of the AI message in one tools task", async () => {
    const model = new FakeChatModel({
      responses: [
        asking("a1", call("search", { query: "a" }, "c1"), call("search", { query: "b" }, "c2")),
        answer("a2", "ok"),
      ],
    });
    const agent = createAgent({ model, tools: [search], version: "v1" });
    const updates: Array<Record<string, { messages: unknown[] }>> = [];
    for await (const chunk of await agent.stream(question())) updates.push(chunk as never);
    // LangChain.js: one `tools` update holding both answers (v2 gives one update per call)
    expect(updates.map((u) => Object.keys(u)[0])).toEqual(["model_request", "tools", "model_request"]);
    expect(outline(updates[1]?.tools?.messages as never)).toEqual([
      "tool:results for a",
      "tool:results for b",
    ]);
  });
});

describe("createAgent: persistence and interrupts", () => {
  it("keeps a thread's messages across invocations", async () => {
    const model = new FakeChatModel({ responses: [answer("a1", "first"), answer("a2", "second")] });
    const agent = createAgent({ model, checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    await agent.invoke({ messages: [new HumanMessage({ id: "h1", content: "one" })] }, config);
    const { messages } = await agent.invoke(
      { messages: [new HumanMessage({ id: "h2", content: "two" })] },
      config,
    );
    expect(outline(messages)).toEqual(["human:one", "ai:first", "human:two", "ai:second"]);
    const state = await agent.getState(config);
    expect(outline((state.values as { messages: never[] }).messages)).toHaveLength(4);
    const history: unknown[] = [];
    for await (const snapshot of agent.getStateHistory(config)) history.push(snapshot);
    expect(history.length).toBeGreaterThan(2);
  });

  it("pauses on interrupt() inside a tool and resumes with a Command", async () => {
    const approve = tool(
      async ({ action }: { action: string }) => `${action}: ${String(interrupt(`Approve ${action}?`))}`,
      {
        name: "approve",
        description: "Ask a human.",
        schema: z.object({ action: z.string() }),
      },
    );
    const model = new FakeChatModel({
      responses: [asking("a1", call("approve", { action: "deploy" }, "c1")), answer("a2", "deployed")],
    });
    const agent = createAgent({ model, tools: [approve], checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "hitl" } };
    const paused = (await agent.invoke(question(), config)) as { __interrupt__?: Array<{ value: unknown }> };
    expect(paused.__interrupt__?.[0]?.value).toBe("Approve deploy?");
    const done = await agent.invoke(new Command({ resume: "yes" }), config);
    expect(outline(done.messages)).toEqual(["human:hi", "ai:", "tool:deploy: yes", "ai:deployed"]);
  });

  it("stores parallel tools' messages with their ids, whatever the durability (as LangChain.js does)", async () => {
    const quick = tool(async () => "quick", { name: "quick", description: "Fast.", schema: z.object({}) });
    const slow = tool(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return "slow";
      },
      { name: "slow", description: "Slow.", schema: z.object({}) },
    );
    for (const durability of ["sync", "async", "exit"] as const) {
      const model = new FakeChatModel({
        responses: [asking("a1", call("quick", {}, "c1"), call("slow", {}, "c2")), answer("a2", "done")],
      });
      const agent = createAgent({ model, tools: [quick, slow], checkpointer: new MemorySaver() });
      const config = { configurable: { thread_id: durability } };
      const { messages } = await agent.invoke(question(), { ...config, durability });
      const stored = ((await agent.getState(config)).values as { messages: ToolMessage[] }).messages;
      expect(stored.map((m) => [m.getType(), m.id])).toEqual(messages.map((m) => [m.getType(), m.id]));
      expect(stored.every((m) => typeof m.id === "string")).toBe(true);
    }
  });

  it("supports interruptAfter and updateState", async () => {
    const model = new FakeChatModel({ responses: [answer("a1", "draft")] });
    const agent = createAgent({ model, checkpointer: new MemorySaver(), interruptAfter: ["model_request"] });
    const config = { configurable: { thread_id: "after" } };
    await agent.invoke(question(), config);
    await agent.updateState(config, { messages: [new AIMessage({ id: "a1", content: "edited" })] });
    const state = await agent.getState(config);
    expect(outline((state.values as { messages: never[] }).messages)).toEqual(["human:hi", "ai:edited"]);
  });
});

describe("createAgent: state", () => {
  it("merges middleware state schemas and keeps private fields out of input and output", async () => {
    const m = createMiddleware({
      name: "Counter",
      stateSchema: z.object({ turns: z.number().default(0), _seen: z.array(z.string()).optional() }),
      beforeModel: (state) => ({ turns: state.turns + 1, _seen: ["x"] }),
      afterModel: (state) => {
        expect(state._seen).toEqual(["x"]);
      },
    });
    const agent = createAgent({ model: new FakeChatModel({ responses: ["ok"] }), middleware: [m] });
    const result = await agent.invoke(question());
    expect(result.turns).toBe(1);
    expect(Object.keys(result).sort()).toEqual(["messages", "turns"]);
    expect(channels(agent)).toEqual(expect.arrayContaining(["LastValue:turns", "LastValue:_seen"]));
  });

  it("merges the user's stateSchema (an Annotation.Root), whose fields win", async () => {
    const State = Annotation.Root({ topic: Annotation<string> });
    const m = createMiddleware({
      name: "Reader",
      beforeModel: (state) => {
        expect((state as { topic?: string }).topic).toBe("weather");
      },
    });
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["ok"] }),
      stateSchema: State,
      middleware: [m],
    });
    const result = await agent.invoke({ ...question(), topic: "weather" });
    expect(result.topic).toBe("weather");
  });

  it("throws the reference's error when a required middleware field has no value", async () => {
    const m = createMiddleware({
      name: "Needy",
      stateSchema: z.object({ userId: z.string() }),
      beforeModel: () => undefined,
    });
    const agent = createAgent({ model: new FakeChatModel({ responses: ["ok"] }), middleware: [m] });
    await expect(agent.invoke(question())).rejects.toThrow(
      'Middleware "Needy" has required state fields that must be initialized:\n  - userId: Required',
    );
    await expect(agent.invoke({ ...question(), userId: "u1" })).resolves.toMatchObject({ userId: "u1" });
  });

  it("validates and parses every write of a schema field: input, hook updates (LangChain.js's StateSchema semantics)", async () => {
    const seen: unknown[] = [];
    const m = createMiddleware({
      name: "Typed",
      stateSchema: z.object({
        tag: z
          .string()
          .transform((s) => s.toUpperCase())
          .optional(),
        n: z.coerce.number().optional(),
        s: z
          .string()
          .transform((x) => `${x}!`)
          .optional(),
      }),
      beforeModel: (state) => {
        seen.push([state.tag, state.n]);
        return { s: "v" };
      },
    });
    const agent = createAgent({ model: new FakeChatModel({ responses: ["ok"] }), middleware: [m] });
    const result = await agent.invoke({ ...question(), tag: "abc", n: "5" as never });
    expect(seen).toEqual([["ABC", 5]]);
    expect([result.tag, result.n, result.s]).toEqual(["ABC", 5, "v!"]);

    const bad = createMiddleware({
      name: "Bad",
      stateSchema: z.object({ count: z.number().default(0) }),
      beforeModel: () => ({ count: "many" as never }),
    });
    const failing = createAgent({ model: new FakeChatModel({ responses: ["ok"] }), middleware: [bad] });
    await expect(failing.invoke(question())).rejects.toThrow(/^Validation failed for field "count": \[\{/);
  });

  it("an invalid given value of a middleware field fails with the reference's required-fields error", async () => {
    const m = createMiddleware({
      name: "A",
      stateSchema: z.object({ n: z.number().min(0), label: z.string() }),
      beforeModel: () => undefined,
    });
    const agent = createAgent({ model: new FakeChatModel({ responses: ["ok"] }), middleware: [m] });
    // LangChain.js lists the issues of type invalid_type (a missing field); its example names the first issue's path
    await expect(agent.invoke({ ...question(), n: -1 })).rejects.toThrow(
      'Middleware "A" has required state fields that must be initialized:\n  - label: Required\n\nTo fix this',
    );
    await expect(agent.invoke({ ...question(), n: -1, label: "x" })).rejects.toThrow(
      /^Middleware "A" has required state fields that must be initialized:\n\n\nTo fix this[\s\S]*messages: \[\.\.\.\],\n {5}n: "value"/,
    );
  });

  it("wants required fields in every run's input, even when the thread holds them (as LangChain.js)", async () => {
    const m = createMiddleware({
      name: "Needy",
      stateSchema: z.object({ userId: z.string(), count: z.number().default(0) }),
      afterModel: (state) => ({ count: state.count + 1 }),
    });
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["one", "two", "three"] }),
      middleware: [m],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "needy" } };
    await agent.invoke({ ...question(), userId: "u1" }, config);
    // the thread's userId does not count: LangChain.js 1.5.14 checks the input alone
    await expect(agent.invoke({ messages: [{ role: "user", content: "again" }] }, config)).rejects.toThrow(
      'Middleware "Needy" has required state fields that must be initialized:\n  - userId: Required',
    );
    // a default fills only a field the thread lacks: the count goes on from the stored 1
    await expect(
      agent.invoke({ messages: [{ role: "user", content: "again" }], userId: "u1" }, config),
    ).resolves.toMatchObject({ userId: "u1", count: 2 });
  });

  it("withConfig sets default run options", async () => {
    const model = new FakeChatModel({ responses: ["ok"] });
    const agent = createAgent({ model, checkpointer: new MemorySaver() }).withConfig({
      configurable: { thread_id: "defaults" },
    });
    await agent.invoke(question());
    const state = await agent.getState({ configurable: { thread_id: "defaults" } });
    expect(outline((state.values as { messages: never[] }).messages)).toEqual(["human:hi", "ai:ok"]);
  });
});

describe("createAgent: options", () => {
  it("aborts model calls with the agent's signal", async () => {
    const controller = new AbortController();
    controller.abort();
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["never"] }),
      signal: controller.signal,
    });
    await expect(agent.invoke(question())).rejects.toThrow(/abort/i);
  });

  it("passes name and description to the compiled graph", () => {
    const agent = createAgent({
      model: new FakeChatModel({ responses: [] }),
      name: "weather",
      description: "Weather bot.",
    });
    expect((agent.graph as unknown as { name?: string }).name).toBe("weather");
    expect((agent.graph as unknown as { description?: string }).description).toBe("Weather bot.");
  });
});

describe("the agent's LangChain.js accessors", () => {
  it("options, builder, getGraphAsync and the subgraph listings", async () => {
    const model = new FakeChatModel({ responses: ["hi"] });
    const agent = createAgent({ model, tools: [], name: "helper" });
    expect(agent.options.name).toBe("helper");
    expect(agent.options.model).toBe(model);
    // `options` is the agent's only own enumerable property, as in LangChain.js
    expect(Object.keys(agent)).toEqual(["options"]);
    expect(Object.keys(agent.builder.nodes)).toContain("model_request");
    // drawMermaid is async, as in LangChain.js, and takes the drawing options
    const drawn = agent.drawMermaid();
    expect(drawn).toBeInstanceOf(Promise);
    expect((await agent.getGraphAsync()).drawMermaid()).toBe(await drawn);
    expect(await agent.drawMermaid({ withStyles: false })).not.toContain("classDef");
    expect([...agent.getSubgraphs()]).toEqual([]);
    const listed: unknown[] = [];
    for await (const entry of agent.getSubgraphsAsync()) listed.push(entry);
    expect(listed).toEqual([]);
  });
});

describe("handoffs to the parent graph", () => {
  it("when one answer calls two handoff tools, the last command to arrive routes the parent (as in LangGraph.js)", async () => {
    const handoff = (to: string) =>
      tool(
        async (_args, runtime) =>
          new Command({
            goto: to,
            graph: Command.PARENT,
            update: {
              messages: [new ToolMessage({ content: `to ${to}`, tool_call_id: runtime.toolCallId })],
            },
          }),
        { name: `to_${to}`, description: `hand off to ${to}`, schema: z.object({}) },
      );
    const supervisor = createAgent({
      model: new FakeChatModel({
        responses: [
          new AIMessage({
            content: "",
            tool_calls: [
              { name: "to_bob", args: {}, id: "h1", type: "tool_call" },
              { name: "to_carl", args: {}, id: "h2", type: "tool_call" },
            ],
          }),
        ],
      }),
      tools: [handoff("bob"), handoff("carl")],
    });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("sup", supervisor.graph as never, { ends: ["bob", "carl"] })
      .addNode("bob", () => ({ messages: [new AIMessage("bob ran")] }))
      .addNode("carl", () => ({ messages: [new AIMessage("carl ran")] }))
      .addEdge(START, "sup")
      .addEdge("bob", END)
      .addEdge("carl", END)
      .compile();
    const result = await graph.invoke({ messages: [new HumanMessage("hi")] });
    expect(result.messages.map((m) => m.content)).toEqual(["hi", "to carl", "carl ran"]);
  });

  it("reaches the parent from an agent compiled with checkpointer: true (LangGraph.js loses it)", async () => {
    const toBob = tool(
      async (_args, runtime) =>
        new Command({
          goto: "bob",
          graph: Command.PARENT,
          update: { messages: [new ToolMessage({ content: "to bob", tool_call_id: runtime.toolCallId })] },
        }),
      { name: "to_bob", description: "hand off to bob", schema: z.object({}) },
    );
    const alice = createAgent({
      model: new FakeChatModel({
        responses: [new AIMessage({ content: "", tool_calls: [{ name: "to_bob", args: {}, id: "h1" }] })],
      }),
      tools: [toBob],
      checkpointer: true,
    });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("alice", alice.graph as never, { ends: ["bob"] })
      .addNode("bob", () => ({ messages: [new AIMessage("bob ran")] }))
      .addEdge(START, "alice")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    const result = await graph.invoke({ messages: [new HumanMessage("hi")] }, config);
    expect(result.messages.map((m) => m.content)).toEqual(["hi", "to bob", "bob ran"]);
    expect((await graph.getState(config)).next).toEqual([]);
  });
});

describe("an agent invoked inside a graph node", () => {
  async function nestedCheckpointMetadata(passConfig: boolean) {
    const agent = createAgent({ model: new FakeChatModel({ responses: ["hi"] }), tools: [] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("n", async (state, config) => {
        const input = { messages: state.messages };
        const result = passConfig ? await agent.invoke(input, config) : await agent.invoke(input);
        return { messages: result.messages };
      })
      .addEdge(START, "n")
      .compile({ checkpointer: new MemorySaver() });
    const seen: Record<string, unknown>[] = [];
    for await (const [namespace, , chunk] of await graph.stream(
      { messages: [new HumanMessage("q")] },
      { configurable: { thread_id: "t" }, streamMode: ["checkpoints"], subgraphs: true },
    )) {
      const metadata = (chunk as { config: { metadata: Record<string, unknown> } }).config.metadata;
      if (namespace.length > 0) seen.push(metadata);
    }
    return seen[0];
  }

  it("runs with the agent's metadata instead of the node's when given no config (as in LangChain.js)", async () => {
    const metadata = await nestedCheckpointMetadata(false);
    expect(metadata).toEqual({
      ls_integration: "langchain_create_agent",
      thread_id: "t",
      checkpoint_ns: expect.stringMatching(/^n:/),
    });
  });

  it("streams its answer as the agent's run when the node is named after it (messages mode)", async () => {
    const agent = createAgent({ model: new FakeChatModel({ responses: ["hi"] }), tools: [], name: "alice" });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("alice", async (state) => ({
        messages: (await agent.invoke({ messages: state.messages })).messages,
      }))
      .addEdge(START, "alice")
      .compile();
    const seen: unknown[] = [];
    for await (const [message, metadata] of await graph.stream(
      { messages: [new HumanMessage("q")] },
      { streamMode: "messages" },
    )) {
      const { langgraph_node, lc_agent_name, ls_integration, tags, name } = metadata as Record<
        string,
        unknown
      >;
      seen.push([message.content, langgraph_node, lc_agent_name, ls_integration, tags, name]);
    }
    expect(seen).toEqual([["hi", "alice", "alice", "langchain_create_agent", [], "alice"]]);
  });

  it("streams its model's tokens with the run's metadata under the agent's (messages mode, subgraphs)", async () => {
    const agent = createAgent({ model: new FakeChatModel({ responses: ["hi"] }), tools: [], name: "alice" });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("n", async (state) => ({
        messages: (await agent.invoke({ messages: state.messages })).messages,
      }))
      .addEdge(START, "n")
      .compile();
    const seen: unknown[] = [];
    for await (const [namespace, [message, metadata]] of await graph.stream(
      { messages: [new HumanMessage("q")] },
      { streamMode: "messages", subgraphs: true, metadata: { team: "blue" } },
    )) {
      const { langgraph_node, lc_agent_name, team } = metadata as Record<string, unknown>;
      seen.push([namespace.length, message.content, langgraph_node, lc_agent_name, team]);
    }
    expect(seen).toEqual([[1, "hi", "model_request", "alice", "blue"]]);
  });

  it("merges the agent's metadata into the node's config when given it", async () => {
    const metadata = await nestedCheckpointMetadata(true);
    expect(metadata).toMatchObject({ ls_integration: "langgraph", langgraph_node: "n", thread_id: "t" });
  });
});
