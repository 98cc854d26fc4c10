import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { MemorySaver } from "../../index.js";
import { AIMessage, type BaseMessage, HumanMessage } from "../../messages/index.js";
import { FakeChatModel } from "../../testing/index.js";
import { tool } from "../../tools/index.js";
import { createAgent } from "../create-agent.js";
import { MiddlewareError } from "../errors.js";
import { hookFunction } from "../middleware.js";
import type { AgentRuntime, NodeHook } from "../types.js";
import { ModelCallLimitMiddlewareError, modelCallLimitMiddleware } from "./model-call-limit.js";

const search = tool(async () => "found", { name: "search", description: "Search.", schema: z.object({}) });
const asking = (id: string) =>
  new AIMessage({ content: "", tool_calls: [{ name: "search", args: {}, id, type: "tool_call" }] });
const outline = (messages: readonly BaseMessage[]) => messages.map((m) => `${m.getType()}:${m.text}`);
/** A node hook's error reaches the caller as it was thrown (as in LangChain.js). */
const causeOf = (error: unknown) => {
  expect(error).not.toBeInstanceOf(MiddlewareError);
  return error;
};
const thread = () => ({ configurable: { thread_id: `t-${Math.random()}` } });

function agentWith(
  responses: Array<AIMessage | string>,
  ...limits: Parameters<typeof modelCallLimitMiddleware>
) {
  const model = new FakeChatModel({ responses });
  const agent = createAgent({
    model,
    tools: [search],
    checkpointer: new MemorySaver(),
    middleware: [modelCallLimitMiddleware(...limits)],
  });
  return { model, agent };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("modelCallLimitMiddleware", () => {
  it("writes the state back under the limits, as LangChain.js's `updates` stream shows", async () => {
    const { agent } = agentWith([asking("1"), "done"], { runLimit: 5 });
    const chunks: Array<Record<string, Record<string, unknown>>> = [];
    for await (const chunk of await agent.stream(
      { messages: [new HumanMessage("hi")] },
      { ...thread(), streamMode: "updates" },
    )) {
      chunks.push(chunk as Record<string, Record<string, unknown>>);
    }
    const befores = chunks
      .filter((c) => "ModelCallLimitMiddleware.before_model" in c)
      .map((c) => c["ModelCallLimitMiddleware.before_model"]);
    expect(
      befores.map((u) => [
        (u?.messages as unknown[] | undefined)?.length,
        u?.runModelCallCount,
        u?.threadModelCallCount,
      ]),
    ).toEqual([
      [1, 0, 0],
      [3, 1, 1],
    ]);
  });

  it("ends the run at the run limit with the reference's message, without calling the model", async () => {
    const { model, agent } = agentWith([asking("1"), asking("2"), asking("3"), "never"], { runLimit: 2 });
    const result = await agent.invoke({ messages: [new HumanMessage("hi")] }, thread());
    expect(model.calls).toHaveLength(2);
    expect(outline(result.messages)).toEqual([
      "human:hi",
      "ai:",
      "tool:found",
      "ai:",
      "tool:found",
      "ai:Model call limits exceeded: run level call limit reached with 2 model calls",
    ]);
    expect(result.threadModelCallCount).toBe(2);
  });

  it("keeps the thread count across runs and resets the run count after each run", async () => {
    const { model, agent } = agentWith(["one", "two", "three"], { threadLimit: 2, runLimit: 1 });
    const config = thread();
    const first = await agent.invoke({ messages: [new HumanMessage("a")] }, config);
    expect(first.threadModelCallCount).toBe(1);
    expect(first.runModelCallCount).toBe(0);
    const second = await agent.invoke({ messages: [new HumanMessage("b")] }, config);
    expect(second.messages.at(-1)?.text).toBe("two");
    expect(second.threadModelCallCount).toBe(2);
    const third = await agent.invoke({ messages: [new HumanMessage("c")] }, config);
    expect(third.messages.at(-1)?.text).toBe(
      "Model call limits exceeded: thread level call limit reached with 2 model calls",
    );
    expect(model.calls).toHaveLength(2);
  });

  it("checks the thread limit before the run limit", async () => {
    const { agent } = agentWith(["one"], { threadLimit: 0, runLimit: 0 });
    const result = await agent.invoke({ messages: [new HumanMessage("a")] }, thread());
    expect(result.messages.at(-1)?.text).toBe(
      "Model call limits exceeded: thread level call limit reached with 0 model calls",
    );
  });

  it("throws ModelCallLimitMiddlewareError with exitBehavior 'error'", async () => {
    const { agent } = agentWith([asking("1"), "never"], { threadLimit: 1, exitBehavior: "error" });
    const error = await agent
      .invoke({ messages: [new HumanMessage("hi")] }, thread())
      .catch((e: unknown) => e);
    const cause = causeOf(error);
    expect(cause).toBeInstanceOf(ModelCallLimitMiddlewareError);
    expect((cause as Error).name).toBe("ModelCallLimitMiddlewareError");
    expect((cause as Error).message).toBe(
      "Model call limits exceeded: thread level call limit reached with 1 model calls",
    );
    expect(cause).toMatchObject({ threadLimit: 1, threadCount: 1, runLimit: undefined });
  });

  it("lets the run context override the limits and the exit behavior", async () => {
    const { model, agent } = agentWith([asking("1"), asking("2"), "never"], { runLimit: 5 });
    const result = await agent.invoke(
      { messages: [new HumanMessage("hi")] },
      { ...thread(), context: { runLimit: 1 } },
    );
    expect(model.calls).toHaveLength(1);
    expect(result.messages.at(-1)?.text).toBe(
      "Model call limits exceeded: run level call limit reached with 1 model calls",
    );
    const other = agentWith([asking("1"), "never"], { runLimit: 1 });
    const error = await other.agent
      .invoke({ messages: [new HumanMessage("hi")] }, { ...thread(), context: { exitBehavior: "error" } })
      .catch((e: unknown) => e);
    expect(causeOf(error)).toBeInstanceOf(ModelCallLimitMiddlewareError);
  });

  it("does nothing without limits", async () => {
    const { model, agent } = agentWith([asking("1"), "done"]);
    const result = await agent.invoke({ messages: [new HumanMessage("hi")] }, thread());
    expect(model.calls).toHaveLength(2);
    expect(result.messages.at(-1)?.text).toBe("done");
    expect(result.threadModelCallCount).toBe(2);
  });

  it("adds its hooks as nodes named after the middleware", () => {
    const { agent } = agentWith(["x"], { runLimit: 1 });
    expect(Object.keys(agent.graph.nodes)).toEqual(
      expect.arrayContaining([
        "ModelCallLimitMiddleware.before_model",
        "ModelCallLimitMiddleware.after_model",
        "ModelCallLimitMiddleware.after_agent",
      ]),
    );
  });

  it("rejects invalid options and context values", async () => {
    expect(() => modelCallLimitMiddleware({ exitBehavior: "stop" as never })).toThrow(
      /exitBehavior must be "end" or "error"/,
    );
    expect(() => modelCallLimitMiddleware({ runLimit: "3" as never })).toThrow(/runLimit must be a number/);
    const { agent } = agentWith(["x"], { runLimit: 1 });
    await expect(
      agent.invoke(
        { messages: [new HumanMessage("hi")] },
        { ...thread(), context: { threadLimit: "2" as never } },
      ),
    ).rejects.toThrow(/context\.threadLimit must be a number/);
  });

  it("treats the deprecated 'throw' behavior as 'error', with a warning", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const middleware = modelCallLimitMiddleware({ runLimit: 0 });
    const hook = hookFunction(middleware.beforeModel as NodeHook);
    const runtime = { context: { exitBehavior: "throw" } } as unknown as AgentRuntime;
    expect(() =>
      hook({ messages: [], threadModelCallCount: 0, runModelCallCount: 0 } as never, runtime),
    ).toThrow(ModelCallLimitMiddlewareError);
    expect(warn).toHaveBeenCalledWith("The 'throw' exit behavior is deprecated. Please use 'error' instead.");
  });

  it("lists both limits in the error message when both counts are given", () => {
    const error = new ModelCallLimitMiddlewareError({
      threadLimit: 3,
      threadCount: 3,
      runLimit: 2,
      runCount: 2,
    });
    expect(error.message).toBe(
      "Model call limits exceeded: thread level call limit reached with 3 model calls, run level call limit reached with 2 model calls",
    );
    expect(new ModelCallLimitMiddlewareError({}).message).toBe("Model call limits exceeded");
  });
});
