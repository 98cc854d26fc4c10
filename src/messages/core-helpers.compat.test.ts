/**
 * Checks the helper exports of `agentgraph/messages` that mirror `@langchain/core/messages`
 * 1.4.0 (a dev dependency) side by side: the merge helpers, the legacy data-block helpers,
 * the OpenAI tool-call helpers, the notification metadata and the small utilities. Each case
 * runs both implementations on the same input and compares the value returned, or the text
 * of the error thrown (ours throw `Error` subclasses where LangChain.js throws `Error`).
 */
import { inspect } from "node:util";
import * as lc from "@langchain/core/messages";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as ours from "./index.js";

type Outcome = { value: unknown } | { error: string };

/** What a call returns or the message of what it throws. */
function outcome(fn: () => unknown): Outcome {
  try {
    return { value: fn() };
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return { error: (error as Error).message };
  }
}

/** Calls both sides with the same arguments and expects the same outcome. */
function same(oursFn: () => unknown, theirsFn: () => unknown): Outcome {
  const a = outcome(oursFn);
  const b = outcome(theirsFn);
  expect(a).toStrictEqual(b);
  return a;
}

// the reference's signatures are loose (`any`); the cases feed both sides the same loose values
type Loose = never;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("constants", () => {
  it("lists the same keys and block types", () => {
    expect(ours.DEFAULT_MERGE_IGNORE_KEYS).toStrictEqual(lc.DEFAULT_MERGE_IGNORE_KEYS);
    expect(ours.KNOWN_BLOCK_TYPES).toStrictEqual(lc.KNOWN_BLOCK_TYPES);
  });
});

describe("_mergeDicts", () => {
  const cases: Array<[string, unknown, unknown, ours.MergeDictsOptions?]> = [
    [
      "strings append, numbers add, ignored keys keep the first",
      { a: "x", n: 1, index: 0, created: 5, timestamp: "t1" },
      { a: "y", n: 2, index: 1, created: 6, timestamp: "t2" },
    ],
    [
      "type keeps the first, ids and names take the latest non-empty",
      { id: "1", name: "a", type: "x", output_version: "v0", model_provider: "p" },
      { id: "", name: "b", type: "y", output_version: "v1", model_provider: "" },
    ],
    ["nested objects", { fc: { name: "f", arguments: "{" } }, { fc: { arguments: "}" } }],
    [
      "nested lists",
      { tc: [{ index: 0, args: "{" }] },
      {
        tc: [
          { index: 0, args: "}" },
          { index: 1, args: "x" },
        ],
      },
    ],
    ["null sides of a key", { a: null, b: "x" }, { a: "y", b: null }],
    ["a missing left", undefined, { a: 1 }],
    ["a missing right", { a: 1 }, undefined],
    ["both missing", undefined, undefined],
    ["a number then a string", { a: 1 }, { a: "1" }],
    ["a list then an object", { a: [1] }, { a: { b: 1 } }],
    ["equal booleans", { f: true }, { f: true }],
    [
      "custom ignored keys",
      { n: 1, index: 0, s: "x" },
      { n: 2, index: 1, s: "y" },
      { ignoreKeys: ["n", "s"] },
    ],
    ["ignoring id does not stop its replacement", { id: "a" }, { id: "b" }, { ignoreKeys: ["id"] }],
    ["options reach nested objects", { meta: { n: 1 } }, { meta: { n: 2 } }, { ignoreKeys: ["n"] }],
    [
      "options reach list elements",
      { l: [{ index: 0, n: 1 }] },
      { l: [{ index: 0, n: 2 }] },
      { ignoreKeys: ["n"] },
    ],
  ];
  it.each(cases)("%s", (_label, left, right, options) => {
    same(
      () => ours._mergeDicts(left as Loose, right as Loose, options),
      () => lc._mergeDicts(left as Loose, right as Loose, options as Loose),
    );
  });

  it("warns the same way about values that cannot merge", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const a = ours._mergeDicts({ f: true, g: { h: 1n } }, { f: false, g: { h: 2n } });
    const oursWarnings = warn.mock.calls.splice(0);
    const b = lc._mergeDicts({ f: true, g: { h: 1n } }, { f: false, g: { h: 2n } });
    expect(a).toStrictEqual(b);
    expect(oursWarnings).toStrictEqual(warn.mock.calls);
    expect(oursWarnings).toHaveLength(2);
  });
});

describe("_mergeLists", () => {
  const cases: Array<[string, unknown[] | undefined, unknown[] | undefined, ours.MergeDictsOptions?]> = [
    [
      "elements with the same index merge",
      [{ type: "text", text: "Hel", index: 0 }],
      [
        { type: "text", text: "lo", index: 0 },
        { type: "text", text: "!", index: 1 },
      ],
    ],
    [
      "a delta merges into its base type",
      [{ index: 0, type: "tool_use", input: "" }],
      [{ index: 0, type: "input_json_delta", input: "{}" }],
    ],
    [
      "different types at one index stay apart",
      [{ index: 0, type: "text" }],
      [{ index: 0, type: "tool_use" }],
    ],
    ["ids without indexes", [{ id: "a", text: "x" }], [{ id: "a", text: "y" }, { id: "b" }]],
    ["different ids at one index", [{ index: 0, id: "a" }], [{ index: 0, id: "b" }]],
    ["empty text fragments are dropped", [{ type: "text", text: "a" }], [{ type: "text", text: "" }]],
    ["plain values append", [1, "a"], [2, "b"]],
    ["a missing left", undefined, [1]],
    ["a missing right", [1], undefined],
    ["both missing", undefined, undefined],
    ["options", [{ index: 0, n: 1 }], [{ index: 0, n: 2 }], { ignoreKeys: ["n"] }],
  ];
  it.each(cases)("%s", (_label, left, right, options) => {
    same(
      () => ours._mergeLists(left, right, options),
      () => lc._mergeLists(left as Loose, right as Loose, options as Loose),
    );
  });

  it("returns the present side itself when the other is missing", () => {
    const list = [{ type: "text", text: "a" }];
    expect(ours._mergeLists(undefined, list)).toBe(lc._mergeLists(undefined, list as Loose));
    expect(ours._mergeLists(list, undefined)).toBe(list);
  });
});

describe("_mergeObj", () => {
  const cases: Array<[string, unknown, unknown]> = [
    ["strings", "ab", "cd"],
    ["lists", [1], [2]],
    ["objects", { a: "x", n: 1 }, { a: "y", n: 2 }],
    ["a list and an object", [1, 2], { a: 1 }],
    ["a missing left", undefined, 1],
    ["a missing right", 1, undefined],
    ["null and undefined", null, undefined],
    ["equal numbers", 3, 3],
    ["different numbers", 3, 4],
    ["different booleans", true, false],
    ["different types", "a", 1],
    ["an object and a string", { a: 1 }, "a"],
  ];
  it.each(cases)("%s", (_label, left, right) => {
    same(
      () => ours._mergeObj(left, right),
      () => lc._mergeObj(left, right),
    );
  });

  it("passes options on", () => {
    same(
      () => ours._mergeObj({ n: 1 }, { n: 2 }, { ignoreKeys: ["n"] }),
      () => lc._mergeObj({ n: 1 }, { n: 2 }, { ignoreKeys: ["n"] }),
    );
  });
});

describe("_mergeStatus and mergeResponseMetadata", () => {
  const statuses = [undefined, "success", "error"] as const;
  it.each(statuses.flatMap((l) => statuses.map((r) => [l, r] as const)))("_mergeStatus(%s, %s)", (l, r) => {
    expect(ours._mergeStatus(l, r)).toBe(lc._mergeStatus(l, r));
  });

  it("_mergeStatus without arguments", () => {
    expect(ours._mergeStatus()).toBe(lc._mergeStatus());
  });

  const metadata: Array<[ours.ResponseMetadata | undefined, ours.ResponseMetadata | undefined]> = [
    [undefined, undefined],
    [{ model_name: "m" }, undefined],
    [undefined, { finish_reason: "stop" }],
    [
      { model_name: "m", model_provider: "openai", usage: { n: 1 } },
      { finish_reason: "stop", model_provider: "", usage: { n: 2 } },
    ],
    [{ a: 1 }, { a: "x" }],
  ];
  it.each(metadata)("mergeResponseMetadata(%j, %j)", (a, b) => {
    same(
      () => ours.mergeResponseMetadata(a, b),
      () => lc.mergeResponseMetadata(a as Loose, b as Loose),
    );
  });
});

describe("OpenAI tool-call helpers", () => {
  const arrays: Array<[string, unknown]> = [
    ["an empty array", []],
    ["indexed calls", [{ index: 0 }, { index: 1, id: "x" }]],
    ["a string index", [{ index: "0" }]],
    ["a call without index", [{ index: 0 }, { id: "x" }]],
    ["a string", "x"],
    ["undefined", undefined],
    ["an object", { index: 0 }],
    ["a null element", [null]],
  ];
  it.each(arrays)("isOpenAIToolCallArray: %s", (_label, value) => {
    same(
      () => ours.isOpenAIToolCallArray(value),
      () => lc.isOpenAIToolCallArray(value),
    );
  });

  const raw: Array<[string, unknown[]]> = [
    [
      "valid and malformed calls",
      [
        { id: "1", type: "function", function: { name: "f", arguments: '{"a":1}' } },
        { id: "2", type: "function", function: { name: "g", arguments: "{" } },
      ],
    ],
    ["no function", [{ id: "1" }, { id: "2", function: null }, 5, "x"]],
    ["empty arguments", [{ id: "1", function: { name: "f", arguments: "" } }]],
    [
      "non-object JSON",
      [
        { id: "1", function: { name: "f", arguments: "5" } },
        { id: "2", function: { name: "f", arguments: "null" } },
        { id: "3", function: { name: "f", arguments: "[1]" } },
        { id: "4", function: { name: "f", arguments: '"s"' } },
        { id: "5", function: { name: "f", arguments: "0" } },
      ],
    ],
    ["no name", [{ id: "1", function: { arguments: "{}" } }, { function: { arguments: "{" } }]],
    ["no arguments", [{ id: "1", function: { name: "f" } }]],
    ["object arguments", [{ id: "1", function: { name: "f", arguments: { a: 1 } } }]],
    ["a null entry", [null]],
  ];
  it.each(raw)("defaultToolCallParser: %s", (_label, calls) => {
    same(
      () => ours.defaultToolCallParser(calls as object[]),
      () => lc.defaultToolCallParser(calls as Loose),
    );
  });
});

describe("_isMessageFieldWithRole and iife", () => {
  const values: Array<[string, unknown]> = [
    ["a role object", { role: "user", content: "hi" }],
    ["a numeric role", { role: 1, content: "hi" }],
    ["a type object", { type: "human", content: "hi" }],
    ["a string", "hi"],
    ["a tuple", ["user", "hi"]],
    ["null", null],
  ];
  it.each(values)("_isMessageFieldWithRole: %s", (_label, value) => {
    same(
      () => ours._isMessageFieldWithRole(value as Loose),
      () => lc._isMessageFieldWithRole(value as Loose),
    );
  });

  it("iife returns and throws what the function does", () => {
    same(
      () => ours.iife(() => 42),
      () => lc.iife(() => 42),
    );
    const boom = (): never => {
      throw new Error("boom");
    };
    same(
      () => ours.iife(boom),
      () => lc.iife(boom),
    );
  });
});

describe("legacy data blocks", () => {
  const blocks: Array<[string, unknown]> = [
    ["a URL image", { type: "image", source_type: "url", url: "https://example.com/a.png" }],
    ["a URL block without url", { type: "image", source_type: "url" }],
    [
      "a base64 image",
      { type: "image", source_type: "base64", data: "iVBORw0KGgo=", mime_type: "image/png" },
    ],
    ["a base64 image without mime type", { type: "image", source_type: "base64", data: "iVBORw0KGgo=" }],
    ["a base64 block with numeric data", { type: "image", source_type: "base64", data: 5 }],
    ["a text file", { type: "file", source_type: "text", text: "hello" }],
    ["an id file", { type: "file", source_type: "id", id: "file-abc" }],
    ["an id block with numeric id", { type: "file", source_type: "id", id: 5 }],
    ["an unknown source type", { type: "image", source_type: "path", path: "/a.png" }],
    ["no type", { source_type: "url", url: "u" }],
    ["a numeric type", { type: 1, source_type: "url", url: "u" }],
    ["an OpenAI image", { type: "image_url", image_url: { url: "https://example.com/a.png" } }],
    ["a standard image", { type: "image", url: "https://example.com/a.png" }],
    ["an array", Object.assign([], { type: "image", source_type: "url", url: "u" })],
    ["null", null],
    ["a string", "image"],
  ];
  const guards: Array<[(block: object) => boolean, (block: object) => boolean]> = [
    [ours.isDataContentBlock, lc.isDataContentBlock],
    [ours.isURLContentBlock, lc.isURLContentBlock],
    [ours.isBase64ContentBlock, lc.isBase64ContentBlock],
    [ours.isPlainTextContentBlock, lc.isPlainTextContentBlock],
    [ours.isIDContentBlock, lc.isIDContentBlock],
  ];
  it.each(blocks)("guards and convertToOpenAIImageBlock agree on %s", (_label, block) => {
    for (const [mine, theirs] of guards) {
      same(
        () => mine(block as object),
        () => theirs(block as object),
      );
    }
    same(
      () => ours.convertToOpenAIImageBlock(block as Loose),
      () => lc.convertToOpenAIImageBlock(block as Loose),
    );
  });

  const mimeTypes = [
    "text/plain",
    "Text/Plain",
    "text/plain; charset=utf-8; q=1",
    " text / plain ;  a = b ",
    "text/plain;",
    "text",
    "a/b/c",
    "/plain",
    "text/",
    "text/plain; bad",
    "text/plain; =x",
    "text/plain; a=b=c",
    "text/plain; a=",
    "",
  ];
  it.each(mimeTypes)("parseMimeType(%j)", (mime) => {
    same(
      () => ours.parseMimeType(mime),
      () => lc.parseMimeType(mime),
    );
  });

  const dataUrls = [
    "data:image/png;base64,iVBORw0KGgo=",
    "data:IMAGE/PNG;base64,aGk=",
    "data:text/plain;base64,aGVsbG8gd29ybGQ=",
    "data:image/svg+xml;base64,PHN2Zz4=",
    "data:text/plain;charset=utf-8;base64,aGk=",
    "data:text/plain;base64,a b",
    "data:text/plain;base64,",
    "data:text/plain,hello",
    "https://example.com/a.png",
    "data:text/plain;base64,A",
  ];
  it.each(dataUrls)("parseBase64DataUrl(%j)", (dataUrl) => {
    same(
      () => ours.parseBase64DataUrl({ dataUrl }),
      () => lc.parseBase64DataUrl({ dataUrl }),
    );
    same(
      () => ours.parseBase64DataUrl({ dataUrl, asTypedArray: true }),
      () => lc.parseBase64DataUrl({ dataUrl, asTypedArray: true }),
    );
  });

  it("convertToProviderContentBlock calls the converter method of the block's type", () => {
    const full = {
      providerName: "Full",
      prefix: "full",
      fromStandardTextBlock(block: { text: string }) {
        return `${this.prefix}:text:${block.text}`;
      },
      fromStandardImageBlock: (block: object) => ({ image: block }),
      fromStandardAudioBlock: (block: object) => ({ audio: block }),
      fromStandardFileBlock: (block: object) => ({ file: block }),
    };
    const empty = { providerName: "Empty" };
    const inputs: unknown[] = [
      { type: "text", source_type: "text", text: "hi" },
      { type: "image", source_type: "url", url: "u" },
      { type: "audio", source_type: "base64", data: "aGk=", mime_type: "audio/wav" },
      { type: "file", source_type: "id", id: "f" },
      { type: "video", source_type: "url", url: "u" },
      { type: "image_url", image_url: "u" },
    ];
    for (const block of inputs) {
      for (const converter of [full, empty]) {
        same(
          () => ours.convertToProviderContentBlock(block as Loose, converter as Loose),
          () => lc.convertToProviderContentBlock(block as Loose, converter as Loose),
        );
      }
    }
  });
});

describe("notification metadata", () => {
  const fieldsOf = (m: ours.BaseMessage | lc.BaseMessage): unknown => ({
    type: m.getType(),
    content: m.content,
    id: m.id,
    name: m.name,
    additional_kwargs: m.additional_kwargs,
    response_metadata: m.response_metadata,
  });

  const inputs: Array<[string, ours.BaseMessageFields]> = [
    ["a plain message", { content: "Background task t_42 finished." }],
    [
      "a message with fields",
      {
        content: [{ type: "text", text: "done" }],
        id: "m1",
        name: "harness",
        additional_kwargs: { keep: 1 },
        response_metadata: { model_name: "x" },
      },
    ],
    [
      "an already marked message",
      { content: "again", additional_kwargs: { lc_data: { old: true }, lc_source: "old", other: "x" } },
    ],
  ];
  const metadata: ours.NotificationMetadata[] = [
    { source: "async_subagent", data: { task_id: "t_42", status: "success" } },
    { source: "summarization" },
  ];

  it.each(inputs)("addNotificationMetadata marks %s the same way", (_label, fields) => {
    for (const meta of metadata) {
      const mine = new ours.HumanMessage(structuredClone(fields));
      const theirs = new lc.HumanMessage(structuredClone(fields) as Loose);
      const a = ours.addNotificationMetadata(mine, meta);
      const b = lc.addNotificationMetadata(theirs, meta as Loose);
      expect(fieldsOf(a)).toStrictEqual(fieldsOf(b));
      expect(JSON.stringify(Object.keys(a.additional_kwargs))).toBe(
        JSON.stringify(Object.keys(b.additional_kwargs)),
      );
      // a copy: the input is unchanged, the data is copied
      expect(fieldsOf(mine)).toStrictEqual(fieldsOf(theirs));
      expect(a).not.toBe(mine);
      if (meta.data !== undefined) expect(a.additional_kwargs.lc_data).not.toBe(meta.data);
      expect(ours.getNotificationMetadata(a)).toStrictEqual(lc.getNotificationMetadata(b));
    }
  });

  it("survives mergeMessageRuns and chunk concatenation the same way", () => {
    const meta = { source: "async_subagent", data: { task_id: "t_42" } };
    const a = ours.mergeMessageRuns([
      ours.addNotificationMetadata(new ours.HumanMessage({ content: "done", id: "n" }), meta),
      new ours.HumanMessage({ content: "thanks", id: "h" }),
      ours.addNotificationMetadata(new ours.HumanMessage({ content: "again", id: "m" }), meta),
    ]);
    const b = lc.mergeMessageRuns([
      lc.addNotificationMetadata(new lc.HumanMessage({ content: "done", id: "n" }), meta),
      new lc.HumanMessage({ content: "thanks", id: "h" }),
      lc.addNotificationMetadata(new lc.HumanMessage({ content: "again", id: "m" }), meta),
    ]);
    expect(a.map(fieldsOf)).toStrictEqual(b.map(fieldsOf));
    const chunk = new ours.HumanMessageChunk({ content: "a", additional_kwargs: { lc_source: "s" } }).concat(
      new ours.HumanMessageChunk({ content: "b" }),
    );
    const lcChunk = new lc.HumanMessageChunk({ content: "a", additional_kwargs: { lc_source: "s" } }).concat(
      new lc.HumanMessageChunk({ content: "b" }),
    );
    expect(ours.getNotificationMetadata(chunk)).toStrictEqual(lc.getNotificationMetadata(lcChunk));
  });

  const kwargs: Array<[string, Record<string, unknown>]> = [
    ["no metadata", {}],
    ["a source", { lc_source: "summarization" }],
    ["a source and data", { lc_source: "s", lc_data: { a: 1 } }],
    ["a numeric source", { lc_source: 1, lc_data: { a: 1 } }],
    ["list data", { lc_source: "s", lc_data: [1] }],
    ["null data", { lc_source: "s", lc_data: null }],
    ["string data", { lc_source: "s", lc_data: "x" }],
  ];
  it.each(kwargs)("getNotificationMetadata reads %s the same way", (_label, additional_kwargs) => {
    const a = ours.getNotificationMetadata(new ours.AIMessage({ content: "x", additional_kwargs }));
    const b = lc.getNotificationMetadata(new lc.AIMessage({ content: "x", additional_kwargs }));
    expect(a).toStrictEqual(b);
    if (a?.data !== undefined) expect(a.data).not.toBe(additional_kwargs.lc_data);
  });
});

describe("mergeMessageRuns and names", () => {
  const fields = (m: ours.BaseMessage | lc.BaseMessage): unknown => ({
    type: m.getType(),
    content: m.content,
    name: m.name,
  });

  it("drops the name of a merged message and keeps those of the others, as LangChain.js does", () => {
    const build = (m: typeof ours | typeof lc) => [
      new m.HumanMessage({ content: "a", name: "alice" }),
      new m.HumanMessage({ content: "b", name: "alice" }),
      new m.AIMessage({ content: "c", name: "bot" }),
      new m.AIMessage({ content: "d" }),
      new m.SystemMessage({ content: "s", name: "sys" }),
      new m.FunctionMessage({ content: "f1", name: "fn" }),
      new m.FunctionMessage({ content: "f2", name: "other" }),
      new m.HumanMessage({ content: "alone", name: "carol" }),
    ];
    const mine = ours.mergeMessageRuns(build(ours)).map(fields);
    expect(mine).toStrictEqual(lc.mergeMessageRuns(build(lc) as Loose).map(fields));
    expect(mine).toStrictEqual([
      { type: "human", content: "a\nb", name: undefined },
      { type: "ai", content: "c\nd", name: undefined },
      { type: "system", content: "s", name: "sys" },
      { type: "function", content: "f1\nf2", name: "fn" },
      { type: "human", content: "alone", name: "carol" },
    ]);
  });
});

describe("String(message) and console.log(message)", () => {
  const toolCall = {
    name: "f",
    args: { q: { deep: { deeper: [1, [2]] } } },
    id: "c",
    type: "tool_call" as const,
  };
  const usage = { input_tokens: 1, output_tokens: 2, total_tokens: 3 };
  const chunks = [{ name: "f", args: '{"a":', id: "c", index: 0 }];
  const tool = { content: "r", tool_call_id: "c", artifact: { a: 1 }, status: "error" as const };
  const mine = [
    new ours.HumanMessage("hi"),
    new ours.HumanMessage({ content: [{ type: "text", text: "x" }], id: "h", name: "alice" }),
    new ours.AIMessage({ content: "", id: "a", tool_calls: [toolCall], usage_metadata: usage }),
    new ours.AIMessageChunk({ content: "p", tool_call_chunks: chunks }),
    new ours.ToolMessage(tool),
    new ours.SystemMessageChunk("s"),
    new ours.ChatMessage({ content: "c", role: "judge" }),
    new ours.FunctionMessage({ content: "f", name: "fn" }),
    new ours.RemoveMessage({ id: "r" }),
  ];
  const theirs = [
    new lc.HumanMessage("hi"),
    new lc.HumanMessage({ content: [{ type: "text", text: "x" }], id: "h", name: "alice" }),
    new lc.AIMessage({ content: "", id: "a", tool_calls: [toolCall], usage_metadata: usage } as Loose),
    new lc.AIMessageChunk({ content: "p", tool_call_chunks: chunks }),
    new lc.ToolMessage(tool),
    new lc.SystemMessageChunk("s"),
    new lc.ChatMessage({ content: "c", role: "judge" }),
    new lc.FunctionMessage({ content: "f", name: "fn" }),
    new lc.RemoveMessage({ id: "r" }),
  ];

  it("shows the same text as LangChain.js", () => {
    for (const [i, message] of mine.entries()) {
      expect(String(message)).toBe(String(theirs[i]));
      expect(inspect(message)).toBe(inspect(theirs[i]));
    }
    expect(inspect({ messages: mine }, { depth: 1 })).toBe(inspect({ messages: theirs }, { depth: 1 }));
  });
});

describe("message kinds given as classes", () => {
  it("a class that is no message class fails with LangChain.js's text first", async () => {
    const build = (m: typeof ours | typeof lc) => [new m.HumanMessage("a"), new m.AIMessage("b")];
    for (const kind of [Date, Object]) {
      const theirs = outcome(() => lc.filterMessages(build(lc) as Loose, { includeTypes: [kind as Loose] }));
      expect(theirs).toStrictEqual({ error: "Invalid type provided." });
      const mine = outcome(() => ours.filterMessages(build(ours), { excludeTypes: [kind as Loose] }));
      expect(mine).toStrictEqual({
        error: `Invalid type provided. ${kind.name} is not a message type: use a type string ("human", "ai", "system", "tool") or a message class.`,
      });
      await expect(
        lc.trimMessages(build(lc) as Loose, {
          maxTokens: 9,
          tokenCounter: (m) => m.length,
          endOn: [kind as Loose],
        }),
      ).rejects.toThrow(/^Invalid type provided\.$/);
      await expect(
        ours.trimMessages(build(ours), {
          maxTokens: 9,
          tokenCounter: (m) => m.length,
          endOn: [kind as Loose],
        }),
      ).rejects.toThrow(/^Invalid type provided\. /);
    }
  });
});
