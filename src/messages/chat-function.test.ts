import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../shared/index.js";
import {
  AIMessage,
  BaseMessage,
  BaseMessageChunk,
  ChatMessage,
  ChatMessageChunk,
  chunkToMessage,
  coerceMessageLikeToMessage,
  concat,
  convertToChunk,
  FunctionMessage,
  FunctionMessageChunk,
  filterMessages,
  getBufferString,
  HumanMessage,
  isBaseMessage,
  isBaseMessageChunk,
  isChatMessage,
  isChatMessageChunk,
  isFunctionMessage,
  isFunctionMessageChunk,
  isHumanMessage,
  MESSAGE_SERIALIZATION_IDS,
  MessageCoercionError,
  mapChatMessagesToStoredMessages,
  mapStoredMessagesToChatMessages,
  mapStoredMessageToChatMessage,
  mergeMessageRuns,
  messagesStateReducer,
  RemoveMessage,
  reviveMessage,
  ToolMessage,
  trimMessages,
} from "./index.js";

describe("ChatMessage", () => {
  it("is built from content and role, or from fields", () => {
    const positional = new ChatMessage("Order in the court!", "judge");
    expect(positional.type).toBe("generic");
    expect(positional.getType()).toBe("generic");
    expect(positional._getType()).toBe("generic");
    expect(positional.role).toBe("judge");
    expect(positional.content).toBe("Order in the court!");
    expect(positional.additional_kwargs).toEqual({});
    expect(positional.response_metadata).toEqual({});

    const blocks = new ChatMessage([{ type: "text", text: "Objection" }], "lawyer");
    expect(blocks.content).toEqual([{ type: "text", text: "Objection" }]);
    expect(blocks.text).toBe("Objection");

    const fields = new ChatMessage({ content: "x", role: "narrator", id: "m1", name: "n" });
    expect([fields.role, fields.id, fields.name]).toEqual(["narrator", "m1", "n"]);
    expect(ChatMessage.lc_name()).toBe("ChatMessage");
    expect(ChatMessageChunk.lc_name()).toBe("ChatMessageChunk");
    expect(ChatMessage._chatMessageClass()).toBe(ChatMessage);
  });

  it("requires a string role", () => {
    expect(() => new ChatMessage({ content: "x" } as never)).toThrow(InvalidArgumentError);
    expect(() => new ChatMessage("x" as never)).toThrow(/ChatMessage requires a string role/);
    expect(() => new ChatMessageChunk({ content: "x", role: 3 } as never)).toThrow(InvalidArgumentError);
  });

  it("counts chunks as messages, not messages as chunks", () => {
    const whole = new ChatMessage("a", "r");
    const chunk = new ChatMessageChunk("a", "r");
    expect(ChatMessage.isInstance(whole)).toBe(true);
    expect(ChatMessage.isInstance(chunk)).toBe(true);
    expect(ChatMessageChunk.isInstance(chunk)).toBe(true);
    expect(ChatMessageChunk.isInstance(whole)).toBe(false);
    expect(whole instanceof ChatMessage).toBe(true);
    expect(chunk instanceof ChatMessage).toBe(true);
    expect(whole instanceof ChatMessageChunk).toBe(false);
    expect(chunk instanceof BaseMessageChunk).toBe(true);
    expect(whole instanceof BaseMessage).toBe(true);
    expect(isBaseMessage(whole)).toBe(true);
    expect(isBaseMessageChunk(chunk)).toBe(true);
    expect(isBaseMessageChunk(whole)).toBe(false);
    // the guards check the type only, as LangChain.js's do
    expect([isChatMessage(whole), isChatMessage(chunk)]).toEqual([true, true]);
    expect([isChatMessageChunk(whole), isChatMessageChunk(chunk)]).toEqual([true, true]);
    expect(isChatMessage(new HumanMessage("a"))).toBe(false);
    expect(isHumanMessage(whole)).toBe(false);
    expect(ChatMessage.isInstance({ type: "generic", content: "a", role: "r" })).toBe(false);
    expect(ChatMessage.isInstance(new FunctionMessage({ content: "a", name: "f" }))).toBe(false);
  });

  it("concat keeps the first role and id, merges content and metadata", () => {
    const a = new ChatMessageChunk({ content: "Order ", role: "judge", additional_kwargs: { x: "1" } });
    const b = new ChatMessageChunk({
      content: "in the court!",
      role: "clerk",
      id: "id2",
      additional_kwargs: { x: "2" },
      response_metadata: { m: 1 },
    });
    const joined = a.concat(b);
    expect(joined).toBeInstanceOf(ChatMessageChunk);
    expect(joined.role).toBe("judge");
    expect(joined.content).toBe("Order in the court!");
    expect(joined.additional_kwargs).toEqual({ x: "12" });
    expect(joined.response_metadata).toEqual({ m: 1 });
    expect(joined.id).toBe("id2");
    expect(new ChatMessageChunk({ content: "", role: "r", id: "id1" }).concat(b).id).toBe("id1");
    expect(concat(a, b).content).toBe("Order in the court!");
  });

  it("lists the role among the printable fields and prints as a Generic Message", () => {
    const message = new ChatMessage({ content: "Order!", role: "judge", id: "m1" });
    expect(message._printableFields).toEqual({
      id: "m1",
      content: "Order!",
      name: undefined,
      additional_kwargs: {},
      response_metadata: {},
      role: "judge",
    });
    expect(new ChatMessageChunk("a", "r")._printableFields.role).toBe("r");
    expect(message.toFormattedString()).toBe(
      "=============================== Generic Message ================================\nOrder!",
    );
  });

  it("uses its role as the prefix in getBufferString", () => {
    expect(
      getBufferString([
        new HumanMessage("Hi"),
        new ChatMessage("Order in the court!", "judge"),
        new ChatMessage({ content: "Yes?", role: "clerk", name: "bob" }),
      ]),
    ).toBe("Human: Hi\njudge: Order in the court!\nclerk: bob, Yes?");
  });

  it("stores its role and comes back from the stored form", () => {
    const message = new ChatMessage({ content: "hi", role: "judge", id: "x" });
    expect(JSON.parse(JSON.stringify(message.toDict()))).toEqual({
      type: "generic",
      data: { content: "hi", role: "judge", id: "x", additional_kwargs: {}, response_metadata: {} },
    });
    expect(message.toJSON()).toEqual({
      lc: 1,
      type: "constructor",
      id: ["langchain_core", "messages", "ChatMessage"],
      kwargs: { content: "hi", role: "judge", id: "x", additional_kwargs: {}, response_metadata: {} },
    });
    const [back] = mapStoredMessagesToChatMessages(mapChatMessagesToStoredMessages([message]));
    expect(back).toBeInstanceOf(ChatMessage);
    expect(back).toStrictEqual(message);
    const revived = reviveMessage(JSON.parse(JSON.stringify(new ChatMessageChunk("a", "r"))));
    expect(ChatMessageChunk.isInstance(revived)).toBe(true);
    expect((revived as ChatMessageChunk).role).toBe("r");
    expect(MESSAGE_SERIALIZATION_IDS.ChatMessage).toEqual(["langchain_core", "messages", "ChatMessage"]);
  });

  it("needs a role in the stored form, as LangChain.js does", () => {
    expect(() => mapStoredMessageToChatMessage({ type: "generic", data: { content: "hi" } })).toThrow(
      new MessageCoercionError("Role must be defined for chat messages"),
    );
    const legacy = mapStoredMessageToChatMessage({ type: "generic", text: "hi", role: "judge" });
    expect(legacy).toBeInstanceOf(ChatMessage);
    expect((legacy as ChatMessage).role).toBe("judge");
    expect(() => reviveMessage({ type: "generic", data: { content: "hi" } })).toThrow(
      /needs a string "role"/,
    );
  });
});

describe("FunctionMessage", () => {
  it("is built from fields with a name", () => {
    const message = new FunctionMessage({ content: '{"temp": 21}', name: "get_weather", id: "f1" });
    expect(message.type).toBe("function");
    expect(message.getType()).toBe("function");
    expect(message.name).toBe("get_weather");
    expect(message.id).toBe("f1");
    expect(FunctionMessage.lc_name()).toBe("FunctionMessage");
    expect(FunctionMessageChunk.lc_name()).toBe("FunctionMessageChunk");
    expect(() => new FunctionMessage({ content: "x" } as never)).toThrow(InvalidArgumentError);
    expect(() => new FunctionMessage("x" as never)).toThrow(/requires the name of the function/);
    // a chunk's name is optional
    expect(new FunctionMessageChunk({ content: "x" }).name).toBeUndefined();
    expect(new FunctionMessageChunk("x").content).toBe("x");
  });

  it("counts chunks as messages, not messages as chunks", () => {
    const whole = new FunctionMessage({ content: "a", name: "f" });
    const chunk = new FunctionMessageChunk({ content: "a", name: "f" });
    expect([FunctionMessage.isInstance(whole), FunctionMessage.isInstance(chunk)]).toEqual([true, true]);
    expect([FunctionMessageChunk.isInstance(whole), FunctionMessageChunk.isInstance(chunk)]).toEqual([
      false,
      true,
    ]);
    expect(chunk instanceof FunctionMessage).toBe(true);
    expect(whole instanceof FunctionMessageChunk).toBe(false);
    expect([isFunctionMessage(whole), isFunctionMessageChunk(whole)]).toEqual([true, true]);
    expect([isFunctionMessage(chunk), isFunctionMessageChunk(chunk)]).toEqual([true, true]);
    expect(isFunctionMessage(new ChatMessage("a", "function"))).toBe(false);
  });

  it("concat keeps the first name, or none as an empty string", () => {
    const a = new FunctionMessageChunk({ content: '{"temp": ', name: "get_weather" });
    const b = new FunctionMessageChunk({ content: "21}", name: "other", id: "i2" });
    const joined = a.concat(b);
    expect(joined).toBeInstanceOf(FunctionMessageChunk);
    expect([joined.content, joined.name, joined.id]).toEqual(['{"temp": 21}', "get_weather", "i2"]);
    const unnamed = new FunctionMessageChunk({ content: "a" }).concat(b);
    expect(unnamed.name).toBe("");
  });

  it("prints as a Function Message, without its name", () => {
    expect(new FunctionMessage({ content: "21", name: "get_weather" }).toFormattedString()).toBe(
      "=============================== Function Message ===============================\n21",
    );
  });

  it("cannot be rendered by getBufferString, as in LangChain.js", () => {
    expect(() => getBufferString([new FunctionMessage({ content: "21", name: "f" })])).toThrow(
      new InvalidArgumentError("Got unsupported message type: function"),
    );
  });

  it("stores its name and comes back from the stored form", () => {
    const message = new FunctionMessage({ content: "21", name: "get_weather" });
    expect(JSON.parse(JSON.stringify(message.toDict()))).toEqual({
      type: "function",
      data: { content: "21", name: "get_weather", additional_kwargs: {}, response_metadata: {} },
    });
    const back = mapStoredMessageToChatMessage(message.toDict());
    expect(back).toBeInstanceOf(FunctionMessage);
    expect(back).toStrictEqual(message);
    expect(() => mapStoredMessageToChatMessage({ type: "function", data: { content: "x" } })).toThrow(
      new MessageCoercionError("Name must be defined for function messages"),
    );
    const chunk = reviveMessage(JSON.parse(JSON.stringify(new FunctionMessageChunk({ content: "a" }))));
    expect(FunctionMessageChunk.isInstance(chunk)).toBe(true);
  });
});

describe("the message helpers with chat and function messages", () => {
  it("convert between whole messages and chunks", () => {
    const chat = new ChatMessage({ content: "a", role: "judge", id: "c1", additional_kwargs: { k: 1 } });
    const chatChunk = convertToChunk(chat);
    expect(chatChunk).toBeInstanceOf(ChatMessageChunk);
    expect((chatChunk as ChatMessageChunk).role).toBe("judge");
    expect(chatChunk.id).toBe("c1");
    const chatBack = chunkToMessage(chatChunk);
    expect(ChatMessageChunk.isInstance(chatBack)).toBe(false);
    expect(chatBack).toStrictEqual(chat);

    const fn = new FunctionMessage({ content: "21", name: "f" });
    const fnChunk = convertToChunk(fn);
    expect(fnChunk).toBeInstanceOf(FunctionMessageChunk);
    expect(fnChunk.name).toBe("f");
    expect(chunkToMessage(fnChunk)).toStrictEqual(fn);
    expect(() => chunkToMessage(new FunctionMessageChunk({ content: "x" }))).toThrow(InvalidArgumentError);
  });

  it("filter and trim by the type strings and classes", async () => {
    const messages = [
      new HumanMessage({ content: "h", id: "1" }),
      new ChatMessage({ content: "c", role: "judge", id: "2" }),
      new FunctionMessage({ content: "f", name: "fn", id: "3" }),
    ];
    const ids = (list: readonly { id?: string | undefined }[]) => list.map((m) => m.id);
    expect(ids(filterMessages(messages, { includeTypes: ["generic", FunctionMessage] }))).toEqual(["2", "3"]);
    expect(ids(filterMessages(messages, { excludeTypes: [ChatMessageChunk, "function"] }))).toEqual(["1"]);
    const kept = await trimMessages(messages, {
      maxTokens: 5,
      tokenCounter: (list) => list.length,
      startOn: ChatMessage,
    });
    expect(ids(kept)).toEqual(["2", "3"]);
  });

  it("mergeMessageRuns joins runs of chat messages with one role, and of function messages", () => {
    const merged = mergeMessageRuns([
      new ChatMessage({ content: "a", role: "judge", id: "1" }),
      new ChatMessage({ content: "b", role: "judge", id: "2" }),
      new ChatMessage({ content: "c", role: "clerk", id: "3" }),
      new FunctionMessage({ content: "x", name: "f1" }),
      new FunctionMessage({ content: "y", name: "f2" }),
    ]);
    expect(merged.map((m) => [m.type, m.content, m.id])).toEqual([
      ["generic", "a\nb", "1"],
      ["generic", "c", "3"],
      ["function", "x\ny", undefined],
    ]);
    expect((merged[0] as ChatMessage).role).toBe("judge");
    expect(merged[0]).toBeInstanceOf(ChatMessage);
    expect(merged[2]).toBeInstanceOf(FunctionMessage);
    expect(merged[2]?.name).toBe("f1");
  });

  it("the reducer stores their chunks as whole messages", () => {
    const [chat, fn] = messagesStateReducer(
      [],
      [
        new ChatMessageChunk({ content: "a", role: "judge" }),
        new FunctionMessageChunk({ content: "b", name: "f" }),
      ],
    );
    expect(ChatMessage.isInstance(chat) && !ChatMessageChunk.isInstance(chat)).toBe(true);
    expect((chat as ChatMessage).role).toBe("judge");
    expect(FunctionMessage.isInstance(fn) && !FunctionMessageChunk.isInstance(fn)).toBe(true);
    expect(typeof chat?.id).toBe("string");
  });

  it("coercion keeps instances and, as in LangChain.js, builds neither kind from plain values", () => {
    const chat = new ChatMessage("a", "judge");
    expect(coerceMessageLikeToMessage(chat)).toBe(chat);
    for (const like of [
      { role: "generic", content: "x" },
      { role: "judge", content: "x" },
      { role: "function", content: "x", name: "f" },
      ["generic", "x"],
      ["function", "x"],
      { type: "generic", content: "x", role: "judge" },
    ]) {
      expect(() => coerceMessageLikeToMessage(like as never)).toThrow(MessageCoercionError);
    }
    // an AI message with a legacy function call is still an AI message
    expect(
      coerceMessageLikeToMessage({
        role: "assistant",
        content: "",
        additional_kwargs: { function_call: { name: "f", arguments: "{}" } },
      }),
    ).toBeInstanceOf(AIMessage);
  });
});

describe("mapStoredMessageToChatMessage", () => {
  it("refuses the types LangChain.js refuses, with its text", () => {
    for (const type of ["user", "assistant", "developer", "bogus"]) {
      expect(() => mapStoredMessageToChatMessage({ type, data: { content: "x" } })).toThrow(
        new MessageCoercionError(`Got unexpected type: ${type}`),
      );
    }
  });

  it("needs a tool_call_id for a tool message, and reads back one stored as null", () => {
    expect(() => mapStoredMessageToChatMessage({ type: "tool", data: { content: "x" } })).toThrow(
      new MessageCoercionError("Tool call ID must be defined for tool messages"),
    );
    expect(() => mapStoredMessageToChatMessage({ type: "tool", text: "x" })).toThrow(
      "Tool call ID must be defined for tool messages",
    );
    const unanswered = new ToolMessage({ content: "no id", tool_call_id: null as unknown as string });
    const [back] = mapStoredMessagesToChatMessages(mapChatMessagesToStoredMessages([unanswered]));
    expect(ToolMessage.isInstance(back)).toBe(true);
    expect(back?.content).toBe("no id");
    expect((back as ToolMessage).tool_call_id).toBeUndefined();
  });

  it("reads the remove messages toDict writes", () => {
    const [back] = mapStoredMessagesToChatMessages(
      mapChatMessagesToStoredMessages([new RemoveMessage({ id: "r" })]),
    );
    expect(RemoveMessage.isInstance(back)).toBe(true);
    expect(back?.id).toBe("r");
  });
});
