/**
 * Type tests for `createAgent` (checked by `tsc -p tsconfig.json`; the runtime part runs under
 * vitest): an agent with six middlewares (custom Zod and Annotation ones, built-ins) and a
 * response format infers its state, its structured response and its context.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { Annotation, MemorySaver } from "../index.js";
import type { BaseMessage } from "../messages/index.js";
import { FakeChatModel } from "../testing/index.js";
import { asking, call, question } from "./agent.test-helpers.js";
import {
  type AgentRuntime,
  createAgent,
  createMiddleware,
  type DynamicSystemPromptMiddlewareConfig,
  humanInTheLoopMiddleware,
  type InferAgentTools,
  type InferMergedState,
  type InferMiddlewareContext,
  type InferMiddlewareContexts,
  type InferMiddlewareState,
  type InferMiddlewareStates,
  type InferSchemaInput,
  modelCallLimitMiddleware,
  providerStrategy,
  summarizationMiddleware,
  type Todo,
  type ToolResult,
  type TypedToolStrategy,
  todoListMiddleware,
  tool,
  toolStrategy,
  type UserInput,
  type WrapModelCallHandler,
} from "./index.js";

/** Zod state (one public field with a default, one private one) and a Zod context. */
const counter = createMiddleware({
  name: "Counter",
  stateSchema: z.object({ turns: z.number().default(0), _seen: z.string().optional() }),
  contextSchema: z.object({ userId: z.string(), locale: z.string().optional() }),
  beforeModel: {
    canJumpTo: ["end"],
    hook: (state, runtime) => {
      expectTypeOf(state.turns).toEqualTypeOf<number>();
      expectTypeOf(state._seen).toEqualTypeOf<string | undefined>();
      expectTypeOf(state.messages).toEqualTypeOf<BaseMessage[]>();
      expectTypeOf(runtime.context.userId).toEqualTypeOf<string>();
      expectTypeOf(runtime.context.locale).toEqualTypeOf<string | undefined>();
      // @ts-expect-error a hook sees only its own middleware's state
      void state.topic;
      // @ts-expect-error userId is a string
      expectTypeOf(runtime.context.userId).toEqualTypeOf<number>();
      return state.turns > 10 ? { jumpTo: "end" } : { turns: state.turns + 1 };
    },
  },
});

/** Annotation state (a public and a private field) and an Annotation context. */
const topics = createMiddleware({
  name: "Topics",
  stateSchema: Annotation.Root({
    topic: Annotation<string>,
    _scratch: Annotation<number[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  }),
  contextSchema: Annotation.Root({ tenant: Annotation<string> }),
  afterModel: (state, runtime) => {
    expectTypeOf(state.topic).toEqualTypeOf<string>();
    expectTypeOf(state._scratch).toEqualTypeOf<number[]>();
    expectTypeOf(runtime.context.tenant).toEqualTypeOf<string>();
    // @ts-expect-error a hook sees only its own middleware's state
    void state.turns;
    return { _scratch: [state.messages.length] };
  },
  wrapModelCall: (request, handler) => {
    expectTypeOf(request.state.topic).toEqualTypeOf<string>();
    expectTypeOf(request.runtime).toEqualTypeOf<AgentRuntime<{ tenant: string }>>();
    return handler(request);
  },
});

const Weather = z.object({ city: z.string(), sunny: z.boolean() }).meta({ title: "Weather" });
const Forecast = z.object({ days: z.array(z.number()) });

/** Keeps calls that only exist for their types from running. */
function typeOnly(_calls: () => void): void {}

function fiveMiddlewareAgent() {
  return createAgent({
    model: new FakeChatModel({
      responses: [asking("a1", call("Weather", { city: "Suzhou", sunny: true }, "c1"))],
    }),
    middleware: [
      counter,
      topics,
      todoListMiddleware(),
      modelCallLimitMiddleware({ runLimit: 5 }),
      humanInTheLoopMiddleware({ interruptOn: { search: true } }),
      summarizationMiddleware({ model: new FakeChatModel({ responses: [] }), trigger: { tokens: 10_000 } }),
    ],
    responseFormat: Weather,
    checkpointer: new MemorySaver(),
  });
}

describe("createAgent types", () => {
  it("infers the state, the structured response and the context of six middlewares", () => {
    const agent = fiveMiddlewareAgent();
    type Result = Awaited<ReturnType<typeof agent.invoke>>;
    expectTypeOf<Result["messages"]>().toEqualTypeOf<BaseMessage[]>();
    expectTypeOf<Result["turns"]>().toEqualTypeOf<number>();
    expectTypeOf<Result["topic"]>().toEqualTypeOf<string>();
    expectTypeOf<Result["todos"]>().toEqualTypeOf<Todo[]>();
    expectTypeOf<Result["threadModelCallCount"]>().toEqualTypeOf<number>();
    expectTypeOf<Result["runModelCallCount"]>().toEqualTypeOf<number>();
    expectTypeOf<Result["structuredResponse"]>().toEqualTypeOf<{ city: string; sunny: boolean }>();
    expectTypeOf<Result>().not.toHaveProperty("_seen");
    expectTypeOf<Result>().not.toHaveProperty("_scratch");
    expectTypeOf<Result>().not.toHaveProperty("jumpTo");

    type Options = NonNullable<Parameters<typeof agent.invoke>[1]>;
    type Context = Options["context"];
    expectTypeOf<Context["userId"]>().toEqualTypeOf<string>();
    expectTypeOf<Context["tenant"]>().toEqualTypeOf<string>();
    expectTypeOf<Context["locale"]>().toEqualTypeOf<string | undefined>();
    // the built-ins' context overrides are typed too
    expectTypeOf<Context["runLimit"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<{ userId: string; tenant: string }>().toExtend<Context>();
    expectTypeOf<{ userId: string; tenant: string; runLimit: "3" }>().not.toExtend<Context>();
    expectTypeOf<{ tenant: string }>().not.toExtend<Context>();
  });

  it("checks the input, the context and the output", async () => {
    const agent = fiveMiddlewareAgent();
    const config = { configurable: { thread_id: "t" }, context: { userId: "u", tenant: "acme" } };
    const result = await agent.invoke({ ...question(), topic: "weather", turns: 0 }, config);
    expect(result.structuredResponse).toEqual({ city: "Suzhou", sunny: true });
    expect(result.turns).toBe(1);
    expect(result.topic).toBe("weather");
    expect(result.todos).toEqual([]);
    expect(result.runModelCallCount).toBe(0);
    expect("_seen" in result || "_scratch" in result).toBe(false);
    expectTypeOf(result.structuredResponse.city).toEqualTypeOf<string>();
    typeOnly(() => {
      // @ts-expect-error turns is a number
      void agent.invoke({ ...question(), topic: "weather", turns: "zero" }, config);
      // @ts-expect-error todos hold { content, status } items
      void agent.invoke({ ...question(), topic: "weather", todos: ["x"] }, config);
      // @ts-expect-error the input needs messages
      void agent.invoke({ topic: "weather" }, config);
      // @ts-expect-error the context has required fields
      void agent.invoke(question(), { configurable: { thread_id: "t" } });
      // @ts-expect-error userId is required by the Counter middleware's context
      void agent.invoke(question(), { context: { tenant: "acme" } });
      // @ts-expect-error tenant is a string
      void agent.invoke(question(), { context: { userId: "u", tenant: 1 } });
    });
    // @ts-expect-error there is no such field in the state
    void result.missing;
    // @ts-expect-error private fields are not returned
    void result._seen;
  });

  it("types structuredResponse from each responseFormat form", () => {
    const model = new FakeChatModel({ responses: [] });
    const bare = createAgent({ model, responseFormat: Weather });
    expectTypeOf<Awaited<ReturnType<typeof bare.invoke>>["structuredResponse"]>().toEqualTypeOf<
      z.infer<typeof Weather>
    >();
    const viaTool = createAgent({ model, responseFormat: toolStrategy(Weather) });
    expectTypeOf<Awaited<ReturnType<typeof viaTool.invoke>>["structuredResponse"]>().toEqualTypeOf<
      z.infer<typeof Weather>
    >();
    const viaProvider = createAgent({ model, responseFormat: providerStrategy(Weather) });
    expectTypeOf<Awaited<ReturnType<typeof viaProvider.invoke>>["structuredResponse"]>().toEqualTypeOf<
      z.infer<typeof Weather>
    >();
    const list = createAgent({ model, responseFormat: [Weather, Forecast] });
    expectTypeOf<Awaited<ReturnType<typeof list.invoke>>["structuredResponse"]>().toEqualTypeOf<
      z.infer<typeof Weather> | z.infer<typeof Forecast>
    >();
    const toolList = createAgent({ model, responseFormat: toolStrategy([Weather, Forecast]) });
    expectTypeOf<Awaited<ReturnType<typeof toolList.invoke>>["structuredResponse"]>().toEqualTypeOf<
      z.infer<typeof Weather> | z.infer<typeof Forecast>
    >();
    const none = createAgent({ model });
    expectTypeOf<Awaited<ReturnType<typeof none.invoke>>>().not.toHaveProperty("structuredResponse");
    // @ts-expect-error no responseFormat, no structuredResponse
    void ({} as Awaited<ReturnType<typeof none.invoke>>).structuredResponse;
  });

  it("types the agent's tools, its middlewares' after its own, as LangChain.js does", async () => {
    const lookup = tool(async ({ query }) => ({ found: query }), {
      name: "lookup",
      description: "Looks up.",
      schema: z.object({ query: z.string() }),
    });
    const count = tool(async ({ n }) => ({ doubled: n * 2 }), {
      name: "count",
      description: "Counts.",
      schema: z.object({ n: z.number() }),
    });
    const withCount = createMiddleware({ name: "WithCount", tools: [count] });
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["hi"] }),
      tools: [lookup],
      middleware: [withCount],
    });
    expectTypeOf<InferAgentTools<typeof agent>>().toEqualTypeOf<readonly [typeof lookup, typeof count]>();
    typeOnly(async () => {
      const run = await agent.streamEvents({ messages: [] }, { version: "v3" });
      for await (const call of run.toolCalls) {
        expectTypeOf(call.name).toEqualTypeOf<"lookup" | "count">();
        if (call.name === "count") expectTypeOf(call.output).toEqualTypeOf<Promise<{ doubled: number }>>();
      }
    });
  });

  it("rejects unknown jump targets and wrong hook updates", () => {
    const badTarget = createMiddleware({
      name: "BadTarget",
      // @ts-expect-error "elsewhere" is not a jump target
      beforeModel: { canJumpTo: ["elsewhere"], hook: () => undefined },
    });
    expect(() =>
      createAgent({ model: new FakeChatModel({ responses: [] }), middleware: [badTarget] }),
    ).toThrow("Invalid jump target");
    createMiddleware({
      name: "BadJump",
      // @ts-expect-error "nowhere" is not a jump target
      afterModel: { canJumpTo: ["end"], hook: () => ({ jumpTo: "nowhere" }) },
    });
    createMiddleware({
      name: "BadUpdate",
      stateSchema: z.object({ n: z.number() }),
      // @ts-expect-error n is a number
      beforeModel: () => ({ n: "one" }),
    });
  });
});

describe("langchain's Infer* and helper type names", () => {
  it("read a middleware list's state and context, a schema's input and an agent's input", () => {
    const list = [counter] as const;
    expectTypeOf<InferMiddlewareState<typeof counter>>().toEqualTypeOf<{ turns: number }>();
    expectTypeOf<InferMiddlewareStates<typeof list>>().toEqualTypeOf<{ turns: number }>();
    expectTypeOf<InferMiddlewareContext<typeof counter>>().toEqualTypeOf<{
      userId: string;
      locale?: string | undefined;
    }>();
    const merged: InferMergedState<typeof list> = { turns: 1, messages: [] };
    const contexts: InferMiddlewareContexts<typeof list> = { userId: "u1" };
    const Input = z.object({ topic: z.string() });
    expectTypeOf<InferSchemaInput<typeof Input>>().toEqualTypeOf<{ topic: string }>();
    expectTypeOf<InferSchemaInput<undefined>>().toEqualTypeOf<Record<never, never>>();
    const input: UserInput<typeof Input> = { messages: [{ role: "user", content: "hi" }], topic: "t" };
    const strategy: TypedToolStrategy<{ answer: string }> = toolStrategy(z.object({ answer: z.string() }));
    const prompt: DynamicSystemPromptMiddlewareConfig<{ region?: string }> = (_state, runtime) =>
      `Region: ${runtime.context.region ?? "n/a"}`;
    const result: ToolResult = { id: "c1", result: 42 };
    const wrap = createMiddleware({
      name: "Wrap",
      wrapModelCall: (request, handler: WrapModelCallHandler) => handler(request),
    });
    expect([merged, contexts, input, strategy.length, prompt, result, wrap.name]).toHaveLength(7);
  });
});
