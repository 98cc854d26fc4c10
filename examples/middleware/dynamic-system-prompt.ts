/**
 * dynamicSystemPromptMiddleware: compute part of the system prompt before each model call,
 * here from the run's context. The text is appended to the agent's systemPrompt; nothing is stored.
 * Run: npx tsx --conditions=source examples/middleware/dynamic-system-prompt.ts
 */
import { createAgent, dynamicSystemPromptMiddleware } from "agentgraph/agents";
import { HumanMessage } from "agentgraph/messages";
import { FakeChatModel } from "agentgraph/testing";

const model = new FakeChatModel({ responses: ["Bonjour !"] });
const agent = createAgent({
  model,
  systemPrompt: "You are a helpful assistant.",
  middleware: [
    // the type argument is the shape of the run's context
    dynamicSystemPromptMiddleware<{ language?: string }>(
      (_state, runtime) => `Answer in ${runtime.context.language ?? "English"}.`,
    ),
  ],
});

await agent.invoke({ messages: [new HumanMessage("Hi")] }, { context: { language: "French" } });

// FakeChatModel records what each call received: the system message comes first, with the
// agent's prompt and the dynamic text as two content blocks.
const system = model.calls[0]?.[0];
console.log("system message sent:", JSON.stringify(system?.content));
