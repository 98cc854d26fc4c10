import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AIMessage, type AIMessageChunk, AIMessageChunk as ChunkClass } from "../../../messages/index.js";
import { AbortError, type CallbackHandler } from "../../../shared/index.js";
import { tool } from "../../../tools/index.js";
import { FixtureServer, openAIEvents } from "../../__tests__/fixture-server.js";
import { ChatOpenAI, type ChatOpenAIFields } from "./chat-openai.js";

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
});

function model(fields: ChatOpenAIFields = {}): ChatOpenAI {
  return new ChatOpenAI({
    model: "gpt-4.1-mini",
    apiKey: "sk-test",
    configuration: { baseURL: `${server.url}/v1` },
    ...fields,
  });
}

/** A Chat Completions stream chunk with one choice. */
function chunk(delta: Record<string, unknown>, finish: string | null = null) {
  return {
    id: "chatcmpl-stream",
    object: "chat.completion.chunk",
    created: 1,
    model: "gpt-4.1-mini-2025-04-14",
    system_fingerprint: "fp_s",
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

const usageChunk = {
  id: "chatcmpl-stream",
  object: "chat.completion.chunk",
  created: 1,
  model: "gpt-4.1-mini-2025-04-14",
  choices: [],
  usage: { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 },
};

const textStream = openAIEvents([
  chunk({ role: "assistant", content: "" }),
  chunk({ content: "Hello" }),
  chunk({ content: ", wor" }),
  chunk({ content: "ld!" }),
  chunk({}, "stop"),
  usageChunk,
]);

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

describe("ChatOpenAI streaming over SSE", () => {
  it("streams text chunks that share the response id and join into the whole answer", async () => {
    server.reply({ kind: "sse", events: textStream });
    const chunks = await collect(await model().stream("Say hello"));
    expect(server.requests[0]?.body).toEqual({
      model: "gpt-4.1-mini",
      messages: [{ role: "user", content: "Say hello" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    // As @langchain/openai 1.6.0 streams it: a chunk per event (the opening role delta and the
    // finish_reason one included), then the usage on a chunk of its own, without the id.
    expect(chunks.map((c) => c.content)).toEqual(["", "Hello", ", wor", "ld!", "", ""]);
    expect(chunks.map((c) => c.id)).toEqual([...Array(5).fill("chatcmpl-stream"), undefined]);
    expect(chunks[1]?.response_metadata).toEqual({
      prompt: 0,
      completion: 0,
      model_provider: "openai",
      usage: {},
    });
    expect(chunks.at(-1)?.usage_metadata).toEqual({
      input_tokens: 11,
      output_tokens: 4,
      total_tokens: 15,
      input_token_details: {},
      output_token_details: {},
    });
    expect(chunks.every((c) => c instanceof ChunkClass)).toBe(true);
    const whole = join(chunks);
    expect(whole.content).toBe("Hello, world!");
    expect(whole.usage_metadata).toEqual({
      input_tokens: 11,
      output_tokens: 4,
      total_tokens: 15,
      input_token_details: {},
      output_token_details: {},
    });
    // @langchain/openai 1.6.0's joined metadata for the same stream.
    expect(whole.response_metadata).toEqual({
      prompt: 0,
      completion: 0,
      model_provider: "openai",
      usage: { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 },
      finish_reason: "stop",
      system_fingerprint: "fp_s",
      model_name: "gpt-4.1-mini-2025-04-14",
    });
  });

  it("streaming: false makes stream() send one non-streaming request, as @langchain/openai does", async () => {
    server.reply({
      kind: "json",
      body: {
        id: "chatcmpl-whole",
        object: "chat.completion",
        created: 1,
        model: "gpt-4.1-mini-2025-04-14",
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "Hello" } }],
      },
    });
    const chunks = await collect(await model({ streaming: false }).stream("Say hello"));
    expect(server.requests[0]?.body).toEqual({
      model: "gpt-4.1-mini",
      messages: [{ role: "user", content: "Say hello" }],
      stream: false,
    });
    expect(chunks.map((c) => [c.content, c.id])).toEqual([["Hello", "chatcmpl-whole"]]);
  });

  it("merges streamed tool-call deltas by index, including parallel interleaved calls", async () => {
    server.reply({
      kind: "sse",
      events: openAIEvents([
        chunk({ role: "assistant", content: null }),
        chunk({
          tool_calls: [
            { index: 0, id: "call_p", type: "function", function: { name: "get_weather", arguments: "" } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
        chunk({
          tool_calls: [
            {
              index: 1,
              id: "call_r",
              type: "function",
              function: { name: "get_weather", arguments: '{"city"' },
            },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: ':"Rome"}' } }] }),
        chunk({}, "tool_calls"),
        usageChunk,
      ]),
    });
    const chunks = await collect(await model().bindTools([getWeather]).stream("Paris and Rome?"));
    const whole = join(chunks);
    expect(whole.tool_calls).toEqual([
      { name: "get_weather", args: { city: "Paris" }, id: "call_p", type: "tool_call" },
      { name: "get_weather", args: { city: "Rome" }, id: "call_r", type: "tool_call" },
    ]);
    expect(whole.invalid_tool_calls).toEqual([]);
    expect(whole.response_metadata.finish_reason).toBe("tool_calls");
    expect(chunks.some((c) => c.tool_call_chunks.some((f) => f.args === '{"ci'))).toBe(true);
  });

  it("yields one chunk per server event, however many parts the event has (as @langchain/openai does)", async () => {
    // compatible servers send a call's name with its arguments, several calls in one delta, or
    // the last text with the finish_reason; expected chunks: @langchain/openai 1.6.0's
    const call = (index: number, id: string, name: string, args: string) => ({
      index,
      id,
      type: "function",
      function: { name, arguments: args },
    });
    server.reply({
      kind: "sse",
      events: openAIEvents([
        chunk({ role: "assistant", content: "Hi", reasoning_content: "hm" }),
        chunk({ content: "!", tool_calls: [call(0, "call_a", "get_weather", '{"city": "Pa')] }),
        chunk({
          tool_calls: [
            { index: 0, function: { arguments: 'ris"}' } },
            call(1, "call_b", "get_weather", "{}"),
          ],
        }),
        chunk({ content: "" }, "tool_calls"),
        usageChunk,
      ]),
    });
    const chunks = await collect(await model().bindTools([getWeather]).stream("Paris?"));
    expect(chunks.map((c) => [c.content, c.additional_kwargs, c.tool_call_chunks])).toEqual([
      ["Hi", { reasoning_content: "hm" }, []],
      [
        "!",
        {},
        [{ name: "get_weather", args: '{"city": "Pa', id: "call_a", index: 0, type: "tool_call_chunk" }],
      ],
      [
        "",
        {},
        [
          { args: 'ris"}', index: 0, type: "tool_call_chunk" },
          { name: "get_weather", args: "{}", id: "call_b", index: 1, type: "tool_call_chunk" },
        ],
      ],
      ["", {}, []],
      ["", {}, []],
    ]);
    expect(chunks.map((c) => c.response_metadata.finish_reason)).toEqual([
      undefined,
      undefined,
      undefined,
      "tool_calls",
      undefined,
    ]);
    expect(chunks.at(-1)?.usage_metadata?.total_tokens).toBe(15);

    server.reply({
      kind: "sse",
      events: openAIEvents([
        chunk({ role: "assistant", content: "" }),
        chunk({ content: "Done" }, "stop"),
        usageChunk,
      ]),
    });
    const finishing = await collect(await model().stream("?"));
    expect(finishing.map((c) => [c.content, c.response_metadata.finish_reason])).toEqual([
      ["", undefined],
      ["Done", "stop"],
      ["", undefined],
    ]);
  });

  it("with n above 1, streams the events after one choice has finished as they come", async () => {
    const event = (index: number, delta: Record<string, unknown>, finish: string | null = null) => ({
      ...chunk(delta, finish),
      choices: [{ index, delta, finish_reason: finish }],
    });
    server.reply({
      kind: "sse",
      events: openAIEvents([
        event(0, { role: "assistant", content: "" }),
        event(1, { role: "assistant", content: "" }),
        event(0, { content: "A" }),
        event(1, { content: "X" }),
        event(0, { content: "B" }, "stop"),
        event(1, { content: "Y" }),
        event(1, {}, "stop"),
      ]),
    });
    const chunks = await collect(await model({ n: 2 }).stream("?"));
    // @langchain/openai 1.6.0 yields the same chunks (its "B" one carries the first choice's finish)
    expect(chunks.map((c) => c.content)).toEqual(["", "", "A", "X", "B", "Y", ""]);
    expect(join(chunks).content).toBe("AXBY");
  });

  it("keeps malformed streamed arguments as an invalid tool call without failing", async () => {
    server.reply({
      kind: "sse",
      events: openAIEvents([
        chunk({
          tool_calls: [
            {
              index: 0,
              id: "call_x",
              type: "function",
              function: { name: "get_weather", arguments: "{oops" },
            },
          ],
        }),
        chunk({}, "tool_calls"),
      ]),
    });
    const reply = await model({ streaming: true }).bindTools([getWeather]).invoke("?");
    expect(server.requests[0]?.body).toMatchObject({ stream: true });
    expect(reply).toBeInstanceOf(AIMessage);
    expect(reply.tool_calls).toEqual([]);
    expect(reply.invalid_tool_calls).toMatchObject([{ name: "get_weather", id: "call_x", args: "{oops" }]);
  });

  it("streams a refusal into additional_kwargs.refusal", async () => {
    server.reply({
      kind: "sse",
      events: openAIEvents([
        chunk({ refusal: "I can't " }),
        chunk({ refusal: "do that." }),
        chunk({}, "stop"),
      ]),
    });
    const whole = join(await collect(await model().stream("bad")));
    expect(whole.additional_kwargs.refusal).toBe("I can't do that.");
    expect(whole.content).toBe("");
  });

  it("keeps reasoning_content from OpenAI-compatible servers in additional_kwargs", async () => {
    server.reply({
      kind: "sse",
      events: openAIEvents([
        chunk({ reasoning_content: "Think" }),
        chunk({ reasoning_content: "ing." }),
        chunk({ content: "42" }),
        chunk({}, "stop"),
      ]),
    });
    const whole = join(await collect(await model().stream("?")));
    expect(whole.additional_kwargs.reasoning_content).toBe("Thinking.");
    expect(whole.content).toBe("42");
  });

  it("streams audio and legacy function_call pieces in additional_kwargs, joined whole", async () => {
    server.reply({
      kind: "sse",
      events: openAIEvents([
        chunk({ role: "assistant", audio: { id: "au", transcript: "He" } }),
        chunk({ audio: { transcript: "llo", data: "AAA" } }),
        chunk({}, "stop"),
      ]),
    });
    server.reply({
      kind: "sse",
      events: openAIEvents([
        chunk({ role: "assistant", function_call: { name: "f", arguments: "" } }),
        chunk({ function_call: { arguments: "{}" } }),
        chunk({}, "function_call"),
      ]),
    });
    const spoken = await collect(await model().stream("?"));
    expect(spoken[0]?.additional_kwargs.audio).toEqual({ id: "au", transcript: "He", index: 0 });
    expect(join(spoken).additional_kwargs.audio).toEqual({
      id: "au",
      transcript: "Hello",
      data: "AAA",
      index: 0,
    });
    const legacy = join(await collect(await model().stream("?")));
    expect(legacy.additional_kwargs.function_call).toEqual({ name: "f", arguments: "{}" });
  });

  it("yields no finish chunk for a stream that no event finished, as @langchain/openai does", async () => {
    server.reply({
      kind: "sse",
      events: openAIEvents([chunk({ role: "assistant", content: "Hello" }), usageChunk]),
    });
    const chunks = await collect(await model().stream("?"));
    expect(chunks.map((c) => [c.content, c.usage_metadata?.total_tokens])).toEqual([
      ["Hello", undefined],
      ["", 15],
    ]);
    expect(join(chunks).response_metadata.finish_reason).toBeUndefined();
  });

  it("takes the fingerprint and service tier of the event that finished the answer, as @langchain/openai does", async () => {
    server.reply({
      kind: "sse",
      events: openAIEvents([
        { ...chunk({ role: "assistant", content: "Hi" }), system_fingerprint: null },
        { ...chunk({}, "stop"), system_fingerprint: "fp_abc123", service_tier: "default" },
        // the usage event after it says null for both
        { ...usageChunk, system_fingerprint: null, service_tier: null },
      ]),
    });
    const whole = join(await collect(await model().stream("?")));
    expect(whole.response_metadata.system_fingerprint).toBe("fp_abc123");
    expect(whole.response_metadata.service_tier).toBe("default");
  });
});

describe("ChatOpenAI callbacks", () => {
  function recorder(prefersStreaming: boolean) {
    const events: Array<[string, ...unknown[]]> = [];
    const handler: CallbackHandler = {
      lc_prefer_streaming: prefersStreaming,
      handleChatModelStart: (llm, messages, runId, _parent, _extra, tags, metadata) =>
        events.push(["start", llm.id.at(-1), messages[0]?.length, runId, tags, metadata]),
      handleLLMNewToken: (token, _idx, runId, _parent, _tags, fields) =>
        events.push(["token", token, runId, fields?.chunk?.message]),
      handleLLMEnd: (output, runId) => events.push(["end", output.generations[0]?.[0]?.message, runId]),
      handleLLMError: (error) => events.push(["error", error]),
    };
    return { events, handler };
  }

  it("lc_prefer_streaming makes invoke stream, report every chunk, and return the joined AIMessage", async () => {
    server.reply({ kind: "sse", events: textStream });
    const { events, handler } = recorder(true);
    const reply = await model().invoke("Say hello", {
      callbacks: [handler],
      tags: ["unit"],
      metadata: { langgraph_node: "model_request" },
      runId: "run-123",
    });
    expect(server.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(reply).toBeInstanceOf(AIMessage);
    expect(reply.content).toBe("Hello, world!");
    expect(reply.id).toBe("chatcmpl-stream");
    const [start, ...rest] = events;
    expect(start).toEqual([
      "start",
      "ChatOpenAI",
      1,
      "run-123",
      ["unit"],
      expect.objectContaining({
        langgraph_node: "model_request",
        ls_provider: "openai",
        ls_model_name: "gpt-4.1-mini",
      }),
    ]);
    const tokens = rest.filter((e) => e[0] === "token");
    expect(tokens.map((e) => e[1])).toEqual(["", "Hello", ", wor", "ld!", "", ""]);
    expect(tokens.every((e) => e[2] === "run-123" && e[3] instanceof ChunkClass)).toBe(true);
    const [kind, final] = rest.at(-1) ?? [];
    expect(kind).toBe("end");
    expect(final).toBeInstanceOf(AIMessage);
    expect((final as AIMessage).content).toBe("Hello, world!");
  });

  it("without lc_prefer_streaming, invoke makes one non-streaming request and reports start and end", async () => {
    server.reply({
      kind: "json",
      body: {
        id: "chatcmpl-1",
        model: "m",
        choices: [{ index: 0, finish_reason: "stop", message: { content: "Hi" } }],
      },
    });
    const { events, handler } = recorder(false);
    await model({ callbacks: [handler] }).invoke("Hi");
    expect(server.requests[0]?.body).toMatchObject({ stream: false });
    expect(events.map((e) => e[0])).toEqual(["start", "end"]);
  });

  it("reports a failed call to handleLLMError", async () => {
    server.reply({ kind: "json", status: 400, body: { error: { message: "bad request" } } });
    const { events, handler } = recorder(false);
    await expect(model().invoke("Hi", { callbacks: [handler] })).rejects.toThrow(/bad request/);
    expect(events.map((e) => e[0])).toEqual(["start", "error"]);
  });
});

describe("ChatOpenAI abort", () => {
  it("aborting mid-stream rejects with AbortError and closes the connection", async () => {
    server.reply({
      kind: "sse",
      events: [{ data: chunk({ content: "Hel" }) }, { data: chunk({ content: "lo" }) }],
      hang: true,
    });
    const controller = new AbortController();
    const stream = await model({ maxRetries: 3 }).stream("Say hello", { signal: controller.signal });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const c of stream) {
          seen.push(c.text);
          if (seen.length === 2) controller.abort();
        }
      })(),
    ).rejects.toBeInstanceOf(AbortError);
    expect(seen).toEqual(["Hel", "lo"]);
    await server.waitForDisconnects(1);
    expect(server.requests).toHaveLength(1);
  });

  it("leaving a stream early (break) closes the connection without an error", async () => {
    server.reply({
      kind: "sse",
      events: [{ data: chunk({ content: "Hel" }) }, { data: chunk({ content: "lo" }) }],
      hang: true,
    });
    const stream = await model().stream("Say hello");
    const seen: string[] = [];
    for await (const c of stream) {
      seen.push(c.text);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual(["Hel", "lo"]);
    await server.waitForDisconnects(1);
    expect(server.requests).toHaveLength(1);
  });
});

describe("ChatOpenAI streamed logprobs", () => {
  const logprobs = (token: string) => ({
    content: [{ token, logprob: -0.5, bytes: [1], top_logprobs: [] }],
    refusal: null,
  });
  const withLogprobs = (delta: Record<string, unknown>, finish: string | null, lp: unknown) => {
    const event = chunk(delta, finish);
    return { ...event, choices: [{ ...event.choices[0], logprobs: lp }] };
  };
  const stream = openAIEvents([
    withLogprobs({ role: "assistant", content: "" }, null, null),
    withLogprobs({ content: "Hel" }, null, logprobs("Hel")),
    withLogprobs({ content: "lo" }, null, logprobs("lo")),
    withLogprobs({}, "stop", null),
    usageChunk,
  ]);

  it("gives every chunk its event's logprobs when the model asks for them, as @langchain/openai does", async () => {
    server.reply({ kind: "sse", events: stream });
    const chunks = await collect(await model({ logprobs: true }).stream("hi"));
    expect(server.requests[0]?.body).toMatchObject({ logprobs: true });
    expect(chunks.map((c) => c.response_metadata.logprobs)).toEqual([
      null,
      logprobs("Hel"),
      logprobs("lo"),
      null,
      undefined,
    ]);
    expect("logprobs" in (chunks[4]?.response_metadata ?? {})).toBe(false);
    expect(join(chunks).response_metadata.logprobs).toEqual({
      content: [...logprobs("Hel").content, ...logprobs("lo").content],
      refusal: null,
    });
  });

  it("leaves logprobs off the chunks when the model does not ask for them", async () => {
    server.reply({ kind: "sse", events: stream });
    const chunks = await collect(await model().stream("hi"));
    expect(chunks.every((c) => !("logprobs" in c.response_metadata))).toBe(true);
  });
});

describe("ChatOpenAI generation info (as @langchain/openai reports it)", () => {
  const events = openAIEvents([
    chunk({ role: "assistant", content: "" }),
    chunk({ content: "Hel" }),
    chunk({}, "stop"),
    usageChunk,
  ]);

  it("keeps prompt, completion and the finish fields off the chunks a token handler sees and off the answer", async () => {
    server.reply({ kind: "sse", events });
    const seen: Record<string, unknown>[] = [];
    const handler: CallbackHandler = {
      lc_prefer_streaming: true,
      handleLLMNewToken: (_token, _idx, _runId, _parent, _tags, fields) => {
        const message = (fields?.chunk as { message?: AIMessageChunk } | undefined)?.message;
        if (message !== undefined) seen.push({ ...message.response_metadata });
      },
    };
    const reply = await model().invoke("hi", { callbacks: [handler] });
    // the raw usage copy is on the usage chunk, as @langchain/openai 1.6.0 puts it
    expect(seen).toEqual([
      { model_provider: "openai", usage: {} },
      { model_provider: "openai", usage: {} },
      { model_provider: "openai", usage: {} },
      { usage: usageChunk.usage },
    ]);
    expect(reply.response_metadata).toEqual({ model_provider: "openai", usage: usageChunk.usage });
  });

  it("merges them into what stream() yields and what a streaming: true invoke answers", async () => {
    server.reply({ kind: "sse", events });
    const chunks = await collect(await model().stream("hi"));
    expect(chunks[2]?.response_metadata).toMatchObject({
      prompt: 0,
      completion: 0,
      finish_reason: "stop",
      model_name: "gpt-4.1-mini-2025-04-14",
      system_fingerprint: "fp_s",
    });
    // in @langchain/openai 1.6.0's order, and the raw usage on the usage chunk
    expect(chunks.map((c) => JSON.stringify(c.response_metadata))).toEqual([
      '{"prompt":0,"completion":0,"model_provider":"openai","usage":{}}',
      '{"prompt":0,"completion":0,"model_provider":"openai","usage":{}}',
      '{"prompt":0,"completion":0,"finish_reason":"stop","system_fingerprint":"fp_s","model_name":"gpt-4.1-mini-2025-04-14","model_provider":"openai","usage":{}}',
      '{"usage":{"prompt_tokens":11,"completion_tokens":4,"total_tokens":15}}',
    ]);
    server.reply({ kind: "sse", events });
    const reply = await model({ streaming: true }).invoke("hi");
    expect(reply.response_metadata).toMatchObject({
      prompt: 0,
      completion: 0,
      finish_reason: "stop",
      model_name: "gpt-4.1-mini-2025-04-14",
      system_fingerprint: "fp_s",
      model_provider: "openai",
    });
  });
});

describe("streams sharing a signal", () => {
  it("add one listener to it however many run at once (a step's parallel model calls)", async () => {
    server.reply(...Array.from({ length: 12 }, () => ({ kind: "sse" as const, events: textStream })));
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, "addEventListener");
    const texts = await Promise.all(
      Array.from({ length: 12 }, async () => {
        let text = "";
        for await (const part of await model().stream("Say hello", { signal: controller.signal }))
          text += String(part.content);
        return text;
      }),
    );
    expect(texts).toEqual(new Array(12).fill("Hello, world!"));
    expect(add.mock.calls.length).toBeLessThanOrEqual(1);
  });
});

describe("the usage chunk of a stream, as @langchain/openai writes it", () => {
  const streamed = async (usage: Record<string, unknown>) => {
    server.reply({
      kind: "sse",
      events: openAIEvents([
        chunk({ role: "assistant", content: "Hi" }),
        chunk({}, "stop"),
        { ...usageChunk, usage },
      ]),
    });
    const chunks: AIMessageChunk[] = [];
    for await (const piece of await model().stream("hi")) chunks.push(piece);
    return chunks.map((piece) => piece.usage_metadata).filter((usage) => usage !== undefined);
  };

  it("counts the server left out are undefined (not 0, not a computed total); a total alone is kept", async () => {
    const details = {
      input_token_details: { audio: undefined, cache_read: undefined },
      output_token_details: { audio: undefined, reasoning: undefined },
    };
    expect(await streamed({ prompt_tokens: 5 })).toStrictEqual([
      { input_tokens: 5, output_tokens: undefined, total_tokens: undefined, ...details },
    ]);
    expect(await streamed({ total_tokens: 9 })).toStrictEqual([
      { input_tokens: undefined, output_tokens: undefined, total_tokens: 9, ...details },
    ]);
    expect(
      await streamed({
        prompt_tokens: 5,
        completion_tokens: 2,
        total_tokens: 7,
        prompt_tokens_details: { cached_tokens: 1 },
      }),
    ).toStrictEqual([
      {
        input_tokens: 5,
        output_tokens: 2,
        total_tokens: 7,
        input_token_details: { audio: undefined, cache_read: 1 },
        output_token_details: { audio: undefined, reasoning: undefined },
      },
    ]);
  });
});
