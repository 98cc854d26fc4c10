import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MessagesAnnotation, START, StateGraph } from "../index.js";
import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, type ToolCall } from "../messages/index.js";
import type { ConfiguredChatModel } from "../models/index.js";
import { tool } from "../tools/index.js";
import { FakeStreamingChatModel, type FakeStreamingChatModelFields } from "./index.js";

const lookupCall: ToolCall = { name: "lookup", args: { query: "x" }, id: "call_1", type: "tool_call" };

const lookup = tool(async () => "found", {
  name: "lookup",
  description: "Looks something up.",
  schema: z.object({ query: z.string() }),
});

const lookupSchema = {
  type: "object",
  properties: { query: { type: "string" } },
  required: ["query"],
};

async function streamed(
  model: FakeStreamingChatModel | ConfiguredChatModel,
  input: Parameters<FakeStreamingChatModel["stream"]>[0] = "hi",
  options: Parameters<FakeStreamingChatModel["stream"]>[1] = {},
): Promise<AIMessageChunk[]> {
  const chunks: AIMessageChunk[] = [];
  for await (const chunk of await model.stream(input, options)) chunks.push(chunk);
  return chunks;
}

function scripted(fields: FakeStreamingChatModelFields = {}): FakeStreamingChatModel {
  return new FakeStreamingChatModel({
    sleep: 0,
    chunks: [
      new AIMessageChunk({ content: "Hel" }),
      new AIMessageChunk({ content: "lo", tool_calls: [lookupCall], additional_kwargs: { tag: 1 } }),
    ],
    ...fields,
  });
}

describe("FakeStreamingChatModel (as @langchain/core/utils/testing's)", () => {
  it("has LangChain.js's defaults", () => {
    const model = new FakeStreamingChatModel({});
    expect([model.sleep, model.responses, model.chunks, model.toolStyle, model.thrownErrorString]).toEqual([
      50,
      [],
      [],
      "openai",
      undefined,
    ]);
    expect(model._llmType()).toBe("fake");
  });

  it("invokes with the first response's content, else the first input message's", async () => {
    const model = new FakeStreamingChatModel({
      sleep: 0,
      responses: [new AIMessage("Hi there"), new AIMessage("no")],
    });
    const answer = await model.invoke("hello");
    expect(answer).toBeInstanceOf(AIMessage);
    expect(answer.content).toBe("Hi there");
    expect(answer.tool_calls).toEqual([]);
    // without responses: the first input message, not the last
    const echo = new FakeStreamingChatModel({ sleep: 0 });
    expect((await echo.invoke([new SystemMessage("sys"), new HumanMessage("question")])).content).toBe("sys");
    const blocks = [{ type: "text" as const, text: "block" }];
    expect((await echo.invoke([new HumanMessage({ content: blocks })])).content).toEqual(blocks);
  });

  it("invokes with the tool calls of the first chunk", async () => {
    const model = new FakeStreamingChatModel({
      sleep: 0,
      responses: [new AIMessage("calling")],
      chunks: [new AIMessageChunk({ content: "", tool_calls: [lookupCall] })],
    });
    const answer = await model.invoke("hi");
    expect(answer.content).toBe("calling");
    expect(answer.tool_calls).toEqual([lookupCall]);
    // only the first chunk's tool calls
    expect((await scripted().invoke("hi")).tool_calls).toEqual([]);
  });

  it("streams its chunks one per entry, with tool calls and additional_kwargs", async () => {
    const chunks = await streamed(scripted({ responses: [new AIMessage("ignored")] }));
    expect(chunks.map((c) => [c.content, c.tool_calls, c.additional_kwargs])).toEqual([
      ["Hel", [], {}],
      ["lo", [lookupCall], { tag: 1 }],
    ]);
    expect(chunks.every((c) => c instanceof AIMessageChunk)).toBe(true);
    const whole = chunks.reduce((a, b) => a.concat(b));
    expect([whole.content, whole.tool_calls]).toEqual(["Hello", [lookupCall]]);
  });

  it("streams the response's text one character at a time without chunks", async () => {
    const model = new FakeStreamingChatModel({ sleep: 0, responses: [new AIMessage("Hey!")] });
    expect((await streamed(model)).map((c) => c.content)).toEqual(["H", "e", "y", "!"]);
    const echo = new FakeStreamingChatModel({ sleep: 0 });
    expect(
      (await streamed(echo, [new HumanMessage("ab"), new HumanMessage("zz")])).map((c) => c.content),
    ).toEqual(["a", "b"]);
    // content that is not a string streams nothing
    const blocks = new FakeStreamingChatModel({ sleep: 0, responses: [new AIMessage({ content: [] })] });
    expect(await streamed(blocks)).toEqual([]);
  });

  it("waits `sleep` milliseconds before each character", async () => {
    const model = new FakeStreamingChatModel({ sleep: 20, responses: [new AIMessage("abc")] });
    const started = performance.now();
    expect((await streamed(model)).length).toBe(3);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });

  it("throws thrownErrorString from invoke and stream", async () => {
    const model = scripted({ thrownErrorString: "boom" });
    await expect(model.invoke("hi")).rejects.toThrow(new Error("boom"));
    await expect(streamed(model)).rejects.toThrow("boom");
    const chars = new FakeStreamingChatModel({ sleep: 0, thrownErrorString: "bang" });
    await expect(streamed(chars)).rejects.toThrow("bang");
  });

  it("stops streaming once the signal is aborted", async () => {
    const model = new FakeStreamingChatModel({ sleep: 0, responses: [new AIMessage("abcdef")] });
    const controller = new AbortController();
    const seen: unknown[] = [];
    const stream = await model.stream("hi", { signal: controller.signal });
    await expect(
      (async () => {
        for await (const chunk of stream) {
          seen.push(chunk.content);
          if (seen.length === 2) controller.abort();
        }
      })(),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(seen).toEqual(["a", "b"]);
    // and yields nothing when aborted before the call
    await expect(streamed(scripted(), "hi", { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: "AbortError",
    });
  });

  it("reports each streamed chunk once to handleLLMNewToken, with its chunk", async () => {
    const tokens: [string, unknown][] = [];
    const handler = {
      handleLLMNewToken: (token: string, ...rest: unknown[]) => {
        const fields = rest[4] as { chunk?: { message?: AIMessageChunk } } | undefined;
        tokens.push([token, fields?.chunk?.message?.content]);
      },
    };
    await streamed(scripted(), "hi", { callbacks: [handler] });
    expect(tokens).toEqual([
      ["Hel", "Hel"],
      ["lo", "lo"],
    ]);
    tokens.length = 0;
    const chars = new FakeStreamingChatModel({ sleep: 0, responses: [new AIMessage("ok")] });
    await streamed(chars, "hi", { callbacks: [handler] });
    expect(tokens).toEqual([
      ["o", "o"],
      ["k", "k"],
    ]);
    // invoke does not stream (nor report tokens) unless a handler asks for streaming
    tokens.length = 0;
    await chars.invoke("hi", { callbacks: [handler] });
    expect(tokens).toEqual([]);
  });

  it("describes bound tools in each toolStyle", () => {
    const spec = { name: "search", description: "Searches.", schema: lookupSchema };
    const bind = (toolStyle: FakeStreamingChatModelFields["toolStyle"]) =>
      new FakeStreamingChatModel({ sleep: 0, ...(toolStyle ? { toolStyle } : {}) }).bindTools([lookup, spec])
        .config.tools;
    expect(bind(undefined)).toEqual([
      {
        type: "function",
        function: { name: "lookup", description: "Looks something up.", parameters: lookupSchema },
      },
      { type: "function", function: { name: "search", description: "Searches.", parameters: lookupSchema } },
    ]);
    expect(bind("anthropic")).toEqual([
      { name: "lookup", description: "Looks something up.", input_schema: lookupSchema },
      { name: "search", description: "Searches.", input_schema: lookupSchema },
    ]);
    expect(bind("bedrock")).toEqual([
      { toolSpec: { name: "lookup", description: "Looks something up.", inputSchema: lookupSchema } },
      { toolSpec: { name: "search", description: "Searches.", inputSchema: lookupSchema } },
    ]);
    expect(bind("google")).toEqual([
      {
        functionDeclarations: [
          { name: "lookup", description: "Looks something up.", parameters: lookupSchema },
          { name: "search", description: "Searches.", parameters: lookupSchema },
        ],
      },
    ]);
  });

  it("takes the other descriptor forms too", () => {
    const bound = new FakeStreamingChatModel({ sleep: 0, toolStyle: "anthropic" }).bindTools([
      { name: "a", description: "A.", parameters: lookupSchema },
      { type: "function", function: { name: "b", parameters: lookupSchema } },
    ]);
    expect(bound.config.tools).toEqual([
      { name: "a", description: "A.", input_schema: lookupSchema },
      { name: "b", description: undefined, input_schema: lookupSchema },
    ]);
  });

  it("throws on an unknown tool style", () => {
    const model = new FakeStreamingChatModel({
      sleep: 0,
      toolStyle: "cohere" as unknown as "openai",
    });
    expect(() => model.bindTools([lookup])).toThrow(new Error("Unsupported tool style: cohere"));
    // as in LangChain.js, only when there is a tool to describe
    expect(model.bindTools([]).config.tools).toEqual([]);
  });

  it("returns a new fake with the tools merged, keeping its settings", async () => {
    const model = scripted({ responses: [new AIMessage("answer")] });
    const bound = model.bindTools([lookup]);
    expect(bound.bound).not.toBe(model);
    expect(bound.bound).toBeInstanceOf(FakeStreamingChatModel);
    expect(bound.kwargs).toEqual({});
    expect((await bound.invoke("hi")).content).toBe("answer");
    expect((await streamed(bound)).map((c) => c.content)).toEqual(["Hel", "lo"]);
    // binding again on the new fake adds to its tools
    const again = (bound.bound as FakeStreamingChatModel).bindTools([
      { name: "search", description: "Searches.", schema: lookupSchema },
    ]);
    expect((again.config.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual([
      "lookup",
      "search",
    ]);
    // the original is unchanged
    expect(model.bindTools([]).config.tools).toEqual([]);
  });

  it("streams its chunks in a graph's messages stream mode", async () => {
    const model = scripted();
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("agent", async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addEdge(START, "agent")
      .compile();
    const seen: [string, unknown, unknown][] = [];
    const ids = new Set<string | undefined>();
    let last: AIMessage | undefined;
    for await (const [mode, part] of await graph.stream(
      { messages: [new HumanMessage("hi")] },
      { streamMode: ["messages", "values"] },
    )) {
      if (mode === "values") {
        last = part.messages.at(-1) as AIMessage;
        continue;
      }
      const [message, metadata] = part;
      seen.push([message.constructor.name, message.content, metadata.langgraph_node]);
      ids.add(message.id);
    }
    expect(seen).toEqual([
      ["AIMessageChunk", "Hel", "agent"],
      ["AIMessageChunk", "lo", "agent"],
    ]);
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^run-/);
    // the node's invoke streamed (the messages mode asks for it): its answer is the joined chunks
    expect([last?.content, last?.tool_calls, last?.id]).toEqual(["Hello", [lookupCall], [...ids][0]]);
    // without a streaming handler, invoke answers from _generate (the first input message)
    const state = await graph.invoke({ messages: [new HumanMessage("hi")] });
    expect(state.messages.at(-1)?.content).toBe("hi");
  });

  it("streams characters in a graph's messages stream mode", async () => {
    const model = new FakeStreamingChatModel({ sleep: 0, responses: [new AIMessage("Yo!")] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("agent", async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addEdge(START, "agent")
      .compile();
    const contents: unknown[] = [];
    for await (const [message] of await graph.stream(
      { messages: [new HumanMessage("hi")] },
      { streamMode: "messages" },
    ))
      contents.push(message.content);
    expect(contents).toEqual(["Y", "o", "!"]);
  });
});
