/**
 * createAgent behaviour found different from LangChain.js 1.5.14 by running its createAgent
 * test suite against agentgraph: checkpointer and store set after creation, the run defaults
 * baked into `agent.graph`, and Zod 3 (`zod/v3`) state schemas.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { z as z4 } from "zod";
import { z as z3 } from "zod/v3";
import { type BaseCheckpointSaver, type BaseStore, InMemoryStore, MemorySaver } from "../index.js";
import { HumanMessage } from "../messages/index.js";
import { FakeChatModel } from "../testing/index.js";
import { tool } from "../tools/index.js";
import { withLangGraph } from "../zod/index.js";
import { createAgent, createMiddleware } from "./index.js";

describe("checkpointer and store set after createAgent", () => {
  it("runs persist to a checkpointer assigned to the agent", async () => {
    const agent = createAgent({ model: new FakeChatModel({ responses: ["hello"] }), tools: [] });
    expect(agent.checkpointer).toBeUndefined();
    expectTypeOf(agent.checkpointer).toEqualTypeOf<BaseCheckpointSaver | boolean | undefined>();
    const saver = new MemorySaver();
    agent.checkpointer = saver;
    expect(agent.checkpointer).toBe(saver);
    expect(agent.graph.checkpointer).toBe(saver);
    const thread = { configurable: { thread_id: "late-saver" } };
    await agent.invoke({ messages: [new HumanMessage("hi")] }, thread);
    const saved = await saver.get(thread);
    expect(saved?.channel_values.messages).toHaveLength(2);
    expect((await agent.getState(thread)).values.messages).toHaveLength(2);
  });

  it("an assigned store reaches the graph, and both survive withConfig", async () => {
    const agent = createAgent({ model: new FakeChatModel({ responses: ["hello"] }), tools: [] });
    expect(agent.store).toBeUndefined();
    expectTypeOf(agent.store).toEqualTypeOf<BaseStore | undefined>();
    const store = new InMemoryStore();
    const saver = new MemorySaver();
    agent.store = store;
    agent.checkpointer = saver;
    expect(agent.graph.store).toBe(store);
    const configured = agent.withConfig({ tags: ["x"] });
    expect(configured.store).toBe(store);
    expect(configured.checkpointer).toBe(saver);
  });
});

describe("run defaults on agent.graph", () => {
  it("carries LangChain.js's agent metadata and the agent name", () => {
    const agent = createAgent({ model: new FakeChatModel({ responses: [] }), tools: [], name: "weather" });
    expect(agent.graph.config?.metadata).toMatchObject({
      ls_integration: "langchain_create_agent",
      lc_agent_name: "weather",
    });
    expect(agent.graph.config?.configurable?.ls_agent_type).toBe("root");
  });

  it("the agent's own streamEvents (its start, stream and end) carry that metadata too", async () => {
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["hi"] }),
      tools: [],
      name: "weather",
    });
    const own: Record<string, unknown>[] = [];
    for await (const event of agent.streamEvents(
      { messages: [{ role: "user", content: "x" }] },
      { version: "v2" },
    )) {
      if (event.name === "weather") own.push(event.metadata);
    }
    expect(own.length).toBeGreaterThanOrEqual(2);
    for (const metadata of own) {
      expect(metadata).toMatchObject({ ls_integration: "langchain_create_agent", lc_agent_name: "weather" });
    }
  });

  it("withConfig defaults reach agent.graph, without repeating tags", () => {
    const agent = createAgent({ model: new FakeChatModel({ responses: [] }), tools: [] })
      .withConfig({ recursionLimit: 500, tags: ["a"] })
      .withConfig({ tags: ["a", "b"] });
    expect(agent.graph.config?.recursionLimit).toBe(500);
    expect(agent.graph.config?.tags).toEqual(["a", "b"]);
  });

  it("a tool run through agent.graph directly sees the agent name", async () => {
    let seen: Record<string, unknown> | undefined;
    const probe = tool(
      async (_args, runtime) => {
        seen = runtime.config.metadata;
        return "ok";
      },
      { name: "probe", description: "Records its metadata.", schema: z3.object({}) },
    );
    const model = new FakeChatModel({
      responses: [
        { role: "ai", content: "", tool_calls: [{ id: "c1", name: "probe", args: {} }] } as never,
        "done",
      ],
    });
    const agent = createAgent({ model, tools: [probe], name: "direct" });
    await agent.graph.invoke({ messages: [new HumanMessage("go")] });
    expect(seen?.lc_agent_name).toBe("direct");
  });
});

describe("Zod 3 state schemas", () => {
  it("an agent stateSchema from zod/v3 is accepted and its fields flow through", async () => {
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["hello"] }),
      tools: [],
      stateSchema: z3.object({ userId: z3.string(), _hidden: z3.string().optional() }),
    });
    const out = await agent.invoke({ messages: [new HumanMessage("hi")], userId: "u1" });
    expectTypeOf(out.userId).toEqualTypeOf<string>();
    expect(out.userId).toBe("u1");
    expect("_hidden" in out).toBe(false);
  });

  it("a middleware stateSchema from zod/v3 gets its defaults and its hook updates", async () => {
    const counter = createMiddleware({
      name: "Counter",
      stateSchema: z3.object({ calls: z3.number().default(0), label: z3.string().default("none") }),
      beforeModel: (state) => ({ calls: state.calls + 1 }),
    });
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["hello"] }),
      tools: [],
      middleware: [counter],
    });
    const out = await agent.invoke({ messages: [new HumanMessage("hi")] });
    expectTypeOf(out.calls).toEqualTypeOf<number>();
    expect(out.calls).toBe(1);
    expect(out.label).toBe("none");
  });
});

describe("middleware state fields with a withLangGraph default", () => {
  it("may be left out of the input: the registered default is the value", async () => {
    const tagged = createMiddleware({
      name: "Tagged",
      stateSchema: z4.object({
        label: withLangGraph(z4.string(), { default: () => "unset" }),
        history: withLangGraph(z4.array(z4.string()), {
          reducer: { fn: (left: string[], right: string[]) => [...left, ...right] },
          default: () => ["start"],
        }),
      }),
    });
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["a", "b"] }),
      tools: [],
      middleware: [tagged],
    });
    const first = await agent.invoke({ messages: [new HumanMessage("hi")] });
    expect(first.label).toBe("unset");
    expect(first.history).toEqual(["start"]);
    const second = await agent.invoke({ messages: [new HumanMessage("hi")], label: "set", history: ["x"] });
    expect(second.label).toBe("set");
    expect(second.history).toEqual(["start", "x"]);
  });
});
