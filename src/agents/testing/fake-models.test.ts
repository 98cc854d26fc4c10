import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Command, MemorySaver } from "../../index.js";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "../../messages/index.js";
import { tool } from "../../tools/index.js";
import { createAgent } from "../create-agent.js";
import { humanInTheLoopMiddleware } from "../middleware/human-in-the-loop.js";
import { toolStrategy } from "../responses.js";
import { FakeBuiltModel, fakeModel } from "./fake-model.js";
import { FakeToolCallingModel } from "./fake-tool-calling-model.js";
import { type LangChainMatchers, langchainMatchers } from "./matchers.js";

expect.extend(langchainMatchers);

declare module "vitest" {
  // biome-ignore lint/suspicious/noExplicitAny: must repeat vitest's own declaration
  interface Matchers<T = any> extends LangChainMatchers<T> {}
}

const search = tool(async ({ q }) => `result ${q}`, {
  name: "search",
  description: "Searches.",
  schema: z.object({ q: z.string() }),
});

describe("fakeModel", () => {
  it("answers queued responses in order and derives tool-call content from the input", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "search", args: { q: "x" } }])
      .respond(new AIMessage("done"));
    const first = await model.invoke([new HumanMessage("hi"), new AIMessage("yo")]);
    expect(first.content).toBe("hi-yo");
    expect(first.id).toBe("0");
    expect(first.tool_calls).toEqual([
      { name: "search", args: { q: "x" }, id: expect.stringMatching(/^fake_tc_\d+$/), type: "tool_call" },
    ]);
    expect((await model.invoke("again")).content).toBe("done");
    expect(model.callCount).toBe(2);
    expect(model.calls[0]?.messages.map((m) => m.text)).toEqual(["hi", "yo"]);
  });

  it("throws LangChain.js's text when the queue is exhausted, and still records the call", async () => {
    const model = fakeModel().respond(new AIMessage("one"));
    await model.invoke("a");
    await expect(model.invoke("b")).rejects.toThrow(
      "FakeModel: no response queued for invocation 1 (1 total queued).",
    );
    expect(model.callCount).toBe(2);
  });

  it("throws queued errors, factory errors and alwaysThrow errors", async () => {
    const model = fakeModel()
      .respond(new RangeError("queued"))
      .respond((messages) => new AIMessage(`got ${messages.length}`))
      .respond(() => new TypeError("from factory"));
    await expect(model.invoke("a")).rejects.toThrow(RangeError);
    expect((await model.invoke([new HumanMessage("a"), new HumanMessage("b")])).content).toBe("got 2");
    await expect(model.invoke("c")).rejects.toThrow(TypeError);
    const broken = fakeModel().respond(new AIMessage("never")).alwaysThrow(new Error("boom"));
    await expect(broken.invoke("x")).rejects.toThrow("boom");
    expect(broken.callCount).toBe(1);
  });

  it("bindTools shares the queue and the call history; withStructuredOutput makes no call", async () => {
    const model = fakeModel().respond(new AIMessage("bound answer"));
    const bound = model.bindTools([search]);
    expect(bound).not.toBeInstanceOf(FakeBuiltModel);
    expect((await bound.invoke("x")).content).toBe("bound answer");
    expect(model.callCount).toBe(1);
    const structured = fakeModel().structuredResponse({ answer: 42 });
    expect(await structured.withStructuredOutput(z.object({ answer: z.number() })).invoke("q")).toEqual({
      answer: 42,
    });
    expect(structured.callCount).toBe(0);
    expect(structured._llmType()).toBe("fake-model-builder");
  });

  it("drives createAgent: the system prompt is recorded and tool calls run", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "search", args: { q: "x" }, id: "c1" }])
      .respond(new AIMessage("final"));
    const agent = createAgent({ model, tools: [search], systemPrompt: "sys" });
    const result = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(result.messages.map((m) => m.text)).toEqual(["go", "sys-go", "result x", "final"]);
    expect(model.calls[1]?.messages.map((m) => m.getType())).toEqual(["system", "human", "ai", "tool"]);
    expect(result.messages[1]).toHaveToolCalls([{ name: "search", args: { q: "x" } }]);
    expect(result.messages).toHaveToolMessages([{ content: "result x", tool_call_id: "c1" }]);
  });
});

describe("FakeToolCallingModel", () => {
  it("cycles through toolCalls, echoes the input and ids answers by index", async () => {
    const model = new FakeToolCallingModel({
      toolCalls: [[{ name: "search", args: { q: "y" }, id: "t1" }], []],
    });
    expect(model.tools).toEqual([]);
    expect(model._llmType()).toBe("fake-tool-calling");
    const agent = createAgent({ model, tools: [search] });
    const result = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(result.messages.map((m) => [m.getType(), m.text, m.id?.length])).toEqual([
      ["human", "go", 36],
      ["ai", "go", 1],
      ["tool", "result y", 36],
      ["ai", "go-go-result y", 1],
    ]);
    expect(result.messages[1]?.id).toBe("0");
    expect(result.messages[3]?.id).toBe("1");
    expect(model.index).toBe(0);
  });

  it("joins text blocks with '-' and restarts on a fresh conversation", async () => {
    const model = new FakeToolCallingModel({ toolCalls: [[], [], []], index: 2 });
    const answer = await model.invoke([
      new HumanMessage("a"),
      new AIMessage({
        content: [
          { type: "text", text: "t" },
          { type: "image_url", image_url: "u" },
        ],
      }),
      new SystemMessage("s"),
    ]);
    expect(answer.content).toBe("a-t--s");
    expect(answer.id).toBe("2");
    expect((await model.invoke([new HumanMessage("new")])).id).toBe("0");
  });

  it("bindTools returns a fake sharing the cursor; withStructuredOutput returns structuredResponse", async () => {
    const model = new FakeToolCallingModel({ toolCalls: [[], []], structuredResponse: { z: 1 } });
    const bound = model.bindTools([search]);
    expect(bound).toBeInstanceOf(FakeToolCallingModel);
    expect(bound.tools).toHaveLength(1);
    await bound.invoke([new HumanMessage("a"), new AIMessage("b"), new HumanMessage("c")]);
    expect(model.index).toBe(1);
    expect(await model.withStructuredOutput(z.object({ z: z.number() })).invoke("x")).toEqual({ z: 1 });
  });
});

describe("langchainMatchers", () => {
  it("match message types, content and fields", () => {
    expect(new HumanMessage("hi")).toBeHumanMessage("hi");
    expect(new HumanMessage("hi")).not.toBeAIMessage();
    expect(new AIMessage({ content: "x", name: "bot" })).toBeAIMessage({ name: "bot" });
    expect(new SystemMessage("s")).toBeSystemMessage();
    expect(new ToolMessage({ content: "r", tool_call_id: "1" })).toBeToolMessage({ tool_call_id: "1" });
    expect(() => expect(new HumanMessage("hi")).toBeHumanMessage("bye")).toThrow(
      /Expected: HumanMessage with content .*bye/,
    );
    expect(() => expect("text").toBeAIMessage()).toThrow(/Expected: AIMessage\nReceived: string/);
  });

  it("match tool calls", () => {
    const message = new AIMessage({
      content: "",
      tool_calls: [
        { name: "a", args: { x: 1 }, id: "1", type: "tool_call" },
        { name: "b", args: {}, id: "2", type: "tool_call" },
      ],
    });
    expect(message).toHaveToolCallCount(2);
    expect(message).toContainToolCall({ name: "b" });
    expect(message).toHaveToolCalls([{ name: "b" }, { name: "a", args: { x: 1 } }]);
    expect(() => expect(message).toHaveToolCalls([{ name: "a" }])).toThrow(
      /Expected 1 tool call\(s\), received 2/,
    );
    expect(() => expect(message).toHaveToolCalls([{ name: "a" }, { name: "c" }])).toThrow(
      /Could not find matching tool call\(s\) for/,
    );
  });

  it("match interrupts and structured responses of agent results", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "search", args: { q: "x" }, id: "c1" }])
      .respond(new AIMessage("done"));
    const agent = createAgent({
      model,
      tools: [search],
      middleware: [humanInTheLoopMiddleware({ interruptOn: { search: true } })],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "t" } };
    const paused = await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    expect(paused).toHaveBeenInterrupted();
    expect(paused).not.toHaveStructuredResponse();
    const resumed = await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config);
    expect(resumed).not.toHaveBeenInterrupted();

    const structured = fakeModel().respondWithTools([{ name: "extract-1", args: { city: "Suzhou" } }]);
    const extractor = createAgent({
      model: structured,
      responseFormat: toolStrategy(z.object({ city: z.string() })),
    });
    const answer = await extractor.invoke({ messages: [new HumanMessage("where?")] });
    expect(answer.structuredResponse).toEqual({ city: "Suzhou" });
    expect(answer).toHaveStructuredResponse({ city: "Suzhou" });
  });
});
