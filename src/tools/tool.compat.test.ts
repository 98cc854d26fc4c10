/**
 * Checks tool behaviour against LangChain.js (`@langchain/core` 1.4.0, a dev dependency):
 * the same tool definitions must give the same ToolMessages, errors and provider schemas.
 */
import { tool as lcTool } from "@langchain/core/tools";
import { convertToOpenAITool as lcConvertToOpenAITool } from "@langchain/core/utils/function_calling";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ToolMessage } from "../messages/index.js";
import { tool } from "./tool.js";
import { convertToOpenAITool } from "./tool-definition.js";

const call = { name: "t", args: { q: "x" }, id: "call_1", type: "tool_call" } as const;
const schema = z.object({ q: z.string() });

describe("tools match LangChain.js", () => {
  it.each([
    ["a string", "plain text"],
    ["a number", 42],
    ["null", null],
    ["undefined", undefined],
    ["an object", { temp: 21, unit: "C" }],
    ["an array of strings", ["a", "b"]],
    ["content blocks", [{ type: "text", text: "hi" }]],
  ])("formats %s the same way", async (_label, value) => {
    const ours = (await tool(async () => value, { name: "t", description: "d", schema }).invoke(
      call,
    )) as ToolMessage;
    const theirs = await lcTool(async () => value, { name: "t", description: "d", schema }).invoke(call);
    expect(ours.content).toEqual(theirs.content);
    expect([ours.tool_call_id, ours.name, ours.status]).toEqual([
      theirs.tool_call_id,
      theirs.name,
      theirs.status,
    ]);
  });

  it("content_and_artifact splits the same way", async () => {
    const fn = async () => ["summary", { rows: [1] }];
    const ours = (await tool(fn, {
      name: "t",
      description: "d",
      schema,
      responseFormat: "content_and_artifact",
    }).invoke(call)) as ToolMessage;
    const theirs = await lcTool(fn, {
      name: "t",
      description: "d",
      schema,
      responseFormat: "content_and_artifact",
    }).invoke(call);
    expect([ours.content, ours.artifact]).toEqual([theirs.content, theirs.artifact]);
  });

  it("rejects bad arguments with the same message", async () => {
    const bad = { ...call, args: { q: 5 } };
    const ours = await tool(async () => "", { name: "t", description: "d", schema })
      .invoke(bad)
      .catch((e: Error) => e);
    const theirs = await lcTool(async () => "", { name: "t", description: "d", schema })
      .invoke(bad as never)
      .catch((e: Error) => e);
    expect((ours as Error).constructor.name).toBe((theirs as Error).constructor.name);
    expect((ours as Error).message).toBe((theirs as Error).message);
  });

  it("describes tools to OpenAI the same way, minus $schema (and without closing the object)", () => {
    const fields = {
      name: "t",
      description: "Look something up.",
      schema: z.object({ q: z.string().describe("query") }),
    };
    const ours = convertToOpenAITool(tool(async () => "", fields));
    const theirs = lcConvertToOpenAITool(lcTool(async () => "", fields)) as {
      function: { parameters: Record<string, unknown> };
    };
    const { $schema: _s, additionalProperties: _a, ...parameters } = theirs.function.parameters;
    expect(ours).toEqual({ ...theirs, function: { ...theirs.function, parameters } });
  });
});
