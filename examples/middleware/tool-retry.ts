/**
 * toolRetryMiddleware: retry tool calls whose tool throws, with backoff.
 * Run: npx tsx --conditions=source examples/middleware/tool-retry.ts
 */
import { createAgent, toolRetryMiddleware } from "agentgraph/agents";
import { AIMessage, HumanMessage } from "agentgraph/messages";
import { FakeChatModel } from "agentgraph/testing";
import { tool } from "agentgraph/tools";
import { z } from "zod";

// A tool that is busy for its first two calls.
let attempts = 0;
const searchDatabase = tool(
  async ({ query }) => {
    attempts += 1;
    if (attempts < 3) throw new Error("database busy");
    return `3 rows for ${query}`;
  },
  { name: "search_database", description: "Search the database.", schema: z.object({ query: z.string() }) },
);

const agent = createAgent({
  model: new FakeChatModel({
    responses: [
      new AIMessage({
        content: "",
        tool_calls: [{ name: "search_database", args: { query: "orders" }, id: "call_1", type: "tool_call" }],
      }),
      "Found 3 orders.",
    ],
  }),
  tools: [searchDatabase],
  // retry only this tool; after the last failure the model would get an error ToolMessage
  middleware: [toolRetryMiddleware({ tools: ["search_database"], maxRetries: 3, initialDelayMs: 10 })],
});

const result = await agent.invoke({ messages: [new HumanMessage("How many orders?")] });
console.log(`tool attempts: ${attempts}`);
console.log(`tool result: ${result.messages[2]?.text}`);
console.log(`answer: ${result.messages.at(-1)?.text}`);
