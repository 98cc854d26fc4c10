import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../shared/index.js";
import {
  AIMessage,
  AIMessageChunk,
  chunkToMessage,
  convertToChunk,
  defaultTextSplitter,
  filterMessages,
  getBufferString,
  HumanMessage,
  HumanMessageChunk,
  isDirectToolOutput,
  isMessage,
  mergeMessageRuns,
  RemoveMessage,
  SystemMessage,
  SystemMessageChunk,
  ToolMessage,
  ToolMessageChunk,
} from "./index.js";

describe("getBufferString", () => {
  it("renders one line per message with role prefixes", () => {
    const text = getBufferString([
      new HumanMessage("hi"),
      new AIMessage({
        content: [
          { type: "text", text: "yo" },
          { type: "image_url", image_url: { url: "x" } },
          { type: "reasoning", reasoning: "r" },
          { type: "weird" },
        ],
        tool_calls: [{ name: "f", args: { a: 1 }, id: "c" }],
      }),
      new SystemMessage({ content: "s", name: "n" }),
      new ToolMessage({ content: "r", tool_call_id: "c" }),
    ]);
    expect(text).toBe(
      'Human: hi\nAI: yo[image][weird][{"name":"f","args":{"a":1},"id":"c"}]\nSystem: n, s\nTool: r',
    );
  });

  it("uses custom prefixes, shortens long tool-call ids and shows legacy function calls", () => {
    const longId = "x".repeat(70);
    expect(
      getBufferString(
        [
          new HumanMessage("q"),
          new AIMessage({
            content: "",
            tool_calls: [{ name: "f", args: {}, id: longId, type: "tool_call" }],
          }),
          new AIMessage({
            content: "",
            additional_kwargs: { function_call: { name: "g", arguments: "{}" } },
          }),
        ],
        "User",
        "Bot",
      ),
    ).toBe(
      `User: q\nBot: [{"name":"f","args":{},"id":"${"x".repeat(64)}...","type":"tool_call"}]\nBot: {"name":"g","arguments":"{}"}`,
    );
  });

  it("rejects remove messages", () => {
    expect(() => getBufferString([new RemoveMessage({ id: "x" })])).toThrow(InvalidArgumentError);
    expect(() => getBufferString([new RemoveMessage({ id: "x" })])).toThrow(
      "Got unsupported message type: remove",
    );
  });
});

describe("filterMessages", () => {
  const messages = [
    new HumanMessage({ content: "a", id: "1", name: "n" }),
    new AIMessage({ content: "c", id: "2" }),
    new SystemMessage({ content: "s", id: "3" }),
    new HumanMessage({ content: "d", id: "4", name: "m" }),
  ];

  it("keeps matches of any include option, minus exclusions", () => {
    expect(
      filterMessages(messages, { includeTypes: ["human", "system"], excludeIds: ["3"] }).map((m) => m.id),
    ).toEqual(["1", "4"]);
    expect(filterMessages(messages, { includeNames: ["m"], includeIds: ["2"] }).map((m) => m.id)).toEqual([
      "2",
      "4",
    ]);
    expect(
      filterMessages(messages, { excludeNames: ["n"], excludeTypes: [AIMessage] }).map((m) => m.id),
    ).toEqual(["3", "4"]);
    expect(filterMessages(messages).map((m) => m.id)).toEqual(["1", "2", "3", "4"]);
  });

  it("returns a transformer when called with options only", async () => {
    const onlyHumans = filterMessages({ includeTypes: [HumanMessage] });
    expect(onlyHumans(messages).map((m) => m.id)).toEqual(["1", "4"]);
    expect((await onlyHumans.invoke(messages)).map((m) => m.id)).toEqual(["1", "4"]);
  });
});

describe("mergeMessageRuns", () => {
  it("joins runs of the same kind and leaves tool messages alone", () => {
    const merged = mergeMessageRuns([
      new HumanMessage({ content: "a", id: "1" }),
      new HumanMessage({ content: "b", id: "2" }),
      new AIMessage({
        content: "c",
        tool_calls: [{ name: "f", args: {}, id: "x" }],
        usage_metadata: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
      }),
      new AIMessage({
        content: [{ type: "text", text: "d" }],
        tool_calls: [{ name: "g", args: { b: 1 }, id: "y" }],
      }),
      new ToolMessage({ content: "t", tool_call_id: "x" }),
      new ToolMessage({ content: "u", tool_call_id: "y" }),
    ]);
    expect(merged.map((m) => m.type)).toEqual(["human", "ai", "tool", "tool"]);
    expect(merged[0]).toBeInstanceOf(HumanMessage);
    expect(merged[0]).toMatchObject({ content: "a\nb", id: "1" });
    const ai = merged[1] as AIMessage;
    expect(ai.content).toEqual([
      { type: "text", text: "c" },
      { type: "text", text: "d" },
    ]);
    expect(ai.tool_calls.map((c) => c.id)).toEqual(["x", "y"]);
    expect(ai.usage_metadata?.total_tokens).toBe(2);
  });

  it("marks the tool calls of merged AI messages as tool_call", () => {
    const [ai] = mergeMessageRuns([
      new AIMessage({ content: "a", tool_calls: [{ name: "f", args: { x: 2 }, id: "1" }] }),
      new AIMessage({ content: "b", tool_calls: [{ name: "f", args: { x: 3 }, id: "2" }] }),
    ]) as AIMessage[];
    expect(ai?.tool_calls).toStrictEqual([
      { name: "f", args: { x: 2 }, id: "1", type: "tool_call" },
      { name: "f", args: { x: 3 }, id: "2", type: "tool_call" },
    ]);
  });

  it("returns a transformer when called without messages", async () => {
    const merge = mergeMessageRuns();
    const input = [
      new SystemMessage("a"),
      new SystemMessage("b"),
      new RemoveMessage({ id: "r" }),
      new RemoveMessage({ id: "s" }),
    ];
    expect((await merge.invoke(input)).map((m) => m.content)).toEqual(["a\nb", [], []]);
  });
});

describe("chunkToMessage", () => {
  it("turns each chunk kind into its whole message and leaves messages alone", () => {
    const ai = chunkToMessage(
      new AIMessageChunk({
        content: "x",
        name: "bot",
        tool_call_chunks: [{ name: "f", args: "{}", id: "c", index: 0 }],
      }),
    );
    expect(ai).toBeInstanceOf(AIMessage);
    expect(ai).not.toBeInstanceOf(AIMessageChunk);
    expect(ai).toMatchObject({
      content: "x",
      name: "bot",
      tool_calls: [{ name: "f", args: {}, id: "c", type: "tool_call" }],
    });
    expect(chunkToMessage(new HumanMessageChunk("h"))).toBeInstanceOf(HumanMessage);
    expect(chunkToMessage(new SystemMessageChunk("s"))).toBeInstanceOf(SystemMessage);
    const tool = chunkToMessage(
      new ToolMessageChunk({ content: "t", tool_call_id: "c", status: "error", artifact: 1 }),
    );
    expect(tool).toBeInstanceOf(ToolMessage);
    expect(tool).toMatchObject({ tool_call_id: "c", status: "error", artifact: 1 });
    const message = new HumanMessage("m");
    expect(chunkToMessage(message)).toBe(message);
  });
});

describe("LangChain.js message helpers", () => {
  it("isMessage accepts objects with a type and string or list content", () => {
    expect(
      [
        new HumanMessage("x"),
        { type: "ai", content: [] },
        { role: "user", content: "x" },
        { type: "x", content: 1 },
        null,
      ].map(isMessage),
    ).toEqual([true, true, false, false, false]);
  });

  it("convertToChunk turns tool calls into index-less tool call chunks", () => {
    const chunk = convertToChunk(
      new AIMessage({ content: "x", id: "i", tool_calls: [{ name: "f", args: { a: 1 }, id: "c" }] }),
    );
    expect(chunk).toBeInstanceOf(AIMessageChunk);
    expect((chunk as AIMessageChunk).tool_call_chunks).toEqual([
      { name: "f", args: '{"a":1}', id: "c", index: undefined, type: "tool_call_chunk" },
    ]);
    expect((chunk as AIMessageChunk).tool_calls).toEqual([
      { name: "f", args: { a: 1 }, id: "c", type: "tool_call" },
    ]);
    expect(convertToChunk(new HumanMessage({ content: "h", id: "1" }))).toBeInstanceOf(HumanMessageChunk);
    expect(convertToChunk(new SystemMessage("s")).content).toBe("s");
  });

  it("defaultTextSplitter splits after each newline", async () => {
    await expect(defaultTextSplitter("a\nb\n")).resolves.toEqual(["a\n", "b\n", ""]);
  });

  it("isDirectToolOutput looks for lc_direct_tool_output", () => {
    expect(isDirectToolOutput({ lc_direct_tool_output: true })).toBe(true);
    expect(isDirectToolOutput({ output: 1 })).toBe(false);
    // a ToolMessage is one, as in LangChain.js (not a chunk, nor another message)
    expect(isDirectToolOutput(new ToolMessage({ content: "r", tool_call_id: "c" }))).toBe(true);
    expect(isDirectToolOutput(new ToolMessageChunk({ content: "r", tool_call_id: "c" }))).toBe(false);
    expect(isDirectToolOutput(new HumanMessage("h"))).toBe(false);
    expect(Object.keys(new ToolMessage({ content: "r", tool_call_id: "c" }))).not.toContain(
      "lc_direct_tool_output",
    );
  });
});
