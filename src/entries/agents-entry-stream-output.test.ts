import { describe, expect, it } from "vitest";
import { ChatOpenAI } from "../models/index.js";
import { AIMessage, createAgent, HumanMessage, tool } from "./agents.js";
import { openAITextOnlyChunks, openAIToolCallChunks, sseResponseFromOpenAIChunks } from "./testing.js";

// Only the agents and testing entries are imported here, not the root entry: what a suite ported
// from `langchain` and `@langchain/core/testing` gets.
describe("agentgraph/agents without the root entry", () => {
  it("makes a v3 run's ChatModelStream.output an AIMessage with its tool calls", async () => {
    const search = tool(async () => "sunny", {
      name: "web_search",
      description: "Searches the web.",
      schema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    });
    let calls = 0;
    const model = new ChatOpenAI({
      model: "gpt-4o-mini",
      apiKey: "sk-test",
      streaming: true,
      configuration: {
        fetch: async () =>
          sseResponseFromOpenAIChunks(calls++ === 0 ? openAIToolCallChunks() : openAITextOnlyChunks()),
      },
    });
    const agent = createAgent({ model, tools: [search] });
    const run = await agent.streamEvents({ messages: [new HumanMessage("Weather?")] }, { version: "v3" });
    const outputs: unknown[] = [];
    for await (const message of run.messages) outputs.push(await message.output);
    expect(outputs).toHaveLength(2);
    const [first, second] = outputs;
    expect(first).toBeInstanceOf(AIMessage);
    expect((first as AIMessage).tool_calls).toEqual([
      { type: "tool_call", id: "call_abc", name: "web_search", args: { query: "weather" } },
    ]);
    expect(second).toBeInstanceOf(AIMessage);
    expect((second as AIMessage).text).toBe("Hello world");
  });
});
