import { describe, expect, it } from "vitest";
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  ChatMessage,
  ChatMessageChunk,
  FunctionMessage,
  FunctionMessageChunk,
  HumanMessage,
  HumanMessageChunk,
  isSerializedMessage,
  MESSAGE_SERIALIZATION_IDS,
  MESSAGE_SERIALIZATION_NAMESPACES,
  MessageSerializationError,
  messageFromJSON,
  RemoveMessage,
  reviveMessage,
  SystemMessage,
  SystemMessageChunk,
  ToolMessage,
  ToolMessageChunk,
} from "./index.js";

const usage = {
  input_tokens: 10,
  output_tokens: 5,
  total_tokens: 15,
  input_token_details: { cache_read: 4 },
  output_token_details: { reasoning: 2 },
};

const samples = (): BaseMessage[] => [
  new HumanMessage("hi"),
  new HumanMessage({
    content: [
      { type: "text", text: "look" },
      { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
    ],
    id: "h1",
    name: "alice",
    additional_kwargs: { extra: [1, 2] },
    response_metadata: { source: "web" },
  }),
  new AIMessage({
    content: [
      { type: "thinking", thinking: "hmm", signature: "sig" },
      { type: "text", text: "Let me check." },
      { type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Suzhou" } },
    ],
    id: "a1",
    tool_calls: [{ name: "get_weather", args: { city: "Suzhou" }, id: "call_1", type: "tool_call" }],
    invalid_tool_calls: [
      { name: "bad", args: "{", id: "call_2", error: "Malformed args.", type: "invalid_tool_call" },
    ],
    usage_metadata: usage,
    response_metadata: { model_provider: "anthropic", model_name: "claude" },
  }),
  new AIMessageChunk({
    content: "partial",
    id: "run-1",
    tool_call_chunks: [{ name: "f", args: '{"q": "x', id: "c1", index: 0, type: "tool_call_chunk" }],
    usage_metadata: usage,
  }),
  new AIMessageChunk({ content: "done", tool_calls: [{ name: "f", args: {}, id: "c" }] }),
  new SystemMessage({ content: "Be brief.", additional_kwargs: { __openai_role__: "developer" } }),
  new ToolMessage({
    content: "It's sunny",
    tool_call_id: "call_1",
    name: "get_weather",
    status: "error",
    artifact: { raw: { temp: 30 }, list: [1, "a", null] },
    id: "t1",
  }),
  new ToolMessage({ content: [{ type: "text", text: "r" }], tool_call_id: "call_2" }),
  new RemoveMessage({ id: "m1" }),
  new HumanMessageChunk({ content: "h", id: "hc" }),
  new SystemMessageChunk("s"),
  new ToolMessageChunk({ content: "t", tool_call_id: "c", artifact: "art" }),
  new ChatMessage({ content: "Order!", role: "judge", id: "g1", name: "n" }),
  new ChatMessageChunk([{ type: "text", text: "par" }], "clerk"),
  new FunctionMessage({ content: '{"temp": 21}', name: "get_weather", additional_kwargs: { k: 1 } }),
  new FunctionMessageChunk({ content: "2" }),
];

/** The observable state of a message, for comparing an original with its revived copy. */
function snapshot(message: BaseMessage) {
  const m = message as BaseMessage & Record<string, unknown>;
  return {
    class: message.constructor.name,
    type: message.type,
    content: message.content,
    id: message.id,
    name: message.name,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
    tool_calls: m.tool_calls,
    invalid_tool_calls: m.invalid_tool_calls,
    tool_call_chunks: m.tool_call_chunks,
    usage_metadata: m.usage_metadata,
    tool_call_id: m.tool_call_id,
    status: m.status,
    artifact: m.artifact,
    role: m.role,
  };
}

describe("toJSON", () => {
  it("writes LangChain's constructor form", () => {
    expect(new HumanMessage({ content: "hi", id: "1", name: "bob" }).toJSON()).toEqual({
      lc: 1,
      type: "constructor",
      id: ["langchain_core", "messages", "HumanMessage"],
      kwargs: { content: "hi", id: "1", name: "bob", additional_kwargs: {}, response_metadata: {} },
    });
    expect(new AIMessage("hi").toJSON().kwargs).toEqual({
      content: "hi",
      tool_calls: [],
      invalid_tool_calls: [],
      additional_kwargs: {},
      response_metadata: {},
    });
    expect(
      new AIMessageChunk({
        content: "x",
        tool_call_chunks: [{ name: "f", args: '{"a":', id: "c1", index: 0 }],
      }).toJSON(),
    ).toEqual({
      lc: 1,
      type: "constructor",
      id: ["langchain_core", "messages", "AIMessageChunk"],
      kwargs: {
        content: "x",
        tool_calls: [{ name: "f", args: {}, id: "c1", type: "tool_call" }],
        invalid_tool_calls: [],
        tool_call_chunks: [{ name: "f", args: '{"a":', id: "c1", index: 0 }],
        additional_kwargs: {},
        response_metadata: {},
      },
    });
    // no status unless one was given, as in LangChain.js
    expect(
      new ToolMessage({ content: "r", tool_call_id: "c1", artifact: [1] }).toJSON().kwargs,
    ).toStrictEqual({
      content: "r",
      tool_call_id: "c1",
      artifact: [1],
      additional_kwargs: {},
      response_metadata: {},
    });
    expect(
      new ToolMessage({ content: "r", tool_call_id: "c1", status: "success" }).toJSON().kwargs.status,
    ).toBe("success");
    expect(new RemoveMessage({ id: "x" }).toJSON().kwargs).toEqual({
      content: [],
      id: "x",
      additional_kwargs: {},
      response_metadata: {},
    });
  });

  it("is what JSON.stringify writes, and toDict gives the stored form", () => {
    const message = new SystemMessage("sys");
    expect(JSON.parse(JSON.stringify(message))).toEqual(message.toJSON());
    expect(new HumanMessage("hi").toDict()).toEqual({
      type: "human",
      data: { content: "hi", additional_kwargs: {}, response_metadata: {} },
    });
  });
});

describe("reviveMessage", () => {
  it("round-trips every message type through JSON text", () => {
    for (const original of samples()) {
      const revived = reviveMessage(JSON.parse(JSON.stringify(original)));
      expect(revived.constructor).toBe(original.constructor);
      expect(snapshot(revived)).toEqual(snapshot(original));
      expect(revived.toJSON()).toEqual(JSON.parse(JSON.stringify(original)));
    }
  });

  it("round-trips through the stored { type, data } form", () => {
    for (const original of samples().filter((m) => !m.constructor.name.endsWith("Chunk"))) {
      const revived = reviveMessage(JSON.parse(JSON.stringify(original.toDict())));
      expect(snapshot(revived)).toEqual(snapshot(original));
    }
  });

  it("serializes content given as standard blocks with content_blocks, as LangChain.js does, and revives it", () => {
    // built from contentBlocks: written as content_blocks alone
    const human = new HumanMessage({ contentBlocks: [{ type: "text", text: "a" }] });
    expect(human.toJSON().kwargs).toEqual({
      content_blocks: [{ type: "text", text: "a" }],
      additional_kwargs: {},
      response_metadata: { output_version: "v1" },
    });
    const revivedHuman = reviveMessage(JSON.parse(JSON.stringify(human)));
    expect(revivedHuman.content).toEqual([{ type: "text", text: "a" }]);
    expect(revivedHuman.toJSON()).toEqual(human.toJSON());
    // an AIMessage (not a chunk) with content marked v1: content and content_blocks, its tool
    // calls among the blocks; the blocks follow later changes of the content
    const ai = new AIMessage({
      content: "x",
      tool_calls: [{ id: "c", name: "n", args: {} }],
      response_metadata: { output_version: "v1" },
    });
    const blocks = [
      { type: "text", text: "x" },
      { type: "tool_call", id: "c", name: "n", args: {} },
    ];
    expect(ai.toJSON().kwargs).toMatchObject({ content: blocks, content_blocks: blocks });
    expect(reviveMessage(JSON.parse(JSON.stringify(ai))).toJSON()).toEqual(ai.toJSON());
    ai.content = "changed";
    expect(ai.toDict().data).toMatchObject({ content: "changed", content_blocks: "changed" });
    const chunk = new AIMessageChunk({ content: "x", response_metadata: { output_version: "v1" } });
    expect("content_blocks" in chunk.toJSON().kwargs).toBe(false);
    expect("content_blocks" in new AIMessage({ content: "x" }).toJSON().kwargs).toBe(false);
  });

  it("accepts the Python namespace and ignores unknown kwargs", () => {
    const revived = reviveMessage({
      lc: 1,
      type: "constructor",
      id: ["langchain", "schema", "messages", "AIMessage"],
      kwargs: { content: "hi", type: "ai", example: false, tool_calls: [], id: "py-1" },
    });
    expect(revived).toBeInstanceOf(AIMessage);
    expect(revived).toMatchObject({ content: "hi", id: "py-1" });
    expect("example" in revived).toBe(false);
  });

  it("round-trips a ToolNode's answer to a call without an id (tool_call_id stays undefined)", () => {
    const answer = new ToolMessage({
      content: "ok",
      tool_call_id: null as unknown as string,
      status: "success",
    });
    expect(answer.tool_call_id).toBeUndefined();
    const revived = reviveMessage(JSON.parse(JSON.stringify(answer))) as ToolMessage;
    expect([revived.content, revived.tool_call_id, revived.status]).toEqual(["ok", undefined, "success"]);
  });

  it("is also exported as messageFromJSON", () => {
    expect(messageFromJSON).toBe(reviveMessage);
  });

  it("refuses anything but the message classes, with a typed error", () => {
    const tail =
      " Only agentgraph/LangChain message classes (HumanMessage, HumanMessageChunk, AIMessage, AIMessageChunk, " +
      "SystemMessage, SystemMessageChunk, ToolMessage, ToolMessageChunk, RemoveMessage, ChatMessage, " +
      "ChatMessageChunk, FunctionMessage, FunctionMessageChunk) serialized as " +
      '{ lc: 1, type: "constructor", id, kwargs } or { type, data } can be revived.';
    const cases: [unknown, string][] = [
      [null, "expected an object, got null."],
      ["x", "expected an object, got string."],
      [
        { lc: 1, type: "constructor", id: ["evil", "Thing"], kwargs: {} },
        'unknown class id ["evil","Thing"].',
      ],
      [
        { lc: 1, type: "constructor", id: ["langchain_core", "messages", "BaseMessage"], kwargs: {} },
        'unknown class id ["langchain_core","messages","BaseMessage"].',
      ],
      [
        { lc: 1, type: "constructor", id: MESSAGE_SERIALIZATION_IDS.ChatMessage, kwargs: { content: "x" } },
        'a chat message needs a string "role".',
      ],
      [
        { lc: 1, type: "constructor", id: MESSAGE_SERIALIZATION_IDS.FunctionMessage, kwargs: { role: "x" } },
        'a function message needs a string "name".',
      ],
      [
        { lc: 1, type: "constructor", id: ["langchain_core", "messages", "constructor"], kwargs: {} },
        'unknown class id ["langchain_core","messages","constructor"].',
      ],
      [
        { lc: 1, type: "constructor", id: ["langchain_core", "messages", "__proto__"], kwargs: {} },
        'unknown class id ["langchain_core","messages","__proto__"].',
      ],
      [
        { lc: 1, type: "constructor", id: ["other", "HumanMessage"], kwargs: {} },
        'unknown class id ["other","HumanMessage"].',
      ],
      [{ lc: 1, type: "constructor", id: "HumanMessage", kwargs: {} }, '"id" must be an array of strings.'],
      [
        { lc: 1, type: "constructor", id: MESSAGE_SERIALIZATION_IDS.HumanMessage, kwargs: [] },
        '"kwargs" must be an object.',
      ],
      [
        { lc: 1, type: "constructor", id: MESSAGE_SERIALIZATION_IDS.HumanMessage, kwargs: { content: 5 } },
        '"content" must be a string or an array, got number.',
      ],
      [
        {
          lc: 1,
          type: "constructor",
          id: MESSAGE_SERIALIZATION_IDS.HumanMessage,
          kwargs: { content: "", id: 5 },
        },
        '"id" must be a string, got number.',
      ],
      [
        {
          lc: 1,
          type: "constructor",
          id: MESSAGE_SERIALIZATION_IDS.HumanMessage,
          kwargs: { additional_kwargs: [] },
        },
        '"additional_kwargs" must be an object, got an array.',
      ],
      [
        {
          lc: 1,
          type: "constructor",
          id: MESSAGE_SERIALIZATION_IDS.AIMessage,
          kwargs: { tool_calls: [{ name: 1 }] },
        },
        '"tool_calls" holds an entry of the wrong shape: {"name":1}.',
      ],
      [
        { lc: 1, type: "constructor", id: MESSAGE_SERIALIZATION_IDS.AIMessage, kwargs: { tool_calls: {} } },
        '"tool_calls" must be an array, got object.',
      ],
      [
        { lc: 1, type: "constructor", id: MESSAGE_SERIALIZATION_IDS.ToolMessage, kwargs: { content: "r" } },
        'a tool message needs a string "tool_call_id".',
      ],
      [
        {
          lc: 1,
          type: "constructor",
          id: MESSAGE_SERIALIZATION_IDS.ToolMessage,
          kwargs: { tool_call_id: "c", status: "ok" },
        },
        '"status" must be "success" or "error", got "ok".',
      ],
      [
        { lc: 1, type: "constructor", id: MESSAGE_SERIALIZATION_IDS.RemoveMessage, kwargs: {} },
        'a remove message needs a string "id".',
      ],
      [{ type: "generic", data: { content: "x" } }, 'a chat message needs a string "role".'],
      [{ type: "chat", data: { content: "x" } }, 'unknown stored message type "chat".'],
      [{ type: "constructor", data: {} }, 'unknown stored message type "constructor".'],
      [
        { lc: 1, type: "secret", id: ["OPENAI_API_KEY"] },
        "the value is neither a serialized constructor nor a stored message.",
      ],
    ];
    for (const [value, reason] of cases) {
      let error: unknown;
      try {
        reviveMessage(value);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(MessageSerializationError);
      expect((error as MessageSerializationError).code).toBe("MESSAGE_SERIALIZATION_FAILURE");
      expect((error as Error).message).toBe(`Cannot revive a message: ${reason}${tail}`);
    }
  });
});

describe("serialization ids", () => {
  it("lists the canonical id of every class", () => {
    expect(MESSAGE_SERIALIZATION_IDS).toEqual({
      HumanMessage: ["langchain_core", "messages", "HumanMessage"],
      HumanMessageChunk: ["langchain_core", "messages", "HumanMessageChunk"],
      AIMessage: ["langchain_core", "messages", "AIMessage"],
      AIMessageChunk: ["langchain_core", "messages", "AIMessageChunk"],
      SystemMessage: ["langchain_core", "messages", "SystemMessage"],
      SystemMessageChunk: ["langchain_core", "messages", "SystemMessageChunk"],
      ToolMessage: ["langchain_core", "messages", "ToolMessage"],
      ToolMessageChunk: ["langchain_core", "messages", "ToolMessageChunk"],
      RemoveMessage: ["langchain_core", "messages", "RemoveMessage"],
      ChatMessage: ["langchain_core", "messages", "ChatMessage"],
      ChatMessageChunk: ["langchain_core", "messages", "ChatMessageChunk"],
      FunctionMessage: ["langchain_core", "messages", "FunctionMessage"],
      FunctionMessageChunk: ["langchain_core", "messages", "FunctionMessageChunk"],
    });
    expect(Object.isFrozen(MESSAGE_SERIALIZATION_IDS)).toBe(true);
    expect(MESSAGE_SERIALIZATION_NAMESPACES).toEqual([
      ["langchain_core", "messages"],
      ["langchain", "schema", "messages"],
    ]);
    for (const message of samples())
      expect(message.toJSON().id).toEqual(MESSAGE_SERIALIZATION_IDS[message.constructor.name as "AIMessage"]);
  });

  it("recognises revivable serialized messages", () => {
    expect(isSerializedMessage(new AIMessage("hi").toJSON())).toBe(true);
    expect(
      isSerializedMessage({
        lc: 1,
        type: "constructor",
        id: ["langchain", "schema", "messages", "ToolMessage"],
        kwargs: {},
      }),
    ).toBe(true);
    expect(isSerializedMessage({ lc: 1, type: "constructor", id: ["x", "Y"], kwargs: {} })).toBe(false);
    expect(
      isSerializedMessage({ lc: 1, type: "constructor", id: ["langchain_core", "messages", "AIMessage"] }),
    ).toBe(false);
    expect(isSerializedMessage({ type: "human", data: {} })).toBe(false);
    expect(isSerializedMessage(null)).toBe(false);
  });
});
