/**
 * `streamEvents(…, { version: "v3" })` of an agent whose model is `ChatOpenAI` or
 * `ChatAnthropic` streaming from a fixture server: how each streamed message finishes, and the
 * `response_metadata` of `ChatModelStream.output`, as LangGraph.js 1.7.3 with
 * `@langchain/openai` 1.6.0 / `@langchain/anthropic` 1.5.11 give them for the same answers.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { MessagesEventData } from "../../graph/index.js";
import "../../index.js";
import { createAgent } from "../../agents/index.js";
import { tool } from "../../tools/index.js";
import { anthropicEvents, FixtureServer, openAIEvents } from "../__tests__/fixture-server.js";
import { ChatAnthropic, ChatOpenAI } from "../index.js";

const getWeather = tool(async ({ city }) => `Sunny in ${city}`, {
  name: "get_weather",
  description: "Get the weather.",
  schema: z.object({ city: z.string() }),
});

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

/** An OpenAI stream: optional text, optional call of `get_weather`, its finish reason, then usage. */
function openAIStream(model: string, text: string, withCall: boolean) {
  const base = {
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1,
    model,
    system_fingerprint: "fp_1",
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  return openAIEvents([
    chunk({ role: "assistant", content: "" }),
    ...(text !== "" ? [chunk({ content: text })] : []),
    ...(withCall
      ? [
          chunk({
            tool_calls: [
              { index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: "" } },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] }),
        ]
      : []),
    chunk({}, withCall ? "tool_calls" : "stop"),
    { ...base, choices: [], usage },
  ]);
}

/** An Anthropic stream: text, then optionally a `get_weather` call, with its stop reason. */
function anthropicStream(text: string, withCall: boolean) {
  return anthropicEvents([
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
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
    { type: "content_block_stop", index: 0 },
    ...(withCall
      ? [
          {
            type: "content_block_start",
            index: 1,
            content_block: { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} },
          },
          {
            type: "content_block_delta",
            index: 1,
            delta: { type: "input_json_delta", partial_json: '{"city":"Paris"}' },
          },
          { type: "content_block_stop", index: 1 },
        ]
      : []),
    {
      type: "message_delta",
      delta: { stop_reason: withCall ? "tool_use" : "end_turn", stop_sequence: null },
      usage: { output_tokens: 9 },
    },
    { type: "message_stop" },
  ]);
}

type Model = ChatOpenAI | ChatAnthropic;

async function finishesAndMetadata(model: Model) {
  const agent = createAgent({ model, tools: [getWeather] });
  const run = await agent.streamEvents(
    { messages: [{ role: "user", content: "Weather in Paris?" }] },
    { version: "v3" },
  );
  const finishes: Extract<MessagesEventData, { event: "message-finish" }>[] = [];
  const metadata: unknown[] = [];
  const toolStarts: unknown[] = [];
  const usages: unknown[] = [];
  for await (const message of run.messages) {
    for await (const event of message) {
      if (event.event === "message-start" || event.event === "usage") usages.push([event.event, event.usage]);
      if (event.event === "message-finish") finishes.push(event);
      if (event.event === "content-block-start" && event.content.type === "tool_call_chunk")
        toolStarts.push(event.content);
    }
    const output = (await message.output) as { response_metadata: unknown };
    metadata.push(output.response_metadata);
  }
  return { finishes, metadata, toolStarts, usages };
}

describe("v3 usage of a streamed provider answer", () => {
  it("ChatAnthropic: the input usage on message-start, then running totals", async () => {
    server.reply(
      { kind: "sse", events: anthropicStream("Let me check.", true) },
      { kind: "sse", events: anthropicStream("Sunny.", false) },
    );
    const model = new ChatAnthropic({
      model: "claude-test",
      apiKey: "sk-ant-test",
      clientOptions: { baseURL: server.url },
    });
    const { usages, finishes } = await finishesAndMetadata(model);
    const start = {
      input_tokens: 12,
      output_tokens: 1,
      total_tokens: 13,
      input_token_details: { cache_creation: 0, cache_read: 0 },
    };
    // @langchain/anthropic counts the message_start output token twice (10 and 22, see
    // docs/differences.md); the shape is the same
    const total = {
      input_tokens: 12,
      output_tokens: 9,
      total_tokens: 21,
      input_token_details: { cache_creation: 0, cache_read: 0 },
    };
    // a message's own stream (run.messages) has no `usage` events, as in LangGraph.js: its usage
    // is on message-start and message-finish; the run's messages channel has the running totals
    expect(usages).toEqual([
      ["message-start", start],
      ["message-start", start],
    ]);
    expect(finishes.map((finish) => finish.usage)).toEqual([total, total]);
    server.reply(
      { kind: "sse", events: anthropicStream("Let me check.", true) },
      { kind: "sse", events: anthropicStream("Sunny.", false) },
    );
    const { events } = await messageEvents(model);
    expect(events.filter((event) => (event as { event: string }).event === "usage")).toEqual([
      { event: "usage", usage: total },
      { event: "usage", usage: total },
    ]);
  });
});

describe("v3 tool call blocks of a streamed provider answer", () => {
  it("start with the chunk's index, as LangChain.js's provider streams start them", async () => {
    server.reply(
      { kind: "sse", events: openAIStream("gpt-test", "", true) },
      { kind: "sse", events: openAIStream("gpt-test", "Sunny.", false) },
      { kind: "sse", events: anthropicStream("Let me check.", true) },
      { kind: "sse", events: anthropicStream("Sunny.", false) },
    );
    const openAI = new ChatOpenAI({
      model: "gpt-test",
      apiKey: "sk-test",
      configuration: { baseURL: `${server.url}/v1` },
    });
    const anthropic = new ChatAnthropic({
      model: "claude-test",
      apiKey: "sk-ant-test",
      clientOptions: { baseURL: server.url },
    });
    // OpenAI: the tool call's index; Anthropic: the content block's
    expect((await finishesAndMetadata(openAI)).toolStarts).toEqual([
      { type: "tool_call_chunk", id: "call_1", name: "get_weather", args: "", index: 0 },
    ]);
    expect((await finishesAndMetadata(anthropic)).toolStarts).toEqual([
      { type: "tool_call_chunk", id: "toolu_1", name: "get_weather", args: "", index: 1 },
    ]);
  });
});

describe("v3 message-finish of a streamed provider answer", () => {
  it("ChatOpenAI: the reason maps finish_reason (tool_calls is tool_use) and the response metadata names the model", async () => {
    server.reply(
      { kind: "sse", events: openAIStream("gpt-test", "Let me check.", true) },
      { kind: "sse", events: openAIStream("gpt-test", "Sunny.", false) },
    );
    const model = new ChatOpenAI({
      model: "gpt-test",
      apiKey: "sk-test",
      configuration: { baseURL: `${server.url}/v1` },
    });
    const { finishes, metadata } = await finishesAndMetadata(model);
    expect(finishes.map(({ reason, responseMetadata }) => ({ reason, responseMetadata }))).toEqual([
      {
        reason: "tool_use",
        responseMetadata: {
          model_provider: "openai",
          model_name: "gpt-test",
          system_fingerprint: "fp_1",
          finish_reason: "tool_calls",
        },
      },
      {
        reason: "stop",
        responseMetadata: {
          model_provider: "openai",
          model_name: "gpt-test",
          system_fingerprint: "fp_1",
          finish_reason: "stop",
        },
      },
    ]);
    expect(metadata).toEqual([
      {
        output_version: "v1",
        model_provider: "openai",
        model_name: "gpt-test",
        system_fingerprint: "fp_1",
        finish_reason: "tool_use",
      },
      {
        output_version: "v1",
        model_provider: "openai",
        model_name: "gpt-test",
        system_fingerprint: "fp_1",
        finish_reason: "stop",
      },
    ]);
  });

  it("ChatAnthropic: the reason maps stop_reason, with the provider as metadata and no response metadata", async () => {
    server.reply(
      { kind: "sse", events: anthropicStream("Let me check.", true) },
      { kind: "sse", events: anthropicStream("Sunny.", false) },
    );
    const model = new ChatAnthropic({
      model: "claude-test",
      apiKey: "sk-ant-test",
      clientOptions: { baseURL: server.url },
    });
    const { finishes, metadata } = await finishesAndMetadata(model);
    expect(
      finishes.map(({ reason, metadata, responseMetadata }) => ({ reason, metadata, responseMetadata })),
    ).toEqual([
      { reason: "tool_use", metadata: { model_provider: "anthropic" }, responseMetadata: {} },
      { reason: "stop", metadata: { model_provider: "anthropic" }, responseMetadata: {} },
    ]);
    expect(metadata).toEqual([
      { output_version: "v1", finish_reason: "tool_use" },
      { output_version: "v1", finish_reason: "stop" },
    ]);
  });
});

/** The `messages` events of an agent's v3 run, without their run ids. */
async function messageEvents(model: Model) {
  const agent = createAgent({ model, tools: [getWeather] });
  const run = await agent.streamEvents(
    { messages: [{ role: "user", content: "Weather in Paris?" }] },
    { version: "v3" },
  );
  const events: unknown[] = [];
  for await (const event of run) {
    if (event.method !== "messages") continue;
    const { run_id: _runId, ...data } = event.params.data as MessagesEventData;
    events.push(data);
  }
  const output = (await run.output) as { messages: { content: unknown; tool_calls?: unknown }[] };
  return { events, output };
}

describe("v3 events of a streamed provider answer, as LangChain.js's provider converters make them", () => {
  it("ChatOpenAI: a provider stream_metadata event after message-start; the state holds content blocks", async () => {
    server.reply(
      { kind: "sse", events: openAIStream("gpt-test", "Let me check.", true) },
      { kind: "sse", events: openAIStream("gpt-test", "Sunny.", false) },
    );
    const model = new ChatOpenAI({
      model: "gpt-test",
      apiKey: "sk-test",
      configuration: { baseURL: `${server.url}/v1` },
    });
    const { events, output } = await messageEvents(model);
    expect(events.slice(0, 2)).toEqual([
      { event: "message-start", id: "chatcmpl-1" },
      {
        event: "provider",
        provider: "openai",
        name: "stream_metadata",
        payload: { model: "gpt-test", service_tier: undefined },
      },
    ]);
    // both answers are "chatcmpl-1": the second replaces the first in the state, as in LangChain.js
    expect(output.messages.map((message) => message.content)).toEqual([
      "Weather in Paris?",
      [{ type: "text", text: "Sunny." }],
      "Sunny in Paris",
    ]);
  });

  it("ChatAnthropic: each block finishes at its content_block_stop, tool arguments as block-delta snapshots", async () => {
    server.reply(
      { kind: "sse", events: anthropicStream("Let me check.", true) },
      { kind: "sse", events: anthropicStream("Sunny.", false) },
    );
    const model = new ChatAnthropic({
      model: "claude-test",
      apiKey: "sk-ant-test",
      clientOptions: { baseURL: server.url },
    });
    const { events } = await messageEvents(model);
    const names = events.slice(0, 11).map((event) => {
      const {
        event: name,
        index,
        delta,
        content,
      } = event as {
        event: string;
        index?: number;
        delta?: unknown;
        content?: unknown;
      };
      return [name, index, delta ?? content];
    });
    expect(names).toEqual([
      ["message-start", undefined, undefined],
      ["provider", undefined, undefined],
      ["content-block-start", 0, { type: "text", text: "", index: 0 }],
      ["content-block-delta", 0, { type: "text-delta", text: "Let me check." }],
      ["content-block-finish", 0, { type: "text", text: "Let me check." }],
      [
        "content-block-start",
        1,
        { type: "tool_call_chunk", id: "toolu_1", name: "get_weather", args: "", index: 1 },
      ],
      [
        "content-block-delta",
        1,
        { type: "block-delta", fields: { type: "tool_call_chunk", args: '{"city":"Paris"}' } },
      ],
      [
        "content-block-finish",
        1,
        { type: "tool_call", id: "toolu_1", name: "get_weather", args: { city: "Paris" } },
      ],
      ["usage", undefined, undefined],
      ["message-finish", undefined, undefined],
      ["message-start", undefined, undefined],
    ]);
    expect(events[1]).toEqual({
      event: "provider",
      provider: "anthropic",
      name: "message_start",
      payload: { model: "claude-test", id: "msg_01" },
    });
  });
});

describe("a provider message's own stream in a v3 run (run.messages)", () => {
  it("has its start, content blocks and finish: no usage or provider events, as in LangGraph.js", async () => {
    server.reply({ kind: "sse", events: openAIStream("gpt-test", "Sunny.", false) });
    const model = new ChatOpenAI({
      model: "gpt-test",
      apiKey: "sk-test",
      configuration: { baseURL: `${server.url}/v1` },
    });
    const agent = createAgent({ model, tools: [getWeather] });
    const run = await agent.streamEvents(
      { messages: [{ role: "user", content: "Weather in Paris?" }] },
      { version: "v3" },
    );
    const names: string[][] = [];
    for await (const message of run.messages) {
      const events: string[] = [];
      for await (const event of message) events.push(event.event);
      names.push(events);
    }
    expect(names).toEqual([
      [
        "message-start",
        "content-block-start",
        "content-block-delta",
        "content-block-finish",
        "message-finish",
      ],
    ]);
  });
});
