import { describe, expect, it } from "vitest";
import { collapseToolCallChunks, mergeContent, mergeUsageMetadata } from "./index.js";
import { mergeDicts, mergeLists, mergeStatus, mergeValues } from "./merge.js";

describe("mergeContent", () => {
  it("appends strings and ignores empty sides", () => {
    expect(mergeContent("a", "b")).toBe("ab");
    expect(mergeContent("", [{ type: "text", text: "x" }])).toEqual([{ type: "text", text: "x" }]);
    expect(mergeContent("a", [])).toBe("a");
    expect(mergeContent([{ type: "text", text: "x" }], "")).toEqual([{ type: "text", text: "x" }]);
  });

  it("keeps legacy data-block content in data-block form", () => {
    const data = [{ type: "image", source_type: "url", url: "u" }];
    expect(mergeContent("a", data)).toEqual([{ type: "text", source_type: "text", text: "a" }, ...data]);
    expect(mergeContent(data, "b")).toEqual([...data, { type: "file", source_type: "text", text: "b" }]);
  });
});

describe("mergeDicts", () => {
  it("appends strings, adds numbers and recurses, with LangChain's exceptions", () => {
    expect(
      mergeDicts(
        {
          text: "a",
          n: 1,
          index: 0,
          created: 5,
          type: "x",
          id: "1",
          nested: { s: "p" },
          list: [{ index: 0, text: "a" }],
        },
        {
          text: "b",
          n: 2,
          index: 9,
          created: 6,
          type: "y",
          id: "2",
          nested: { s: "q" },
          list: [{ index: 0, text: "b" }],
        },
      ),
    ).toEqual({
      text: "ab",
      n: 3,
      index: 0,
      created: 5,
      type: "x",
      id: "2",
      nested: { s: "pq" },
      list: [{ index: 0, text: "ab" }],
    });
  });

  it("keeps a value when the other side is null and the first of other kinds", () => {
    expect(mergeDicts({ a: null, b: "x", flag: true }, { a: "y", b: null, flag: false })).toEqual({
      a: "y",
      b: "x",
      flag: true,
    });
    expect(mergeDicts(undefined, { a: 1 })).toEqual({ a: 1 });
    expect(mergeDicts({ a: 1 }, undefined)).toEqual({ a: 1 });
    expect(mergeDicts(undefined, undefined)).toBeUndefined();
  });

  it("keeps an empty replacement id, as LangChain.js does", () => {
    expect(mergeDicts({ id: "1" }, { id: "" })).toEqual({ id: "1" });
  });

  it("treats a __proto__ key as data", () => {
    const merged = mergeDicts({}, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.keys(merged)).toEqual(["__proto__"]);
  });
});

describe("mergeLists", () => {
  it("merges by index (and id), drops empty text fragments, appends the rest", () => {
    expect(
      mergeLists<Record<string, unknown>>(
        [
          { index: 0, id: "a", args: "{" },
          { id: "k", v: "1" },
        ],
        [
          { index: 0, args: "}" },
          { index: 0, id: "b", args: "x" },
          { id: "k", v: "2" },
          { text: "" },
          { text: "z" },
        ],
      ),
    ).toEqual([
      { index: 0, id: "a", args: "{}" },
      { id: "k", v: "12" },
      { index: 0, id: "b", args: "x" },
      { text: "z" },
    ]);
    expect(
      mergeLists([{ index: 0, type: "tool_use" }], [{ index: 0, type: "input_json_delta" }]),
    ).toHaveLength(2);
    expect(
      mergeLists([{ index: 0, type: "text", text: "a" }], [{ index: 0, type: "text_delta", text: "b" }]),
    ).toEqual([{ index: 0, type: "text", text: "ab" }]);
    expect(mergeLists(undefined, [1])).toEqual([1]);
    expect(mergeLists([1], undefined)).toEqual([1]);
    expect(mergeLists(undefined, undefined)).toBeUndefined();
  });
});

describe("mergeValues and mergeStatus", () => {
  it("merge artifacts and statuses", () => {
    expect(mergeValues("a", "b")).toBe("ab");
    expect(mergeValues([1], [2])).toEqual([1, 2]);
    expect(mergeValues({ a: "x" }, { a: "y" })).toEqual({ a: "xy" });
    expect(mergeValues(undefined, 1)).toBe(1);
    expect(mergeValues(3, 3)).toBe(3);
    expect(() => mergeValues(3, 4)).toThrow("Can not merge objects of different types.\nLeft 3\nRight 4");
    expect(mergeStatus("success", undefined)).toBe("success");
    expect(mergeStatus(undefined, "error")).toBe("error");
  });
});

describe("mergeUsageMetadata", () => {
  it("adds every count, missing ones reading as 0", () => {
    expect(
      mergeUsageMetadata(
        {
          input_tokens: 1,
          output_tokens: 2,
          total_tokens: 3,
          input_token_details: { cache_read: 1, audio: 2 },
        },
        {
          input_tokens: 4,
          output_tokens: 5,
          total_tokens: 9,
          input_token_details: { cache_creation: 3 },
          output_token_details: { reasoning: 7 },
        },
      ),
    ).toEqual({
      input_tokens: 5,
      output_tokens: 7,
      total_tokens: 12,
      input_token_details: { audio: 2, cache_read: 1, cache_creation: 3 },
      output_token_details: { reasoning: 7 },
    });
    expect(mergeUsageMetadata(undefined, undefined)).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      total_tokens: 0,
      input_token_details: {},
      output_token_details: {},
    });
  });
});

describe("collapseToolCallChunks", () => {
  it("groups fragments by id and index", () => {
    const { tool_calls, invalid_tool_calls } = collapseToolCallChunks([
      { name: "f", args: '{"a":', id: "1", index: 0 },
      { name: "g", args: '{"b":', id: "2", index: 1 },
      { args: " 1}", index: 0 },
      { args: "2}", id: "2" },
      { name: "h", args: "not json", id: "3" },
    ]);
    expect(tool_calls).toEqual([
      { name: "f", args: { a: 1 }, id: "1", type: "tool_call" },
      { name: "g", args: { b: 2 }, id: "2", type: "tool_call" },
    ]);
    expect(invalid_tool_calls).toEqual([
      { name: "h", args: "not json", id: "3", error: "Malformed args.", type: "invalid_tool_call" },
    ]);
  });
});
