import { describe, expectTypeOf, it } from "vitest";
import {
  AIMessage,
  type AIMessageChunk,
  type BaseMessage,
  type BaseMessageLike,
  HumanMessage,
  type HumanMessageChunk,
  isAIMessage,
  type MessageType,
  type messagesStateReducer,
  type SystemMessage,
  type SystemMessageChunk,
  type ToolMessage,
  type ToolMessageChunk,
} from "./index.js";

describe("public types", () => {
  it("let a chunk stand where its message is expected", () => {
    expectTypeOf<AIMessageChunk>().toExtend<AIMessage>();
    expectTypeOf<HumanMessageChunk>().toExtend<HumanMessage>();
    expectTypeOf<SystemMessageChunk>().toExtend<SystemMessage>();
    expectTypeOf<ToolMessageChunk>().toExtend<ToolMessage>();
    expectTypeOf<AIMessageChunk>().toExtend<BaseMessage>();
  });

  it("accept plain message objects and literals where messages are expected", () => {
    expectTypeOf<{ role: "user"; content: string }>().toExtend<BaseMessageLike>();
    expectTypeOf<["ai", string]>().toExtend<BaseMessageLike>();
    expectTypeOf<{ role: string; content: string }[]>().toExtend<
      Parameters<typeof messagesStateReducer>[1]
    >();
    expectTypeOf(new HumanMessage("x").getType()).toEqualTypeOf<MessageType>();
    expectTypeOf(new AIMessage("x").type).toEqualTypeOf<"ai">();
  });

  it("narrow with the guards", () => {
    const value: unknown = new AIMessage("x");
    if (isAIMessage(value))
      expectTypeOf(value.tool_calls[0]?.args).toEqualTypeOf<Record<string, unknown> | undefined>();
  });
});
