/**
 * Behaviour of createAgent that was checked against LangChain.js 1.5.14 by running the same
 * scenarios on both (the texts and shapes asserted here are the reference's).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemorySaver } from "../index.js";
import type { BaseMessage, ToolMessage } from "../messages/index.js";
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
    await expect(createAgent({ model, tools: [search], middleware: [m] }).invoke(question())).rejects.toThrow(
      /^Invalid response from "wrapToolCall" in middleware "wt": expected ToolMessage or Command, got string$/,
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
