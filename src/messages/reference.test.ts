import { describe, expect, it } from "vitest";
import { AIMessage, AIMessageChunk } from "./ai.js";
import { coerceMessageLikeToMessage } from "./coerce.js";
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
});
