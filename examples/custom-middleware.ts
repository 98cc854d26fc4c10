/**
 * A custom middleware with createMiddleware: its own state field, node hooks (beforeAgent,
 * beforeModel, afterModel, afterAgent) and wrap hooks (wrapModelCall, wrapToolCall). Each hook
 * logs when it runs, so the output shows the order of one agent run with one tool call.
 * Run: npx tsx --conditions=source examples/custom-middleware.ts
 */
import { createAgent, createMiddleware } from "agentgraph/agents";
import { AIMessage, HumanMessage } from "agentgraph/messages";
import { FakeChatModel } from "agentgraph/testing";
import { tool } from "agentgraph/tools";
import { z } from "zod";

const getWeather = tool(async ({ city }) => `It's always sunny in ${city}!`, {
  name: "get_weather",
  description: "Get weather for a given city.",
  schema: z.object({ city: z.string() }),
});

const tracer = createMiddleware({
  name: "Tracer",
  // added to the agent's state (and to the result); .default() fills it in at the start
  stateSchema: z.object({ modelCalls: z.number().default(0) }),
  beforeAgent: () => console.log("beforeAgent"),
  beforeModel: (state) => console.log(`beforeModel (${state.messages.length} messages)`),
  // wrapModelCall may change the request for this call only: here it adds to the system prompt
  wrapModelCall: async (request, handler) => {
    console.log("wrapModelCall: calling the model");
    const answer = await handler({ ...request, systemPrompt: `${request.systemPrompt} Be brief.` });
    console.log(`wrapModelCall: got ${answer.tool_calls?.length ? "a tool call" : "an answer"}`);
    return answer;
  },
  // afterModel returns a state update
  afterModel: (state) => {
    console.log("afterModel");
    return { modelCalls: state.modelCalls + 1 };
  },
  wrapToolCall: async (request, handler) => {
    console.log(`wrapToolCall: ${request.toolCall.name}(${JSON.stringify(request.toolCall.args)})`);
    return handler(request);
  },
  afterAgent: (state) => console.log(`afterAgent (${state.messages.length} messages)`),
});

const model = new FakeChatModel({
  responses: [
    new AIMessage({
      content: "",
      tool_calls: [{ name: "get_weather", args: { city: "Suzhou" }, id: "call_1", type: "tool_call" }],
    }),
    "It's sunny in Suzhou.",
  ],
});
const agent = createAgent({
  model,
  tools: [getWeather],
  systemPrompt: "You are a helpful assistant.",
  middleware: [tracer],
});

const result = await agent.invoke({ messages: [new HumanMessage("What is the weather in Suzhou?")] });
console.log("modelCalls:", result.modelCalls);
console.log("system prompt the model got:", model.calls[0]?.[0]?.text);
console.log("answer:", result.messages.at(-1)?.text);
