import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { AIMessage } from "../../../messages/index.js";
import { anthropicEvents, FixtureServer } from "../../__tests__/fixture-server.js";
import { OutputParserException } from "../../errors/configuration-errors.js";
import { ChatAnthropic, type ChatAnthropicFields } from "./chat-anthropic.js";

// `withStructuredOutput(…).stream()` against a real SSE server. The JSON method yields what
// @langchain/anthropic 1.5.11 yields; its streamed function calling fails there (it parses the
// tool_use block's empty `input`), and here yields the one result `invoke` returns.

let server: FixtureServer;
beforeEach(async () => {
  server = await FixtureServer.start();
});
afterEach(async () => {
  await server.close();
});

function model(fields: ChatAnthropicFields = {}): ChatAnthropic {
  return new ChatAnthropic({
    model: "claude-sonnet-4-6",
    apiKey: "sk-ant-test",
    maxRetries: 0,
    clientOptions: { baseURL: server.url },
    ...fields,
  });
}

/** JSON text cut inside a key, inside strings and inside a `\u00e9` escape. */
const PIECES = ['{"na', 'me": "Ad', "a \\u00", "e9", 'l", "ta', 'gs": ["x', '", "y"', '], "age": 3', "6}"];
const WHOLE = { name: "Ada él", tags: ["x", "y"], age: 36 };

const start = {
  type: "message_start",
  message: {
    id: "msg_so",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-6",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 5, output_tokens: 1 },
  },
};

function toolUseEvents(name: string) {
  return anthropicEvents([
    start,
    {
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id: "toolu_1", name, input: {} },
    },
    ...PIECES.map((partial_json) => ({
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json },
    })),
    { type: "content_block_stop", index: 0 },
    {
      type: "message_delta",
      delta: { stop_reason: "tool_use", stop_sequence: null },
      usage: { output_tokens: 9 },
    },
    { type: "message_stop" },
  ]);
}

function textEvents() {
  return anthropicEvents([
    start,
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    ...PIECES.map((text) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
    { type: "content_block_stop", index: 0 },
    {
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: 9 },
    },
    { type: "message_stop" },
  ]);
}

const Person = z.object({ name: z.string(), tags: z.array(z.string()), age: z.number() });
const personJsonSchema = {
  type: "object",
  properties: {
    name: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
    age: { type: "number" },
  },
};

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of stream) values.push(value);
  return values;
}

describe("ChatAnthropic withStructuredOutput(…).stream()", () => {
  it("streams a function call and yields the validated result once", async () => {
    server.reply(
      { kind: "sse", events: toolUseEvents("person") },
      { kind: "sse", events: toolUseEvents("person") },
    );
    const extractor = model().withStructuredOutput(Person, { name: "person" });
    expect(await collect(await extractor.stream("Ada?"))).toEqual([WHOLE]);
    expect(server.requests[0]?.body).toMatchObject({
      stream: true,
      tool_choice: { type: "tool", name: "person" },
    });

    const withRaw = model().withStructuredOutput(Person, { name: "person", includeRaw: true });
    const [raw, parsed, ...rest] = await collect(await withRaw.stream("Ada?"));
    expect(rest).toEqual([]);
    expect(raw?.raw).toBeInstanceOf(AIMessage);
    expect(raw?.raw.tool_calls).toEqual([{ name: "person", args: WHOLE, id: "toolu_1", type: "tool_call" }]);
    expect(parsed).toEqual({ parsed: WHOLE });
  });

  it("yields partial JSON for the JSON method with a plain JSON Schema, the whole result with Zod", async () => {
    server.reply({ kind: "sse", events: textEvents() }, { kind: "sse", events: textEvents() });
    const partials = await collect(
      await model().withStructuredOutput(personJsonSchema, { method: "jsonSchema" }).stream("Ada?"),
    );
    expect(partials).toEqual([
      {},
      { name: "Ad" },
      { name: "Ada u00" },
      { name: "Ada é" },
      { name: "Ada él" },
      { name: "Ada él", tags: ["x"] },
      { name: "Ada él", tags: ["x", "y"] },
      { name: "Ada él", tags: ["x", "y"], age: 3 },
      WHOLE,
    ]);
    expect(server.requests[0]?.body).toMatchObject({
      stream: true,
      output_config: { format: { type: "json_schema" } },
    });
    expect(
      await collect(await model().withStructuredOutput(Person, { method: "jsonSchema" }).stream("Ada?")),
    ).toEqual([WHOLE]);
  });

  it("reads partial JSON from the text blocks of an answer with thinking", async () => {
    server.reply({
      kind: "sse",
      events: anthropicEvents([
        start,
        { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hm" } },
        { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig" } },
        { type: "content_block_stop", index: 0 },
        { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: '{"name": ' } },
        { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: '"Ada"}' } },
        { type: "content_block_stop", index: 1 },
        {
          type: "message_delta",
          delta: { stop_reason: "end_turn", stop_sequence: null },
          usage: { output_tokens: 9 },
        },
        { type: "message_stop" },
      ]),
    });
    const thinking = model({ maxTokens: 2048, thinking: { type: "enabled", budget_tokens: 1024 } });
    const extractor = thinking.withStructuredOutput(personJsonSchema, { method: "jsonSchema" });
    expect(await collect(await extractor.stream("Ada?"))).toEqual([{}, { name: "Ada" }]);
  });

  it("with thinking, fails a streamed answer that calls no tool with @langchain/anthropic's text", async () => {
    server.reply({ kind: "sse", events: textEvents() }, { kind: "sse", events: textEvents() });
    const thinking = model({ maxTokens: 2048, thinking: { type: "enabled", budget_tokens: 1024 } });
    await expect(thinking.withStructuredOutput(Person).stream("Ada?")).rejects.toThrow(OutputParserException);
    // before the raw answer is split from the parsed one, so includeRaw does not catch it
    await expect(thinking.withStructuredOutput(Person, { includeRaw: true }).stream("Ada?")).rejects.toThrow(
      "Anthropic structured output relies on forced tool calling",
    );
    expect(server.requests[1]?.body).toMatchObject({ stream: true });
  });
});
