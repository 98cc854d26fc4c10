import { describe, expect, it } from "vitest";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "../messages/index.js";
import {
  langchainMatchers,
  streamMatchers,
  toBeAIMessage,
  toBeHumanMessage,
  toBeSystemMessage,
  toBeToolMessage,
  toContainToolCall,
  toHaveBeenInterrupted,
  toHaveStructuredResponse,
  toHaveToolCallCount,
  toHaveToolCalls,
  toHaveToolMessages,
} from "./index.js";

expect.extend({ toBeAIMessage, toBeHumanMessage, toHaveToolMessages, toHaveBeenInterrupted });
expect.extend(streamMatchers);

/** An object shaped like a chat-model stream (what the stream matchers accept). */
function streamOf(output: Record<string, unknown>, text = "") {
  return {
    text: Promise.resolve(text),
    reasoning: Promise.resolve(""),
    toolCalls: Promise.resolve([]),
    usage: Promise.resolve(undefined),
    output: Promise.resolve(output),
    async *[Symbol.asyncIterator]() {},
  };
}

describe("the matchers exported one by one", () => {
  it("are langchainMatchers' own functions, and streamMatchers its stream matchers", () => {
    expect({
      toBeHumanMessage,
      toBeAIMessage,
      toBeSystemMessage,
      toBeToolMessage,
      toHaveToolCalls,
      toHaveToolCallCount,
      toContainToolCall,
      toHaveToolMessages,
      toHaveBeenInterrupted,
      toHaveStructuredResponse,
      ...streamMatchers,
    }).toStrictEqual(langchainMatchers);
    expect(Object.keys(streamMatchers)).toEqual([
      "toHaveStreamText",
      "toHaveStreamReasoning",
      "toHaveStreamToolCalls",
      "toHaveStreamUsage",
      "toHaveStreamOutput",
    ]);
  });

  it("work when extended individually", async () => {
    expect(new AIMessage("done")).toBeAIMessage("done");
    expect(new HumanMessage("hi")).not.toBeAIMessage();
    expect([
      new SystemMessage("s"),
      new ToolMessage({ content: "r", tool_call_id: "c1" }),
    ]).toHaveToolMessages([{ tool_call_id: "c1" }]);
    expect({ __interrupt__: [{ value: "ok?" }] }).toHaveBeenInterrupted("ok?");
    await expect(streamOf({ id: "m1", content: [] }, "Hello")).toHaveStreamText("Hello");
    await expect(streamOf({ id: "m1", content: [] })).toHaveStreamOutput({ id: "m1" });
  });
});

describe("toHaveStreamOutput", () => {
  it("reports tool_calls as undefined for an output without tool calls, as LangChain.js does", async () => {
    const result = await streamMatchers.toHaveStreamOutput.call(
      {
        isNot: false,
        equals: (a, b) => Object.is(a, b),
        utils: {
          matcherHint: (name) => name,
          printReceived: (value) =>
            JSON.stringify(value, (_k, v: unknown) => (v === undefined ? "<undefined>" : v)),
          printExpected: (value) => JSON.stringify(value),
        },
      },
      streamOf({ id: "m1", content: [{ type: "text", text: "Hi" }], response_metadata: {} }),
      { id: "m2" },
    );
    expect(result.pass).toBe(false);
    expect(result.message()).toBe(
      'toHaveStreamOutput\n\nExpected stream output: {"id":"m2"}\nReceived stream output: {"id":"m1","text":"Hi","tool_calls":"<undefined>","usage_metadata":"<undefined>","response_metadata":{}}',
    );
  });
});
