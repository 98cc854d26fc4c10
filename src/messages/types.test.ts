import { describe, expect, expectTypeOf, it } from "vitest";
import type {
  DirectToolOutput,
  FunctionCall,
  ImageDetail,
  LegacyStoredMessage,
  MessageChunkUnion,
  MessageUnion,
  StoredMessageData,
} from "./index.js";
import {
  AIMessage,
  type AIMessageChunk,
  AIMessageChunk as AIMessageChunkClass,
  type BaseMessage,
  type BaseMessageLike,
  HumanMessage,
  type HumanMessageChunk,
  isAIMessage,
  isDirectToolOutput,
  type MessageContent,
  type MessageType,
  type messagesStateReducer,
  type SystemMessage,
  type SystemMessageChunk,
  type ToolMessage,
  type ToolMessageChunk,
  ToolMessage as ToolMessageClass,
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

describe("@langchain/core/messages's type names, from agentgraph/messages", () => {
  it("type stored messages, legacy function calls, image details and direct tool outputs", () => {
    const stored: StoredMessageData = new HumanMessage({ content: "hi", id: "1" }).toDict().data;
    const legacy: LegacyStoredMessage = { type: "human", role: undefined, text: "hi" };
    const call: FunctionCall = { name: "get_weather", arguments: '{"city":"Paris"}' };
    const ai = new AIMessage({ content: "", additional_kwargs: { function_call: call } });
    const detail: ImageDetail = "low";
    const value: unknown = new ToolMessageClass({ content: "done", tool_call_id: "c1" });
    if (isDirectToolOutput(value)) expectTypeOf(value).toEqualTypeOf<DirectToolOutput>();
    const classes: MessageUnion[] = [HumanMessage, ToolMessageClass];
    const chunkClasses: MessageChunkUnion[] = [AIMessageChunkClass];
    expectTypeOf(stored.content).toEqualTypeOf<MessageContent | undefined>();
    expect([
      legacy.text,
      ai.additional_kwargs.function_call?.name,
      detail,
      classes.length,
      chunkClasses.length,
    ]).toEqual(["hi", "get_weather", "low", 2, 1]);
  });
});
