import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HumanMessage } from "../../../messages/index.js";
import type { CallbackHandler } from "../../../shared/index.js";
import { FixtureServer } from "../../__tests__/fixture-server.js";
import { ChatOpenAI } from "./chat-openai.js";

// What a non-streamed ChatOpenAI call reports as generations: the expected values are what
// @langchain/openai 1.6.0 (with @langchain/core 1.4.0) gives for the same server answers.

let server: FixtureServer;
beforeEach(async () => {
  server = await FixtureServer.start();
});
afterEach(async () => {
  await server.close();
});

const model = (fields: { n?: number } = {}) =>
  new ChatOpenAI({
    model: "gpt-4.1-mini",
    apiKey: "sk-test",
    configuration: { baseURL: `${server.url}/v1` },
    ...fields,
  });

const usage = { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 };
const tokenUsage = { promptTokens: 11, completionTokens: 4, totalTokens: 15 };
const usageMetadata = {
  output_tokens: 4,
  input_tokens: 11,
  total_tokens: 15,
  input_token_details: { audio: undefined, cache_read: undefined },
  output_token_details: { audio: undefined, reasoning: undefined },
};
const choice = (index: number, content: string, finish: string) => ({
  index,
  message: { role: "assistant", content },
  finish_reason: finish,
  logprobs: null,
});
const answer = (choices: unknown[]) => ({
  id: "chatcmpl-j",
  object: "chat.completion",
  created: 1,
  model: "gpt-4.1-mini-2025-04-14",
  system_fingerprint: "fp_j",
  choices,
  usage,
});
/** A candidate's `response_metadata` without the keys `generationInfo` and `llmOutput` hold. */
const metadata = {
  model_provider: "openai",
  model_name: "gpt-4.1-mini-2025-04-14",
  usage,
  system_fingerprint: "fp_j",
};

interface Ended {
  generations: {
    text: string;
    generationInfo?: unknown;
    message: { content: unknown; response_metadata: unknown };
  }[][];
  llmOutput?: unknown;
}
const shape = (output: Ended) => ({
  generations: output.generations.map((list) =>
    list.map((g) => ({
      text: g.text,
      generationInfo: g.generationInfo,
      content: g.message.content,
      response_metadata: g.message.response_metadata,
    })),
  ),
  llmOutput: output.llmOutput,
});

describe("ChatOpenAI generations (non-streamed)", () => {
  it("n = 2: a generation per choice for _generate and handleLLMEnd; invoke answers the first, without tokenUsage", async () => {
    const body = answer([choice(0, "AB", "stop"), choice(1, "XY", "length")]);
    server.reply({ kind: "json", body }, { kind: "json", body });
    const chat = model({ n: 2 });
    const result = await chat._generate([new HumanMessage("?")], {});
    expect(
      result.generations.map((g) => ({
        text: g.text,
        generationInfo: g.generationInfo,
        content: g.message.content,
        id: g.message.id,
        response_metadata: g.message.response_metadata,
        usage_metadata: (g.message as { usage_metadata?: unknown }).usage_metadata,
      })),
    ).toStrictEqual([
      {
        text: "AB",
        generationInfo: { finish_reason: "stop" },
        content: "AB",
        id: "chatcmpl-j",
        response_metadata: metadata,
        usage_metadata: usageMetadata,
      },
      {
        text: "XY",
        generationInfo: { finish_reason: "length" },
        content: "XY",
        id: "chatcmpl-j",
        response_metadata: metadata,
        usage_metadata: usageMetadata,
      },
    ]);
    expect(result.llmOutput).toStrictEqual({ tokenUsage });

    let ended: Ended | undefined;
    const handler: CallbackHandler = {
      handleLLMEnd: (output) => {
        ended = output as unknown as Ended;
      },
    };
    const reply = await chat.invoke("?", { callbacks: [handler] });
    expect(reply.content).toBe("AB");
    expect(reply.response_metadata).toStrictEqual({ finish_reason: "stop", ...metadata });
    expect(reply.usage_metadata).toStrictEqual(usageMetadata);
    expect(shape(ended as Ended)).toStrictEqual({
      generations: [
        [
          {
            text: "AB",
            generationInfo: { finish_reason: "stop" },
            content: "AB",
            response_metadata: { finish_reason: "stop", ...metadata },
          },
          {
            text: "XY",
            generationInfo: { finish_reason: "length" },
            content: "XY",
            response_metadata: { finish_reason: "length", ...metadata },
          },
        ],
      ],
      llmOutput: { tokenUsage },
    });
  });

  it("n = 1: handleLLMEnd gets the finish reason as generationInfo and the usage as llmOutput; invoke merges both", async () => {
    const body = answer([choice(0, "AB", "stop")]);
    server.reply({ kind: "json", body }, { kind: "json", body });
    const chat = model();
    const result = await chat._generate([new HumanMessage("?")], {});
    expect(result.generations).toHaveLength(1);
    expect(result.generations[0]?.generationInfo).toStrictEqual({ finish_reason: "stop" });
    expect(result.generations[0]?.message.response_metadata).toStrictEqual(metadata);
    expect(result.llmOutput).toStrictEqual({ tokenUsage });

    let ended: Ended | undefined;
    const reply = await chat.invoke("?", {
      callbacks: [
        {
          handleLLMEnd: (output) => {
            ended = output as unknown as Ended;
          },
        },
      ],
    });
    expect(reply.response_metadata).toStrictEqual({ tokenUsage, finish_reason: "stop", ...metadata });
    expect(Object.keys(reply.response_metadata)).toStrictEqual([
      "tokenUsage",
      "finish_reason",
      "model_provider",
      "model_name",
      "usage",
      "system_fingerprint",
    ]);
    expect(shape(ended as Ended)).toStrictEqual({
      generations: [
        [
          {
            text: "AB",
            generationInfo: { finish_reason: "stop" },
            content: "AB",
            response_metadata: { tokenUsage, finish_reason: "stop", ...metadata },
          },
        ],
      ],
      llmOutput: { tokenUsage },
    });
  });
});
