/**
 * toolCallLimitMiddleware: cap calls to one tool (or to all tools) per thread and per run.
 * Calls over the limit are answered by the middleware with an error ToolMessage; the tool never runs.
 * Run: npx tsx --conditions=source examples/middleware/tool-call-limit.ts
 */
import { createAgent, toolCallLimitMiddleware } from "agentgraph/agents";
import { AIMessage, HumanMessage } from "agentgraph/messages";
import { FakeChatModel } from "agentgraph/testing";
import { tool } from "agentgraph/tools";
import { z } from "zod";

const search = tool(async ({ q }) => `results for ${q}`, {
  name: "search",
  description: "Search the web.",
  schema: z.object({ q: z.string() }),
});

// The scripted model asks for two searches at once, then answers.
const twoSearches = new AIMessage({
  content: "",
  tool_calls: [
    { name: "search", args: { q: "a" }, id: "call_1", type: "tool_call" },
    { name: "search", args: { q: "b" }, id: "call_2", type: "tool_call" },
  ],
});

const agent = createAgent({
  model: new FakeChatModel({ responses: [twoSearches, "Here is what I found."] }),
  tools: [search],
  // one search per run; the second call is blocked and the model sees why
  middleware: [toolCallLimitMiddleware({ toolName: "search", runLimit: 1 })],
});

const result = await agent.invoke({ messages: [new HumanMessage("Search twice")] });
for (const message of result.messages) console.log(`${message.getType()}: ${message.text}`);
