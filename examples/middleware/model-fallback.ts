/**
 * modelFallbackMiddleware: when the agent's model throws, try other models in order.
 * Run: npx tsx --conditions=source examples/middleware/model-fallback.ts
 */
import { createAgent, modelFallbackMiddleware } from "agentgraph/agents";
import { type BaseMessage, HumanMessage } from "agentgraph/messages";
import { FakeChatModel } from "agentgraph/testing";

// A model whose provider is down: every call fails.
class DownModel extends FakeChatModel {
  override async _generate(_messages: BaseMessage[]): Promise<never> {
    throw new Error("503 Service Unavailable");
  }
}

const agent = createAgent({
  model: new DownModel({ responses: [] }),
  // fallbacks can be model instances or "provider:model" strings (resolved on first use)
  middleware: [modelFallbackMiddleware(new FakeChatModel({ responses: ["Answer from the fallback."] }))],
});

const result = await agent.invoke({ messages: [new HumanMessage("Hi")] });
console.log("answer:", result.messages.at(-1)?.text);
