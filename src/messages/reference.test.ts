import { describe, expect, it } from "vitest";
import { AIMessage, AIMessageChunk } from "./ai.js";
import { getBufferString } from "./buffer-string.js";
import { ChatMessage, ChatMessageChunk } from "./chat.js";
import { coerceMessageLikeToMessage } from "./coerce.js";
import { FunctionMessage, FunctionMessageChunk } from "./function.js";
import { HumanMessage } from "./human.js";
import { reviveMessage } from "./revive.js";
import { mapChatMessagesToStoredMessages, mapStoredMessagesToChatMessages } from "./stored.js";
import { SystemMessage } from "./system.js";
import { ToolMessage } from "./tool.js";
import { collapseToolCallChunks } from "./tool-calls.js";

// Observable behaviour of @langchain/core 1.4 messages, checked against the reference.

describe("messages as in LangChain.js", () => {
  it("SystemMessage.concat refuses anything but a string or a system message", () => {
    const system = new SystemMessage("a");
    expect(() => system.concat([{ type: "text", text: "b" }] as never)).toThrow(
      new Error("Unexpected chunk type for system message"),
    );
    expect(system.concat("b").content).toBe("ab");
  });

  it("collapseToolCallChunks returns the fragments with the calls", () => {
    const chunks = [
      { name: "f", args: '{"a":1}', id: "c1", index: 0 },
      { name: "g", args: '{"x', id: "c2", index: 1 },
    ];
    const collapsed = collapseToolCallChunks(chunks);
    expect(collapsed.tool_call_chunks).toEqual(chunks);
    expect(collapsed.tool_calls).toEqual([
      { name: "f", args: { a: 1 }, id: "c1", type: "tool_call" },
      { name: "g", args: {}, id: "c2", type: "tool_call" },
    ]);
  });

  it("keeps a custom tool's raw argument text as args.input", () => {
    const chunk = new AIMessageChunk({
      content: "",
      tool_call_chunks: [{ name: "f", args: "raw text ", id: "c1", index: 0, isCustomTool: true }],
    });
    expect(chunk.tool_calls).toEqual([
      { name: "f", args: { input: "raw text " }, id: "c1", type: "tool_call" },
    ]);
    expect(chunk.invalid_tool_calls).toEqual([]);
  });

  it("ToolMessage keeps metadata through serialization and coercion", () => {
    const message = new ToolMessage({ content: "x", tool_call_id: "1", metadata: { a: 1 } });
    expect(message.metadata).toEqual({ a: 1 });
    expect(message.toJSON().kwargs.metadata).toEqual({ a: 1 });
    expect((reviveMessage(JSON.parse(JSON.stringify(message))) as ToolMessage).metadata).toEqual({ a: 1 });
    const coerced = coerceMessageLikeToMessage({
      role: "tool",
      content: "x",
      tool_call_id: "1",
      metadata: { b: 2 },
    });
    expect((coerced as ToolMessage).metadata).toEqual({ b: 2 });
    expect(Object.hasOwn(new ToolMessage({ content: "x", tool_call_id: "1" }), "metadata")).toBe(false);
  });

  it("maps messages to the stored { type, data } form and back", () => {
    const stored = mapChatMessagesToStoredMessages([
      new HumanMessage({ content: "x", id: "1" }),
      new AIMessage({ content: "y", tool_calls: [{ name: "f", args: {}, id: "c" }] }),
    ]);
    expect(JSON.parse(JSON.stringify(stored))).toEqual([
      { type: "human", data: { content: "x", id: "1", additional_kwargs: {}, response_metadata: {} } },
      {
        type: "ai",
        data: {
          content: "y",
          tool_calls: [{ name: "f", args: {}, id: "c" }],
          invalid_tool_calls: [],
          additional_kwargs: {},
          response_metadata: {},
        },
      },
    ]);
    const [human, ai] = mapStoredMessagesToChatMessages([
      { type: "ai", data: { content: "hello" } },
      ...stored,
    ]);
    expect(human).toBeInstanceOf(AIMessage);
    expect(ai).toBeInstanceOf(HumanMessage);
  });

  it("reads the legacy { type, text } stored form", () => {
    const [human, ai] = mapStoredMessagesToChatMessages([
      { type: "human", text: "hi" },
      { type: "ai", text: "hello" },
    ]);
    expect(human).toBeInstanceOf(HumanMessage);
    expect(human?.content).toBe("hi");
    expect(ai).toBeInstanceOf(AIMessage);
    expect(ai?.content).toBe("hello");
  });

  // The values below are what @langchain/core 1.4 produced for the same calls
  // (chat-function.compat.test.ts compares the two libraries live).
  it("ChatMessage: stored form, buffer string, pretty print and concat", () => {
    const message = new ChatMessage({ content: "hi", role: "wizard", id: "x", name: "n" });
    expect(JSON.stringify(message.toDict())).toBe(
      '{"type":"generic","data":{"content":"hi","role":"wizard","id":"x","name":"n","additional_kwargs":{},"response_metadata":{}}}',
    );
    expect(
      getBufferString([
        new ChatMessage("hi", "wizard"),
        new ChatMessage({ content: "x", role: "bob", name: "nm" }),
      ]),
    ).toBe("wizard: hi\nbob: nm, x");
    expect(new ChatMessageChunk({ content: "r", role: "x" }).toFormattedString()).toBe(
      "=============================== Generic Message ================================\nr",
    );
    const joined = new ChatMessageChunk({ content: "a", role: "r1", additional_kwargs: { x: "1" } }).concat(
      new ChatMessageChunk({
        content: "b",
        role: "r2",
        id: "id2",
        additional_kwargs: { x: "2" },
        response_metadata: { m: 1 },
      }),
    );
    expect(joined.toDict()).toEqual({
      type: "generic",
      data: {
        content: "ab",
        additional_kwargs: { x: "12" },
        response_metadata: { m: 1 },
        role: "r1",
        id: "id2",
      },
    });
  });

  it("FunctionMessage: stored form, pretty print and concat", () => {
    expect(JSON.stringify(new FunctionMessage({ content: "r", name: "fn" }).toDict())).toBe(
      '{"type":"function","data":{"content":"r","name":"fn","additional_kwargs":{},"response_metadata":{}}}',
    );
    expect(new FunctionMessage({ content: "r", name: "fn" }).toFormattedString()).toBe(
      "=============================== Function Message ===============================\nr",
    );
    const joined = new FunctionMessageChunk({ content: "a" }).concat(
      new FunctionMessageChunk({ content: "b", name: "f2", id: "i" }),
    );
    expect(joined.toDict()).toEqual({
      type: "function",
      data: { content: "ab", additional_kwargs: {}, response_metadata: {}, name: "", id: "i" },
    });
  });
});
