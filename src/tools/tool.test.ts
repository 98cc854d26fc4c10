import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import * as zm from "zod/mini";
import "../entries/index.js";
import { getConfig, getStore } from "../graph/index.js";
import { isToolMessage, ToolMessage } from "../messages/index.js";
import { AbortError, type CallbackHandler, invokeThen } from "../shared/index.js";
import { ToolInputParsingException, ToolOutputFormatError } from "./errors.js";
import { StructuredTool } from "./structured-tool.js";
import { DynamicStructuredTool, DynamicTool, Tool, tool } from "./tool.js";
import { convertToOpenAITool } from "./tool-definition.js";
import type { ToolRunnableConfig, ToolRuntime } from "./types.js";

const weather = tool(async ({ city }) => `It's always sunny in ${city}!`, {
  name: "get_weather",
  description: "Get weather for a given city.",
  schema: z.object({ city: z.string() }),
});

const call = (args: Record<string, unknown>, name = "get_weather", id = "call_1") =>
  ({ name, args, id, type: "tool_call" }) as const;

describe("tool results answering a tool call", () => {
  it("are marked status success, which a plain ToolMessage is not", async () => {
    const result = await weather.invoke(call({ city: "sf" }));
    expect(isToolMessage(result) && result.status).toBe("success");
    const json = tool(() => ({ t: 1 }), { name: "j", schema: z.object({}) });
    const jsonResult = await json.invoke(call({}, "j"));
    expect(isToolMessage(jsonResult) && jsonResult.status).toBe("success");
    expect(new ToolMessage({ content: "x", tool_call_id: "c" }).status).toBeUndefined();
  });

  it("pass a ToolMessage the tool returned through with its own status", async () => {
    const own = tool(
      (_args, runtime) => new ToolMessage({ content: "mine", tool_call_id: runtime.toolCallId }),
      {
        name: "own",
        schema: z.object({}),
      },
    );
    const result = await own.invoke(call({}, "own", "c9"));
    expect(isToolMessage(result) && result.status).toBeUndefined();
    expect(isToolMessage(result) && result.tool_call_id).toBe("c9");
  });
});

describe("tool()", () => {
  it("describes itself to providers exactly as seed 004's request does", () => {
    expect(convertToOpenAITool(weather)).toEqual({
      type: "function",
      function: {
        name: "get_weather",
        description: "Get weather for a given city.",
        parameters: { properties: { city: { type: "string" } }, required: ["city"], type: "object" },
      },
    });
    expect(weather).toBeInstanceOf(DynamicStructuredTool);
    expect(weather).toBeInstanceOf(StructuredTool);
    expect([weather.returnDirect, weather.responseFormat]).toEqual([false, "content"]);
  });

  it("returns the raw output for plain arguments and a ToolMessage for a tool call", async () => {
    expect(await weather.invoke({ city: "Suzhou" })).toBe("It's always sunny in Suzhou!");
    const message = await weather.invoke(call({ city: "Suzhou" }));
    expect(message).toBeInstanceOf(ToolMessage);
    expect(message).toMatchObject({
      content: "It's always sunny in Suzhou!",
      tool_call_id: "call_1",
      name: "get_weather",
      status: "success",
    });
  });

  it("formats return values as LangChain.js does", async () => {
    const returning = (value: unknown, responseFormat?: "content" | "content_and_artifact") =>
      tool(async () => value, { name: "t", description: "d", schema: z.object({}), responseFormat });
    const content = async (value: unknown) =>
      ((await returning(value).invoke(call({}, "t"))) as ToolMessage).content;
    expect(await content({ temp: 21 })).toBe('{"temp":21}');
    expect(await content(42)).toBe("42");
    expect(await content(null)).toBe("null");
    expect(await content(undefined)).toBe("");
    expect(await content(["a", "b"])).toBe('["a","b"]');
    expect(await content([{ type: "text", text: "hi" }])).toEqual([{ type: "text", text: "hi" }]);
    const withArtifact = (await returning(["3 rows", { rows: [1, 2, 3] }], "content_and_artifact").invoke(
      call({}, "t"),
    )) as ToolMessage;
    expect([withArtifact.content, withArtifact.artifact]).toEqual(["3 rows", { rows: [1, 2, 3] }]);
    expect(await returning(["3 rows", {}], "content_and_artifact").invoke({})).toBe("3 rows");
    await expect(returning("just text", "content_and_artifact").invoke(call({}, "t"))).rejects.toThrow(
      ToolOutputFormatError,
    );
  });

  it("passes a returned ToolMessage through, filling in the call id and leaving its name unset (as LangChain.js)", async () => {
    const t = tool(async () => new ToolMessage({ content: "custom", tool_call_id: "", artifact: 1 }), {
      name: "custom",
      description: "d",
      schema: z.object({}),
    });
    const message = (await t.invoke(call({}, "custom", "call_9"))) as ToolMessage;
    expect([message.content, message.tool_call_id, message.name, message.artifact]).toEqual([
      "custom",
      "call_9",
      undefined,
      1,
    ]);
  });

  it("passes a returned Command through untouched", async () => {
    const command = { lg_name: "Command", update: { done: true } } as const;
    const t = tool(async () => command, { name: "cmd", description: "d", schema: z.object({}) });
    expect(await t.invoke(call({}, "cmd"))).toBe(command);
  });

  it("rejects bad arguments with ToolInputParsingException listing each problem", async () => {
    const error = await weather.invoke(call({ city: 5 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolInputParsingException);
    expect((error as Error).message).toBe(
      "Received tool input did not match expected schema\n\n✖ Invalid input: expected string, received number\n  → at city",
    );
    expect((error as ToolInputParsingException).output).toBe('{"city":5}');
    const verbose = tool(async () => "", {
      name: "v",
      description: "d",
      schema: z.object({ a: z.object({ b: z.number() }) }),
      verboseParsingErrors: true,
    });
    // LangChain.js's verbose form: `Details:` with the issues as JSON, then the readable list
    const verboseError = await verbose.invoke({ a: { b: "x" } }).catch((e: unknown) => e);
    expect((verboseError as Error).message).toBe(
      "Received tool input did not match expected schema\nDetails: [\n" +
        '  {\n    "expected": "number",\n    "code": "invalid_type",\n    "path": [\n      "a",\n      "b"\n    ],\n' +
        '    "message": "Invalid input: expected number, received string"\n  }\n]\n\n' +
        "✖ Invalid input: expected number, received string\n  → at a.b",
    );
  });

  it("applies zod defaults and transforms before calling the function", async () => {
    const t = tool(async (args) => JSON.stringify(args), {
      name: "d",
      description: "d",
      schema: z.object({ q: z.string().transform((s) => s.toUpperCase()), limit: z.number().default(10) }),
    });
    expect(await t.invoke({ q: "cat" })).toBe('{"q":"CAT","limit":10}');
    // Fields with defaults are optional for the model.
    expect(convertToOpenAITool(t).function.parameters).toMatchObject({ required: ["q"] });
  });

  it("accepts zod/mini and plain JSON Schema", async () => {
    const mini = tool(async ({ n }) => n * 2, {
      name: "mini",
      description: "d",
      schema: zm.object({ n: zm.number() }),
    });
    expect(await mini.invoke({ n: 21 })).toBe(42);
    expect(convertToOpenAITool(mini).function.parameters).toEqual({
      type: "object",
      properties: { n: { type: "number" } },
      required: ["n"],
    });
    const json = tool(async (args: { q: string }) => `got ${args.q}`, {
      name: "json",
      description: "d",
      schema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    });
    expect(await json.invoke({ q: "x" })).toBe("got x");
    // a plain JSON Schema's refusal is LangChain.js's bare sentence: the problems are listed only
    // for a Zod schema
    const refused = await json.invoke({ q: 4 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ToolInputParsingException);
    expect((refused as Error).message).toBe("Received tool input did not match expected schema");
  });

  it("without a schema takes one string (DynamicTool)", async () => {
    const shout = tool(async (text) => text.toUpperCase(), { name: "shout", description: "Shouts." });
    expect(shout).toBeInstanceOf(DynamicTool);
    expect(await shout.invoke("hi")).toBe("HI");
    expect(((await shout.invoke(call({ input: "yo" }, "shout"))) as ToolMessage).content).toBe("YO");
    // `input` is optional, as in LangChain.js: a call without it passes undefined
    expect(convertToOpenAITool(shout).function.parameters).toStrictEqual({
      type: "object",
      properties: { input: { type: "string" } },
    });
    const echo = tool(async (text) => String(text), { name: "echo", description: "Echoes." });
    expect(await echo.invoke({})).toBe("undefined");
  });

  it("propagates errors thrown by the function", async () => {
    const failing = tool(
      async () => {
        throw new Error("backend down");
      },
      { name: "f", description: "d", schema: z.object({}) },
    );
    await expect(failing.invoke(call({}, "f"))).rejects.toThrow("backend down");
  });

  it("exposes returnDirect", () => {
    const direct = tool(async () => "done", {
      name: "d",
      description: "d",
      schema: z.object({}),
      returnDirect: true,
    });
    expect(direct.returnDirect).toBe(true);
  });
});

describe("ToolRuntime", () => {
  it("carries state, context, store, config, toolCallId and writer from the config", async () => {
    let seen: ToolRuntime<{ messages: string[] }, { userId: string }> | undefined;
    const t = tool(
      async (_args, runtime) => {
        seen = runtime as ToolRuntime<{ messages: string[] }, { userId: string }>;
        runtime.writer?.({ progress: 1 });
        return "ok";
      },
      { name: "r", description: "d", schema: z.object({}) },
    );
    const written: unknown[] = [];
    const store = {
      get: async () => null,
      put: async () => {},
      delete: async () => {},
      search: async () => [],
    };
    await t.invoke(call({}, "r", "call_r"), {
      state: { messages: ["hi"] },
      context: { userId: "u1" },
      store,
      writer: (chunk) => written.push(chunk),
      tags: ["t1"],
      configurable: { thread_id: "th" },
    });
    expect(seen?.state.messages).toEqual(["hi"]);
    expect(seen?.context.userId).toBe("u1");
    expect(seen?.store).toBe(store);
    expect(seen?.toolCallId).toBe("call_r");
    expect(seen?.toolCall).toEqual(call({}, "r", "call_r"));
    expect(seen?.config.configurable).toEqual({ thread_id: "th" });
    expect(seen?.tags).toEqual(["t1"]);
    expect(written).toEqual([{ progress: 1 }]);
  });

  it("keeps runtime values out of argument errors, which list only the fields the model wrote", async () => {
    const search = tool(
      async ({ query }, runtime: ToolRuntime<{ userId: string }, { tenant: string }>) =>
        `${runtime.context.tenant}:${runtime.state.userId}:${query}`,
      {
        name: "search",
        description: "Search the tenant's documents.",
        schema: z.object({ query: z.string(), limit: z.number().int() }),
        verboseParsingErrors: true,
      },
    );
    const error = await search
      .invoke(call({ query: 1, limit: 2.5 }, "search"), {
        state: { userId: "secret-user" },
        context: { tenant: "secret-tenant" },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolInputParsingException);
    const message = (error as Error).message;
    expect(message).toMatch(/^Received tool input did not match expected schema\nDetails: \[/);
    expect(message).toMatch(
      /\n\n✖ Invalid input: expected string, received number\n {2}→ at query\n✖ Invalid input: expected int, received number\n {2}→ at limit$/,
    );
    expect(message).not.toMatch(/secret|userId|tenant|state|context/);
    // The JSON Schema the model sees has only those fields, too.
    expect(Object.keys(convertToOpenAITool(search).function.parameters.properties ?? {})).toEqual([
      "query",
      "limit",
    ]);
  });

  it("leaves out the run name of a run reported to callbacks, so calls made with it keep their own", async () => {
    let seen: ToolRuntime | undefined;
    const t = tool(
      async (_args, runtime) => {
        seen = runtime;
        return "ok";
      },
      { name: "r", description: "d", schema: z.object({}) },
    );
    const callbacks: CallbackHandler[] = [{ handleToolStart: () => {} }];
    await t.invoke(call({}, "r"), { runName: "named", runId: "run-1", tags: ["t1"], callbacks });
    expect(seen?.runName).toBeUndefined();
    expect(seen?.runId).toBeUndefined();
    expect(seen?.config.runName).toBeUndefined();
    expect(seen?.tags).toEqual(["t1"]);
    // without callbacks LangChain.js keeps it (the tool's name by default)
    await t.invoke(call({}, "r"), { runName: "named", runId: "run-1" });
    expect(seen?.runName).toBe("named");
    expect(seen?.runId).toBeUndefined();
    // and so does a DynamicStructuredTool made directly (only tool() patches the config)
    let direct: ToolRuntime | undefined;
    const made = new DynamicStructuredTool({
      name: "d",
      description: "d",
      schema: z.object({}),
      func: async (_args, _runManager, runtime) => {
        direct = runtime;
        return "ok";
      },
    });
    await made.invoke(call({}, "d"), { runName: "named", runId: "run-1", callbacks });
    expect(direct?.runName).toBe("named");
    expect(direct?.runId).toBeUndefined();
  });

  it("has no store or writer and an empty toolCallId when invoked with plain arguments", async () => {
    const t = tool(async (_args, runtime) => [runtime.store, runtime.writer, runtime.toolCallId], {
      name: "r",
      description: "d",
      schema: z.object({}),
    });
    // undefined, as in LangChain.js (whose type says `| null`)
    const [store, writer, toolCallId] = (await t.invoke({})) as unknown[];
    expect(store).toBeUndefined();
    expect(writer).toBeUndefined();
    expect(toolCallId).toBe("");
  });
});

describe("tool functions invoked outside a graph", () => {
  it("run with their config as the ambient one, as LangChain.js's tool() does", async () => {
    const t = tool(
      async () => ({
        tags: getConfig()?.tags,
        metadata: getConfig()?.metadata,
        store: getStore(),
      }),
      { name: "ambient", description: "d", schema: z.object({}) },
    );
    expect(await t.invoke({}, { tags: ["t"], metadata: { m: 1 } })).toEqual({
      tags: ["t"],
      metadata: { m: 1 },
      store: undefined,
    });
    // and nothing leaks out once the call is over
    expect(getConfig()).toBeUndefined();
  });
});

describe("tool callbacks", () => {
  it("handleToolStart gets the tool serialized as LangChain.js serializes it (no name; the run name has it)", async () => {
    const starts: unknown[][] = [];
    const t = tool(async () => "ok", { name: "lookup", description: "d", schema: z.object({}) });
    await t.invoke({}, { callbacks: [{ handleToolStart: (...args: unknown[]) => starts.push(args) }] });
    expect(starts[0]?.[0]).toStrictEqual({
      lc: 1,
      type: "not_implemented",
      id: ["langchain", "tools", "DynamicStructuredTool"],
    });
    expect(starts[0]?.[6]).toBe("lookup");
  });

  it("a LangChain.js tracer records the run from the arguments object before it hears the start (LangSmith traces { q })", async () => {
    // a BaseTracer (known by `_addRunToRunMap`) gets `_createRunForToolStart` first, as
    // LangChain.js's callback manager calls it; its `handleToolStart` then finds that run
    const heard: unknown[][] = [];
    const tracer = {
      _addRunToRunMap: () => undefined,
      _createRunForToolStart: (...args: unknown[]) => heard.push(["record", args[1], args[7]]),
      handleToolStart: (_t: unknown, input: string) => heard.push(["start", input]),
    } as CallbackHandler;
    const lookup = tool(async ({ q }) => q, {
      name: "lookup",
      description: "d",
      schema: z.object({ q: z.string() }),
    });
    await lookup.invoke(
      { name: "lookup", args: { q: "bob" }, id: "t1", type: "tool_call" },
      { callbacks: [tracer] },
    );
    const echo = tool(async (text: string) => text, { name: "echo", description: "d" });
    await echo.invoke("hi", { callbacks: [tracer] });
    expect(heard).toEqual([
      ["record", { q: "bob" }, "t1"],
      ["start", '{"q":"bob"}'],
      ["record", { input: "hi" }, undefined],
      ["start", '{"input":"hi"}'],
    ]);
  });

  function recorder() {
    const events: unknown[][] = [];
    const handler: CallbackHandler = {
      handleToolStart: (t, input, runId, _p, tags, metadata, runName, toolCallId) =>
        events.push(["start", t.id.at(-1), input, runId, tags, metadata, runName, toolCallId]),
      handleToolEnd: (output, runId) =>
        events.push(["end", isToolMessage(output) ? output.content : output, runId]),
      handleToolError: (error, runId) => events.push(["error", (error as Error).message, runId]),
      handleToolEvent: (data, runId, parentRunId, tags) =>
        events.push(["event", data, runId, parentRunId, tags]),
    };
    return { events, handler };
  }

  it("reports start, what an async generator tool yields, and end (its return value)", async () => {
    const { events, handler } = recorder();
    const written: unknown[] = [];
    const t = tool(
      async function* ({ city }: { city: string }, runtime) {
        runtime.writer?.("written, not an event");
        yield `looking up ${city}`;
        return `sunny in ${city}`;
      },
      { name: "w", description: "d", schema: z.object({ city: z.string() }) },
    );
    await t.invoke(call({ city: "Oslo" }, "w", "call_w"), {
      callbacks: [handler],
      runId: "run-t",
      tags: ["x"],
      metadata: { m: 1 },
      writer: (chunk: unknown) => written.push(chunk),
    } as ToolRunnableConfig);
    expect(events).toEqual([
      ["start", "DynamicStructuredTool", '{"city":"Oslo"}', "run-t", ["x"], { m: 1 }, "w", "call_w"],
      ["event", "looking up Oslo", "run-t", undefined, ["x"]],
      ["end", "sunny in Oslo", "run-t"],
    ]);
    expect(written).toEqual(["written, not an event"]);
    // without handlers the generator still runs to its return value
    expect(await t.invoke({ city: "Rome" })).toBe("sunny in Rome");
  });

  it("a handleToolEvent that fails: silent, or with raiseError a tool error; the tool goes on (LangChain.js)", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const heard: unknown[] = [];
    const t = tool(
      async function* () {
        yield 1;
        yield 2;
        return "final";
      },
      { name: "g", description: "d", schema: z.object({}) },
    );
    const quiet: CallbackHandler = {
      handleToolEvent: () => {
        throw new Error("quiet");
      },
    };
    const loud: CallbackHandler = {
      raiseError: true,
      handleToolEvent: async (data) => {
        throw new Error(`loud ${String(data)}`);
      },
      handleToolError: (error) => heard.push((error as Error).message),
    };
    expect(await t.invoke({}, { callbacks: [quiet, loud] })).toBe("final");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(heard).toEqual(["loud 1", "loud 2"]);
    // a handler that ignores tool calls (ignoreAgent) hears none of them
    const ignoring: CallbackHandler = {
      ignoreAgent: true,
      handleToolStart: () => heard.push("start"),
      handleToolEvent: () => heard.push("event"),
      handleToolEnd: () => heard.push("end"),
    };
    expect(await t.invoke({}, { callbacks: [ignoring] })).toBe("final");
    expect(heard).toEqual(["loud 1", "loud 2"]);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it("reports errors, and never starts a run for invalid arguments", async () => {
    const { events, handler } = recorder();
    const t = tool(
      async () => {
        throw new Error("boom");
      },
      { name: "e", description: "d", schema: z.object({ n: z.number() }) },
    );
    await expect(t.invoke({ n: 1 }, { callbacks: [handler], runId: "run-e" })).rejects.toThrow("boom");
    await expect(t.invoke({ n: "x" }, { callbacks: [handler] })).rejects.toThrow(ToolInputParsingException);
    expect(events).toEqual([
      ["start", "DynamicStructuredTool", '{"n":1}', "run-e", [], {}, "e", undefined],
      ["error", "boom", "run-e"],
    ]);
  });

  it("reports neither end nor error for an output its response format rejects (as LangChain.js)", async () => {
    const { events, handler } = recorder();
    const t = tool(async () => "no pair", {
      name: "p",
      description: "d",
      schema: z.object({}),
      responseFormat: "content_and_artifact",
    });
    const error = await t
      .invoke(call({}, "p", "call_p"), { callbacks: [handler], runId: "run-p" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolOutputFormatError);
    expect((error as Error).message).toMatch(/not a two-tuple/);
    expect(events).toEqual([["start", "DynamicStructuredTool", "{}", "run-p", [], {}, "p", "call_p"]]);
  });

  it("stops waiting when the signal aborts", async () => {
    const slow = tool(() => new Promise<string>(() => {}), {
      name: "s",
      description: "d",
      schema: z.object({}),
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(slow.invoke({}, { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
  });
});

describe("StructuredTool subclasses", () => {
  it("may return from a _call that is not async, and report its failures as rejections", async () => {
    class Plain extends StructuredTool {
      name = "plain";
      description = "Answers at once.";
      schema = z.object({ fail: z.boolean() });
      // JavaScript subclasses sometimes return the result itself (or throw) instead of a promise
      protected _call({ fail }: { fail: boolean }): Promise<string> {
        if (fail) throw new Error("plain failure");
        return "plain answer" as unknown as Promise<string>;
      }
    }
    expect(await new Plain().invoke({ fail: false })).toBe("plain answer");
    const failing = new Plain().invoke({ fail: true });
    expect(failing).toBeInstanceOf(Promise);
    await expect(failing).rejects.toThrow("plain failure");
  });

  it("work like LangChain.js: name, description, schema and _call", async () => {
    class Multiply extends StructuredTool {
      name = "multiply";
      description = "Multiply two numbers.";
      schema = z.object({ a: z.number(), b: z.number() });
      protected async _call({ a, b }: { a: number; b: number }) {
        return String(a * b);
      }
    }
    const multiply = new Multiply({ returnDirect: true });
    expect(multiply.returnDirect).toBe(true);
    expect(await multiply.invoke({ a: 6, b: 7 })).toBe("42");
    expect(((await multiply.invoke(call({ a: 2, b: 3 }, "multiply"))) as ToolMessage).content).toBe("6");
    expect(convertToOpenAITool(multiply, { strict: true }).function).toEqual({
      name: "multiply",
      description: "Multiply two numbers.",
      parameters: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
        additionalProperties: false,
      },
      strict: true,
    });
  });
});

describe("tool output as ToolMessage content, as in LangChain.js", () => {
  it("sends an array of plain objects as JSON and content blocks as they are", async () => {
    const rows = [{ day: "Mon" }, { day: "Tue" }];
    const data = tool(() => rows, { name: "rows", schema: z.object({}) });
    const asJson = await data.invoke(call({}, "rows"));
    expect(isToolMessage(asJson) && asJson.content).toBe(JSON.stringify(rows));
    const blocks = [{ type: "text", text: "Sunny" }];
    const rich = tool(() => blocks, { name: "rich", schema: z.object({}) });
    const asBlocks = await rich.invoke(call({}, "rich"));
    expect(isToolMessage(asBlocks) && asBlocks.content).toEqual(blocks);
  });

  it("copies the tool's metadata onto the ToolMessage", async () => {
    const tagged = new DynamicTool({
      name: "t",
      description: "d",
      metadata: { foo: "bar" },
      func: async () => "ok",
    });
    const result = await tagged.invoke(call({ input: "x" }, "t"));
    expect(isToolMessage(result) && result.metadata).toEqual({ foo: "bar" });
  });

  it("returns the raw output for a tool call with an empty id", async () => {
    expect(await weather.invoke(call({ city: "sf" }, "get_weather", ""))).toBe("It's always sunny in sf!");
  });
});

describe("Tool, the string-input base class", () => {
  class Shout extends Tool<string> {
    name = "shout";
    description = "Upper-cases text.";
    protected async _call(input: string): Promise<string> {
      return input.toUpperCase();
    }
  }

  it("takes a string, { input } or a tool call", async () => {
    const shout = new Shout();
    expect(shout).toBeInstanceOf(StructuredTool);
    expect(await shout.invoke("hi")).toBe("HI");
    expect(await shout.invoke({ input: "yo" })).toBe("YO");
    const result = await shout.invoke(call({ input: "ok" }, "shout"));
    expect(isToolMessage(result) && result.content).toBe("OK");
    expect(new DynamicTool({ name: "d", func: async (s: string) => s })).toBeInstanceOf(Tool);
  });

  it("hands _call undefined when there is no input, as LangChain.js", async () => {
    const seen: unknown[] = [];
    const echo = new DynamicTool({
      name: "echo",
      func: async (s: string) => {
        seen.push(s);
        return String(s);
      },
    });
    await echo.invoke(undefined as never);
    await echo.invoke({} as never);
    expect(seen).toEqual([undefined, undefined]);
  });

  it("refuses other input in LangChain.js's (zod/v3) words, null as { input: null }", async () => {
    const echo = new DynamicTool({ name: "echo", func: async (s: string) => s });
    const failure = async (input: unknown) => {
      const error = await echo.invoke(input as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolInputParsingException);
      const { message, output } = error as ToolInputParsingException;
      return [message.replace("Received tool input did not match expected schema\n\n", ""), output];
    };
    expect(await failure(5)).toEqual(["✖ Expected object, received number", "5"]);
    expect(await failure(["a"])).toEqual(["✖ Expected object, received array", '["a"]']);
    expect(await failure({ input: 3 })).toEqual([
      "✖ Expected string, received number\n  → at input",
      '{"input":3}',
    ]);
    expect(await failure(null)).toEqual(["✖ Expected string, received null\n  → at input", '{"input":null}']);
    expect(
      await tool((s: string) => s, { name: "t" })
        .invoke(true as never)
        .catch((e: Error) => e.message),
    ).toBe("Received tool input did not match expected schema\n\n✖ Expected object, received boolean");
  });
});

describe("direct tool output", () => {
  it("returns a value marked lc_direct_tool_output as it is, even for a tool call", async () => {
    const raw = { lc_direct_tool_output: true, output: "raw" };
    const direct = tool(() => raw, { name: "direct", schema: z.object({}) });
    expect(await direct.invoke(call({}, "direct"))).toBe(raw);
  });
});

describe("invokeThen on tools (a ToolNode's call)", () => {
  const call = { name: "add", args: { a: 1, b: 2 }, id: "c1", type: "tool_call" as const };

  it("hands the ToolMessage to `then`; the tool's failures, a bad call included, go to `onError`", async () => {
    const events: string[] = [];
    const handler: CallbackHandler = {
      handleToolStart: () => {
        events.push("start");
      },
      handleToolEnd: () => {
        events.push("end");
      },
      handleToolError: () => {
        events.push("error");
      },
    };
    const add = tool(async ({ a, b }) => a + b, {
      name: "add",
      description: "Add.",
      schema: z.object({ a: z.number(), b: z.number() }),
    });
    const onError = (error: unknown) => `failed: ${(error as Error).message}`;
    const answer = await invokeThen(
      add,
      call,
      { callbacks: [handler] },
      (m) => (m as unknown as ToolMessage).content,
      onError,
    );
    expect(answer).toBe("3");
    expect(events).toEqual(["start", "end"]);

    // arguments the schema refuses fail before the tool runs: onError hears it
    const bad = await invokeThen(add, { ...call, args: { a: "x" } }, {}, () => "ran", onError);
    expect(bad).toMatch(/^failed: /);

    // the tool's own error: reported to callbacks, then onError
    const broken = tool(
      async () => {
        throw new Error("no");
      },
      { name: "add", description: "Add.", schema: z.object({ a: z.number(), b: z.number() }) },
    );
    events.length = 0;
    expect(await invokeThen(broken, call, { callbacks: [handler] }, () => "ran", onError)).toBe("failed: no");
    expect(events).toEqual(["start", "error"]);

    // what `then` throws is the caller's: it rejects, and onError does not hear it
    let heard = false;
    await expect(
      invokeThen(
        add,
        call,
        {},
        () => {
          throw new Error("caller broke");
        },
        () => {
          heard = true;
        },
      ),
    ).rejects.toThrow("caller broke");
    expect(heard).toBe(false);
  });

  it("goes through a subclass's own invoke", async () => {
    class Custom extends StructuredTool {
      name = "custom";
      description = "Custom.";
      schema = z.object({});
      protected async _call() {
        return "from _call";
      }
      // biome-ignore lint/suspicious/noExplicitAny: an override that answers differently, for the test
      override invoke(): Promise<any> {
        return Promise.resolve("from invoke");
      }
    }
    expect(await invokeThen(new Custom(), {}, {}, (out) => out)).toBe("from invoke");
  });
});

describe("tools: a handler with raiseError and awaitHandlers fails the call, as in LangChain.js", () => {
  function guard(method: "handleToolStart" | "handleToolEnd" | "handleToolError") {
    const heard: string[] = [];
    const handler: CallbackHandler = { raiseError: true, awaitHandlers: true };
    for (const name of ["handleToolStart", "handleToolEnd", "handleToolError"] as const) {
      (handler as Record<string, unknown>)[name] = async () => {
        heard.push(name);
        if (name === method) throw new Error(`vetoed (${name})`);
      };
    }
    return { heard, handler };
  }

  it("a veto at the start: the tool does not run, and no tool error is heard; at the end: no answer", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      let ran = 0;
      const add = tool(
        ({ a, b }) => {
          ran++;
          return String(a + b);
        },
        { name: "add", description: "adds", schema: z.object({ a: z.number(), b: z.number() }) },
      );
      const start = guard("handleToolStart");
      const other: string[] = [];
      const call = { id: "c1", name: "add", args: { a: 1, b: 2 }, type: "tool_call" as const };
      await expect(
        add.invoke(call, { callbacks: [start.handler, { handleToolStart: () => other.push("start") }] }),
      ).rejects.toThrow("vetoed (handleToolStart)");
      expect([ran, start.heard, other]).toEqual([0, ["handleToolStart"], ["start"]]);

      const end = guard("handleToolEnd");
      await expect(add.invoke({ a: 1, b: 2 }, { callbacks: [end.handler] })).rejects.toThrow(
        "vetoed (handleToolEnd)",
      );
      expect([ran, end.heard]).toEqual([1, ["handleToolStart", "handleToolEnd"]]);

      // a tool error: the handler's error replaces the tool's
      const boom = tool(
        () => {
          throw new Error("boom");
        },
        { name: "boom", description: "fails", schema: z.object({}) },
      );
      const failed = guard("handleToolError");
      await expect(boom.invoke({}, { callbacks: [failed.handler] })).rejects.toThrow(
        "vetoed (handleToolError)",
      );
      expect(error.mock.calls.map((c) => c[0])).toEqual([
        "Error in handler Handler, handleToolStart: Error: vetoed (handleToolStart)",
        "Error in handler Handler, handleToolEnd: Error: vetoed (handleToolEnd)",
        "Error in handler Handler, handleToolError: Error: vetoed (handleToolError)",
      ]);

      // raiseError alone: logged, the tool answers
      const { awaitHandlers: _, ...loud } = guard("handleToolStart").handler;
      await expect(add.invoke({ a: 1, b: 2 }, { callbacks: [loud] })).resolves.toBe("3");
    } finally {
      error.mockRestore();
    }
  });
});
