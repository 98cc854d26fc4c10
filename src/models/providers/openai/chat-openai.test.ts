import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  AIMessage,
  ChatMessage,
  FunctionMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "../../../messages/index.js";
import { tool } from "../../../tools/index.js";
import { FixtureServer } from "../../__tests__/fixture-server.js";
import { ChatOpenAI, type ChatOpenAIFields } from "./chat-openai.js";

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}.json`, import.meta.url), "utf8"));

/** Request bodies with `function.arguments` parsed, so JSON spacing does not matter. */
function normalizeArguments(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body), (key, value: unknown) =>
    key === "arguments" && typeof value === "string" ? JSON.parse(value) : value,
  );
}

const getWeather = tool(async ({ city }) => `It's always sunny in ${city}!`, {
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
});

function model(fields: ChatOpenAIFields = {}): ChatOpenAI {
  return new ChatOpenAI({
    model: "gpt-5.2-chat",
    apiKey: "sk-test",
    configuration: { baseURL: `${server.url}/v1` },
    ...fields,
  });
}

const completion = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: "chatcmpl-test",
  object: "chat.completion",
  created: 1772717196,
  model: "gpt-4.1-mini-2025-04-14",
  choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", ...message } }],
  usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
  ...extra,
});

describe("ChatOpenAI over HTTP: the weather round trip of seed 004", () => {
  it("sends the seed's two requests and turns the seed's responses into messages", async () => {
    server.reply(
      { kind: "json", body: fixture("seed-004-response-1") },
      { kind: "json", body: fixture("seed-004-response-2") },
    );
    const chat = model().bindTools([getWeather]);
    const history = [
      new SystemMessage("You are a helpful assistant"),
      new HumanMessage("What is the weather in Suzhou?"),
    ];

    const first = await chat.invoke(history);
    expect(server.requests[0]?.path).toBe("/v1/chat/completions");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-test");
    expect(server.requests[0]?.body).toEqual(fixture("seed-004-request-1"));
    expect(first).toBeInstanceOf(AIMessage);
    expect(first.id).toBe("chatcmpl-DG30m9xH7c6ujOxbuMIJ2cid9mU30");
    expect(first.content).toBe("");
    expect(first.tool_calls).toEqual([
      {
        name: "get_weather",
        args: { city: "Suzhou" },
        id: "call_cK9LgQ76xAalnjxUH1q945CM",
        type: "tool_call",
      },
    ]);
    // @langchain/openai 1.6.0 gives this metadata for the seed's response (no `system_fingerprint`
    // key when the server sends null, a copy of the raw `usage`, empty token-detail objects).
    expect(first.response_metadata).toEqual({
      tokenUsage: { promptTokens: 61, completionTokens: 18, totalTokens: 79 },
      finish_reason: "tool_calls",
      model_provider: "openai",
      model_name: "gpt-5.2-chat-2025-12-11",
      usage: { completion_tokens: 18, prompt_tokens: 61, total_tokens: 79 },
    });
    expect(first.usage_metadata).toEqual({
      input_tokens: 61,
      output_tokens: 18,
      total_tokens: 79,
      input_token_details: {},
      output_token_details: {},
    });

    const call = first.tool_calls[0];
    if (call === undefined) throw new Error("no tool call");
    const result = await getWeather.invoke(call);
    const second = await chat.invoke([...history, first, result as ToolMessage]);
    expect(normalizeArguments(server.requests[1]?.body)).toEqual(
      normalizeArguments(fixture("seed-004-request-2")),
    );
    expect(second.id).toBe("chatcmpl-DG3XJbOOkM3usPXR56MEVrlRrthMO");
    expect(second.text).toContain("The weather in **Suzhou** is currently **sunny**");
    expect(second.tool_calls).toEqual([]);
    expect(second.response_metadata.finish_reason).toBe("stop");
  });
});

describe("ChatOpenAI identifyingParams", () => {
  it("is model_name, the invocation parameters, then the client options with baseURL last", () => {
    const fetchFn = async () => new Response("{}");
    const chat = new ChatOpenAI({
      model: "gpt-4o-mini",
      apiKey: "sk-id",
      temperature: 0.2,
      configuration: { baseURL: "http://127.0.0.1:9/v1", organization: "org-1", timeout: 5, fetch: fetchFn },
    });
    const params = chat.identifyingParams();
    expect(params).toEqual({
      model_name: "gpt-4o-mini",
      model: "gpt-4o-mini",
      temperature: 0.2,
      stream: false,
      apiKey: "sk-id",
      organization: "org-1",
      dangerouslyAllowBrowser: true,
      baseURL: "http://127.0.0.1:9/v1",
      timeout: 5,
      fetch: fetchFn,
    });
    expect(chat._identifyingParams()).toEqual(params);
    // the client options come in @langchain/openai 1.6.0's order
    expect(Object.keys(params).slice(-6)).toEqual([
      "apiKey",
      "organization",
      "dangerouslyAllowBrowser",
      "baseURL",
      "timeout",
      "fetch",
    ]);
    const bare = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-id" }).identifyingParams();
    expect(Object.keys(bare).slice(-4)).toEqual([
      "apiKey",
      "organization",
      "dangerouslyAllowBrowser",
      "baseURL",
    ]);
  });
});

describe("ChatOpenAI usage of a non-streamed answer", () => {
  it("an answer without `usage` still has usage_metadata, with only the two detail objects", async () => {
    server.reply({ kind: "json", body: completion({ content: "Hi" }, { usage: undefined }) });
    const reply = await model().invoke("Hi");
    // @langchain/openai 1.6.0: no counts, both detail objects with their keys left undefined
    expect(reply.usage_metadata).toStrictEqual({
      input_token_details: { audio: undefined, cache_read: undefined },
      output_token_details: { audio: undefined, reasoning: undefined },
    });
    expect(reply.response_metadata.tokenUsage).toStrictEqual({
      promptTokens: undefined,
      completionTokens: undefined,
      totalTokens: undefined,
    });
  });

  it("counts that are 0 or left out are not written, and a missing total is not computed", async () => {
    server.reply({
      kind: "json",
      body: completion({ content: "Hi" }, { usage: { prompt_tokens: 5, completion_tokens: 0 } }),
    });
    const reply = await model().invoke("Hi");
    expect(JSON.stringify(reply.usage_metadata)).toBe(
      '{"input_tokens":5,"input_token_details":{},"output_token_details":{}}',
    );
    expect(JSON.stringify(reply.response_metadata.tokenUsage)).toBe('{"promptTokens":5}');
  });
});

describe("ChatOpenAI request and response mapping", () => {
  it("sends only what is set, and maps text, usage details and metadata", async () => {
    server.reply({
      kind: "json",
      body: completion(
        { content: "Hello!" },
        {
          system_fingerprint: "fp_1",
          usage: {
            prompt_tokens: 20,
            completion_tokens: 10,
            total_tokens: 30,
            prompt_tokens_details: { cached_tokens: 8 },
            completion_tokens_details: { reasoning_tokens: 4 },
          },
        },
      ),
    });
    const reply = await model({ temperature: 0, maxTokens: 50, model: "gpt-4.1-mini" }).invoke("Hi", {
      stop: ["\n\n"],
    });
    expect(server.requests[0]?.body).toEqual({
      model: "gpt-4.1-mini",
      messages: [{ role: "user", content: "Hi" }],
      stream: false,
      temperature: 0,
      max_tokens: 50,
      stop: ["\n\n"],
    });
    expect(reply.content).toBe("Hello!");
    expect(reply.id).toBe("chatcmpl-test");
    expect(reply.usage_metadata).toEqual({
      input_tokens: 20,
      output_tokens: 10,
      total_tokens: 30,
      input_token_details: { cache_read: 8 },
      output_token_details: { reasoning: 4 },
    });
    expect(reply.response_metadata).toMatchObject({
      finish_reason: "stop",
      model_name: "gpt-4.1-mini-2025-04-14",
      system_fingerprint: "fp_1",
      tokenUsage: { promptTokens: 20, completionTokens: 10, totalTokens: 30 },
    });
  });

  it("reports logprobs, the raw usage and cache writes in the metadata, as @langchain/openai does", async () => {
    const logprobs = {
      content: [{ token: "Hi", logprob: -0.5, bytes: [72, 105], top_logprobs: [] }],
      refusal: null,
    };
    const usage = {
      prompt_tokens: 20,
      completion_tokens: 1,
      total_tokens: 21,
      prompt_tokens_details: { cached_tokens: 8, cache_write_tokens: 4 },
    };
    server.reply({
      kind: "json",
      body: {
        id: "chatcmpl-lp",
        object: "chat.completion",
        created: 1,
        model: "gpt-4.1-mini-2025-04-14",
        system_fingerprint: "fp_9",
        choices: [
          { index: 0, finish_reason: "stop", logprobs, message: { role: "assistant", content: "Hi" } },
        ],
        usage,
      },
    });
    const reply = await model({ model: "gpt-4.1-mini" }).invoke("Hi");
    // Expected values are @langchain/openai 1.6.0's for the same response.
    expect(reply.usage_metadata).toEqual({
      input_tokens: 20,
      output_tokens: 1,
      total_tokens: 21,
      input_token_details: { cache_read: 8, cache_creation: 4 },
      output_token_details: {},
    });
    expect(reply.response_metadata).toEqual({
      tokenUsage: { promptTokens: 20, completionTokens: 1, totalTokens: 21 },
      finish_reason: "stop",
      logprobs,
      model_provider: "openai",
      model_name: "gpt-4.1-mini-2025-04-14",
      usage,
      system_fingerprint: "fp_9",
    });
  });

  it("sends a provider tool descriptor as given, and refuses the Responses API's built-in tools", async () => {
    server.reply({ kind: "json", body: completion({ content: "ok" }) });
    const custom = { type: "custom", custom: { name: "grammar", description: "Free-form input." } };
    await model().bindTools([getWeather, custom]).invoke("Hi");
    const tools = (server.requests[0]?.body as { tools?: { type: string }[] } | undefined)?.tools;
    expect(tools?.map((t) => t.type)).toEqual(["function", "custom"]);
    expect(tools?.[1]).toEqual(custom);
    await expect(
      model()
        .bindTools([{ type: "web_search_preview" }])
        .invoke("Hi"),
    ).rejects.toThrow(
      'ChatOpenAI sends requests to the Chat Completions API, which has no built-in "web_search_preview" tool',
    );
    expect(server.requests).toHaveLength(1);
  });

  it("sends a ChatMessage with its own role and a FunctionMessage as role function, as LangChain.js does", async () => {
    server.reply({ kind: "json", body: completion({ content: "ok" }) });
    await model().invoke([
      new ChatMessage("Order in the court!", "judge"),
      new ChatMessage({ content: [{ type: "text", text: "Hi" }], role: "user", name: "alice" }),
      new FunctionMessage({ content: '{"temp": 21}', name: "get_weather" }),
    ]);
    expect((server.requests[0]?.body as { messages?: unknown[] } | undefined)?.messages).toEqual([
      { role: "judge", content: "Order in the court!" },
      { role: "user", content: "Hi", name: "alice" },
      { role: "function", content: '{"temp": 21}', name: "get_weather" },
    ]);
  });

  it("uses max_completion_tokens for reasoning models and forwards model settings", async () => {
    server.reply({ kind: "json", body: completion({ content: "ok" }) });
    await model({
      model: "o4-mini",
      maxTokens: 100,
      reasoning: { effort: "low" },
      seed: 7,
      frequencyPenalty: 0.5,
      modelKwargs: { top_k: 20 },
    }).invoke("Hi");
    expect(server.requests[0]?.body).toMatchObject({
      model: "o4-mini",
      max_completion_tokens: 100,
      reasoning_effort: "low",
      seed: 7,
      frequency_penalty: 0.5,
      top_k: 20,
    });
    expect(server.requests[0]?.body).not.toHaveProperty("max_tokens");
  });

  it("sends LangChain.js's model fields and call options, reasoning ones to reasoning models only", async () => {
    const bodyOf = async (fields: ChatOpenAIFields, options: Record<string, unknown> = {}) => {
      server.reply({ kind: "json", body: completion({ content: "ok" }) });
      await model(fields).invoke("Hi", options);
      const { messages: _messages, ...rest } = (server.requests.at(-1)?.body ?? {}) as Record<
        string,
        unknown
      >;
      return rest;
    };
    // Expected bodies are what @langchain/openai 1.6.0 sends for the same calls.
    expect(
      await bodyOf(
        {
          model: "gpt-4.1-mini",
          reasoning: { effort: "low" },
          maxCompletionTokens: 30,
          maxTokens: 99,
          logprobs: true,
          topLogprobs: 2,
          n: 1,
          logitBias: { "50256": -100 },
          stopSequences: ["SEQ"],
          stop: ["END"],
        },
        { seed: 7 },
      ),
    ).toEqual({
      model: "gpt-4.1-mini",
      logprobs: true,
      top_logprobs: 2,
      n: 1,
      logit_bias: { "50256": -100 },
      stop: ["SEQ"],
      stream: false,
      seed: 7,
      max_tokens: 30,
    });
    expect(await bodyOf({ model: "gpt-5-chat-latest", maxTokens: 10, reasoning: { effort: "low" } })).toEqual(
      {
        model: "gpt-5-chat-latest",
        stream: false,
        max_tokens: 10,
      },
    );
    expect(await bodyOf({ model: "gpt-6", maxTokens: 5 })).toEqual({
      model: "gpt-6",
      stream: false,
      max_completion_tokens: 5,
    });
    expect(
      await bodyOf(
        { model: "o3-mini", reasoning: { effort: "low" } },
        { reasoning: { effort: "high" }, stream_options: { include_usage: false } },
      ),
    ).toEqual({
      model: "o3-mini",
      stream: false,
      stream_options: { include_usage: false },
      reasoning_effort: "high",
    });
    // maxTokens and reasoning.effort win over the same fields in modelKwargs
    expect(
      await bodyOf({
        model: "gpt-4.1-mini",
        maxTokens: 256,
        temperature: 1,
        modelKwargs: { max_tokens: 10, temperature: 0.3 },
      }),
    ).toEqual({ model: "gpt-4.1-mini", temperature: 0.3, stream: false, max_tokens: 256 });
    expect(
      await bodyOf({
        model: "o3-mini",
        reasoning: { effort: "low" },
        modelKwargs: { reasoning_effort: "high" },
      }),
    ).toEqual({ model: "o3-mini", stream: false, reasoning_effort: "low" });
    expect(
      await bodyOf(
        { model: "o3-mini" },
        { reasoningEffort: "medium", promptCacheKey: "k", verbosity: "low", service_tier: "flex" },
      ),
    ).toEqual({
      model: "o3-mini",
      stream: false,
      prompt_cache_key: "k",
      verbosity: "low",
      service_tier: "flex",
      reasoning_effort: "medium",
    });
  });

  it("reports the request parameters in invocationParams(), as @langchain/openai does", () => {
    const chat = model({
      model: "gpt-4.1-mini",
      temperature: 0.2,
      maxTokens: 50,
      topP: 0.9,
      stop: ["X"],
      frequencyPenalty: 0.1,
      n: 1,
      user: "u",
      modelKwargs: { top_k: 3 },
      streaming: true,
    });
    // @langchain/openai 1.6.0's values for the same model and call options.
    expect(chat.invocationParams()).toEqual({
      model: "gpt-4.1-mini",
      temperature: 0.2,
      top_p: 0.9,
      frequency_penalty: 0.1,
      n: 1,
      stop: ["X"],
      user: "u",
      stream: true,
      stream_options: { include_usage: true },
      top_k: 3,
      max_tokens: 50,
    });
    const tool = {
      type: "function",
      function: { name: "f", parameters: { type: "object", properties: {} } },
    };
    expect(chat.invocationParams({ tools: [tool], tool_choice: "any", seed: 3, stop: ["Y"] })).toMatchObject({
      stop: ["Y"],
      tools: [tool],
      tool_choice: "required",
      seed: 3,
    });
    expect(
      model({ model: "o3-mini", reasoning: { effort: "low" }, maxTokens: 5 }).invocationParams(),
    ).toEqual({
      model: "o3-mini",
      stream: false,
      reasoning_effort: "low",
      max_completion_tokens: 5,
    });
  });

  it("invocationParams() lists its unset parameters as undefined keys, in @langchain/openai's order", () => {
    const chat = model({
      model: "gpt-4.1-mini",
      temperature: 0.2,
      maxTokens: 50,
      modelKwargs: { top_k: 3 },
      streaming: true,
    });
    const fixed = [
      "model",
      "temperature",
      "top_p",
      "frequency_penalty",
      "presence_penalty",
      "logprobs",
      "top_logprobs",
      "n",
      "logit_bias",
      "stop",
      "user",
      "stream",
      "functions",
      "function_call",
      "tools",
      "tool_choice",
      "response_format",
      "seed",
    ];
    const cache = ["prompt_cache_key", "prompt_cache_retention", "prompt_cache_options", "verbosity"];
    // @langchain/openai 1.6.0's keys for the same options
    expect(Object.keys(chat.invocationParams())).toEqual([
      ...fixed,
      "stream_options",
      "parallel_tool_calls",
      "top_k",
      ...cache,
      "max_tokens",
    ]);
    expect(chat.invocationParams()).toHaveProperty("top_p", undefined);
    const reasoning = model({ model: "o3-mini", reasoning: { effort: "low" } }).invocationParams();
    expect(Object.keys(reasoning)).toEqual([
      ...fixed,
      "parallel_tool_calls",
      ...cache,
      "reasoning_effort",
      "max_completion_tokens",
    ]);
  });

  it("has apiKey and organization fields, as @langchain/openai's ChatOpenAI", () => {
    const given = new ChatOpenAI({
      model: "gpt-4.1-mini",
      apiKey: "sk-a",
      configuration: { organization: "org-1" },
    });
    expect([given.apiKey, given.organization]).toEqual(["sk-a", "org-1"]);
    const configured = new ChatOpenAI({ model: "gpt-4.1-mini", configuration: { apiKey: "sk-c" } });
    expect([configured.apiKey, configured.organization]).toEqual(["sk-c", undefined]);
  });

  it("reads back its options as @langchain/openai 1.6.0's ChatOpenAI does", () => {
    vi.stubEnv("OPENAI_API_KEY", "sk-env");
    try {
      const plain = new ChatOpenAI({ model: "gpt-4o-mini" });
      // no modelName or maxRetries field there (the retries live in its caller), zdrEnabled false
      expect([plain.model, (plain as { modelName?: unknown }).modelName]).toEqual(["gpt-4o-mini", undefined]);
      expect((plain as { maxRetries?: unknown }).maxRetries).toBeUndefined();
      expect([plain.zdrEnabled, plain.verbosity, plain.service_tier]).toEqual([false, undefined, undefined]);
      const named = new ChatOpenAI({ modelName: "gpt-4o", maxRetries: 5 });
      expect([named.model, (named as { modelName?: unknown }).modelName]).toEqual(["gpt-4o", undefined]);
      expect((named as { maxRetries?: unknown }).maxRetries).toBeUndefined();
      const set = new ChatOpenAI("gpt-4o", { zdrEnabled: true, verbosity: "low", service_tier: "flex" });
      expect([set.zdrEnabled, set.verbosity, set.service_tier]).toEqual([true, "low", "flex"]);
      expect(Object.entries(set.fields ?? {})).toEqual([
        ["model", "gpt-4o"],
        ["zdrEnabled", true],
        ["verbosity", "low"],
        ["service_tier", "flex"],
      ]);
      const options = { modelName: "gpt-4o", maxRetries: 5 };
      expect(new ChatOpenAI(options).fields).toBe(options);
      expect(set.clientConfig).toEqual({
        apiKey: "sk-env",
        organization: undefined,
        dangerouslyAllowBrowser: true,
        baseURL: undefined,
      });
      // the deprecated openAIApiKey is not the key when OPENAI_API_KEY is set
      const deprecated = new ChatOpenAI({
        model: "o3-mini",
        openAIApiKey: "sk-old",
        configuration: { baseURL: "http://x/v1", organization: "org" },
      });
      expect(deprecated.apiKey).toBe("sk-env");
      expect(deprecated.clientConfig).toEqual({
        apiKey: "sk-env",
        organization: "org",
        dangerouslyAllowBrowser: true,
        baseURL: "http://x/v1",
      });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("returns parallel tool calls in order", async () => {
    server.reply({
      kind: "json",
      body: {
        id: "chatcmpl-par",
        model: "gpt-4.1-mini",
        choices: [
          {
            index: 0,
            finish_reason: "tool_calls",
            message: {
              role: "assistant",
              content: null,
              tool_calls: [
                {
                  id: "call_a",
                  type: "function",
                  function: { name: "get_weather", arguments: '{"city":"Paris"}' },
                },
                {
                  id: "call_b",
                  type: "function",
                  function: { name: "get_weather", arguments: '{"city":"Rome"}' },
                },
              ],
            },
          },
        ],
      },
    });
    const reply = await model()
      .bindTools([getWeather], { parallel_tool_calls: true })
      .invoke("Paris and Rome?");
    expect(server.requests[0]?.body).toMatchObject({ parallel_tool_calls: true });
    expect(reply.tool_calls.map((c) => [c.id, c.args])).toEqual([
      ["call_a", { city: "Paris" }],
      ["call_b", { city: "Rome" }],
    ]);
    // @langchain/openai's key order, which JSON of the calls shows (summarization prompts)
    expect(JSON.stringify(reply.tool_calls[0])).toBe(
      '{"name":"get_weather","args":{"city":"Paris"},"type":"tool_call","id":"call_a"}',
    );
    // no `usage` in the answer: only the two detail objects, as @langchain/openai 1.6.0 writes them
    expect(JSON.stringify(reply.usage_metadata)).toBe('{"input_token_details":{},"output_token_details":{}}');
  });

  it("puts malformed tool-call arguments in invalid_tool_calls instead of failing", async () => {
    server.reply({
      kind: "json",
      body: completion({
        content: null,
        tool_calls: [
          {
            id: "call_ok",
            type: "function",
            function: { name: "get_weather", arguments: '{"city":"Oslo"}' },
          },
          { id: "call_bad", type: "function", function: { name: "get_weather", arguments: '{"city": "Os' } },
        ],
      }),
    });
    const reply = await model().bindTools([getWeather]).invoke("Oslo?");
    expect(reply.tool_calls).toEqual([
      { name: "get_weather", args: { city: "Oslo" }, id: "call_ok", type: "tool_call" },
    ]);
    expect(reply.invalid_tool_calls).toHaveLength(1);
    expect(reply.invalid_tool_calls[0]).toMatchObject({
      name: "get_weather",
      id: "call_bad",
      args: '{"city": "Os',
      type: "invalid_tool_call",
    });
    // @langchain/openai's text: its OutputParserException's message, troubleshooting URL included
    const reason = (() => {
      try {
        JSON.parse('{"city": "Os');
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(reply.invalid_tool_calls[0]?.error).toBe(
      `Function "get_weather" arguments:\n\n{"city": "Os\n\nare not valid JSON.\nError: ${reason}` +
        "\n\nTroubleshooting URL: https://docs.langchain.com/oss/javascript/langchain/errors/OUTPUT_PARSING_FAILURE/\n",
    );
  });

  it("surfaces a refusal as additional_kwargs.refusal", async () => {
    server.reply({ kind: "json", body: completion({ content: null, refusal: "I can't help with that." }) });
    const reply = await model().invoke("Something bad");
    expect(reply.content).toBe("");
    expect(reply.additional_kwargs.refusal).toBe("I can't help with that.");
  });

  it("formats tool_choice, strict tools and parallel_tool_calls", async () => {
    server.reply(
      { kind: "json", body: completion({ content: "a" }) },
      { kind: "json", body: completion({ content: "b" }) },
      { kind: "json", body: completion({ content: "c" }) },
      { kind: "json", body: completion({ content: "d" }) },
    );
    await model().bindTools([getWeather], { tool_choice: "any" }).invoke("x");
    await model()
      .bindTools([getWeather], { tool_choice: "get_weather", parallel_tool_calls: false })
      .invoke("x");
    await model().bindTools([getWeather], { tool_choice: "none" }).invoke("x");
    await model().bindTools([getWeather], { strict: true, tool_choice: "auto" }).invoke("x");
    const bodies = server.requests.map((r) => r.body as Record<string, unknown>);
    expect(bodies[0]?.tool_choice).toBe("required");
    expect(bodies[1]?.tool_choice).toEqual({ type: "function", function: { name: "get_weather" } });
    expect(bodies[1]?.parallel_tool_calls).toBe(false);
    expect(bodies[2]?.tool_choice).toBe("none");
    expect(bodies[3]?.tool_choice).toBe("auto");
    expect(bodies[3]?.tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Get weather for a given city.",
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

  it("sends a tool's empty description as given, as @langchain/openai does", async () => {
    server.reply({ kind: "json", body: completion({ content: "ok" }) });
    const empty = tool(async () => "x", { name: "c", description: "", schema: z.object({}) });
    const openAiForm = {
      type: "function" as const,
      function: { name: "d", description: "", parameters: { type: "object", properties: {} } },
    };
    const described = { name: "e", description: "", schema: z.object({}) };
    await model().bindTools([empty, openAiForm, described]).invoke("x");
    const tools = (
      server.requests[0]?.body as { tools?: { function: Record<string, unknown> }[] } | undefined
    )?.tools;
    expect(tools?.map((t) => [t.function.name, t.function.description])).toEqual([
      ["c", ""],
      ["d", ""],
      ["e", ""],
    ]);
  });

  it("accepts the camelCase bindTools options toolChoice and parallelToolCalls", async () => {
    server.reply(
      { kind: "json", body: completion({ content: "a" }) },
      { kind: "json", body: completion({ content: "b" }) },
    );
    await model().bindTools([getWeather], { toolChoice: "any", parallelToolCalls: false }).invoke("x");
    await model().bindTools([getWeather], { toolChoice: "get_weather", strict: true }).invoke("x");
    const bodies = server.requests.map((r) => r.body as Record<string, unknown>);
    expect(bodies[0]).toMatchObject({ tool_choice: "required", parallel_tool_calls: false });
    expect(bodies[1]?.tool_choice).toEqual({ type: "function", function: { name: "get_weather" } });
    expect(bodies[1]?.parallel_tool_calls).toBeUndefined();
    expect(bodies[1]?.tools).toMatchObject([{ type: "function", function: { strict: true } }]);
  });

  it("lets a call's strict override the strict the tools were bound with, as @langchain/openai does", async () => {
    server.reply(
      { kind: "json", body: completion({ content: "a" }) },
      { kind: "json", body: completion({ content: "b" }) },
    );
    const bound = model().bindTools([getWeather], { strict: true });
    await bound.invoke("x", { strict: false });
    await bound.invoke("x");
    const tools = server.requests.map((r) => (r.body as { tools?: unknown[] }).tools);
    expect(tools[0]).toMatchObject([{ type: "function", function: { name: "get_weather", strict: false } }]);
    expect(tools[1]).toMatchObject([{ type: "function", function: { name: "get_weather", strict: true } }]);
  });

  it("converts names, images and tool errors to the wire format", async () => {
    server.reply({ kind: "json", body: completion({ content: "ok" }) });
    await model().invoke([
      new HumanMessage({
        name: "ada",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image_url", image_url: { url: "https://example.com/cat.png", detail: "low" } },
          { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        ],
      }),
      new AIMessage({
        content: "Let me look.",
        tool_calls: [{ name: "zoom", args: { x: 1 }, id: "call_z", type: "tool_call" }],
      }),
      new ToolMessage({ content: "Error: lens cap on", tool_call_id: "call_z", status: "error" }),
    ]);
    expect(normalizeArguments(server.requests[0]?.body)).toMatchObject({
      messages: [
        {
          role: "user",
          name: "ada",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image_url", image_url: { url: "https://example.com/cat.png", detail: "low" } },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          ],
        },
        {
          role: "assistant",
          content: "Let me look.",
          tool_calls: [{ type: "function", id: "call_z", function: { name: "zoom", arguments: { x: 1 } } }],
        },
        { role: "tool", content: "Error: lens cap on", tool_call_id: "call_z" },
      ],
    });
  });
});

describe("ChatOpenAI file and audio blocks", () => {
  it("sends OpenAI's own input_audio and file blocks and names files, as @langchain/openai does", async () => {
    server.reply({ kind: "json", body: completion({ content: "ok" }) });
    await model().invoke([
      new HumanMessage({
        content: [
          { type: "text", text: "Look" },
          { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } },
          { type: "file", file: { file_data: "data:application/pdf;base64,JVBERi0=", filename: "doc.pdf" } },
          {
            type: "file",
            source_type: "base64",
            mime_type: "application/pdf",
            data: "JVBERi0=",
            metadata: { filename: "a.pdf" },
          },
          { type: "file", source_type: "base64", mime_type: "application/pdf", data: "JVBERi0=" },
          { type: "audio", source_type: "base64", mime_type: "audio/mp3", data: "SUQz" },
        ],
      }),
    ]);
    // The body @langchain/openai 1.6.0 sends for the same message.
    expect((server.requests[0]?.body as { messages?: unknown[] } | undefined)?.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Look" },
          { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } },
          { type: "file", file: { file_data: "data:application/pdf;base64,JVBERi0=", filename: "doc.pdf" } },
          { type: "file", file: { file_data: "data:application/pdf;base64,JVBERi0=", filename: "a.pdf" } },
          {
            type: "file",
            file: { file_data: "data:application/pdf;base64,JVBERi0=", filename: "LC_AUTOGENERATED" },
          },
          { type: "input_audio", input_audio: { format: "mp3", data: "SUQz" } },
        ],
      },
    ]);
  });

  it("refuses a file given by a URL that is not a data URL, as @langchain/openai does", async () => {
    const file = { type: "file", source_type: "url", url: "https://example.com/file.pdf" };
    await expect(
      model().invoke([new HumanMessage({ content: [{ type: "text", text: "?" }, file] })]),
    ).rejects.toThrow(/^URL file blocks with source_type url must be formatted as a data URL for ChatOpenAI/);
    expect(server.requests).toHaveLength(0);
  });

  it("warns, as @langchain/openai does, when a file goes with the placeholder name", async () => {
    server.reply({ kind: "json", body: completion({ content: "ok" }) });
    server.reply({ kind: "json", body: completion({ content: "ok" }) });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const file = { type: "file", source_type: "base64", mime_type: "application/pdf", data: "JVBERi0=" };
      await model().invoke([new HumanMessage({ content: [file] })]);
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining("Using placeholder filename 'LC_AUTOGENERATED'."),
      );
      warn.mockClear();
      await model().invoke([new HumanMessage({ content: [{ ...file, metadata: { filename: "a.pdf" } }] })]);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it("sends files uploaded to OpenAI by their file_id", async () => {
    server.reply({ kind: "json", body: completion({ content: "ok" }) });
    await model().invoke([
      new HumanMessage({
        content: [
          { type: "text", text: "Summarize" },
          { type: "file", source_type: "id", id: "file_v0" },
          { type: "file", file: { file_id: "file_openai" } },
          { type: "file", fileId: "file_standard" },
        ],
      }),
    ]);
    expect((server.requests[0]?.body as { messages?: unknown[] } | undefined)?.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Summarize" },
          { type: "file", file: { file_id: "file_v0" } },
          { type: "file", file: { file_id: "file_openai" } },
          { type: "file", file: { file_id: "file_standard" } },
        ],
      },
    ]);
  });
});

describe("ChatOpenAI structured output", () => {
  const Person = z.object({ name: z.string(), age: z.number() });

  it("uses response_format json_schema (strict) by default and parses the JSON answer", async () => {
    server.reply({ kind: "json", body: completion({ content: '{"name":"Ada","age":36}' }) });
    const person = await model()
      .withStructuredOutput(Person, { name: "person", strict: true })
      .invoke("Ada is 36");
    expect(person).toEqual({ name: "Ada", age: 36 });
    expect(server.requests[0]?.body).toMatchObject({
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "person",
          strict: true,
          schema: {
            type: "object",
            properties: { name: { type: "string" }, age: { type: "number" } },
            required: ["name", "age"],
            additionalProperties: false,
          },
        },
      },
    });
  });

  it("asks for strict json_schema output when strict is not given, as @langchain/openai does", async () => {
    server.reply(
      { kind: "json", body: completion({ content: '{"name":"Ada","age":36}' }) },
      { kind: "json", body: completion({ content: '{"name":"Ada","age":36}' }) },
    );
    expect(await model().withStructuredOutput(Person.describe("A person")).invoke("Ada is 36")).toEqual({
      name: "Ada",
      age: 36,
    });
    // @langchain/openai 1.6.0 sends the same, plus `$schema` and `title` keys (see docs/differences.md).
    expect((server.requests[0]?.body as { response_format?: unknown } | undefined)?.response_format).toEqual({
      type: "json_schema",
      json_schema: {
        name: "extract",
        description: "A person",
        strict: true,
        schema: {
          type: "object",
          description: "A person",
          properties: { name: { type: "string" }, age: { type: "number" } },
          required: ["name", "age"],
          additionalProperties: false,
        },
      },
    });
    await model().withStructuredOutput(Person, { strict: false }).invoke("Ada is 36");
    expect(server.requests[1]?.body).toMatchObject({ response_format: { json_schema: { strict: false } } });
  });

  it("sends a plain JSON Schema without strict, as @langchain/openai does", async () => {
    server.reply({ kind: "json", body: completion({ content: '{"name":"Ada","age":36}' }) });
    const schema = {
      type: "object",
      properties: { name: { type: "string" }, age: { type: "number" } },
      required: ["name", "age"],
    };
    await model().withStructuredOutput(schema).invoke("Ada is 36");
    expect((server.requests[0]?.body as { response_format?: unknown } | undefined)?.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "extract", schema },
    });
  });

  it("refuses strict with jsonMode, and uses function calling for models without JSON Schema output", async () => {
    // @langchain/openai 1.6.0's rules and texts.
    expect(() => model().withStructuredOutput(Person, { method: "jsonMode", strict: true })).toThrow(
      "Argument `strict` is only supported for `method` = 'function_calling'",
    );
    expect(() =>
      model({ model: "gpt-4-turbo" }).withStructuredOutput(Person, { method: "jsonSchema" }),
    ).toThrow(
      'JSON Schema is not supported for model "gpt-4-turbo". Please use a different method, e.g. "functionCalling" or "jsonMode".',
    );
    server.reply({
      kind: "json",
      body: completion({
        content: null,
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "extract", arguments: '{"name":"Ada","age":36}' },
          },
        ],
      }),
    });
    expect(await model({ model: "gpt-4-turbo" }).withStructuredOutput(Person).invoke("Ada is 36")).toEqual({
      name: "Ada",
      age: 36,
    });
    expect(server.requests[0]?.body).toMatchObject({
      tool_choice: { type: "function", function: { name: "extract" } },
    });
  });

  it('names a plain JSON Schema\'s tool by its title and describes it "" when it has no description, as @langchain/openai does', async () => {
    const call = (name: string) => ({
      kind: "json" as const,
      body: completion({
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name, arguments: '{"a":1}' } }],
      }),
    });
    server.reply(call("T"), call("extract"), { kind: "json", body: completion({ content: '{"a":1}' }) });
    const titled = { title: "T", type: "object", properties: { a: { type: "number" } } };
    const untitled = { type: "object", properties: { a: { type: "number" } } };
    await model().withStructuredOutput(titled, { name: "N", method: "functionCalling" }).invoke("x");
    await model().withStructuredOutput(untitled, { method: "functionCalling" }).invoke("x");
    // json_schema output is named by options.name (or "extract"), not by the title
    await model().withStructuredOutput(titled, { method: "jsonSchema" }).invoke("x");
    const bodies = server.requests.map(
      (r) => r.body as { tools?: { function: Record<string, unknown> }[]; tool_choice?: unknown },
    );
    expect(bodies[0]?.tools?.[0]?.function).toMatchObject({ name: "T", description: "" });
    expect(bodies[0]?.tool_choice).toEqual({ type: "function", function: { name: "T" } });
    expect(bodies[1]?.tools?.[0]?.function).toMatchObject({ name: "extract", description: "" });
    expect(server.requests[2]?.body).toMatchObject({ response_format: { json_schema: { name: "extract" } } });
  });

  it("supports functionCalling (forced tool) and jsonMode, and reports bad output", async () => {
    server.reply(
      {
        kind: "json",
        body: completion({
          content: null,
          tool_calls: [
            { id: "c1", type: "function", function: { name: "extract", arguments: '{"name":"Bo","age":5}' } },
          ],
        }),
      },
      { kind: "json", body: completion({ content: '{"name":"Cy","age":"old"}' }) },
      { kind: "json", body: completion({ content: "not json" }) },
    );
    expect(
      await model().withStructuredOutput(Person, { method: "functionCalling" }).invoke("Bo is 5"),
    ).toEqual({
      name: "Bo",
      age: 5,
    });
    expect(server.requests[0]?.body).toMatchObject({
      tool_choice: { type: "function", function: { name: "extract" } },
    });
    await expect(model().withStructuredOutput(Person, { method: "jsonMode" }).invoke("Cy")).rejects.toThrow(
      /does not match the schema[\s\S]*→ at age/,
    );
    expect(server.requests[1]?.body).toMatchObject({ response_format: { type: "json_object" } });
    const raw = await model().withStructuredOutput(Person, { includeRaw: true }).invoke("?");
    expect(raw.parsed).toBeNull();
    expect(raw.raw.text).toBe("not json");
    expect(raw.parsing_error).toBeInstanceOf(Error);
  });
});

describe("ChatOpenAI options and answers as @langchain/openai 1.6.0 has them", () => {
  it("reads back the options @langchain/openai exposes as properties", () => {
    const chat = new ChatOpenAI({
      apiKey: "sk-test",
      n: 2,
      logprobs: true,
      topLogprobs: 3,
      stop: ["a"],
      streamUsage: false,
      modelKwargs: { x: 1 },
      reasoning: { effort: "low" },
    });
    expect([chat.n, chat.logprobs, chat.topLogprobs, chat.stopSequences]).toEqual([2, true, 3, ["a"]]);
    expect([chat.streamUsage, chat.modelKwargs, chat.reasoning]).toEqual([
      false,
      { x: 1 },
      { effort: "low" },
    ]);
    const plain = new ChatOpenAI({ apiKey: "sk-test" });
    expect([plain.streamUsage, plain.modelKwargs, plain.reasoning, plain.useResponsesApi]).toEqual([
      true,
      {},
      undefined,
      false,
    ]);
    expect(new ChatOpenAI({ apiKey: "sk-test", disableStreaming: true }).streamUsage).toBe(false);
  });

  it("takes the model name first, and lets disableStreaming win over streaming", () => {
    const named = new ChatOpenAI("gpt-4o-mini", { temperature: 0.2, apiKey: "sk-test" });
    expect(named.model).toBe("gpt-4o-mini");
    expect(named.temperature).toBe(0.2);
    const both = new ChatOpenAI({ apiKey: "sk-test", streaming: true, disableStreaming: true });
    expect([both.streaming, both.disableStreaming]).toEqual([false, true]);
    const streams = new ChatOpenAI({ apiKey: "sk-test", streaming: true, disableStreaming: false });
    expect([streams.streaming, streams.disableStreaming]).toEqual([true, false]);
  });

  it("sends every tool of a call with supportsStrictToolCalling when the call sets no strict", async () => {
    server.reply({ kind: "json", body: completion({ content: "a" }) });
    server.reply({ kind: "json", body: completion({ content: "b" }) });
    server.reply({ kind: "json", body: completion({ content: "c" }) });
    const weather = {
      type: "function" as const,
      function: { name: "w", description: "d", parameters: { type: "object", properties: {} } },
    };
    await model({ supportsStrictToolCalling: false }).bindTools([weather]).invoke("?");
    await model({ supportsStrictToolCalling: true })
      .withConfig({ tools: [weather] })
      .invoke("?");
    await model({ supportsStrictToolCalling: true }).bindTools([weather], { strict: false }).invoke("?");
    const strict = server.requests.map(
      (r) => (r.body as { tools: { function: { strict?: boolean } }[] }).tools[0]?.function.strict,
    );
    expect(strict).toEqual([false, true, false]);
  });

  it("sends a tool's extras.defer_loading and extras.providerToolDefinition", async () => {
    server.reply({ kind: "json", body: completion({ content: "ok" }) });
    const deferred = tool(async () => "r", {
      name: "deferred",
      description: "A deferred tool",
      schema: z.object({ input: z.string() }),
      extras: { defer_loading: true },
    });
    const replaced = tool(async () => "r", {
      name: "replaced",
      description: "x",
      schema: z.object({}),
      extras: { providerToolDefinition: { type: "custom", name: "replaced" } },
    });
    await model().bindTools([deferred, getWeather, replaced]).invoke("?");
    const tools = (server.requests[0]?.body as { tools: Record<string, unknown>[] } | undefined)?.tools ?? [];
    expect(tools[0]).toMatchObject({ type: "function", defer_loading: true, function: { name: "deferred" } });
    expect(tools[1]).not.toHaveProperty("defer_loading");
    expect(tools[2]).toEqual({ type: "custom", name: "replaced" });
  });

  it("makes an answer's images (OpenRouter's message.images) image blocks after its text", async () => {
    server.reply({
      kind: "json",
      body: completion({
        content: "Here are two:",
        images: [
          { type: "image_url", image_url: { url: "data:image/png;base64,one" } },
          { type: "image_url", image_url: { url: "data:image/png;base64,two" } },
        ],
      }),
    });
    const reply = await model().invoke("Draw");
    expect(reply.content).toEqual([
      { type: "text", text: "Here are two:" },
      { type: "image", url: "data:image/png;base64,one" },
      { type: "image", url: "data:image/png;base64,two" },
    ]);
    expect(Object.keys(reply.response_metadata)).not.toContain("__response_images");
  });

  it("keeps an answer's audio and legacy function_call in additional_kwargs", async () => {
    const audio = { id: "audio_1", data: "UklGRg==", transcript: "Hi", expires_at: 1 };
    server.reply({ kind: "json", body: completion({ content: null, audio }) });
    server.reply({
      kind: "json",
      body: completion({ content: null, function_call: { name: "f", arguments: "{}" } }),
    });
    const spoken = await model().invoke("?", { modalities: ["text", "audio"] });
    expect(spoken.additional_kwargs.audio).toEqual(audio);
    expect(Object.keys(spoken.response_metadata)).not.toContain("__response_kwargs");
    const legacy = await model().invoke("?");
    expect(legacy.additional_kwargs.function_call).toEqual({ name: "f", arguments: "{}" });
  });

  it("leaves out usage details the server reports as null", async () => {
    server.reply({
      kind: "json",
      body: completion(
        { content: "Hello" },
        {
          usage: {
            prompt_tokens: 100,
            completion_tokens: 5,
            total_tokens: 105,
            prompt_tokens_details: { cached_tokens: 50, audio_tokens: null, cache_write_tokens: 20 },
            completion_tokens_details: { reasoning_tokens: null },
          },
        },
      ),
    });
    const reply = await model().invoke("?");
    expect(reply.usage_metadata?.input_token_details).toEqual({ cache_read: 50, cache_creation: 20 });
    expect(reply.usage_metadata?.output_token_details).toEqual({});
  });

  it("reports the structured-output format to callbacks as ls_structured_output_format", async () => {
    server.reply({ kind: "json", body: completion({ content: '{"location":"Paris"}' }) });
    server.reply({
      kind: "json",
      body: completion({
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "loc", arguments: '{"location":"Oslo"}' } },
        ],
      }),
    });
    const Location = z.object({ location: z.string() });
    const seen: unknown[] = [];
    const callbacks = [
      {
        handleChatModelStart: (...args: unknown[]) => {
          seen.push((args[4] as { options: Record<string, unknown> }).options.ls_structured_output_format);
        },
      },
    ];
    const props = { location: { type: "string" } };
    await model().withStructuredOutput(Location, { name: "loc" }).invoke("?", { callbacks });
    await model()
      .withStructuredOutput(Location, { name: "loc", method: "functionCalling" })
      .invoke("?", { callbacks });
    expect(seen).toMatchObject([
      { kwargs: { method: "json_schema" }, schema: { title: "loc", type: "object", properties: props } },
      { kwargs: { method: "function_calling" }, schema: { title: "loc", type: "object", properties: props } },
    ]);
    // a callback option only: it is not sent
    expect(JSON.stringify(server.requests.map((r) => r.body))).not.toContain("ls_structured_output_format");
  });

  it("sends a Standard Schema that is not Zod without strict, as @langchain/openai does", async () => {
    server.reply({ kind: "json", body: completion({ content: '{"location":"Paris"}' }) });
    const parameters = {
      type: "object",
      properties: { location: { type: "string" } },
      required: ["location"],
    };
    const standard = {
      "~standard": {
        version: 1 as const,
        vendor: "test",
        validate: (value: unknown) => ({ value: value as { location: string } }),
        jsonSchema: { input: () => parameters, output: () => parameters },
      },
    };
    const parsed = await model().withStructuredOutput(standard, { name: "where" }).invoke("?");
    expect(parsed).toEqual({ location: "Paris" });
    expect((server.requests[0]?.body as { response_format?: unknown } | undefined)?.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "where", schema: parameters },
    });
  });
});

describe("ChatOpenAI.moderateContent", () => {
  const moderation = {
    id: "modr-1",
    model: "omni-moderation-latest",
    results: [{ flagged: false, categories: { hate: false }, category_scores: { hate: 0.01 } }],
  };

  it("posts the input to the moderation endpoint and answers what it answers", async () => {
    server.reply({ kind: "json", body: moderation });
    server.reply({ kind: "json", body: { ...moderation, model: "text-moderation-stable" } });
    expect(await model().moderateContent("This is a test message")).toEqual(moderation);
    const stable = await model().moderateContent(["a", "b"], {
      model: "text-moderation-stable",
      options: { headers: { "x-custom": "value" } },
    });
    expect(stable.model).toBe("text-moderation-stable");
    expect(server.requests.map((r) => [r.path, r.body])).toEqual([
      ["/v1/moderations", { input: "This is a test message", model: "omni-moderation-latest" }],
      ["/v1/moderations", { input: ["a", "b"], model: "text-moderation-stable" }],
    ]);
    expect(server.requests[1]?.headers["x-custom"]).toBe("value");
  });

  it("fails as a call does", async () => {
    server.reply({
      kind: "json",
      status: 401,
      body: { error: { message: "Invalid API key", type: "invalid_request_error", code: null } },
    });
    await expect(model().moderateContent("x")).rejects.toThrow(/^401 Invalid API key/);
  });
});

describe("ChatOpenAI response_format call option", () => {
  it("sends a Zod json_schema as its strict JSON Schema and passes type text on, as @langchain/openai does", async () => {
    server.reply({ kind: "json", body: completion({ content: '{"a":"x"}' }) });
    server.reply({ kind: "json", body: completion({ content: "x" }) });
    await model().invoke("?", {
      response_format: {
        type: "json_schema",
        json_schema: { name: "n", schema: z.object({ a: z.string() }) },
      },
    });
    await model().invoke("?", { response_format: { type: "text" } });
    const formats = server.requests.map((r) => (r.body as { response_format?: unknown }).response_format);
    expect(formats).toEqual([
      {
        type: "json_schema",
        json_schema: {
          name: "n",
          schema: {
            type: "object",
            properties: { a: { type: "string" } },
            required: ["a"],
            additionalProperties: false,
          },
          strict: true,
        },
      },
      { type: "text" },
    ]);
  });
});

describe("ChatOpenAI.withStructuredOutput failures", () => {
  it("start with the words of LangChain.js's parsers", async () => {
    const Person = z.object({ name: z.string() });
    server.reply({ kind: "json", body: completion({ content: "nope" }) });
    server.reply({ kind: "json", body: completion({ content: '{"name":1}' }) });
    server.reply({
      kind: "json",
      body: completion({
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "extract", arguments: '{"name":1}' } }],
      }),
    });
    await expect(model().withStructuredOutput(Person, { method: "jsonMode" }).invoke("?")).rejects.toThrow(
      /^Failed to parse\. Text: "nope"\. Error: SyntaxError: Unexpected token/,
    );
    await expect(model().withStructuredOutput(Person, { method: "jsonMode" }).invoke("?")).rejects.toThrow(
      /^Failed to parse\. Text: "\{"name":1\}"\. Error: The model's structured output does not match the schema/,
    );
    await expect(
      model().withStructuredOutput(Person, { method: "functionCalling" }).invoke("?"),
    ).rejects.toThrow('Failed to parse. Text: "{\n  "name": 1\n}". Error: ');
  });
});

describe("ChatOpenAI.withStructuredOutput methods", () => {
  it("refuses a method it does not know with @langchain/openai's message", () => {
    const Person = z.object({ name: z.string() });
    for (const method of ["invalid", null, 1]) {
      expect(() =>
        model().withStructuredOutput(Person, { method } as unknown as { method: "jsonSchema" }),
      ).toThrow(
        `Invalid method: ${String(method)}. Supported methods are: jsonSchema, functionCalling, jsonMode`,
      );
    }
    expect(() => model().withStructuredOutput(Person, { method: undefined })).not.toThrow();
  });
});

describe("ChatOpenAI LangSmith parameters and call keys", () => {
  it("reports ls_max_tokens as the request's max_tokens and ls_stop from the call only", async () => {
    const chat = model({ model: "gpt-4o-mini", temperature: 0.2, maxTokens: 9, stop: ["s"] });
    // @langchain/openai lists all six keys, unset ones as undefined
    expect(chat.getLsParams({})).toStrictEqual({
      ls_provider: "openai",
      ls_model_name: "gpt-4o-mini",
      ls_model_type: "chat",
      ls_temperature: 0.2,
      ls_max_tokens: 9,
      ls_stop: undefined,
    });
    expect(chat.getLsParams({ stop: ["x"] }).ls_stop).toEqual(["x"]);
    // a reasoning model is sent max_completion_tokens, which LangChain.js does not report
    expect(Object.entries(model({ model: "o3-mini", maxTokens: 9 }).getLsParams({}))).toEqual([
      ["ls_provider", "openai"],
      ["ls_model_name", "o3-mini"],
      ["ls_model_type", "chat"],
      ["ls_temperature", undefined],
      ["ls_max_tokens", undefined],
      ["ls_stop", undefined],
    ]);
    server.reply({ kind: "json", body: completion({ content: "ok" }) });
    let metadata: Record<string, unknown> = {};
    await chat.invoke("?", {
      callbacks: [
        {
          handleChatModelStart: (...args: unknown[]) => {
            metadata = args[6] as Record<string, unknown>;
          },
        },
      ],
    });
    expect(metadata).toMatchObject({ ls_max_tokens: 9 });
    expect(metadata.ls_stop).toBeUndefined();
  });

  it("lists @langchain/openai's call keys", () => {
    expect(model().callKeys.slice(-4)).toEqual([
      "reasoning",
      "reasoning_effort",
      "service_tier",
      "useResponsesApi",
    ]);
    expect(model().callKeys).toContain("response_format");
  });
});

describe("ChatOpenAI.getNumTokensFromMessages", () => {
  it("counts content, role, name and OpenAI's overheads as @langchain/openai does", async () => {
    const counted = await model({ model: "gpt-4o-mini" }).getNumTokensFromMessages([
      new HumanMessage("hello there"),
      new AIMessage("hi"),
      new HumanMessage({ content: "abcd", name: "bob" }),
    ]);
    // "hello there" 3 + 3 + "user" 1; "hi" 1 + 3 + "assistant" 3; "abcd" 1 + 3 + "user" 1 + name 1 + "bob" 1
    expect(counted).toEqual({ totalCount: 7 + 7 + 7 + 3, countPerMessage: [7, 7, 7] });
    const legacy = await model({ model: "gpt-3.5-turbo-0301" }).getNumTokensFromMessages([
      new AIMessage({
        content: "",
        additional_kwargs: { function_call: { name: "fn", arguments: '{ "a" : 1 }' } },
      }),
    ]);
    // 0 + 4 + "assistant" 3, then the call: 3 + "fn" 1 + '{"a":1}' 2
    expect(legacy).toEqual({ totalCount: 13 + 3, countPerMessage: [13] });
  });
});

describe("ChatOpenAI audio and prompt-cache options", () => {
  it("sends the model's audio, modalities and prompt-cache settings as @langchain/openai does", async () => {
    for (let i = 0; i < 3; i++) server.reply({ kind: "json", body: completion({ content: "ok" }) });
    const voice = { voice: "alloy", format: "wav" };
    await model({ audio: voice, modalities: ["text", "audio"], promptCacheRetention: "in-memory" }).invoke(
      "?",
      {
        audio: { voice: "echo", format: "mp3" },
        modalities: ["text"],
      },
    );
    await model({ promptCacheRetention: "24h", promptCacheOptions: { a: 1 } }).invoke("?", {
      promptCacheRetention: "in-memory",
    });
    await model().invoke("?", { audio: voice, modalities: ["text", "audio"] });
    const bodies = server.requests.map((r) => r.body as Record<string, unknown>);
    // the model's audio settings win over the call's
    expect(bodies[0]).toMatchObject({
      audio: voice,
      modalities: ["text", "audio"],
      prompt_cache_retention: "in_memory",
    });
    expect(bodies[1]).toMatchObject({ prompt_cache_retention: "in_memory", prompt_cache_options: { a: 1 } });
    expect(bodies[2]).toMatchObject({ audio: voice, modalities: ["text", "audio"] });
  });
});
