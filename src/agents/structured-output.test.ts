import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { MemorySaver } from "../index.js";
import { AIMessage } from "../messages/index.js";
import { answer, asking, call, outline, question, RecordingModel, search } from "./agent.test-helpers.js";
import {
  createAgent,
  createMiddleware,
  MultipleStructuredOutputsError,
  ProviderStrategy,
  providerStrategy,
  StructuredOutputError,
  StructuredOutputParsingError,
  ToolStrategy,
  toolStrategy,
} from "./index.js";

const Weather = z.object({ city: z.string(), sunny: z.boolean() }).meta({ title: "Weather" });
const Untitled = z.object({ answer: z.string() });

describe("tool strategy", () => {
  it("offers the schema as a tool named by its title, forces a tool call and returns the parsed call", async () => {
    const model = new RecordingModel([asking("a1", call("Weather", { city: "Suzhou", sunny: true }, "s1"))]);
    const agent = createAgent({ model, tools: [search], responseFormat: toolStrategy(Weather) });
    const result = await agent.invoke(question());
    expect(result.structuredResponse).toEqual({ city: "Suzhou", sunny: true });
    expectTypeOf(result.structuredResponse).toEqualTypeOf<{ city: string; sunny: boolean }>();
    expect(model.options[0]).toMatchObject({ tools: ["search", "Weather"], toolChoice: "any" });
    expect(outline(result.messages)).toEqual([
      "human:hi",
      "ai:",
      'tool:{"city":"Suzhou","sunny":true}',
      'ai:Returning structured response: {"city":"Suzhou","sunny":true}',
    ]);
    expect(result.messages[2]).toMatchObject({ tool_call_id: "s1", name: "Weather" });
    expect(model.calls).toHaveLength(1);
  });

  it("names an untitled schema extract-<n> and uses the default description", () => {
    const [strategy] = toolStrategy(Untitled);
    expect(strategy?.name).toMatch(/^extract-\d+$/);
    expect(strategy?.tool.function.description).toBe(
      "Tool for extracting structured output from the model's response.",
    );
  });

  it("uses a bare schema as a tool strategy when the model's profile has no structured output", async () => {
    const model = new RecordingModel([asking("a1", call("Weather", { city: "Paris", sunny: false }, "s1"))]);
    const result = await createAgent({ model, responseFormat: Weather }).invoke(question());
    expect(result.structuredResponse).toEqual({ city: "Paris", sunny: false });
    expect(model.options[0]?.tools).toEqual(["Weather"]);
  });

  it("offers an untitled bare schema under a new extract-<n> name at every model call", async () => {
    // the counter is shared by the whole process: read where it stands
    const [mark] = toolStrategy(z.object({ n: z.number() }));
    const base = Number(mark?.name.replace("extract-", ""));
    const first = `extract-${base + 1}`;
    const second = `extract-${base + 2}`;
    const model = new RecordingModel([
      asking("a1", call("search", { query: "x" }, "c1")),
      asking("a2", call(second, { answer: "yes" }, "s1")),
    ]);
    // creating the agent uses up no name; each call makes its own (LangChain.js's numbering)
    const agent = createAgent({ model, tools: [search], responseFormat: Untitled });
    const result = await agent.invoke(question());
    expect(model.options.map((o) => o.tools)).toEqual([
      ["search", first],
      ["search", second],
    ]);
    expect(result.structuredResponse).toEqual({ answer: "yes" });
    expect(result.messages.at(-2)).toMatchObject({ name: second, tool_call_id: "s1" });
  });

  it("has LangChain.js's static fromSchema constructors", () => {
    const tool = ToolStrategy.fromSchema(Weather, { toolMessageContent: "ok" });
    expect(tool).toBeInstanceOf(ToolStrategy);
    expect([tool.name, tool.options?.toolMessageContent]).toEqual(["Weather", "ok"]);
    expect(ProviderStrategy.fromSchema(Untitled).strict).toBe(true);
    expect(ProviderStrategy.fromSchema(Untitled, false).strict).toBe(false);
  });

  it("runs regular tools first, then ends with the structured answer", async () => {
    const model = new RecordingModel([
      asking("a1", call("search", { query: "Suzhou weather" }, "c1")),
      asking("a2", call("Weather", { city: "Suzhou", sunny: true }, "s1")),
    ]);
    const result = await createAgent({
      model,
      tools: [search],
      responseFormat: toolStrategy(Weather),
    }).invoke(question());
    expect(outline(result.messages).slice(0, 3)).toEqual([
      "human:hi",
      "ai:",
      "tool:results for Suzhou weather",
    ]);
    expect(result.structuredResponse).toEqual({ city: "Suzhou", sunny: true });
  });

  it("uses toolMessageContent for the closing message", async () => {
    const model = new RecordingModel([asking("a1", call("Weather", { city: "Rome", sunny: true }, "s1"))]);
    const result = await createAgent({
      model,
      responseFormat: toolStrategy(Weather, { toolMessageContent: "Done." }),
    }).invoke(question());
    expect(outline(result.messages).at(-1)).toBe("ai:Done.");
  });

  it("shows the validation error to the model and retries", async () => {
    const model = new RecordingModel([
      asking("a1", call("Weather", { city: "Oslo" }, "s1")),
      asking("a2", call("Weather", { city: "Oslo", sunny: false }, "s2")),
    ]);
    const result = await createAgent({ model, responseFormat: toolStrategy(Weather) }).invoke(question());
    expect(model.calls).toHaveLength(2);
    const retryMessage = result.messages[2];
    expect(retryMessage?.getType()).toBe("tool");
    expect(retryMessage).toMatchObject({ tool_call_id: "s1" });
    // LangChain.js's wording (it validates the JSON Schema with @cfworker/json-schema)
    expect(retryMessage?.content).toBe(
      "Failed to parse structured output for tool 'Weather':\n  - Instance does not have required property \"sunny\"..",
    );
    expect(result.structuredResponse).toEqual({ city: "Oslo", sunny: false });
    expect(outline(model.calls[1] ?? []).length).toBe(3);
    // as in LangChain.js: the node names the answer it loops on, not the one that carried the
    // structured response
    expect(result.messages.map((m) => (m.getType() === "ai" ? (m.name ?? null) : m.getType()))).toEqual([
      "human",
      "model",
      "tool",
      null,
      "tool",
      null,
    ]);
  });

  it("retries with a fixed message or a function's message", async () => {
    const fixed = new RecordingModel([
      asking("a1", call("Weather", {}, "s1")),
      asking("a2", call("Weather", { city: "A", sunny: true }, "s2")),
    ]);
    const r1 = await createAgent({
      model: fixed,
      responseFormat: toolStrategy(Weather, { handleError: "Try again." }),
    }).invoke(question());
    expect(r1.messages[2]?.content).toBe("Try again.");
    const fn = new RecordingModel([
      asking("a1", call("Weather", {}, "s1")),
      asking("a2", call("Weather", { city: "A", sunny: true }, "s2")),
    ]);
    const r2 = await createAgent({
      model: fn,
      responseFormat: toolStrategy(Weather, { handleError: (e) => `Oops: ${(e as Error).constructor.name}` }),
    }).invoke(question());
    expect(r2.messages[2]?.content).toBe("Oops: StructuredOutputParsingError");
  });

  it("fails with LangChain.js's plain Errors for a non-string handler result and a call without id", async () => {
    const failure = async (message: AIMessage, handleError?: (e: unknown) => unknown) => {
      const model = new RecordingModel([message]);
      const format = toolStrategy(
        Weather,
        handleError === undefined ? {} : { handleError: handleError as never },
      );
      return createAgent({ model, responseFormat: format })
        .invoke(question())
        .then(
          () => undefined,
          (e: unknown) => e as Error,
        );
    };
    const numeric = await failure(asking("a1", call("Weather", {}, "s1")), () => 42);
    expect([numeric?.constructor, numeric?.message]).toEqual([Error, "Error handler must return a string."]);
    const noId = await failure(
      new AIMessage({
        id: "a1",
        content: "",
        tool_calls: [{ name: "Weather", args: {}, type: "tool_call" }],
      }),
    );
    expect([noId?.constructor, noId?.message]).toEqual([
      Error,
      "Tool call ID is required to handle tool output errors. Please provide a tool call ID.",
    ]);
  });

  it("throws when handleError is false", async () => {
    const model = new RecordingModel([asking("a1", call("Weather", {}, "s1"))]);
    const error = await createAgent({ model, responseFormat: toolStrategy(Weather, { handleError: false }) })
      .invoke(question())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StructuredOutputParsingError);
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect((error as StructuredOutputParsingError).toolName).toBe("Weather");
  });

  it("answers every call of a multiple-structured-outputs answer with the error and retries", async () => {
    const Forecast = z.object({ days: z.number() }).meta({ title: "Forecast" });
    const model = new RecordingModel([
      asking("a1", call("Weather", { city: "A", sunny: true }, "s1"), call("Forecast", { days: 3 }, "s2")),
      asking("a2", call("Forecast", { days: 3 }, "s3")),
    ]);
    const result = await createAgent({ model, responseFormat: toolStrategy([Weather, Forecast]) }).invoke(
      question(),
    );
    const text =
      "The model has called multiple tools: Weather, Forecast to return a structured output. This is not supported. Please provide a single structured output.";
    expect(outline(result.messages).slice(0, 4)).toEqual(["human:hi", "ai:", `tool:${text}`, `tool:${text}`]);
    expect(result.structuredResponse).toEqual({ days: 3 });
    expect(model.options[0]?.tools).toEqual(["Weather", "Forecast"]);
    expect(new MultipleStructuredOutputsError(["a", "b"]).toolNames).toEqual(["a", "b"]);
  });

  it("streams a retry's update as LangChain.js's two writes: the answer, then it with the error message", async () => {
    const model = new RecordingModel([
      asking("a1", call("Weather", { city: "A" }, "s1")),
      asking("a2", call("Weather", { city: "A", sunny: true }, "s2")),
    ]);
    const agent = createAgent({ model, responseFormat: toolStrategy(Weather) });
    const chunks: unknown[] = [];
    for await (const chunk of await agent.stream(question(), { streamMode: "updates" })) chunks.push(chunk);
    const retry = (chunks[0] as { model_request: { messages: AIMessage[] }[] }).model_request;
    expect(retry.map((update) => outline(update.messages))).toEqual([
      ["ai:"],
      ["ai:", expect.stringMatching(/^tool:Failed to parse structured output for tool 'Weather'/)],
    ]);
    expect(chunks).toHaveLength(2);
  });

  it("accepts a JSON Schema (validated as JSON Schema)", async () => {
    const schema = {
      title: "Person",
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
    };
    const model = new RecordingModel([
      asking("a1", call("Person", { nope: 1 }, "s1")),
      asking("a2", call("Person", { name: "Ada" }, "s2")),
    ]);
    const result = await createAgent({ model, responseFormat: toolStrategy(schema) }).invoke(question());
    expect(result.structuredResponse).toEqual({ name: "Ada" });
    expect(model.calls).toHaveLength(2);
  });

  it("refuses a list mixing strategies and schemas", () => {
    const model = new RecordingModel([]);
    const mixed = [Weather, ...toolStrategy(Untitled)] as never;
    expect(() => createAgent({ model, responseFormat: mixed })).toThrow(
      "Invalid response format: list contains mixed types.",
    );
  });
});

describe("provider strategy", () => {
  it("uses a bare schema natively when the model's profile supports structured output", async () => {
    const model = new RecordingModel(['{"city":"Suzhou","sunny":true}'], { structuredOutput: true });
    const result = await createAgent({ model, tools: [search], responseFormat: Weather }).invoke(question());
    expect(result.structuredResponse).toEqual({ city: "Suzhou", sunny: true });
    expect(model.options[0]?.tools).toEqual(["search"]);
    expect(model.options[0]?.responseFormat).toMatchObject({
      type: "json_schema",
      // LangChain.js names it by the schema's `name` only
      json_schema: { name: "extract", strict: true },
    });
    expect(outline(result.messages)).toEqual(["human:hi", 'ai:{"city":"Suzhou","sunny":true}']);
  });

  it("binds the options every provider family reads, with the Zod schema's JSON Schema dialect (as LangChain.js)", async () => {
    const model = new RecordingModel(['{"answer":"42"}']);
    await createAgent({ model, responseFormat: providerStrategy(Untitled) }).invoke(question());
    const options = model.options[0]?.options as Record<string, unknown>;
    const schema = (options.response_format as { json_schema: { schema: Record<string, unknown> } })
      .json_schema.schema;
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(options.outputConfig).toEqual({ format: { type: "json_schema", schema } });
    expect(options.responseSchema).toBe(schema);
    expect(options.ls_structured_output_format).toEqual({ kwargs: { method: "json_schema" }, schema });
    // strict goes to the tools only when the call's settings give it
    expect(options.strict).toBeUndefined();
  });

  it("passes strict from providerStrategy", async () => {
    const model = new RecordingModel(['{"answer":"42"}']);
    const strategy = providerStrategy(Untitled, { strict: false });
    expect(strategy).toBeInstanceOf(ProviderStrategy);
    const result = await createAgent({ model, responseFormat: strategy }).invoke(question());
    expect(result.structuredResponse).toEqual({ answer: "42" });
    expect(model.options[0]?.responseFormat).toMatchObject({
      json_schema: { name: "extract", strict: false },
    });
    expect(providerStrategy({ schema: Untitled, strict: false }).strict).toBe(false);
  });

  it("keeps looping while the model calls tools, and fails on an invalid final answer", async () => {
    const model = new RecordingModel([
      asking("a1", call("search", { query: "q" }, "c1")),
      answer("a2", "not json"),
    ]);
    const error = await createAgent({ model, tools: [search], responseFormat: providerStrategy(Weather) })
      .invoke(question())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StructuredOutputParsingError);
    expect((error as Error).message).toBe(
      "Failed to parse structured output for tool 'Weather':\n  - Model output did not satisfy the provided response schema..",
    );
    expect(model.calls).toHaveLength(2);
  });

  it("reads the first text block of list content", async () => {
    const model = new RecordingModel([
      new AIMessage({ id: "a1", content: [{ type: "text", text: '{"answer":"yes"}' }] }),
    ]);
    const result = await createAgent({ model, responseFormat: providerStrategy(Untitled) }).invoke(
      question(),
    );
    expect(result.structuredResponse).toEqual({ answer: "yes" });
  });
});

describe("structured output with wrapModelCall", () => {
  it("uses the agent's responseFormat when the request's is undefined, none when it is null", async () => {
    const run = async (override: Record<string, unknown>) => {
      const m = createMiddleware({
        name: "Override",
        wrapModelCall: (request, handler) => handler({ ...request, ...override }),
      });
      const model = new RecordingModel([answer("a1", "plain")]);
      await createAgent({
        model,
        tools: [search],
        middleware: [m],
        responseFormat: toolStrategy(Weather),
      }).invoke(question());
      return model.options[0];
    };
    // LangChain.js falls back to the agent's format for an undefined one
    expect(await run({ responseFormat: undefined })).toMatchObject({
      tools: ["search", "Weather"],
      toolChoice: "any",
    });
    const off = await run({ responseFormat: null });
    expect(off?.tools).toEqual(["search"]);
    expect(off?.toolChoice).toBeUndefined();
  });

  it("still produces the structured response through a pass-through middleware (langchainjs#9418)", async () => {
    const seen: string[] = [];
    const spy = createMiddleware({
      name: "Spy",
      wrapModelCall: async (request, handler) => {
        const response = await handler(request);
        seen.push(response.tool_calls.map((c) => c.name).join(","));
        return response;
      },
    });
    const model = new RecordingModel([asking("a1", call("Weather", { city: "B", sunny: true }, "s1"))]);
    const result = await createAgent({
      model,
      middleware: [spy],
      responseFormat: toolStrategy(Weather),
    }).invoke(question());
    expect(seen).toEqual(["Weather"]);
    expect(result.structuredResponse).toEqual({ city: "B", sunny: true });
  });

  it("retries through a middleware that retries on its own", async () => {
    const retries = createMiddleware({
      name: "Twice",
      wrapModelCall: async (request, handler) => {
        const first = await handler(request);
        return first.tool_calls.length === 0 ? handler(request) : first;
      },
    });
    const model = new RecordingModel([
      answer("a1", "forgot the tool"),
      asking("a2", call("Weather", { city: "C", sunny: false }, "s1")),
    ]);
    const result = await createAgent({
      model,
      middleware: [retries],
      responseFormat: toolStrategy(Weather),
    }).invoke(question());
    expect(result.structuredResponse).toEqual({ city: "C", sunny: false });
    expect(outline(result.messages)[1]).toBe("ai:");
  });

  it("lets a middleware change the response format for one call", async () => {
    const Other = z.object({ n: z.number() }).meta({ title: "Other" });
    const swap = createMiddleware({
      name: "Swap",
      wrapModelCall: (request, handler) => handler({ ...request, responseFormat: toolStrategy(Other) }),
    });
    const model = new RecordingModel([asking("a1", call("Other", { n: 7 }, "s1"))]);
    const result = await createAgent({
      model,
      middleware: [swap],
      responseFormat: toolStrategy(Weather),
    }).invoke(question());
    expect(model.options[0]?.tools).toEqual(["Other"]);
    expect(result.structuredResponse as unknown).toEqual({ n: 7 });
  });

  it("clears the structured response of an earlier turn when a turn produces none", async () => {
    let turn = 0;
    const off = createMiddleware({
      name: "Off",
      wrapModelCall: (request, handler) => {
        turn += 1;
        return handler(turn === 1 ? request : { ...request, responseFormat: undefined });
      },
    });
    const model = new RecordingModel([
      asking("a1", call("Weather", { city: "D", sunny: true }, "s1")),
      answer("a2", "plain"),
    ]);
    const agent = createAgent({
      model,
      middleware: [off],
      responseFormat: toolStrategy(Weather),
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "clear" } };
    expect((await agent.invoke(question(), config)).structuredResponse).toEqual({ city: "D", sunny: true });
    const second = await agent.invoke({ messages: [{ role: "user", content: "again" }] }, config);
    expect(second.structuredResponse).toBeUndefined();
  });
});

describe("strategy objects", () => {
  it("toolStrategy returns one strategy per schema", () => {
    const list = toolStrategy([Weather, Untitled]);
    expect(list).toHaveLength(2);
    expect(list[0]).toBeInstanceOf(ToolStrategy);
    expect(list[0]?.name).toBe("Weather");
  });
});

describe("untitled schemas", () => {
  it("keep one extract-<n> name for binding and parsing", async () => {
    class EchoToolModel extends RecordingModel {
      override async _generate(_messages: never[], options: Record<string, unknown> = {}) {
        const name = (options.tools as Array<{ function: { name: string } }>)[0]?.function.name ?? "?";
        this.options.push({
          tools: [name],
          toolChoice: options.tool_choice,
          responseFormat: undefined,
          options,
        });
        const message = new AIMessage({
          id: "a1",
          content: "",
          tool_calls: [call(name, { answer: "42" }, "s1")],
        });
        return { generations: [{ text: "", message }] };
      }
    }
    const model = new EchoToolModel([]);
    const result = await createAgent({ model, responseFormat: Untitled }).invoke(question());
    expect(model.options[0]?.tools[0]).toMatch(/^extract-\d+$/);
    expect(result.structuredResponse).toEqual({ answer: "42" });
  });
});
