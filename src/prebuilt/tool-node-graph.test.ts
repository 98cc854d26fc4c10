/**
 * ToolNode as a graph node: the agent loop with toolsCondition and a scripted model, Commands
 * that update and route (also to the parent graph), store and context injection, Send payloads,
 * and interrupts with a checkpointer and resume.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  Annotation,
  Command,
  END,
  InMemoryStore,
  interrupt,
  MemorySaver,
  MessagesAnnotation,
  Send,
  START,
  StateGraph,
} from "../index.js";
import { AIMessage, type BaseMessage, HumanMessage, type ToolCall, ToolMessage } from "../messages/index.js";
import { FakeChatModel } from "../testing/index.js";
import { tool } from "../tools/index.js";
import { ToolNode, toolsCondition } from "./index.js";

const call = (name: string, id: string, args: Record<string, unknown> = {}): ToolCall => ({
  name,
  args,
  id,
  type: "tool_call",
});
const aiCalling = (...calls: ToolCall[]) => new AIMessage({ content: "", tool_calls: calls });

const weather = tool(async ({ city }) => `It's sunny in ${city}.`, {
  name: "get_weather",
  description: "Weather of a city.",
  schema: z.object({ city: z.string() }),
});

function agentGraph(model: FakeChatModel, tools: ConstructorParameters<typeof ToolNode>[0]) {
  const bound = model.bindTools([...tools]);
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state) => ({ messages: [await bound.invoke(state.messages)] }))
    .addNode("tools", new ToolNode(tools))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addEdge("tools", "agent");
}

describe("ToolNode in a StateGraph", () => {
  it("runs the agent loop: model → tools → model → end", async () => {
    const model = new FakeChatModel({
      responses: [
        aiCalling(call("get_weather", "c1", { city: "Suzhou" }), call("get_weather", "c2", { city: "Oslo" })),
        "Sunny in both.",
      ],
    });
    const result = await agentGraph(model, [weather])
      .compile()
      .invoke({ messages: [new HumanMessage("Weather?")] });
    expect(result.messages.map((m: BaseMessage) => [m.getType(), m.text])).toEqual([
      ["human", "Weather?"],
      ["ai", ""],
      ["tool", "It's sunny in Suzhou."],
      ["tool", "It's sunny in Oslo."],
      ["ai", "Sunny in both."],
    ]);
    // the second model call saw both answers, matched to their calls
    const seen = model.calls[1]?.filter((m) => m.getType() === "tool") as ToolMessage[];
    expect(seen.map((m) => m.tool_call_id)).toEqual(["c1", "c2"]);
  });

  it("gives tools the graph state, the run context and the graph's store", async () => {
    const remember = tool(
      async ({ fact }, runtime) => {
        const ctx = runtime.context as { userId: string };
        await runtime.store?.put(["facts", ctx.userId], "latest", { fact });
        const item = await runtime.store?.get(["facts", ctx.userId], "latest");
        const state = runtime.state as { messages: BaseMessage[] };
        return `${ctx.userId} (${state.messages.length} messages): ${String(item?.value.fact)}`;
      },
      { name: "remember", description: "", schema: z.object({ fact: z.string() }) },
    );
    const store = new InMemoryStore();
    const model = new FakeChatModel({
      responses: [aiCalling(call("remember", "c1", { fact: "likes tea" })), "ok"],
    });
    const graph = agentGraph(model, [remember]).compile({ store });
    const result = await graph.invoke(
      { messages: [new HumanMessage("remember")] },
      { context: { userId: "u7" } },
    );
    expect(result.messages[2]?.text).toBe("u7 (2 messages): likes tea");
    expect((await store.get(["facts", "u7"], "latest"))?.value).toEqual({ fact: "likes tea" });
  });

  it("applies a Command's update and follows its goto", async () => {
    const State = Annotation.Root({
      ...MessagesAnnotation.spec,
      verdict: Annotation<string>,
    });
    const decide = tool(
      async ({ verdict }, runtime) =>
        new Command({
          update: {
            verdict,
            messages: [new ToolMessage({ content: `decided ${verdict}`, tool_call_id: runtime.toolCallId })],
          },
          goto: "report",
        }),
      { name: "decide", description: "", schema: z.object({ verdict: z.string() }) },
    );
    const graph = new StateGraph(State)
      .addNode("tools", new ToolNode([decide, weather]), { ends: ["report"] })
      .addNode("report", (state) => ({ messages: [new AIMessage(`verdict: ${state.verdict}`)] }))
      .addEdge(START, "tools")
      .compile();
    const result = await graph.invoke({
      messages: [
        aiCalling(call("get_weather", "w", { city: "Pisa" }), call("decide", "d", { verdict: "yes" })),
      ],
    });
    expect(result.verdict).toBe("yes");
    expect(result.messages.map((m: BaseMessage) => m.text)).toEqual([
      "",
      "It's sunny in Pisa.",
      "decided yes",
      "verdict: yes",
    ]);
  });

  it("routes a Command with graph: Command.PARENT to the parent graph", async () => {
    const escalate = tool(
      async (_args, runtime) =>
        new Command({
          graph: Command.PARENT,
          goto: "human",
          update: { messages: [new ToolMessage({ content: "escalated", tool_call_id: runtime.toolCallId })] },
        }),
      { name: "escalate", description: "", schema: z.object({}) },
    );
    const inner = new StateGraph(MessagesAnnotation)
      .addNode("tools", new ToolNode([escalate]))
      .addEdge(START, "tools")
      .compile();
    const outer = new StateGraph(MessagesAnnotation)
      .addNode("team", inner, { ends: ["human"] })
      .addNode("human", () => ({ messages: [new AIMessage("a human takes over")] }))
      .addEdge(START, "team")
      .compile();
    const result = await outer.invoke({ messages: [aiCalling(call("escalate", "e1"))] });
    expect(result.messages.map((m: BaseMessage) => m.text)).toEqual(["", "escalated", "a human takes over"]);
  });

  it("sends merged parent Sends from several calls as one parent command", async () => {
    const State = Annotation.Root({
      ...MessagesAnnotation.spec,
      done: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    });
    const dispatch = tool(
      async ({ job }) => new Command({ graph: Command.PARENT, goto: [new Send("worker", { job })] }),
      { name: "dispatch", description: "", schema: z.object({ job: z.string() }) },
    );
    const inner = new StateGraph(MessagesAnnotation)
      .addNode("tools", new ToolNode([dispatch]))
      .addEdge(START, "tools")
      .compile();
    const outer = new StateGraph(State)
      .addNode("team", inner, { ends: ["worker"] })
      .addNode("worker", (arg: unknown) => ({ done: [(arg as { job: string }).job] }))
      .addEdge(START, "team")
      .compile();
    const result = await outer.invoke({
      messages: [aiCalling(call("dispatch", "1", { job: "a" }), call("dispatch", "2", { job: "b" }))],
    });
    expect([...result.done].sort()).toEqual(["a", "b"]);
  });

  it("runs the Send payload { ...state, lg_tool_call } one call per task", async () => {
    const seenStates: unknown[] = [];
    const spy = tool(
      async ({ n }, runtime) => {
        seenStates.push((runtime.state as { messages: unknown[] }).messages.length);
        return `got ${n}`;
      },
      { name: "spy", description: "", schema: z.object({ n: z.number() }) },
    );
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("agent", () => ({
        messages: [aiCalling(call("spy", "a", { n: 1 }), call("spy", "b", { n: 2 }))],
      }))
      .addNode("tools", new ToolNode([spy]))
      .addEdge(START, "agent")
      .addConditionalEdges("agent", (state) => {
        const last = state.messages[state.messages.length - 1] as AIMessage;
        return last.tool_calls.map((tc) => new Send("tools", { ...state, lg_tool_call: tc }));
      })
      .compile();
    const result = await graph.invoke({ messages: [new HumanMessage("go")] });
    expect(
      result.messages.slice(2).map((m: BaseMessage) => [(m as ToolMessage).tool_call_id, m.text]),
    ).toEqual([
      ["a", "got 1"],
      ["b", "got 2"],
    ]);
    expect(seenStates).toEqual([2, 2]);
  });

  it("reads the state from the graph when a Send carries only the tool call", async () => {
    const seen: [unknown, number][] = [];
    const spy = tool(
      async ({ n }, runtime) => {
        const state = runtime.state as { messages: BaseMessage[]; topic: string };
        seen.push([state.topic, state.messages.length]);
        return `got ${n}`;
      },
      { name: "spy", description: "", schema: z.object({ n: z.number() }) },
    );
    const State = Annotation.Root({ ...MessagesAnnotation.spec, topic: Annotation<string> });
    const graph = new StateGraph(State)
      .addNode("agent", () => ({
        messages: [aiCalling(call("spy", "a", { n: 1 }), call("spy", "b", { n: 2 }))],
      }))
      .addNode("tools", new ToolNode([spy]))
      .addEdge(START, "agent")
      .addConditionalEdges("agent", (state) => {
        const last = state.messages[state.messages.length - 1] as AIMessage;
        // the payload is the call alone: no copy of the state travels with it
        return last.tool_calls.map((tc) => new Send("tools", [tc]));
      })
      .compile();
    const result = await graph.invoke({ messages: [new HumanMessage("go")], topic: "weather" });
    expect(result.messages.slice(2).map((m: BaseMessage) => m.text)).toEqual(["got 1", "got 2"]);
    expect(seen).toEqual([
      ["weather", 2],
      ["weather", 2],
    ]);
  });
});

type Interrupted = { messages: BaseMessage[]; __interrupt__?: { id: string; value: unknown }[] };

describe("ToolNode's state type argument (LangGraph.js's ToolNode<T>)", () => {
  it("new ToolNode<typeof State.State>(tools) compiles and runs as the node", async () => {
    // LangGraph.js's multi-agent and RAG examples write the graph's state type as the argument
    const AgentState = Annotation.Root({
      messages: Annotation<BaseMessage[]>({ reducer: (x, y) => x.concat(y) }),
      sender: Annotation<string>({ reducer: (x, y) => y ?? x ?? "user", default: () => "user" }),
    });
    const toolNode = new ToolNode<typeof AgentState.State>([weather]);
    const graph = new StateGraph(AgentState)
      .addNode("call_tool", toolNode)
      .addEdge(START, "call_tool")
      .compile();
    const out = await graph.invoke({ messages: [aiCalling(call("get_weather", "c1", { city: "Oslo" }))] });
    expect(out.messages.at(-1)?.content).toBe("It's sunny in Oslo.");
    expect(out.sender).toBe("user");
  });
});

describe("a handoff next to another tool call", () => {
  it("streams the other tool's message as the tools node's update, without an id, as it hands off", async () => {
    const toDesk = tool(
      async (_args, runtime) =>
        new Command({
          graph: Command.PARENT,
          goto: "desk",
          update: { messages: [new ToolMessage({ content: "to desk", tool_call_id: runtime.toolCallId })] },
        }),
      { name: "to_desk", description: "Hand off to the desk.", schema: z.object({}) },
    );
    const inner = agentGraph(
      new FakeChatModel({
        responses: [aiCalling(call("to_desk", "h1"), call("get_weather", "w1", { city: "Oslo" }))],
      }),
      [toDesk, weather],
    ).compile();
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("front", inner, { ends: ["desk"] })
      .addNode("desk", () => ({ messages: [new AIMessage("desk here")] }))
      .addEdge(START, "front")
      .compile();
    const updates: unknown[] = [];
    for await (const [namespace, chunk] of await graph.stream(
      { messages: [new HumanMessage("hi")] },
      { streamMode: "updates", subgraphs: true },
    )) {
      const tools = (chunk as { tools?: { messages: ToolMessage[] } }).tools;
      if (namespace.length > 0 && tools !== undefined) {
        updates.push(tools.messages.map((m) => [m.content, m.tool_call_id, m.id]));
      }
    }
    expect(updates).toEqual([[["It's sunny in Oslo.", "w1", undefined]]]);
  });
});

describe("interrupts inside tools", () => {
  it("pause the run (not turned into an error message) and resume with the answer", async () => {
    let runs = 0;
    const deploy = tool(
      async ({ env }) => {
        runs += 1;
        const answer = interrupt({ question: `Deploy to ${env}?` });
        return `deploy to ${env}: ${String(answer)}`;
      },
      { name: "deploy", description: "", schema: z.object({ env: z.string() }) },
    );
    const model = new FakeChatModel({
      responses: [aiCalling(call("deploy", "d1", { env: "prod" })), "Deployed."],
    });
    const graph = agentGraph(model, [deploy]).compile({ checkpointer: new MemorySaver() });
    const thread = { configurable: { thread_id: "deploy-1" } };

    const paused = (await graph.invoke({ messages: [new HumanMessage("ship it")] }, thread)) as Interrupted;
    expect(paused.__interrupt__?.map((i) => i.value)).toEqual([{ question: "Deploy to prod?" }]);
    expect(paused.messages.some((m: BaseMessage) => m.getType() === "tool")).toBe(false);
    expect((await graph.getState(thread)).next).toEqual(["tools"]);

    const resumed = (await graph.invoke(new Command({ resume: "approved" }), thread)) as Interrupted;
    expect(resumed.__interrupt__).toBeUndefined();
    expect(resumed.messages.map((m: BaseMessage) => m.text).slice(-2)).toEqual([
      "deploy to prod: approved",
      "Deployed.",
    ]);
    expect(runs).toBe(2);
  });
});

describe("idempotency keys of tool calls", () => {
  it("differ per call and stay the same when the node runs again after an interrupt", async () => {
    const keys: Record<string, string[]> = {};
    const record = tool(
      async ({ label }, runtime) => {
        const info = (runtime as { executionInfo?: { idempotencyKey?: string } }).executionInfo;
        keys[label] = [...(keys[label] ?? []), String(info?.idempotencyKey)];
        if (label === "gate") interrupt("continue?");
        return label;
      },
      { name: "record", description: "", schema: z.object({ label: z.string() }) },
    );
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("tools", new ToolNode([record]))
      .addEdge(START, "tools")
      .compile({ checkpointer: new MemorySaver() });
    const thread = { configurable: { thread_id: "keys" } };
    await graph.invoke(
      {
        messages: [
          aiCalling(call("record", "c1", { label: "side" }), call("record", "c2", { label: "gate" })),
        ],
      },
      thread,
    );
    await graph.invoke(new Command({ resume: "yes" }), thread);
    const side = keys.side ?? [];
    const gate = keys.gate ?? [];
    expect(side).toHaveLength(2);
    expect(gate).toHaveLength(2);
    expect(side[0]).toBe(side[1]);
    expect(gate[0]).toBe(gate[1]);
    expect(side[0]).not.toBe(gate[0]);
    expect(side[0]).toMatch(/:c1$/);
  });
});
