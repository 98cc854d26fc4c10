import { describe, expect, it } from "vitest";
import "../../index.js";
import { AIMessage, type BaseMessage, HumanMessage } from "../../messages/index.js";
import { FakeChatModel } from "../../testing/index.js";
import { createAgent } from "../create-agent.js";
import type { AgentMiddleware } from "../types.js";
import { maxInputTokens, modelContextSize } from "./context-size.js";
import { summarizationMiddleware } from "./summarization.js";
import { todoListMiddleware } from "./todo-list.js";

type Hook = (state: unknown, runtime: unknown) => Promise<{ messages: BaseMessage[] } | undefined>;

/** A summarizer that is not a chat model: it records what `invoke` receives. */
function recordingSummarizer(profile?: Record<string, unknown>) {
  const calls: Array<{ input: unknown; options: Record<string, unknown> }> = [];
  const model = {
    profile,
    invoke: async (input: unknown, options: Record<string, unknown> = {}) => {
      calls.push({ input, options });
      return new AIMessage("short summary");
    },
  };
  return { model, calls };
}

const longHistory = (): BaseMessage[] => [
  new HumanMessage(`first ${"x".repeat(200)}`),
  new AIMessage(`second ${"y".repeat(200)}`),
  new HumanMessage("third"),
];

describe("summarizationMiddleware summarizer call (LangChain.js parity)", () => {
  it("passes the prompt as one string, with the runtime's tags and metadata merged into the options", async () => {
    const { model, calls } = recordingSummarizer();
    const middleware = summarizationMiddleware({
      model: model as never,
      trigger: { tokens: 10 },
      keep: { messages: 1 },
    }) as AgentMiddleware;
    const hook = middleware.beforeModel as unknown as Hook;
    const controller = new AbortController();
    await hook(
      { messages: longHistory() },
      { context: {}, tags: ["parent"], metadata: { team: "a" }, signal: controller.signal },
    );
    expect(calls).toHaveLength(1);
    expect(typeof calls[0]?.input).toBe("string");
    expect(calls[0]?.input).toContain("Human: first");
    expect(calls[0]?.options.metadata).toEqual({ team: "a", lc_source: "summarization" });
    expect(calls[0]?.options.tags).toEqual(["parent", "nostream"]);
    expect(calls[0]?.options.signal).toBe(controller.signal);
  });

  it("a chat model summarizer still receives one human message", async () => {
    const summarizer = new FakeChatModel({ responses: ["S"] });
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["done"] }),
      middleware: [
        summarizationMiddleware({ model: summarizer, trigger: { tokens: 10 }, keep: { messages: 1 } }),
      ],
    });
    await agent.invoke({ messages: longHistory() });
    expect(summarizer.calls[0]?.map((m) => m.getType())).toEqual(["human"]);
  });
});

describe("fraction sizes without a profile window (LangChain.js getProfileLimits)", () => {
  it("reads the window from the model name when the profile has none", () => {
    expect(maxInputTokens({ profile: {}, model: "gpt-4o-mini" })).toBe(128_000);
    expect(maxInputTokens({ modelName: "gpt-4" })).toBe(8192);
    expect(maxInputTokens({ model: "some-local-model" })).toBe(4097);
    expect(maxInputTokens({ profile: { maxInputTokens: 1000 }, model: "gpt-4o" })).toBe(1000);
    expect(maxInputTokens({ profile: { maxInputTokens: null }, model: "gpt-4o" })).toBeUndefined();
    expect(maxInputTokens({})).toBeUndefined();
    expect(modelContextSize("gpt-5-mini")).toBe(400_000);
  });

  it("summarizes with a fractional trigger when the summarizer only has a model name", async () => {
    const { model, calls } = recordingSummarizer();
    const named = Object.assign(model, { model: "unknown-model" }); // 4097-token window
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["done"] }),
      middleware: [
        summarizationMiddleware({
          model: named as never,
          trigger: { fraction: 0.01 },
          keep: { messages: 1 },
        }),
      ],
    });
    const result = await agent.invoke({ messages: longHistory() });
    expect(calls).toHaveLength(1);
    expect(result.messages[0]?.text).toContain("short summary");
  });

  it("still fails when neither a profile window nor a model name is known", async () => {
    const { model } = recordingSummarizer();
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["done"] }),
      middleware: [summarizationMiddleware({ model: model as never, trigger: { fraction: 0.5 } })],
    });
    await expect(agent.invoke({ messages: [new HumanMessage("hi")] })).rejects.toThrow(
      "Model profile information is required",
    );
  });
});

describe("todoListMiddleware system message (LangChain.js parity)", () => {
  it("appends its prompt as a text block after the agent's system prompt", async () => {
    const model = new FakeChatModel({ responses: ["ok"] });
    const agent = createAgent({
      model,
      systemPrompt: "You are a helpful assistant.",
      middleware: [todoListMiddleware({ systemPrompt: "Plan first." })],
    });
    await agent.invoke({ messages: [new HumanMessage("hi")] });
    expect(model.calls[0]?.[0]?.content).toEqual([
      { type: "text", text: "You are a helpful assistant." },
      { type: "text", text: "\n\nPlan first." },
    ]);
  });

  it("keeps a string system message when the agent has no system prompt", async () => {
    const model = new FakeChatModel({ responses: ["ok"] });
    const agent = createAgent({ model, middleware: [todoListMiddleware({ systemPrompt: "Plan first." })] });
    await agent.invoke({ messages: [new HumanMessage("hi")] });
    expect(model.calls[0]?.[0]?.content).toBe("\n\nPlan first.");
  });
});
