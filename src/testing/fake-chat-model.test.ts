import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AIMessage, type AIMessageChunk, HumanMessage, SystemMessage } from "../messages/index.js";
import { ConfiguredChatModel } from "../models/index.js";
import type { CallbackHandler } from "../shared/index.js";
import { tool } from "../tools/index.js";
import { FakeChatModel, FakeChatModelExhaustedError } from "./fake-chat-model.js";

const getWeather = tool(async ({ city }) => `Sunny in ${city}`, {
  name: "get_weather",
  description: "Get weather for a given city.",
  schema: z.object({ city: z.string() }),
});

const toolCallReply = new AIMessage({
  content: "Checking.",
  id: "ai-1",
  tool_calls: [
    { name: "get_weather", args: { city: "Paris" }, id: "call_1", type: "tool_call" },
    { name: "get_weather", args: { city: "Rome" }, id: "call_2", type: "tool_call" },
  ],
  usage_metadata: { input_tokens: 5, output_tokens: 7, total_tokens: 12 },
});

async function collect(stream: AsyncIterable<AIMessageChunk>): Promise<AIMessageChunk[]> {
  const chunks: AIMessageChunk[] = [];
  for await (const c of stream) chunks.push(c);
  return chunks;
}

describe("FakeChatModel", () => {
  it("answers with the responses in order; a string means an AIMessage", async () => {
    const model = new FakeChatModel({ responses: [toolCallReply, "Done."] });
    const first = await model.invoke("Weather?");
    expect(first).toBeInstanceOf(AIMessage);
    expect([first.id, first.content, first.tool_calls]).toEqual([
      "ai-1",
      "Checking.",
      toolCallReply.tool_calls,
    ]);
    const second = await model.invoke("Thanks");
    expect(second).toBeInstanceOf(AIMessage);
    expect(second.content).toBe("Done.");
  });

  it("records the exact messages of every call, system message included", async () => {
    const model = new FakeChatModel({ responses: ["a", "b"] });
    const system = new SystemMessage("Be brief.");
    const human = new HumanMessage("Hi");
    await model.invoke([system, human]);
    await model.invoke("again");
    expect(model.calls).toHaveLength(2);
    expect(model.calls[0]?.[0]).toBe(system);
    expect(model.calls[0]?.[1]).toBe(human);
    expect(model.calls[1]?.map((m) => m.text)).toEqual(["again"]);
  });

  it("throws a clear error when it runs out of responses", async () => {
    const model = new FakeChatModel({ responses: ["only"] });
    await model.invoke("1");
    const error = await model.invoke("2").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FakeChatModelExhaustedError);
    expect((error as Error).message).toBe(
      "FakeChatModel has no response for call 2: it was given 1 response(s). Add more entries to new FakeChatModel({ responses: [...] }).",
    );
  });

  it("bindTools returns a model that records into the same calls and keeps the tools for inspection", async () => {
    const model = new FakeChatModel({ responses: ["one", "two"] });
    const bound = model.bindTools([getWeather]) as ConfiguredChatModel;
    expect(bound).toBeInstanceOf(ConfiguredChatModel);
    expect(bound.boundTools).toEqual([getWeather]);
    expect(bound.kwargs.tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Get weather for a given city.",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      },
    ]);
    await bound.invoke("x");
    await model.invoke("y");
    expect(model.calls.map((c) => c[0]?.text)).toEqual(["x", "y"]);
    expect("tools" in model).toBe(false);
  });

  it("records the system message of calls made through bindTools, and neither side has a tools property", async () => {
    const model = new FakeChatModel({ responses: ["one"] });
    const bound = model.bindTools([getWeather], { tool_choice: "any" });
    const system = new SystemMessage("You are a helpful assistant");
    const human = new HumanMessage("What is the weather in Suzhou?");
    await bound.invoke([system, human]);
    expect(model.calls).toEqual([[system, human]]);
    expect(model.calls[0]?.[0]).toBe(system);
    // Code that skips binding when a model already has tools must see none here.
    expect((model as unknown as { tools?: unknown }).tools).toBeUndefined();
    expect((bound as unknown as { tools?: unknown }).tools).toBeUndefined();
  });

  it("streams several chunks, tool calls as tool_call_chunks, that join into the answer under one id", async () => {
    const model = new FakeChatModel({ responses: [toolCallReply, "It is sunny in Paris and Rome."] });
    const chunks = await collect(await model.stream("Weather?"));
    expect(chunks.length).toBeGreaterThan(3);
    expect(new Set(chunks.map((c) => c.id))).toEqual(new Set(["ai-1"]));
    expect(chunks.some((c) => c.tool_call_chunks.length > 0)).toBe(true);
    const whole = chunks.reduce((a, c) => a.concat(c));
    expect(whole.content).toBe("Checking.");
    expect(whole.tool_calls).toEqual(toolCallReply.tool_calls);
    expect(whole.usage_metadata).toMatchObject({ input_tokens: 5, output_tokens: 7, total_tokens: 12 });

    // an answer without an id: its chunks share the call's run id when callbacks hear the call,
    // and have none otherwise, as in LangChain.js
    const listening = { callbacks: [{ handleChatModelStart: () => {} }] };
    const text = await collect(await model.stream("And?", listening));
    expect(text.map((c) => c.content)).toEqual(["It", " is", " sunny", " in", " Paris", " and", " Rome."]);
    const ids = new Set(text.map((c) => c.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^run-/);
    const unheard = new FakeChatModel({ responses: ["It is sunny."] });
    const quiet = await collect(await unheard.stream("And?"));
    expect(quiet.map((c) => c.id)).toEqual(quiet.map(() => undefined));
  });

  it("withStructuredOutput makes one recorded call and returns the args of the tool call named `name`", async () => {
    const model = new FakeChatModel({
      responses: [
        new AIMessage({
          content: "",
          tool_calls: [
            { name: "other", args: { x: 1 }, id: "c0", type: "tool_call" },
            { name: "person", args: { name: "Ada", age: 36 }, id: "c1", type: "tool_call" },
          ],
        }),
        new AIMessage({
          content: "",
          tool_calls: [{ name: "extract", args: { ok: true }, id: "c2", type: "tool_call" }],
        }),
      ],
    });
    const schema = z.object({ name: z.string(), age: z.number() });
    expect(await model.withStructuredOutput(schema, { name: "person" }).invoke("Ada is 36")).toEqual({
      name: "Ada",
      age: 36,
    });
    expect(model.calls).toHaveLength(1);
    expect(await model.withStructuredOutput(z.object({ ok: z.boolean() })).invoke("default name")).toEqual({
      ok: true,
    });
    expect(model.calls).toHaveLength(2);
  });

  it("withStructuredOutput records the exact messages and reports a missing tool call", async () => {
    const model = new FakeChatModel({
      responses: [
        new AIMessage({
          content: "",
          tool_calls: [{ name: "extract", args: { city: "Suzhou" }, id: "c1", type: "tool_call" }],
        }),
        "no tool call here",
      ],
    });
    const structured = model.withStructuredOutput(z.object({ city: z.string() }));
    const system = new SystemMessage("Extract the city.");
    expect(await structured.invoke([system, new HumanMessage("Weather in Suzhou?")])).toEqual({
      city: "Suzhou",
    });
    expect(model.calls[0]?.[0]).toBe(system);
    await expect(structured.invoke("again")).rejects.toThrow("No tool calls found in the response.");
    expect(model.calls).toHaveLength(2);
  });

  it("reports to callbacks like any model, streaming tokens for lc_prefer_streaming handlers", async () => {
    const tokens: string[] = [];
    const ends: unknown[] = [];
    const handler: CallbackHandler = {
      lc_prefer_streaming: true,
      handleLLMNewToken: (token, _idx, _runId, _parent, _tags, fields) => {
        tokens.push(token);
        expect(fields?.chunk?.message).toBeDefined();
      },
      handleLLMEnd: (output) => ends.push(output.generations[0]?.[0]?.message),
    };
    const model = new FakeChatModel({ responses: ["Hello there"] });
    const reply = await model.invoke("Hi", { callbacks: [handler] });
    // no closing empty chunk when the answer carries no usage or metadata
    expect(tokens).toEqual(["Hello", " there"]);
    expect(reply.content).toBe("Hello there");
    expect((ends[0] as AIMessage).content).toBe("Hello there");
  });

  it("returns a fresh message per call, leaving the scripted one untouched", async () => {
    const scripted = new AIMessage("same");
    const model = new FakeChatModel({ responses: [scripted, scripted] });
    const listening = { callbacks: [{ handleChatModelStart: () => {} }] };
    const a = await model.invoke("1", listening);
    const b = await model.invoke("2", listening);
    expect(a).not.toBe(b);
    expect(a.id).toMatch(/^run-/);
    expect(a.id).not.toBe(b.id);
    expect(scripted.id).toBeUndefined();
  });

  it("without responses echoes its input (LangChain.js's FakeChatModel) and never runs out", async () => {
    const model = new FakeChatModel();
    const answer = await model.invoke([new SystemMessage("Be brief."), new HumanMessage("Hi")]);
    expect(answer.content).toBe("Be brief.\nHi");
    expect((await model.invoke("x", { stop: ["END"] })).content).toBe("END");
    const chunks = await collect(await model.stream("one piece"));
    expect(chunks.map((c) => c.content)).toEqual(["one piece"]);
    expect(model.responses).toBeUndefined();
    expect(model.calls).toHaveLength(3);
  });
});
