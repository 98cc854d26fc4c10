import { describe, expect, it } from "vitest";
import { AIMessage, AIMessageChunk, type ContentBlock, HumanMessage, ToolMessage } from "./index.js";

describe("contentBlocks", () => {
  it("wraps string content in a text block", () => {
    expect(new HumanMessage("hi").contentBlocks).toEqual([{ type: "text", text: "hi" }]);
    expect(new AIMessage("").contentBlocks).toEqual([{ type: "text", text: "" }]);
  });

  it("translates provider input blocks to standard blocks", () => {
    const message = new HumanMessage({
      content: [
        { type: "text", text: "a" },
        { type: "image_url", image_url: { url: "https://x/i.png" } },
        { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        { type: "image_url", image_url: "data:image/png;base64,AAAA" },
        { type: "input_audio", input_audio: { data: "x", format: "wav" } },
        { type: "file", file: { data: "data:application/pdf;base64,PDF" } },
        { type: "file", file: { file_id: "file-1" } },
        { type: "file", file: { data: "f.pdf", file_id: "file-2" } },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "BBBB" } },
        { type: "image", source: { type: "url", url: "https://y" } },
        { type: "document", source: { type: "file", file_id: "f2" } },
        { type: "document", source: { type: "text", data: "plain" } },
        { type: "image", source_type: "url", url: "https://z", mime_type: "image/jpeg" },
        { type: "file", source_type: "base64", data: "CCCC" },
        { type: "file", source_type: "id", id: "f3", metadata: { n: 1 } },
        { type: "weird", x: 1 },
      ],
    });
    expect(message.contentBlocks).toEqual([
      { type: "text", text: "a" },
      { type: "image", url: "https://x/i.png" },
      { type: "image", mimeType: "image/png", data: "AAAA" },
      { type: "image_url", image_url: "data:image/png;base64,AAAA" },
      { type: "audio", data: "x", mimeType: "audio/wav" },
      { type: "file", data: "PDF", mimeType: "application/pdf" },
      { type: "file", file: { file_id: "file-1" } },
      { type: "file", fileId: "file-2" },
      { type: "image", mimeType: "image/png", data: "BBBB" },
      { type: "image", url: "https://y" },
      { type: "file", fileId: "f2" },
      { type: "file", mimeType: "text/plain", data: "plain" },
      { type: "image", mimeType: "image/jpeg", url: "https://z" },
      { type: "file", mimeType: "application/octet-stream", data: "CCCC" },
      { type: "file", mimeType: undefined, fileId: "f3", metadata: { n: 1 } },
      { type: "weird", x: 1 },
    ]);
  });

  it("adds the AI message's tool calls that the content does not show", () => {
    const message = new AIMessage({
      content: [{ type: "tool_use", id: "t1", name: "f", input: { a: 1 } }],
      tool_calls: [
        { name: "f", args: { a: 1 }, id: "t1" },
        { name: "g", args: {}, id: "t2" },
      ],
    });
    expect(message.contentBlocks).toEqual([
      { type: "tool_use", id: "t1", name: "f", input: { a: 1 } },
      { type: "tool_call", id: "t2", name: "g", args: {} },
    ]);
  });

  it("translates Anthropic output blocks when the provider is anthropic", () => {
    const message = new AIMessage({
      content: [
        { type: "thinking", thinking: "hmm", signature: "sig" },
        { type: "redacted_thinking", data: "xx" },
        { type: "text", text: "answer" },
        { type: "tool_use", id: "t1", name: "f", input: { a: 1 } },
      ],
      tool_calls: [{ name: "f", args: { a: 1 }, id: "t1" }],
      response_metadata: { model_provider: "anthropic" },
    });
    expect(message.contentBlocks).toEqual([
      { type: "reasoning", reasoning: "hmm", signature: "sig" },
      { type: "non_standard", value: { type: "redacted_thinking", data: "xx" } },
      { type: "text", text: "answer" },
      { type: "tool_call", id: "t1", name: "f", args: { a: 1 } },
    ]);
  });

  it("translates Anthropic server tools, citations and refusals as LangChain.js does", () => {
    const anthropic = { model_provider: "anthropic" };
    const message = new AIMessage({
      content: [
        { type: "server_tool_use", id: "s1", name: "web_search", input: { query: "cats" } },
        {
          type: "web_search_tool_result",
          tool_use_id: "s1",
          content: [{ type: "web_search_result", url: "https://a", title: "A" }],
        },
        { type: "server_tool_use", id: "s2", name: "code_execution", partial_json: '{"code":"print(1)"}' },
        { type: "code_execution_tool_result", tool_use_id: "s2", content: { stdout: "1" } },
        {
          type: "text",
          text: "cats purr",
          citations: [
            {
              type: "char_location",
              document_title: "D",
              start_char_index: 1,
              end_char_index: 4,
              cited_text: "c",
            },
            {
              type: "web_search_result_location",
              url: "https://a",
              title: "A",
              encrypted_index: "5",
              cited_text: "p",
            },
            { type: "unknown_location" },
          ],
        },
        { type: "mcp_tool_use", id: "m1", name: "x", input: { a: 1 } },
        { type: "search_result", id: "r1", source: "s" },
        { type: "weird" },
      ],
      response_metadata: anthropic,
    });
    expect(message.contentBlocks).toEqual([
      { id: "s1", type: "server_tool_call", name: "web_search", args: { query: "cats" } },
      {
        type: "server_tool_call_result",
        name: "web_search",
        toolCallId: "s1",
        status: "success",
        output: { urls: ["https://a"] },
      },
      { id: "s2", type: "server_tool_call", name: "code_execution", args: { code: "print(1)" } },
      {
        type: "server_tool_call_result",
        name: "code_execution",
        toolCallId: "s2",
        status: "success",
        output: { stdout: "1" },
      },
      {
        type: "text",
        text: "cats purr",
        annotations: [
          { type: "citation", source: "char", title: "D", startIndex: 1, endIndex: 4, citedText: "c" },
          {
            type: "citation",
            source: "url",
            url: "https://a",
            title: "A",
            startIndex: 5,
            endIndex: 5,
            citedText: "p",
          },
        ],
      },
      { id: "m1", type: "server_tool_call", name: "mcp_tool_use", args: { a: 1 } },
      { id: "r1", type: "non_standard", value: { type: "search_result", id: "r1", source: "s" } },
      { type: "non_standard", value: { type: "weird" } },
    ]);
    const refused = new AIMessage({
      content: "sorry",
      response_metadata: {
        ...anthropic,
        stop_reason: "refusal",
        stop_details: { explanation: "no", category: "c" },
      },
    });
    expect(refused.contentBlocks).toEqual([
      { type: "text", text: "sorry" },
      { type: "refusal", refusal: "no", extras: { category: "c" } },
    ]);
    const delta = new AIMessageChunk({
      content: [{ type: "input_json_delta", partial_json: '{"a"', index: 1 }],
      tool_call_chunks: [{ id: "t", name: "f", args: '{"a"', index: 1 }],
      response_metadata: anthropic,
    });
    expect(delta.contentBlocks).toEqual([
      { type: "tool_call_chunk", id: "t", name: "f", args: '{"a"', index: 1 },
    ]);
  });

  it("returns v1 content as it is", () => {
    const blocks = [{ type: "reasoning", reasoning: "r" }];
    const message = new AIMessage({ content: blocks, response_metadata: { output_version: "v1" } });
    expect(message.contentBlocks).toBe(blocks);
  });

  it("does not add tool calls for other message kinds", () => {
    expect(new ToolMessage({ content: "r", tool_call_id: "c" }).contentBlocks).toEqual([
      { type: "text", text: "r" },
    ]);
  });
});

describe("AIMessage built from standard blocks", () => {
  const call = { type: "tool_call", id: "c1", name: "lookup", args: { q: "x" } } as const;

  it("reads its tool calls from the tool_call blocks", () => {
    expect(new AIMessage({ contentBlocks: [call] }).tool_calls).toEqual([call]);
    const v1 = new AIMessage({ content: [call], response_metadata: { output_version: "v1" } });
    expect(v1.tool_calls).toEqual([call]);
  });

  it("appends tool calls missing from the blocks to the content", () => {
    const given = [{ type: "text", text: "hi" }];
    const message = new AIMessage({
      contentBlocks: given,
      tool_calls: [{ type: "tool_call", id: "c2", name: "other", args: {} }],
    });
    expect(message.content).toEqual([
      { type: "text", text: "hi" },
      { type: "tool_call", id: "c2", name: "other", args: {} },
    ]);
    expect(given).toHaveLength(1);
    expect(message.tool_calls).toHaveLength(1);
  });

  it("turns v1 string content into a text block", () => {
    const message = new AIMessage({ content: "hi", response_metadata: { output_version: "v1" } });
    expect(message.content).toEqual([{ type: "text", text: "hi" }]);
  });

  it("reads null blocks as none and a single block as a list of one, as LangChain.js does", () => {
    const tool_calls = [{ type: "tool_call", id: "c2", name: "other", args: {} }] as const;
    const none = new AIMessage({ contentBlocks: null as never, tool_calls: [...tool_calls] });
    expect(none.content).toEqual([{ type: "tool_call", id: "c2", name: "other", args: {} }]);
    expect(new AIMessage({ contentBlocks: null as never }).content).toEqual([]);
    const single = new AIMessage({
      contentBlocks: { type: "text", text: "x" } as never,
      tool_calls: [...tool_calls],
    });
    expect(single.content).toEqual([
      { type: "text", text: "x" },
      { type: "tool_call", id: "c2", name: "other", args: {} },
    ]);
    expect(single.tool_calls).toEqual([...tool_calls]);
    expect(single.response_metadata).toEqual({ output_version: "v1" });
  });
});

describe("contentBlocks of AI message chunks", () => {
  const chunkWithCall = (content: string | ContentBlock[]) =>
    new AIMessageChunk({ content, tool_call_chunks: [{ name: "f", args: "{}", id: "c1", index: 0 }] });

  it("list tool calls only beside block content, as LangChain.js's chunks do", () => {
    expect(chunkWithCall("hi").contentBlocks).toEqual([{ type: "text", text: "hi" }]);
    expect(chunkWithCall([{ type: "text", text: "hi" }]).contentBlocks).toEqual([
      { type: "text", text: "hi" },
      { type: "tool_call", id: "c1", name: "f", args: {} },
    ]);
  });
});

// expected values printed by @langchain/core 1.4.0's `contentBlocks` for the same messages
describe("contentBlocks of OpenAI Chat Completions and Ollama answers", () => {
  const calls = [
    { name: "get_weather", args: { city: "Suzhou" }, id: "call_1", type: "tool_call" as const },
    { name: "noid", args: {}, type: "tool_call" as const },
  ];
  /** The two calls as blocks. */
  const callBlocks = [
    { type: "tool_call", id: "call_1", name: "get_weather", args: { city: "Suzhou" } },
    { type: "tool_call", name: "noid", args: {} },
  ];

  it("lists an OpenAI answer's text only when there is some, its tool calls and its refusal", () => {
    const meta = { model_provider: "openai" };
    expect(new AIMessage({ content: "", tool_calls: calls, response_metadata: meta }).contentBlocks).toEqual([
      ...callBlocks,
    ]);
    const chunk = new AIMessageChunk({
      content: "Sure",
      tool_calls: calls,
      additional_kwargs: { refusal: "no" },
      response_metadata: meta,
    });
    expect(chunk.contentBlocks).toEqual([
      { type: "text", text: "Sure" },
      ...callBlocks,
      { type: "refusal", refusal: "no" },
    ]);
    const empty = new AIMessage({ content: "", additional_kwargs: { refusal: "" }, response_metadata: meta });
    expect(empty.contentBlocks).toEqual([]);
    // only AI messages are translated
    expect(new HumanMessage({ content: "", response_metadata: meta }).contentBlocks).toEqual([
      { type: "text", text: "" },
    ]);
  });

  it("lists an Ollama answer's reasoning, text blocks and tool calls", () => {
    const meta = { model_provider: "ollama" };
    const message = new AIMessage({
      content: "42",
      tool_calls: calls,
      additional_kwargs: { reasoning_content: "think" },
      response_metadata: meta,
    });
    expect(message.contentBlocks).toEqual([
      { type: "reasoning", reasoning: "think" },
      { type: "text", text: "42" },
      ...callBlocks,
    ]);
    const chunk = new AIMessageChunk({
      content: [
        { type: "text", text: "a" },
        { type: "image_url", image_url: "http://x" },
        { type: "text", text: "b" },
      ],
      response_metadata: meta,
    });
    expect(chunk.contentBlocks).toEqual([
      { type: "text", text: "a" },
      { type: "text", text: "b" },
    ]);
  });
});

describe("contentBlocks of tool calls that share an id", () => {
  // expected values printed by @langchain/core 1.4.0: each call is checked against the
  // content's own blocks, so both calls are listed
  const call = { name: "get_weather", args: { city: "Suzhou" }, id: "call_1", type: "tool_call" as const };

  it("lists both calls of an AI message", () => {
    expect(new AIMessage({ content: "x", tool_calls: [call, call] }).contentBlocks).toEqual([
      { type: "text", text: "x" },
      { type: "tool_call", id: "call_1", name: "get_weather", args: { city: "Suzhou" } },
      { type: "tool_call", id: "call_1", name: "get_weather", args: { city: "Suzhou" } },
    ]);
  });

  it("lists both calls of an AI message chunk with block content", () => {
    const chunk = new AIMessageChunk({
      content: [{ type: "text", text: "x" }],
      tool_calls: [call, { ...call, args: { city: "Wuxi" } }],
    });
    expect(chunk.contentBlocks).toEqual([
      { type: "text", text: "x" },
      { name: "get_weather", args: { city: "Suzhou" }, id: "call_1", type: "tool_call" },
      { name: "get_weather", args: { city: "Wuxi" }, id: "call_1", type: "tool_call" },
    ]);
  });
});

describe("contentBlocks of an Anthropic MCP tool result", () => {
  it("translates a result whose content is a list of blocks", () => {
    // expected value printed by @langchain/core 1.4.0 for the same message and its chunk
    const content = [
      { type: "mcp_tool_use", id: "mcptoolu_1", name: "search", server_name: "docs", input: { q: "x" } },
      {
        type: "mcp_tool_result",
        tool_use_id: "mcptoolu_1",
        is_error: false,
        content: [{ type: "text", text: "found" }],
      },
    ];
    const expected = [
      { id: "mcptoolu_1", type: "server_tool_call", name: "mcp_tool_use", args: { q: "x" } },
      {
        type: "server_tool_call_result",
        name: "mcp_tool_use",
        toolCallId: "mcptoolu_1",
        status: "success",
        output: [{ type: "text", text: "found" }],
      },
    ];
    const response_metadata = { model_provider: "anthropic" };
    expect(new AIMessage({ content, response_metadata }).contentBlocks).toStrictEqual(expected);
    expect(new AIMessageChunk({ content, response_metadata }).contentBlocks).toStrictEqual(expected);
  });
});
