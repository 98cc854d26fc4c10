import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Annotation, Command, MemorySaver } from "../index.js";
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  HumanMessage,
  isToolMessage,
  SystemMessage,
  ToolMessage,
} from "../messages/index.js";
import { BaseChatModel, ChatGenerationChunk, type ChatResult } from "../models/index.js";
import { FakeChatModel, FakeListChatModel } from "../testing/index.js";
import { type ToolRuntime, tool } from "../tools/index.js";
import { type CreateReactAgentParams, createReactAgent } from "./create-react-agent.js";
import {
  answer,
  asking,
  call,
  lookup,
  outline,
  question,
  search,
} from "./create-react-agent.test-helpers.js";
import { createReactAgentAnnotation } from "./create-react-agent-annotation.js";
import { ToolNode } from "./tool-node.js";

describe("createReactAgent: the tool loop", () => {
  it("calls the model, runs the tool, and calls the model again with the result", async () => {
    const llm = new FakeChatModel({
      responses: [asking("a1", call("search", { query: "cats" }, "c1")), answer("a2", "Cats are great.")],
    });
    const agent = createReactAgent({ llm, tools: [search] });
    const out = await agent.invoke(question("cats?"));
    expect(Object.keys(out)).toEqual(["messages"]);
    expect(outline(out.messages)).toEqual([
      "human:cats?",
      "ai:",
      "tool:results for cats",
      "ai:Cats are great.",
    ]);
    const result = out.messages[2] as ToolMessage;
    expect(result.tool_call_id).toBe("c1");
    expect(result.name).toBe("search");
    expect(llm.calls).toHaveLength(2);
    expect(outline(llm.calls[1] ?? [])).toEqual(["human:cats?", "ai:", "tool:results for cats"]);
  });

  it("ends at once when the model calls no tool", async () => {
    const llm = new FakeChatModel({ responses: ["Hello!"] });
    const out = await createReactAgent({ llm, tools: [] }).invoke(question());
    expect(outline(out.messages)).toEqual(["human:hi", "ai:Hello!"]);
  });

  it("binds the tools to the model", async () => {
    const llm = new FakeChatModel({ responses: ["ok"] });
    const seen: unknown[] = [];
    const spy = Object.assign(Object.create(llm) as FakeChatModel, {
      bindTools: (tools: unknown[]) => {
        seen.push(...tools);
        return llm.bindTools(tools as never);
      },
    });
    await createReactAgent({ llm: spy, tools: [search, lookup] }).invoke(question());
    expect(seen).toEqual([search, lookup]);
  });

  for (const version of ["v1", "v2"] as const) {
    it(`${version}: runs parallel tool calls and answers each by id`, async () => {
      const llm = new FakeChatModel({
        responses: [
          asking("a1", call("search", { query: "a" }, "c1"), call("search", { query: "b" }, "c2")),
          answer("a2", "done"),
        ],
      });
      const agent = createReactAgent({ llm, tools: [search], version });
      const nodes: string[] = [];
      let toolMessagesPerUpdate: number[] = [];
      for await (const chunk of await agent.stream(question())) {
        const [node, update] = Object.entries(chunk)[0] as [string, { messages: BaseMessage[] }];
        nodes.push(node);
        if (node === "tools") toolMessagesPerUpdate = [...toolMessagesPerUpdate, update.messages.length];
      }
      expect(nodes).toEqual(
        version === "v1" ? ["agent", "tools", "agent"] : ["agent", "tools", "tools", "agent"],
      );
      expect(toolMessagesPerUpdate).toEqual(version === "v1" ? [2] : [1, 1]);
      const state = llm.calls[1] ?? [];
      expect(
        state
          .filter(isToolMessage)
          .map((m) => [m.tool_call_id, m.content])
          .sort(),
      ).toEqual([
        ["c1", "results for a"],
        ["c2", "results for b"],
      ]);
    });
  }

  it("turns a tool error into a ToolMessage the model can read", async () => {
    const broken = tool(
      async () => {
        throw new Error("disk full");
      },
      { name: "save", description: "Save.", schema: z.object({}) },
    );
    const llm = new FakeChatModel({
      responses: [asking("a1", call("save", {}, "c1")), answer("a2", "Could not save.")],
    });
    const out = await createReactAgent({ llm, tools: [broken] }).invoke(question());
    const result = out.messages[2] as ToolMessage;
    expect(isToolMessage(result)).toBe(true);
    expect(result.content).toContain("disk full");
    expect(result.content).toContain("Please fix your mistakes.");
    expect(outline(out.messages).at(-1)).toBe("ai:Could not save.");
  });

  it("answers a call to an unknown tool with an error ToolMessage (LangGraph.js's text)", async () => {
    const llm = new FakeChatModel({
      responses: [asking("a1", call("nope", {}, "c1")), answer("a2", "Sorry.")],
    });
    const out = await createReactAgent({ llm, tools: [search] }).invoke(question());
    const result = out.messages[2] as ToolMessage;
    expect(result.content).toBe('Error: Tool "nope" not found.\n Please fix your mistakes.');
    expect(result.tool_call_id).toBe("c1");
    expect(result.status).toBe("error");
  });

  it("gives tools the agent state in their runtime", async () => {
    const State = Annotation.Root({ ...createReactAgentAnnotation().spec, user: Annotation<string> });
    const seen: unknown[] = [];
    const whoami = tool(
      async (_args: Record<string, never>, runtime: ToolRuntime) => {
        const state = runtime.state as { user: string; messages: BaseMessage[] };
        seen.push(state.messages.length);
        return `you are ${state.user}`;
      },
      { name: "whoami", description: "Who am I?", schema: z.object({}) },
    );
    const llm = new FakeChatModel({
      responses: [asking("a1", call("whoami", {}, "c1")), answer("a2", "ok")],
    });
    const agent = createReactAgent({ llm, tools: [whoami], stateSchema: State });
    const out = await agent.invoke({ ...question(), user: "ada" });
    expect(out.messages[2]?.content).toBe("you are ada");
    expect(seen).toEqual([2]);
    expect(out.user).toBe("ada");
  });

  it("applies a Command a tool returns", async () => {
    const State = Annotation.Root({ ...createReactAgentAnnotation().spec, mood: Annotation<string> });
    const cheer = tool(
      async (_args: Record<string, never>, runtime: ToolRuntime) =>
        new Command({
          update: {
            mood: "happy",
            messages: [new ToolMessage({ content: "cheered", tool_call_id: runtime.toolCallId ?? "" })],
          },
        }),
      { name: "cheer", description: "Cheer up.", schema: z.object({}) },
    );
    const llm = new FakeChatModel({
      responses: [asking("a1", call("cheer", {}, "c1")), answer("a2", "Yay")],
    });
    const out = await createReactAgent({ llm, tools: [cheer], stateSchema: State }).invoke(question());
    expect(out.mood).toBe("happy");
    expect(outline(out.messages)).toEqual(["human:hi", "ai:", "tool:cheered", "ai:Yay"]);
  });

  it("streams the tools' messages with the ids the state gives them (as LangGraph.js)", async () => {
    const llm = new FakeChatModel({
      responses: [asking("a1", call("search", { query: "x" }, "c1")), answer("a2", "ok")],
    });
    const agent = createReactAgent({ llm, tools: [search] });
    const seen: unknown[] = [];
    for await (const chunk of await agent.stream(question(), { streamMode: "updates" })) {
      // read as each chunk arrives, as a program printing it does
      const tools = (chunk as { tools?: { messages: BaseMessage[] } }).tools;
      if (tools !== undefined) seen.push(...tools.messages.map((m) => m.id));
    }
    expect(seen).toEqual([expect.any(String)]);
  });

  it("accepts a ready ToolNode as tools", async () => {
    const llm = new FakeChatModel({
      responses: [asking("a1", call("search", { query: "x" }, "c1")), answer("a2", "ok")],
    });
    const out = await createReactAgent({ llm, tools: new ToolNode([search]) }).invoke(question());
    expect(outline(out.messages)).toEqual(["human:hi", "ai:", "tool:results for x", "ai:ok"]);
  });
});

describe("createReactAgent: return-direct tools", () => {
  it("ends with the tool's result instead of calling the model again", async () => {
    const llm = new FakeChatModel({ responses: [asking("a1", call("lookup", { key: "k" }, "c1"))] });
    const out = await createReactAgent({ llm, tools: [search, lookup] }).invoke(question());
    expect(outline(out.messages)).toEqual(["human:hi", "ai:", "tool:value of k"]);
    expect(llm.calls).toHaveLength(1);
  });

  it("ends when any of the step's results is return-direct, in either order (as LangGraph.js)", async () => {
    for (const calls of [
      [call("lookup", { key: "k" }, "c1"), call("search", { query: "q" }, "c2")],
      [call("search", { query: "q" }, "c2"), call("lookup", { key: "k" }, "c1")],
    ]) {
      const llm = new FakeChatModel({ responses: [asking("a1", ...calls)] });
      const out = await createReactAgent({ llm, tools: [search, lookup] }).invoke(question());
      expect(out.messages.filter(isToolMessage)).toHaveLength(2);
      expect(llm.calls).toHaveLength(1);
    }
  });

  it("goes back to the model after ordinary tools", async () => {
    const llm = new FakeChatModel({
      responses: [asking("a1", call("search", { query: "q" }, "c1")), answer("a2", "fin")],
    });
    const out = await createReactAgent({ llm, tools: [search, lookup] }).invoke(question());
    expect(outline(out.messages).at(-1)).toBe("ai:fin");
  });
});

describe("createReactAgent: prompt", () => {
  const firstCall = async (prompt: CreateReactAgentParams["prompt"]) => {
    const llm = new FakeChatModel({ responses: ["ok"] });
    const out = await createReactAgent({
      llm,
      tools: [],
      ...(prompt === undefined ? {} : { prompt }),
    }).invoke(question());
    expect(outline(out.messages)).toEqual(["human:hi", "ai:ok"]);
    return outline(llm.calls[0] ?? []);
  };

  it("sends the messages as they are without a prompt", async () => {
    expect(await firstCall(undefined)).toEqual(["human:hi"]);
  });

  it("puts a string prompt first as a system message", async () => {
    expect(await firstCall("Be brief.")).toEqual(["system:Be brief.", "human:hi"]);
  });

  it("puts a SystemMessage prompt first", async () => {
    expect(await firstCall(new SystemMessage("Be kind."))).toEqual(["system:Be kind.", "human:hi"]);
  });

  it("calls a sync or async function of the state", async () => {
    const sync = (state: { messages: BaseMessage[] }) => [
      new SystemMessage(`n=${state.messages.length}`),
      ...state.messages,
    ];
    const asyncFn = async (state: { messages: BaseMessage[] }) => [
      ...state.messages,
      new SystemMessage("last"),
    ];
    expect(await firstCall(sync)).toEqual(["system:n=1", "human:hi"]);
    expect(await firstCall(asyncFn)).toEqual(["human:hi", "system:last"]);
  });

  it("calls invoke(state) of an object", async () => {
    const runnable = {
      invoke: async (state: { messages: BaseMessage[] }) => [
        new SystemMessage("from runnable"),
        ...state.messages,
      ],
    };
    expect(await firstCall(runnable)).toEqual(["system:from runnable", "human:hi"]);
  });

  it("gives prompt functions the other state keys and remainingSteps", async () => {
    const State = Annotation.Root({ ...createReactAgentAnnotation().spec, user: Annotation<string> });
    const seen: unknown[] = [];
    const llm = new FakeChatModel({ responses: ["ok"] });
    const agent = createReactAgent({
      llm,
      tools: [],
      stateSchema: State,
      prompt: (state) => {
        seen.push([state.user, state.remainingSteps]);
        return state.messages;
      },
    });
    const out = await agent.invoke({ ...question(), user: "ada" }, { recursionLimit: 10 });
    expect(seen).toEqual([["ada", 9]]);
    expect(Object.keys(out).sort()).toEqual(["messages", "user"]);
  });

  it("rejects any other prompt", () => {
    const llm = new FakeChatModel({ responses: [] });
    expect(() => createReactAgent({ llm, tools: [], prompt: 42 as never })).toThrow(
      "Got unexpected type for 'prompt': number",
    );
  });
});

describe("createReactAgent: the deprecated stateModifier and messageModifier", () => {
  const firstCall = async (options: Pick<CreateReactAgentParams, "stateModifier" | "messageModifier">) => {
    const llm = new FakeChatModel({ responses: ["ok"] });
    await createReactAgent({ llm, tools: [], ...options }).invoke(question());
    return outline(llm.calls[0] ?? []);
  };

  it("takes stateModifier as the prompt", async () => {
    expect(await firstCall({ stateModifier: "SM" })).toEqual(["system:SM", "human:hi"]);
    const fromState = (state: { messages: BaseMessage[] }) => [
      new SystemMessage(`n=${state.messages.length}`),
      ...state.messages,
    ];
    expect(await firstCall({ stateModifier: fromState })).toEqual(["system:n=1", "human:hi"]);
  });

  it("takes a messageModifier string or SystemMessage as the system prompt", async () => {
    expect(await firstCall({ messageModifier: "MM" })).toEqual(["system:MM", "human:hi"]);
    expect(await firstCall({ messageModifier: new SystemMessage("sys") })).toEqual([
      "system:sys",
      "human:hi",
    ]);
  });

  it("gives a messageModifier function or runnable the messages, not the state", async () => {
    const seen: unknown[] = [];
    const fn = (messages: BaseMessage[]) => {
      seen.push(Array.isArray(messages));
      return [new SystemMessage("fn"), ...messages];
    };
    expect(await firstCall({ messageModifier: fn })).toEqual(["system:fn", "human:hi"]);
    const runnable = { invoke: async (messages: BaseMessage[]) => [...messages, new SystemMessage("after")] };
    expect(await firstCall({ messageModifier: runnable })).toEqual(["human:hi", "system:after"]);
    expect(seen).toEqual([true]);
  });

  it("refuses more than one of prompt, stateModifier and messageModifier", () => {
    const llm = new FakeChatModel({ responses: [] });
    expect(() => createReactAgent({ llm, tools: [], prompt: "a", stateModifier: "b" })).toThrow(
      "Expected only one of prompt, stateModifier, or messageModifier, got multiple values",
    );
    expect(() => createReactAgent({ llm, tools: [], stateModifier: "a", messageModifier: "b" })).toThrow(
      "Expected only one of prompt, stateModifier, or messageModifier, got multiple values",
    );
  });

  it("rejects a messageModifier of another type", () => {
    const llm = new FakeChatModel({ responses: [] });
    expect(() => createReactAgent({ llm, tools: [], messageModifier: 42 as never })).toThrow(
      "Unexpected type for messageModifier: number",
    );
  });
});

describe("createReactAgent: models", () => {
  it("calls a dynamic model chosen per call from state and context", async () => {
    const small = new FakeChatModel({ responses: [asking("a1", call("search", { query: "q" }, "c1"))] });
    const big = new FakeChatModel({ responses: [answer("a2", "from big")] });
    const picks: unknown[] = [];
    const agent = createReactAgent({
      llm: (state, runtime) => {
        const context = runtime.context as { prefer?: string } | undefined;
        picks.push([state.messages.length, state.remainingSteps, context?.prefer]);
        return (state.messages.length > 1 ? big : small).bindTools([search]);
      },
      tools: [search],
    });
    const out = await agent.invoke(question(), { context: { prefer: "fast" }, recursionLimit: 25 });
    expect(outline(out.messages).at(-1)).toBe("ai:from big");
    expect(picks).toEqual([
      [1, 24, "fast"],
      [3, 22, "fast"],
    ]);
  });

  it("gives a dynamic model the state itself, not the preModelHook's llmInputMessages as messages (as LangGraph.js)", async () => {
    const llm = new FakeChatModel({ responses: ["ok"] });
    const seen: unknown[] = [];
    const agent = createReactAgent({
      llm: (state) => {
        const { llmInputMessages } = state as { llmInputMessages?: BaseMessage[] };
        seen.push([outline(state.messages), llmInputMessages && outline(llmInputMessages)]);
        return llm;
      },
      tools: [],
      preModelHook: (state) => ({
        llmInputMessages: [new SystemMessage("short"), ...state.messages.slice(-1)],
      }),
    });
    const out = await agent.invoke({
      messages: [new HumanMessage("one"), new AIMessage("two"), new HumanMessage("three")],
    });
    expect(seen).toEqual([
      [
        ["human:one", "ai:two", "human:three"],
        ["system:short", "human:three"],
      ],
    ]);
    // the model itself still sees the hook's messages
    expect(outline(llm.calls[0] ?? [])).toEqual(["system:short", "human:three"]);
    expect(outline(out.messages)).toEqual(["human:one", "ai:two", "human:three", "ai:ok"]);
  });

  it("keeps a model whose tools are already bound", async () => {
    const llm = new FakeChatModel({ responses: ["ok"] });
    const bound = llm.bindTools([search]);
    const agent = createReactAgent({ llm: bound, tools: [search] });
    expect(outline((await agent.invoke(question())).messages)).toEqual(["human:hi", "ai:ok"]);
  });

  it("rejects a model bound to other tools when it first calls it, as LangGraph.js", async () => {
    const llm = new FakeChatModel({ responses: [] });
    const miscounted = createReactAgent({ llm: llm.bindTools([search]), tools: [search, lookup] });
    await expect(miscounted.invoke(question())).rejects.toThrow(
      "Number of tools in the model.bindTools() and tools passed to createReactAgent must match",
    );
    const misnamed = createReactAgent({ llm: llm.bindTools([lookup]), tools: [search] });
    await expect(misnamed.invoke(question())).rejects.toThrow(
      "Missing tools 'search' in the model.bindTools().Tools in the model.bindTools() must match the tools passed to createReactAgent.",
    );
  });

  it("binds its model at the first call and keeps that binding, as LangGraph.js", async () => {
    // FakeListChatModel's bindTools binds a copy that starts at the model's current answer
    const llm = new FakeListChatModel({ responses: ["a", "b", "c", "d"] });
    const agent = createReactAgent({ llm, tools: [] });
    expect((await llm.invoke("hi")).content).toBe("a");
    expect(outline((await agent.invoke(question())).messages)).toEqual(["human:hi", "ai:b"]);
    expect((await llm.invoke("hi")).content).toBe("b");
    expect(outline((await agent.invoke(question())).messages)).toEqual(["human:hi", "ai:c"]);
  });

  it("tags the model call as step 2 of LangGraph.js's prompt-then-model sequence", async () => {
    const tagsOf = async (options: { tags?: string[] }) => {
      const agent = createReactAgent({ llm: new FakeChatModel({ responses: ["hello there"] }), tools: [] });
      const tags: unknown[] = [];
      for await (const [, metadata] of await agent.stream(question(), {
        streamMode: "messages",
        ...options,
      })) {
        tags.push((metadata as { tags?: unknown }).tags);
      }
      expect(tags.length).toBeGreaterThan(0);
      return tags;
    };
    for (const each of await tagsOf({})) expect(each).toEqual(["seq:step:2"]);
    // (LangGraph.js lists the step first)
    for (const each of await tagsOf({ tags: ["mine"] })) {
      expect([...(each as string[])].sort()).toEqual(["mine", "seq:step:2"]);
    }
  });

  it("tags the model call as step 3 after a runnable messageModifier (step 4 with inline names), as LangGraph.js", async () => {
    const tagsOf = async (includeAgentName?: "inline") => {
      const agent = createReactAgent({
        llm: new FakeChatModel({ responses: ["hello"] }),
        tools: [],
        messageModifier: { invoke: async (messages: BaseMessage[]) => messages },
        ...(includeAgentName === undefined ? {} : { includeAgentName, name: "bot" }),
      });
      const tags = new Set<string>();
      for await (const [, metadata] of await agent.stream(question(), { streamMode: "messages" })) {
        tags.add(JSON.stringify((metadata as { tags?: unknown }).tags));
      }
      return [...tags];
    };
    expect(await tagsOf()).toEqual([JSON.stringify(["seq:step:3"])]);
    expect(await tagsOf("inline")).toEqual([JSON.stringify(["seq:step:4"])]);
  });

  it("rejects an unknown version and a state without messages", () => {
    const llm = new FakeChatModel({ responses: [] });
    expect(() => createReactAgent({ llm, tools: [], version: "v3" as never })).toThrow(
      "Invalid version v3. Supported versions are 'v1' and 'v2'.",
    );
    const State = Annotation.Root({ other: Annotation<string> });
    expect(() => createReactAgent({ llm, tools: [], stateSchema: State })).toThrow(
      "Missing required `messages` key in state schema.",
    );
  });

  it("treats null hooks and a null responseFormat as none (as LangGraph.js's routing does)", async () => {
    const llm = new FakeChatModel({ responses: ["done"] });
    const agent = createReactAgent({
      llm,
      tools: [search],
      preModelHook: null as never,
      postModelHook: null as never,
      responseFormat: null as never,
    });
    expect(Object.keys(agent.getGraph().nodes).sort()).toEqual(["__end__", "__start__", "agent", "tools"]);
    const out = await agent.invoke(question());
    expect(outline(out.messages)).toEqual(["human:hi", "ai:done"]);
    expect(out.structuredResponse).toBeUndefined();
  });

  it("rejects a hook of another type with LangGraph.js's message first", () => {
    const llm = new FakeChatModel({ responses: [] });
    expect(() => createReactAgent({ llm, tools: [], preModelHook: 5 as never })).toThrow(
      /^Expected a Runnable, function or object\./,
    );
    expect(() => createReactAgent({ llm, tools: [], postModelHook: "x" as never })).toThrow(
      /^Expected a Runnable, function or object\./,
    );
  });
});

describe("createReactAgent: names", () => {
  it("stamps the agent's name on its messages and names the graph", async () => {
    const llm = new FakeChatModel({
      responses: [asking("a1", call("search", { query: "q" }, "c1")), answer("a2", "done")],
    });
    const agent = createReactAgent({ llm, tools: [search], name: "researcher" });
    const out = await agent.invoke(question());
    expect(out.messages.filter((m) => m.getType() === "ai").map((m) => m.name)).toEqual([
      "researcher",
      "researcher",
    ]);
    expect(agent.name).toBe("researcher");
  });

  it("clears a name the model set when the agent has none (as LangGraph.js)", async () => {
    const llm = new FakeChatModel({ responses: [new AIMessage({ content: "x", name: "model" })] });
    const out = await createReactAgent({ llm, tools: [] }).invoke(question());
    expect(out.messages[1]?.name).toBeUndefined();
  });

  it("inline: shows past agent messages to the model as <name>…</name><content>…</content>", async () => {
    const llm = new FakeChatModel({ responses: [answer("a2", "<name>bob</name><content>second</content>")] });
    const agent = createReactAgent({ llm, tools: [], name: "bob", includeAgentName: "inline" });
    const history = [
      ...question().messages,
      new AIMessage({ id: "a1", content: "first", name: "bob" }),
      ...question("again").messages.map((m) => Object.assign(m, { id: "h2" })),
    ];
    const out = await agent.invoke({ messages: history });
    expect(outline(llm.calls[0] ?? [])).toEqual([
      "human:hi",
      "ai:<name>bob</name><content>first</content>",
      "human:again",
    ]);
    const last = out.messages.at(-1);
    expect([last?.content, last?.name]).toEqual(["second", "bob"]);
    expect(outline(out.messages)[1]).toBe("ai:first");
  });

  it("ignores an includeAgentName other than inline (as LangGraph.js)", async () => {
    const llm = new FakeChatModel({ responses: [answer("a2", "plain")] });
    const params = { llm, tools: [], name: "bob", includeAgentName: "tag" };
    const agent = createReactAgent(params as unknown as CreateReactAgentParams);
    const history = [...question().messages, new AIMessage({ id: "a1", content: "first", name: "bob" })];
    const out = await agent.invoke({ messages: history });
    expect(outline(llm.calls[0] ?? [])).toEqual(["human:hi", "ai:first"]);
    expect(outline(out.messages).at(-1)).toBe("ai:plain");
  });
});

describe("createReactAgent: drawing", () => {
  it("keeps the drawing's tool list out of what the tools node's runs see", async () => {
    let seen: string[] = [];
    const probe = tool(
      async (_args, config) => {
        seen = Object.keys(config.metadata ?? {}).filter((key) => key.startsWith("__"));
        return "ok";
      },
      { name: "probe", description: "Probes.", schema: z.object({}) },
    );
    const llm = new FakeChatModel({
      responses: [
        new AIMessage({
          content: "",
          tool_calls: [{ name: "probe", args: {}, id: "p1", type: "tool_call" }],
        }),
        "done",
      ],
    });
    await createReactAgent({ llm, tools: [probe] }).invoke({ messages: [new HumanMessage("go")] });
    expect(seen).toEqual([]);
  });

  it("reports its tools node as a ToolNode in toJSON(), as LangGraph.js does", () => {
    const llm = new FakeChatModel({ responses: [] });
    const nodes = createReactAgent({ llm, tools: [] }).getGraph().toJSON().nodes;
    expect(nodes.find((node) => node.id === "tools")?.data).toEqual({
      id: ["langgraph", "ToolNode"],
      name: "func",
    });
    expect(nodes.find((node) => node.id === "agent")?.data).toEqual({
      id: ["langgraph", "RunnableCallable"],
      name: "agent",
    });
  });

  it("draws the graph as LangGraph.js does, the tools node listing its tools", () => {
    const llm = new FakeChatModel({ responses: [] });
    const add = tool(async () => "2", { name: "add", description: "Adds.", schema: z.object({}) });
    const mul = tool(async () => "1", { name: "mul", description: "Multiplies.", schema: z.object({}) });
    expect(
      createReactAgent({ llm, tools: [add, mul] })
        .getGraph()
        .drawMermaid(),
    ).toBe(
      [
        "%%{init: {'flowchart': {'curve': 'linear'}}}%%",
        "graph TD;",
        "\t__start__([<p>__start__</p>]):::first",
        "\ttools(tools<hr/><small><em>__tools = add,mul</em></small>)",
        "\tagent(agent)",
        "\t__end__([<p>__end__</p>]):::last",
        "\t__start__ --> agent;",
        "\ttools --> agent;",
        "\tagent -.-> tools;",
        "\tagent -.-> __end__;",
        "\tclassDef default fill:#f2f0ff,line-height:1.2;",
        "\tclassDef first fill-opacity:0;",
        "\tclassDef last fill:#bfb6fc;",
        "",
      ].join("\n"),
    );
  });
});

describe("createReactAgent: chat history", () => {
  it("refuses to call the model while a tool call has no ToolMessage", async () => {
    const llm = new FakeChatModel({ responses: ["never"] });
    const agent = createReactAgent({ llm, tools: [search] });
    const dangling = asking("a0", call("search", { query: "q" }, "c9"));
    const error = await agent
      .invoke({ messages: [...question().messages, dangling] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "InvalidChatHistoryError", code: "INVALID_CHAT_HISTORY" });
    expect((error as Error).message).toBe(
      "Found AIMessages with tool_calls that do not have a corresponding ToolMessage. " +
        'Here are the first few of those tool calls: [{"name":"search","args":{"query":"q"},"id":"c9","type":"tool_call"}].\n\n' +
        "Every tool call (LLM requesting to call a tool) in the message history MUST have a corresponding ToolMessage " +
        "(result of a tool invocation to return to the LLM) - this is required by most LLM providers.\n" +
        "For troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CHAT_HISTORY",
    );
    expect(llm.calls).toHaveLength(0);
  });
});

describe("createReactAgent: structured response", () => {
  const Weather = z.object({ summary: z.string() });

  it("makes a final structured-output call and writes structuredResponse", async () => {
    const llm = new FakeChatModel({
      responses: [answer("a1", "It is sunny."), asking("s1", call("extract", { summary: "sunny" }, "x1"))],
    });
    const agent = createReactAgent({ llm, tools: [search], responseFormat: Weather });
    const out = await agent.invoke(question());
    expect(out.structuredResponse).toEqual({ summary: "sunny" });
    expect(outline(out.messages)).toEqual(["human:hi", "ai:It is sunny."]);
    expect(outline(llm.calls[1] ?? [])).toEqual(["human:hi", "ai:It is sunny."]);
  });

  it("tags the structured-output model call as step 1 of its model-then-parser sequence (as LangGraph.js)", async () => {
    const llm = new FakeChatModel({
      responses: [answer("a1", "It is sunny."), asking("s1", call("extract", { summary: "sunny" }, "x1"))],
    });
    const agent = createReactAgent({ llm, tools: [], responseFormat: Weather });
    const seen = new Set<string>();
    for await (const [, metadata] of await agent.stream(question(), { streamMode: "messages" })) {
      const { langgraph_node, tags } = metadata as { langgraph_node?: unknown; tags?: unknown };
      seen.add(JSON.stringify([langgraph_node, tags]));
    }
    expect([...seen]).toEqual([
      JSON.stringify(["agent", ["seq:step:2"]]),
      JSON.stringify(["generate_structured_response", ["seq:step:1"]]),
    ]);
  });

  it("tags it map:key:raw with includeRaw, the raw branch of LangGraph.js's pipeline (as LangGraph.js)", async () => {
    const llm = new FakeChatModel({
      responses: [answer("a1", "It is sunny."), asking("s1", call("extract", { summary: "sunny" }, "x1"))],
    });
    const agent = createReactAgent({ llm, tools: [], responseFormat: { schema: Weather, includeRaw: true } });
    const seen = new Set<string>();
    let structured: unknown;
    for await (const [mode, chunk] of await agent.stream(question(), {
      streamMode: ["messages", "values"],
    })) {
      if (mode === "values") structured = (chunk as { structuredResponse?: unknown }).structuredResponse;
      else {
        const { langgraph_node, tags } = chunk[1] as { langgraph_node?: unknown; tags?: unknown };
        if (langgraph_node === "generate_structured_response") seen.add(JSON.stringify(tags));
      }
    }
    expect([...seen]).toEqual([JSON.stringify(["map:key:raw"])]);
    expect((structured as { parsed?: unknown }).parsed).toEqual({ summary: "sunny" });
  });

  it("puts the prompt of { prompt, schema } first in that call only", async () => {
    const llm = new FakeChatModel({
      responses: [answer("a1", "It is sunny."), asking("s1", call("weather", { summary: "sunny" }, "x1"))],
    });
    const agent = createReactAgent({
      llm,
      tools: [],
      prompt: "main prompt",
      responseFormat: { prompt: "Extract the weather.", schema: Weather, name: "weather" },
    });
    const out = await agent.invoke(question());
    expect(out.structuredResponse).toEqual({ summary: "sunny" });
    expect(outline(llm.calls[0] ?? [])).toEqual(["system:main prompt", "human:hi"]);
    expect(outline(llm.calls[1] ?? [])).toEqual([
      "system:Extract the weather.",
      "human:hi",
      "ai:It is sunny.",
    ]);
  });
});

describe("createReactAgent: persistence", () => {
  it("interruptBefore tools pauses, then resumes from the checkpoint", async () => {
    const llm = new FakeChatModel({
      responses: [asking("a1", call("search", { query: "q" }, "c1")), answer("a2", "done")],
    });
    const agent = createReactAgent({
      llm,
      tools: [search],
      checkpointer: new MemorySaver(),
      interruptBefore: ["tools"],
    });
    const thread = { configurable: { thread_id: "t1" } };
    const paused = await agent.invoke(question(), thread);
    expect(outline(paused.messages)).toEqual(["human:hi", "ai:"]);
    expect((paused as { __interrupt__?: unknown }).__interrupt__).toEqual([]);
    expect((await agent.getState(thread)).next).toEqual(["tools"]);
    const done = await agent.invoke(null, thread);
    expect(outline(done.messages)).toEqual(["human:hi", "ai:", "tool:results for q", "ai:done"]);
    expect((await agent.getState(thread)).next).toEqual([]);
  });

  it("accepts the deprecated checkpointSaver", async () => {
    const llm = new FakeChatModel({ responses: ["one", "two"] });
    const agent = createReactAgent({ llm, tools: [], checkpointSaver: new MemorySaver() });
    const thread = { configurable: { thread_id: "t2" } };
    await agent.invoke(question("first"), thread);
    const out = await agent.invoke({ messages: [{ role: "user", content: "second" }] as never }, thread);
    expect(outline(out.messages)).toEqual(["human:first", "ai:one", "human:second", "ai:two"]);
  });
});

describe("createReactAgent: the name of a streamed answer", () => {
  /** Streams its answer in two chunks without reporting them to `handleLLMNewToken`. */
  class QuietStreamModel extends BaseChatModel {
    _llmType(): string {
      return "quiet-stream";
    }
    async _generate(): Promise<ChatResult> {
      const message = new AIMessage("Hello world");
      return { generations: [{ message, text: message.text }] };
    }
    override async *_streamResponseChunks(): AsyncGenerator<ChatGenerationChunk> {
      for (const text of ["Hello", " world"])
        yield new ChatGenerationChunk({ message: new AIMessageChunk({ content: text, id: "c-1" }), text });
    }
  }

  it("is on the whole chunk the messages stream showed, as LangGraph.js names the chunk invoke returns", async () => {
    const agent = createReactAgent({ llm: new QuietStreamModel({}), tools: [], name: "bot" });
    const names: unknown[] = [];
    const chunks: unknown[] = [];
    for await (const chunk of await agent.stream(
      { messages: [new HumanMessage("hi")] },
      { streamMode: "messages" },
    ))
      chunks.push(chunk);
    for (const [message] of chunks as [BaseMessage][]) names.push([message.content, message.name]);
    expect(names).toEqual([["Hello world", "bot"]]);
  });
});
