/**
 * What an agent's model and tools do and what a `stream()` consumer reads interleave as in
 * LangGraph.js 1.7.3 with langchain 1.5.14: in a streamed run a model call reaches `_generate`
 * (one microtask turn later) or `_streamResponseChunks` (two), and a tool call its function (one),
 * as late, relative to the run, as LangChain.js's do, and the run keeps about a step ahead of a
 * consumer that reads at once.
 * Each expected sequence is what LangGraph.js printed for the same program (`gen i`: the model's
 * i-th call, `tok x`: a streamed token, `tool q`: the tool ran, `read <mode>`: the consumer read a
 * chunk).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { StreamMode } from "../index.js";
import { AIMessage, AIMessageChunk, type BaseMessage, HumanMessage } from "../messages/index.js";
import { BaseChatModel, ChatGenerationChunk, type ChatResult } from "../models/index.js";
// the package entry point: it installs the async-context storage a call finds its run through
import "../index.js";
import { tool } from "../tools/index.js";
import { createAgent, createMiddleware } from "./index.js";

/** A model that calls `lookup` on each of its first `calls` turns, then answers. */
class ScriptedModel extends BaseChatModel {
  private turn = 0;

  constructor(
    protected readonly log: string[],
    private readonly calls: number,
  ) {
    super({});
  }

  _llmType(): string {
    return "scripted";
  }

  override bindTools(): this {
    return this;
  }

  async _generate(_messages: BaseMessage[]): Promise<ChatResult> {
    const turn = this.turn++;
    this.log.push(`gen ${turn}`);
    const message =
      turn < this.calls
        ? new AIMessage({
            content: "",
            id: `ai-${turn}`,
            tool_calls: [{ id: `call_${turn}`, name: "lookup", args: { q: `q${turn}` }, type: "tool_call" }],
          })
        : new AIMessage({ content: "done", id: `ai-${turn}` });
    return { generations: [{ message, text: typeof message.content === "string" ? message.content : "" }] };
  }
}

/** The same model, streaming its answer as two tokens and then its tool calls. */
class StreamingModel extends ScriptedModel {
  override async *_streamResponseChunks(messages: BaseMessage[]): AsyncGenerator<ChatGenerationChunk> {
    const answer = (await this._generate(messages)).generations[0]?.message as AIMessage;
    for (const piece of ["a", "b"]) {
      this.log.push(`tok ${piece}`);
      yield new ChatGenerationChunk({
        text: piece,
        message: new AIMessageChunk({ content: piece, id: answer.id }),
      });
    }
    const tool_call_chunks = answer.tool_calls?.map((call, index) => ({
      id: call.id,
      name: call.name,
      args: JSON.stringify(call.args),
      index,
      type: "tool_call_chunk" as const,
    }));
    yield new ChatGenerationChunk({
      text: "",
      message: new AIMessageChunk({ content: "", id: answer.id, tool_call_chunks }),
    });
  }
}

function agentOf(log: string[], kind: "plain" | "streaming" | "middleware") {
  const lookup = tool(
    async ({ q }) => {
      log.push(`tool ${q}`);
      return `result for ${q}`;
    },
    { name: "lookup", description: "Looks a query up.", schema: z.object({ q: z.string() }) },
  );
  const model = kind === "streaming" ? new StreamingModel(log, 2) : new ScriptedModel(log, 2);
  const middleware =
    kind === "middleware"
      ? [
          createMiddleware({
            name: "Log",
            beforeModel: () => {
              log.push("before");
            },
            afterModel: () => {
              log.push("after");
            },
          }),
        ]
      : [];
  return createAgent({ model, tools: [lookup], middleware });
}

describe("a streamed agent's model, tools and consumer", () => {
  it.each([
    [
      "plain",
      "updates",
      "gen 0 | tool q0 | read updates | read updates | gen 1 | read updates | tool q1 | read updates | gen 2 | read updates",
    ],
    [
      "plain",
      "messages",
      "gen 0 | read messages | tool q0 | read messages | gen 1 | read messages | tool q1 | read messages | gen 2 | read messages",
    ],
    [
      "plain",
      ["values", "messages"],
      "gen 0 | read values | read messages | tool q0 | read values | read messages | gen 1 | read values | read messages | tool q1 | read values | read messages | gen 2 | read values | read messages | read values",
    ],
    [
      "streaming",
      "messages",
      "gen 0 | tok a | tok b | read messages | tool q0 | read messages | gen 1 | tok a | tok b | read messages | tool q1 | read messages | gen 2 | tok a | tok b | read messages",
    ],
    [
      "streaming",
      ["updates", "messages"],
      "gen 0 | tok a | tok b | read messages | read updates | tool q0 | read messages | read updates | gen 1 | tok a | tok b | read messages | read updates | tool q1 | read messages | read updates | gen 2 | tok a | tok b | read messages | read updates",
    ],
    [
      "streaming",
      ["updates", "values"],
      "gen 0 | read values | read updates | tool q0 | read values | read updates | gen 1 | read values | read updates | tool q1 | read values | read updates | gen 2 | read values | read updates | read values",
    ],
    [
      "middleware",
      "values",
      "before | read values | gen 0 | read values | after | read values | tool q0 | read values | before | read values | gen 1 | read values | after | read values | tool q1 | read values | before | read values | gen 2 | read values | after | read values | read values",
    ],
  ] as const)("interleave as in LangGraph.js (%s model, %j)", async (kind, mode, expected) => {
    const log: string[] = [];
    const agent = agentOf(log, kind);
    const streamMode = mode as StreamMode | StreamMode[];
    const input = { messages: [new HumanMessage({ content: "hi", id: "h" })] };
    for await (const chunk of await agent.stream(input, { streamMode })) {
      log.push(`read ${typeof streamMode === "string" ? streamMode : (chunk as unknown as [string])[0]}`);
    }
    expect(log.join(" | ")).toBe(expected);
  });

  it("an invoked agent makes the same calls, in the same order", async () => {
    const log: string[] = [];
    const out = await agentOf(log, "plain").invoke({
      messages: [new HumanMessage({ content: "hi", id: "h" })],
    });
    expect(log).toEqual(["gen 0", "tool q0", "gen 1", "tool q1", "gen 2"]);
    expect(out.messages.at(-1)?.content).toBe("done");
  });
});
