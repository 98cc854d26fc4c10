/**
 * Differential property test of `AIMessageChunk` concatenation against `@langchain/core/messages`
 * 1.4.0 (a dev dependency): random streams of chunks (text or block content, tool-call fragments
 * split by index, id, name and argument text, usage and metadata) are folded on both sides and
 * the merged fields compared. Chunk names and `invalid_tool_calls` given without fragments are
 * left out: agentgraph keeps those on purpose (see docs/messages.md).
 */
import * as lc from "@langchain/core/messages";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as ours from "./index.js";

const fragment = fc.constantFrom("", "{", '{"a"', ":", "1", "}", '"x"', ",", '"b":2', " ", "[", "]", "null");
const text = fc.constantFrom("", "a", "hi", " there", "\n", "{}", "x y");
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const toolCallChunk = fc
  .record({
    index: optional(fc.integer({ min: 0, max: 2 })),
    id: optional(fc.constantFrom("call_1", "call_2", "")),
    name: optional(fc.constantFrom("f", "g", "")),
    args: optional(fragment),
  })
  .map((fields) => {
    const chunk: Record<string, unknown> = { type: "tool_call_chunk" };
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) chunk[key] = value;
    return chunk;
  });

const block = fc.oneof(
  fc.record(
    { type: fc.constant("text"), text, index: fc.integer({ min: 0, max: 2 }) },
    { requiredKeys: ["type", "text"] },
  ),
  fc.record({
    type: fc.constant("input_json_delta"),
    input: fragment,
    index: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({ type: fc.constant("thinking"), thinking: text, index: fc.integer({ min: 0, max: 2 }) }),
);

const usage = fc.record(
  {
    input_tokens: fc.integer({ min: 0, max: 9 }),
    output_tokens: fc.integer({ min: 0, max: 9 }),
    total_tokens: fc.integer({ min: 0, max: 20 }),
    input_token_details: fc.record({ cache_read: fc.integer({ min: 0, max: 3 }) }, { requiredKeys: [] }),
    output_token_details: fc.record({ reasoning: fc.integer({ min: 0, max: 3 }) }, { requiredKeys: [] }),
  },
  { requiredKeys: ["input_tokens", "output_tokens", "total_tokens"] },
);

const chunkFields = fc.record(
  {
    content: fc.oneof(text, fc.array(block, { maxLength: 3 })),
    id: fc.constantFrom("run-1", "chatcmpl-1", "lc_run--abc", "msg_2", ""),
    tool_call_chunks: fc.array(toolCallChunk, { maxLength: 2 }),
    usage_metadata: usage,
    response_metadata: fc.record(
      {
        model_name: text,
        finish_reason: fc.constantFrom("stop", "tool_calls"),
        index: fc.integer({ min: 0, max: 2 }),
        usage: fc.record({ n: fc.integer({ min: 0, max: 3 }) }),
      },
      { requiredKeys: [] },
    ),
    additional_kwargs: fc.record({ refusal: text, reasoning_content: text }, { requiredKeys: [] }),
  },
  { requiredKeys: ["content"] },
);

type Chunk = {
  concat(other: never): Chunk;
  [key: string]: unknown;
};

/** Folds the chunks with `concat` and returns the merged fields as plain data. */
function fold(make: (fields: unknown) => Chunk, fields: readonly unknown[]): unknown {
  const chunks = fields.map((f) => make(structuredClone(f)));
  let merged = chunks[0] as Chunk;
  for (const next of chunks.slice(1)) merged = merged.concat(next as never);
  const keys = [
    "content",
    "id",
    "tool_calls",
    "invalid_tool_calls",
    "tool_call_chunks",
    "usage_metadata",
    "response_metadata",
    "additional_kwargs",
  ];
  return JSON.parse(JSON.stringify(Object.fromEntries(keys.map((key) => [key, merged[key]]))));
}

describe("AIMessageChunk concat, compared with @langchain/core", () => {
  it("merges random chunk streams as LangChain.js does", () => {
    fc.assert(
      fc.property(fc.array(chunkFields, { minLength: 1, maxLength: 5 }), (fields) => {
        const mine = fold((f) => new ours.AIMessageChunk(f as never) as unknown as Chunk, fields);
        const theirs = fold((f) => new lc.AIMessageChunk(f as never) as unknown as Chunk, fields);
        expect(mine).toStrictEqual(theirs);
      }),
      { numRuns: 300, seed: 20261206 },
    );
  });
});
