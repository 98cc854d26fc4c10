import { describe, expect, it } from "vitest";
import { defaultSerializer as serde } from "../graph/index.js";
import {
  AIMessage,
  AIMessageChunk,
  ChatMessage,
  ChatMessageChunk,
  FunctionMessage,
  FunctionMessageChunk,
  HumanMessage,
  RemoveMessage,
  SystemMessage,
  ToolMessage,
  ToolMessageChunk,
} from "../messages/index.js";
import { registerMessageSerialization } from "./messages-serialization.js";

registerMessageSerialization();

const roundTrip = <T>(value: T): T => serde.decode(serde.encode(value)) as T;

describe("message serialization", () => {
  it("every message class comes back as an instance of its class", () => {
    const messages = [
      new HumanMessage({ content: "hi", id: "h1", name: "alice" }),
      new SystemMessage("be brief"),
      new AIMessage({
        content: "",
        id: "a1",
        tool_calls: [{ name: "search", args: { q: "x" }, id: "c1", type: "tool_call" }],
        usage_metadata: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
        response_metadata: { model_name: "m" },
      }),
      new AIMessageChunk({
        content: "par",
        id: "a2",
        tool_call_chunks: [{ name: "f", args: "{", id: "c", index: 0 }],
      }),
      new ToolMessage({
        content: "result",
        tool_call_id: "c1",
        status: "error",
        artifact: { at: new Date(0) },
      }),
      new ToolMessageChunk({ content: "r", tool_call_id: "c2" }),
      new RemoveMessage({ id: "h1" }),
      new HumanMessage({ content: [{ type: "text", text: "blocks" }], additional_kwargs: { extra: 1 } }),
    ];
    const back = roundTrip(messages);
    expect(back).toHaveLength(messages.length);
    for (let i = 0; i < messages.length; i++) {
      const original = messages[i];
      const copy = back[i];
      expect(copy?.constructor).toBe(original?.constructor);
      expect(copy).toStrictEqual(original);
    }
  });

  it("stores messages compactly: class name and non-empty fields only", () => {
    expect(serde.encode(new HumanMessage({ content: "hi", id: "1" }))).toBe(
      '{"~t":"msg","v":["HumanMessage",{"content":"hi","id":"1"}]}',
    );
    expect(serde.encode(new ToolMessage({ content: "ok", tool_call_id: "c" }))).toBe(
      '{"~t":"msg","v":["ToolMessage",{"content":"ok","tool_call_id":"c"}]}',
    );
  });

  it("a tool message's status comes back as it was, unset included", () => {
    const unset = roundTrip(new ToolMessage({ content: "ok", tool_call_id: "c" }));
    expect(unset.status).toBeUndefined();
    const success = roundTrip(new ToolMessage({ content: "ok", tool_call_id: "c", status: "success" }));
    expect(success.status).toBe("success");
    const chunk = roundTrip(new ToolMessageChunk({ content: "ok", tool_call_id: "c", status: "success" }));
    expect(chunk.status).toBe("success");
  });

  it("messages inside state values, Sends and maps round-trip", () => {
    const state = {
      messages: [new HumanMessage("a"), new AIMessage("b")],
      byId: new Map([["x", new AIMessage("c")]]),
    };
    const back = roundTrip(state);
    expect(back.messages[1]).toBeInstanceOf(AIMessage);
    expect(back.byId.get("x")).toBeInstanceOf(AIMessage);
    expect(back).toStrictEqual(state);
  });

  it("chat and function messages round-trip as their classes, role and name included", () => {
    const messages = [
      new ChatMessage({ content: "Order!", role: "judge", id: "c1", name: "n" }),
      new ChatMessageChunk({ content: [{ type: "text", text: "par" }], role: "clerk" }),
      new FunctionMessage({ content: '{"temp": 21}', name: "get_weather", additional_kwargs: { k: 1 } }),
      new FunctionMessageChunk({ content: "2" }),
      new FunctionMessageChunk({ content: "1", name: "" }),
    ];
    const back = roundTrip(messages);
    expect(back).toHaveLength(messages.length);
    for (let i = 0; i < messages.length; i++) {
      expect(back[i]?.constructor).toBe(messages[i]?.constructor);
      expect(back[i]).toStrictEqual(messages[i]);
    }
    expect(serde.encode(new ChatMessage("hi", "judge"))).toBe(
      '{"~t":"msg","v":["ChatMessage",{"content":"hi","role":"judge"}]}',
    );
    expect(serde.encode(new FunctionMessage({ content: "21", name: "f" }))).toBe(
      '{"~t":"msg","v":["FunctionMessage",{"content":"21","name":"f"}]}',
    );
    // stored data must still hold what the constructors require
    expect(() => serde.decode('{"~t":"msg","v":["ChatMessage",{"content":"x"}]}')).toThrow(/role/);
    expect(() => serde.decode('{"~t":"msg","v":["FunctionMessage",{"content":"x"}]}')).toThrow(/name/);
  });

  it("an unknown message class name is a SerializationError", () => {
    expect(() => serde.decode('{"~t":"msg","v":["EvilMessage",{"content":"x"}]}')).toThrow(/"msg"/);
  });

  it("registering twice is harmless", () => {
    expect(() => registerMessageSerialization()).not.toThrow();
  });
});
