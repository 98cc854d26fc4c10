/**
 * modelRetryMiddleware: retry failed model calls with exponential backoff.
 * Run: npx tsx --conditions=source examples/middleware/model-retry.ts
 */
import { createAgent, modelRetryMiddleware } from "agentgraph/agents";
import { type BaseMessage, HumanMessage } from "agentgraph/messages";
import { FakeChatModel } from "agentgraph/testing";

// A model that fails twice with a transient error, then answers.
class FlakyModel extends FakeChatModel {
  attempts = 0;
  override async _generate(messages: BaseMessage[]) {
    this.attempts += 1;
    if (this.attempts <= 2) throw new Error("connection reset");
    return super._generate(messages);
  }
}

const model = new FlakyModel({ responses: ["Third time lucky."] });
const agent = createAgent({
  model,
  // up to 2 retries, waiting 10 ms, then 20 ms (jitter off to keep the demo deterministic)
  middleware: [modelRetryMiddleware({ maxRetries: 2, initialDelayMs: 10, jitter: false })],
});

const result = await agent.invoke({ messages: [new HumanMessage("Hi")] });
console.log(`attempts: ${model.attempts}, answer: ${result.messages.at(-1)?.text}`);
