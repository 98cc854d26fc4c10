/**
 * summarizationMiddleware: once the history reaches a trigger, replace older messages with a
 * summary written by a (usually cheaper) model, keeping the most recent ones verbatim.
 * Run: npx tsx --conditions=source examples/middleware/summarization.ts
 */
import { createAgent, summarizationMiddleware } from "agentgraph/agents";
import { AIMessage, HumanMessage } from "agentgraph/messages";
import { FakeChatModel } from "agentgraph/testing";

const summarizer = new FakeChatModel({ responses: ["The user asked about Paris and Rome."] });
const agent = createAgent({
  model: new FakeChatModel({ responses: ["Berlin is lovely too."] }),
  middleware: [
    // summarize when there are 5 messages or more, keep the last 2 as they are
    summarizationMiddleware({ model: summarizer, trigger: { messages: 5 }, keep: { messages: 2 } }),
  ],
});

const result = await agent.invoke({
  messages: [
    new HumanMessage("Tell me about Paris"),
    new AIMessage("Paris is the capital of France."),
    new HumanMessage("And Rome?"),
    new AIMessage("Rome is the capital of Italy."),
    new HumanMessage("What about Berlin?"),
  ],
});

// The state now starts with the summary message.
for (const message of result.messages) console.log(`${message.getType()}: ${JSON.stringify(message.text)}`);
