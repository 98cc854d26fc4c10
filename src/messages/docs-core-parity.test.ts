// Behaviours checked side by side against @langchain/core 1.4 while running its documentation's
// message samples; each case pins the value the reference produced.
import { describe, expect, it } from "vitest";
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  coerceMessageLikeToMessage,
  filterMessages,
  HumanMessage,
  mergeMessageRuns,
  SystemMessage,
  ToolMessage,
  trimMessages,
} from "./index.js";

const wordCount = (messages: BaseMessage[]): number =>
  messages.reduce((n, m) => n + (typeof m.content === "string" ? m.content.split(" ").length : 1) + 1, 0);

function chat(): BaseMessage[] {
  return [
    new SystemMessage({ content: "be terse and answer with a pun", id: "sys" }),
    new HumanMessage({ content: "why do cats purr so loudly", id: "u1" }),
    new AIMessage({ content: "they are running a purr-formance review of the household", id: "b1" }),
    new HumanMessage({ content: "and why do dogs chase cars", id: "u2" }),
    new AIMessage({ content: "they heard the tires were barking back", id: "b2" }),
    new HumanMessage({ content: "what do owls study", id: "u3" }),
  ];
}

const ids = (messages: BaseMessage[]): Array<string | undefined> => messages.map((m) => m.id);

describe("docs samples: coercion", () => {
  it("builds OpenAI-form tool calls with LangChain.js's key order", () => {
    const message = coerceMessageLikeToMessage({
      role: "assistant",
      content: "",
      tool_calls: [{ id: "call_9", type: "function", function: { name: "lookup", arguments: '{"k":2}' } }],
    });
    expect(AIMessage.isInstance(message)).toBe(true);
    const calls = (message as AIMessage).tool_calls ?? [];
    expect(JSON.stringify(calls)).toBe('[{"id":"call_9","args":{"k":2},"name":"lookup","type":"tool_call"}]');
  });
});

describe("docs samples: trimMessages", () => {
  it("keeps the system message and the latest human turn under a word budget", async () => {
    const kept = await trimMessages(chat(), {
      maxTokens: 14,
      strategy: "last",
      tokenCounter: wordCount,
      includeSystem: true,
      startOn: "human",
    });
    expect(ids(kept)).toEqual(["sys", "u3"]);
  });

  it("cuts from the front and ends on a human message", async () => {
    const kept = await trimMessages(chat(), {
      maxTokens: 20,
      strategy: "first",
      tokenCounter: wordCount,
      endOn: ["human"],
    });
    expect(ids(kept)).toEqual(["sys", "u1"]);
  });

  it("works as a reusable transformer when given only options", async () => {
    const trimmer = trimMessages({ maxTokens: 12, strategy: "last", tokenCounter: wordCount });
    expect(ids(await trimmer.invoke(chat()))).toEqual(["u3"]);
  });
});

describe("docs samples: filterMessages", () => {
  const named = (): BaseMessage[] => [
    new SystemMessage({ content: "rules", id: "1" }),
    new HumanMessage({ content: "sample q", id: "2", name: "demo_user" }),
    new AIMessage({ content: "sample a", id: "3", name: "demo_bot" }),
    new HumanMessage({ content: "real q", id: "4", name: "carol" }),
    new AIMessage({ content: "real a", id: "5", name: "dave" }),
  ];

  it("combines type classes with excluded ids", () => {
    expect(
      ids(filterMessages(named(), { includeTypes: [HumanMessage, AIMessage], excludeIds: ["3"] })),
    ).toEqual(["2", "4", "5"]);
  });

  it("keeps a message matching any include criterion", () => {
    expect(ids(filterMessages(named(), { includeIds: ["1"], includeNames: ["carol"] }))).toEqual(["1", "4"]);
  });

  it("drops named examples", () => {
    expect(ids(filterMessages(named(), { excludeNames: ["demo_user", "demo_bot"] }))).toEqual([
      "1",
      "4",
      "5",
    ]);
  });
});

describe("docs samples: mergeMessageRuns", () => {
  it("joins consecutive AI messages with their tool calls and leaves tool messages apart", () => {
    const merged = mergeMessageRuns([
      new AIMessage({
        content: "first",
        tool_calls: [{ name: "f", args: { a: 1 }, id: "c1", type: "tool_call" }],
      }),
      new AIMessage({ content: "", tool_calls: [{ name: "g", args: {}, id: "c2", type: "tool_call" }] }),
      new ToolMessage({ content: "x", tool_call_id: "c1" }),
      new ToolMessage({ content: "y", tool_call_id: "c2" }),
    ]);
    expect(merged.map((m) => m.getType())).toEqual(["ai", "tool", "tool"]);
    const ai = merged[0] as AIMessage;
    expect(ai.content).toBe("first\n");
    expect(ai.tool_calls?.map((c) => c.id)).toEqual(["c1", "c2"]);
  });

  it("merges usage and response metadata of a run", () => {
    const [only] = mergeMessageRuns([
      new AIMessage({
        content: "x",
        response_metadata: { a: 1 },
        usage_metadata: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
      }),
      new AIMessage({
        content: "y",
        response_metadata: { b: 2 },
        usage_metadata: { input_tokens: 2, output_tokens: 2, total_tokens: 4 },
      }),
    ]);
    expect(only?.content).toBe("x\ny");
    expect(only?.response_metadata).toEqual({ a: 1, b: 2 });
    expect((only as AIMessage).usage_metadata).toMatchObject({
      input_tokens: 3,
      output_tokens: 3,
      total_tokens: 6,
    });
  });
});

describe("docs samples: chunk concatenation", () => {
  it("assembles streamed argument fragments into tool calls and flags broken ones", () => {
    const joined = new AIMessageChunk({
      content: "",
      id: "resp",
      tool_call_chunks: [{ name: "forecast", args: "", id: "k1", index: 0, type: "tool_call_chunk" }],
    })
      .concat(
        new AIMessageChunk({
          content: "",
          tool_call_chunks: [{ args: '{"ci', index: 0, type: "tool_call_chunk" }],
        }),
      )
      .concat(
        new AIMessageChunk({
          content: "",
          tool_call_chunks: [
            { args: 'ty": "Oslo"}', index: 0, type: "tool_call_chunk" },
            { name: "other", args: "{oops", id: "k2", index: 1, type: "tool_call_chunk" },
          ],
        }),
      );
    expect(joined.id).toBe("resp");
    expect(joined.tool_calls).toEqual([
      { name: "forecast", args: { city: "Oslo" }, id: "k1", type: "tool_call" },
    ]);
    expect(joined.invalid_tool_calls).toEqual([
      { name: "other", args: "{oops", id: "k2", error: "Malformed args.", type: "invalid_tool_call" },
    ]);
  });

  it("adds token details and joins nested additional_kwargs strings", () => {
    const joined = new AIMessageChunk({
      content: "",
      additional_kwargs: { a: "p", n: { b: "1" } },
      usage_metadata: {
        input_tokens: 10,
        output_tokens: 0,
        total_tokens: 10,
        input_token_details: { cache_read: 4 },
      },
    }).concat(
      new AIMessageChunk({
        content: "",
        additional_kwargs: { a: "q", n: { b: "2" }, c: 1 },
        usage_metadata: {
          input_tokens: 0,
          output_tokens: 5,
          total_tokens: 5,
          input_token_details: { cache_read: 1, cache_creation: 2 },
        },
      }),
    );
    expect(joined.additional_kwargs).toEqual({ a: "pq", n: { b: "12" }, c: 1 });
    expect(joined.usage_metadata).toMatchObject({
      input_tokens: 10,
      output_tokens: 5,
      total_tokens: 15,
      input_token_details: { cache_read: 5, cache_creation: 2 },
    });
  });

  it("merges indexed text blocks", () => {
    const joined = new AIMessageChunk({ content: [{ type: "text", text: "Hel", index: 0 }] }).concat(
      new AIMessageChunk({
        content: [
          { type: "text", text: "lo", index: 0 },
          { type: "text", text: "!", index: 1 },
        ],
      }),
    );
    expect(joined.content).toEqual([
      { type: "text", text: "Hello", index: 0 },
      { type: "text", text: "!", index: 1 },
    ]);
  });
});

describe("docs samples: content blocks", () => {
  it("translates an OpenAI data URL image into a standard image block", () => {
    const message = new HumanMessage({
      content: [{ type: "image_url", image_url: { url: "data:image/png;base64,QUJD" } }],
    });
    expect(message.contentBlocks).toEqual([{ type: "image", mimeType: "image/png", data: "QUJD" }]);
  });

  it("reads only text blocks through .text", () => {
    const message = new AIMessage({
      content: [
        { type: "reasoning", reasoning: "hidden" },
        { type: "text", text: "shown" },
      ],
    });
    expect(message.text).toBe("shown");
  });
});
