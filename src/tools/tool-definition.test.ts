import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidArgumentError } from "../shared/index.js";
import { isStructuredTool, isToolCall } from "./structured-tool.js";
import { tool } from "./tool.js";
import { convertToOpenAITool, toToolDefinition } from "./tool-definition.js";

const parameters = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };

describe("toToolDefinition", () => {
  it("accepts every descriptor form bindTools accepts", () => {
    const expected = { name: "search", description: "Search.", parameters };
    expect(toToolDefinition({ name: "search", description: "Search.", parameters })).toEqual(expected);
    expect(
      toToolDefinition({ name: "search", description: "Search.", schema: z.object({ q: z.string() }) }),
    ).toEqual(expected);
    expect(toToolDefinition({ name: "search", description: "Search.", input_schema: parameters })).toEqual(
      expected,
    );
    expect(
      toToolDefinition({
        type: "function",
        function: { name: "search", description: "Search.", parameters, strict: true },
      }),
    ).toEqual({ ...expected, strict: true });
    expect(
      toToolDefinition(
        tool(async () => "", { name: "search", description: "Search.", schema: z.object({ q: z.string() }) }),
      ),
    ).toEqual(expected);
  });

  it("says what it accepts when given something else", () => {
    expect(() => toToolDefinition({ description: "no name" } as never)).toThrow(InvalidArgumentError);
    expect(() => toToolDefinition(z.object({}) as never)).toThrow(/Cannot use a bare schema as a tool/);
  });

  it("formats OpenAI tools and keeps an existing OpenAI tool's strict flag", () => {
    expect(
      convertToOpenAITool({ type: "function", function: { name: "f", parameters, strict: true } }),
    ).toEqual({
      type: "function",
      function: { name: "f", parameters: { ...parameters, additionalProperties: false }, strict: true },
    });
  });

  it("returns a provider's own tool as it is, as LangChain.js does", () => {
    const search = { type: "web_search_preview" };
    expect(convertToOpenAITool(search)).toBe(search);
    const anthropic = { type: "web_search_20250305", name: "web_search", max_uses: 3 };
    expect(convertToOpenAITool(anthropic, { strict: true })).toBe(anthropic);
  });
});

describe("guards", () => {
  it("tell tools and tool calls apart from descriptors and arguments", () => {
    const t = tool(async () => "", { name: "t", description: "", schema: z.object({}) });
    expect(isStructuredTool(t)).toBe(true);
    expect(isStructuredTool({ name: "t", description: "", parameters })).toBe(false);
    expect(isToolCall({ name: "t", args: {}, id: "1", type: "tool_call" })).toBe(true);
    expect(isToolCall({ name: "t", args: {} })).toBe(false);
  });
});
