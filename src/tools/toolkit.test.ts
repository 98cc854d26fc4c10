import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BaseToolkit, isLangChainTool, isRunnableToolLike, tool } from "./index.js";

const weather = tool(async ({ city }) => `sunny in ${city}`, {
  name: "weather",
  description: "Weather for a city.",
  schema: z.object({ city: z.string() }),
});

describe("BaseToolkit", () => {
  it("hands out its tools array", async () => {
    class WeatherToolkit extends BaseToolkit {
      tools = [weather];
    }
    const toolkit = new WeatherToolkit();
    expect(toolkit.getTools()).toBe(toolkit.tools);
    expect(await toolkit.getTools()[0]?.invoke({ city: "Suzhou" })).toBe("sunny in Suzhou");
  });
});

describe("isRunnableToolLike", () => {
  it("recognises LangChain.js runnable tools by their class name only", () => {
    class RunnableToolLike {
      lc_runnable = true;
      name = "echo";
      schema = {};
      static lc_name(): string {
        return "RunnableToolLike";
      }
      async invoke(input: unknown): Promise<unknown> {
        return input;
      }
    }
    expect(isRunnableToolLike(new RunnableToolLike())).toBe(true);
    expect(isLangChainTool(new RunnableToolLike())).toBe(true);
    expect(isRunnableToolLike(weather)).toBe(false);
    expect(isRunnableToolLike({ lc_runnable: true })).toBe(false);
    expect(isRunnableToolLike(Object.assign(Object.create(null), { lc_runnable: true }))).toBe(false);
    expect(isRunnableToolLike(undefined)).toBe(false);
  });
});
