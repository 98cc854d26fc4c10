import { describe, expect, it } from "vitest";
import { z } from "zod";
import "../../index.js";
import { AIMessage, HumanMessage } from "../../messages/index.js";
import { FakeChatModel } from "../../testing/index.js";
import { tool } from "../../tools/index.js";
import { createAgent } from "../create-agent.js";
import { createMiddleware } from "../middleware.js";
import type { AgentMiddleware } from "../types.js";
import {
  DEFAULT_TOOL_SELECTOR_PROMPT,
  type LLMToolSelectorConfig,
  llmToolSelectorMiddleware,
} from "./llm-tool-selector.js";

const makeTool = (name: string) =>
  tool(async () => name, { name, description: `The ${name} tool.`, schema: z.object({}) });
const TOOLS = ["search", "weather", "calendar", "email"].map(makeTool);
const selection = (...tools: string[]) =>
  new AIMessage({
    content: "",
    tool_calls: [{ name: "extract", args: { tools }, id: "sel", type: "tool_call" }],
  });

function spy() {
  const seen: string[][] = [];
  const middleware = createMiddleware({
    name: "Spy",
    wrapModelCall: (request, handler) => {
      seen.push(request.tools.map((t) => (t as { name?: string }).name ?? "?"));
      return handler(request);
    },
  });
  return { seen, middleware };
}

async function run(options: LLMToolSelectorConfig, selector: FakeChatModel | undefined, main: FakeChatModel) {
  const { seen, middleware } = spy();
  const agent = createAgent({
    model: main,
    tools: TOOLS,
    middleware: [
      llmToolSelectorMiddleware(selector === undefined ? options : { ...options, model: selector }),
      middleware,
    ],
  });
  const result = await agent.invoke({
    messages: [new HumanMessage("first"), new AIMessage("ok"), new HumanMessage("weather in Paris?")],
  });
  return { seen, result };
}

describe("llmToolSelectorMiddleware", () => {
  it("asks the selector with the system prompt and the last human message, then passes only the chosen tools", async () => {
    const selector = new FakeChatModel({ responses: [selection("email", "weather")] });
    const main = new FakeChatModel({ responses: ["sunny"] });
    const { seen, result } = await run({}, selector, main);
    expect(seen).toEqual([["weather", "email"]]);
    expect(selector.calls[0]?.map((m) => [m.getType(), m.text])).toEqual([
      ["system", DEFAULT_TOOL_SELECTOR_PROMPT],
      ["human", "weather in Paris?"],
    ]);
    expect(result.messages.at(-1)?.text).toBe("sunny");
    expect(main.calls).toHaveLength(1);
  });

  it("uses the agent's model when no model is given", async () => {
    const main = new FakeChatModel({ responses: [selection("search"), "done"] });
    const { seen } = await run({}, undefined, main);
    expect(seen).toEqual([["search"]]);
    expect(main.calls).toHaveLength(2);
    expect(main.calls[0]?.[0]?.text).toBe(DEFAULT_TOOL_SELECTOR_PROMPT);
  });

  it("maxTools keeps the first N choices and adds the ordering instruction", async () => {
    const selector = new FakeChatModel({
      responses: [selection("calendar", "search", "calendar", "weather")],
    });
    const { seen } = await run(
      { maxTools: 2, systemPrompt: "Pick tools." },
      selector,
      new FakeChatModel({ responses: ["x"] }),
    );
    expect(seen).toEqual([["search", "calendar"]]);
    expect(selector.calls[0]?.[0]?.text).toBe(
      "Pick tools.\nIMPORTANT: List the tool names in order of relevance, with the most relevant first. If you exceed the maximum number of tools, only the first 2 will be used.",
    );
  });

  it("alwaysInclude tools are not offered to the selector and always come after the chosen ones", async () => {
    const selector = new FakeChatModel({ responses: [selection("weather")] });
    const { seen } = await run(
      { alwaysInclude: ["search"], maxTools: 1 },
      selector,
      new FakeChatModel({ responses: ["x"] }),
    );
    expect(seen).toEqual([["weather", "search"]]);
  });

  it("keeps provider-side tools (objects without a name and description)", async () => {
    const selector = new FakeChatModel({ responses: [selection("email")] });
    const provider = { type: "web_search_preview" };
    const wrap = (llmToolSelectorMiddleware({ model: selector }) as AgentMiddleware)
      .wrapModelCall as unknown as (
      request: unknown,
      handler: (request: { tools: unknown[] }) => Promise<AIMessage>,
    ) => Promise<unknown>;
    let passed: unknown[] = [];
    await wrap(
      { tools: [...TOOLS, provider], messages: [new HumanMessage("hi")], runtime: { context: {} } },
      async (r) => {
        passed = r.tools;
        return new AIMessage("x");
      },
    );
    expect(passed).toEqual([TOOLS[3], provider]);
  });

  it("skips the selection when every tool is always included", async () => {
    const selector = new FakeChatModel({ responses: [] });
    const { seen } = await run(
      { alwaysInclude: ["search", "weather", "calendar", "email"] },
      selector,
      new FakeChatModel({ responses: ["x"] }),
    );
    expect(selector.calls).toHaveLength(0);
    expect(seen).toEqual([["search", "weather", "calendar", "email"]]);
  });

  it("skips the selection without tools", async () => {
    const selector = new FakeChatModel({ responses: [] });
    const main = new FakeChatModel({ responses: ["x"] });
    await createAgent({ model: main, middleware: [llmToolSelectorMiddleware({ model: selector })] }).invoke({
      messages: [new HumanMessage("hi")],
    });
    expect(selector.calls).toHaveLength(0);
    expect(main.calls).toHaveLength(1);
  });

  it("reports unknown alwaysInclude tools and a missing user message", async () => {
    const selector = new FakeChatModel({ responses: [] });
    await expect(
      run({ alwaysInclude: ["nope"] }, selector, new FakeChatModel({ responses: [] })),
    ).rejects.toThrow(
      "Tools in alwaysInclude not found in request: nope. Available tools: calendar, email, search, weather",
    );
    const wrap = (llmToolSelectorMiddleware({ model: selector }) as AgentMiddleware)
      .wrapModelCall as unknown as (request: unknown, handler: unknown) => Promise<unknown>;
    await expect(
      wrap(
        { tools: TOOLS, messages: [new AIMessage("no human")], runtime: { context: {} } },
        async () => new AIMessage("x"),
      ),
    ).rejects.toThrow("No user message found in request messages");
  });

  it("rejects tools the model invented", async () => {
    const invented = {
      withStructuredOutput: () => ({ invoke: async () => ({ tools: ["weather", "teleport"] }) }),
    };
    const wrap = (llmToolSelectorMiddleware({ model: invented }) as AgentMiddleware)
      .wrapModelCall as unknown as (request: unknown, handler: unknown) => Promise<unknown>;
    await expect(
      wrap(
        { tools: TOOLS, messages: [new HumanMessage("hi")], runtime: { context: {} } },
        async () => new AIMessage("x"),
      ),
    ).rejects.toThrow("Model selected invalid tools: teleport");
    const broken = { withStructuredOutput: () => ({ invoke: async () => "nonsense" }) };
    const wrapBroken = (llmToolSelectorMiddleware({ model: broken }) as AgentMiddleware)
      .wrapModelCall as unknown as (request: unknown, handler: unknown) => Promise<unknown>;
    await expect(
      wrapBroken(
        { tools: TOOLS, messages: [new HumanMessage("hi")], runtime: { context: {} } },
        async () => new AIMessage("x"),
      ),
    ).rejects.toThrow("Expected object response with tools array, got string");
  });

  it("reports names outside the schema as LangChain.js does, with plain Errors", async () => {
    // our structured output validates the names; LangChain.js's does not, and the middleware
    // itself then names the invented ones
    const selector = new FakeChatModel({ responses: [selection("weather", "teleport")] });
    const error = await run({}, selector, new FakeChatModel({ responses: [] })).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "Error", message: "Model selected invalid tools: teleport" });
    const missing = await run(
      { alwaysInclude: ["nope"] },
      selector,
      new FakeChatModel({ responses: [] }),
    ).catch((e: unknown) => e);
    expect(missing).toMatchObject({ name: "Error" });
  });

  it("still fails on an answer that is not a list of names", async () => {
    const selector = new FakeChatModel({
      responses: [
        new AIMessage({
          content: "",
          tool_calls: [{ name: "extract", args: { tools: "weather" }, id: "sel", type: "tool_call" }],
        }),
      ],
    });
    const error = await run({}, selector, new FakeChatModel({ responses: [] })).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "OutputParserException" });
  });

  it("takes its options from the run's context", async () => {
    const selector = new FakeChatModel({ responses: [selection("calendar", "email")] });
    const { seen, middleware } = spy();
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["x"] }),
      tools: TOOLS,
      middleware: [llmToolSelectorMiddleware({ model: selector }), middleware],
    });
    await agent.invoke(
      { messages: [new HumanMessage("q")] },
      { context: { maxTools: 1, systemPrompt: "Ctx prompt" } },
    );
    expect(seen).toEqual([["calendar"]]);
    expect(selector.calls[0]?.[0]?.text.startsWith("Ctx prompt\nIMPORTANT")).toBe(true);
  });

  it("is named LLMToolSelector", () => {
    expect(llmToolSelectorMiddleware().name).toBe("LLMToolSelector");
  });
});
