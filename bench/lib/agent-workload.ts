// The agent of workloads C and E (../shared/bench/lib/agent-workload.ts): a scripted chat model
// that asks for one `lookup` tool call per turn for `turns` turns and then answers, one trivial
// tool, 200 characters on every message. The same code drives agentgraph and LangGraph.js.
import type { ImplName } from "./impl.js";

const CHARS = 200;

// biome-ignore lint/suspicious/noExplicitAny: the same code drives two libraries
type Any = any;

export interface AgentWorkload {
  /** `createAgent` with the scripted model (`onCall` runs at the start of every model call). */
  build(turns: number, saver: unknown, onCall?: () => void): Any;
  /** The user's question. */
  input(turns: number): Any;
  /** The run config: a thread when there is a saver, and a recursion limit the run cannot hit. */
  config(saver: unknown, thread: string, turns: number): Any;
}

export async function agentWorkload(impl: ImplName): Promise<AgentWorkload> {
  const agents: Any = impl === "agentgraph" ? await import("agentgraph/agents") : await import("langchain");
  const models: Any =
    impl === "agentgraph"
      ? await import("agentgraph/models")
      : await import("@langchain/core/language_models/chat_models");
  const messages: Any =
    impl === "agentgraph" ? await import("agentgraph/messages") : await import("@langchain/core/messages");
  const tools: Any =
    impl === "agentgraph" ? await import("agentgraph/tools") : await import("@langchain/core/tools");
  const { z } = await import("zod");
  const { AIMessage, HumanMessage } = messages;

  const text = (prefix: string, chars: number) => `${prefix} ${"x".repeat(chars)}`.slice(0, chars);
  const isTool = (m: Any) => (m?.type ?? m?._getType?.()) === "tool";

  /** Asks for one lookup per turn while fewer than `turns` results are in the conversation. */
  class ScriptedToolModel extends (models.BaseChatModel as Any) {
    turns: number;
    onCall: (() => void) | undefined;
    constructor(turns: number, onCall?: () => void) {
      super({});
      this.turns = turns;
      this.onCall = onCall;
    }
    _llmType() {
      return "scripted-tool-model";
    }
    bindTools() {
      return this;
    }
    async _generate(conversation: Any[]) {
      this.onCall?.();
      let turn = 0;
      for (const m of conversation) if (isTool(m)) turn++;
      const content =
        turn < this.turns
          ? text(`Step ${turn}: I will call lookup to gather more context.`, CHARS)
          : text(`Final answer after ${this.turns} tool calls.`, CHARS);
      const message =
        turn < this.turns
          ? new AIMessage({
              content,
              id: `ai-${turn}`,
              tool_calls: [
                { id: `call_${turn}`, name: "lookup", args: { query: `q${turn}` }, type: "tool_call" },
              ],
            })
          : new AIMessage({ content, id: `ai-${turn}` });
      return { generations: [{ text: content, message }] };
    }
  }

  const lookup = tools.tool(async ({ query }: { query: string }) => text(`Result for ${query}:`, CHARS), {
    name: "lookup",
    description: "Look up a fact (benchmark stub).",
    schema: z.object({ query: z.string() }),
  });

  return {
    build: (turns, saver, onCall) =>
      agents.createAgent({
        model: new ScriptedToolModel(turns, onCall),
        tools: [lookup],
        ...(saver === undefined ? {} : { checkpointer: saver }),
      }),
    input: (turns) => ({
      messages: [
        new HumanMessage({
          content: text(`Please research this topic using ${turns} lookups.`, CHARS),
          id: "human-0",
        }),
      ],
    }),
    config: (saver, thread, turns) => ({
      ...(saver === undefined ? {} : { configurable: { thread_id: thread } }),
      recursionLimit: 10 * turns + 100,
    }),
  };
}
