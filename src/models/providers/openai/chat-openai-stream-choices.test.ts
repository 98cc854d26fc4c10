import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AIMessageChunk } from "../../../messages/index.js";
import type { CallbackHandler } from "../../../shared/index.js";
import { FixtureServer, openAIEvents } from "../../__tests__/fixture-server.js";
import { ChatOpenAI, type ChatOpenAIFields } from "./chat-openai.js";

// Streamed answers with several choices (`n` above 1) and the `estimatedTokenUsage` of a
// `streaming: true` invoke. Expected values are what @langchain/openai 1.6.0 (with
// @langchain/core 1.4.0, its tiktoken download failing, so counting ceil(length / 4) per text)
// gives for the same server events.

let server: FixtureServer;
beforeEach(async () => {
  server = await FixtureServer.start();
});
afterEach(async () => {
  await server.close();
});

const MODEL = "gpt-4.1-mini-2025-04-14";
const model = (fields: ChatOpenAIFields = {}) =>
  new ChatOpenAI({
    model: "gpt-4.1-mini",
    apiKey: "sk-test",
    configuration: { baseURL: `${server.url}/v1` },
    ...fields,
  });
const event = (index: number, delta: object, finish: string | null = null) => ({
  id: "chatcmpl-s",
  object: "chat.completion.chunk",
  created: 1,
  model: MODEL,
  system_fingerprint: "fp_s",
  choices: [{ index, delta, finish_reason: finish }],
});
const usage = { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 };
const usageEvent = {
  id: "chatcmpl-s",
  object: "chat.completion.chunk",
  created: 1,
  model: MODEL,
  choices: [],
  usage,
};
const twoChoices = () =>
  openAIEvents([
    event(0, { role: "assistant", content: "" }),
    event(1, { role: "assistant", content: "" }),
    event(0, { content: "A" }),
    event(1, { content: "X" }),
    event(0, { content: "B" }, "stop"),
    event(1, { content: "Y" }),
    event(1, {}, "length"),
    usageEvent,
  ]);
const finished = (index: number, reason: string) => ({
  prompt: 0,
  completion: index,
  finish_reason: reason,
  system_fingerprint: "fp_s",
  model_name: MODEL,
});

interface Token {
  token: string;
  idx: unknown;
  info: unknown;
}
interface Ended {
  generations: { text: string; generationInfo?: unknown; message: AIMessageChunk }[][];
  llmOutput?: unknown;
}
function recorder(): { handler: CallbackHandler; tokens: Token[]; ended: Ended[] } {
  const tokens: Token[] = [];
  const ended: Ended[] = [];
  const handler: CallbackHandler = {
    handleLLMNewToken: (token: string, idx: unknown, ...rest: unknown[]) => {
      const fields = rest[3] as { chunk?: { generationInfo?: unknown } } | undefined;
      tokens.push({ token, idx, info: fields?.chunk?.generationInfo });
    },
    handleLLMEnd: (output: unknown) => {
      ended.push(output as Ended);
    },
  };
  return { handler, tokens, ended };
}

describe("ChatOpenAI streams with several choices", () => {
  it("stream() gives each chunk its choice's index and each choice its finish chunk", async () => {
    server.reply({ kind: "sse", events: twoChoices() });
    const { handler, tokens } = recorder();
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model({ n: 2 }).stream("?", { callbacks: [handler] })) chunks.push(chunk);
    expect(
      chunks.map((c) => [c.content, c.response_metadata.completion, c.response_metadata.finish_reason]),
    ).toEqual([
      ["", 0, undefined],
      ["", 1, undefined],
      ["A", 0, undefined],
      ["X", 1, undefined],
      ["B", 0, "stop"],
      ["Y", 1, undefined],
      ["", 1, "length"],
      ["", undefined, undefined],
    ]);
    expect(chunks[4]?.response_metadata).toEqual({
      ...finished(0, "stop"),
      model_provider: "openai",
      usage: {},
    });
    // joined as LangChain.js joins them: numbers summed, strings concatenated
    const joined = chunks.slice(1).reduce((a, c) => a.concat(c), chunks[0] as AIMessageChunk);
    expect(joined.content).toBe("AXBY");
    expect(joined.response_metadata).toMatchObject({ completion: 4, finish_reason: "stoplength" });
    expect(tokens.map((t) => [t.token, t.idx])).toEqual([
      ["", { prompt: 0, completion: 0 }],
      ["", { prompt: 0, completion: 1 }],
      ["A", { prompt: 0, completion: 0 }],
      ["X", { prompt: 0, completion: 1 }],
      ["B", { prompt: 0, completion: 0 }],
      ["Y", { prompt: 0, completion: 1 }],
      ["", { prompt: 0, completion: 1 }],
      ["", { prompt: 0, completion: 0 }],
    ]);
    expect(tokens[6]?.info).toEqual(finished(1, "length"));
    expect(tokens[7]?.info).toBeUndefined();
  });

  it("keeps each choice's tool calls apart", async () => {
    const call = (id: string | undefined, args: string) => ({
      tool_calls: [
        {
          index: 0,
          ...(id ? { id, type: "function" } : {}),
          function: { ...(id ? { name: "get" } : {}), arguments: args },
        },
      ],
    });
    server.reply({
      kind: "sse",
      events: openAIEvents([
        event(0, { role: "assistant", content: null, ...call("call_a", "") }),
        event(1, { role: "assistant", content: null, ...call("call_b", "") }),
        event(0, call(undefined, '{"x":1}')),
        event(1, call(undefined, '{"x":2}')),
        event(0, {}, "tool_calls"),
        event(1, {}, "tool_calls"),
        usageEvent,
      ]),
    });
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model({ n: 2 }).stream("?")) chunks.push(chunk);
    expect(chunks.map((c) => [c.response_metadata.completion, c.tool_call_chunks])).toEqual([
      [0, [{ name: "get", args: "", id: "call_a", index: 0, type: "tool_call_chunk" }]],
      [1, [{ name: "get", args: "", id: "call_b", index: 0, type: "tool_call_chunk" }]],
      [0, [{ args: '{"x":1}', index: 0, type: "tool_call_chunk" }]],
      [1, [{ args: '{"x":2}', index: 0, type: "tool_call_chunk" }]],
      [0, []],
      [1, []],
      [undefined, []],
    ]);
  });

  it("a streaming invoke answers the first choice and reports each choice as a generation", async () => {
    server.reply({ kind: "sse", events: twoChoices() });
    const { handler, tokens, ended } = recorder();
    const answer = await model({ n: 2, streaming: true }).invoke("?", { callbacks: [handler] });
    expect(answer.content).toBe("AB");
    expect(answer.usage_metadata).toMatchObject({ input_tokens: 11, output_tokens: 4, total_tokens: 15 });
    // with two generations, llmOutput stays out of the answer's metadata
    expect(answer.response_metadata).toEqual({
      ...finished(0, "stop"),
      model_provider: "openai",
      usage,
    });
    expect(tokens.map((t) => (t.idx as { completion: number }).completion)).toEqual([0, 1, 0, 1, 0, 1, 1, 0]);
    const [end] = ended;
    expect(end?.generations[0]?.map((g) => [g.text, g.message.content, g.generationInfo])).toEqual([
      ["AB", "AB", finished(0, "stop")],
      ["XY", "XY", finished(1, "length")],
    ]);
    // each chunk's info merged into its metadata before the choice's chunks are joined (so its
    // four `completion: 1` add up), as LangChain.js does
    expect(end?.generations[0]?.[1]?.message.response_metadata).toEqual({
      ...finished(1, "length"),
      completion: 4,
      model_provider: "openai",
      usage: {},
    });
    // "?" is 8 prompt tokens (3 + "?" + "user" + 3), "AB" and "XY" one each
    expect(end?.llmOutput).toEqual({
      estimatedTokenUsage: { promptTokens: 8, completionTokens: 2, totalTokens: 10 },
    });
  });
});

describe("ChatOpenAI streaming: true estimatedTokenUsage", () => {
  it("is the llmOutput and, with one generation, the first key of the answer's metadata", async () => {
    server.reply({
      kind: "sse",
      events: openAIEvents([
        event(0, { role: "assistant", content: "" }),
        event(0, { content: "Hello there" }),
        event(0, {}, "stop"),
        usageEvent,
      ]),
    });
    const { handler, ended } = recorder();
    const answer = await model({ streaming: true }).invoke(
      [
        { role: "system", content: "You are terse." },
        { role: "user", content: "What is up, my friend?" },
      ],
      { callbacks: [handler] },
    );
    // 3 + (3 + "You are terse." 4 + "system" 2) + (3 + "What is up, my friend?" 6 + "user" 1);
    // "Hello there" 3
    const estimatedTokenUsage = { promptTokens: 22, completionTokens: 3, totalTokens: 25 };
    expect(Object.keys(answer.response_metadata)).toEqual([
      "estimatedTokenUsage",
      "prompt",
      "completion",
      "finish_reason",
      "system_fingerprint",
      "model_name",
      "model_provider",
      "usage",
    ]);
    expect(answer.response_metadata.estimatedTokenUsage).toEqual(estimatedTokenUsage);
    expect(ended[0]?.llmOutput).toEqual({ estimatedTokenUsage });
    // the generation as the model returned it: the joined chunk
    expect(ended[0]?.generations[0]?.[0]?.message.constructor.name).toBe("AIMessageChunk");
  });
});

describe("ChatOpenAI streaming: true invoke, aborted", () => {
  it("fails with the signal's reason's message, as other streamed calls do", async () => {
    server.reply({
      kind: "sse",
      events: openAIEvents([event(0, { content: "A" }), event(0, { content: "B" }), event(0, {}, "stop")]),
      delayMs: 100,
    });
    await expect(
      model({ streaming: true, maxRetries: 0 }).invoke("?", { timeout: 150 }),
    ).rejects.toMatchObject({
      name: "AbortError",
      message: "The operation was aborted due to timeout",
    });
  });
});
