// Expected values are what `langchain` 1.5.14 / @langchain/langgraph 1.7.3 stream for the same agents.
import { describe, expect, it } from "vitest";
import "../index.js";
import { type BaseMessage, HumanMessage } from "../messages/index.js";
import { FakeChatModel } from "../testing/index.js";
import { createAgent } from "./index.js";

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
