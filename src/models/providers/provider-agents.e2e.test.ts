/**
 * `createAgent` driven by the provider clients over HTTP (a local fake provider server): what
 * the agent makes each client send, checked against what LangChain.js (langchain 1.5.14 with
 * @langchain/openai 1.6.0 and @langchain/anthropic 1.5.11) sends for the same program.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
// the root entry's Node set-up lets model calls in nodes reach the `messages` stream
import "../../index.js";
import {
  createAgent,
  llmToolSelectorMiddleware,
  modelRetryMiddleware,
  providerStrategy,
} from "../../agents/index.js";
import { tool } from "../../tools/index.js";
import { FixtureServer } from "../__tests__/fixture-server.js";
import { ChatAnthropic, ChatOpenAI } from "../index.js";

let server: FixtureServer;
beforeEach(async () => {
  server = await FixtureServer.start();
});
afterEach(async () => {
  await server.close();
});

const getWeather = tool(async ({ city }) => `Sunny in ${city}`, {
  name: "get_weather",
  description: "Get weather for a city.",
  schema: z.object({ city: z.string() }),
});
const Sum = z.object({ total: z.number() }).meta({ title: "Sum", description: "A sum" });

const openAI = () =>
  new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test", configuration: { baseURL: `${server.url}/v1` } });
const anthropic = () =>
  new ChatAnthropic({
    model: "claude-sonnet-4-6",
    apiKey: "test",
    clientOptions: { baseURL: server.url },
    maxTokens: 100,
  });

const openAIAnswer = (content: string) => ({
  kind: "json" as const,
  body: {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "gpt-4o-mini",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
  },
});
const anthropicAnswer = (text: string) => ({
  kind: "json" as const,
  body: {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-6",
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 5, output_tokens: 3 },
  },
});
const body = (i: number) => server.requests[i]?.body as Record<string, unknown>;
const openAIStream = (content: string) => ({
  kind: "sse" as const,
  events: [
    {
      data: {
        id: "chatcmpl-2",
        object: "chat.completion.chunk",
        created: 1,
        model: "gpt-4o-mini",
        choices: [{ index: 0, delta: { role: "assistant", content }, finish_reason: "stop" }],
      },
    },
    { data: "[DONE]" },
  ],
});
const add = tool(async ({ a, b }) => String(a + b), {
  name: "add",
  description: "Add two numbers.",
  schema: z.object({ a: z.number(), b: z.number() }),
});

describe("createAgent with providerStrategy and tools", () => {
  it("ChatOpenAI sends the tools strict beside the json_schema response_format", async () => {
    server.reply(openAIAnswer('{"total":3}'));
    const agent = createAgent({
      model: openAI(),
      tools: [getWeather],
      responseFormat: providerStrategy(Sum),
    });
    const result = await agent.invoke({ messages: [{ role: "user", content: "hi" }] });
    expect(result.structuredResponse).toEqual({ total: 3 });
    // @langchain/openai 1.6.0: a non-streamed call with a json_schema response_format makes its
    // tools strict
    expect(body(0).tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Get weather for a city.",
          parameters: {
            type: "object",
            properties: { city: { type: "string" } },
            required: ["city"],
            additionalProperties: false,
          },
          strict: true,
        },
      },
    ]);
  });

  it("ChatOpenAI leaves the tools as bound when the call is streamed", async () => {
    server.reply({
      kind: "sse",
      events: [
        {
          data: {
            id: "chatcmpl-1",
            object: "chat.completion.chunk",
            created: 1,
            model: "gpt-4o-mini",
            choices: [
              { index: 0, delta: { role: "assistant", content: '{"total":3}' }, finish_reason: "stop" },
            ],
          },
        },
        { data: "[DONE]" },
      ],
    });
    const agent = createAgent({
      model: openAI(),
      tools: [getWeather],
      responseFormat: providerStrategy(Sum),
    });
    for await (const _ of await agent.stream(
      { messages: [{ role: "user", content: "hi" }] },
      { streamMode: "messages" },
    )) {
      // drain
    }
    expect(body(0).stream).toBe(true);
    expect(body(0).tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Get weather for a city.",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      },
    ]);
  });

  it("ChatAnthropic sends the strategy's schema in output_config as given", async () => {
    server.reply(anthropicAnswer('{"total":3}'));
    const agent = createAgent({
      model: anthropic(),
      tools: [getWeather],
      responseFormat: providerStrategy(Sum),
    });
    const result = await agent.invoke({ messages: [{ role: "user", content: "hi" }] });
    expect(result.structuredResponse).toEqual({ total: 3 });
    // @langchain/anthropic reads no response_format: the agent's outputConfig is sent as it is
    // (its $schema is not moved into the description)
    expect(body(0).output_config).toEqual({
      format: {
        type: "json_schema",
        schema: {
          $schema: "https://json-schema.org/draft/2020-12/schema",
          type: "object",
          properties: { total: { type: "number" } },
          required: ["total"],
          additionalProperties: false,
          title: "Sum",
          description: "A sum",
        },
      },
    });
  });
});

describe("llmToolSelectorMiddleware through a provider model", () => {
  const agent = () =>
    createAgent({
      model: openAI(),
      tools: [getWeather, add],
      middleware: [llmToolSelectorMiddleware({ model: openAI(), maxTools: 1 })],
    });

  it("makes the selection call without callbacks: not streamed in a messages stream", async () => {
    server.reply(openAIAnswer('{"tools":["add"]}'), openAIStream("Hi"));
    const chunks: string[] = [];
    for await (const [chunk] of await agent().stream(
      { messages: [{ role: "user", content: "hi" }] },
      { streamMode: "messages" },
    )) {
      chunks.push(chunk.text);
    }
    // LangChain.js sends the selection request unstreamed, then streams the main call
    expect(server.requests.map((r) => (r.body as { stream: boolean }).stream)).toEqual([false, true]);
    expect((body(1).tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toEqual([
      "add",
    ]);
    expect(chunks.join("")).toBe("Hi");
  });

  it("keeps the selection call out of streamEvents", async () => {
    server.reply(openAIAnswer('{"tools":["add"]}'), openAIStream("Hi"));
    const starts: unknown[] = [];
    for await (const event of agent().streamEvents(
      { messages: [{ role: "user", content: "hi" }] },
      { version: "v2" },
    )) {
      if (event.event === "on_chat_model_start")
        starts.push(event.metadata.lc_source ?? event.metadata.langgraph_node);
    }
    expect(starts).toEqual(["model_request"]);
  });
});

describe("modelRetryMiddleware's failure answer with a providerStrategy", () => {
  it("ends the run with that answer (it is not held to the schema)", async () => {
    server.reply({
      kind: "json",
      status: 400,
      body: { error: { message: "bad request", type: "invalid_request_error" } },
    });
    const agent = createAgent({
      model: openAI(),
      tools: [],
      responseFormat: providerStrategy(Sum),
      middleware: [modelRetryMiddleware({ maxRetries: 0 })],
    });
    const result = await agent.invoke({ messages: [{ role: "user", content: "hi" }] });
    // LangChain.js parses the model's own answers only: the middleware's message is the last one
    expect(result.messages.map((m) => [m.type, m.name])).toEqual([
      ["human", undefined],
      ["ai", "model"],
    ]);
    expect(result.messages[1]?.text).toMatch(/^Model call failed after 1 attempt with \w+: 400 bad request/);
    expect(result.structuredResponse).toBeUndefined();
  });

  // agentgraph's own rule (docs/differences.md): the model's answer is parsed after the onion, so
  // its parsing error reaches the caller; LangChain.js's ChatOpenAI fails the call itself (the
  // SDK's SyntaxError), which the middleware turns into its failure message
  it("still fails when the model's own answer does not satisfy the schema", async () => {
    server.reply(openAIAnswer("not json"));
    const agent = createAgent({
      model: openAI(),
      tools: [],
      responseFormat: providerStrategy(Sum),
      middleware: [modelRetryMiddleware({ maxRetries: 0 })],
    });
    await expect(agent.invoke({ messages: [{ role: "user", content: "hi" }] })).rejects.toThrow(
      "Failed to parse structured output for tool 'Sum'",
    );
  });
});
