/**
 * Structured output: `responseFormat` makes the agent end with a typed `structuredResponse`.
 * With `toolStrategy` the schema is offered to the model as a tool; an answer that does not match
 * the schema is sent back to the model with the validation error, and the model tries again.
 * Run: npx tsx --conditions=source examples/structured-output.ts
 */
import { createAgent, toolStrategy } from "agentgraph/agents";
import { AIMessage, HumanMessage } from "agentgraph/messages";
import { FakeChatModel } from "agentgraph/testing";
import { tool } from "agentgraph/tools";
import { z } from "zod";

const getWeather = tool(async ({ city }) => `It's always sunny in ${city}!`, {
  name: "get_weather",
  description: "Get weather for a given city.",
  schema: z.object({ city: z.string() }),
});

// The schema's title names the structured-output tool ("Weather").
const Weather = z.object({ city: z.string(), sunny: z.boolean() }).meta({ title: "Weather" });

const call = (name: string, args: Record<string, unknown>, id: string) =>
  new AIMessage({ content: "", tool_calls: [{ name, args, id, type: "tool_call" }] });

const agent = createAgent({
  // The scripted model: look the weather up, answer with a wrong type, then answer correctly.
  model: new FakeChatModel({
    responses: [
      call("get_weather", { city: "Suzhou" }, "call_1"),
      call("Weather", { city: "Suzhou", sunny: "yes" }, "call_2"),
      call("Weather", { city: "Suzhou", sunny: true }, "call_3"),
    ],
  }),
  tools: [getWeather],
  responseFormat: toolStrategy(Weather),
});

const result = await agent.invoke({ messages: [new HumanMessage("Is it sunny in Suzhou?")] });

// Typed from the schema: result.structuredResponse.sunny is a boolean.
console.log("structuredResponse:", JSON.stringify(result.structuredResponse));
console.log("sunny is a", typeof result.structuredResponse.sunny);
// The retry the model was asked for, and the closing message.
const retry = result.messages.find((m) => m.getType() === "tool" && m.text.startsWith("Failed"));
console.log("retry message:", retry?.text.split("\n")[0]);
console.log("last message:", result.messages.at(-1)?.text);
