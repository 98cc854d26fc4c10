/**
 * Runs toolCallLimitMiddleware and dynamicSystemPromptMiddleware on LangChain.js 1.5.14 (a dev
 * dependency) and on ours with the same scripted model, and compares the final messages (type,
 * content, status, tool call id) and what the model was sent.
 */
import { BaseChatModel as LcChatModel } from "@langchain/core/language_models/chat_models";
import {
  AIMessage as LcAIMessage,
  HumanMessage as LcHumanMessage,
  type BaseMessage as LcMessage,
} from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { tool as lcTool } from "@langchain/core/tools";
import {
  createAgent as lcCreateAgent,
  dynamicSystemPromptMiddleware as lcDynamicSystemPrompt,
  toolCallLimitMiddleware as lcToolCallLimit,
} from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AIMessage, type BaseMessage, HumanMessage, type ToolCall } from "../../messages/index.js";
import { FakeChatModel } from "../../testing/index.js";
import { tool } from "../../tools/index.js";
import { createAgent } from "../create-agent.js";
import { dynamicSystemPromptMiddleware } from "./dynamic-system-prompt.js";
import { type ToolCallLimitMiddlewareConfig, toolCallLimitMiddleware } from "./tool-call-limit.js";

type Step = { id: string; content: string; tool_calls: ToolCall[] };

class ScriptedLcModel extends LcChatModel {
  private index = 0;
  readonly calls: LcMessage[][] = [];
  constructor(private readonly script: Step[]) {
    super({});
  }
  _llmType(): string {
    return "scripted";
  }
  override bindTools(): this {
    return this;
  }
  async _generate(messages: LcMessage[]): Promise<ChatResult> {
    this.calls.push(messages);
    const next = this.script[this.index++];
    if (next === undefined) throw new Error("script exhausted");
    return { generations: [{ text: next.content, message: new LcAIMessage(next as never) }] };
  }
}

type Summary = { type: string; content: unknown; status: unknown; toolCallId: unknown };
const summarise = (messages: ReadonlyArray<{ getType(): string; content: unknown }>): Summary[] =>
  messages.map((m) => ({
    type: m.getType(),
    content: m.content,
    status: (m as { status?: unknown }).status,
    toolCallId: (m as { tool_call_id?: unknown }).tool_call_id,
  }));

const call = (name: string, id: string): ToolCall => ({ name, args: { q: id }, id, type: "tool_call" });
const schema = z.object({ q: z.string() });
const search = async ({ q }: { q: string }) => `results for ${q}`;
const calc = async ({ q }: { q: string }) => `computed ${q}`;

async function limitBoth(script: Step[], options: ToolCallLimitMiddlewareConfig) {
  const lcModel = new ScriptedLcModel(script);
  // LangChain.js's middleware types do not accept our strict compiler options: run it untyped
  const theirs = lcCreateAgent({
    model: lcModel,
    tools: [
      lcTool(search, { name: "search", description: "Search.", schema }),
      lcTool(calc, { name: "calc", description: "Calculate.", schema }),
    ],
    middleware: [lcToolCallLimit(options as never)] as never,
  }) as unknown as { invoke(input: unknown): Promise<{ messages: LcMessage[] }> };
  const model = new FakeChatModel({ responses: script.map((step) => new AIMessage(step)) });
  const ours = createAgent({
    model,
    tools: [
      tool(search, { name: "search", description: "Search.", schema }),
      tool(calc, { name: "calc", description: "Calculate.", schema }),
    ],
    middleware: [toolCallLimitMiddleware(options)],
  });
  const expected = await theirs.invoke({ messages: [new LcHumanMessage({ content: "hi", id: "h1" })] });
  const actual = await ours.invoke({ messages: [new HumanMessage({ content: "hi", id: "h1" })] });
  return { expected: summarise(expected.messages), actual: summarise(actual.messages) };
}

describe("built-in middleware on LangChain.js and on agentgraph", () => {
  it("toolCallLimitMiddleware 'continue' blocks the same calls", async () => {
    const { expected, actual } = await limitBoth(
      [
        {
          id: "a1",
          content: "",
          tool_calls: [call("search", "c1"), call("search", "c2"), call("calc", "c3")],
        },
        { id: "a2", content: "done", tool_calls: [] },
      ],
      { toolName: "search", runLimit: 1 },
    );
    expect(actual).toEqual(expected);
  });

  it("toolCallLimitMiddleware 'end' ends with the same messages", async () => {
    const { expected, actual } = await limitBoth(
      [
        { id: "a1", content: "", tool_calls: [call("search", "c1")] },
        { id: "a2", content: "", tool_calls: [call("search", "c2")] },
        { id: "a3", content: "never", tool_calls: [] },
      ],
      { runLimit: 1, exitBehavior: "end" },
    );
    expect(actual).toEqual(expected);
  });

  it("dynamicSystemPromptMiddleware sends the same system message", async () => {
    const prompt = (state: { messages: unknown[] }) => `There are ${state.messages.length} messages.`;
    const lcModel = new ScriptedLcModel([{ id: "a1", content: "hello", tool_calls: [] }]);
    const theirs = lcCreateAgent({
      model: lcModel,
      tools: [],
      systemPrompt: "You are terse.",
      middleware: [lcDynamicSystemPrompt(prompt)],
    });
    const model = new FakeChatModel({ responses: [new AIMessage({ id: "a1", content: "hello" })] });
    const ours = createAgent({
      model,
      systemPrompt: "You are terse.",
      middleware: [dynamicSystemPromptMiddleware(prompt)],
    });
    const expected = await theirs.invoke({ messages: [new LcHumanMessage({ content: "hi", id: "h1" })] });
    const actual = await ours.invoke({ messages: [new HumanMessage({ content: "hi", id: "h1" })] });
    expect(summarise(actual.messages)).toEqual(summarise(expected.messages));
    const sent = (messages: ReadonlyArray<{ getType(): string; content: unknown }> | undefined) =>
      (messages ?? []).map((m) => [m.getType(), m.content]);
    expect(sent(model.calls[0] as BaseMessage[])).toEqual(sent(lcModel.calls[0]));
  });
});
