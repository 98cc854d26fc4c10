import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AIMessage, HumanMessage, isToolMessage } from "../../messages/index.js";
import { tool } from "../../tools/index.js";
import { createAgent } from "../create-agent.js";
import { fakeModel } from "../testing/fake-model.js";
import { toolEmulatorMiddleware } from "./tool-emulator.js";

let realRuns = 0;
const getWeather = tool(
  async () => {
    realRuns += 1;
    return "real weather";
  },
  { name: "get_weather", description: "Weather of a city.", schema: z.object({ city: z.string() }) },
);
const add = tool(async ({ a, b }) => String(a + b), {
  name: "add",
  description: "Adds.",
  schema: z.object({ a: z.number(), b: z.number() }),
});

afterEach(() => {
  realRuns = 0;
  vi.restoreAllMocks();
});

describe("toolEmulatorMiddleware", () => {
  it("asks the agent's model to produce the tool's output, with LangChain.js's prompt", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "get_weather", args: { city: "Suzhou" }, id: "c1" }])
      .respond(new AIMessage("Emulated: 21°C"))
      .respond(new AIMessage("It is 21°C."));
    const agent = createAgent({ model, tools: [getWeather], middleware: [toolEmulatorMiddleware()] });
    const result = await agent.invoke({ messages: [new HumanMessage("Weather?")] });
    expect(realRuns).toBe(0);
    const answer = result.messages.find(isToolMessage);
    expect(answer).toMatchObject({ content: "Emulated: 21°C", tool_call_id: "c1", name: "get_weather" });
    expect(model.calls[1]?.messages.map((m) => m.text)).toEqual([
      `You are emulating a tool call for testing purposes.

Tool: get_weather
Description: Weather of a city.
Arguments: {"city":"Suzhou"}

Generate a realistic response that this tool would return given these arguments.
Return ONLY the tool's output, no explanation or preamble. Introduce variation into your responses.`,
    ]);
    expect(result.messages.at(-1)?.text).toBe("It is 21°C.");
  });

  it("emulates only the listed tools, with the given model; content blocks are JSON-encoded", async () => {
    const emulator = fakeModel().respond(new AIMessage({ content: [{ type: "text", text: "sunny" }] }));
    const model = fakeModel()
      .respondWithTools([
        { name: "get_weather", args: { city: "Suzhou" }, id: "c1" },
        { name: "add", args: { a: 1, b: 2 }, id: "c2" },
      ])
      .respond(new AIMessage("done"));
    const agent = createAgent({
      model,
      tools: [getWeather, add],
      middleware: [toolEmulatorMiddleware({ tools: [getWeather], model: emulator })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("go")] });
    const answers = result.messages.filter(isToolMessage).map((m) => [m.name, m.content]);
    expect(answers).toEqual([
      ["get_weather", '[{"type":"text","text":"sunny"}]'],
      ["add", "3"],
    ]);
    expect(emulator.callCount).toBe(1);
    expect(model.callCount).toBe(2);
  });

  it("falls back to the agent's model when the model string cannot be initialised", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const model = fakeModel()
      .respondWithTools([{ name: "get_weather", args: { city: "Suzhou" }, id: "c1" }])
      .respond(new AIMessage("from agent model"))
      .respond(new AIMessage("done"));
    const agent = createAgent({
      model,
      tools: [getWeather],
      middleware: [toolEmulatorMiddleware({ model: "nosuchprovider:model-x" })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(result.messages.find(isToolMessage)?.content).toBe("from agent model");
    expect(errors.mock.calls[0]?.[0]).toBe("Error initializing emulator model, using agent model:");
    expect(toolEmulatorMiddleware().name).toBe("ToolEmulatorMiddleware");
  });
});
