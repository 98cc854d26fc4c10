/**
 * The protocol events `ChatOpenAI` and `ChatAnthropic` make of their wire streams in a
 * `streamEvents` v3 run, as LangChain.js's converters make them (`@langchain/core` 1.4.0's
 * OpenAI completions converter, `@langchain/anthropic` 1.5.11's): the expected values are
 * theirs for the same input, but for the Anthropic output tokens, counted once here (see
 * docs/differences.md).
 */
import { describe, expect, it } from "vitest";
import { anthropicStreamEvents } from "./anthropic/anthropic-stream-events.js";
import { openAIStreamEvents } from "./openai/openai-stream-events.js";

async function* source(items: unknown[]): AsyncGenerator<unknown> {
  yield* items;
}

async function collect(events: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const event of events) out.push(event);
  // as the events reach a consumer as JSON (undefined fields left out)
  return JSON.parse(JSON.stringify(out)) as unknown[];
}

const base = { id: "c1", model: "m", system_fingerprint: null };
const openAIChunks = [
  {
    ...base,
    choices: [
      {
        index: 0,
        delta: { role: "assistant", reasoning_content: "think" },
        logprobs: { content: [{ token: "x" }] },
        finish_reason: null,
      },
    ],
  },
  { ...base, choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: null }] },
  {
    ...base,
    choices: [{ index: 0, delta: { function_call: { name: "f", arguments: "{}" } }, finish_reason: null }],
  },
  {
    ...base,
    choices: [
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, id: "t", function: { name: "g", arguments: "" } }] },
        finish_reason: null,
      },
    ],
  },
  {
    ...base,
    choices: [{ index: 0, delta: {}, finish_reason: "length" }],
    x_groq: { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } },
  },
];

const anthropicEvents = [
  {
    type: "message_start",
    message: {
      id: "msg",
      model: "c",
      usage: { input_tokens: 5, output_tokens: 1, cache_read_input_tokens: 2 },
    },
  },
  { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hmm" } },
  { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig" } },
  { type: "content_block_stop", index: 0 },
  { type: "content_block_start", index: 1, content_block: { type: "redacted_thinking", data: "xx" } },
  { type: "content_block_stop", index: 1 },
  {
    type: "content_block_start",
    index: 2,
    content_block: { type: "tool_use", id: "tu", name: "noargs", input: {} },
  },
  { type: "content_block_stop", index: 2 },
  { type: "content_block_start", index: 3, content_block: { type: "text", text: "" } },
  {
    type: "content_block_delta",
    index: 3,
    delta: { type: "citations_delta", citation: { cited_text: "a" } },
  },
  { type: "content_block_stop", index: 3 },
  { type: "ping" },
  {
    type: "message_delta",
    delta: { stop_reason: "max_tokens", stop_sequence: null, context_management: { x: 1 } },
    usage: { output_tokens: 4, cost: 0.5 },
  },
  { type: "message_stop" },
];

describe("openAIStreamEvents", () => {
  it("passes reasoning, text, tool calls, function_call and logprobs on; Groq usage; the mapped finish reason", async () => {
    expect(
      await collect(openAIStreamEvents(source(openAIChunks), { streamUsage: true, provider: "openai" })),
    ).toEqual([
      {
        event: "message-start",
        id: "c1",
      },
      {
        event: "provider",
        provider: "openai",
        name: "stream_metadata",
        payload: {
          model: "m",
        },
      },
      {
        event: "content-block-start",
        index: 0,
        content: {
          type: "reasoning",
          reasoning: "",
        },
      },
      {
        event: "content-block-delta",
        index: 0,
        delta: {
          type: "reasoning-delta",
          reasoning: "think",
        },
      },
      {
        event: "provider",
        provider: "openai",
        name: "logprobs",
        payload: {
          content: [
            {
              token: "x",
            },
          ],
        },
      },
      {
        event: "content-block-start",
        index: 1,
        content: {
          type: "text",
          text: "",
        },
      },
      {
        event: "content-block-delta",
        index: 1,
        delta: {
          type: "text-delta",
          text: "Hi",
        },
      },
      {
        event: "provider",
        provider: "openai",
        name: "function_call",
        payload: {
          name: "f",
          arguments: "{}",
        },
      },
      {
        event: "content-block-start",
        index: 2,
        content: {
          type: "tool_call_chunk",
          id: "t",
          name: "g",
          args: "",
          index: 0,
        },
      },
      {
        event: "usage",
        usage: {
          input_tokens: 1,
          output_tokens: 2,
          total_tokens: 3,
        },
      },
      {
        event: "content-block-finish",
        index: 0,
        content: {
          type: "reasoning",
          reasoning: "think",
        },
      },
      {
        event: "content-block-finish",
        index: 1,
        content: {
          type: "text",
          text: "Hi",
        },
      },
      {
        event: "content-block-finish",
        index: 2,
        content: {
          type: "invalid_tool_call",
          id: "t",
          name: "g",
          args: "",
          error: "Failed to parse tool call arguments as JSON",
        },
      },
      {
        event: "message-finish",
        reason: "length",
        usage: {
          input_tokens: 1,
          output_tokens: 2,
          total_tokens: 3,
        },
        responseMetadata: {
          model_provider: "openai",
          model_name: "m",
          system_fingerprint: null,
          finish_reason: "length",
        },
      },
    ]);
  });
});

describe("anthropicStreamEvents", () => {
  it("finishes each block at its content_block_stop and passes other events on as provider events", async () => {
    expect(await collect(anthropicStreamEvents(source(anthropicEvents), { streamUsage: true }))).toEqual([
      {
        event: "message-start",
        id: "msg",
        usage: {
          input_tokens: 7,
          output_tokens: 1,
          total_tokens: 8,
          input_token_details: {
            cache_creation: 0,
            cache_read: 2,
          },
        },
      },
      {
        event: "provider",
        provider: "anthropic",
        name: "message_start",
        payload: {
          model: "c",
          id: "msg",
        },
      },
      {
        event: "content-block-start",
        index: 0,
        content: {
          type: "reasoning",
          reasoning: "",
          index: 0,
        },
      },
      {
        event: "content-block-delta",
        index: 0,
        delta: {
          type: "reasoning-delta",
          reasoning: "hmm",
        },
      },
      {
        event: "content-block-delta",
        index: 0,
        delta: {
          type: "block-delta",
          fields: {
            type: "reasoning",
            signature: "sig",
          },
        },
      },
      {
        event: "content-block-finish",
        index: 0,
        content: {
          type: "reasoning",
          reasoning: "hmm",
          signature: "sig",
        },
      },
      {
        event: "content-block-start",
        index: 1,
        content: {
          type: "non_standard",
          value: {
            type: "redacted_thinking",
            data: "xx",
          },
          index: 1,
        },
      },
      {
        event: "content-block-finish",
        index: 1,
        content: {
          type: "non_standard",
          value: {
            type: "redacted_thinking",
            data: "xx",
          },
        },
      },
      {
        event: "content-block-start",
        index: 2,
        content: {
          type: "tool_call_chunk",
          id: "tu",
          name: "noargs",
          args: "",
          index: 2,
        },
      },
      {
        event: "content-block-finish",
        index: 2,
        content: {
          type: "tool_call",
          id: "tu",
          name: "noargs",
          args: {},
        },
      },
      {
        event: "content-block-start",
        index: 3,
        content: {
          type: "text",
          text: "",
          index: 3,
        },
      },
      {
        event: "content-block-delta",
        index: 3,
        delta: {
          type: "block-delta",
          fields: {
            type: "text",
            annotations: [
              {
                cited_text: "a",
              },
            ],
          },
        },
      },
      {
        event: "content-block-finish",
        index: 3,
        content: {
          type: "text",
          text: "",
          annotations: [
            {
              cited_text: "a",
            },
          ],
        },
      },
      {
        event: "provider",
        provider: "anthropic",
        name: "ping",
        payload: {
          type: "ping",
        },
      },
      {
        event: "usage",
        usage: {
          input_tokens: 7,
          output_tokens: 4,
          total_tokens: 11,
          input_token_details: {
            cache_creation: 0,
            cache_read: 2,
          },
        },
      },
      {
        event: "provider",
        provider: "anthropic",
        name: "context_management",
        payload: {
          x: 1,
        },
      },
      {
        event: "message-finish",
        reason: "length",
        usage: {
          input_tokens: 7,
          output_tokens: 4,
          total_tokens: 11,
          input_token_details: {
            cache_creation: 0,
            cache_read: 2,
          },
        },
        metadata: {
          model_provider: "anthropic",
        },
        responseMetadata: {
          usage: {
            cost: 0.5,
          },
        },
      },
    ]);
  });
});
