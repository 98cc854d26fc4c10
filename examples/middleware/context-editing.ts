/**
 * contextEditingMiddleware + ClearToolUsesEdit: once the conversation grows, old tool results
 * are replaced by a placeholder in what the model sees. The state keeps every result.
 * Run: npx tsx --conditions=source examples/middleware/context-editing.ts
 */
import { ClearToolUsesEdit, contextEditingMiddleware, createAgent } from "agentgraph/agents";
import { AIMessage, HumanMessage } from "agentgraph/messages";
import { FakeChatModel } from "agentgraph/testing";
import { tool } from "agentgraph/tools";
import { z } from "zod";

const search = tool(async () => "a long page of results ".repeat(20), {
  name: "search",
  description: "Search.",
  schema: z.object({}),
});
const callSearch = (id: string) =>
  new AIMessage({ content: "", tool_calls: [{ name: "search", args: {}, id, type: "tool_call" }] });

// two searches, then an answer
const model = new FakeChatModel({ responses: [callSearch("c1"), callSearch("c2"), "Done."] });
const agent = createAgent({
  model,
  tools: [search],
  middleware: [
    contextEditingMiddleware({
      // above ~150 tokens, keep only the most recent tool result
      edits: [new ClearToolUsesEdit({ trigger: { tokens: 150 }, keep: { messages: 1 } })],
    }),
  ],
});

const result = await agent.invoke({ messages: [new HumanMessage("Research this")] });
const seen = model.calls[2]?.filter((m) => m.getType() === "tool").map((m) => m.text.slice(0, 14));
console.log("third model call saw tool results:", JSON.stringify(seen));
console.log("tool results in state:", result.messages.filter((m) => m.getType() === "tool").length);
