/**
 * piiMiddleware: detect personal data in messages and redact, mask, hash or block it.
 * One middleware per PII type; custom types take a detector (RegExp, pattern or function).
 * Run: npx tsx --conditions=source examples/middleware/pii.ts
 */
import { createAgent, piiMiddleware } from "agentgraph/agents";
import { HumanMessage } from "agentgraph/messages";
import { FakeChatModel } from "agentgraph/testing";

const model = new FakeChatModel({ responses: ["Charged card 4111 1111 1111 1111."] });
const agent = createAgent({
  model,
  middleware: [
    // emails in the user's message are redacted before the model sees them
    piiMiddleware("email"),
    // card numbers in the model's answer are masked
    piiMiddleware("credit_card", { strategy: "mask", applyToOutput: true }),
    // an API key in the input stops the run (PIIDetectionError)
    piiMiddleware("api_key", { strategy: "block", detector: /sk-[a-zA-Z0-9]{20}/ }),
  ],
});

const result = await agent.invoke({ messages: [new HumanMessage("Bill ann@example.com")] });
console.log("the model saw:", model.calls[0]?.map((m) => m.text).join(" | "));
console.log("the answer:", result.messages.at(-1)?.text);

try {
  await agent.invoke({ messages: [new HumanMessage("My key is sk-abcdefghijklmnopqrstu")] });
} catch (error) {
  // the middleware's PIIDetectionError, as it was thrown
  console.log("blocked:", (error as Error).message);
}
