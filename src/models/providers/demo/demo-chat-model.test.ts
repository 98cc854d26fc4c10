import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "../../../messages/index.js";
import { tool } from "../../../tools/index.js";
import { DemoChatModel } from "./demo-chat-model.js";

const getWeather = tool(async ({ city }) => `It's always sunny in ${city}!`, {
  name: "get_weather",
  description: "Get weather for a given city.",
  schema: z.object({ city: z.string() }),
});
const addNumbers = tool(async ({ a }) => String(a), {
  name: "add_numbers",
  description: "Add numbers.",
  schema: z.object({ a: z.number(), fast: z.boolean() }),
});

describe("DemoChatModel", () => {
  it("calls the matching tool with arguments taken from the question", async () => {
    const model = new DemoChatModel().bindTools([addNumbers, getWeather]);
    const reply = await model.invoke([
      new SystemMessage("You are a helpful assistant"),
      new HumanMessage("What is the weather in Suzhou?"),
    ]);
    expect(reply.tool_calls).toEqual([
      { name: "get_weather", args: { city: "Suzhou" }, id: "call_demo_1", type: "tool_call" },
    ]);
    expect(reply.id).toBe("demo-1");
  });

  it("fills numbers and booleans from the schema", async () => {
    const reply = await new DemoChatModel().bindTools([addNumbers]).invoke("Please add numbers 41 fast");
    expect(reply.tool_calls[0]?.args).toEqual({ a: 41, fast: true });
  });

  it("answers by quoting the tool results, and says what it is", async () => {
    const call = {
      name: "get_weather",
      args: { city: "Suzhou" },
      id: "call_demo_1",
      type: "tool_call" as const,
    };
    const reply = await new DemoChatModel().bindTools([getWeather]).invoke([
      new HumanMessage("What is the weather in Suzhou?"),
      new AIMessage({ content: "", tool_calls: [call] }),
      new ToolMessage({
        content: "It's always sunny in Suzhou!",
        tool_call_id: "call_demo_1",
        name: "get_weather",
      }),
    ]);
    expect(reply.tool_calls).toEqual([]);
    expect(reply.text).toBe(
      "(offline demo model) Here is what the tools returned — get_weather: It's always sunny in Suzhou!",
    );
    expect(reply.id).toBe("demo-2");
  });

  it("without tools, announces itself as an offline demo", async () => {
    const reply = await new DemoChatModel().invoke("hello");
    expect(reply.text).toMatch(
      /^\(offline demo model\) I am agentgraph's offline demo model, not a language model/,
    );
  });

  it("streams the same answer", async () => {
    const chunks = [];
    for await (const chunk of await new DemoChatModel().bindTools([getWeather]).stream("Weather in Oslo?"))
      chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(0);
    const joined = chunks.reduce((a, b) => a.concat(b));
    expect(joined.tool_calls).toEqual([
      { name: "get_weather", args: { city: "Oslo" }, id: "call_demo_1", type: "tool_call" },
    ]);
  });
});
