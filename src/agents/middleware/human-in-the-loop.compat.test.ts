/**
 * Runs humanInTheLoopMiddleware (full interrupt → resume cycles), summarizationMiddleware and
 * todoListMiddleware on LangChain.js 1.5.14 (a dev dependency) and on ours with the same
 * scripted models, and compares the interrupt payloads, the final messages (type, content,
 * tool calls, status, tool call id) and what the models were sent.
 */
import { BaseChatModel as LcChatModel } from "@langchain/core/language_models/chat_models";
import {
  AIMessage as LcAIMessage,
  HumanMessage as LcHumanMessage,
  type BaseMessage as LcMessage,
} from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { tool as lcTool } from "@langchain/core/tools";
import { Command as LcCommand, MemorySaver as LcMemorySaver } from "@langchain/langgraph";
import {
  createAgent as lcCreateAgent,
  humanInTheLoopMiddleware as lcHumanInTheLoop,
  summarizationMiddleware as lcSummarization,
  todoListMiddleware as lcTodoList,
} from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Command, MemorySaver } from "../../index.js";
import { AIMessage, type BaseMessage, HumanMessage, type ToolCall } from "../../messages/index.js";
import { FakeChatModel } from "../../testing/index.js";
import { tool } from "../../tools/index.js";
import { createAgent } from "../create-agent.js";
import type { AnyAgentMiddleware } from "../types.js";
import { humanInTheLoopMiddleware } from "./human-in-the-loop.js";
import { summarizationMiddleware } from "./summarization.js";
import { todoListMiddleware } from "./todo-list.js";

interface LcAgent {
  invoke(
    input: unknown,
    config?: unknown,
  ): Promise<{ messages: unknown[]; __interrupt__?: Array<{ value: unknown }> }>;
}

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

interface AnyMessage {
  getType?(): string;
  _getType?(): string;
  content: unknown;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  status?: string;
}
const typeOf = (m: AnyMessage) => (m.getType ? m.getType() : (m._getType?.() ?? "?"));
const summarise = (messages: readonly AnyMessage[]) =>
  messages.map((m) => ({
    type: typeOf(m),
    content: m.content,
    toolCalls: (m.tool_calls ?? []).map((c) => ({ name: c.name, args: c.args, id: c.id })),
    toolCallId: m.tool_call_id,
    status: typeOf(m) === "tool" ? (m.status ?? "success") : undefined,
  }));

const tc = (name: string, args: Record<string, unknown>, id: string): ToolCall => ({
  name,
  args,
  id,
  type: "tool_call",
});
const pathSchema = z.object({ path: z.string() });
const writeImpl = async ({ path }: { path: string }) => `wrote ${path}`;
const readImpl = async ({ path }: { path: string }) => `read ${path}`;

const script = (): Step[] => [
  {
    id: "ai-1",
    content: "",
    tool_calls: [
      tc("write_file", { path: "a" }, "c1"),
      tc("read_file", { path: "b" }, "c2"),
      tc("write_file", { path: "c" }, "c3"),
    ],
  },
  { id: "ai-2", content: "done", tool_calls: [] },
];

async function runHitl(options: Record<string, unknown>, resume: unknown) {
  const lcModel = new ScriptedLcModel(script());
  const lcAgent = lcCreateAgent({
    model: lcModel as never,
    tools: [
      lcTool(writeImpl, { name: "write_file", description: "Write.", schema: pathSchema }),
      lcTool(readImpl, { name: "read_file", description: "Read.", schema: pathSchema }),
    ],
    checkpointer: new LcMemorySaver(),
    middleware: [lcHumanInTheLoop(options as never)],
  } as never) as unknown as LcAgent;
  const lcConfig = { configurable: { thread_id: "lc" } };
  const lcPaused = (await lcAgent.invoke({ messages: [new LcHumanMessage("go")] }, lcConfig)) as {
    __interrupt__?: Array<{ value: unknown }>;
  };
  const lcDone = await lcAgent.invoke(new LcCommand({ resume }) as never, lcConfig);

  const model = new FakeChatModel({ responses: script().map((s) => new AIMessage(s)) });
  const agent = createAgent({
    model,
    tools: [
      tool(writeImpl, { name: "write_file", description: "Write.", schema: pathSchema }),
      tool(readImpl, { name: "read_file", description: "Read.", schema: pathSchema }),
    ],
    checkpointer: new MemorySaver(),
    middleware: [humanInTheLoopMiddleware(options as never)],
  });
  const config = { configurable: { thread_id: "ours" } };
  const paused = (await agent.invoke({ messages: [new HumanMessage("go")] }, config)) as {
    __interrupt__?: Array<{ value: unknown }>;
  };
  const done = await agent.invoke(new Command({ resume }), config);
  return {
    lc: {
      payload: lcPaused.__interrupt__?.map((i) => i.value),
      messages: summarise(lcDone.messages as never),
      sent: lcModel.calls.map((c) => summarise(c as never)),
    },
    ours: {
      payload: paused.__interrupt__?.map((i) => i.value),
      messages: summarise(done.messages as never),
      sent: model.calls.map((c) => summarise(c as never)),
    },
  };
}

describe("humanInTheLoopMiddleware matches LangChain.js", () => {
  const cases: Array<[string, Record<string, unknown>, unknown]> = [
    [
      "approve all",
      { interruptOn: { write_file: true, read_file: false } },
      { decisions: [{ type: "approve" }, { type: "approve" }] },
    ],
    [
      "edit + approve",
      { interruptOn: { write_file: true } },
      {
        decisions: [
          { type: "edit", editedAction: { name: "write_file", args: { path: "z" } } },
          { type: "approve" },
        ],
      },
    ],
    [
      "reject with message + approve",
      { interruptOn: { write_file: true, read_file: false } },
      { decisions: [{ type: "reject", message: "no" }, { type: "approve" }] },
    ],
    [
      "edit + reject (default text), custom prefix and config",
      {
        descriptionPrefix: "Check",
        interruptOn: {
          write_file: { allowedDecisions: ["approve", "edit", "reject"], argsSchema: { type: "object" } },
          read_file: { allowedDecisions: ["approve"], description: "Reading" },
        },
      },
      {
        decisions: [
          { type: "edit", editedAction: { name: "write_file", args: { path: "z" } } },
          { type: "approve" },
          { type: "reject" },
        ],
      },
    ],
  ];
  for (const [name, options, resume] of cases) {
    it(name, async () => {
      const { lc, ours } = await runHitl(options, resume);
      expect(lc.payload).toHaveLength(1);
      expect(lc.sent).toHaveLength(2);
      expect(ours.payload).toEqual(lc.payload);
      expect(ours.messages).toEqual(lc.messages);
      expect(ours.sent).toEqual(lc.sent);
    });
  }
});

describe("summarizationMiddleware and todoListMiddleware match LangChain.js", () => {
  async function both(
    build: {
      lc: (summarizer: ScriptedLcModel) => unknown;
      ours: (summarizer: FakeChatModel) => AnyAgentMiddleware;
    },
    steps: Step[],
    summary: string[],
    input: () => Array<[string, string]>,
  ) {
    const lcSummarizer = new ScriptedLcModel(
      summary.map((content, i) => ({ id: `s${i}`, content, tool_calls: [] })),
    );
    const lcModel = new ScriptedLcModel(steps);
    const lcAgent = lcCreateAgent({ model: lcModel, middleware: [build.lc(lcSummarizer) as never] });
    const lcResult = (await lcAgent.invoke({
      messages: input().map(([role, content]) => ({ role, content })),
    } as never)) as { messages: unknown[] };
    const summarizer = new FakeChatModel({ responses: summary });
    const model = new FakeChatModel({ responses: steps.map((s) => new AIMessage(s)) });
    const agent = createAgent({
      model,
      middleware: [build.ours(summarizer)],
    });
    const result = await agent.invoke({ messages: input().map(([role, content]) => ({ role, content })) });
    return {
      lc: {
        messages: summarise(lcResult.messages as never),
        sent: lcModel.calls.map((c) => summarise(c as never)),
        summarizer: lcSummarizer.calls.map((c) => summarise(c as never)),
      },
      ours: {
        messages: summarise(result.messages as BaseMessage[] as never),
        sent: model.calls.map((c) => summarise(c as never)),
        summarizer: summarizer.calls.map((c) => summarise(c as never)),
      },
    };
  }
  const history = (): Array<[string, string]> => [
    ["user", "first question"],
    ["assistant", "first answer"],
    ["user", "second question"],
    ["assistant", "second answer"],
    ["user", "third question"],
  ];

  it("summarization: messages trigger, messages keep", async () => {
    const { lc, ours } = await both(
      {
        lc: (m) => lcSummarization({ model: m, trigger: { messages: 5 }, keep: { messages: 2 } } as never),
        ours: (m) =>
          summarizationMiddleware({
            model: m as FakeChatModel,
            trigger: { messages: 5 },
            keep: { messages: 2 },
          }),
      },
      [{ id: "f", content: "final", tool_calls: [] }],
      ["the summary"],
      history,
    );
    expect(lc.summarizer).toHaveLength(1);
    expect(ours.summarizer).toEqual(lc.summarizer);
    expect(ours.sent).toEqual(lc.sent);
    expect(ours.messages).toEqual(lc.messages);
  });

  it("summarization: tokens trigger, tokens keep", async () => {
    const { lc, ours } = await both(
      {
        lc: (m) => lcSummarization({ model: m, trigger: { tokens: 10 }, keep: { tokens: 8 } } as never),
        ours: (m) =>
          summarizationMiddleware({
            model: m as FakeChatModel,
            trigger: { tokens: 10 },
            keep: { tokens: 8 },
          }),
      },
      [{ id: "f", content: "final", tool_calls: [] }],
      ["S"],
      history,
    );
    expect(lc.summarizer).toHaveLength(1);
    expect(ours.summarizer).toEqual(lc.summarizer);
    expect(ours.messages).toEqual(lc.messages);
  });

  it("todo list: write_todos and the system prompt", async () => {
    const steps: Step[] = [
      {
        id: "t1",
        content: "",
        tool_calls: [tc("write_todos", { todos: [{ content: "a", status: "in_progress" }] }, "w1")],
      },
      { id: "t2", content: "done", tool_calls: [] },
    ];
    const { lc, ours } = await both(
      { lc: () => lcTodoList(), ours: () => todoListMiddleware() as AnyAgentMiddleware },
      steps,
      [],
      () => [["user", "plan"]],
    );
    expect(lc.sent).toHaveLength(2);
    expect(ours.sent).toEqual(lc.sent);
    expect(ours.messages).toEqual(lc.messages);
  });
});
