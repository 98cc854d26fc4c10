// Regression tests from running the LangChain.js v1 agent documentation's examples against
// agentgraph and `langchain` 1.5.14 side by side (scripted models, no network). Each test states
// a behaviour the two libraries share, in our own words; the first two cover what differed.
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { Command, MemorySaver } from "../index.js";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "../messages/index.js";
import { FakeChatModel } from "../testing/index.js";
import {
  type AfterModelHook,
  type BeforeModelHook,
  createAgent,
  createMiddleware,
  humanInTheLoopMiddleware,
  type JumpToTarget,
  type MiddlewareResult,
  modelCallLimitMiddleware,
  providerStrategy,
  type ResponseFormat,
  type Runtime,
  type ToolCallRequest,
  type ToolRuntime,
  tool,
  toolStrategy,
} from "./index.js";

const toolCall = (name: string, args: Record<string, unknown>, id: string) =>
  new AIMessage({ content: "", tool_calls: [{ name, args, id, type: "tool_call" }] });

const weather = tool(({ city }: { city: string }) => `Sunny in ${city}.`, {
  name: "get_weather",
  description: "Weather for a city.",
  schema: z.object({ city: z.string() }),
});

const summary = (messages: BaseMessage[]) =>
  messages.map((m) => {
    const calls = AIMessage.isInstance(m)
      ? m.tool_calls?.map((c) => `${c.name}(${JSON.stringify(c.args)})`)
      : [];
    return `${m.getType()}:${m.text}${calls?.length ? ` ${calls.join(",")}` : ""}`;
  });

describe("names the docs import from the langchain root", () => {
  it("exports ToolRuntime so a tool can type its runtime with the agent's context schema", async () => {
    const contextSchema = z.object({ userName: z.string() });
    const greet = tool(
      async (_args: Record<string, never>, runtime: ToolRuntime<unknown, typeof contextSchema>) => {
        expectTypeOf(runtime.context.userName).toEqualTypeOf<string>();
        return `Preferences of ${runtime.context.userName} (call ${runtime.toolCallId})`;
      },
      { name: "prefs", description: "Reads the user's preferences.", schema: z.object({}) },
    );
    const agent = createAgent({
      model: new FakeChatModel({ responses: [toolCall("prefs", {}, "p1"), "done"] }),
      tools: [greet],
      contextSchema,
    });
    const result = await agent.invoke(
      { messages: [new HumanMessage("prefs?")] },
      { context: { userName: "Ana" } },
    );
    expect(result.messages[2]?.text).toBe("Preferences of Ana (call p1)");
  });

  it("exports the hook, runtime and result type aliases", async () => {
    const seen: string[] = [];
    const before: BeforeModelHook = {
      canJumpTo: ["end"],
      hook: (state, runtime: Runtime) => {
        seen.push(`before:${state.messages.length}:${typeof runtime.writer}`);
        const result: MiddlewareResult = undefined;
        return result;
      },
    };
    const after: AfterModelHook = (state) => {
      seen.push(`after:${state.messages.length}`);
    };
    const target: JumpToTarget = "end";
    const format: ResponseFormat = providerStrategy(z.object({ answer: z.string() }));
    expectTypeOf<ToolCallRequest["toolCall"]["name"]>().toEqualTypeOf<string>();
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["hi"] }),
      tools: [],
      middleware: [createMiddleware({ name: "Aliases", beforeModel: before, afterModel: after })],
    });
    await agent.invoke({ messages: [new HumanMessage("x")] });
    expect(seen).toEqual(["before:1:function", "after:2"]);
    expect(target).toBe("end");
    expect(format).toBeDefined();
  });
});

describe("stream modes of an agent", () => {
  it("types the messages mode as [message, metadata] and names the emitting node", async () => {
    const agent = createAgent({
      model: new FakeChatModel({
        responses: [toolCall("get_weather", { city: "Oslo" }, "w1"), "It is sunny."],
      }),
      tools: [weather],
    });
    const rows: string[] = [];
    for await (const [token, metadata] of await agent.stream(
      { messages: [new HumanMessage("weather?")] },
      { streamMode: "messages" },
    )) {
      expectTypeOf(token).toEqualTypeOf<BaseMessage>();
      rows.push(`${String(metadata.langgraph_node)}:${token.getType()}`);
    }
    expect(rows.filter((r) => r.startsWith("tools:"))).toEqual(["tools:tool"]);
    expect(rows.some((r) => r.startsWith("model_request:"))).toBe(true);
  });

  it("emits updates per node and custom chunks written by a tool", async () => {
    const lookup = tool(
      async ({ city }: { city: string }, runtime: ToolRuntime) => {
        runtime.writer?.(`looking up ${city}`);
        return `Sunny in ${city}.`;
      },
      { name: "get_weather", description: "Weather.", schema: z.object({ city: z.string() }) },
    );
    const agent = createAgent({
      model: new FakeChatModel({ responses: [toolCall("get_weather", { city: "Rome" }, "w1"), "done"] }),
      tools: [lookup],
    });
    const seen: string[] = [];
    for await (const [mode, chunk] of await agent.stream(
      { messages: [new HumanMessage("weather?")] },
      { streamMode: ["updates", "custom"] },
    )) {
      seen.push(mode === "custom" ? `custom:${String(chunk)}` : `updates:${Object.keys(chunk).join(",")}`);
    }
    expect(seen).toEqual([
      "updates:model_request",
      "custom:looking up Rome",
      "updates:tools",
      "updates:model_request",
    ]);
  });
});

describe("documented agent flows", () => {
  it("HITL: edits one call and rejects another, then the model answers", async () => {
    const writeFile = tool(({ path }: { path: string }) => `wrote ${path}`, {
      name: "write_file",
      description: "Writes a file.",
      schema: z.object({ path: z.string() }),
    });
    const model = new FakeChatModel({
      responses: [
        new AIMessage({
          content: "",
          tool_calls: [
            { name: "write_file", args: { path: "a.txt" }, id: "c1", type: "tool_call" },
            { name: "get_weather", args: { city: "Paris" }, id: "c2", type: "tool_call" },
          ],
        }),
        "finished",
      ],
    });
    const agent = createAgent({
      model,
      tools: [writeFile, weather],
      checkpointer: new MemorySaver(),
      middleware: [humanInTheLoopMiddleware({ interruptOn: { write_file: true, get_weather: true } })],
    });
    const config = { configurable: { thread_id: "hitl-docs" } };
    const paused = await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    const request = paused.__interrupt__?.[0]?.value as { actionRequests: Array<{ name: string }> };
    expect(request.actionRequests.map((a) => a.name)).toEqual(["write_file", "get_weather"]);
    const done = await agent.invoke(
      new Command({
        resume: {
          decisions: [
            { type: "edit", editedAction: { name: "write_file", args: { path: "b.txt" } } },
            { type: "approve" },
          ],
        },
      }),
      config,
    );
    expect(summary(done.messages)).toEqual([
      "human:go",
      'ai: write_file({"path":"b.txt"}),get_weather({"city":"Paris"})',
      "tool:wrote b.txt",
      "tool:Sunny in Paris.",
      "ai:finished",
    ]);

    const rejecting = createAgent({
      model: new FakeChatModel({ responses: [toolCall("get_weather", { city: "Rome" }, "r1"), "ok"] }),
      tools: [weather],
      checkpointer: new MemorySaver(),
      middleware: [humanInTheLoopMiddleware({ interruptOn: { get_weather: true } })],
    });
    const cfg = { configurable: { thread_id: "hitl-reject" } };
    await rejecting.invoke({ messages: [new HumanMessage("go")] }, cfg);
    const rejected = await rejecting.invoke(
      new Command({ resume: { decisions: [{ type: "reject", message: "Not now." }] } }),
      cfg,
    );
    const answer = rejected.messages[2];
    expect(ToolMessage.isInstance(answer) && answer.status).toBe("error");
    expect(answer?.text).toBe("Not now.");
  });

  it("structured output: a schema violation is answered with the parsing error and retried", async () => {
    const Rating = z.object({ rating: z.number().min(1).max(5) }).meta({ title: "Rating" });
    const agent = createAgent({
      model: new FakeChatModel({
        responses: [toolCall("Rating", { rating: 9 }, "s1"), toolCall("Rating", { rating: 4 }, "s2")],
      }),
      tools: [],
      responseFormat: toolStrategy(Rating),
    });
    const result = await agent.invoke({ messages: [new HumanMessage("rate it")] });
    expect(result.structuredResponse).toEqual({ rating: 4 });
    expect(result.messages[2]?.text).toMatch(/^Failed to parse structured output for tool 'Rating':/);
    expect(result.messages.at(-1)?.text).toBe('Returning structured response: {"rating":4}');
  });

  it("a beforeModel hook that jumps to the end adds its message and stops", async () => {
    const cap = createMiddleware({
      name: "Cap",
      beforeModel: {
        canJumpTo: ["end"],
        hook: (state) =>
          state.messages.length >= 3
            ? { messages: [new AIMessage("Limit reached.")], jumpTo: "end" }
            : undefined,
      },
    });
    const model = new FakeChatModel({
      responses: [toolCall("get_weather", { city: "Lima" }, "w1"), "never"],
    });
    const result = await createAgent({ model, tools: [weather], middleware: [cap] }).invoke({
      messages: [new HumanMessage("weather?")],
    });
    expect(summary(result.messages).at(-1)).toBe("ai:Limit reached.");
    expect(model.calls).toHaveLength(1);
  });

  it("a middleware with its own state and tool: the tool reads the middleware's field", async () => {
    const readCount = tool(
      async (_args: Record<string, never>, runtime: ToolRuntime<{ calls: number }>) =>
        `calls=${runtime.state.calls}`,
      { name: "read_count", description: "Reads the counter.", schema: z.object({}) },
    );
    const counter = createMiddleware({
      name: "Counter",
      stateSchema: z.object({ calls: z.number().default(0) }),
      tools: [readCount],
      afterModel: (state) => ({ calls: state.calls + 1 }),
    });
    const result = await createAgent({
      model: new FakeChatModel({ responses: [toolCall("read_count", {}, "c1"), "done"] }),
      tools: [],
      middleware: [counter],
    }).invoke({ messages: [new HumanMessage("count")] });
    expect(result.messages[2]?.text).toBe("calls=1");
    expect(result.calls).toBe(2);
  });

  it("modelCallLimitMiddleware ends the run with its message at the run limit", async () => {
    const agent = createAgent({
      model: new FakeChatModel({
        responses: [
          toolCall("get_weather", { city: "a" }, "c1"),
          toolCall("get_weather", { city: "b" }, "c2"),
          "x",
        ],
      }),
      tools: [weather],
      middleware: [modelCallLimitMiddleware({ runLimit: 2, exitBehavior: "end" })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(result.messages.at(-1)?.text).toBe(
      "Model call limits exceeded: run level call limit reached with 2 model calls",
    );
  });

  it("a wrapToolCall middleware turns a tool's error into its own ToolMessage", async () => {
    const failing = tool(
      () => {
        throw new Error("backend down");
      },
      { name: "flaky", description: "Fails.", schema: z.object({}) },
    );
    const guard = createMiddleware({
      name: "Guard",
      wrapToolCall: async (request, handler) => {
        try {
          return await handler(request);
        } catch (error) {
          return new ToolMessage({
            content: `Tool failed: ${String(error)}`,
            tool_call_id: request.toolCall.id ?? "",
          });
        }
      },
    });
    const result = await createAgent({
      model: new FakeChatModel({ responses: [toolCall("flaky", {}, "f1"), "sorry"] }),
      tools: [failing],
      middleware: [guard],
    }).invoke({ messages: [new HumanMessage("try")] });
    expect(result.messages[2]?.text).toBe("Tool failed: Error: backend down");
    expect(result.messages.at(-1)?.text).toBe("sorry");
  });

  it("a subagent called from a tool returns its last answer to the main agent", async () => {
    const researcher = createAgent({
      model: new FakeChatModel({ responses: ["42"] }),
      tools: [],
      name: "researcher",
    });
    const ask = tool(
      async ({ question }: { question: string }) =>
        (await researcher.invoke({ messages: [new HumanMessage(question)] })).messages.at(-1)?.text ?? "",
      {
        name: "ask_researcher",
        description: "Asks the researcher.",
        schema: z.object({ question: z.string() }),
      },
    );
    const result = await createAgent({
      model: new FakeChatModel({
        responses: [toolCall("ask_researcher", { question: "meaning?" }, "q1"), "It is 42."],
      }),
      tools: [ask],
    }).invoke({ messages: [new HumanMessage("ask")] });
    expect(summary(result.messages)).toEqual([
      "human:ask",
      'ai: ask_researcher({"question":"meaning?"})',
      "tool:42",
      "ai:It is 42.",
    ]);
  });
});
