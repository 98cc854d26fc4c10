import { describe, expect, it } from "vitest";
import { AIMessage, HumanMessage, SystemMessage } from "../../messages/index.js";
import { FakeChatModel } from "../../testing/index.js";
import { createAgent } from "../create-agent.js";
import { createMiddleware } from "../middleware.js";
import { dynamicSystemPromptMiddleware } from "./dynamic-system-prompt.js";

const hi = { messages: [new HumanMessage("hi")] };

describe("dynamicSystemPromptMiddleware", () => {
  it("sends the computed prompt as the system message", async () => {
    const model = new FakeChatModel({ responses: ["hello"] });
    const agent = createAgent({
      model,
      middleware: [dynamicSystemPromptMiddleware((state) => `You have ${state.messages.length} message(s).`)],
    });
    const result = await agent.invoke(hi);
    const sent = model.calls[0] ?? [];
    expect(sent[0]).toBeInstanceOf(SystemMessage);
    expect(sent.map((m) => [m.getType(), m.content])).toEqual([
      ["system", "You have 1 message(s)."],
      ["human", "hi"],
    ]);
    // never stored in the state
    expect(result.messages.map((m) => m.getType())).toEqual(["human", "ai"]);
  });

  it("appends to the agent's systemPrompt as content blocks", async () => {
    const model = new FakeChatModel({ responses: ["hello"] });
    const agent = createAgent({
      model,
      systemPrompt: "Base.",
      middleware: [dynamicSystemPromptMiddleware(() => "Dynamic.")],
    });
    await agent.invoke(hi);
    expect(model.calls[0]?.[0]?.content).toEqual([
      { type: "text", text: "Base." },
      { type: "text", text: "Dynamic." },
    ]);
  });

  it("appends to a systemPrompt given as a SystemMessage with string content as text (LangChain.js)", async () => {
    const model = new FakeChatModel({ responses: ["hello"] });
    const agent = createAgent({
      model,
      systemPrompt: new SystemMessage("Base."),
      middleware: [dynamicSystemPromptMiddleware(() => "Dynamic.")],
    });
    await agent.invoke(hi);
    expect(model.calls[0]?.[0]?.content).toBe("Base.Dynamic.");
  });

  it("accepts a SystemMessage, async, and reads the run context", async () => {
    const model = new FakeChatModel({ responses: ["hello"] });
    const agent = createAgent({
      model,
      middleware: [
        dynamicSystemPromptMiddleware<{ region?: string }>(
          async (_state, runtime) => new SystemMessage(`Region: ${runtime.context.region ?? "n/a"}`),
        ),
      ],
    });
    await agent.invoke(hi, { context: { region: "EU" } });
    expect(model.calls[0]?.[0]?.text).toBe("Region: EU");
  });

  it("runs before every model call with the current state", async () => {
    const model = new FakeChatModel({
      responses: [
        new AIMessage({
          content: "",
          tool_calls: [{ name: "unknown_tool", args: {}, id: "c1", type: "tool_call" }],
        }),
        "done",
      ],
    });
    const agent = createAgent({
      model,
      tools: [],
      middleware: [
        dynamicSystemPromptMiddleware((state) => `turn ${state.messages.length}`),
        createMiddleware({ name: "Noop", wrapToolCall: (request, handler) => handler(request) }),
      ],
    });
    await agent.invoke(hi);
    expect(model.calls.map((call) => call[0]?.text)).toEqual(["turn 1", "turn 3"]);
  });

  it("lets inner middleware see the new system message", async () => {
    const seen: string[] = [];
    const model = new FakeChatModel({ responses: ["hello"] });
    const agent = createAgent({
      model,
      systemPrompt: "Base.",
      middleware: [
        dynamicSystemPromptMiddleware(() => " More."),
        createMiddleware({
          name: "Spy",
          wrapModelCall: (request, handler) => {
            seen.push(request.systemPrompt);
            return handler(request);
          },
        }),
      ],
    });
    await agent.invoke(hi);
    expect(seen).toEqual(["Base. More."]);
  });

  it("throws when the function returns something else", async () => {
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["x"] }),
      middleware: [dynamicSystemPromptMiddleware(() => 42 as never)],
    });
    // a MiddlewareError named after the plain Error inside, as in LangChain.js
    await expect(agent.invoke(hi)).rejects.toMatchObject({
      name: "Error",
      message: "dynamicSystemPromptMiddleware function must return a string or SystemMessage",
    });
    expect(() => dynamicSystemPromptMiddleware("prompt" as never)).toThrow(/needs a function/);
  });

  it("is named DynamicSystemPromptMiddleware", () => {
    expect(dynamicSystemPromptMiddleware(() => "x").name).toBe("DynamicSystemPromptMiddleware");
  });
});
