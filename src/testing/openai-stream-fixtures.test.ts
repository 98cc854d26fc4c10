import { describe, expect, it } from "vitest";
import type { AIMessageChunk } from "../messages/index.js";
import { ChatOpenAI } from "../models/index.js";
import {
  asAsyncIterable,
  type OpenAICompletionsStreamChunk,
  openAIReasoningTextChunks,
  openAITextOnlyChunks,
  openAITextOnlyChunksWithUsage,
  openAIToolCallChunks,
  sseResponseFromOpenAIChunks,
} from "./index.js";

/** A ChatOpenAI whose every request is answered with these chunks as server-sent events. */
function modelStreaming(chunks: () => OpenAICompletionsStreamChunk[]): ChatOpenAI {
  return new ChatOpenAI({
    model: "gpt-4o-mini",
    apiKey: "sk-test",
    configuration: { fetch: async () => sseResponseFromOpenAIChunks(chunks()) },
  });
}

async function joined(model: ChatOpenAI): Promise<AIMessageChunk> {
  let message: AIMessageChunk | undefined;
  for await (const chunk of await model.stream("hi")) message = message ? message.concat(chunk) : chunk;
  if (message === undefined) throw new Error("no chunks");
  return message;
}

describe("OpenAI stream fixtures", () => {
  it("have @langchain/core/testing's chunks", () => {
    expect(openAITextOnlyChunks()).toEqual([
      {
        id: "chatcmpl-text",
        model: "test-model",
        choices: [{ index: 0, delta: { role: "assistant", content: "Hello" }, finish_reason: null }],
      },
      {
        id: "chatcmpl-text",
        model: "test-model",
        choices: [{ index: 0, delta: { content: " world" }, finish_reason: null }],
      },
      { id: "chatcmpl-text", model: "test-model", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
    ]);
    const withUsage = openAITextOnlyChunksWithUsage("m");
    expect(withUsage.slice(0, 2)).toEqual(openAITextOnlyChunks("m").slice(0, 2));
    expect(withUsage[2]).toEqual({
      id: "chatcmpl-text",
      model: "m",
      choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    });
    expect(openAIReasoningTextChunks().map((c) => c.choices?.[0]?.delta)).toEqual([
      { role: "assistant", reasoning_content: "Let me reason..." },
      { content: "Answer." },
      {},
    ]);
    expect(openAIToolCallChunks("x").map((c) => [c.id, c.model, c.choices?.[0]?.finish_reason])).toEqual([
      ["chatcmpl-tools", "x", null],
      ["chatcmpl-tools", "x", null],
      ["chatcmpl-tools", "x", null],
      ["chatcmpl-tools", "x", "tool_calls"],
    ]);
    expect(openAIToolCallChunks()[1]?.choices?.[0]?.delta?.tool_calls).toEqual([
      { index: 0, id: "call_abc", type: "function", function: { name: "web_search", arguments: '{"query"' } },
    ]);
    expect(openAIToolCallChunks()[2]?.choices?.[0]?.delta?.tool_calls).toEqual([
      { index: 0, function: { arguments: ':"weather"}' } },
    ]);
  });

  it("return fresh arrays on every call", () => {
    const first = openAITextOnlyChunks();
    first.pop();
    expect(openAITextOnlyChunks()).toHaveLength(3);
  });

  it("asAsyncIterable yields the items in order, again on each iteration", async () => {
    const iterable = asAsyncIterable([1, 2, 3]);
    for (let round = 0; round < 2; round++) {
      const seen: number[] = [];
      for await (const item of iterable) seen.push(item);
      expect(seen).toEqual([1, 2, 3]);
    }
  });

  it("sseResponseFromOpenAIChunks sends one data event per chunk, without [DONE]", async () => {
    const response = sseResponseFromOpenAIChunks(openAITextOnlyChunks().slice(0, 2));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await response.text()).toBe(
      `data: ${JSON.stringify(openAITextOnlyChunks()[0])}\n\ndata: ${JSON.stringify(openAITextOnlyChunks()[1])}\n\n`,
    );
  });
});

describe("ChatOpenAI with a fetch answering sseResponseFromOpenAIChunks", () => {
  it("streams the tool-call fixture into text and one parsed tool call", async () => {
    const message = await joined(modelStreaming(openAIToolCallChunks));
    expect(message.id).toBe("chatcmpl-tools");
    expect(message.content).toBe("Let me search.");
    expect(message.tool_calls).toEqual([
      { name: "web_search", args: { query: "weather" }, id: "call_abc", type: "tool_call" },
    ]);
    expect(message.tool_call_chunks).toEqual([
      { name: "web_search", args: '{"query":"weather"}', id: "call_abc", index: 0, type: "tool_call_chunk" },
    ]);
    expect(message.response_metadata).toMatchObject({
      finish_reason: "tool_calls",
      model_name: "test-model",
    });
  });

  it("streams text with usage and reasoning", async () => {
    const text = await joined(modelStreaming(openAITextOnlyChunksWithUsage));
    expect(text.content).toBe("Hello world");
    expect(text.usage_metadata).toMatchObject({ input_tokens: 10, output_tokens: 2, total_tokens: 12 });
    const reasoned = await joined(modelStreaming(openAIReasoningTextChunks));
    expect(reasoned.content).toBe("Answer.");
    expect(reasoned.additional_kwargs).toEqual({ reasoning_content: "Let me reason..." });
  });

  it("answers invoke from the stream with streaming: true", async () => {
    const model = new ChatOpenAI({
      model: "gpt-4o-mini",
      apiKey: "sk-test",
      streaming: true,
      configuration: { fetch: async () => sseResponseFromOpenAIChunks(openAIToolCallChunks()) },
    });
    const message = await model.invoke("hi");
    expect(message.content).toBe("Let me search.");
    expect(message.tool_calls).toEqual([
      { name: "web_search", args: { query: "weather" }, id: "call_abc", type: "tool_call" },
    ]);
  });
});
