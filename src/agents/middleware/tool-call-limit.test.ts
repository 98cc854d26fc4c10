import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemorySaver } from "../../index.js";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "../../messages/index.js";
import { FakeChatModel } from "../../testing/index.js";
import { tool } from "../../tools/index.js";
import { createAgent } from "../create-agent.js";
import { MiddlewareError } from "../errors.js";
import type { AnyAgentMiddleware } from "../types.js";
import { ToolCallLimitExceededError, toolCallLimitMiddleware } from "./tool-call-limit.js";

const runs: string[] = [];
const search = tool(
  async () => {
    runs.push("search");
    return "found";
  },
  { name: "search", description: "Search.", schema: z.object({}) },
);
const calc = tool(
  async () => {
    runs.push("calc");
    return "42";
  },
  { name: "calc", description: "Calculate.", schema: z.object({}) },
);
const asking = (...calls: Array<[string, string]>) =>
  new AIMessage({
    content: "",
    tool_calls: calls.map(([name, id]) => ({ name, args: {}, id, type: "tool_call" as const })),
  });
const outline = (messages: readonly BaseMessage[]) =>
  messages.map((m) => {
    if (m instanceof ToolMessage) return `tool(${m.tool_call_id},${m.status},${m.name}):${m.text}`;
    return `${m.getType()}:${m.text}`;
  });
/** A node hook's error reaches the caller as it was thrown (as in LangChain.js). */
const causeOf = (error: unknown) => {
  expect(error).not.toBeInstanceOf(MiddlewareError);
  return error;
};
const thread = () => ({ configurable: { thread_id: `t-${Math.random()}` } });

function agentWith(responses: Array<AIMessage | string>, ...middleware: AnyAgentMiddleware[]) {
  runs.length = 0;
  const model = new FakeChatModel({ responses });
  const agent = createAgent({ model, tools: [search, calc], checkpointer: new MemorySaver(), middleware });
  return { model, agent };
}

const hi = { messages: [new HumanMessage("hi")] };

describe("toolCallLimitMiddleware", () => {
  it("writes its counts back with every update, as LangChain.js's `updates` stream shows", async () => {
    const { agent } = agentWith(
      [asking(["search", "1"]), "done"],
      toolCallLimitMiddleware({ threadLimit: 5 }),
    );
    const chunks: Array<Record<string, Record<string, unknown>>> = [];
    for await (const chunk of await agent.stream(hi, { ...thread(), streamMode: "updates" })) {
      chunks.push(chunk as Record<string, Record<string, unknown>>);
    }
    const afterAgent = chunks.find((c) => "ToolCallLimitMiddleware.after_agent" in c)?.[
      "ToolCallLimitMiddleware.after_agent"
    ];
    // the update ({ runToolCallCount: {} }) on top of the state the hook was given
    expect(afterAgent?.threadToolCallCount).toEqual({ __all__: 1 });
    expect(afterAgent?.runToolCallCount).toEqual({});
    expect((afterAgent?.messages as unknown[] | undefined)?.length).toBe(4);
  });

  it("validates its options with the reference's messages", () => {
    expect(() => toolCallLimitMiddleware({})).toThrow(
      "At least one limit must be specified (threadLimit or runLimit)",
    );
    expect(() => toolCallLimitMiddleware({ runLimit: 1, exitBehavior: "bad" as never })).toThrow(
      "Invalid enum value. Expected 'continue' | 'error' | 'end', received 'bad'",
    );
    expect(() => toolCallLimitMiddleware({ runLimit: 3, threadLimit: 2 })).toThrow(
      "runLimit (3) cannot exceed threadLimit (2). The run limit should be less than or equal to the thread limit.",
    );
    expect(() => toolCallLimitMiddleware({ runLimit: 2, threadLimit: 2 })).not.toThrow();
  });

  it("is named after its tool", () => {
    expect(toolCallLimitMiddleware({ runLimit: 1 }).name).toBe("ToolCallLimitMiddleware");
    expect(toolCallLimitMiddleware({ toolName: "search", runLimit: 1 }).name).toBe(
      "ToolCallLimitMiddleware[search]",
    );
  });

  it("'continue' blocks the calls over the limit and lets the others run", async () => {
    const { agent } = agentWith(
      [asking(["search", "1"], ["search", "2"], ["calc", "3"]), "done"],
      toolCallLimitMiddleware({ toolName: "search", runLimit: 1 }),
    );
    const result = await agent.invoke(hi, thread());
    expect(runs.sort()).toEqual(["calc", "search"]);
    const toolMessages = result.messages.filter((m) => m instanceof ToolMessage).map((m) => outline([m])[0]);
    expect(toolMessages).toEqual(
      expect.arrayContaining([
        "tool(2,error,search):Tool call limit exceeded. Do not call 'search' again.",
        "tool(1,success,search):found",
        "tool(3,success,calc):42",
      ]),
    );
    expect(result.messages.at(-1)?.text).toBe("done");
    expect(result.threadToolCallCount).toEqual({ search: 1 });
    expect(result.runToolCallCount).toEqual({});
  });

  it("without toolName counts every call under '__all__' and says so to the model", async () => {
    const { agent, model } = agentWith(
      [asking(["search", "1"], ["calc", "2"]), "done"],
      toolCallLimitMiddleware({ runLimit: 1 }),
    );
    const result = await agent.invoke(hi, thread());
    expect(runs).toEqual(["search"]);
    expect(outline(result.messages)).toContain(
      "tool(2,error,calc):Tool call limit exceeded. Do not make additional tool calls.",
    );
    expect(result.threadToolCallCount).toEqual({ __all__: 1 });
    // the model saw the blocked answer on its next call
    expect(model.calls[1]?.some((m) => m instanceof ToolMessage && m.status === "error")).toBe(true);
  });

  it("'end' answers the blocked call and ends with the final message", async () => {
    const { agent, model } = agentWith(
      [asking(["search", "1"]), asking(["search", "2"]), "never"],
      toolCallLimitMiddleware({ runLimit: 1, threadLimit: 2, exitBehavior: "end" }),
    );
    const result = await agent.invoke(hi, thread());
    expect(model.calls).toHaveLength(2);
    expect(outline(result.messages)).toEqual([
      "human:hi",
      "ai:",
      "tool(1,success,search):found",
      "ai:",
      "tool(2,error,search):Tool call limit exceeded. Do not make additional tool calls.",
      "ai:Tool call limit reached: run limit exceeded (2/1 calls).",
    ]);
    expect(result.threadToolCallCount).toEqual({ __all__: 1 });
  });

  it("'end' names the tool and both limits in the final message", async () => {
    const { agent } = agentWith(
      [asking(["search", "1"]), "never"],
      toolCallLimitMiddleware({ toolName: "search", runLimit: 0, threadLimit: 0, exitBehavior: "end" }),
    );
    const result = await agent.invoke(hi, thread());
    expect(runs).toEqual([]);
    expect(result.messages.at(-1)?.text).toBe(
      "'search' tool call limit reached: thread limit exceeded (1/0 calls) and run limit exceeded (1/0 calls).",
    );
  });

  it("'end' refuses to end while calls to other tools are pending", async () => {
    const { agent } = agentWith(
      [asking(["search", "1"], ["calc", "2"]), "never"],
      toolCallLimitMiddleware({ toolName: "search", runLimit: 0, exitBehavior: "end" }),
    );
    const error = await agent.invoke(hi, thread()).catch((e: unknown) => e);
    expect((error as Error).message).toContain(
      "Cannot end execution with other tool calls pending. Found calls to: calc. Use 'continue' or 'error' behavior instead.",
    );
    // a plain Error, as in LangChain.js
    expect((error as Error).constructor).toBe(Error);
    const global = agentWith(
      [asking(["search", "1"], ["calc", "2"]), "never"],
      toolCallLimitMiddleware({ runLimit: 1, exitBehavior: "end" }),
    );
    const second = await global.agent.invoke(hi, thread()).catch((e: unknown) => e);
    expect((second as Error).message).toContain("Found calls to: search.");
  });

  it("'error' throws ToolCallLimitExceededError with the counts", async () => {
    const { agent } = agentWith(
      [asking(["search", "1"], ["search", "2"]), "never"],
      toolCallLimitMiddleware({ threadLimit: 1, exitBehavior: "error" }),
    );
    const error = await agent.invoke(hi, thread()).catch((e: unknown) => e);
    const cause = causeOf(error) as ToolCallLimitExceededError;
    expect(cause).toBeInstanceOf(ToolCallLimitExceededError);
    expect(cause.name).toBe("ToolCallLimitExceededError");
    expect(cause.message).toBe("Tool call limit reached: thread limit exceeded (2/1 calls).");
    expect(cause).toMatchObject({
      threadCount: 2,
      runCount: 2,
      threadLimit: 1,
      runLimit: undefined,
      toolName: undefined,
    });
    expect(runs).toEqual([]);
  });

  it("counts the thread across runs and the run per run", async () => {
    const { agent, model } = agentWith(
      [asking(["search", "1"]), "first", asking(["search", "2"]), "second", asking(["search", "3"]), "third"],
      toolCallLimitMiddleware({ threadLimit: 2, runLimit: 1 }),
    );
    const config = thread();
    const first = await agent.invoke(hi, config);
    expect(first.threadToolCallCount).toEqual({ __all__: 1 });
    expect(first.runToolCallCount).toEqual({});
    const second = await agent.invoke({ messages: [new HumanMessage("again")] }, config);
    expect(second.messages.at(-1)?.text).toBe("second");
    expect(second.threadToolCallCount).toEqual({ __all__: 2 });
    const third = await agent.invoke({ messages: [new HumanMessage("more")] }, config);
    expect(runs).toEqual(["search", "search"]);
    expect(outline(third.messages)).toContain(
      "tool(3,error,search):Tool call limit exceeded. Do not make additional tool calls.",
    );
    expect(model.calls.length).toBeGreaterThanOrEqual(5);
  });

  it("lets one limiter per tool run side by side", async () => {
    const { agent } = agentWith(
      [asking(["search", "1"], ["calc", "2"]), "done"],
      toolCallLimitMiddleware({ toolName: "search", runLimit: 5 }),
      toolCallLimitMiddleware({ toolName: "calc", runLimit: 5 }),
    );
    const result = await agent.invoke(hi, thread());
    expect(result.threadToolCallCount).toEqual({ search: 1, calc: 1 });
    expect(runs.sort()).toEqual(["calc", "search"]);
  });

  it("ignores answers without tool calls", async () => {
    const { agent } = agentWith(["plain answer"], toolCallLimitMiddleware({ runLimit: 1 }));
    const result = await agent.invoke(hi, thread());
    expect(result.messages.at(-1)?.text).toBe("plain answer");
    expect(result.threadToolCallCount).toEqual({});
  });
});
