/**
 * llmToolSelectorMiddleware: with many tools, let a (cheaper) model pick the relevant ones, and
 * call the main model with only those.
 * Run: npx tsx --conditions=source examples/middleware/llm-tool-selector.ts
 */
import { createAgent, llmToolSelectorMiddleware } from "agentgraph/agents";
import { AIMessage, type BaseMessage, HumanMessage } from "agentgraph/messages";
import { FakeChatModel } from "agentgraph/testing";
import { tool } from "agentgraph/tools";
import { z } from "zod";

const makeTool = (name: string) =>
  tool(async () => name, { name, description: `The ${name} tool.`, schema: z.object({}) });

// The selector answers through structured output: a call to `extract` listing tool names.
const selector = new FakeChatModel({
  responses: [
    new AIMessage({
      content: "",
      tool_calls: [{ name: "extract", args: { tools: ["weather"] }, id: "s1", type: "tool_call" }],
    }),
  ],
});

// The main model prints the tools it was offered (bound tools arrive as options.tools).
class MainModel extends FakeChatModel {
  override async _generate(messages: BaseMessage[], options?: this["ParsedCallOptions"]) {
    const offered = (options?.tools ?? []) as Array<{ function: { name: string } }>;
    console.log("main model offered:", offered.map((t) => t.function.name).join(", "));
    return super._generate(messages);
  }
}

const agent = createAgent({
  model: new MainModel({ responses: ["It is sunny."] }),
  tools: ["search", "weather", "calendar", "email"].map(makeTool),
  // `search` is always passed and never offered to the selector
  middleware: [llmToolSelectorMiddleware({ model: selector, maxTools: 2, alwaysInclude: ["search"] })],
});

const result = await agent.invoke({ messages: [new HumanMessage("Weather in Paris?")] });
console.log("selector saw:", JSON.stringify(selector.calls[0]?.at(-1)?.text));
console.log("answer:", result.messages.at(-1)?.text);
