// Expected values are what `langchain` 1.5.14 / @langchain/langgraph 1.7.3 stream for the same agents.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Command } from "../index.js";
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  HumanMessage,
  isAIMessageChunk,
} from "../messages/index.js";
import { BaseChatModel, ChatGenerationChunk, type ChatModelRun, type ChatResult } from "../models/index.js";
import { FakeChatModel } from "../testing/index.js";
import { tool } from "../tools/index.js";
import { createAgent, toolStrategy } from "./index.js";

type MessageChunk = [BaseMessage, Record<string, unknown>];

describe("an agent's messages stream", () => {
  it("lists a model's own tags (withConfig) before the run's, as the node's config is passed to it", async () => {
    const model = new FakeChatModel({ responses: ["hello"] }).withConfig({ tags: ["model-tag"] });
    const agent = createAgent({ model, tools: [] });
    const tags: unknown[] = [];
    for await (const chunk of await agent.stream(
      { messages: [new HumanMessage("hi")] },
      { streamMode: "messages", tags: ["run-tag"] },
    )) {
      const [, metadata] = chunk as MessageChunk;
      tags.push(metadata.tags);
    }
    expect(tags.length).toBeGreaterThan(0);
    for (const t of tags) expect(t).toEqual(["model-tag", "run-tag"]);
  });
});

/** A model that streams two chunks and reports them to `handleLLMNewToken` only when `reports`. */
class TwoChunkModel extends BaseChatModel {
  constructor(private readonly reports: boolean) {
    super({});
  }
  _llmType(): string {
    return "two-chunks";
  }
  async _generate(): Promise<ChatResult> {
    const message = new AIMessage({ content: "Hello world", id: "gen-1" });
    return { generations: [{ message, text: message.text }] };
  }
  override async *_streamResponseChunks(
    _messages: BaseMessage[],
    _options: this["ParsedCallOptions"],
    runManager?: ChatModelRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    for (const text of ["Hello", " world"]) {
      const chunk = new ChatGenerationChunk({
        message: new AIMessageChunk({ content: text, id: "c-1" }),
        text,
      });
      yield chunk;
      if (this.reports)
        await runManager?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, { chunk });
    }
  }
}

describe("the name of an agent's streamed answer", () => {
  const streamed = async (reports: boolean, name?: string) => {
    const agent = createAgent({ model: new TwoChunkModel(reports), tools: [], ...(name ? { name } : {}) });
    const chunks: MessageChunk[] = [];
    // read once the run is over, after the node named its answer
    for await (const chunk of await agent.stream(
      { messages: [new HumanMessage("hi")] },
      { streamMode: "messages" },
    ))
      chunks.push(chunk as MessageChunk);
    return chunks.map(([message]) => ({
      chunk: isAIMessageChunk(message),
      content: message.content,
      name: message.name,
    }));
  };

  it("is on the whole chunk a model streamed without reporting tokens, as LangChain.js's invoke returns that chunk", async () => {
    expect(await streamed(false)).toEqual([{ chunk: true, content: "Hello world", name: "model" }]);
    expect(await streamed(false, "helper")).toEqual([
      { chunk: true, content: "Hello world", name: "helper" },
    ]);
  });

  it("is not on the token chunks a model reported", async () => {
    expect(await streamed(true)).toEqual([
      { chunk: true, content: "Hello", name: undefined },
      { chunk: true, content: " world", name: undefined },
    ]);
  });
});

describe("an agent's streamEvents (v2)", () => {
  const outputsOf = async (agent: ReturnType<typeof createAgent>) => {
    const outputs: unknown[] = [];
    for await (const event of agent.streamEvents({ messages: [new HumanMessage("hi")] }, { version: "v2" })) {
      if (event.event === "on_chain_end" && event.name === "model_request") outputs.push(event.data.output);
    }
    return outputs;
  };

  it("ends model_request with the list of commands the node returns, as LangChain.js's node does", async () => {
    const call = { name: "echo", args: { x: "a" }, id: "call_1", type: "tool_call" as const };
    const model = new FakeChatModel({
      responses: [new AIMessage({ content: "", tool_calls: [call] }), "done"],
    });
    const echo = tool(async ({ x }) => `echo ${x}`, { name: "echo", schema: z.object({ x: z.string() }) });
    const outputs = await outputsOf(createAgent({ model, tools: [echo] }));
    expect(outputs).toHaveLength(2);
    for (const [i, output] of outputs.entries()) {
      expect(Array.isArray(output)).toBe(true);
      const [command, ...others] = output as Command[];
      expect(others).toEqual([]);
      expect(command).toBeInstanceOf(Command);
      const messages = (command as Command).update as { messages: AIMessage[] };
      expect(messages.messages.map((m) => [m.text, m.name])).toEqual([[i === 0 ? "" : "done", "model"]]);
    }
  });

  it("ends it with a plain update when the answer carries the structured response", async () => {
    const answer = { name: "Answer", args: { answer: "42" }, id: "call_1", type: "tool_call" as const };
    const model = new FakeChatModel({ responses: [new AIMessage({ content: "", tool_calls: [answer] })] });
    const schema = {
      title: "Answer",
      type: "object",
      properties: { answer: { type: "string" } },
      required: ["answer"],
    };
    const outputs = await outputsOf(createAgent({ model, tools: [], responseFormat: toolStrategy(schema) }));
    expect(outputs).toHaveLength(1);
    expect(Array.isArray(outputs[0])).toBe(false);
    expect(outputs[0]).toMatchObject({ structuredResponse: { answer: "42" } });
  });
});
