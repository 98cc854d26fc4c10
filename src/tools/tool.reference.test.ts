import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ToolMessage } from "../messages/index.js";
import { ToolInputParsingException, ToolOutputFormatError } from "./errors.js";
import { isLangChainTool, isStructuredToolParams, StructuredTool } from "./structured-tool.js";
import { DynamicStructuredTool, DynamicTool, tool } from "./tool.js";
import { convertToOpenAITool } from "./tool-definition.js";
import type { ToolRunnableConfig, ToolRuntime } from "./types.js";

// Observable behaviour of @langchain/core 1.4 tools, checked against the reference.

const call = (name: string, args: unknown, id = "call_1") => ({ name, args, id, type: "tool_call" }) as const;

/** A tool that records the runtime it ran with, and a handler that records handleToolStart's metadata. */
function metadataProbe() {
  const started: unknown[] = [];
  const handler = {
    handleToolStart: (...args: unknown[]) => {
      started.push(args[5]);
    },
  };
  let seen: ToolRuntime | undefined;
  const probe = tool(
    async (_args: Record<string, never>, runtime) => {
      seen = runtime;
      return "ok";
    },
    { name: "t", schema: z.object({}) },
  );
  return { started, handler, runtime: () => seen, tool: probe };
}

describe("tools as in LangChain.js", () => {
  it("defaults the description to the schema's, then to `<name> tool`", () => {
    expect(tool(async () => "", { name: "nd", schema: z.object({}) }).description).toBe("nd tool");
    expect(
      tool(async () => "", { name: "s", schema: z.object({}).describe("From schema") }).description,
    ).toBe("From schema");
    expect(tool(async () => "", { name: "plain" }).description).toBe("plain tool");
  });

  it("leaves a constructed tool's missing description undefined, and converts an empty one as it is", () => {
    const structured = new DynamicStructuredTool({
      name: "s",
      schema: z.object({}).describe("From schema"),
      func: async () => "",
    });
    expect(structured.description).toBeUndefined();
    expect(new DynamicTool({ name: "d", func: async () => "" }).description).toBeUndefined();
    const empty = tool(async () => "", { name: "e", description: "", schema: z.object({}) });
    expect(convertToOpenAITool(empty)).toEqual({
      type: "function",
      function: { name: "e", description: "", parameters: { type: "object", properties: {} } },
    });
  });

  it("makes a string tool from a string schema, taking a bare string or `{ input }`", async () => {
    const echo = tool(async (s: string) => `echo:${s}`, {
      name: "echo",
      description: "d",
      schema: z.string(),
    });
    expect(echo).toBeInstanceOf(DynamicTool);
    expect(await echo.invoke("hey")).toBe("echo:hey");
    const fromObject = await echo.invoke(call("echo", { input: "hey" }));
    expect(fromObject).toBeInstanceOf(ToolMessage);
    expect((fromObject as unknown as ToolMessage).content).toBe("echo:hey");
    expect(((await echo.invoke(call("echo", "raw"))) as unknown as ToolMessage).content).toBe("echo:raw");
    const jsonString = tool(async (s: string) => s.length, { name: "len", schema: { type: "string" } });
    expect(jsonString).toBeInstanceOf(DynamicTool);
    expect(await jsonString.invoke("abc")).toBe(3);
  });

  it("reports no arguments to handleToolStart as undefined, what JSON.stringify makes of them", async () => {
    const inputs: unknown[] = [];
    const handler = {
      handleToolStart: (_tool: unknown, input: unknown) => {
        inputs.push(input);
      },
    };
    const anything = tool(async () => "ok", { name: "a", schema: z.any() });
    await anything.invoke(undefined, { callbacks: [handler] });
    expect(inputs).toEqual([undefined]);
    expect(inputs).toHaveLength(1);
  });

  it("reports a string tool's input to handleToolStart as the `{ input }` its schema reads", async () => {
    const seen: unknown[] = [];
    const handler = {
      handleToolStart: (_tool: unknown, input: unknown) => {
        seen.push(input);
      },
    };
    const echo = new DynamicTool({ name: "d", description: "x", func: async (s) => `got ${s}` });
    await echo.invoke("hi", { callbacks: [handler] });
    await echo.invoke(undefined, { callbacks: [handler] });
    await echo.invoke({ input: "x", extra: 1 }, { callbacks: [handler] });
    await echo.invoke(call("d", "raw", "c1"), { callbacks: [handler] });
    expect(seen).toEqual(['{"input":"hi"}', "{}", '{"input":"x","extra":1}', '{"input":"raw"}']);
  });

  it("shows a string tool's zod/v3 issue after `Details:` with verboseParsingErrors", async () => {
    const echo = new DynamicTool({
      name: "d",
      description: "x",
      func: async (s) => s,
      verboseParsingErrors: true,
    });
    const messages = await Promise.all(
      [5, { input: 3 }].map((input) => echo.invoke(input).catch((e: Error) => e.message)),
    );
    expect(messages).toEqual([
      'Received tool input did not match expected schema\nDetails: [\n  {\n    "code": "invalid_type",\n    "expected": "object",\n    "received": "number",\n    "path": [],\n    "message": "Expected object, received number"\n  }\n]\n\n✖ Expected object, received number',
      'Received tool input did not match expected schema\nDetails: [\n  {\n    "code": "invalid_type",\n    "expected": "string",\n    "received": "number",\n    "path": [\n      "input"\n    ],\n    "message": "Expected string, received number"\n  }\n]\n\n✖ Expected string, received number\n  → at input',
    ]);
  });

  it("reads a JSON Schema allOf with a string-only part as a string schema, and a non-list enum as not", () => {
    const kind = (schema: Record<string, unknown>) =>
      tool(async () => "", { name: "t", schema }).constructor.name;
    expect(kind({ allOf: [{ oneOf: [{ type: "boolean" }, {}] }, { type: "string", minLength: 2 }] })).toBe(
      "DynamicTool",
    );
    expect(kind({ allOf: [{ type: "number" }] })).toBe("DynamicStructuredTool");
    expect(kind({ enum: "x", const: "y" })).toBe("DynamicStructuredTool");
    expect(kind({ $ref: "#/$defs/s", $defs: { s: { type: "string" } } })).toBe("DynamicStructuredTool");
  });

  it("calls constructor functions with (args, runManager, config)", async () => {
    let seen: unknown[] = [];
    const structured = new DynamicStructuredTool({
      name: "dst",
      description: "d",
      schema: z.object({ n: z.number() }),
      func: async (args, runManager, runtime) => {
        seen = [args, runManager, runtime.toolCall?.id];
        return "ok";
      },
    });
    await structured.invoke(call("dst", { n: 1 }, "c7"));
    expect(seen).toEqual([{ n: 1 }, undefined, "c7"]);
    const plain = new DynamicTool({
      name: "dt",
      description: "d",
      func: async (input, _runManager, runtime) => `${input}:${typeof runtime}`,
    });
    expect(await plain.invoke("hi")).toBe("hi:object");
    // a tool() function still takes the runtime second
    const viaTool = tool(async (_args, runtime: ToolRuntime) => runtime.toolCallId, {
      name: "t",
      schema: z.object({}),
    });
    expect(((await viaTool.invoke(call("t", {}, "c9"))) as unknown as ToolMessage).content).toBe("c9");
  });

  it("words a content_and_artifact mismatch as LangChain.js does", async () => {
    const bad = tool(async () => "notarray", {
      name: "bad",
      schema: z.object({}),
      responseFormat: "content_and_artifact",
    });
    const error = await bad.invoke({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolOutputFormatError);
    expect((error as Error).message).toBe(
      'Tool response format is "content_and_artifact" but the output was not a two-tuple.\nResult: "notarray"',
    );
    // LangChain.js throws a plain Error: what String(error) shows is the same
    expect(String(error)).toBe(
      'Error: Tool response format is "content_and_artifact" but the output was not a two-tuple.\nResult: "notarray"',
    );
  });

  it("fails a content_and_artifact mismatch it cannot print with JSON.stringify's TypeError", async () => {
    const bad = tool(async () => 10n, {
      name: "bad",
      schema: z.object({}),
      responseFormat: "content_and_artifact",
    });
    const error = await bad.invoke({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("Do not know how to serialize a BigInt");
  });

  it("exposes tags [] and metadata {} by default, and the given ones otherwise", () => {
    const plain = tool(async () => "", { name: "p", schema: z.object({}) });
    expect(plain.tags).toEqual([]);
    expect(plain.metadata).toEqual({});
    const tagged = tool(async () => "", { name: "t", schema: z.object({}), tags: ["a"], metadata: { m: 1 } });
    expect(tagged.tags).toEqual(["a"]);
    expect(tagged.metadata).toEqual({ m: 1 });
  });

  it("reports its own tags and metadata to handleToolStart, after the config's", async () => {
    const seen: unknown[] = [];
    const handler = {
      handleToolStart: (...args: unknown[]) => {
        seen.push([args[4], args[5]]);
      },
    };
    const tagged = tool(async () => "", {
      name: "t",
      schema: z.object({}),
      tags: ["own"],
      metadata: { a: 1 },
    });
    await tagged.invoke({}, { callbacks: [handler] });
    await tagged.invoke({}, { callbacks: [handler], tags: ["cfg"], metadata: { q: 2, a: 0 } });
    expect(seen).toEqual([
      [["own"], { a: 1 }],
      [["cfg", "own"], { q: 2, a: 1 }],
    ]);
  });

  it('takes any `type: "tool_call"` object as a call, even without args', async () => {
    const t = tool(async () => "x", { name: "t", schema: z.object({ q: z.string() }) });
    const error = await t.invoke({ name: "t", id: "c", type: "tool_call" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolInputParsingException);
    expect((error as Error).message).toBe(
      "Received tool input did not match expected schema\n\n✖ Invalid input: expected object, received undefined",
    );
    expect((error as ToolInputParsingException).output).toBeUndefined();
  });

  it("batches with one config per input, and returns exceptions in place when asked", async () => {
    const double = tool(
      async ({ a }: { a: number }, runtime) => `${a * 2}${String(runtime.tags?.[0] ?? "")}`,
      {
        name: "double",
        schema: z.object({ a: z.number() }),
      },
    );
    expect(await double.batch([{ a: 1 }, { a: 2 }], [{ tags: ["x"] }, { tags: ["y"] }])).toEqual([
      "2x",
      "4y",
    ]);
    const mixed = await double.batch([{ a: 1 }, { a: "no" }], undefined, { returnExceptions: true });
    expect(mixed[0]).toBe("2");
    expect(mixed[1]).toBeInstanceOf(ToolInputParsingException);
    await expect(double.batch([{ a: 1 }, { a: "no" }])).rejects.toBeInstanceOf(ToolInputParsingException);
  });

  it("batch rejects with an Error made from a thrown non-Error, and returns it as thrown when asked", async () => {
    const boom = tool(
      async () => {
        throw "boom";
      },
      { name: "boom", schema: z.object({}) },
    );
    const error = await boom.batch([{}]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe("boom");
    expect(await boom.batch([{}], undefined, { returnExceptions: true })).toEqual(["boom"]);
  });

  it("batch wants one config per input when given a list, and names only the first run with a shared runId", async () => {
    const t = tool(async () => "x", { name: "t", schema: z.object({}) });
    await expect(t.batch([{}, {}], [{}])).rejects.toThrow(
      'Passed "options" must be an array with the same length as the inputs, but got 1 options for 2 inputs',
    );
    const runIds: unknown[] = [];
    const handler = {
      handleToolStart: (...args: unknown[]) => {
        runIds.push(args[2]);
      },
    };
    const runId = "11111111-2222-4333-8444-555555555555";
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await t.batch([{}, {}], { runId, callbacks: [handler] });
    expect(warn).toHaveBeenCalledWith("Provided runId will be used only for the first element of the batch.");
    warn.mockRestore();
    expect(runIds[0]).toBe(runId);
    expect(runIds[1]).not.toBe(runId);
  });

  it("streams one value: what invoke returns", async () => {
    const t = tool(async ({ q }: { q: string }) => `got ${q}`, {
      name: "t",
      schema: z.object({ q: z.string() }),
    });
    const plain: unknown[] = [];
    for await (const chunk of await t.stream({ q: "a" })) plain.push(chunk);
    expect(plain).toEqual(["got a"]);
    const messages: unknown[] = [];
    for await (const chunk of await t.stream(call("t", { q: "b" }))) messages.push(chunk);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toBeInstanceOf(ToolMessage);
    expect((messages[0] as ToolMessage).content).toBe("got b");
  });

  it("names its classes with lc_name and recognises tool-like values", () => {
    expect(DynamicStructuredTool.lc_name()).toBe("DynamicStructuredTool");
    expect(DynamicTool.lc_name()).toBe("DynamicTool");
    const t = tool(async () => "", { name: "t", schema: z.object({}) });
    expect(isLangChainTool(t)).toBe(true);
    expect(isLangChainTool({ name: "p", schema: { type: "object", properties: {} } })).toBe(true);
    expect(isLangChainTool({})).toBe(false);
    expect(isStructuredToolParams({ name: "p", schema: z.object({}) })).toBe(true);
    expect(isStructuredToolParams({ name: "p", schema: { properties: {} } })).toBe(false);
    // LangChain.js's list of JSON Schema types leaves `integer` out
    expect(isStructuredToolParams({ name: "p", schema: { type: "integer" } })).toBe(false);
    expect(isStructuredToolParams({ name: "p", schema: { type: "number" } })).toBe(true);
  });
});

describe("run names and defaults, as LangChain.js gives them", () => {
  it("names the runs of the Dynamic tools only, through invoke and call", async () => {
    const seen: unknown[] = [];
    const handler = {
      handleToolStart: (...args: unknown[]) => {
        seen.push([args[4], args[6]]);
      },
    };
    class Sub extends StructuredTool {
      name = "sub";
      description = "d";
      schema = z.object({});
      protected async _call(_args: unknown, _run: unknown, config?: ToolRunnableConfig) {
        return String(config?.runName);
      }
    }
    expect(await new Sub().invoke({}, { callbacks: [handler] })).toBe("undefined");
    const dst = new DynamicStructuredTool({
      name: "dst",
      description: "d",
      schema: z.object({}),
      func: async (_args, _run, runtime) => String(runtime.runName),
    });
    expect(await dst.call({}, { callbacks: [handler] })).toBe("dst");
    expect(await dst.call({})).toBe("dst");
    expect(seen).toEqual([
      [[], undefined],
      [[], "dst"],
    ]);
  });

  it("adds configurable.model to the run's metadata, as LangChain.js's ensureConfig does", async () => {
    const { started, handler, runtime: seenRuntime, tool: probe } = metadataProbe();
    const metadata = { m: 1 };
    await probe.invoke({}, { configurable: { model: "gpt-x" }, metadata, callbacks: [handler] });
    expect(started).toEqual([{ m: 1, model: "gpt-x" }]);
    expect(seenRuntime()?.metadata).toEqual({ m: 1, model: "gpt-x" });
    await probe.call({}, { configurable: { model: "gpt-y" } });
    expect(seenRuntime()?.metadata).toEqual({ model: "gpt-y" });
  });

  it("turns a call's timeout into its signal and metadata.timeoutMs, and refuses one that is not positive", async () => {
    const { started, handler, runtime: seenRuntime, tool: quick } = metadataProbe();
    expect(await quick.invoke({}, { timeout: 1000, callbacks: [handler] })).toBe("ok");
    expect(started).toEqual([{ timeoutMs: 1000 }]);
    expect([
      seenRuntime()?.metadata,
      seenRuntime()?.timeout,
      seenRuntime()?.signal instanceof AbortSignal,
    ]).toEqual([{ timeoutMs: 1000 }, undefined, true]);
    const slow = tool(async () => new Promise((resolve) => setTimeout(() => resolve("late"), 200)), {
      name: "slow",
      schema: z.object({}),
    });
    const timedOut = await slow.invoke({}, { timeout: 20 }).catch((e: unknown) => e);
    expect((timedOut as Error & { cause?: Error }).cause?.name).toBe("TimeoutError");
    const refused = await quick.invoke({}, { timeout: 0 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/^Timeout must be a positive number/);
  });

  it("gives a tool() function the config defaults through call() too", async () => {
    const { runtime: seenRuntime, tool: probe } = metadataProbe();
    await probe.call({});
    const seen = seenRuntime();
    expect([seen?.tags, seen?.metadata, seen?.recursionLimit, seen?.runName]).toEqual([[], {}, 25, "t"]);
    await probe.call({}, { timeout: 1000 });
    expect([
      seenRuntime()?.metadata,
      seenRuntime()?.timeout,
      seenRuntime()?.signal instanceof AbortSignal,
    ]).toEqual([{ timeoutMs: 1000 }, undefined, true]);
  });
});

describe("the runtime of a tool invoked on its own", () => {
  it("has LangChain.js's config defaults: tags, metadata, recursionLimit and the tool's name", async () => {
    let seen: ToolRuntime | undefined;
    const probe = tool(
      async (_args: Record<string, never>, runtime) => {
        seen = runtime;
        return "ok";
      },
      { name: "probe", description: "d", schema: z.object({}) },
    );
    await probe.invoke(call("probe", {}, "c9"));
    const runtime = seen as unknown as Record<string, unknown>;
    expect([runtime.tags, runtime.metadata, runtime.recursionLimit, runtime.runName]).toEqual([
      [],
      {},
      25,
      "probe",
    ]);
    expect(seen?.toolCallId).toBe("c9");
  });
});
