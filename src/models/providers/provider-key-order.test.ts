/**
 * Key order of `usage_metadata` and `response_metadata` (seen in JSON snapshots of messages),
 * as `@langchain/openai` 1.6.0 and `@langchain/anthropic` 1.5.11 write them for the same server
 * answers.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEvents, FixtureServer, openAIEvents } from "../__tests__/fixture-server.js";
import { ChatAnthropic, ChatOpenAI } from "../index.js";

let server: FixtureServer;
beforeEach(async () => {
  server = await FixtureServer.start();
});
afterEach(async () => {
  await server.close();
});

const usage = {
  prompt_tokens: 11,
  completion_tokens: 7,
  total_tokens: 18,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
};

function openAI(): ChatOpenAI {
  return new ChatOpenAI({
    model: "gpt-test",
    apiKey: "sk-test",
    configuration: { baseURL: `${server.url}/v1` },
  });
}

describe("ChatOpenAI key order", () => {
  it("invoke: usage_metadata starts with output_tokens, details list audio first; response_metadata in LangChain.js's order", async () => {
    server.reply({
      kind: "json",
      body: {
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1,
        model: "gpt-test",
        system_fingerprint: "fp_1",
        choices: [
          { index: 0, message: { role: "assistant", content: "Hi" }, logprobs: null, finish_reason: "stop" },
        ],
        usage,
      },
    });
    const answer = await openAI().invoke("hi");
    expect(JSON.stringify(answer.usage_metadata)).toBe(
      JSON.stringify({
        output_tokens: 7,
        input_tokens: 11,
        total_tokens: 18,
        input_token_details: { audio: 0, cache_read: 0 },
        output_token_details: { audio: 0, reasoning: 0 },
      }),
    );
    expect(Object.keys(answer.response_metadata)).toEqual([
      "tokenUsage",
      "finish_reason",
      "model_provider",
      "model_name",
      "usage",
      "system_fingerprint",
    ]);
  });

  it("stream: the usage chunk's usage_metadata starts with input_tokens, details list audio first", async () => {
    const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-test" };
    server.reply({
      kind: "sse",
      events: openAIEvents([
        {
          ...base,
          choices: [{ index: 0, delta: { role: "assistant", content: "Hi" }, finish_reason: null }],
        },
        { ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
        { ...base, choices: [], usage },
      ]),
    });
    const usages: string[] = [];
    for await (const chunk of await openAI().stream("hi"))
      if (chunk.usage_metadata !== undefined) usages.push(JSON.stringify(chunk.usage_metadata));
    expect(usages).toEqual([
      JSON.stringify({
        input_tokens: 11,
        output_tokens: 7,
        total_tokens: 18,
        input_token_details: { audio: 0, cache_read: 0 },
        output_token_details: { audio: 0, reasoning: 0 },
      }),
    ]);
  });
});

describe("ChatAnthropic key order", () => {
  it("invoke: input_token_details lists cache_creation first; response_metadata has role and type after the other fields", async () => {
    server.reply({
      kind: "json",
      body: {
        id: "msg_01",
        type: "message",
        role: "assistant",
        model: "claude-test",
        content: [{ type: "text", text: "Hi" }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: {
          input_tokens: 12,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 9,
        },
      },
    });
    const model = new ChatAnthropic({
      model: "claude-test",
      apiKey: "sk-ant-test",
      clientOptions: { baseURL: server.url },
    });
    const answer = await model.invoke("hi");
    expect(JSON.stringify(answer.usage_metadata)).toBe(
      JSON.stringify({
        input_tokens: 12,
        output_tokens: 9,
        total_tokens: 21,
        input_token_details: { cache_creation: 0, cache_read: 0 },
      }),
    );
    expect(Object.keys(answer.response_metadata)).toEqual([
      "id",
      "model",
      "stop_reason",
      "stop_sequence",
      "usage",
      "type",
      "role",
      "model_provider",
    ]);
    expect(Object.keys(answer.additional_kwargs)).toEqual([
      "id",
      "type",
      "role",
      "model",
      "stop_reason",
      "stop_sequence",
      "usage",
    ]);
  });

  it("stream: tool call chunks list id, index, name, args", async () => {
    server.reply({
      kind: "sse",
      events: anthropicEvents([
        {
          type: "message_start",
          message: { id: "msg_01", type: "message", role: "assistant", model: "claude-test", content: [] },
        },
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} },
        },
        { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "{}" } },
        { type: "content_block_stop", index: 0 },
        {
          type: "message_delta",
          delta: { stop_reason: "tool_use", stop_sequence: null },
          usage: { output_tokens: 3 },
        },
        { type: "message_stop" },
      ]),
    });
    const model = new ChatAnthropic({
      model: "claude-test",
      apiKey: "sk-ant-test",
      clientOptions: { baseURL: server.url },
    });
    const keys: string[][] = [];
    for await (const chunk of await model.stream("hi"))
      for (const call of chunk.tool_call_chunks) keys.push(Object.keys(call));
    expect(keys).toEqual([
      ["id", "index", "name", "args"],
      ["index", "args"],
    ]);
  });

  it("a streamed answer's first chunk lists cache_creation first too", async () => {
    server.reply({
      kind: "sse",
      events: anthropicEvents([
        {
          type: "message_start",
          message: {
            id: "msg_01",
            type: "message",
            role: "assistant",
            model: "claude-test",
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: {
              input_tokens: 12,
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: 0,
              output_tokens: 1,
            },
          },
        },
        {
          type: "message_delta",
          delta: { stop_reason: "end_turn", stop_sequence: null },
          usage: { output_tokens: 9 },
        },
        { type: "message_stop" },
      ]),
    });
    const model = new ChatAnthropic({
      model: "claude-test",
      apiKey: "sk-ant-test",
      clientOptions: { baseURL: server.url },
    });
    const first = (await (await model.stream("hi")).next()).value;
    expect(JSON.stringify(first?.usage_metadata?.input_token_details)).toBe(
      JSON.stringify({ cache_creation: 0, cache_read: 0 }),
    );
  });
});
