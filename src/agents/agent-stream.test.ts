// Expected values are what `langchain` 1.5.14 / @langchain/langgraph 1.7.3 stream for the same agents.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Command } from "../index.js";
import { AIMessage, type BaseMessage, HumanMessage } from "../messages/index.js";
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
