import { describe, expect, it } from "vitest";
import { AIMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage } from "../../messages/index.js";
import { ModelCallError } from "../errors/model-call-error.js";
import { formatAnthropicMessages } from "../providers/anthropic/format-anthropic-messages.js";
import { OpenAIStreamParts } from "../providers/openai/openai-stream-parts.js";
import { toolChoiceToSpec } from "./call-options-to-spec.js";
import { messagesToPrompt } from "./messages-to-prompt.js";
import { resultToMessage } from "./result-to-message.js";
import { StreamPartsToChunks } from "./stream-parts-to-chunks.js";

describe("messagesToPrompt", () => {
  it("converts every message kind and groups consecutive tool results", () => {
    const prompt = messagesToPrompt([
      new SystemMessage([
        { type: "text", text: "Be " },
        { type: "text", text: "brief." },
      ]),
      new HumanMessage({
        content: [
          { type: "text", text: "Look:" },
          { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/" } },
          { type: "file", url: "https://example.com/a.pdf", mimeType: "application/pdf" },
        ],
      }),
      new AIMessage({
        content: [
          { type: "thinking", thinking: "hmm", signature: "sig" },
          { type: "text", text: "Calling." },
        ],
        tool_calls: [{ name: "f", args: { a: 1 }, id: "c1", type: "tool_call" }],
        invalid_tool_calls: [
          { name: "g", args: "{bad", id: "c2", error: "Malformed args.", type: "invalid_tool_call" },
        ],
      }),
      new ToolMessage({ content: "one", tool_call_id: "c1", name: "f" }),
      new ToolMessage({ content: [{ type: "text", text: "two" }], tool_call_id: "c2", status: "error" }),
      new RemoveMessage({ id: "gone" }),
    ]);
    expect(prompt).toEqual([
      { role: "system", content: "Be brief." },
      {
        role: "user",
        content: [
          { type: "text", text: "Look:" },
          { type: "file", mediaType: "image/jpeg", base64: "/9j/" },
          { type: "file", mediaType: "application/pdf", url: "https://example.com/a.pdf" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "hmm", signature: "sig" },
          { type: "text", text: "Calling." },
          { type: "tool-call", toolCallId: "c1", toolName: "f", input: '{"a":1}' },
          { type: "tool-call", toolCallId: "c2", toolName: "g", input: "{bad" },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "c1", toolName: "f", output: "one" },
          { type: "tool-result", toolCallId: "c2", output: [{ type: "text", text: "two" }], isError: true },
        ],
      },
    ]);
  });

  it("uses tool_use content blocks when a hand-built message has no tool_calls", () => {
    const prompt = messagesToPrompt([
      new AIMessage({ content: [{ type: "tool_use", id: "toolu_1", name: "f", input: { x: 1 } }] }),
    ]);
    expect(prompt).toEqual([
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "toolu_1", toolName: "f", input: '{"x":1}' }],
      },
    ]);
  });
});

describe("provider converters", () => {
  it("Anthropic: data URLs become base64 sources, PDFs documents", () => {
    const { messages } = formatAnthropicMessages([
      new HumanMessage({
        content: [
          { type: "image", url: "data:image/png;base64,iVBOR" },
          { type: "file", mimeType: "application/pdf", url: "https://example.com/a.pdf" },
        ],
      }),
    ]);
    expect(messages).toEqual([
      {
        role: "user",
        content: [
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
          { type: "document", source: { type: "url", url: "https://example.com/a.pdf" } },
        ],
      },
    ]);
  });

  it("OpenAI stream: a tool call without an id from a compatible server still gets one", () => {
    const parts = new OpenAIStreamParts("openai");
    const out = [
      ...parts.push({
        choices: [{ index: 0, delta: { tool_calls: [{ function: { name: "f", arguments: "{}" } }] } }],
      }),
      ...parts.finish(),
    ];
    const start = out.find((p) => p.type === "tool-input-start");
    expect(start).toMatchObject({ type: "tool-input-start", index: 0, toolName: "f" });
    expect(start?.type === "tool-input-start" && start.id.startsWith("call_0_")).toBe(true);
    expect(out.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "other", raw: undefined } });
  });

  it("maps tool_choice forms", () => {
    expect(["auto", "none", "any", "required", "f"].map(toolChoiceToSpec)).toEqual([
      { type: "auto" },
      { type: "none" },
      { type: "required" },
      { type: "required" },
      { type: "tool", toolName: "f" },
    ]);
    expect(toolChoiceToSpec({ type: "function", function: { name: "g" } })).toEqual({
      type: "tool",
      toolName: "g",
    });
    expect(toolChoiceToSpec({ type: "tool", name: "h" })).toEqual({ type: "tool", toolName: "h" });
  });
});

describe("results and stream parts to messages", () => {
  const ctx = { provider: "p", modelName: "m", reasoningFormat: "additional-kwargs" as const };

  it("a tool-call input that is not an object is an invalid tool call", () => {
    const message = resultToMessage(
      {
        content: [
          { type: "tool-call", toolCallId: "a", toolName: "f", input: "[1,2]" },
          { type: "tool-call", toolCallId: "b", toolName: "f", input: "" },
        ],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage: {},
      },
      ctx,
    );
    expect(message.tool_calls).toEqual([{ name: "f", args: {}, id: "b", type: "tool_call" }]);
    expect(message.invalid_tool_calls[0]?.error).toContain("the arguments must be a JSON object");
    expect(message.usage_metadata).toBeUndefined();
    expect(message.response_metadata).toEqual({
      model_provider: "p",
      model_name: "m",
      finish_reason: "tool_calls",
    });
  });

  it("an error part throws a ModelCallError", () => {
    const mapper = new StreamPartsToChunks(ctx);
    expect(() => mapper.map({ type: "error", error: { message: "boom" } })).toThrow(ModelCallError);
    expect(() => mapper.map({ type: "error", error: { message: "boom" } })).toThrow(
      "The p stream reported an error: boom.",
    );
  });
});
