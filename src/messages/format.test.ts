import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  AIMessage,
  AIMessageChunk,
  HumanMessage,
  RemoveMessage,
  SystemMessage,
  ToolMessage,
} from "./index.js";

const HUMAN_BAR = "================================ Human Message =================================";
const AI_BAR = "================================== Ai Message ==================================";
const TOOL_BAR = "================================= Tool Message =================================";
const SYSTEM_BAR = "================================ System Message ================================";

describe("toFormattedString", () => {
  it("centres the title in 80 columns of =", () => {
    for (const bar of [HUMAN_BAR, AI_BAR, TOOL_BAR, SYSTEM_BAR]) expect(bar).toHaveLength(80);
    expect(new HumanMessage("hi").toFormattedString()).toBe(`${HUMAN_BAR}\nhi`);
    expect(new SystemMessage("sys").toFormattedString()).toBe(`${SYSTEM_BAR}\nsys`);
    expect(new RemoveMessage({ id: "r" }).toFormattedString()).toBe(
      "================================ Remove Message ================================",
    );
  });

  it("prints tool calls with name, id and one line per argument", () => {
    const message = new AIMessage({
      content: "",
      tool_calls: [
        {
          name: "get_weather",
          args: { city: "Suzhou", n: 1, o: { a: [1] }, nul: null, u: undefined, b: true },
          id: "call_1",
        },
      ],
    });
    expect(message.toFormattedString()).toBe(
      [
        AI_BAR,
        "Tool Calls:",
        "  get_weather (call_1)",
        " Call ID: call_1",
        "  Args:",
        "    city: Suzhou",
        "    n: 1",
        '    o: {"a":[1]}',
        "    nul: null",
        "    u: undefined",
        "    b: true",
      ].join("\n"),
    );
  });

  it("puts text after the tool calls, separated by an empty line", () => {
    const message = new AIMessage({
      content: "hello",
      tool_calls: [
        { name: "get_weather", args: { city: "Suzhou" }, id: "call_1" },
        { name: "g", args: {} },
      ],
    });
    expect(message.toFormattedString()).toBe(
      `${AI_BAR}\nTool Calls:\n  get_weather (call_1)\n Call ID: call_1\n  Args:\n    city: Suzhou\n  g (undefined)\n Call ID: undefined\n  Args:\n\nhello`,
    );
  });

  it("prints the tool name of a tool message", () => {
    expect(
      new ToolMessage({ content: "It's sunny", tool_call_id: "c", name: "get_weather" }).toFormattedString(),
    ).toBe(`${TOOL_BAR}\nName: get_weather\n\nIt's sunny`);
    expect(new ToolMessage({ content: "It's sunny", tool_call_id: "c" }).toFormattedString()).toBe(
      `${TOOL_BAR}\nIt's sunny`,
    );
  });

  it("omits blank and non-string content, as LangChain.js does", () => {
    expect(new SystemMessage("   ").toFormattedString()).toBe(SYSTEM_BAR);
    expect(new HumanMessage({ content: [{ type: "text", text: "x" }] }).toFormattedString()).toBe(HUMAN_BAR);
    expect(new AIMessage({ content: "x", name: "bot" }).toFormattedString()).toBe(`${AI_BAR}\nx`);
    expect(new AIMessageChunk("x").toFormattedString()).toBe(`${AI_BAR}\nx`);
    expect(new HumanMessage("a\nb").toFormattedString()).toBe(`${HUMAN_BAR}\na\nb`);
  });

  it("gives the serialized JSON with format json", () => {
    expect(new HumanMessage("x").toFormattedString("json")).toBe(
      '{"lc":1,"type":"constructor","id":["langchain_core","messages","HumanMessage"],"kwargs":{"content":"x","additional_kwargs":{},"response_metadata":{}}}',
    );
  });

  it("prints the ReAct transcript of seed 004 (which shows the lines without their indentation)", () => {
    const transcript = [
      new HumanMessage("What is the weather in Suzhou?"),
      new AIMessage({
        content: "",
        tool_calls: [
          {
            name: "get_weather",
            args: { city: "Suzhou" },
            id: "call_aCcssiCPOFyJa6dfu2dSltqD",
            type: "tool_call",
          },
        ],
      }),
      new ToolMessage({
        content: "It's always sunny in Suzhou!",
        tool_call_id: "call_aCcssiCPOFyJa6dfu2dSltqD",
        name: "get_weather",
      }),
      new AIMessage("The weather in Suzhou is sunny ☀️"),
    ];
    const seedLines = [
      HUMAN_BAR,
      "What is the weather in Suzhou?",
      AI_BAR,
      "Tool Calls:",
      "get_weather (call_aCcssiCPOFyJa6dfu2dSltqD)",
      "Call ID: call_aCcssiCPOFyJa6dfu2dSltqD",
      "Args:",
      "city: Suzhou",
      TOOL_BAR,
      "Name: get_weather",
      "It's always sunny in Suzhou!",
      AI_BAR,
      "The weather in Suzhou is sunny ☀️",
    ];
    const printed = transcript.map((m) => m.toFormattedString()).join("\n");
    const visible = printed
      .split("\n")
      .map((line) => line.trimStart())
      .filter((line) => line !== "");
    expect(visible).toEqual(seedLines);
  });
});

describe("prettyPrint", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("logs the pretty layout to the console", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    new HumanMessage("hi").prettyPrint();
    expect(log).toHaveBeenCalledWith(`${HUMAN_BAR}\nhi`);
  });
});

describe("String(message) and console.log(message)", () => {
  it("tags a message with its class name, a RemoveMessage with its base class's", () => {
    expect(String(new HumanMessage("hi"))).toBe("[object HumanMessage]");
    expect(Object.prototype.toString.call(new AIMessageChunk("x"))).toBe("[object AIMessageChunk]");
    expect(String(new RemoveMessage({ id: "r" }))).toBe("[object BaseMessage]");
    class Shouting extends HumanMessage {}
    expect(String(new Shouting("HI"))).toBe("[object HumanMessage]");
  });

  it("inspects as the class name and the printable fields as indented JSON", () => {
    expect(inspect(new HumanMessage("hi"))).toBe(
      'HumanMessage {\n  "content": "hi",\n  "additional_kwargs": {},\n  "response_metadata": {}\n}',
    );
    const tool = new ToolMessage({ content: "r", tool_call_id: "c", artifact: [1], status: "error" });
    expect(inspect(tool)).toBe(
      [
        "ToolMessage {",
        '  "content": "r",',
        '  "additional_kwargs": {},',
        '  "response_metadata": {},',
        '  "tool_call_id": "c",',
        '  "artifact": [',
        "    1",
        "  ]",
        "}",
      ].join("\n"),
    );
    expect(inspect(new RemoveMessage({ id: "x" }))).toMatch(
      /^BaseMessage \{\n {2}"id": "x",\n {2}"content": \[\],/,
    );
  });

  it("lists an AI chunk's fields in LangChain.js's order and cuts nesting at four levels", () => {
    const chunk = new AIMessageChunk({
      content: "",
      id: "a",
      tool_call_chunks: [{ name: "f", args: '{"q":{"r":{"s":1}}}', id: "c", index: 0 }],
    });
    const text = inspect(chunk);
    const keys = [...text.matchAll(/^ {2}"(\w+)"/gm)].map((match) => match[1]);
    expect(keys).toEqual([
      "id",
      "content",
      "additional_kwargs",
      "response_metadata",
      "tool_calls",
      "tool_call_chunks",
      "invalid_tool_calls",
    ]);
    expect(text).toContain('"q": "[Object]"');
    // nested deeper than the caller's depth still prints (at least four levels)
    expect(inspect({ messages: [chunk] }, { depth: 1 })).toContain('AIMessageChunk {\n      "id": "a"');
  });
});
