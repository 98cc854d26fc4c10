import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AIMessage,
  AIMessageChunk,
  concat,
  HumanMessageChunk,
  MessageMergeError,
  SystemMessageChunk,
  ToolMessageChunk,
} from "./index.js";

describe("AIMessageChunk", () => {
  it("derives tool calls from fragments, parsing partial JSON", () => {
    const chunk = new AIMessageChunk({
      content: "",
      tool_call_chunks: [{ name: "f", args: '{"city": "Suz', id: "c1", index: 0, type: "tool_call_chunk" }],
    });
    expect(chunk.tool_calls).toEqual([{ name: "f", args: { city: "Suz" }, id: "c1", type: "tool_call" }]);
    expect(chunk.invalid_tool_calls).toEqual([]);
  });

  it("reports fragments without an id, or with non-object args, as invalid", () => {
    const noId = new AIMessageChunk({
      content: "",
      tool_call_chunks: [{ name: "f", args: '{"a":1}', index: 0 }],
    });
    expect(noId.tool_calls).toEqual([]);
    expect(noId.invalid_tool_calls).toEqual([
      { name: "f", args: '{"a":1}', id: undefined, error: "Malformed args.", type: "invalid_tool_call" },
    ]);
    const array = new AIMessageChunk({
      content: "",
      tool_call_chunks: [{ name: "f", args: "[1]", id: "x", index: 0 }],
    });
    expect(array.invalid_tool_calls).toEqual([
      { name: "f", args: "[1]", id: "x", error: "Malformed args.", type: "invalid_tool_call" },
    ]);
    const empty = new AIMessageChunk({
      content: "",
      tool_call_chunks: [{ name: "f", args: "  ", id: "x", index: 0 }],
    });
    expect(empty.tool_calls).toEqual([{ name: "f", args: {}, id: "x", type: "tool_call" }]);
  });

  it("exposes derived tool calls as own enumerable properties that can be reassigned", () => {
    const chunk = new AIMessageChunk({
      content: "",
      tool_call_chunks: [{ name: "f", args: "{}", id: "x", index: 0 }],
    });
    expect(Object.keys(chunk)).toContain("tool_calls");
    expect({ ...chunk }.tool_calls).toEqual([{ name: "f", args: {}, id: "x", type: "tool_call" }]);
    chunk.tool_calls = [];
    expect(chunk.tool_calls).toEqual([]);
    expect(chunk.invalid_tool_calls).toEqual([]);
  });

  it("uses the given tool calls when there are no fragments", () => {
    const chunk = new AIMessageChunk({
      content: "",
      tool_calls: [{ name: "f", args: {}, id: "1" }],
      invalid_tool_calls: [{ name: "g", args: "{", id: "2", error: "bad" }],
    });
    expect(chunk.tool_calls).toStrictEqual([{ name: "f", args: {}, id: "1" }]);
    expect(chunk.invalid_tool_calls).toStrictEqual([{ name: "g", args: "{", id: "2", error: "bad" }]);
    expect(chunk.tool_call_chunks).toEqual([]);
  });

  it("concatenates text, fragments by index, metadata and usage", () => {
    const a = new AIMessageChunk({
      content: "Hel",
      id: "run-1",
      tool_call_chunks: [{ name: "f", args: '{"ci', id: "c1", index: 0, type: "tool_call_chunk" }],
      response_metadata: { model_name: "m", created: 5 },
      usage_metadata: { input_tokens: 3, output_tokens: 1, total_tokens: 4 },
    });
    const b = new AIMessageChunk({
      content: "lo",
      tool_call_chunks: [
        { args: 'ty": "Suz', index: 0, type: "tool_call_chunk" },
        { name: "g", args: "", id: "c2", index: 1, type: "tool_call_chunk" },
      ],
      response_metadata: { created: 6, finish_reason: "stop" },
      usage_metadata: {
        input_tokens: 0,
        output_tokens: 2,
        total_tokens: 2,
        output_token_details: { reasoning: 1 },
      },
    });
    const c = new AIMessageChunk({
      content: "",
      tool_call_chunks: [
        { args: 'hou"}', index: 0, type: "tool_call_chunk" },
        { args: "{bad", index: 1, type: "tool_call_chunk" },
      ],
    });
    const whole = a.concat(b).concat(c);
    expect(whole).toBeInstanceOf(AIMessageChunk);
    expect(whole.content).toBe("Hello");
    expect(whole.id).toBe("run-1");
    expect(whole.tool_call_chunks).toEqual([
      { name: "f", args: '{"city": "Suzhou"}', id: "c1", index: 0, type: "tool_call_chunk" },
      { name: "g", args: "{bad", id: "c2", index: 1, type: "tool_call_chunk" },
    ]);
    expect(whole.tool_calls).toEqual([{ name: "f", args: { city: "Suzhou" }, id: "c1", type: "tool_call" }]);
    expect(whole.invalid_tool_calls).toEqual([
      { name: "g", args: "{bad", id: "c2", error: "Malformed args.", type: "invalid_tool_call" },
    ]);
    expect(whole.response_metadata).toEqual({ model_name: "m", created: 5, finish_reason: "stop" });
    expect(whole.usage_metadata).toEqual({
      input_tokens: 3,
      output_tokens: 3,
      total_tokens: 6,
      input_token_details: {},
      output_token_details: { reasoning: 1 },
    });
  });

  it("keeps fragments of different ids at the same index apart", () => {
    const whole = new AIMessageChunk({
      content: "",
      tool_call_chunks: [{ name: "f", args: "{}", id: "c1", index: 0 }],
    }).concat(
      new AIMessageChunk({ content: "", tool_call_chunks: [{ name: "g", args: "{}", id: "c2", index: 0 }] }),
    );
    expect(whole.tool_calls.map((c) => c.id)).toEqual(["c1", "c2"]);
  });

  it("merges content blocks with the same index and appends the others", () => {
    const whole = new AIMessageChunk({ content: [{ type: "text", text: "a", index: 0 }] })
      .concat(
        new AIMessageChunk({
          content: [
            { type: "text", text: "b", index: 0 },
            { type: "tool_use", id: "t", name: "f", input: "", index: 1 },
          ],
        }),
      )
      .concat(new AIMessageChunk({ content: [{ type: "input_json_delta", input: '{"a"', index: 1 }] }));
    expect(whole.content).toEqual([
      { type: "text", text: "ab", index: 0 },
      { type: "tool_use", id: "t", name: "f", input: "", index: 1 },
      { type: "input_json_delta", input: '{"a"', index: 1 },
    ]);
  });

  it("turns mixed string and block content into blocks", () => {
    expect(new AIMessageChunk("a").concat(new AIMessageChunk([{ type: "text", text: "b" }])).content).toEqual(
      [
        { type: "text", text: "a" },
        { type: "text", text: "b" },
      ],
    );
    expect(new AIMessageChunk([{ type: "text", text: "b" }]).concat(new AIMessageChunk("c")).content).toEqual(
      [
        { type: "text", text: "b" },
        { type: "text", text: "c" },
      ],
    );
    expect(new AIMessageChunk("").concat(new AIMessageChunk([{ type: "text", text: "b" }])).content).toEqual([
      { type: "text", text: "b" },
    ]);
  });

  it("merges legacy function_call arguments and keeps the first name and id", () => {
    const whole = new AIMessageChunk({
      content: "",
      name: "bot",
      additional_kwargs: { function_call: { name: "f", arguments: "{" } },
    }).concat(
      new AIMessageChunk({
        content: "",
        name: "other",
        id: "i2",
        additional_kwargs: { function_call: { name: "", arguments: "}" } },
      }),
    );
    expect(whole.additional_kwargs).toEqual({ function_call: { name: "f", arguments: "{}" } });
    expect(whole.name).toBe("bot");
    expect(whole.id).toBe("i2");
  });

  it("merges complete tool calls by id when there are no fragments", () => {
    const whole = new AIMessageChunk({
      content: "",
      tool_calls: [{ name: "f", args: { a: 1 }, id: "1" }],
    }).concat(new AIMessageChunk({ content: "", tool_calls: [{ name: "g", args: {}, id: "2" }] }));
    expect(whole.tool_calls).toStrictEqual([
      { name: "f", args: { a: 1 }, id: "1" },
      { name: "g", args: {}, id: "2" },
    ]);
  });

  it("throws a typed error when a metadata field changes type", () => {
    const join = () =>
      new AIMessageChunk({ content: "a", additional_kwargs: { x: 1 } }).concat(
        new AIMessageChunk({ content: "", additional_kwargs: { x: "s" } }),
      );
    expect(join).toThrow(MessageMergeError);
    expect(join).toThrow("field[x] already exists in the message chunk, but with a different type.");
  });

  it("preserves a subclass through concat", () => {
    class MyChunk extends AIMessageChunk {}
    expect(new MyChunk("a").concat(new MyChunk("b"))).toBeInstanceOf(MyChunk);
  });
});

describe("other chunks", () => {
  it("concatenate human and system chunks", () => {
    const h = new HumanMessageChunk({ content: "a", id: "h" }).concat(new HumanMessageChunk("b"));
    expect(h).toBeInstanceOf(HumanMessageChunk);
    expect(h).toMatchObject({ content: "ab", id: "h" });
    const s = new SystemMessageChunk("a").concat(new SystemMessageChunk({ content: "b", id: "s" }));
    expect(s).toMatchObject({ content: "ab", id: "s" });
  });

  it("concatenate tool chunks: artifacts merge and error wins", () => {
    const t = new ToolMessageChunk({ content: "a", tool_call_id: "c", artifact: [1] }).concat(
      new ToolMessageChunk({ content: "b", tool_call_id: "other", artifact: [2], status: "error" }),
    );
    expect(t).toMatchObject({ content: "ab", tool_call_id: "c", status: "error", artifact: [1, 2] });
    const noArtifact = new ToolMessageChunk({ content: "a", tool_call_id: "c" }).concat(
      new ToolMessageChunk({ content: "b", tool_call_id: "c" }),
    );
    expect(noArtifact.artifact).toBeUndefined();
    expect(noArtifact.status).toBe("success");
    expect(() =>
      new ToolMessageChunk({ content: "a", tool_call_id: "c", artifact: 1 }).concat(
        new ToolMessageChunk({ content: "b", tool_call_id: "c", artifact: "x" }),
      ),
    ).toThrow("Cannot merge objects of different types.\nLeft number\nRight string");
  });
});

describe("concat", () => {
  it("joins chunks, strings, numbers, arrays and objects", () => {
    expect(concat(new AIMessageChunk("a"), new AIMessageChunk("b")).content).toBe("ab");
    expect(concat("a", "b")).toBe("ab");
    expect(concat(1, 2)).toBe(3);
    expect(concat([1], [2])).toEqual([1, 2]);
    expect(concat({ text: "a", n: 1, list: [1] }, { text: "b", n: 2, list: [2], extra: true })).toEqual({
      text: "ab",
      n: 3,
      list: [2],
      extra: true,
    });
  });

  it("rejects values it cannot join", () => {
    expect(() => concat(true as never, false as never)).toThrow(MessageMergeError);
    expect(() => concat(true as never, false as never)).toThrow("Cannot concat boolean and boolean");
  });
});

/** Cuts a string into pieces at the given sorted positions. */
function cut(text: string, positions: readonly number[]): string[] {
  const points = [...new Set(positions.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const point of points) {
    pieces.push(text.slice(start, point));
    start = point;
  }
  pieces.push(text.slice(start));
  return pieces;
}

describe("streaming properties", () => {
  const argsArb = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 6 }),
    fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.integer(), { maxLength: 3 }),
    ),
    { maxKeys: 4 },
  );
  const wholeArb = fc.record({
    text: fc.string({ maxLength: 40 }),
    calls: fc.array(fc.record({ name: fc.constantFrom("search", "get_weather"), args: argsArb }), {
      maxLength: 3,
    }),
    usage: fc.array(fc.nat(100), { minLength: 1, maxLength: 6 }),
  });

  it("concatenating the fragments of any split gives the whole message", () => {
    fc.assert(
      fc.property(
        wholeArb,
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (whole, textCuts, argCuts) => {
          const chunks: AIMessageChunk[] = cut(whole.text, textCuts).map(
            (piece) => new AIMessageChunk({ content: piece, id: "run-1" }),
          );
          whole.calls.forEach((call, index) => {
            cut(JSON.stringify(call.args), argCuts).forEach((piece, i) => {
              const head = i === 0 ? { name: call.name, id: `call_${index}` } : {};
              chunks.push(
                new AIMessageChunk({
                  content: "",
                  tool_call_chunks: [{ ...head, args: piece, index, type: "tool_call_chunk" }],
                }),
              );
            });
          });
          whole.usage.forEach((n) => {
            chunks.push(
              new AIMessageChunk({
                content: "",
                usage_metadata: { input_tokens: 0, output_tokens: n, total_tokens: n },
              }),
            );
          });
          const joined = chunks.reduce((acc, chunk) => acc.concat(chunk));
          expect(joined.content).toBe(whole.text);
          expect(joined.id).toBe("run-1");
          expect(joined.tool_calls).toEqual(
            whole.calls.map((call, index) => ({
              name: call.name,
              args: call.args,
              id: `call_${index}`,
              type: "tool_call",
            })),
          );
          expect(joined.invalid_tool_calls).toEqual([]);
          const total = whole.usage.reduce((a, b) => a + b, 0);
          expect(joined.usage_metadata?.output_tokens).toBe(total);
          expect(joined.usage_metadata?.total_tokens).toBe(total);
        },
      ),
      { numRuns: 300 },
    );
  });

  // A stream uses one content form throughout (strings, or indexed blocks); within a form,
  // how the fragments are grouped does not matter.
  it("concatenation is associative on content and tool calls within one content form", () => {
    const chunkArb = fc.record({
      text: fc.string({ maxLength: 5 }),
      args: fc.string({ maxLength: 5 }),
      index: fc.integer({ min: 0, max: 1 }),
    });
    const make = (spec: { text: string; args: string; index: number }, blocks: boolean) =>
      new AIMessageChunk({
        content: blocks ? [{ type: "text", text: spec.text, index: 0 }] : spec.text,
        tool_call_chunks: [
          { args: spec.args, index: spec.index, ...(spec.index === 0 ? { id: "c0", name: "f" } : {}) },
        ],
      });
    fc.assert(
      fc.property(chunkArb, chunkArb, chunkArb, fc.boolean(), (x, y, z, blocks) => {
        const left = make(x, blocks).concat(make(y, blocks)).concat(make(z, blocks));
        const right = make(x, blocks).concat(make(y, blocks).concat(make(z, blocks)));
        expect(right.content).toEqual(left.content);
        expect(right.tool_call_chunks).toEqual(left.tool_call_chunks);
        expect(right.tool_calls).toEqual(left.tool_calls);
      }),
      { numRuns: 300 },
    );
  });
});

describe("AIMessageChunk.concat with a chunk of another kind", () => {
  it("joins the content, as LangChain.js does", () => {
    const joined = new AIMessageChunk("a").concat(new HumanMessageChunk("b") as unknown as AIMessageChunk);
    expect(joined.content).toBe("ab");
    expect(joined.tool_calls).toEqual([]);
  });
});

describe("AIMessage with content marked output_version v1", () => {
  // @langchain/core 1.4.0 reads such content as given content blocks, which lists output_version
  // first; AIMessageChunk and other versions keep the order given
  it("lists output_version first in its response metadata", () => {
    const v1 = new AIMessage({ content: "x", response_metadata: { a: 1, output_version: "v1" } });
    expect(Object.keys(v1.response_metadata)).toEqual(["output_version", "a"]);
    const v0 = new AIMessage({ content: "x", response_metadata: { a: 1, output_version: "v0" } });
    expect(Object.keys(v0.response_metadata)).toEqual(["a", "output_version"]);
    const chunk = new AIMessageChunk({ content: "x", response_metadata: { a: 1, output_version: "v1" } });
    expect(Object.keys(chunk.response_metadata)).toEqual(["a", "output_version"]);
  });
});
