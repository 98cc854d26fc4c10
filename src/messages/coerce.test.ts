import { describe, expect, it } from "vitest";
import { AgentGraphError } from "../shared/index.js";
import type { BaseMessageLike } from "./index.js";
import {
  AIMessage,
  AIMessageChunk,
  coerceMessageLikeToMessage,
  HumanMessage,
  MessageCoercionError,
  RemoveMessage,
  SystemMessage,
  ToolMessage,
} from "./index.js";

const ACCEPTED =
  "Accepted forms: a message instance (new HumanMessage(...)); a string (becomes a human message); " +
  'a [role, content] pair; an object { role, content } with role "user" | "human", "assistant" | "ai", ' +
  '"system", "developer", "tool" (with tool_call_id) or "remove" (with id); the same object keyed by ' +
  '`type` instead of `role`; or a serialized message { lc: 1, type: "constructor", id, kwargs }.';

function coerce(value: unknown) {
  return coerceMessageLikeToMessage(value as BaseMessageLike);
}

function errorOf(value: unknown): MessageCoercionError {
  try {
    coerce(value);
  } catch (error) {
    return error as MessageCoercionError;
  }
  throw new Error("expected a coercion error");
}

describe("coerceMessageLikeToMessage", () => {
  it("returns messages unchanged and turns strings into human messages", () => {
    const message = new AIMessage("hi");
    expect(coerce(message)).toBe(message);
    const human = coerce("hello");
    expect(human).toBeInstanceOf(HumanMessage);
    expect(human.content).toBe("hello");
  });

  it("accepts [role, content] pairs for every role alias", () => {
    expect(coerce(["human", "x"])).toBeInstanceOf(HumanMessage);
    expect(coerce(["user", "x"])).toBeInstanceOf(HumanMessage);
    expect(coerce(["ai", "x"])).toBeInstanceOf(AIMessage);
    expect(coerce(["assistant", "x"])).toBeInstanceOf(AIMessage);
    expect(coerce(["system", "x"])).toBeInstanceOf(SystemMessage);
    const developer = coerce(["developer", "x"]);
    expect(developer).toBeInstanceOf(SystemMessage);
    expect(developer.additional_kwargs).toEqual({ __openai_role__: "developer" });
    // elements after the content are ignored, as in LangChain.js
    const longer = coerce(["human", "x", "extra"]);
    expect(longer).toBeInstanceOf(HumanMessage);
    expect(longer.content).toBe("x");
  });

  it("accepts { role, content } objects with their extra fields", () => {
    const human = coerce({
      role: "user",
      content: [{ type: "text", text: "x" }],
      id: "1",
      name: "alice",
      additional_kwargs: { a: 1 },
      response_metadata: { b: 2 },
      ignored: true,
    });
    expect(human).toBeInstanceOf(HumanMessage);
    expect(human).toMatchObject({
      content: [{ type: "text", text: "x" }],
      id: "1",
      name: "alice",
      additional_kwargs: { a: 1 },
      response_metadata: { b: 2 },
    });
    expect("ignored" in human).toBe(false);

    const tool = coerce({
      role: "tool",
      content: "r",
      tool_call_id: "c1",
      status: "error",
      artifact: [1],
      name: "f",
    });
    expect(tool).toBeInstanceOf(ToolMessage);
    expect(tool).toMatchObject({ tool_call_id: "c1", status: "error", artifact: [1], name: "f" });
    expect((coerce({ role: "tool", content: "r", tool_call_id: 3 }) as ToolMessage).tool_call_id).toBe("3");

    const remove = coerce({ role: "remove", id: "m1" });
    expect(remove).toBeInstanceOf(RemoveMessage);
    expect(remove.id).toBe("m1");

    const developer = coerce({ role: "developer", content: "x", additional_kwargs: { k: 1 } });
    expect(developer.additional_kwargs).toEqual({ k: 1, __openai_role__: "developer" });
  });

  it("parses OpenAI-style assistant tool calls, keeping unparsable ones as invalid", () => {
    const ai = coerce({
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Suzhou"}' } },
        { id: "call_2", type: "function", function: { name: "f", arguments: "{bad" } },
        { id: "call_3", name: "g", args: { x: 1 } },
      ],
      usage_metadata: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    }) as AIMessage;
    expect(ai).toBeInstanceOf(AIMessage);
    expect(ai.content).toEqual([]);
    expect(ai.tool_calls).toEqual([
      { name: "get_weather", args: { city: "Suzhou" }, id: "call_1", type: "tool_call" },
      { id: "call_3", name: "g", args: { x: 1 } },
    ]);
    expect(ai.invalid_tool_calls).toEqual([
      { name: "f", args: "{bad", id: "call_2", error: "Malformed args.", type: "invalid_tool_call" },
    ]);
    expect(ai.usage_metadata).toEqual({ input_tokens: 1, output_tokens: 1, total_tokens: 2 });
  });

  it("accepts { type, content } objects and stored { type, data } messages", () => {
    expect(coerce({ type: "human", content: "x" })).toBeInstanceOf(HumanMessage);
    expect(coerce({ type: "ai", content: "x" })).toBeInstanceOf(AIMessage);
    const stored = coerce({ type: "human", data: { content: "x", id: "s1" } });
    expect(stored).toBeInstanceOf(HumanMessage);
    expect(stored).toMatchObject({ content: "x", id: "s1" });
  });

  it("accepts serialized messages, chunks becoming whole messages", () => {
    const serialized = new AIMessage({
      content: "x",
      id: "a1",
      tool_calls: [{ name: "f", args: {}, id: "c" }],
    }).toJSON();
    const revived = coerce(serialized) as AIMessage;
    expect(revived).toBeInstanceOf(AIMessage);
    expect(revived).toMatchObject({ content: "x", id: "a1", tool_calls: [{ name: "f", args: {}, id: "c" }] });
    const fromChunk = coerce(new AIMessageChunk({ content: "c" }).toJSON());
    expect(fromChunk).toBeInstanceOf(AIMessage);
    expect(coerce(new RemoveMessage({ id: "r" }).toJSON())).toBeInstanceOf(RemoveMessage);
  });

  it("converts message-shaped objects such as spread messages", () => {
    const original = new ToolMessage({ content: "r", tool_call_id: "c1", id: "t1" });
    const copy = coerce({ ...original, content: "changed" });
    expect(copy).toBeInstanceOf(ToolMessage);
    expect(copy).toMatchObject({ content: "changed", tool_call_id: "c1", id: "t1" });
  });

  it("throws a MessageCoercionError naming what was received and the accepted forms", () => {
    const unknownRole = errorOf({ role: "robot", content: "beep" });
    expect(unknownRole).toBeInstanceOf(MessageCoercionError);
    expect(unknownRole).toBeInstanceOf(AgentGraphError);
    expect(unknownRole.code).toBe("MESSAGE_COERCION_FAILURE");
    // LangChain.js's text first
    expect(unknownRole.message).toBe(
      "Unable to coerce message from array: only human, AI, system, developer, or tool message coercion is currently supported. " +
        'This one failed: unknown message role "robot": only human (user), AI (assistant), system (developer), ' +
        `tool and remove messages are supported.\n\nReceived: {\n  "role": "robot",\n  "content": "beep"\n}\n\n${ACCEPTED}`,
    );
    // LangChain.js fails with the same opening for values that are no message at all
    expect(errorOf(5).message).toBe(
      "Unable to coerce message from array: only human, AI, system, developer, or tool message coercion is currently supported. " +
        `This one failed: a value of type number cannot be a message.\n\nReceived: 5\n\n${ACCEPTED}`,
    );
    for (const value of [null, { content: "x" }, [], ["user"], [1, "x"]]) {
      expect(errorOf(value).message).toMatch(
        /^Unable to coerce message from array: only human, AI, system, developer, or tool message coercion is currently supported\. This one failed: /,
      );
    }
    expect(errorOf(null).message).toContain("a value of type null cannot be a message.\n\nReceived: null");
    expect(errorOf(undefined).message).toContain(
      "a value of type undefined cannot be a message.\n\nReceived: undefined",
    );
    expect(errorOf({ content: "x" }).message).toContain("an object message needs a string `role` or `type`.");
    expect(errorOf(["tool", "x"]).message).toContain(
      "a tool message needs a `tool_call_id` (the id of the tool call it answers).",
    );
    expect(errorOf({ role: "remove" }).message).toContain(
      "a remove message needs the string `id` of the message to delete.",
    );
    expect(errorOf(["user"]).message).toContain(
      "a [role, content] pair needs the role (a string) first, then the content.",
    );
    expect(errorOf([1, "x"]).message).toContain("a [role, content] pair needs the role (a string) first");
    expect(errorOf({ role: "user", content: 5 }).message).toContain(
      "message content must be a string or an array of content blocks, got number.",
    );
    expect(errorOf({ role: "user", content: "x", id: 5 }).message).toContain(
      "`id` must be a string, got number.",
    );
    expect(errorOf({ role: "user", content: "x", additional_kwargs: [] }).message).toContain(
      "`additional_kwargs` must be an object, got array.",
    );
    expect(errorOf({ role: "assistant", content: "x", tool_calls: "no" }).message).toContain(
      "`tool_calls` must be an array, got string.",
    );
    expect(errorOf({ role: "assistant", content: "x", tool_calls: [42] }).message).toContain(
      "each tool call must be { name, args, id } or the OpenAI { id, type: 'function', function: { name, arguments } } form.",
    );
    // LangChain.js refuses these classes too; the text starts with its sentence
    expect(errorOf({ lc: 1, type: "constructor", id: ["x", "ChatMessage"], kwargs: {} }).message).toMatch(
      /^Unable to coerce message from array: only human, AI, system, developer, or tool message coercion is currently supported\. This one failed: unknown serialized message class "ChatMessage"\./,
    );
  });

  it("keeps error previews short and printable", () => {
    const circular: Record<string, unknown> = { role: "robot" };
    circular.self = circular;
    expect(errorOf(circular).message).toContain("Received: [object Object]");
    const long = errorOf({ role: "robot", content: "x".repeat(5000) }).message;
    expect(long).toContain("…");
    expect(long.length).toBeLessThan(2000);
  });
});

describe("coerced tool messages", () => {
  it("keep the status as given, unset when absent", () => {
    const plain = coerceMessageLikeToMessage({
      role: "tool",
      content: "r",
      tool_call_id: "c",
    }) as ToolMessage;
    expect(plain.status).toBeUndefined();
    const failed = coerceMessageLikeToMessage({
      role: "tool",
      content: "r",
      tool_call_id: "c",
      status: "error",
    }) as ToolMessage;
    expect(failed.status).toBe("error");
  });
});
