import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import { Annotation, MemorySaver, START, StateGraph } from "../index.js";
import type { AIMessage, BaseMessage } from "../messages/index.js";
import { FakeChatModel } from "../testing/index.js";
import { tool } from "../tools/index.js";
import { question } from "./agent.test-helpers.js";
import {
  type BuiltInState,
  createAgent,
  createMiddleware,
  type InferAgentContext,
  type InferAgentResponse,
  type InferAgentState,
  type InferAgentTools,
  providerStrategy,
  toolStrategy,
} from "./index.js";

const counter = createMiddleware({
  name: "Counter",
  stateSchema: z.object({ turns: z.number().default(0) }),
  beforeModel: (state) => {
    expectTypeOf(state.turns).toEqualTypeOf<number>();
    expectTypeOf(state.messages).toEqualTypeOf<BaseMessage[]>();
    return { turns: state.turns + 1 };
  },
});
const tagger = createMiddleware({
  name: "Tagger",
  stateSchema: z.object({ tags: z.array(z.string()).default([]), _secret: z.string().optional() }),
  afterModel: (state) => ({ tags: [...state.tags, "seen"] }),
});
const user = createMiddleware({
  name: "User",
  stateSchema: z.object({ userId: z.string().optional() }),
  contextSchema: z.object({ locale: z.string() }),
  beforeAgent: (_state, runtime) => {
    expectTypeOf(runtime.context.locale).toEqualTypeOf<string>();
  },
});
const plain = createMiddleware({ name: "Plain", afterAgent: () => undefined });
const wrapper = createMiddleware({
  name: "Wrapper",
  wrapModelCall: (request, handler) => handler(request),
});

describe("createAgent types", () => {
  it("types the v3 run's state snapshots with the interrupts, as LangChain.js's agent state", async () => {
    const agent = createAgent({ model: new FakeChatModel({ responses: ["hi"] }), middleware: [counter] });
    const run = await agent.streamEvents({ messages: [{ role: "user", content: "q" }] }, { version: "v3" });
    const seen: unknown[] = [];
    for await (const snapshot of run.values) {
      expectTypeOf(snapshot.__interrupt__).toEqualTypeOf<{ id: string; value: unknown }[] | undefined>();
      expectTypeOf(snapshot.turns).toEqualTypeOf<number>();
      seen.push([snapshot.messages.length, snapshot.__interrupt__]);
    }
    expect(seen).toEqual([
      [1, undefined],
      [1, undefined],
      [2, undefined],
    ]);
  });

  it("types a v3 run's assembled message as an AIMessage, as LangChain.js does", async () => {
    // the event-streaming docs page reads `(await message.output).content`
    const agent = createAgent({ model: new FakeChatModel({ responses: ["hello there"] }) });
    const run = await agent.streamEvents({ messages: [{ role: "user", content: "q" }] }, { version: "v3" });
    const texts: unknown[] = [];
    for await (const message of run.messages) {
      const full = await message.output;
      expectTypeOf(full).toEqualTypeOf<AIMessage>();
      texts.push([full.getType(), full.content]);
    }
    expect(texts).toEqual([["ai", [{ type: "text", text: "hello there" }]]]);
  });

  it("infers the state of five middlewares and the structured response", async () => {
    const agent = createAgent({
      model: new FakeChatModel({ responses: [] }),
      middleware: [counter, tagger, user, plain, wrapper],
      responseFormat: toolStrategy(z.object({ city: z.string() })),
    });
    type Result = Awaited<ReturnType<typeof agent.invoke>>;
    expectTypeOf<Result["turns"]>().toEqualTypeOf<number>();
    expectTypeOf<Result["tags"]>().toEqualTypeOf<string[]>();
    expectTypeOf<Result["userId"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Result["structuredResponse"]>().toEqualTypeOf<{ city: string }>();
    expectTypeOf<Result["messages"]>().toEqualTypeOf<BaseMessage[]>();
    // @ts-expect-error private fields are not part of the output
    expectTypeOf<Result["_secret"]>().toBeUnknown();
    // @ts-expect-error the input must have messages
    const bad: Parameters<typeof agent.invoke>[0] = { turns: 1 };
    void bad;
  });

  it("has no structuredResponse without a responseFormat", () => {
    const agent = createAgent({ model: new FakeChatModel({ responses: [] }) });
    type Result = Awaited<ReturnType<typeof agent.invoke>>;
    expectTypeOf<Result>().not.toHaveProperty("structuredResponse");
    expectTypeOf<Result["messages"]>().toEqualTypeOf<BaseMessage[]>();
  });

  it("types the structured response of a bare schema, a provider strategy and a schema list", () => {
    const model = new FakeChatModel({ responses: [] });
    const bare = createAgent({ model, responseFormat: z.object({ a: z.number() }) });
    expectTypeOf<Awaited<ReturnType<typeof bare.invoke>>["structuredResponse"]>().toEqualTypeOf<{
      a: number;
    }>();
    const provider = createAgent({ model, responseFormat: providerStrategy(z.object({ b: z.boolean() })) });
    expectTypeOf<Awaited<ReturnType<typeof provider.invoke>>["structuredResponse"]>().toEqualTypeOf<{
      b: boolean;
    }>();
    const json = createAgent({ model, responseFormat: { type: "object", properties: {} } });
    expectTypeOf<Awaited<ReturnType<typeof json.invoke>>["structuredResponse"]>().toEqualTypeOf<
      Record<string, unknown>
    >();
  });

  it("merges an Annotation stateSchema and types the input", async () => {
    const State = Annotation.Root({ topic: Annotation<string> });
    const agent = createAgent({ model: new FakeChatModel({ responses: ["x"] }), stateSchema: State });
    const result = await agent.invoke({ ...question(), topic: "t" });
    expectTypeOf(result.topic).toEqualTypeOf<string>();
    // @ts-expect-error topic is a string
    void agent.invoke({ ...question(), topic: 1 }).catch(() => undefined);
  });

  it("types getState's and getStateHistory's values as the agent's state", async () => {
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["hello"] }),
      middleware: [counter],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "typed" } };
    await agent.invoke(question(), config);
    const snapshot = await agent.getState(config);
    expectTypeOf(snapshot.values.messages).toEqualTypeOf<BaseMessage[]>();
    expectTypeOf(snapshot.values.turns).toEqualTypeOf<number>();
    expect(snapshot.values.messages.map((m) => m.getType())).toEqual(["human", "ai"]);
    expect(snapshot.values.turns).toBe(1);
    for await (const past of agent.getStateHistory(config)) {
      expectTypeOf(past.values.turns).toEqualTypeOf<number>();
    }
    // @ts-expect-error not a field of this agent's state
    void snapshot.values.nothing;
  });

  it("rejects an unknown jump target and a wrong hook update", () => {
    const bad = createMiddleware({
      name: "X",
      // @ts-expect-error not a jump target
      beforeModel: { canJumpTo: ["elsewhere"], hook: () => undefined },
    });
    expect(() => createAgent({ model: new FakeChatModel({ responses: [] }), middleware: [bad] })).toThrow(
      "Invalid jump target",
    );
    createMiddleware({
      name: "Y",
      stateSchema: z.object({ n: z.number() }),
      // @ts-expect-error n is a number
      beforeModel: () => ({ n: "one" }),
    });
  });

  it("types the context of Zod 3 (zod/v3) context schemas, in hooks and in a run's options", async () => {
    const withUser = createMiddleware({
      name: "WithUser",
      contextSchema: z3.object({ userId: z3.string(), locale: z3.string().default("en") }),
      beforeModel: (_state, runtime) => {
        expectTypeOf(runtime.context.userId).toEqualTypeOf<string>();
        expectTypeOf(runtime.context.locale).toEqualTypeOf<string>();
      },
    });
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["hi", "hi"] }),
      middleware: [withUser],
      contextSchema: z3.object({ tenant: z3.string() }),
    });
    await agent.invoke(question(), { context: { userId: "u1", tenant: "t1" } });
    await agent
      // @ts-expect-error userId is a string
      .invoke(question(), { context: { userId: 1, tenant: "t1" } })
      .catch(() => undefined);
  });

  it("streams Server-Sent Events bytes with encoding: text/event-stream", async () => {
    const agent = createAgent({ model: new FakeChatModel({ responses: ["hello"] }) });
    const stream = await agent.stream(question(), {
      encoding: "text/event-stream",
      streamMode: ["values", "updates"],
    });
    let text = "";
    for await (const chunk of stream) {
      expectTypeOf(chunk).toEqualTypeOf<Uint8Array>();
      text += new TextDecoder().decode(chunk);
    }
    expect(text).toContain("event: updates\n");
  });

  it("types the thread_id of a hook's runtime.configurable as a string", () => {
    createMiddleware({
      name: "Thread",
      beforeAgent: (_state, runtime) => {
        expectTypeOf(runtime.configurable?.thread_id).toEqualTypeOf<string | undefined>();
        expectTypeOf(runtime.configurable?.other).toBeUnknown();
      },
    });
  });

  it("names an agent's state, context, response and tools with LangChain.js's Infer helpers", () => {
    const agent = createAgent({
      model: new FakeChatModel({ responses: [] }),
      middleware: [counter, tagger, user],
      contextSchema: z.object({ tenant: z.string() }),
      responseFormat: z.object({ answer: z.string() }),
    });
    expectTypeOf<InferAgentState<typeof agent>>().toEqualTypeOf<{
      turns: number;
      tags: string[];
      userId?: string | undefined;
    }>();
    expectTypeOf<InferAgentContext<typeof agent>>().toEqualTypeOf<{ tenant: string; locale: string }>();
    expectTypeOf<InferAgentResponse<typeof agent>>().toEqualTypeOf<{ answer: string }>();
    expectTypeOf<InferAgentTools<typeof agent>>().toExtend<readonly unknown[]>();
    expectTypeOf<BuiltInState["messages"]>().toEqualTypeOf<BaseMessage[]>();
  });

  it("carries LangChain.js's ~agentTypes and the compiled graph's ~RunOutput / ~NodeType, which LangGraph's frontend SDK infers useStream<typeof agent> from", () => {
    // the SDK reads Tools (tool call names and args), State._zod.input (the state), the
    // __responseFormatUndefined marker (no structuredResponse), and a graph's ~RunOutput / ~NodeType
    const getWeather = tool(async ({ location }) => location, {
      name: "get_weather",
      description: "d",
      schema: z.object({ location: z.string() }),
    });
    const agent = createAgent({
      model: new FakeChatModel({ responses: [] }),
      tools: [getWeather],
      middleware: [counter],
      responseFormat: z.object({ answer: z.string() }),
    });
    type Config = (typeof agent)["~agentTypes"];
    expectTypeOf<Config["Tools"][number]["name"]>().toEqualTypeOf<"get_weather">();
    expectTypeOf<Config["State"]["_zod"]["input"]>().toEqualTypeOf<{ turns: number }>();
    expectTypeOf<Config["Response"]>().toEqualTypeOf<{ answer: string }>();
    const plain = createAgent({ model: new FakeChatModel({ responses: [] }) });
    expectTypeOf<(typeof plain)["~agentTypes"]["Response"]>().toEqualTypeOf<{
      __responseFormatUndefined: true;
    }>();
    const graph = new StateGraph(Annotation.Root({ topic: Annotation<string> }))
      .addNode("research", () => ({ topic: "x" }))
      .addEdge(START, "research")
      .compile();
    expectTypeOf<(typeof graph)["~RunOutput"]>().toEqualTypeOf<{ topic: string }>();
    expectTypeOf<(typeof graph)["~NodeType"]>().toEqualTypeOf<"research" | "__start__">();
  });
});
