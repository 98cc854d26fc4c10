/**
 * Runs the same createReactAgent scenarios on LangGraph.js 1.7.3 (a dev dependency) and on
 * ours: the graphs must have the same nodes and edges, stream the same `updates` node names,
 * and end with the same messages (type, content, name, tool call ids).
 */
import { BaseChatModel as LcChatModel } from "@langchain/core/language_models/chat_models";
import {
  AIMessage as LcAIMessage,
  type BaseMessage as LcBaseMessage,
  HumanMessage as LcHumanMessage,
} from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { tool as lcTool } from "@langchain/core/tools";
import { createReactAgent as lcCreateReactAgent } from "@langchain/langgraph/prebuilt";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AIMessage, type BaseMessage, HumanMessage, type ToolCall } from "../messages/index.js";
import { FakeChatModel } from "../testing/index.js";
import { tool } from "../tools/index.js";
import { createReactAgent } from "./create-react-agent.js";

/** LangChain.js's side of FakeChatModel: scripted answers. */
class ScriptedLcModel extends LcChatModel {
  private index = 0;
  constructor(private readonly script: Array<{ id: string; content: string; tool_calls: ToolCall[] }>) {
    super({});
  }
  _llmType(): string {
    return "scripted";
  }
  override bindTools(): this {
    return this;
  }
  async _generate(): Promise<ChatResult> {
    const next = this.script[this.index++];
    if (next === undefined) throw new Error("script exhausted");
    return {
      generations: [
        {
          text: next.content,
          message: new LcAIMessage(next as ConstructorParameters<typeof LcAIMessage>[0]),
        },
      ],
    };
  }
}

type Step = { id: string; content: string; tool_calls: ToolCall[] };
const tc = (name: string, args: Record<string, unknown>, id: string): ToolCall => ({
  name,
  args,
  id,
  type: "tool_call",
});
const schema = z.object({ q: z.string() });
const search = async ({ q }: { q: string }) => `results for ${q}`;
const finish = async ({ q }: { q: string }) => `final ${q}`;

interface Scenario {
  script: Step[];
  version?: "v1" | "v2";
  name?: string;
  preModelHook?: boolean;
}

type Summary = { type: string; content: unknown; name: string | undefined; toolCallId: unknown };
const summarise = (messages: ReadonlyArray<BaseMessage | LcBaseMessage>): Summary[] =>
  messages.map((m) => ({
    type: m.getType(),
    content: m.content,
    name: m.name,
    toolCallId: (m as { tool_call_id?: unknown }).tool_call_id,
  }));

async function runOurs(s: Scenario) {
  const tools = [
    tool(search, { name: "search", description: "Search.", schema }),
    tool(finish, { name: "finish", description: "Finish.", schema, returnDirect: true }),
  ];
  const llm = new FakeChatModel({ responses: s.script.map((step) => new AIMessage(step)) });
  const agent = createReactAgent({
    llm,
    tools,
    ...(s.version === undefined ? {} : { version: s.version }),
    ...(s.name === undefined ? {} : { name: s.name }),
    ...(s.preModelHook
      ? { preModelHook: (st: { messages: BaseMessage[] }) => ({ llmInputMessages: st.messages }) }
      : {}),
  });
  const nodes: string[] = [];
  let messages: BaseMessage[] = [];
  for await (const [mode, chunk] of await agent.stream(
    { messages: [new HumanMessage({ content: "hi", id: "h1" })] },
    { streamMode: ["updates", "values"] },
  )) {
    if (mode === "updates") nodes.push(...Object.keys(chunk));
    else messages = (chunk as { messages: BaseMessage[] }).messages;
  }
  const graph = agent.getGraph();
  const edges = graph.edges.map((e) => `${e.source}->${e.target}${e.conditional ? "?" : ""}`).sort();
  return { nodes, messages: summarise(messages), graph: [Object.keys(graph.nodes).sort(), edges] };
}

async function runTheirs(s: Scenario) {
  const tools = [
    lcTool(search, { name: "search", description: "Search.", schema }),
    lcTool(finish, { name: "finish", description: "Finish.", schema, returnDirect: true }),
  ];
  const agent = lcCreateReactAgent({
    llm: new ScriptedLcModel(s.script),
    tools,
    ...(s.version === undefined ? {} : { version: s.version }),
    ...(s.name === undefined ? {} : { name: s.name }),
    ...(s.preModelHook
      ? { preModelHook: (st: { messages: LcBaseMessage[] }) => ({ llmInputMessages: st.messages }) }
      : {}),
  });
  const nodes: string[] = [];
  let messages: LcBaseMessage[] = [];
  for await (const [mode, chunk] of await agent.stream(
    { messages: [new LcHumanMessage({ content: "hi", id: "h1" })] },
    { streamMode: ["updates", "values"] },
  )) {
    if (mode === "updates") nodes.push(...Object.keys(chunk as object));
    else messages = (chunk as { messages: LcBaseMessage[] }).messages;
  }
  const graph = await agent.getGraphAsync();
  const edges = graph.edges.map((e) => `${e.source}->${e.target}${e.conditional ? "?" : ""}`).sort();
  return { nodes, messages: summarise(messages), graph: [Object.keys(graph.nodes).sort(), edges] };
}

const scenarios: Record<string, Scenario> = {
  "v1 parallel calls": {
    script: [
      { id: "a1", content: "", tool_calls: [tc("search", { q: "a" }, "c1"), tc("search", { q: "b" }, "c2")] },
      { id: "a2", content: "done", tool_calls: [] },
    ],
  },
  "v2 parallel calls, named agent": {
    version: "v2",
    name: "researcher",
    script: [
      { id: "a1", content: "", tool_calls: [tc("search", { q: "a" }, "c1"), tc("search", { q: "b" }, "c2")] },
      { id: "a2", content: "done", tool_calls: [] },
    ],
  },
  "return-direct with a pre-model hook": {
    preModelHook: true,
    script: [
      { id: "a1", content: "", tool_calls: [tc("search", { q: "a" }, "c1")] },
      { id: "a2", content: "", tool_calls: [tc("finish", { q: "z" }, "c2")] },
    ],
  },
};

describe("createReactAgent matches LangGraph.js", () => {
  for (const [label, scenario] of Object.entries(scenarios)) {
    it(label, async () => {
      const [ours, theirs] = await Promise.all([runOurs(scenario), runTheirs(scenario)]);
      expect(ours.graph).toEqual(theirs.graph);
      expect(ours.nodes).toEqual(theirs.nodes);
      expect(ours.messages).toEqual(theirs.messages);
    });
  }
});
