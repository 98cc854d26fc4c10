import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { AIMessage } from "../../../messages/index.js";
import { FixtureServer, openAIEvents } from "../../__tests__/fixture-server.js";
import { OutputParserException } from "../../errors/configuration-errors.js";
import { ChatOpenAI } from "./chat-openai.js";

// `withStructuredOutput(…).stream()` against a real SSE server, with the values
// @langchain/openai 1.6.0 yields for the same events.

let server: FixtureServer;
beforeEach(async () => {
  server = await FixtureServer.start();
});
afterEach(async () => {
  await server.close();
});

function model(): ChatOpenAI {
  return new ChatOpenAI({
    model: "gpt-4o-mini",
    apiKey: "sk-test",
    maxRetries: 0,
    configuration: { baseURL: `${server.url}/v1` },
  });
}

function event(delta: Record<string, unknown>, finish: string | null = null) {
  return {
    id: "chatcmpl-so",
    object: "chat.completion.chunk",
    created: 1,
    model: "gpt-4o-mini",
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

/** JSON text cut inside a key, inside strings and inside a `\u00e9` escape. */
const PIECES = ['{"na', 'me": "Ad', "a \\u00", "e9", 'l", "ta', 'gs": ["x', '", "y"', '], "age": 3', "6}"];

function toolCallEvents(name: string, pieces: string[] = PIECES) {
  return openAIEvents([
    event({
      role: "assistant",
      content: null,
      tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name, arguments: "" } }],
    }),
    ...pieces.map((arguments_) => event({ tool_calls: [{ index: 0, function: { arguments: arguments_ } }] })),
    event({}, "tool_calls"),
  ]);
}

function textEvents(pieces: string[] = PIECES) {
  return openAIEvents([
    event({ role: "assistant", content: "" }),
    ...pieces.map((content) => event({ content })),
    event({}, "stop"),
  ]);
}

/** The partial objects @langchain/openai yields for PIECES (a cut escape reads as `u00`). */
const PARTIALS = [
  {},
  { name: "Ad" },
  { name: "Ada u00" },
  { name: "Ada é" },
  { name: "Ada él" },
  { name: "Ada él", tags: ["x"] },
  { name: "Ada él", tags: ["x", "y"] },
  { name: "Ada él", tags: ["x", "y"], age: 3 },
  { name: "Ada él", tags: ["x", "y"], age: 36 },
];
const WHOLE = { name: "Ada él", tags: ["x", "y"], age: 36 };

const Person = z.object({ name: z.string(), tags: z.array(z.string()), age: z.number() });
const personJsonSchema = {
  type: "object",
  properties: {
    name: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
    age: { type: "number" },
  },
};

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of stream) values.push(value);
  return values;
}

describe("ChatOpenAI withStructuredOutput(…).stream()", () => {
  it("streams the request and yields each new partial object of a function call's arguments", async () => {
    server.reply({ kind: "sse", events: toolCallEvents("person") });
    const extractor = model().withStructuredOutput(Person, { name: "person", method: "functionCalling" });
    expect(await collect(await extractor.stream("Ada?"))).toEqual(PARTIALS);
    expect(server.requests[0]?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      tool_choice: { type: "function", function: { name: "person" } },
    });
  });

  it("does not validate streamed arguments, and yields nothing when the answer does not call the tool", async () => {
    server.reply(
      { kind: "sse", events: toolCallEvents("person") },
      { kind: "sse", events: toolCallEvents("other") },
    );
    const strictName = model().withStructuredOutput(z.object({ name: z.number() }), {
      name: "person",
      method: "functionCalling",
    });
    expect((await collect(await strictName.stream("Ada?"))).at(-1)).toEqual(WHOLE);
    expect(await collect(await strictName.stream("Ada?"))).toEqual([]);
  });

  it("yields a partial only when it changed, from the first call of the tool that parses", async () => {
    server.reply({
      kind: "sse",
      events: openAIEvents([
        event({
          role: "assistant",
          tool_calls: [{ index: 0, id: "a", type: "function", function: { name: "person", arguments: "" } }],
        }),
        event({ tool_calls: [{ index: 0, function: { arguments: '{"name": "A"' } }] }),
        event({ tool_calls: [{ index: 0, function: { arguments: ", " } }] }),
        // the first call's arguments stop being JSON: the second call is the first that parses
        event({ tool_calls: [{ index: 0, function: { arguments: "x}" } }] }),
        event({
          tool_calls: [{ index: 1, id: "b", type: "function", function: { name: "person", arguments: "" } }],
        }),
        event({ tool_calls: [{ index: 1, function: { arguments: '{"name": "B"}' } }] }),
        event({}, "tool_calls"),
      ]),
    });
    const extractor = model().withStructuredOutput(Person, { name: "person", method: "functionCalling" });
    expect(await collect(await extractor.stream("Ada?"))).toEqual([{}, { name: "A" }, {}, { name: "B" }]);
  });

  it("yields a call sent whole in one delta once (one chunk per server event)", async () => {
    server.reply({
      kind: "sse",
      events: openAIEvents([
        event({
          role: "assistant",
          tool_calls: [
            { index: 0, id: "a", type: "function", function: { name: "person", arguments: '{"name": "A"}' } },
          ],
        }),
        event({}, "tool_calls"),
      ]),
    });
    const extractor = model().withStructuredOutput(Person, { name: "person", method: "functionCalling" });
    expect(await collect(await extractor.stream("Ada?"))).toEqual([{ name: "A" }]);
  });

  it("yields the validated result once for a JSON method with a Zod schema", async () => {
    server.reply({ kind: "sse", events: textEvents() }, { kind: "sse", events: textEvents() });
    expect(
      await collect(await model().withStructuredOutput(Person, { name: "person" }).stream("Ada?")),
    ).toEqual([WHOLE]);
    expect(server.requests[0]?.body).toMatchObject({
      stream: true,
      response_format: { type: "json_schema", json_schema: { name: "person", strict: true } },
    });
    // a result the schema rejects fails `await stream()` itself, before any value
    const rejecting = model().withStructuredOutput(z.object({ name: z.number() }), { name: "person" });
    await expect(rejecting.stream("Ada?")).rejects.toBeInstanceOf(OutputParserException);
  });

  it("yields partial JSON for a JSON method with a plain JSON Schema, reading inside a Markdown fence", async () => {
    server.reply(
      { kind: "sse", events: textEvents() },
      { kind: "sse", events: textEvents() },
      { kind: "sse", events: textEvents(["```js", 'on\n{"a": [1', ", 2]}\n``", "`"]) },
      { kind: "sse", events: textEvents(['{"a', '": 1', ", x"]) },
    );
    const jsonSchema = model().withStructuredOutput(personJsonSchema, { name: "person" });
    expect(await collect(await jsonSchema.stream("Ada?"))).toEqual(PARTIALS);
    const jsonMode = model().withStructuredOutput(personJsonSchema, { method: "jsonMode" });
    expect(await collect(await jsonMode.stream("Ada?"))).toEqual(PARTIALS);
    expect(server.requests[1]?.body).toMatchObject({
      stream: true,
      response_format: { type: "json_object" },
    });
    expect(await collect(await jsonMode.stream("Ada?"))).toEqual([{ a: [1] }, { a: [1, 2] }]);
    // text that stops being JSON ends the partials without an error
    expect(await collect(await jsonMode.stream("Ada?"))).toEqual([{}, { a: 1 }]);
  });

  it("yields { raw } then { parsed } with includeRaw, parsed null when parsing fails", async () => {
    server.reply({ kind: "sse", events: toolCallEvents("person") }, { kind: "sse", events: textEvents() });
    const functionCalling = model().withStructuredOutput(Person, {
      name: "person",
      method: "functionCalling",
      includeRaw: true,
    });
    const [raw, parsed, ...rest] = await collect(await functionCalling.stream("Ada?"));
    expect(rest).toEqual([]);
    expect(Object.keys(raw ?? {})).toEqual(["raw"]);
    expect(raw?.raw).toBeInstanceOf(AIMessage);
    expect(raw?.raw.tool_calls).toEqual([{ name: "person", args: WHOLE, id: "call_1", type: "tool_call" }]);
    expect(parsed).toEqual({ parsed: WHOLE });

    const rejecting = model().withStructuredOutput(z.object({ name: z.number() }), {
      name: "person",
      includeRaw: true,
    });
    const chunks = await collect(await rejecting.stream("Ada?"));
    expect(chunks.map((chunk) => Object.keys(chunk))).toEqual([["raw"], ["parsed"]]);
    expect(chunks[0]?.raw?.text).toBe(PIECES.join(""));
    expect(chunks[1]).toEqual({ parsed: null });
    expect(chunks[1]?.parsing_error).toBeInstanceOf(OutputParserException);
  });
});
