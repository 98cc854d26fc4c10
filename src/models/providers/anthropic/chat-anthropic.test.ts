import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  AIMessage,
  type AIMessageChunk,
  ChatMessage,
  FunctionMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "../../../messages/index.js";
import { AbortError, InvalidArgumentError } from "../../../shared/index.js";
import { tool } from "../../../tools/index.js";
import { anthropicEvents, FixtureServer } from "../../__tests__/fixture-server.js";
import { MissingApiKeyError } from "../../errors/configuration-errors.js";
import {
  ModelAuthenticationError,
  ModelCallError,
  ModelRateLimitError,
} from "../../errors/model-call-error.js";
import { ChatAnthropic, type ChatAnthropicFields } from "./chat-anthropic.js";

const getWeather = tool(async ({ city }) => `Sunny in ${city}`, {
  name: "get_weather",
  description: "Get weather for a given city.",
  schema: z.object({ city: z.string() }),
});

let server: FixtureServer;
beforeEach(async () => {
  server = await FixtureServer.start();
});
afterEach(async () => {
  await server.close();
  vi.unstubAllEnvs();
});

function model(fields: ChatAnthropicFields = {}): ChatAnthropic {
  return new ChatAnthropic({
    model: "claude-sonnet-4-6",
    apiKey: "sk-ant-test",
    clientOptions: { baseURL: server.url },
    ...fields,
  });
}

function message(content: unknown[], extra: Record<string, unknown> = {}) {
  return {
    id: "msg_01XFDUDYJgAACzvnptvVoYEL",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-6-20260101",
    content,
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: 25,
      output_tokens: 12,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 5,
    },
    ...extra,
  };
}

async function collect(stream: AsyncIterable<AIMessageChunk>): Promise<AIMessageChunk[]> {
  const chunks: AIMessageChunk[] = [];
  for await (const c of stream) chunks.push(c);
  return chunks;
}

function join(chunks: AIMessageChunk[]): AIMessageChunk {
  const [first, ...rest] = chunks;
  if (first === undefined) throw new Error("no chunks");
  return rest.reduce((acc, c) => acc.concat(c), first);
}

describe("ChatAnthropic request format", () => {
  it("joins system messages into `system`, sends tool_use blocks and merges tool results into one user turn", async () => {
    server.reply({ kind: "json", body: message([{ type: "text", text: "Paris is sunny, Rome too." }]) });
    await model({ temperature: 0 })
      .bindTools([getWeather])
      .invoke([
        new SystemMessage("You are a helpful assistant"),
        new SystemMessage("Answer briefly."),
        new HumanMessage("Weather in Paris and Rome?"),
        new AIMessage({
          content: "Checking both.",
          tool_calls: [
            { name: "get_weather", args: { city: "Paris" }, id: "toolu_1", type: "tool_call" },
            { name: "get_weather", args: { city: "Rome" }, id: "toolu_2", type: "tool_call" },
          ],
        }),
        new ToolMessage({ content: "Sunny in Paris", tool_call_id: "toolu_1" }),
        new ToolMessage({ content: "Error: no data", tool_call_id: "toolu_2", status: "error" }),
        new HumanMessage("And in short?"),
      ]);
    const request = server.requests[0];
    expect(request?.path).toBe("/v1/messages");
    // SDK 1.x sends the key as a bearer token.
    expect(request?.headers.authorization).toBe("Bearer sk-ant-test");
    expect(request?.headers["anthropic-version"]).toBeDefined();
    expect(request?.body).toEqual({
      model: "claude-sonnet-4-6",
      max_tokens: 2048,
      stream: false,
      temperature: 0,
      // several system messages: one list of text blocks, as @langchain/anthropic sends them
      system: [
        { type: "text", text: "You are a helpful assistant" },
        { type: "text", text: "Answer briefly." },
      ],
      tools: [
        {
          name: "get_weather",
          description: "Get weather for a given city.",
          input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      ],
      messages: [
        { role: "user", content: "Weather in Paris and Rome?" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Checking both." },
            { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
            { type: "tool_use", id: "toolu_2", name: "get_weather", input: { city: "Rome" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: "Sunny in Paris" },
            { type: "tool_result", tool_use_id: "toolu_2", content: "Error: no data", is_error: true },
          ],
        },
        // only tool results are merged into one turn, as @langchain/anthropic merges them
        { role: "user", content: "And in short?" },
      ],
    });
  });

  it("sends an AI message in the standard (v1) form back as Anthropic blocks, thinking included", async () => {
    server.reply({ kind: "json", body: message([{ type: "text", text: "ok" }]) });
    const ai = new AIMessage({
      content: [
        { type: "reasoning", reasoning: "hm", signature: "sig" },
        { type: "text", text: "Checking." },
        { type: "tool_call", id: "toolu_1", name: "get_weather", args: { city: "Oslo" } },
      ],
      tool_calls: [{ id: "toolu_1", name: "get_weather", args: { city: "Oslo" }, type: "tool_call" }],
      response_metadata: { output_version: "v1", model_provider: "anthropic" },
    });
    await model().invoke([
      new HumanMessage("Weather?"),
      ai,
      new ToolMessage({ content: "Sunny", tool_call_id: "toolu_1" }),
    ]);
    expect(server.requests[0]?.body).toMatchObject({
      messages: [
        { role: "user", content: "Weather?" },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hm", signature: "sig" },
            { type: "text", text: "Checking." },
            { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } },
          ],
        },
        { role: "user", content: [{ type: "tool_result", content: "Sunny", tool_use_id: "toolu_1" }] },
      ],
    });
  });

  it("sends a v1 AI message's text annotations back as citations, as @langchain/anthropic 1.5.11 does", async () => {
    server.reply({ kind: "json", body: message([{ type: "text", text: "ok" }]) });
    const ai = new AIMessage({
      content: [
        {
          type: "text",
          text: "Cited",
          annotations: [
            {
              type: "citation",
              source: "char",
              url: "file_9",
              title: "Guide",
              startIndex: 2,
              endIndex: 8,
              citedText: "quote",
            },
            { type: "citation", source: "url", url: "https://example.com", title: "Site", startIndex: 3 },
            { type: "citation", title: "no source" },
          ],
        },
        { type: "text", text: "Empty", annotations: [] },
        { type: "text", text: "Plain" },
      ],
      response_metadata: { output_version: "v1", model_provider: "anthropic" },
    });
    await model().invoke([new HumanMessage("Q"), ai, new HumanMessage("More")]);
    expect(
      JSON.stringify((server.requests[0]?.body as { messages: unknown[] } | undefined)?.messages[1]),
    ).toBe(
      JSON.stringify({
        role: "assistant",
        content: [
          {
            type: "text",
            text: "Cited",
            citations: [
              {
                type: "char_location",
                file_id: "file_9",
                start_char_index: 2,
                end_char_index: 8,
                document_title: "Guide",
                document_index: 0,
                cited_text: "quote",
              },
              {
                type: "web_search_result_location",
                url: "https://example.com",
                title: "Site",
                encrypted_index: "3",
                cited_text: "",
              },
            ],
          },
          { type: "text", text: "Empty", citations: [] },
          { type: "text", text: "Plain" },
        ],
      }),
    );
  });

  it("sends a v1 AI message's images and files back as @langchain/anthropic 1.5.11 does", async () => {
    server.reply({ kind: "json", body: message([{ type: "text", text: "ok" }]) });
    const ai = new AIMessage({
      content: [
        { type: "image", data: "AAAA" },
        { type: "image", data: "AAAA", mimeType: "image/bmp" },
        { type: "file", data: "BBBB", mimeType: "text/plain", metadata: { title: "Notes" } },
        { type: "file", data: "CCCC", mimeType: "image/gif" },
        { type: "file", fileId: "file_1", url: "https://example.com/a.pdf" },
      ],
      response_metadata: { output_version: "v1", model_provider: "anthropic" },
    });
    await model().invoke([new HumanMessage("Q"), ai, new HumanMessage("More")]);
    expect(
      JSON.stringify((server.requests[0]?.body as { messages: unknown[] } | undefined)?.messages[1]),
    ).toBe(
      JSON.stringify({
        role: "assistant",
        content: [
          // data before media_type, PNG by default; a BMP image is dropped
          { type: "image", source: { type: "base64", data: "AAAA", media_type: "image/png" } },
          {
            type: "document",
            source: { type: "text", data: "BBBB", media_type: "text/plain" },
            title: "Notes",
          },
          {
            type: "document",
            source: {
              type: "content",
              content: [{ type: "image", source: { type: "base64", data: "CCCC", media_type: "image/gif" } }],
            },
          },
          { type: "document", source: { type: "file", file_id: "file_1" } },
        ],
      }),
    );
    const bad = (block: Record<string, unknown>) =>
      model().invoke([
        new HumanMessage("Q"),
        new AIMessage({ content: [block] as never, response_metadata: { output_version: "v1" } }),
      ]);
    await expect(bad({ type: "file", data: "AAAA", mimeType: "audio/wav" })).rejects.toThrow(
      "Unsupported file mime type for Anthropic base64 source: audio/wav",
    );
    await expect(bad({ type: "image" })).rejects.toThrow(
      "Image content block must include a fileId, url, or data property.",
    );
    await expect(bad({ type: "audio", data: "AAAA", mimeType: "audio/wav" })).rejects.toThrow(
      "Anthropic does not support audio content blocks.",
    );
  });

  it("keeps content blocks with their cache_control, as @langchain/anthropic sends them", async () => {
    server.reply({ kind: "json", body: message([{ type: "text", text: "ok" }]) });
    await model({ maxTokens: 100 }).invoke([
      new SystemMessage({
        content: [{ type: "text", text: "Long instructions", cache_control: { type: "ephemeral" } }],
      }),
      new HumanMessage({
        content: [
          { type: "text", text: "Describe", cache_control: { type: "ephemeral" } },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          { type: "file", mimeType: "application/pdf", data: "JVBERi0=" },
        ],
      }),
      new AIMessage({
        content: "",
        tool_calls: [{ name: "get_weather", args: { city: "Paris" }, id: "toolu_1", type: "tool_call" }],
      }),
      new ToolMessage({ content: "Sunny", tool_call_id: "toolu_1" }),
      new HumanMessage("Thanks"),
      new HumanMessage({ content: [{ type: "text", text: "And Rome?" }] }),
    ]);
    expect(server.requests[0]?.body).toEqual({
      model: "claude-sonnet-4-6",
      stream: false,
      max_tokens: 100,
      system: [{ type: "text", text: "Long instructions", cache_control: { type: "ephemeral" } }],
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Describe", cache_control: { type: "ephemeral" } },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
            { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0=" } },
          ],
        },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } }],
        },
        { role: "user", content: [{ type: "tool_result", content: "Sunny", tool_use_id: "toolu_1" }] },
        { role: "user", content: "Thanks" },
        { role: "user", content: [{ type: "text", text: "And Rome?" }] },
      ],
    });
  });

  it("refuses ChatMessage and FunctionMessage, naming the message type, before any request", async () => {
    await expect(model().invoke([new ChatMessage("Order in the court!", "judge")])).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(model().invoke([new ChatMessage("Order in the court!", "judge")])).rejects.toThrow(
      'Message type "generic" is not supported by ChatAnthropic: the Messages API has no role "judge"',
    );
    await expect(
      model().invoke([new HumanMessage("Hi"), new FunctionMessage({ content: "21", name: "get_weather" })]),
    ).rejects.toThrow('Message type "function" is not supported by ChatAnthropic');
    const streamed = async () => collect(await model().stream([new ChatMessage("Hi", "user")]));
    await expect(streamed()).rejects.toThrow(InvalidArgumentError);
    expect(server.requests).toHaveLength(0);
  });

  it("maps tool_choice and parallel_tool_calls", async () => {
    const reply = { kind: "json" as const, body: message([{ type: "text", text: "ok" }]) };
    server.reply(reply, reply, reply);
    await model().bindTools([getWeather], { tool_choice: "any" }).invoke("x");
    await model().bindTools([getWeather], { tool_choice: "get_weather" }).invoke("x");
    await model().bindTools([getWeather], { parallel_tool_calls: false }).invoke("x");
    const choices = server.requests.map((r) => (r.body as { tool_choice?: unknown }).tool_choice);
    expect(choices).toEqual([
      { type: "any" },
      { type: "tool", name: "get_weather" },
      { type: "auto", disable_parallel_tool_use: true },
    ]);
  });

  it("sends server tools (provider tool descriptors) as Anthropic describes them", async () => {
    server.reply({ kind: "json", body: message([{ type: "text", text: "ok" }]) });
    const search = { type: "web_search_20250305", name: "web_search", max_uses: 3 };
    await model().bindTools([getWeather, search]).invoke("x");
    const tools = (server.requests[0]?.body as { tools?: unknown[] } | undefined)?.tools;
    expect(tools).toEqual([
      {
        name: "get_weather",
        description: "Get weather for a given city.",
        input_schema: expect.objectContaining({ type: "object" }),
      },
      search,
    ]);
  });

  it("merges a tool's extras into its Anthropic definition (defer_loading for tool search)", async () => {
    server.reply({ kind: "json", body: message([{ type: "text", text: "ok" }]) });
    const deferred = tool(async () => "x", {
      name: "lookup",
      description: "Look up.",
      schema: z.object({}),
      extras: { defer_loading: true },
    });
    const search = { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" };
    await model().bindTools([deferred, search]).invoke("x");
    const tools = (server.requests[0]?.body as { tools?: Record<string, unknown>[] } | undefined)?.tools;
    expect(tools?.[0]).toMatchObject({ name: "lookup", defer_loading: true });
    expect(tools?.[1]).toEqual(search);
  });

  it("sends a call's cache_control as the request's top-level cache_control", async () => {
    const reply = { kind: "json" as const, body: message([{ type: "text", text: "ok" }]) };
    server.reply(reply, reply);
    await model()
      .bindTools([getWeather], { cache_control: { type: "ephemeral", ttl: "1h" } } as never)
      .invoke("x");
    await model().invoke("x");
    const sent = server.requests.map((r) => (r.body as { cache_control?: unknown }).cache_control);
    expect(sent).toEqual([{ type: "ephemeral", ttl: "1h" }, undefined]);
  });

  it("accepts the camelCase forms toolChoice and parallelToolCalls", async () => {
    server.reply({ kind: "json", body: message([{ type: "text", text: "ok" }]) });
    await model()
      .bindTools([getWeather], { toolChoice: "get_weather", parallelToolCalls: false })
      .invoke("x");
    const body = server.requests[0]?.body as { tool_choice?: unknown } | undefined;
    expect(body?.tool_choice).toEqual({
      type: "tool",
      name: "get_weather",
      disable_parallel_tool_use: true,
    });
  });
});

describe("ChatAnthropic responses", () => {
  it("maps text, tool_use, stop_reason and usage", async () => {
    server.reply({
      kind: "json",
      body: message(
        [
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: "toolu_01A", name: "get_weather", input: { city: "Oslo" } },
        ],
        { stop_reason: "tool_use" },
      ),
    });
    const reply = await model().bindTools([getWeather]).invoke("Oslo?");
    expect(reply.id).toBe("msg_01XFDUDYJgAACzvnptvVoYEL");
    expect(reply.content).toBe("Let me check.");
    expect(reply.tool_calls).toEqual([
      { name: "get_weather", args: { city: "Oslo" }, id: "toolu_01A", type: "tool_call" },
    ]);
    expect(reply.usage_metadata).toEqual({
      input_tokens: 30,
      output_tokens: 12,
      total_tokens: 42,
      input_token_details: { cache_read: 5, cache_creation: 0 },
    });
    // @langchain/anthropic's metadata: the response's fields other than `content`
    const fields = {
      id: "msg_01XFDUDYJgAACzvnptvVoYEL",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-6-20260101",
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: {
        input_tokens: 25,
        output_tokens: 12,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 5,
      },
    };
    expect(reply.response_metadata).toEqual({ ...fields, model_provider: "anthropic" });
    expect(reply.additional_kwargs).toEqual(fields);
  });

  it("reports cache token details as 0 when the usage leaves them out", async () => {
    server.reply({
      kind: "json",
      body: message([{ type: "text", text: "Hi" }], { usage: { input_tokens: 7, output_tokens: 2 } }),
    });
    const reply = await model().invoke("Hi", { headers: { "x-trace": "t1" } });
    expect(reply.usage_metadata).toEqual({
      input_tokens: 7,
      output_tokens: 2,
      total_tokens: 9,
      input_token_details: { cache_creation: 0, cache_read: 0 },
    });
    // a call's headers go with the request
    expect(server.requests[0]?.headers["x-trace"]).toBe("t1");
  });

  it("keeps server tool blocks and cited text in the content, as @langchain/anthropic does", async () => {
    const blocks = [
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "weather Oslo" } },
      {
        type: "web_search_tool_result",
        tool_use_id: "srvtoolu_1",
        content: [{ type: "web_search_result", url: "https://e.com", title: "E", encrypted_content: "xx" }],
      },
      {
        type: "text",
        text: "Sunny.",
        citations: [
          {
            type: "web_search_result_location",
            url: "https://e.com",
            title: "E",
            encrypted_index: "1",
            cited_text: "sunny",
          },
        ],
      },
    ];
    server.reply({ kind: "json", body: message(blocks) });
    const reply = await model().invoke("Weather in Oslo?");
    expect(reply.content).toEqual(blocks);
    expect(reply.text).toBe("Sunny.");
  });

  it("returns parallel tool_use blocks as tool calls in order", async () => {
    server.reply({
      kind: "json",
      body: message(
        [
          { type: "tool_use", id: "toolu_p", name: "get_weather", input: { city: "Paris" } },
          { type: "tool_use", id: "toolu_r", name: "get_weather", input: { city: "Rome" } },
        ],
        { stop_reason: "tool_use" },
      ),
    });
    const reply = await model().bindTools([getWeather]).invoke("Paris and Rome?");
    expect(reply.content).toBe("");
    expect(reply.tool_calls).toEqual([
      { name: "get_weather", args: { city: "Paris" }, id: "toolu_p", type: "tool_call" },
      { name: "get_weather", args: { city: "Rome" }, id: "toolu_r", type: "tool_call" },
    ]);
    expect(reply.invalid_tool_calls).toEqual([]);
  });

  it("reports a refusal through stop_reason without failing", async () => {
    server.reply({
      kind: "json",
      body: message([{ type: "text", text: "I can't help with that." }], { stop_reason: "refusal" }),
    });
    const reply = await model().invoke("Something bad");
    expect(reply).toBeInstanceOf(AIMessage);
    expect(reply.text).toBe("I can't help with that.");
    expect(reply.tool_calls).toEqual([]);
    expect(reply.response_metadata).toMatchObject({ stop_reason: "refusal", model_provider: "anthropic" });
  });

  it("keeps thinking blocks with their signature and sends them back", async () => {
    server.reply(
      {
        kind: "json",
        body: message([
          { type: "thinking", thinking: "The user asks for 2+2.", signature: "EqQBCgIYAhIM" },
          { type: "redacted_thinking", data: "EmwKAhgBEgy3va" },
          { type: "text", text: "4" },
        ]),
      },
      { kind: "json", body: message([{ type: "text", text: "8" }]) },
    );
    const chat = model({ thinking: { type: "enabled", budget_tokens: 1024 } });
    const first = await chat.invoke("2+2?");
    expect(first.content).toEqual([
      { type: "thinking", thinking: "The user asks for 2+2.", signature: "EqQBCgIYAhIM" },
      { type: "redacted_thinking", data: "EmwKAhgBEgy3va" },
      { type: "text", text: "4" },
    ]);
    expect(first.text).toBe("4");
    await chat.invoke([new HumanMessage("2+2?"), first, new HumanMessage("Double it")]);
    expect(server.requests[1]?.body).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages: [
        { role: "user", content: "2+2?" },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "The user asks for 2+2.", signature: "EqQBCgIYAhIM" },
            { type: "redacted_thinking", data: "EmwKAhgBEgy3va" },
            { type: "text", text: "4" },
          ],
        },
        { role: "user", content: "Double it" },
      ],
    });
  });

  it("writes an answer's tool calls in @langchain/anthropic's key order (id before type)", async () => {
    server.reply({
      kind: "json",
      body: message([{ type: "tool_use", id: "toolu_x", name: "get_weather", input: { city: "Paris" } }], {
        stop_reason: "tool_use",
      }),
    });
    const reply = await model().bindTools([getWeather]).invoke("Paris?");
    expect(JSON.stringify(reply.tool_calls[0])).toBe(
      '{"name":"get_weather","args":{"city":"Paris"},"id":"toolu_x","type":"tool_call"}',
    );
  });

  it("withStructuredOutput forces the extract tool and returns its input", async () => {
    server.reply({
      kind: "json",
      body: message([{ type: "tool_use", id: "toolu_x", name: "extract", input: { name: "Ada", age: 36 } }], {
        stop_reason: "tool_use",
      }),
    });
    const person = await model()
      .withStructuredOutput(z.object({ name: z.string(), age: z.number() }))
      .invoke("Ada is 36");
    expect(person).toEqual({ name: "Ada", age: 36 });
    expect(server.requests[0]?.body).toMatchObject({ tool_choice: { type: "tool", name: "extract" } });
  });

  it('withStructuredOutput describes a JSON Schema without a description as "", as @langchain/anthropic does', async () => {
    const answer = (name: string) => ({
      kind: "json" as const,
      body: message([{ type: "tool_use", id: "toolu_x", name, input: { a: 1 } }], {
        stop_reason: "tool_use",
      }),
    });
    server.reply(answer("extract"), answer("N"));
    const schema = { title: "T", type: "object", properties: { a: { type: "number" } } };
    expect(await model().withStructuredOutput(schema).invoke("x")).toEqual({ a: 1 });
    expect(await model().withStructuredOutput(schema, { name: "N" }).invoke("x")).toEqual({ a: 1 });
    const sent = server.requests.map((r) => r.body as { tools?: unknown; tool_choice?: unknown });
    expect(sent.map((b) => [b.tools, b.tool_choice])).toEqual([
      [[{ name: "extract", description: "", input_schema: schema }], { type: "tool", name: "extract" }],
      [[{ name: "N", description: "", input_schema: schema }], { type: "tool", name: "N" }],
    ]);
  });

  it('withStructuredOutput "jsonSchema" (and "jsonMode") sends the closed schema in output_config.format', async () => {
    const reply = {
      kind: "json" as const,
      body: message([{ type: "text", text: '{"name":"Ada","age":36}' }]),
    };
    server.reply(reply, reply);
    const schema = {
      type: "object",
      title: "Person",
      properties: {
        name: { type: "string", minLength: 2 },
        kind: { oneOf: [{ type: "string" }, { type: "null" }] },
      },
      required: ["name"],
    };
    for (const method of ["jsonSchema", "jsonMode"] as const) {
      expect(await model().withStructuredOutput(schema, { method }).invoke("Ada is 36")).toEqual({
        name: "Ada",
        age: 36,
      });
    }
    for (const request of server.requests) {
      expect(request.body).toMatchObject({
        output_config: {
          format: {
            type: "json_schema",
            schema: {
              type: "object",
              title: "Person",
              properties: {
                name: { type: "string", description: "{minLength: 2}" },
                kind: { anyOf: [{ type: "string" }, { type: "null" }] },
              },
              additionalProperties: false,
              required: ["name"],
            },
          },
        },
      });
      expect(request.body).not.toHaveProperty("tools");
    }
    expect(() => model().withStructuredOutput(schema, { method: "jsonSchema", strict: true })).toThrow(
      'Argument `strict` is only supported for `method` = "functionCalling" on Anthropic models. Got method = "jsonSchema".',
    );
  });

  it("withStructuredOutput takes a schema in Anthropic's tool form as the tool, named by it", async () => {
    server.reply({
      kind: "json",
      body: message([{ type: "tool_use", id: "toolu_x", name: "person_tool", input: { name: "Ada" } }], {
        stop_reason: "tool_use",
      }),
    });
    const schema = {
      name: "person_tool",
      description: "Extract a person",
      input_schema: { type: "object", properties: { name: { type: "string" } } },
    };
    const person = await model().withStructuredOutput(schema, { name: "ignored" }).invoke("Ada");
    expect(person).toEqual({ name: "Ada" });
    expect(server.requests[0]?.body).toMatchObject({
      tools: [schema],
      tool_choice: { type: "tool", name: "person_tool" },
    });
  });

  it("withStructuredOutput does not force the tool when thinking is enabled", async () => {
    server.reply({
      kind: "json",
      body: message([{ type: "tool_use", id: "toolu_x", name: "extract", input: { name: "Ada" } }], {
        stop_reason: "tool_use",
      }),
    });
    const schema = { type: "object", description: "A person", properties: { name: { type: "string" } } };
    const person = await model({ maxTokens: 100, thinking: { type: "enabled", budget_tokens: 1024 } })
      .withStructuredOutput(schema)
      .invoke("Ada");
    expect(person).toEqual({ name: "Ada" });
    expect(server.requests[0]?.body).toEqual({
      model: "claude-sonnet-4-6",
      stream: false,
      max_tokens: 100,
      tools: [{ name: "extract", description: "A person", input_schema: schema }],
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages: [{ role: "user", content: "Ada" }],
    });
  });

  it("withStructuredOutput with thinking fails with @langchain/anthropic's text when the answer calls no tool", async () => {
    const reply = { kind: "json" as const, body: message([{ type: "text", text: '{"name":"Ada"}' }]) };
    server.reply(reply, reply);
    const thinking = model({ maxTokens: 2048, thinking: { type: "enabled", budget_tokens: 1024 } });
    const text =
      "Anthropic structured output relies on forced tool calling, which is not supported when `thinking` is enabled. This method will raise OutputParserException if tool calls are not generated. Consider disabling `thinking` or adjust your prompt to ensure the tool is called.";
    const schema = z.object({ name: z.string() });
    await expect(thinking.withStructuredOutput(schema).invoke("Ada")).rejects.toThrow(text);
    // before the raw answer is split from the parsed one, so includeRaw does not catch it
    await expect(thinking.withStructuredOutput(schema, { includeRaw: true }).invoke("Ada")).rejects.toThrow(
      text,
    );
  });
});

describe("ChatAnthropic request fields (as @langchain/anthropic sends them)", () => {
  it("sends betas (the model's, the call's, and those server tools need) in anthropic-beta", async () => {
    const reply = { kind: "json" as const, body: message([{ type: "text", text: "ok" }]) };
    server.reply(reply, reply);
    await model({ betas: ["files-api-2025-04-14"] }).invoke("x", { betas: ["x-beta"] });
    await model()
      .bindTools([{ type: "code_execution_20250825", name: "code_execution" }])
      .invoke("x");
    expect(server.requests[0]?.headers["anthropic-beta"]).toBe("files-api-2025-04-14,x-beta");
    expect(server.requests[0]?.body).not.toHaveProperty("betas");
    expect(server.requests[1]?.headers["anthropic-beta"]).toBe("code-execution-2025-08-25");
  });

  it("sends context_management, output_config, inference_geo, container and mcp_servers", async () => {
    server.reply({ kind: "json", body: message([{ type: "text", text: "ok" }]) });
    const mcp = [{ type: "url", url: "https://mcp.example.com", name: "docs" }];
    await model({
      maxTokens: 10,
      contextManagement: { edits: [{ type: "clear_tool_uses_20250919" }] },
      outputConfig: { effort: "low" },
      inferenceGeo: "us",
    }).invoke("x", {
      container: "cont_1",
      mcp_servers: mcp,
      outputFormat: { type: "json_schema", schema: {} },
    });
    expect(server.requests[0]?.body).toEqual({
      model: "claude-sonnet-4-6",
      stream: false,
      max_tokens: 10,
      messages: [{ role: "user", content: "x" }],
      context_management: { edits: [{ type: "clear_tool_uses_20250919" }] },
      output_config: { effort: "low", format: { type: "json_schema", schema: {} } },
      inference_geo: "us",
      container: "cont_1",
      mcp_servers: mcp,
    });
  });
});

describe("ChatAnthropic tools (as @langchain/anthropic sends them)", () => {
  it("sends strict per tool with the schema as given, Anthropic's extras only, a provider tool definition", async () => {
    const reply = { kind: "json" as const, body: message([{ type: "text", text: "ok" }]) };
    server.reply(reply, reply, reply);
    const lookup = { name: "lookup", description: "d", input_schema: { type: "object", properties: {} } };
    await model().bindTools([lookup], { strict: true }).invoke("x");
    const search = tool(async () => "x", {
      name: "search",
      description: "Search",
      schema: z.object({ q: z.string() }),
      extras: { foo: 1, defer_loading: true },
    });
    const proxy = tool(async () => "x", {
      name: "proxy",
      description: "Proxy",
      schema: z.object({ q: z.string() }),
      extras: { providerToolDefinition: { type: "web_search_20250305", name: "web_search" } },
    });
    await model().bindTools([search, proxy]).invoke("x");
    const composite = { name: "either", description: "d", input_schema: { anyOf: [{ type: "object" }] } };
    await model()
      .bindTools([composite, lookup], {
        tool_choice: { type: "tool", name: "lookup", disable_parallel_tool_use: true },
      })
      .invoke("x");
    const tools = server.requests.map((r) => (r.body as { tools?: unknown }).tools);
    expect(tools).toEqual([
      [{ ...lookup, strict: true }],
      [
        {
          name: "search",
          description: "Search",
          input_schema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
          defer_loading: true,
        },
        { type: "web_search_20250305", name: "web_search" },
      ],
      // a top-level anyOf schema is left out
      [lookup],
    ]);
    expect(server.requests[2]?.body).toMatchObject({
      tool_choice: { type: "tool", name: "lookup", disable_parallel_tool_use: true },
    });
  });
});

describe("ChatAnthropic parameters (as @langchain/anthropic reports them)", () => {
  it("exposes stopSequences and invocationKwargs ({} by default)", () => {
    expect(model({ stopSequences: ["S"] }).stopSequences).toEqual(["S"]);
    expect(model().stopSequences).toBeUndefined();
    expect(model().invocationKwargs).toEqual({});
  });

  it("invocationParams and getLsParams", () => {
    const chat = model({ temperature: 0.5, stopSequences: ["S"], maxTokens: 100 });
    const lookup = { name: "a", description: "d", input_schema: { type: "object", properties: {} } };
    expect(chat.invocationParams({ stop: ["T"], tools: [lookup], tool_choice: "any" })).toStrictEqual({
      model: "claude-sonnet-4-6",
      stop_sequences: ["T"],
      stream: false,
      max_tokens: 100,
      tools: [lookup],
      tool_choice: { type: "any" },
      thinking: undefined,
      context_management: undefined,
      container: undefined,
      betas: [],
      output_config: undefined,
      inference_geo: undefined,
      mcp_servers: undefined,
      cache_control: undefined,
      temperature: 0.5,
    });
    expect(chat.getLsParams({})).toStrictEqual({
      ls_provider: "anthropic",
      ls_model_name: "claude-sonnet-4-6",
      ls_model_type: "chat",
      ls_temperature: 0.5,
      ls_max_tokens: 100,
      ls_stop: undefined,
    });
    const thinking = model({
      temperature: 1,
      thinking: { type: "enabled", budget_tokens: 1000 },
      maxTokens: 5000,
    });
    expect(thinking.getLsParams({ stop: ["X"] })).toMatchObject({
      ls_temperature: undefined,
      ls_stop: ["X"],
    });
  });
});

describe("ChatAnthropic identifyingParams", () => {
  it("is model_name followed by the invocation parameters, from both methods", () => {
    const chat = model({ temperature: 0.1, maxTokens: 100 });
    const expected = {
      model_name: "claude-sonnet-4-6",
      model: "claude-sonnet-4-6",
      stop_sequences: undefined,
      stream: false,
      max_tokens: 100,
      tools: undefined,
      tool_choice: undefined,
      thinking: undefined,
      context_management: undefined,
      container: undefined,
      betas: [],
      output_config: undefined,
      inference_geo: undefined,
      mcp_servers: undefined,
      cache_control: undefined,
      temperature: 0.1,
    };
    expect(chat.identifyingParams()).toStrictEqual(expected);
    expect(chat._identifyingParams()).toStrictEqual(expected);
    expect(Object.keys(chat.identifyingParams())[0]).toBe("model_name");
  });
});

describe("ChatAnthropic as @langchain/anthropic 1.5.11 has it", () => {
  it("sends LangChain.js's v0 data blocks with their mime_type, plain-text files and file ids", async () => {
    server.reply({ kind: "json", body: message([{ type: "text", text: "ok" }]) });
    await model().invoke([
      new HumanMessage({
        content: [
          { type: "image", source_type: "base64", mime_type: "image/png", data: "AAAA" },
          { type: "file", source_type: "text", text: "hello", mime_type: "text/plain" },
          { type: "file", source_type: "id", id: "file_1" },
          { type: "file", source_type: "url", url: "https://x/a.pdf", mime_type: "application/pdf" },
        ],
      }),
    ]);
    expect((server.requests[0]?.body as { messages?: unknown[] } | undefined)?.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
          { type: "document", source: { type: "text", data: "hello", media_type: "text/plain" } },
          { type: "document", source: { type: "file", file_id: "file_1" } },
          { type: "document", source: { type: "url", url: "https://x/a.pdf" } },
        ],
      },
    ]);
  });

  it("fails structured output with the words of @langchain/anthropic's parsers", async () => {
    server.reply({ kind: "json", body: message([{ type: "text", text: "no tool" }]) });
    server.reply({ kind: "json", body: message([{ type: "text", text: "nope" }]) });
    const Person = z.object({ name: z.string() });
    await expect(model().withStructuredOutput(Person).invoke("?")).rejects.toThrow(
      /^No parseable tool calls provided to AnthropicToolsOutputParser\./,
    );
    await expect(model().withStructuredOutput(Person, { method: "jsonSchema" }).invoke("?")).rejects.toThrow(
      /^Failed to parse\. Text: "nope"\. Error: SyntaxError: /,
    );
  });

  it("warns as @langchain/anthropic does about jsonMode and about structured output with thinking", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const Person = z.object({ name: z.string() });
      model().withStructuredOutput(Person, { method: "jsonMode" });
      expect(warn).toHaveBeenLastCalledWith(
        '"jsonMode" is not supported for Anthropic models. Falling back to "jsonSchema".',
      );
      model({ thinking: { type: "enabled", budget_tokens: 1024 }, maxTokens: 4000 }).withStructuredOutput(
        Person,
      );
      expect(warn).toHaveBeenLastCalledWith(
        expect.stringMatching(/^Anthropic structured output relies on forced tool calling/),
      );
      warn.mockClear();
      model().withStructuredOutput(Person);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it("refuses a structured-output method it does not know with @langchain/anthropic's message", () => {
    expect(() =>
      model().withStructuredOutput(z.object({ a: z.string() }), {
        method: "invalid" as unknown as "jsonSchema",
      }),
    ).toThrow("Unrecognized structured output method 'invalid'. Expected 'functionCalling' or 'jsonSchema'");
  });

  it("checks the settings of models that only think adaptively, and sends them no sampling settings", async () => {
    const refused = (fields: ChatAnthropicFields) => {
      try {
        model(fields).invocationParams({});
        return "accepted";
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refused({ model: "claude-opus-4-7", temperature: 0.5 })).toBe(
      "temperature is not supported for claude-opus-4-7 when set to non-default values",
    );
    expect(refused({ model: "claude-sonnet-5", topK: 5 })).toBe(
      "topK is not supported for claude-sonnet-5; omit topK/topP/temperature or use model prompting instead",
    );
    expect(refused({ model: "claude-opus-4-7", thinking: { type: "enabled", budget_tokens: 1024 } })).toBe(
      'thinking.type="enabled" is not supported for claude-opus-4-7; use thinking.type="adaptive" instead',
    );
    expect(refused({ model: "claude-fable-5", thinking: { type: "disabled" } })).toBe(
      'thinking.type="disabled" is not supported for claude-fable-5; omit thinking to use adaptive thinking instead',
    );
    expect(refused({ model: "claude-opus-4-7", temperature: 1 })).toBe("accepted");
    server.reply({ kind: "json", body: message([{ type: "text", text: "ok" }]) });
    await model({
      model: "claude-opus-4-7",
      temperature: 1,
      outputConfig: { task_budget: { tokens: 1000 } },
    }).invoke("?");
    const request = server.requests[0];
    expect(request?.body).not.toHaveProperty("temperature");
    expect(request?.headers["anthropic-beta"]).toBe("task-budgets-2026-03-13");
  });

  it("reads its server from anthropicApiUrl first, then clientOptions.baseURL, ANTHROPIC_API_URL, ANTHROPIC_BASE_URL", async () => {
    server.reply({ kind: "json", body: message([{ type: "text", text: "ok" }]) });
    server.reply({ kind: "json", body: message([{ type: "text", text: "ok" }]) });
    await model({ anthropicApiUrl: server.url, clientOptions: { baseURL: "http://127.0.0.1:9" } }).invoke(
      "?",
    );
    vi.stubEnv("ANTHROPIC_API_URL", server.url);
    vi.stubEnv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9");
    await new ChatAnthropic({ apiKey: "sk-ant-test" }).invoke("?");
    expect(server.requests).toHaveLength(2);
  });

  it("reads back its key, URL, client options and retries as @langchain/anthropic 1.5.11 does", () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-env");
    vi.stubEnv("ANTHROPIC_API_URL", "");
    vi.stubEnv("ANTHROPIC_BASE_URL", "");
    try {
      const plain = new ChatAnthropic({ model: "claude-3-5-haiku-latest", maxRetries: 5 });
      expect([plain.apiKey, plain.anthropicApiKey, plain.apiUrl]).toEqual(["sk-env", "sk-env", undefined]);
      expect(plain.clientOptions).toEqual({});
      // no maxRetries field there: the retries live in its caller
      expect((plain as { maxRetries?: unknown }).maxRetries).toBeUndefined();
      const given = new ChatAnthropic({
        model: "claude-sonnet-4-5",
        anthropicApiKey: "sk-y",
        anthropicApiUrl: "http://x",
        clientOptions: { defaultHeaders: { a: "b" } },
      });
      expect([given.apiKey, given.anthropicApiKey, given.apiUrl]).toEqual(["sk-y", "sk-y", "http://x"]);
      expect(given.clientOptions).toEqual({ defaultHeaders: { a: "b" } });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("takes the model name first", () => {
    const named = new ChatAnthropic("claude-3-haiku-20240307", { temperature: 0.3, apiKey: "sk-ant-test" });
    expect(named.model).toBe("claude-3-haiku-20240307");
    expect(named.temperature).toBe(0.3);
  });

  it("checks tool_choice and adds the compaction beta in invocationParams too", () => {
    expect(() => model().invocationParams({ tools: [getWeather], tool_choice: "zzz" })).toThrow(
      'Anthropic tool_choice references "zzz", but that tool is not available.',
    );
    expect(() => model().invocationParams({ tool_choice: "any" })).toThrow(
      "Anthropic tool_choice requires at least one available tool.",
    );
    const compacting = model({ contextManagement: { edits: [{ type: "compact_20260112" }] } });
    expect(compacting.invocationParams({}).betas).toEqual(["compact-2026-01-12"]);
  });

  it("reports an empty tool list and the betas its server tools need in invocationParams", () => {
    expect(model().invocationParams({ tools: [] }).tools).toEqual([]);
    expect(model().invocationParams({}).tools).toBeUndefined();
    const search = { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" };
    expect(model().invocationParams({ tools: [getWeather, search] }).betas).toEqual([
      "advanced-tool-use-2025-11-20",
    ]);
    expect(model().invocationParams({ tools: [getWeather] }).betas).toEqual([]);
  });

  it("formats tools for the Messages API with formatStructuredToolToAnthropic", () => {
    const deferred = tool(async () => "r", {
      name: "deferred",
      description: "Deferred.",
      schema: z.object({ q: z.string() }),
      extras: { defer_loading: true, cache_control: { type: "ephemeral" } },
    });
    const chat = model();
    expect(chat.formatStructuredToolToAnthropic(undefined)).toBeUndefined();
    expect(chat.formatStructuredToolToAnthropic([])).toEqual([]);
    expect(chat.formatStructuredToolToAnthropic([deferred], { strict: true })).toEqual([
      {
        name: "deferred",
        description: "Deferred.",
        input_schema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
        defer_loading: true,
        cache_control: { type: "ephemeral" },
        strict: true,
      },
    ]);
  });

  it("keeps a gateway's numeric cost from message_delta in the streamed response_metadata.usage", async () => {
    const events = (usage: Record<string, unknown>) =>
      anthropicEvents([
        {
          type: "message_start",
          message: { ...message([]), stop_reason: null, usage: { input_tokens: 100, output_tokens: 0 } },
        },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } },
        { type: "content_block_stop", index: 0 },
        { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage },
        { type: "message_stop" },
      ]);
    server.reply({ kind: "sse", events: events({ output_tokens: 42, cost: 0.0123 }) });
    server.reply({ kind: "sse", events: events({ output_tokens: 42, cost: "0.0123" }) });
    server.reply({ kind: "sse", events: events({ output_tokens: 42, cost: 0.5 }) });
    const priced = await collect(await model().stream("?"));
    expect(priced.at(-1)?.response_metadata).toEqual({ usage: { cost: 0.0123 } });
    expect(priced.reduce((a, b) => a.concat(b)).response_metadata.usage).toEqual({ cost: 0.0123 });
    const text = await collect(await model().stream("?"));
    expect(text.at(-1)?.response_metadata).toEqual({});
    const quiet = await collect(await model({ streamUsage: false }).stream("?"));
    expect(quiet.at(-1)?.response_metadata).toEqual({ usage: { cost: 0.5 } });
    expect(quiet.at(-1)?.usage_metadata).toBeUndefined();
  });

  it("keeps the context management edits of message_delta in the last chunk's response_metadata", async () => {
    const applied = { applied_edits: [{ type: "clear_tool_uses_20250919", cleared_tool_uses: 2 }] };
    server.reply({
      kind: "sse",
      events: anthropicEvents([
        { type: "message_start", message: { ...message([]), stop_reason: null } },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } },
        { type: "content_block_stop", index: 0 },
        {
          type: "message_delta",
          delta: { stop_reason: "end_turn", stop_sequence: null, context_management: applied },
          usage: { output_tokens: 3 },
        },
        { type: "message_stop" },
      ]),
    });
    const chunks = await collect(await model().stream("?"));
    expect(chunks.at(-1)?.response_metadata).toEqual({ context_management: applied });
    expect(chunks.at(-1)?.additional_kwargs.context_management).toEqual(applied);
  });

  it("reports the structured-output format to callbacks as ls_structured_output_format", async () => {
    server.reply({
      kind: "json",
      body: message([{ type: "tool_use", id: "t1", name: "loc", input: { location: "Oslo" } }]),
    });
    server.reply({ kind: "json", body: message([{ type: "text", text: '{"location":"Oslo"}' }]) });
    const Location = z.object({ location: z.string() });
    const seen: unknown[] = [];
    const callbacks = [
      {
        handleChatModelStart: (...args: unknown[]) => {
          seen.push((args[4] as { options: Record<string, unknown> }).options.ls_structured_output_format);
        },
      },
    ];
    await model().withStructuredOutput(Location, { name: "loc" }).invoke("?", { callbacks });
    await model().withStructuredOutput(Location, { method: "jsonSchema" }).invoke("?", { callbacks });
    const schema = { type: "object", properties: { location: { type: "string" } }, required: ["location"] };
    expect(seen).toEqual([
      { kwargs: { method: "functionCalling" }, schema },
      { kwargs: { method: "json_schema" }, schema: { ...schema, additionalProperties: false } },
    ]);
    expect(JSON.stringify(server.requests.map((r) => r.body))).not.toContain("ls_structured_output_format");
  });
});

describe("ChatAnthropic call checks (as @langchain/anthropic makes them)", () => {
  it("refuses a tool_choice no bound tool satisfies, before any request", async () => {
    const lookup = { name: "a", description: "d", input_schema: { type: "object", properties: {} } };
    await expect(model().bindTools([lookup], { tool_choice: "missing" }).invoke("x")).rejects.toThrow(
      'Anthropic tool_choice references "missing", but that tool is not available.',
    );
    await expect(model().bindTools([], { tool_choice: "any" }).invoke("x")).rejects.toThrow(
      "Anthropic tool_choice requires at least one available tool.",
    );
    expect(server.requests).toHaveLength(0);
  });

  it("refuses stop sequences given both to the model and to the call", async () => {
    await expect(model({ stopSequences: ["S"] }).invoke("x", { stop: ["T"] })).rejects.toThrow(
      '"stopSequence" parameter found in input and default params',
    );
    // invoke of a streaming model too, as @langchain/anthropic's _generate refuses them
    await expect(
      model({ stopSequences: ["S"], streaming: true }).invoke("x", { stop: ["T"] }),
    ).rejects.toThrow('"stopSequence" parameter found in input and default params');
    expect(server.requests).toHaveLength(0);
    // stream() is not checked: the call's stop sequences are sent
    server.reply({ kind: "sse", events: anthropicEvents([{ type: "message_stop" }]) });
    await collect(await model({ stopSequences: ["S"] }).stream("x", { stop: ["T"] }));
    expect(server.requests[0]?.body).toMatchObject({ stop_sequences: ["T"] });
  });

  it("sends no sampling settings with thinking and refuses those the API refuses", async () => {
    const thinking = { type: "enabled" as const, budget_tokens: 1024 };
    await expect(model({ thinking, topK: 3 }).invoke("x")).rejects.toThrow(
      "topK is not supported when thinking is enabled",
    );
    await expect(model({ thinking, topP: 0.5 }).invoke("x")).rejects.toThrow(
      "topP is not supported when thinking is enabled",
    );
    await expect(model({ thinking, temperature: 0.5 }).invoke("x")).rejects.toThrow(
      "temperature is not supported when thinking is enabled",
    );
    expect(server.requests).toHaveLength(0);
    server.reply({ kind: "json", body: message([{ type: "text", text: "ok" }]) });
    await model({ thinking, temperature: 1, maxTokens: 100 }).invoke("x");
    expect(server.requests[0]?.body).toEqual({
      model: "claude-sonnet-4-6",
      stream: false,
      max_tokens: 100,
      thinking,
      messages: [{ role: "user", content: "x" }],
    });
  });
});

describe("ChatAnthropic streaming", () => {
  const start = {
    type: "message_start",
    message: {
      id: "msg_stream",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-6-20260101",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 40, output_tokens: 1 },
    },
  };

  it("turns the event stream into chunks with text and input_json_delta tool calls", async () => {
    server.reply({
      kind: "sse",
      events: anthropicEvents([
        start,
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "ping" },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Checking" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: " now." } },
        { type: "content_block_stop", index: 0 },
        {
          type: "content_block_start",
          index: 1,
          content_block: { type: "tool_use", id: "toolu_s", name: "get_weather", input: {} },
        },
        {
          type: "content_block_delta",
          index: 1,
          delta: { type: "input_json_delta", partial_json: '{"city": ' },
        },
        {
          type: "content_block_delta",
          index: 1,
          delta: { type: "input_json_delta", partial_json: '"Oslo"}' },
        },
        { type: "content_block_stop", index: 1 },
        {
          type: "message_delta",
          delta: { stop_reason: "tool_use", stop_sequence: null },
          usage: { output_tokens: 30 },
        },
        { type: "message_stop" },
      ]),
    });
    const chunks = await collect(await model().bindTools([getWeather]).stream("Oslo?"));
    expect(server.requests[0]?.body).toMatchObject({ stream: true });
    // only the first (message_start) chunk has the answer's id, as in @langchain/anthropic
    // (no callbacks hear this call, so the others have none); the joined answer has it
    expect(chunks.map((c) => c.id)).toEqual(["msg_stream", ...chunks.slice(1).map(() => undefined)]);
    expect(chunks.length).toBeGreaterThan(2);
    const whole = join(chunks);
    expect(whole.id).toBe("msg_stream");
    // with tools bound the content keeps the blocks, as @langchain/anthropic streams them
    expect(whole.content).toEqual([
      { index: 0, type: "text", text: "Checking now." },
      { index: 1, type: "tool_use", id: "toolu_s", name: "get_weather", input: "" },
      { index: 1, input: '{"city": "Oslo"}', type: "input_json_delta" },
    ]);
    expect(whole.text).toBe("Checking now.");
    expect(whole.tool_calls).toEqual([
      { name: "get_weather", args: { city: "Oslo" }, id: "toolu_s", type: "tool_call" },
    ]);
    expect(whole.usage_metadata).toMatchObject({ input_tokens: 40, output_tokens: 30, total_tokens: 70 });
    // the metadata @langchain/anthropic's chunks join to
    expect(whole.response_metadata).toEqual({ model_provider: "anthropic", usage: {} });
    expect(whole.additional_kwargs).toEqual({
      id: "msg_stream",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-6-20260101",
      stop_reason: "tool_use",
      stop_sequence: null,
    });
  });

  it("streams thinking deltas and the signature into thinking blocks", async () => {
    server.reply({
      kind: "sse",
      events: anthropicEvents([
        start,
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "thinking", thinking: "", signature: "" },
        },
        { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Two plus " } },
        { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "two." } },
        { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQBsig" } },
        { type: "content_block_stop", index: 0 },
        { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "4" } },
        { type: "content_block_stop", index: 1 },
        {
          type: "message_delta",
          delta: { stop_reason: "end_turn", stop_sequence: null },
          usage: { output_tokens: 9 },
        },
        { type: "message_stop" },
      ]),
    });
    const whole = join(await collect(await model().stream("2+2?")));
    expect(whole.content).toEqual([
      { type: "thinking", thinking: "Two plus two.", index: 0, signature: "EqQBsig" },
      { type: "text", text: "4", index: 1 },
    ]);
    expect(whole.text).toBe("4");
  });

  it("streams chunks as @langchain/anthropic does, counting output tokens once", async () => {
    server.reply({
      kind: "sse",
      events: anthropicEvents([
        {
          ...start,
          message: {
            ...start.message,
            usage: {
              input_tokens: 40,
              output_tokens: 1,
              cache_creation_input_tokens: 2,
              cache_read_input_tokens: 3,
            },
          },
        },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } },
        { type: "content_block_stop", index: 0 },
        {
          type: "message_delta",
          delta: { stop_reason: "end_turn", stop_sequence: null },
          usage: { output_tokens: 6 },
        },
        { type: "message_stop" },
      ]),
    });
    const chunks = await collect(await model().stream("Hi"));
    const shape = chunks.map((c) => ({
      content: c.content,
      additional_kwargs: c.additional_kwargs,
      response_metadata: c.response_metadata,
      usage_metadata: c.usage_metadata,
    }));
    expect(shape).toEqual([
      {
        content: "",
        additional_kwargs: {
          id: "msg_stream",
          type: "message",
          role: "assistant",
          model: "claude-sonnet-4-6-20260101",
        },
        response_metadata: {
          model_provider: "anthropic",
          usage: { cache_creation_input_tokens: 2, cache_read_input_tokens: 3 },
        },
        usage_metadata: {
          input_tokens: 45,
          output_tokens: 1,
          total_tokens: 46,
          input_token_details: { cache_creation: 2, cache_read: 3 },
        },
      },
      {
        content: "",
        additional_kwargs: {},
        response_metadata: { model_provider: "anthropic" },
        usage_metadata: undefined,
      },
      { content: "Hi", additional_kwargs: {}, response_metadata: {}, usage_metadata: undefined },
      {
        content: "",
        additional_kwargs: { stop_reason: "end_turn", stop_sequence: null },
        response_metadata: {},
        // @langchain/anthropic reports 6 here, and so 7 in all
        usage_metadata: { input_tokens: 0, output_tokens: 5, total_tokens: 5 },
      },
    ]);
    expect(join(chunks).usage_metadata).toMatchObject({
      input_tokens: 45,
      output_tokens: 6,
      total_tokens: 51,
    });
    server.reply({ kind: "sse", events: anthropicEvents([start, { type: "message_stop" }]) });
    const quiet = await collect(await model({ streamUsage: false }).stream("Hi"));
    expect(quiet).toHaveLength(2);
    expect(quiet.every((c) => c.usage_metadata === undefined)).toBe(true);
  });

  it("streams tool call chunks as @langchain/anthropic does: no type, an empty fragment too", async () => {
    server.reply({
      kind: "sse",
      events: anthropicEvents([
        start,
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "tool_use", id: "toolu_s", name: "get_weather", input: {} },
        },
        { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "" } },
        {
          type: "content_block_delta",
          index: 0,
          delta: { type: "input_json_delta", partial_json: '{"city":"Oslo"}' },
        },
        { type: "content_block_stop", index: 0 },
        {
          type: "message_delta",
          delta: { stop_reason: "tool_use", stop_sequence: null },
          usage: { output_tokens: 5 },
        },
        { type: "message_stop" },
      ]),
    });
    const chunks = await collect(await model().bindTools([getWeather]).stream("Oslo?"));
    expect(chunks.map((c) => c.tool_call_chunks)).toEqual([
      [],
      [{ id: "toolu_s", index: 0, name: "get_weather", args: "" }],
      [{ index: 0, args: "" }],
      [{ index: 0, args: '{"city":"Oslo"}' }],
      [],
    ]);
    expect(join(chunks).tool_calls).toEqual([
      { name: "get_weather", args: { city: "Oslo" }, id: "toolu_s", type: "tool_call" },
    ]);
  });

  it("keeps server tool blocks in the streamed content, as @langchain/anthropic does", async () => {
    const result = {
      type: "web_search_tool_result",
      tool_use_id: "srvtoolu_1",
      content: [{ type: "web_search_result", url: "https://x.test", title: "X", encrypted_content: "e" }],
    };
    server.reply({
      kind: "sse",
      events: anthropicEvents([
        start,
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Checking" } },
        { type: "content_block_stop", index: 0 },
        {
          type: "content_block_start",
          index: 1,
          content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
        },
        {
          type: "content_block_delta",
          index: 1,
          delta: { type: "input_json_delta", partial_json: '{"query":"oslo"}' },
        },
        { type: "content_block_stop", index: 1 },
        { type: "content_block_start", index: 2, content_block: result },
        { type: "content_block_stop", index: 2 },
        {
          type: "message_delta",
          delta: { stop_reason: "end_turn", stop_sequence: null },
          usage: { output_tokens: 5 },
        },
        { type: "message_stop" },
      ]),
    });
    const webSearch = { type: "web_search_20250305", name: "web_search" };
    const chunks = await collect(await model().bindTools([webSearch]).stream("Oslo?"));
    expect(chunks.map((c) => c.content)).toEqual([
      [],
      [{ index: 0, type: "text", text: "" }],
      [{ index: 0, type: "text", text: "Checking" }],
      [{ index: 1, type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: "" }],
      [{ index: 1, input: '{"query":"oslo"}', type: "input_json_delta" }],
      [{ index: 2, ...result }],
      [],
    ]);
    // every content chunk has the provider in its metadata
    expect(chunks.slice(1, -1).map((c) => c.response_metadata)).toEqual(
      Array(5).fill({ model_provider: "anthropic" }),
    );
    // the server tool's input is a tool call chunk without a name, as in @langchain/anthropic
    expect(chunks[4]?.tool_call_chunks).toEqual([{ index: 1, args: '{"query":"oslo"}' }]);
    const whole = join(chunks);
    expect(whole.content).toEqual([
      { index: 0, type: "text", text: "Checking" },
      { index: 1, type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: "" },
      { index: 1, input: '{"query":"oslo"}', type: "input_json_delta" },
      { index: 2, ...result },
    ]);
    expect(whole.additional_kwargs).toMatchObject({ stop_reason: "end_turn", stop_sequence: null });
  });

  it("streams thinking, redacted thinking and citations as @langchain/anthropic does with thinking on", async () => {
    const citation = {
      type: "char_location",
      cited_text: "c",
      document_index: 0,
      start_char_index: 0,
      end_char_index: 1,
    };
    server.reply({
      kind: "sse",
      events: anthropicEvents([
        start,
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "thinking", thinking: "", signature: "" },
        },
        { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Two." } },
        { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQ" } },
        { type: "content_block_stop", index: 0 },
        { type: "content_block_start", index: 1, content_block: { type: "redacted_thinking", data: "xyz" } },
        { type: "content_block_stop", index: 1 },
        { type: "content_block_start", index: 2, content_block: { type: "text", text: "", citations: [] } },
        { type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "4" } },
        { type: "content_block_delta", index: 2, delta: { type: "citations_delta", citation } },
        { type: "content_block_stop", index: 2 },
        {
          type: "message_delta",
          delta: { stop_reason: "end_turn", stop_sequence: null, container: null },
          usage: { output_tokens: 9 },
        },
        { type: "message_stop" },
      ]),
    });
    const thinking = { type: "enabled" as const, budget_tokens: 1024 };
    const chunks = await collect(await model({ thinking }).stream("2+2?"));
    expect(chunks.map((c) => c.content)).toEqual([
      [],
      [{ index: 0, type: "thinking", thinking: "", signature: "" }],
      [{ index: 0, type: "thinking", thinking: "Two." }],
      [{ index: 0, type: "thinking", signature: "EqQ" }],
      [{ index: 1, type: "redacted_thinking", data: "xyz" }],
      [{ index: 2, type: "text", text: "", citations: [] }],
      [{ index: 2, type: "text", text: "4" }],
      [{ index: 2, type: "text", citations: [citation] }],
      [],
    ]);
    const whole = join(chunks);
    expect(whole.content).toEqual([
      { index: 0, type: "thinking", thinking: "Two.", signature: "EqQ" },
      { index: 1, type: "redacted_thinking", data: "xyz" },
      { index: 2, type: "text", text: "4", citations: [citation] },
    ]);
    // the last chunk's additional_kwargs is message_delta's delta, as given
    expect(chunks.at(-1)?.additional_kwargs).toEqual({
      stop_reason: "end_turn",
      stop_sequence: null,
      container: null,
    });
  });

  it("keeps malformed streamed tool input as an invalid tool call", async () => {
    server.reply({
      kind: "sse",
      events: anthropicEvents([
        start,
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "tool_use", id: "toolu_b", name: "get_weather", input: {} },
        },
        {
          type: "content_block_delta",
          index: 0,
          delta: { type: "input_json_delta", partial_json: '{"city": Oslo' },
        },
        { type: "content_block_stop", index: 0 },
        {
          type: "message_delta",
          delta: { stop_reason: "tool_use", stop_sequence: null },
          usage: { output_tokens: 3 },
        },
        { type: "message_stop" },
      ]),
    });
    const reply = await model({ streaming: true }).invoke("?");
    expect(reply.tool_calls).toEqual([]);
    expect(reply.invalid_tool_calls).toMatchObject([
      { name: "get_weather", id: "toolu_b", args: '{"city": Oslo' },
    ]);
  });

  it("fails with a ModelCallError when the stream sends an error event", async () => {
    server.reply({
      kind: "sse",
      events: anthropicEvents([
        start,
        { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      ]),
    });
    // The error is the first thing the stream yields, so `stream()` itself rejects.
    const error = await (async () => collect(await model().stream("hi")))().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as Error).message).toBe("Anthropic reported an error while streaming: Overloaded.");
  });
});

describe("ChatAnthropic errors", () => {
  it("gives a 400 @langchain/anthropic's error code: CONTEXT_OVERFLOW, INVALID_TOOL_RESULTS", async () => {
    const error = (message: string) => ({
      kind: "json" as const,
      status: 400,
      body: { type: "error", error: { type: "invalid_request_error", message } },
    });
    server.reply(
      error("prompt is too long: 300000 tokens > 200000 maximum"),
      error("tool_use ids must be unique"),
      error("messages: at least one message is required"),
    );
    const codes = [];
    for (let i = 0; i < 3; i++) {
      codes.push(
        await model()
          .invoke("x")
          .catch((e: ModelCallError) => e.lc_error_code),
      );
    }
    expect(codes).toEqual(["CONTEXT_OVERFLOW", "INVALID_TOOL_RESULTS", "MODEL_CALL_FAILED"]);
  });

  it("does not retry a 401 and names ANTHROPIC_API_KEY", async () => {
    server.reply({
      kind: "json",
      status: 401,
      body: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
    });
    const error = await model({ maxRetries: 3 })
      .invoke("hi")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelAuthenticationError);
    expect((error as Error).message).toBe(
      "Anthropic request failed with status 401: invalid x-api-key. The API key was rejected: check the `apiKey` " +
        "option or the ANTHROPIC_API_KEY environment variable.",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("does not retry a non-streamed request answered with an SSE stream: a TypeError, as @langchain/anthropic's", async () => {
    const events = anthropicEvents([
      { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [] } },
      { type: "message_stop" },
    ]);
    server.reply({ kind: "sse", events }, { kind: "sse", events });
    const error = await model({ maxRetries: 2 })
      .invoke("hi")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    // @langchain/anthropic 1.5.11 says "Cannot read properties of undefined (reading 'length')"
    expect((error as Error).message).toBe(
      "The provider's answer to a non-streamed call has no `content` list: it sent text, not JSON (an event stream). Check that the base URL points at the Anthropic Messages API and that the server honours `stream: false` (or set `streaming: true` to stream).",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("retries 529 overloaded, then succeeds", async () => {
    server.reply(
      {
        kind: "json",
        status: 529,
        headers: { "retry-after-ms": "5" },
        body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      },
      { kind: "json", body: message([{ type: "text", text: "back" }]) },
    );
    const reply = await model().invoke("hi");
    expect(reply.content).toBe("back");
    expect(server.requests).toHaveLength(2);
  });

  it("retries a 429 after the retry-after the server asks for, then succeeds", async () => {
    server.reply(
      {
        kind: "json",
        status: 429,
        headers: { "retry-after": "0.15" },
        body: { type: "error", error: { type: "rate_limit_error", message: "Rate limited" } },
      },
      { kind: "json", body: message([{ type: "text", text: "later" }]) },
    );
    const started = Date.now();
    const reply = await model().invoke("hi");
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(reply.content).toBe("later");
    expect(server.requests).toHaveLength(2);
  });

  it("gives up on repeated 429s with a ModelRateLimitError", async () => {
    const limited = {
      kind: "json" as const,
      status: 429,
      headers: { "retry-after-ms": "5" },
      body: { type: "error", error: { type: "rate_limit_error", message: "Rate limited" } },
    };
    server.reply(limited, limited);
    const error = await model({ maxRetries: 1 })
      .invoke("hi")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelRateLimitError);
    expect((error as ModelRateLimitError).attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it("retries a 500 maxRetries times, then fails with a typed error", async () => {
    const failing = {
      kind: "json" as const,
      status: 500,
      headers: { "retry-after-ms": "5" },
      body: { type: "error", error: { type: "api_error", message: "Internal server error" } },
    };
    server.reply(failing, failing, failing);
    const error = await model({ maxRetries: 2 })
      .invoke("hi")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    const e = error as ModelCallError;
    expect([e.status, e.attempts, e.isRetryable, e.provider]).toEqual([500, 3, true, "anthropic"]);
    expect(e.message).toMatch(/^Anthropic request failed with status 500: Internal server error\./);
    expect(server.requests).toHaveLength(3);
  });

  it("aborting mid-stream rejects with AbortError and closes the connection", async () => {
    server.reply({
      kind: "sse",
      events: anthropicEvents([
        {
          type: "message_start",
          message: {
            id: "msg_abort",
            type: "message",
            role: "assistant",
            model: "claude-sonnet-4-6-20260101",
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 4, output_tokens: 1 },
          },
        },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "lo" } },
      ]),
      hang: true,
    });
    const controller = new AbortController();
    const stream = await model({ maxRetries: 3 }).stream("Say hello", { signal: controller.signal });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const c of stream) {
          if (c.text !== "") seen.push(c.text);
          if (seen.length === 2) controller.abort();
        }
      })(),
    ).rejects.toBeInstanceOf(AbortError);
    expect(seen).toEqual(["Hel", "lo"]);
    await server.waitForDisconnects(1);
    expect(server.requests).toHaveLength(1);
  });

  it("needs an API key when it is made, as in LangChain.js", () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    expect(() => new ChatAnthropic({ model: "claude-sonnet-4-6" })).toThrow(MissingApiKeyError);
    expect(() => new ChatAnthropic({ model: "claude-sonnet-4-6" })).toThrow("Anthropic API key not found");
    expect(() => new ChatAnthropic({ model: "claude-sonnet-4-6" })).toThrow("ANTHROPIC_API_KEY");
  });
});
