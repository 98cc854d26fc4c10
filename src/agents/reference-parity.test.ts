/**
 * Behaviour of createAgent that was checked against LangChain.js 1.5.14 by running the same
 * scenarios on both (the texts and shapes asserted here are the reference's).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Command, MemorySaver } from "../index.js";
import type { AIMessage, BaseMessage, ToolMessage } from "../messages/index.js";
import { FakeChatModel } from "../testing/index.js";
import { tool } from "../tools/index.js";
import { answer, asking, call, question, RecordingModel, search } from "./agent.test-helpers.js";
import { createAgent, createMiddleware, MiddlewareError, providerStrategy, toolStrategy } from "./index.js";
import { schemaErrors } from "./schema-check.js";

const throwing = (name: string, error: unknown) =>
  tool(
    async () => {
      throw error;
    },
    { name, description: "Fails.", schema: z.object({}) },
  );

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

describe("tool errors shown to the model", () => {
  it("uses LangChain.js's texts for unknown tools, bad arguments and thrown errors", async () => {
    const model = new FakeChatModel({
      responses: [
        asking(
          "a1",
          call("nope", {}, "c1"),
          call("search", { query: 5 }, "c2"),
          call("typed", {}, "c3"),
          call("text", {}, "c4"),
        ),
        answer("a2", "done"),
      ],
    });
    const tools = [search, throwing("typed", new TypeError("kaboom")), throwing("text", "plain text")];
    const { messages } = await createAgent({ model, tools }).invoke(question());
    const answers = messages.slice(2, 6) as ToolMessage[];
    expect(answers.map((m) => [m.name, m.status])).toEqual([
      ["nope", "error"],
      ["search", "error"],
      ["typed", "error"],
      ["text", "error"],
    ]);
    expect(answers[0]?.content).toBe("Error: nope is not a valid tool, try one of [search, typed, text].");
    expect(String(answers[1]?.content)).toMatch(
      /^Error invoking tool 'search' with kwargs \{"query":5\} with error: Error: Received tool input did not match expected schema\n/,
    );
    expect(String(answers[1]?.content)).toMatch(/\n Please fix the error and try again\.$/);
    expect(answers[2]?.content).toBe("TypeError: kaboom\n Please fix your mistakes.");
    expect(answers[3]?.content).toBe("plain text\n Please fix your mistakes.");
  });
});

describe("middleware hook nodes", () => {
  const counter = () =>
    createMiddleware({
      name: "Counter",
      stateSchema: z.object({ count: z.number().default(0) }),
      beforeModel: (state) => ({ count: state.count + 1 }),
      afterModel: () => undefined,
    });

  it("write the state they were given back with their update, as `updates` streams show", async () => {
    const model = new FakeChatModel({ responses: [answer("a1", "done")] });
    const chunks = await collect(
      await createAgent({ model, middleware: [counter()] }).stream(question(), { streamMode: "updates" }),
    );
    const before = (chunks[0] as Record<string, { messages: BaseMessage[]; count: number }>)[
      "Counter.before_model"
    ];
    expect(before?.count).toBe(1);
    expect(before?.messages.map((m) => m.id)).toEqual(["h1"]);
    expect(chunks[2]).toEqual({ "Counter.after_model": {} });
  });

  it("emit a `values` chunk even when the hook returns nothing", async () => {
    const model = new FakeChatModel({ responses: [answer("a1", "done")] });
    const chunks = await collect(
      await createAgent({ model, middleware: [counter()] }).stream(question(), { streamMode: "values" }),
    );
    // input, before_model, model_request, after_model
    expect(chunks.map((c) => (c as { messages: unknown[] }).messages.length)).toEqual([1, 1, 2, 2]);
  });

  it("name a thrown non-error after the middleware", async () => {
    const m = createMiddleware({
      name: "myMw",
      wrapModelCall: () => {
        throw "no";
      },
    });
    const model = new FakeChatModel({ responses: [answer("a1", "done")] });
    const error = await createAgent({ model, middleware: [m] })
      .invoke(question())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MiddlewareError);
    expect((error as Error).name).toBe("MyMwError");
  });

  it("report an invalid wrapToolCall result with LangChain.js's text", async () => {
    const m = createMiddleware({ name: "wt", wrapToolCall: (() => "text") as never });
    const model = new FakeChatModel({ responses: [asking("a1", call("search", { query: "q" }, "c1"))] });
    const error = await createAgent({ model, tools: [search], middleware: [m] })
      .invoke(question())
      .catch((e: unknown) => e);
    // a MiddlewareError, as LangChain.js throws it
    expect(error).toBeInstanceOf(MiddlewareError);
    expect((error as Error).message).toMatch(
      /^Invalid response from "wrapToolCall" in middleware "wt": expected ToolMessage or Command, got string$/,
    );
  });

  it("report an invalid wrapModelCall result as a MiddlewareError", async () => {
    const m = createMiddleware({ name: "wm", wrapModelCall: (() => undefined) as never });
    const error = await createAgent({ model: new FakeChatModel({ responses: ["x"] }), middleware: [m] })
      .invoke(question())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MiddlewareError);
    expect((error as Error).message).toBe(
      'Invalid response from "wrapModelCall" in middleware "wm": expected AIMessage or Command, got undefined',
    );
  });

  it("give wrapModelCall a request with a responseFormat key", async () => {
    const keys: string[] = [];
    const m = createMiddleware({
      name: "Keys",
      wrapModelCall: (request, handler) => {
        keys.push(...Object.keys(request));
        return handler(request);
      },
    });
    await createAgent({ model: new FakeChatModel({ responses: ["x"] }), middleware: [m] }).invoke(question());
    expect(keys).toContain("responseFormat");
  });

  it("explain missing required state fields with LangChain.js's text", async () => {
    const m = createMiddleware({ name: "M", stateSchema: z.object({ need: z.string() }) });
    await expect(
      createAgent({ model: new FakeChatModel({ responses: ["x"] }), middleware: [m] }).invoke(question()),
    ).rejects.toThrow(
      'Middleware "M" has required state fields that must be initialized:\n  - need: Required\n\nTo fix this, either:\n1. Provide default values in your middleware\'s state schema using .default():\n',
    );
  });
});

describe("state defaults", () => {
  it("start Zod fields with a default at their default, in the result and the first checkpoint", async () => {
    const m = createMiddleware({
      name: "M",
      stateSchema: z.object({ count: z.number().default(0), _seen: z.string().default("p") }),
    });
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["x"] }),
      middleware: [m],
      stateSchema: z.object({ top: z.string().default("t") }),
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "defaults" } };
    const result = await agent.invoke(question(), config);
    expect(result).toMatchObject({ top: "t", count: 0 });
    const history = [];
    for await (const snapshot of agent.getStateHistory(config)) history.push(snapshot);
    expect(history.at(-1)?.values).toMatchObject({ count: 0, _seen: "p", top: "t" });
  });
});

describe("run metadata", () => {
  it("tags runs as LangChain.js's createAgent does", async () => {
    let seen: { metadata?: Record<string, unknown>; configurable?: Record<string, unknown> } = {};
    const probe = tool(
      async (_input, config) => {
        seen = config as typeof seen;
        return "ok";
      },
      { name: "probe", description: "Looks at its config.", schema: z.object({}) },
    );
    const model = new FakeChatModel({ responses: [asking("a1", call("probe", {}, "c1")), "done"] });
    await createAgent({ model, tools: [probe], name: "helper" }).invoke(question());
    expect(seen.metadata).toMatchObject({
      ls_integration: "langchain_create_agent",
      lc_agent_name: "helper",
    });
    expect(seen.configurable).toMatchObject({ ls_agent_type: "root" });
  });
});

describe("structured output validation", () => {
  const Weather = z.object({ city: z.string(), sunny: z.boolean() }).meta({ title: "Weather" });

  it("words the problems as LangChain.js's validator does, extra keys included", async () => {
    const model = new RecordingModel([
      asking("a1", call("Weather", { city: 3 }, "s1")),
      asking("a2", call("Weather", { city: "X", sunny: true, extra: 1 }, "s2")),
      asking("a3", call("Weather", { city: "X", sunny: true }, "s3")),
    ]);
    const result = await createAgent({ model, responseFormat: toolStrategy(Weather) }).invoke(question());
    expect(result.messages[2]?.content).toBe(
      "Failed to parse structured output for tool 'Weather':\n" +
        '  - Instance does not have required property "sunny".\n' +
        '  - Property "city" does not match schema.\n' +
        '  - Instance type "number" is invalid. Expected "string"..',
    );
    expect(result.messages[4]?.content).toBe(
      "Failed to parse structured output for tool 'Weather':\n" +
        '  - Property "extra" does not match additional properties schema.\n' +
        "  - False boolean schema..",
    );
    expect(result.structuredResponse).toEqual({ city: "X", sunny: true });
  });

  it("returns the arguments as given: Zod transforms and defaults are not applied", async () => {
    const Shape = z
      .object({ n: z.string().transform((s) => s.length), d: z.string().default("x") })
      .meta({ title: "Shape" });
    const model = new RecordingModel([
      asking("a1", call("Shape", { n: "abc" }, "s1")),
      asking("a2", call("Shape", { n: "abc", d: "y" }, "s2")),
    ]);
    const result = await createAgent({ model, responseFormat: toolStrategy(Shape) }).invoke(question());
    // a field with a default is required (LangChain.js checks zod's output-side schema)
    expect(result.messages[2]?.content).toBe(
      "Failed to parse structured output for tool 'Shape':\n  - Instance does not have required property \"d\"..",
    );
    expect(result.structuredResponse).toEqual({ n: "abc", d: "y" });
  });

  it("streams the whole conversation with the structured response", async () => {
    const model = new RecordingModel([asking("a1", call("Weather", { city: "X", sunny: true }, "s1"))]);
    const chunks = await collect(
      await createAgent({ model, responseFormat: toolStrategy(Weather) }).stream(question(), {
        streamMode: "updates",
      }),
    );
    const update = (chunks[0] as Record<string, { messages: BaseMessage[] }>).model_request;
    expect(update?.messages.map((m) => m.getType())).toEqual(["human", "ai", "tool", "ai"]);
  });

  it("checks provider output against the closed schema", async () => {
    const model = new RecordingModel(['{"city":"X","sunny":true,"extra":1}']);
    await expect(
      createAgent({ model, responseFormat: providerStrategy(Weather) }).invoke(question()),
    ).rejects.toThrow(
      "Failed to parse structured output for tool 'Weather':\n  - Model output did not satisfy the provided response schema..",
    );
    expect(model.options[0]?.responseFormat).toMatchObject({ json_schema: { name: "extract" } });
  });

  it("covers the keywords Zod schemas use", () => {
    const schema = {
      type: "object",
      properties: {
        tags: { type: "array", items: { type: "string" }, maxItems: 1 },
        n: { type: "integer", minimum: 0, exclusiveMaximum: 10 },
        kind: { type: "string", enum: ["a", "b"] },
        u: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
      required: ["tags", "n", "kind", "u"],
      additionalProperties: false,
    };
    expect(schemaErrors(schema, { tags: ["a", 1], n: 1, kind: "a", u: null })).toEqual([
      'Property "tags" does not match schema.',
      "Array has too many items (2 > 1).",
      "Items did not match schema.",
      'Instance type "number" is invalid. Expected "string".',
    ]);
    expect(schemaErrors(schema, { tags: [], n: 10.5, kind: "c", u: 1 })).toEqual([
      'Property "n" does not match schema.',
      'Instance type "number" is invalid. Expected "integer".',
      "10.5 is greater than or equal to 10.",
    ]);
    expect(schemaErrors(schema, { tags: [], n: 1, kind: "c", u: 1 })).toEqual([
      'Property "kind" does not match schema.',
      'Instance does not match any of ["a","b"].',
    ]);
    expect(schemaErrors(schema, { tags: [], n: 1, kind: "a", u: 1 })).toEqual([
      'Property "u" does not match schema.',
      "Instance does not match any subschemas.",
      'Instance type "number" is invalid. Expected "string".',
      'Instance type "number" is invalid. Expected "null".',
    ]);
  });
});

describe("routing right after the model", () => {
  it("ends when the model's answer replaced an earlier message and a tool message comes last", async () => {
    // a tool returning a bare Command leaves its call unanswered; the second answer reuses the
    // first one's id, so it takes its place and the tool message stays last
    const quiet = tool(() => new Command({ update: {} }), {
      name: "quiet",
      description: "Returns a command.",
      schema: z.object({}),
    });
    const calls = [call("quiet", {}, "q1"), call("search", { query: "x" }, "s1")];
    const model = new FakeChatModel({ responses: [asking("same", ...calls), asking("same", ...calls)] });
    const { messages } = await createAgent({ model, tools: [quiet, search] }).invoke(question());
    expect(messages.map((m) => m.getType())).toEqual(["human", "ai", "tool"]);
    expect(messages[2]?.content).toBe("results for x");
    expect(model.calls).toHaveLength(2);
  });
});

describe("the agent's own signal", () => {
  it("fails a model call with the signal's reason", async () => {
    const controller = new AbortController();
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["never"] }),
      signal: controller.signal,
    });
    controller.abort(new Error("custom abortion"));
    await expect(agent.invoke(question())).rejects.toThrow("custom abortion");
  });

  it("fails a running tool step at once, a string reason becoming the message", async () => {
    const controller = new AbortController();
    const slow = tool(() => new Promise<string>((resolve) => setTimeout(() => resolve("late"), 5_000)), {
      name: "slow",
      description: "Takes long.",
      schema: z.object({}),
    });
    const model = new FakeChatModel({ responses: [asking("a1", call("slow", {}, "c1"))] });
    const agent = createAgent({ model, tools: [slow], signal: controller.signal });
    setTimeout(() => controller.abort("custom abort"), 20);
    const started = Date.now();
    await expect(agent.invoke(question())).rejects.toMatchObject({ message: "custom abort" });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("a middleware's context", () => {
  it("is read-only, with LangChain.js's error text", async () => {
    const m = createMiddleware({
      name: "T",
      contextSchema: z.object({ userId: z.string() }),
      beforeAgent: (_state, runtime) => {
        (runtime.context as { userId: string }).userId = "changed";
      },
    });
    const agent = createAgent({ model: new FakeChatModel({ responses: ["x"] }), middleware: [m] });
    await expect(agent.invoke(question(), { context: { userId: "u1" } })).rejects.toThrow(
      "Cannot assign to read only property 'userId' of object '#<AgentContext>'",
    );
  });
});

describe("wrapToolCall requests", () => {
  it("carry a copy of the call: changing its args changes what runs, not the AI message", async () => {
    const m = createMiddleware({
      name: "Edit",
      wrapToolCall: (request, handler) => {
        (request.toolCall.args as { query: string }).query += "!";
        return handler(request);
      },
    });
    const model = new FakeChatModel({
      responses: [asking("a1", call("search", { query: "q" }, "c1")), "done"],
    });
    const { messages } = await createAgent({ model, tools: [search], middleware: [m] }).invoke(question());
    expect(messages[2]?.content).toBe("results for q!");
    expect((messages[1] as AIMessage).tool_calls[0]?.args).toEqual({ query: "q" });
  });
});

describe("the system message in wrapModelCall", () => {
  it("is removed by systemMessage: undefined", async () => {
    const m = createMiddleware({
      name: "Drop",
      wrapModelCall: (request, handler) => handler({ ...request, systemMessage: undefined as never }),
    });
    const model = new FakeChatModel({ responses: ["ok"] });
    await createAgent({ model, systemPrompt: "You are helpful.", middleware: [m] }).invoke(question());
    expect(model.calls[0]?.map((msg) => msg.getType())).toEqual(["human"]);
  });
});

describe("model settings from wrapModelCall", () => {
  it("are bound with bindTools even when the agent has no tools", async () => {
    const bound: unknown[][] = [];
    const model = new RecordingModel(["ok"]);
    const bindTools = model.bindTools.bind(model);
    model.bindTools = ((...args: Parameters<typeof model.bindTools>) => {
      bound.push(args);
      return bindTools(...args);
    }) as typeof model.bindTools;
    const m = createMiddleware({
      name: "Settings",
      wrapModelCall: (request, handler) => handler({ ...request, modelSettings: { temperature: 0.5 } }),
    });
    await createAgent({ model, tools: [], middleware: [m] }).invoke(question());
    expect(bound).toEqual([[[], { temperature: 0.5 }]]);
    expect(model.options[0]?.options.temperature).toBe(0.5);
  });
});

describe("request fields left undefined by wrapModelCall", () => {
  it("tools: undefined binds the agent's tools, and an empty toolChoice falls back", async () => {
    const m = createMiddleware({
      name: "Spread",
      wrapModelCall: (request, handler) =>
        handler({ ...request, tools: undefined as never, toolChoice: "" as never }),
    });
    const model = new RecordingModel([asking("a1", call("search", { q: "x" }, "c1")), answer("a2", "done")]);
    const result = await createAgent({ model, tools: [search], middleware: [m] }).invoke(question());
    expect(model.options[0]?.tools).toEqual(["search"]);
    expect(model.options[0]?.toolChoice).toBeUndefined();
    expect(result.messages.at(-1)?.text).toBe("done");
  });
});
