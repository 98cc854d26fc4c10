import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../shared/index.js";
import {
  AIMessage,
  AIMessageChunk,
  BaseMessage,
  BaseMessageChunk,
  HumanMessage,
  HumanMessageChunk,
  isAIMessage,
  isAIMessageChunk,
  isBaseMessage,
  isBaseMessageChunk,
  isHumanMessage,
  isHumanMessageChunk,
  isRemoveMessage,
  isSystemMessage,
  isSystemMessageChunk,
  isToolMessage,
  isToolMessageChunk,
  REMOVE_ALL_MESSAGES,
  RemoveMessage,
  SystemMessage,
  SystemMessageChunk,
  ToolMessage,
  ToolMessageChunk,
} from "./index.js";

describe("message construction", () => {
  it("accepts a string, an array of blocks, or fields", () => {
    const a = new HumanMessage("hi");
    expect(a.content).toBe("hi");
    expect(a.id).toBeUndefined();
    expect(a.name).toBeUndefined();
    expect(a.additional_kwargs).toEqual({});
    expect(a.response_metadata).toEqual({});

    const blocks = [{ type: "text", text: "x" }];
    expect(new HumanMessage(blocks).content).toBe(blocks);

    const b = new HumanMessage({
      content: "x",
      id: "m1",
      name: "alice",
      additional_kwargs: { k: 1 },
      response_metadata: { r: 2 },
    });
    expect(b).toMatchObject({
      content: "x",
      id: "m1",
      name: "alice",
      additional_kwargs: { k: 1 },
      response_metadata: { r: 2 },
    });
  });

  it("treats missing or null content as an empty block list, as LangChain.js does", () => {
    expect(new HumanMessage({}).content).toEqual([]);
    expect(new AIMessage({ content: null }).content).toEqual([]);
  });

  it("takes contentBlocks as content and marks the message v1", () => {
    const m = new AIMessage({ contentBlocks: [{ type: "text", text: "hi" }] });
    expect(m.content).toEqual([{ type: "text", text: "hi" }]);
    expect(m.response_metadata).toEqual({ output_version: "v1" });
    expect(m.contentBlocks).toEqual([{ type: "text", text: "hi" }]);
  });

  it("appends to v1 content each tool call its blocks do not show, two alike calls included", () => {
    // as @langchain/core 1.4.0 prints for the same message
    const m = new AIMessage({
      content: [{ type: "text", text: "hi" }],
      tool_calls: [
        { name: "search", args: { q: "a" } },
        { name: "search", args: { q: "b" } },
      ],
      response_metadata: { output_version: "v1" },
    });
    expect(m.content).toStrictEqual([
      { type: "text", text: "hi" },
      { type: "tool_call", id: undefined, name: "search", args: { q: "a" } },
      { type: "tool_call", id: undefined, name: "search", args: { q: "b" } },
    ]);
    expect(m.tool_calls).toStrictEqual([
      { name: "search", args: { q: "a" } },
      { name: "search", args: { q: "b" } },
    ]);
  });

  it("reports its type through type, getType() and _getType()", () => {
    const cases: [BaseMessage, string][] = [
      [new HumanMessage("a"), "human"],
      [new AIMessage("a"), "ai"],
      [new SystemMessage("a"), "system"],
      [new ToolMessage({ content: "a", tool_call_id: "c" }), "tool"],
      [new RemoveMessage({ id: "x" }), "remove"],
      [new AIMessageChunk("a"), "ai"],
      [new HumanMessageChunk("a"), "human"],
      [new SystemMessageChunk("a"), "system"],
      [new ToolMessageChunk({ content: "a", tool_call_id: "c" }), "tool"],
    ];
    for (const [message, type] of cases) {
      expect(message.type).toBe(type);
      expect(message.getType()).toBe(type);
      expect(message._getType()).toBe(type);
    }
  });

  it("gives each class its serialization name", () => {
    expect(HumanMessage.lc_name()).toBe("HumanMessage");
    expect(AIMessageChunk.lc_name()).toBe("AIMessageChunk");
    expect(ToolMessageChunk.lc_name()).toBe("ToolMessageChunk");
    expect(RemoveMessage.lc_name()).toBe("RemoveMessage");
  });
});

describe("text", () => {
  it("is the string content, or the text of the text blocks", () => {
    expect(new HumanMessage("plain").text).toBe("plain");
    const m = new AIMessage({
      content: [
        { type: "text", text: "a" },
        { type: "image_url", image_url: { url: "https://x" } },
        { type: "tool_use", id: "t", name: "f", input: {} },
        { type: "text", text: "b" },
        { type: "text" },
      ],
    });
    expect(m.text).toBe("ab");
    expect(new RemoveMessage({ id: "x" }).text).toBe("");
  });
});

describe("AIMessage", () => {
  it("defaults tool calls to empty lists and usage to undefined", () => {
    const m = new AIMessage("hi");
    expect(m.tool_calls).toEqual([]);
    expect(m.invalid_tool_calls).toEqual([]);
    expect(m.usage_metadata).toBeUndefined();
  });

  it("keeps the tool calls it is given as they are, tagged or not (as LangChain.js 1.x)", () => {
    const tagged = [{ name: "f", args: { a: 1 }, id: "c1", type: "tool_call" as const }];
    expect(new AIMessage({ content: "", tool_calls: tagged }).tool_calls).toBe(tagged);
    const untagged = new AIMessage({ content: "", tool_calls: [{ name: "f", args: {}, id: "c1" }] });
    expect(untagged.tool_calls).toStrictEqual([{ name: "f", args: {}, id: "c1" }]);
    const invalid = new AIMessage({
      content: "",
      invalid_tool_calls: [{ name: "g", args: "{", error: "bad" }],
    });
    expect(invalid.invalid_tool_calls).toStrictEqual([{ name: "g", args: "{", error: "bad" }]);
  });

  it("parses OpenAI-form additional_kwargs.tool_calls when tool_calls is not given", () => {
    const m = new AIMessage({
      content: "",
      additional_kwargs: {
        tool_calls: [
          { id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } },
          { id: "c2", type: "function", function: { name: "g", arguments: "{oops" } },
          { id: "c3", type: "function", function: { name: "h", arguments: "" } },
          { id: "c4", type: "function", function: { name: "s", arguments: '"str"' } },
          { id: "c5", type: "function", function: { name: "n", arguments: "null" } },
        ],
      },
    });
    // untagged, as LangChain.js's constructor parses them: any JSON is arguments (a falsy value
    // reads as {}), and text that does not parse (an empty one too) is malformed
    expect(m.tool_calls).toStrictEqual([
      { name: "f", args: { a: 1 }, id: "c1" },
      { name: "s", args: "str", id: "c4" },
      { name: "n", args: {}, id: "c5" },
    ]);
    expect(m.invalid_tool_calls).toStrictEqual([
      { name: "g", args: "{oops", id: "c2", error: "Malformed args." },
      { name: "h", args: "", id: "c3", error: "Malformed args." },
    ]);
  });

  it("replaces given invalid_tool_calls with those parsed from additional_kwargs", () => {
    // as @langchain/core 1.4.0 prints for the same message
    const m = new AIMessage({
      content: "",
      additional_kwargs: {
        tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{bad" } }],
      },
      invalid_tool_calls: [{ name: "g", args: "x", id: "c9", error: "bad", type: "invalid_tool_call" }],
    });
    expect(m.invalid_tool_calls).toStrictEqual([
      { name: "f", args: "{bad", id: "call_1", error: "Malformed args." },
    ]);
    const none = new AIMessage({
      content: "",
      additional_kwargs: { tool_calls: [] },
      invalid_tool_calls: [{ name: "g", args: "x", id: "c9", error: "bad" }],
    });
    expect(none.invalid_tool_calls).toStrictEqual([]);
  });

  it("keeps explicit tool_calls over additional_kwargs", () => {
    const m = new AIMessage({
      content: "",
      tool_calls: [],
      additional_kwargs: {
        tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
      },
    });
    expect(m.tool_calls).toEqual([]);
  });

  it("keeps usage metadata", () => {
    const usage = { input_tokens: 1, output_tokens: 2, total_tokens: 3 };
    expect(new AIMessage({ content: "x", usage_metadata: usage }).usage_metadata).toBe(usage);
  });
});

describe("ToolMessage", () => {
  it("leaves status unset unless given, and keeps tool_call_id, name and artifact", () => {
    const m = new ToolMessage({ content: "r", tool_call_id: "c1", name: "search", artifact: { raw: 1 } });
    expect(m).toMatchObject({ tool_call_id: "c1", name: "search", artifact: { raw: 1 } });
    expect(m.status).toBeUndefined();
    expect(new ToolMessage({ content: "r", tool_call_id: "c1", status: "error" }).status).toBe("error");
    expect(new ToolMessage({ content: "r", tool_call_id: "c1", status: "success" }).status).toBe("success");
  });

  it("accepts the positional form (content, tool_call_id, name)", () => {
    const m = new ToolMessage("r", "c1", "search");
    expect(m).toMatchObject({ content: "r", tool_call_id: "c1", name: "search" });
    expect(m.status).toBeUndefined();
  });

  it("coerces a numeric tool_call_id to a string", () => {
    expect(new ToolMessage({ content: "r", tool_call_id: 7 as unknown as string }).tool_call_id).toBe("7");
  });

  it("rejects a missing tool_call_id with a typed error", () => {
    const make = () =>
      new ToolMessage({ content: "r" } as unknown as { content: string; tool_call_id: string });
    expect(make).toThrow(InvalidArgumentError);
    expect(make).toThrow(
      "ToolMessage requires a tool_call_id (the id of the tool call it answers), got undefined. " +
        "Pass it as new ToolMessage({ content, tool_call_id }).",
    );
    expect(() => new ToolMessageChunk({ content: "r", tool_call_id: null as unknown as string })).toThrow(
      "ToolMessageChunk requires a tool_call_id (the id of the tool call it answers), got null. " +
        "Pass it as new ToolMessageChunk({ content, tool_call_id }).",
    );
  });
});

describe("RemoveMessage", () => {
  it("has empty content and the target id", () => {
    const m = new RemoveMessage({ id: "m1" });
    expect(m.id).toBe("m1");
    expect(m.content).toEqual([]);
    expect(REMOVE_ALL_MESSAGES).toBe("__remove_all__");
  });

  it("rejects a missing id", () => {
    const make = () => new RemoveMessage({} as { id: string });
    expect(make).toThrow(InvalidArgumentError);
    expect(make).toThrow(
      "RemoveMessage requires the string id of the message to delete, got undefined. " +
        "Use new RemoveMessage({ id: message.id }), or REMOVE_ALL_MESSAGES to clear the list.",
    );
    expect(() => new RemoveMessage({ id: 5 as unknown as string })).toThrow("got 5.");
  });
});

describe("SystemMessage.concat", () => {
  it("appends a string, keeping id, name and metadata", () => {
    const m = new SystemMessage({ content: "a", id: "s", name: "n", additional_kwargs: { k: 1 } }).concat(
      "b",
    );
    expect(m).toBeInstanceOf(SystemMessage);
    expect(m).toMatchObject({ content: "ab", id: "s", name: "n", additional_kwargs: { k: 1 } });
  });

  it("appends another system message, merging metadata", () => {
    const m = new SystemMessage({ content: "a", additional_kwargs: { k: 1 } }).concat(
      new SystemMessage({ content: "b", id: "s2", name: "n2", additional_kwargs: { j: 2 } }),
    );
    expect(m).toMatchObject({ content: "ab", id: "s2", name: "n2", additional_kwargs: { k: 1, j: 2 } });
  });

  it("turns string plus blocks into blocks", () => {
    const m = new SystemMessage("a").concat(new SystemMessage({ content: [{ type: "text", text: "b" }] }));
    expect(m.content).toEqual([
      { type: "text", text: "a" },
      { type: "text", text: "b" },
    ]);
  });
});

describe("type guards", () => {
  const human = new HumanMessage("h");
  const ai = new AIMessage("a");
  const aiChunk = new AIMessageChunk("c");
  const system = new SystemMessage("s");
  const tool = new ToolMessage({ content: "t", tool_call_id: "c" });
  const remove = new RemoveMessage({ id: "r" });

  it("recognise each kind and reject the rest", () => {
    expect([human, ai, aiChunk, system, tool, remove].map(isBaseMessage)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect([human, ai, aiChunk, system, tool, remove].map(isAIMessage)).toEqual([
      false,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(isAIMessageChunk(aiChunk)).toBe(true);
    // as LangChain.js, the …Chunk guards check the message type only
    expect(isAIMessageChunk(ai)).toBe(true);
    expect(isAIMessageChunk(human)).toBe(false);
    expect(isHumanMessage(human)).toBe(true);
    expect(isSystemMessage(system)).toBe(true);
    expect(isToolMessage(tool)).toBe(true);
    expect(isRemoveMessage(remove)).toBe(true);
    expect(isRemoveMessage(human)).toBe(false);
    expect(isBaseMessageChunk(aiChunk)).toBe(true);
    expect(isBaseMessageChunk(ai)).toBe(false);
    expect(isHumanMessageChunk(new HumanMessageChunk("x"))).toBe(true);
    expect(isSystemMessageChunk(new SystemMessageChunk("x"))).toBe(true);
    expect(isToolMessageChunk(new ToolMessageChunk({ content: "x", tool_call_id: "c" }))).toBe(true);
    expect(isToolMessageChunk(tool)).toBe(true);
    expect(isHumanMessageChunk(human)).toBe(true);
    expect(isSystemMessageChunk(system)).toBe(true);
    expect(isToolMessageChunk(human)).toBe(false);
  });

  it("reject plain objects and primitives, even message-shaped ones", () => {
    for (const value of [
      null,
      undefined,
      "hi",
      1,
      { type: "ai", content: "x" },
      { role: "user", content: "x" },
    ]) {
      expect(isBaseMessage(value)).toBe(false);
      expect(isAIMessage(value)).toBe(false);
    }
    expect(isBaseMessage({ ...human })).toBe(false);
  });

  it("work across package copies through the Symbol.for brand", () => {
    // A message made by another copy of agentgraph: same global brand, unrelated class.
    class ForeignAIMessage {
      readonly type = "ai";
      content = "from another copy";
      tool_calls = [];
    }
    Object.defineProperty(ForeignAIMessage.prototype, Symbol.for("agentgraph.message"), { value: true });
    const foreign = new ForeignAIMessage();
    expect(isBaseMessage(foreign)).toBe(true);
    expect(isAIMessage(foreign)).toBe(true);
    expect(isHumanMessage(foreign)).toBe(false);
    expect(foreign instanceof AIMessage).toBe(true);
    expect(foreign instanceof BaseMessage).toBe(true);
    expect(foreign instanceof HumanMessage).toBe(false);
    expect(AIMessage.isInstance(foreign)).toBe(true);
  });

  it("make instanceof brand-based on the built-in classes", () => {
    expect(aiChunk instanceof AIMessage).toBe(true);
    expect(aiChunk instanceof AIMessageChunk).toBe(true);
    expect(ai instanceof AIMessageChunk).toBe(false);
    expect(aiChunk instanceof BaseMessageChunk).toBe(true);
    expect(human instanceof BaseMessageChunk).toBe(false);
    expect(tool instanceof ToolMessage).toBe(true);
    expect(remove instanceof RemoveMessage).toBe(true);
    expect(HumanMessage.isInstance(human)).toBe(true);
    expect(HumanMessage.isInstance(ai)).toBe(false);
    expect(BaseMessage.isInstance(tool)).toBe(true);
    expect(BaseMessageChunk.isInstance(aiChunk)).toBe(true);
    expect(ToolMessageChunk.isInstance(tool)).toBe(false);
  });

  it("keep prototype-based instanceof for user subclasses", () => {
    class AgentReply extends AIMessage {}
    const reply = new AgentReply("hi");
    expect(reply instanceof AgentReply).toBe(true);
    expect(ai instanceof AgentReply).toBe(false);
    expect(reply instanceof AIMessage).toBe(true);
    expect(isAIMessage(reply)).toBe(true);
    expect(AgentReply.lc_name()).toBe("AIMessage");
  });
});
