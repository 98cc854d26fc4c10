// The LangChain.js helper exports (merge helpers, legacy data blocks, OpenAI tool-call parsing,
// notification metadata); core-helpers.compat.test.ts compares them with the reference.
import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidArgumentError } from "../shared/index.js";
import {
  _mergeDicts,
  _mergeLists,
  _mergeObj,
  _mergeStatus,
  AIMessageChunk,
  addNotificationMetadata,
  convertToOpenAIImageBlock,
  DEFAULT_MERGE_IGNORE_KEYS,
  defaultToolCallParser,
  getNotificationMetadata,
  HumanMessage,
  isDataContentBlock,
  MessageMergeError,
  mergeResponseMetadata,
  parseBase64DataUrl,
  parseMimeType,
} from "./index.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("merge helpers", () => {
  it("merge with the default or the given ignored keys", () => {
    expect(_mergeDicts({ index: 0, n: 1, s: "a" }, { index: 1, n: 2, s: "b" })).toEqual({
      index: 0,
      n: 3,
      s: "ab",
    });
    expect(
      _mergeDicts(
        { index: 0, n: 1 },
        { index: 1, n: 2 },
        { ignoreKeys: [...DEFAULT_MERGE_IGNORE_KEYS, "n"] },
      ),
    ).toEqual({ index: 0, n: 1 });
    expect(_mergeLists([{ index: 0, n: 1 }], [{ index: 0, n: 2 }], { ignoreKeys: ["n"] })).toEqual([
      { index: 0, n: 1 },
    ]);
    expect(() => _mergeDicts({ a: 1 }, { a: "1" })).toThrow(MessageMergeError);
    expect(_mergeObj({ rows: [1] }, { rows: [2] })).toEqual({ rows: [1, 2] });
    expect(_mergeStatus()).toBe("success");
    expect(mergeResponseMetadata()).toEqual({});
  });

  it("warn about unmergeable values, while chunk concatenation stays silent", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const a = new AIMessageChunk({ content: "", additional_kwargs: { flag: true } });
    const b = new AIMessageChunk({ content: "", additional_kwargs: { flag: false } });
    expect(a.concat(b).additional_kwargs).toEqual({ flag: true });
    expect(warn).not.toHaveBeenCalled();
    expect(_mergeDicts({ flag: true }, { flag: false })).toEqual({ flag: true });
    expect(warn).toHaveBeenCalledWith(
      "field[flag] already exists in this message chunk and value has unsupported type.",
    );
  });
});

describe("legacy data blocks", () => {
  it("recognise and convert data blocks", () => {
    const block = { type: "image", source_type: "base64", data: "aGk=", mime_type: "image/png" } as const;
    expect(isDataContentBlock(block)).toBe(true);
    expect(convertToOpenAIImageBlock(block)).toEqual({
      type: "image_url",
      image_url: { url: "data:image/png;base64,aGk=" },
    });
    expect(() => convertToOpenAIImageBlock({ ...block, mime_type: undefined })).toThrow(InvalidArgumentError);
  });

  it("parse MIME types and data URLs", () => {
    expect(parseMimeType("text/plain; charset=utf-8")).toEqual({
      type: "text",
      subtype: "plain",
      parameters: { charset: "utf-8" },
    });
    expect(() => parseMimeType("text")).toThrow(
      'Invalid mime type: "text" - does not match type/subtype format.',
    );
    expect(parseMimeType("a/b; __proto__=x").parameters).toEqual(JSON.parse('{"__proto__":"x"}'));
    expect(parseBase64DataUrl({ dataUrl: "data:Text/Plain;base64,aGk=" })).toEqual({
      mime_type: "text/plain",
      data: "aGk=",
    });
    expect(parseBase64DataUrl({ dataUrl: "data:text/plain;base64,aGk=", asTypedArray: true })?.data).toEqual(
      new Uint8Array([104, 105]),
    );
    expect(parseBase64DataUrl({ dataUrl: "https://example.com/a.png" })).toBeUndefined();
  });
});

describe("defaultToolCallParser", () => {
  it("keeps LangChain.js's untyped results", () => {
    expect(
      defaultToolCallParser([
        { id: "1", type: "function", function: { name: "f", arguments: '{"a":1}' } },
        { id: "2", type: "function", function: { name: "g", arguments: "" } },
        { id: "3" },
      ]),
    ).toStrictEqual([
      [{ name: "f", args: { a: 1 }, id: "1" }],
      [{ name: "g", args: "", id: "2", error: "Malformed args." }],
    ]);
  });
});

describe("notification metadata", () => {
  it("marks a copy and reads the mark back", () => {
    const original = new HumanMessage({
      content: "Task done.",
      id: "n1",
      additional_kwargs: { lc_data: { old: 1 } },
    });
    const note = addNotificationMetadata(original, { source: "async_subagent", data: { task_id: "t_42" } });
    expect(note).toBeInstanceOf(HumanMessage);
    expect([note.id, note.content]).toEqual(["n1", "Task done."]);
    expect(note.additional_kwargs).toEqual({ lc_source: "async_subagent", lc_data: { task_id: "t_42" } });
    expect(original.additional_kwargs).toEqual({ lc_data: { old: 1 } });
    expect(getNotificationMetadata(note)).toEqual({ source: "async_subagent", data: { task_id: "t_42" } });
    expect(getNotificationMetadata(original)).toBeUndefined();
    expect(getNotificationMetadata(addNotificationMetadata(original, { source: "x" }))).toEqual({
      source: "x",
    });
  });
});
