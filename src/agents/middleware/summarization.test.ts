import { afterEach, describe, expect, it, vi } from "vitest";
import "../../index.js";
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  isRemoveMessage,
  REMOVE_ALL_MESSAGES,
  SystemMessage,
  ToolMessage,
} from "../../messages/index.js";
import { FakeChatModel } from "../../testing/index.js";
import { convertToOpenAITool, tool } from "../../tools/index.js";
import { createAgent } from "../create-agent.js";
import type { AgentMiddleware } from "../types.js";
import { countTokensApproximately } from "./context-size.js";
import {
  DEFAULT_SUMMARY_PREFIX,
  DEFAULT_SUMMARY_PROMPT,
  type SummarizationMiddlewareConfig,
  summarizationMiddleware,
} from "./summarization.js";

type Hook = (state: unknown, runtime: unknown) => Promise<{ messages: BaseMessage[] } | undefined>;

function hookOf(options: SummarizationMiddlewareConfig): Hook {
  const middleware = summarizationMiddleware(options) as AgentMiddleware;
  return middleware.beforeModel as unknown as Hook;
}

const runtime = (context: Record<string, unknown> = {}) => ({ context });

/** H1, AI(call c1), Tool(c1), AI, H2 — five messages, one tool pair. */
function history(): BaseMessage[] {
  return [
    new HumanMessage({ id: "h1", content: "hi" }),
    new AIMessage({
      id: "a1",
      content: "",
      tool_calls: [{ name: "t", args: { x: 1 }, id: "c1", type: "tool_call" }],
    }),
    new ToolMessage({ id: "t1", content: "res", tool_call_id: "c1" }),
    new AIMessage({ id: "a2", content: "a2" }),
    new HumanMessage({ id: "h2", content: "more" }),
  ];
}

const ids = (messages: readonly BaseMessage[]) => messages.map((m) => (isRemoveMessage(m) ? "REMOVE" : m.id));
const promptOf = (model: FakeChatModel, call = 0) => model.calls[call]?.[0]?.text ?? "";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("summarizationMiddleware end to end", () => {
  it("replaces the old history with a summary and keeps AI/tool pairs together (as the reference)", async () => {
    const summarizer = new FakeChatModel({ responses: ["  SUMMARY  "] });
    const model = new FakeChatModel({ responses: [new AIMessage({ id: "final", content: "answer" })] });
    const agent = createAgent({
      model,
      middleware: [
        summarizationMiddleware({ model: summarizer, trigger: { messages: 5 }, keep: { messages: 3 } }),
      ],
    });
    const result = await agent.invoke({ messages: history() });
    expect(result.messages.map((m) => [m.getType(), m.id, m.text])).toEqual([
      ["human", "h1", "Here is a summary of the conversation to date:\n\nSUMMARY"],
      ["ai", "a1", ""],
      ["tool", "t1", "res"],
      ["ai", "a2", "a2"],
      ["human", "h2", "more"],
      ["ai", "final", "answer"],
    ]);
    expect(result.messages[0]?.additional_kwargs).toEqual({ lc_source: "summarization" });
    expect(summarizer.calls).toHaveLength(1);
    expect(summarizer.calls[0]?.map((m) => m.getType())).toEqual(["human"]);
    expect(promptOf(summarizer)).toBe(DEFAULT_SUMMARY_PROMPT.replace("{messages}", "Human: hi"));
    expect(ids(model.calls[0] ?? [])).toEqual(["h1", "a1", "t1", "a2", "h2"]);
    expect(model.calls[0]?.[0]?.text).toContain("SUMMARY");
  });

  it("keeps the summarizer's call out of the messages stream (tagged nostream)", async () => {
    const summarizer = new FakeChatModel({ responses: ["SECRET SUMMARY"] });
    const model = new FakeChatModel({ responses: ["final answer"] });
    const agent = createAgent({
      model,
      middleware: [
        summarizationMiddleware({ model: summarizer, trigger: { messages: 2 }, keep: { messages: 1 } }),
      ],
    });
    const stream = (await agent.stream(
      { messages: [new HumanMessage("a"), new AIMessage("b"), new HumanMessage("c")] },
      { streamMode: "messages" },
    )) as AsyncIterable<[BaseMessage, Record<string, unknown>]>;
    const seen: string[] = [];
    for await (const [chunk, meta] of stream)
      seen.push(`${String(meta.langgraph_node)}:${chunk.getType()}:${chunk.text}`);
    expect(summarizer.calls).toHaveLength(1);
    expect(seen.some((line) => line.includes("SECRET"))).toBe(false);
    expect(seen.filter((line) => line.startsWith("model_request:ai:")).join("")).toContain("final");
  });

  it("a tokenCounter that gives no number fails the run with LangChain.js's ZodError", async () => {
    // LangChain.js 1.5.14 wraps a given counter in a Zod 3 function schema (a list in, a number or
    // a promise of one out); a counter returning "10" was compared as a string and summarized
    const summarizer = new FakeChatModel({ responses: ["S"] });
    const model = new FakeChatModel({ responses: ["ok"] });
    const agent = createAgent({
      model,
      middleware: [
        summarizationMiddleware({
          model: summarizer,
          trigger: { tokens: 1 },
          keep: { messages: 1 },
          tokenCounter: (() => "10") as never,
        }),
      ],
    });
    const failure = await agent.invoke({ messages: history() }).catch((e: unknown) => e);
    expect((failure as Error).name).toBe("ZodError");
    expect((failure as { issues: Array<{ code: string }> }).issues.map((i) => i.code)).toEqual([
      "invalid_return_type",
    ]);
    expect(summarizer.calls).toHaveLength(0);
  });

  it("never summarizes without a trigger", async () => {
    const summarizer = new FakeChatModel({ responses: [] });
    const model = new FakeChatModel({ responses: ["ok"] });
    const agent = createAgent({ model, middleware: [summarizationMiddleware({ model: summarizer })] });
    const result = await agent.invoke({ messages: history() });
    expect(result.messages).toHaveLength(6);
    expect(summarizer.calls).toHaveLength(0);
  });
});

describe("summarizationMiddleware trigger and keep", () => {
  it("does not fire below the messages trigger", async () => {
    const summarizer = new FakeChatModel({ responses: ["S"] });
    const hook = hookOf({ model: summarizer, trigger: { messages: 6 }, keep: { messages: 1 } });
    expect(await hook({ messages: history() }, runtime())).toBeUndefined();
    expect(summarizer.calls).toHaveLength(0);
  });

  it("a clause needs all of its keys (AND); a list needs any clause (OR)", async () => {
    const counter = (messages: BaseMessage[]) => messages.length * 100;
    const summarizer = new FakeChatModel({ responses: ["S", "S"] });
    const and = hookOf({
      model: summarizer,
      trigger: { tokens: 500, messages: 6 },
      keep: { messages: 1 },
      tokenCounter: counter,
    });
    expect(await and({ messages: history() }, runtime())).toBeUndefined();
    const or = hookOf({
      model: summarizer,
      trigger: [{ tokens: 500, messages: 6 }, { tokens: 500 }],
      keep: { messages: 1 },
      tokenCounter: counter,
    });
    const update = await or({ messages: history() }, runtime());
    expect(ids(update?.messages ?? [])).toEqual(["REMOVE", "h1", "h2"]);
    const tokens = hookOf({
      model: summarizer,
      trigger: { tokens: 501 },
      keep: { messages: 1 },
      tokenCounter: counter,
    });
    expect(await tokens({ messages: history() }, runtime())).toBeUndefined();
  });

  it("uses countTokensApproximately by default", async () => {
    const messages = history();
    const total = countTokensApproximately(messages);
    const summarizer = new FakeChatModel({ responses: ["S"] });
    expect(
      await hookOf({ model: summarizer, trigger: { tokens: total + 1 } })({ messages }, runtime()),
    ).toBeUndefined();
    const update = await hookOf({ model: summarizer, trigger: { tokens: total }, keep: { messages: 2 } })(
      { messages },
      runtime(),
    );
    expect(ids(update?.messages ?? [])).toEqual(["REMOVE", "h1", "a2", "h2"]);
  });

  it("keep: { messages } of zero summarizes everything; keeping more than there is does nothing", async () => {
    const summarizer = new FakeChatModel({ responses: ["S"] });
    const all = await hookOf({ model: summarizer, trigger: { messages: 1 }, keep: { messages: 0 } })(
      { messages: history() },
      runtime(),
    );
    expect(ids(all?.messages ?? [])).toEqual(["REMOVE", "h1"]);
    expect(promptOf(summarizer)).toContain("Human: hi\nAI: ");
    const none = await hookOf({ model: summarizer, trigger: { messages: 1 } })(
      { messages: history() },
      runtime(),
    );
    expect(none).toBeUndefined();
  });

  it("keep: { tokens } keeps the longest suffix within budget, moved back before tool results", async () => {
    const counter = (messages: BaseMessage[]) => messages.length * 10;
    const summarizer = new FakeChatModel({ responses: ["S", "S"] });
    const two = await hookOf({
      model: summarizer,
      trigger: { messages: 1 },
      keep: { tokens: 20 },
      tokenCounter: counter,
    })({ messages: history() }, runtime());
    expect(ids(two?.messages ?? [])).toEqual(["REMOVE", "h1", "a2", "h2"]);
    // a budget of three messages would start on the tool message: the AI message that called it is kept too
    const three = await hookOf({
      model: summarizer,
      trigger: { messages: 1 },
      keep: { tokens: 30 },
      tokenCounter: counter,
    })({ messages: history() }, runtime());
    expect(ids(three?.messages ?? [])).toEqual(["REMOVE", "h1", "a1", "t1", "a2", "h2"]);
  });

  it("keep: { tokens } that already fits summarizes nothing", async () => {
    const summarizer = new FakeChatModel({ responses: [] });
    const hook = hookOf({ model: summarizer, trigger: { messages: 1 }, keep: { tokens: 10_000 } });
    expect(await hook({ messages: history() }, runtime())).toBeUndefined();
  });

  it("fractions need the model's maxInputTokens", async () => {
    const summarizer = new FakeChatModel({ responses: ["S"] });
    const hook = hookOf({ model: summarizer, trigger: { fraction: 0.5 } });
    const error = await Promise.resolve(hook({ messages: history() }, runtime())).catch((e: unknown) => e);
    // a plain Error at run time, as in LangChain.js
    expect(error).toMatchObject({
      name: "Error",
      message:
        "Model profile information is required to use fractional token limits. Use absolute token counts instead.",
    });
    const withProfile = new FakeChatModel({ responses: ["S"] });
    Object.defineProperty(withProfile, "profile", { value: { maxInputTokens: 100 } });
    const counter = (messages: BaseMessage[]) => messages.length * 10;
    const below = hookOf({
      model: withProfile,
      trigger: { fraction: 0.6 },
      keep: { fraction: 0.2 },
      tokenCounter: counter,
    });
    expect(await below({ messages: history() }, runtime())).toBeUndefined();
    const at = hookOf({
      model: withProfile,
      trigger: { fraction: 0.5 },
      keep: { fraction: 0.2 },
      tokenCounter: counter,
    });
    const update = await at({ messages: history() }, runtime());
    expect(ids(update?.messages ?? [])).toEqual(["REMOVE", "h1", "a2", "h2"]);
  });

  it("rejects invalid options when created, as Zod's prettifyError prints LangChain.js's schema errors", () => {
    const model = new FakeChatModel({ responses: [] });
    const cases: [Parameters<typeof summarizationMiddleware>[0], string][] = [
      [
        { model, keep: { messages: 1, tokens: 2 } as never },
        "✖ Exactly one of fraction, tokens, or messages must be provided\n  → at keep",
      ],
      [
        { model, trigger: { fraction: 2 } },
        "✖ Fraction must be less than or equal to 1\n  → at trigger.fraction",
      ],
      [
        { model, trigger: [{ tokens: 5 }, { fraction: 2 }] },
        "✖ Fraction must be less than or equal to 1\n  → at trigger[1].fraction",
      ],
      [
        { model, trigger: {} },
        "✖ At least one of fraction, tokens, or messages must be provided\n  → at trigger",
      ],
      [{ model, trigger: { messages: 1.5 } }, "✖ Messages must be an integer\n  → at trigger.messages"],
      [{ model, trigger: { tokens: 0 } }, "✖ Tokens must be greater than 0\n  → at trigger.tokens"],
      [{ model, keep: { messages: 1.5 } }, "✖ Messages must be an integer\n  → at keep.messages"],
      [{ model, tokenCounter: 5 as never }, "✖ Expected function, received number\n  → at tokenCounter"],
    ];
    for (const [options, text] of cases) {
      expect(() => summarizationMiddleware(options)).toThrow(
        `Invalid summarization middleware options: ${text}`,
      );
    }
    // deliberate: LangChain.js accepts a missing model here and fails at the first summary
    expect(() => summarizationMiddleware({} as never)).toThrow(
      "Invalid summarization middleware options: ✖ Required\n  → at model",
    );
  });
});

describe("summarizationMiddleware summary", () => {
  it("uses summaryPrompt and summaryPrefix, and splits a leading system message out of the cut", async () => {
    const summarizer = new FakeChatModel({ responses: ["short"] });
    const hook = hookOf({
      model: summarizer,
      trigger: { messages: 3 },
      keep: { messages: 1 },
      summaryPrompt: "Summarize $& this:\n{messages}",
      summaryPrefix: "Earlier:",
    });
    const update = await hook(
      { messages: [new SystemMessage({ id: "s", content: "Be nice" }), ...history().slice(3)] },
      runtime(),
    );
    expect(promptOf(summarizer)).toBe("Summarize $& this:\nSystem: Be nice\nAI: a2");
    expect(update?.messages.map((m) => (isRemoveMessage(m) ? m.id : m.text))).toEqual([
      REMOVE_ALL_MESSAGES,
      "Earlier:\n\nshort",
      "more",
    ]);
    expect(update?.messages[1]?.id).toBe("a2");
  });

  it("trims the summarized span to trimTokensToSummarize (default 4000)", async () => {
    const counter = (messages: BaseMessage[]) => messages.length;
    const summarizer = new FakeChatModel({ responses: ["S", "S"] });
    await hookOf({
      model: summarizer,
      trigger: { messages: 1 },
      keep: { messages: 1 },
      trimTokensToSummarize: 1,
      tokenCounter: counter,
    })({ messages: history() }, runtime());
    expect(promptOf(summarizer).endsWith("Messages to summarize:\nAI: a2\n</messages>")).toBe(true);
    await hookOf({
      model: summarizer,
      trigger: { messages: 1 },
      keep: { messages: 1 },
      tokenCounter: counter,
    })({ messages: history() }, runtime());
    expect(promptOf(summarizer, 1)).toContain("Human: hi\nAI: ");
  });

  it("trims the summarized span message by message, as the reference does", async () => {
    // a tool result whose call is cut off is still shown; the message at the cut keeps its last lines
    // a system message, then history() with an answer a2 of three lines
    const span = () => {
      const messages = history();
      messages[3] = new AIMessage({ id: "a2", content: "line one\nline two\nline three" });
      return [new SystemMessage({ id: "s0", content: "sys" }), ...messages];
    };
    const byLength = (messages: BaseMessage[]) => messages.reduce((n, m) => n + m.text.length + 1, 0);
    const shown = async (trimTokensToSummarize: number, tokenCounter: (m: BaseMessage[]) => number) => {
      const summarizer = new FakeChatModel({ responses: ["S"] });
      await hookOf({
        model: summarizer,
        trigger: { messages: 1 },
        keep: { messages: 1 },
        trimTokensToSummarize,
        tokenCounter,
      })({ messages: span() }, runtime());
      return promptOf(summarizer).split("Messages to summarize:\n")[1];
    };
    expect(await shown(3, (m) => m.length)).toBe(
      "System: sys\nTool: res\nAI: line one\nline two\nline three\n</messages>",
    );
    expect(await shown(30, byLength)).toBe("System: sys\nAI: line two\nline three\n</messages>");
    expect(await shown(12, byLength)).toBe("System: sys\n</messages>");
  });

  it("answers the fallback texts when the trimmed span is empty or the summarizer fails", async () => {
    const empty = new FakeChatModel({ responses: [] });
    const update = await hookOf({
      model: empty,
      trigger: { messages: 1 },
      keep: { messages: 1 },
      trimTokensToSummarize: 0,
      tokenCounter: (messages) => messages.length * 5,
    })({ messages: [new AIMessage({ id: "x", content: "a" }), new HumanMessage("b")] }, runtime());
    expect(update?.messages[1]?.text).toBe(
      "Here is a summary of the conversation to date:\n\nPrevious conversation was too long to summarize.",
    );
    const failing = new FakeChatModel({ responses: [] });
    const failed = await hookOf({ model: failing, trigger: { messages: 1 }, keep: { messages: 1 } })(
      { messages: history() },
      runtime(),
    );
    expect(failed?.messages[1]?.text).toMatch(
      /^Here is a summary of the conversation to date:\n\nError generating summary: .*FakeChatModel has no response/,
    );
  });

  it("joins text blocks of a block-content summary", async () => {
    const summarizer = new FakeChatModel({
      responses: [
        new AIMessage({
          content: [
            { type: "text", text: " part one," },
            { type: "text", text: " two " },
          ],
        }),
      ],
    });
    const update = await hookOf({ model: summarizer, trigger: { messages: 1 }, keep: { messages: 1 } })(
      { messages: history() },
      runtime(),
    );
    expect(update?.messages[1]?.text).toBe(`${DEFAULT_SUMMARY_PREFIX}\n\npart one, two`);
  });

  it("takes trigger, keep, prompt, prefix, trim budget and counter from the run's context", async () => {
    const summarizer = new FakeChatModel({ responses: ["S"] });
    const hook = hookOf({ model: summarizer });
    const update = await hook(
      { messages: history() },
      runtime({
        trigger: { tokens: 50 },
        keep: { messages: 1 },
        summaryPrompt: "P {messages}",
        summaryPrefix: "Ctx:",
        trimTokensToSummarize: 100,
        tokenCounter: (messages: BaseMessage[]) => messages.length * 10,
      }),
    );
    expect(promptOf(summarizer).startsWith("P Human: hi")).toBe(true);
    expect(update?.messages[1]?.text).toBe("Ctx:\n\nS");
  });

  it("supports the deprecated maxTokensBeforeSummary and messagesToKeep with a warning", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const summarizer = new FakeChatModel({ responses: ["S"] });
    const hook = hookOf({
      model: summarizer,
      maxTokensBeforeSummary: 50,
      messagesToKeep: 2,
      tokenCounter: (messages) => messages.length * 10,
    });
    const update = await hook({ messages: history() }, runtime());
    expect(ids(update?.messages ?? [])).toEqual(["REMOVE", "h1", "a2", "h2"]);
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      "maxTokensBeforeSummary is deprecated. Use `trigger: { tokens: value }` instead.",
      "messagesToKeep is deprecated. Use `keep: { messages: value }` instead.",
    ]);
  });

  it("is named SummarizationMiddleware and has only a beforeModel hook", () => {
    const middleware = summarizationMiddleware({
      model: new FakeChatModel({ responses: [] }),
    }) as AgentMiddleware;
    expect(middleware.name).toBe("SummarizationMiddleware");
    expect(typeof middleware.beforeModel).toBe("function");
    expect(middleware.afterModel).toBeUndefined();
    expect(middleware.wrapModelCall).toBeUndefined();
  });
});

describe("countTokensApproximately", () => {
  it("counts as the reference (4 characters per token, tool calls and tool_call_id included)", () => {
    const messages = [
      new HumanMessage("What is the weather in Suzhou?"),
      new AIMessage({
        content: [{ type: "text", text: "Let me check" }],
        tool_calls: [{ name: "get_weather", args: { city: "Suzhou" }, id: "call_1", type: "tool_call" }],
      }),
      new ToolMessage({ content: "Sunny", tool_call_id: "call_1" }),
    ];
    expect(countTokensApproximately(messages)).toBe(34);
    expect(countTokensApproximately(messages, [{ type: "function", function: { name: "x" } }])).toBe(45);
  });

  it("counts a LangChain tool as its OpenAI function definition, not as the tool object", () => {
    const lookup = tool(() => "", {
      name: "lookup",
      description: "Look a word up.",
      schema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
    });
    const messages = [new HumanMessage("Define serendipity")];
    // 18 characters of text and the 171 of the tool's definition, four to a token (as langchain 1.5.14)
    expect(countTokensApproximately(messages, [lookup])).toBe(48);
    expect(countTokensApproximately(messages, [lookup])).toBe(
      countTokensApproximately(messages, [convertToOpenAITool(lookup)]),
    );
  });
});
