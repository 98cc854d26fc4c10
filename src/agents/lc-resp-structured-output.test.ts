/**
 * Structured-output strategies where running LangChain.js's own tests against agentgraph showed
 * differences: what `strategy.schema` holds, how `zod/v3` schemas are checked, and the tool a
 * plain JSON Schema becomes.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import { AIMessage } from "../messages/index.js";
import { call, RecordingModel } from "./agent.test-helpers.js";
import { createAgent, ProviderStrategy, providerStrategy, ToolStrategy, toolStrategy } from "./index.js";

/** A Standard Schema that is not zod: it only offers its JSON Schema and accepts anything. */
function standardOnly(json: Record<string, unknown>): object {
  return {
    "~standard": {
      version: 1,
      vendor: "custom",
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

const point = { type: "object", properties: { x: { type: "number" } }, required: ["x"] };

describe("strategy.schema is the JSON Schema, as in LangChain.js", () => {
  it("holds the converted schema for a Standard Schema, in both strategies", () => {
    const titled = { ...point, title: "Point" };
    const [viaList] = toolStrategy(standardOnly(point) as never);
    expect(viaList?.schema).toEqual(point);
    const fromSchema = ToolStrategy.fromSchema(standardOnly(titled) as never);
    expect([fromSchema.name, fromSchema.schema]).toEqual(["Point", titled]);
    expect(providerStrategy(standardOnly(point) as never).schema).toEqual(point);
    expect(ProviderStrategy.fromSchema(standardOnly(point) as never).schema).toEqual(point);
  });

  it("holds the closed JSON Schema of a Zod schema, the one the arguments are checked against", () => {
    const [strategy] = toolStrategy(z.object({ city: z.string() }));
    expect(strategy?.schema).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    });
    expect(strategy?.schema).toBe(strategy?.jsonSchema);
  });

  it("keeps a JSON Schema as given", () => {
    expect(ToolStrategy.fromSchema(point).schema).toEqual(point);
    expect(providerStrategy(point).schema).toEqual(point);
  });
});

describe("zod/v3 schemas", () => {
  it("are closed objects, so arguments with an unknown key are sent back for a retry", async () => {
    const [strategy] = toolStrategy(z3.object({ city: z3.string() }));
    const name = strategy?.name ?? "";
    expect(strategy?.schema).toMatchObject({ additionalProperties: false });
    const model = new RecordingModel([
      new AIMessage({ content: "", id: "a1", tool_calls: [call(name, { city: "Oslo", extra: 1 }, "s1")] }),
      new AIMessage({ content: "", id: "a2", tool_calls: [call(name, { city: "Oslo" }, "s2")] }),
    ]);
    const agent = createAgent({ model, tools: [], responseFormat: strategy ? [strategy] : [] });
    const result = await agent.invoke({ messages: [{ role: "user", content: "where?" }] });
    expect(result.structuredResponse).toEqual({ city: "Oslo" });
    expect(String(result.messages[2]?.content)).toContain(
      `Failed to parse structured output for tool '${name}'`,
    );
    expect(model.calls).toHaveLength(2);
  });

  it("leave fields with a default optional", () => {
    const [strategy] = toolStrategy(z3.object({ city: z3.string(), days: z3.number().default(1) }));
    expect(strategy?.schema).toMatchObject({ required: ["city"] });
  });
});

describe("a plain JSON Schema becomes a plain function definition", () => {
  it("has an empty description and no strict flag when the schema has no description", async () => {
    const [strategy] = toolStrategy({ ...point, title: "Point" });
    expect(strategy?.tool).toEqual({
      type: "function",
      function: { name: "Point", description: "", parameters: { ...point, title: "Point" } },
    });
    const model = new RecordingModel([
      new AIMessage({ content: "", tool_calls: [call("Point", { x: 1 }, "s1")] }),
    ]);
    const agent = createAgent({ model, tools: [], responseFormat: strategy ? [strategy] : [] });
    const result = await agent.invoke({ messages: [{ role: "user", content: "a point" }] });
    expect(result.structuredResponse).toEqual({ x: 1 });
    // no default description reaches the model (an empty one may be left out when the tool is bound)
    const sent = model.options[0]?.options.tools as Array<{
      function: { description?: string; strict?: boolean };
    }>;
    expect(sent[0]?.function.description ?? "").toBe("");
    expect(sent[0]?.function.strict).toBeUndefined();
  });

  it("uses the schema's own description", () => {
    const [strategy] = toolStrategy({ ...point, title: "Point", description: "A point." });
    expect(strategy?.tool.function.description).toBe("A point.");
  });

  it("keeps the default description for a Zod schema without one", () => {
    const [strategy] = toolStrategy(z.object({ x: z.number() }));
    expect(strategy?.tool.function).toMatchObject({
      description: "Tool for extracting structured output from the model's response.",
      strict: false,
    });
  });
});

describe("schemas checked as LangChain.js checks them", () => {
  const mixedText =
    "Invalid response format: list contains mixed types.\nAll items must be either InteropZodObject, Standard Schema, or plain JSON schema objects.";

  it("refuses a list mixing Zod schemas and JSON Schemas, in toolStrategy and as responseFormat", () => {
    const mixed = [z.object({ a: z.string() }), point];
    expect(() => toolStrategy(mixed as never)).toThrow(mixedText);
    expect(() => createAgent({ model: new RecordingModel([]), responseFormat: mixed as never })).toThrow(
      mixedText,
    );
  });

  it("accepts lists of one kind: Zod 4 and Zod 3 objects together, or JSON Schemas without properties", () => {
    expect(toolStrategy([z3.object({ a: z3.string() }), z.object({ b: z.string() })] as never)).toHaveLength(
      2,
    );
    expect(toolStrategy([point, { type: "object" }])).toHaveLength(2);
  });

  it("refuses a single JSON Schema without properties, a Zod 3 non-object and a string", () => {
    expect(() => toolStrategy({ type: "object" })).toThrow("Invalid response format: [object Object]");
    expect(() => toolStrategy(z3.string() as never)).toThrow("Invalid response format: [object Object]");
    expect(() => toolStrategy("x" as never)).toThrow("Invalid response format: x");
    const model = new RecordingModel([]);
    expect(() => createAgent({ model, responseFormat: { type: "object" } })).toThrow(
      "Invalid response format: [object Object]",
    );
  });
});

describe("strategy objects as LangChain.js makes them", () => {
  it("parse synchronously: the arguments, or a StructuredOutputParsingError / undefined", () => {
    const [tool] = toolStrategy(point);
    expect(tool?.parse({ x: 1 })).toEqual({ x: 1 });
    expect(() => tool?.parse({ x: "1" })).toThrow(
      /^Failed to parse structured output for tool 'extract-\d+'/,
    );
    const provider = providerStrategy(point);
    expect(provider.parse(new AIMessage('{"x":1}'))).toEqual({ x: 1 });
    expect(provider.parse(new AIMessage('{"x":"1"}'))).toBeUndefined();
  });

  it("name the dialect of a Zod schema's JSON Schema, in the tool offered to the model too", () => {
    const [zod4] = toolStrategy(z.object({ a: z.string() }));
    expect(zod4?.tool.function.parameters.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    const [zod3] = toolStrategy(z3.object({ a: z3.string() }));
    expect(zod3?.schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(ToolStrategy.fromSchema(point).schema).not.toHaveProperty("$schema");
  });

  it("keep options undefined when none are given", () => {
    expect(toolStrategy(point)[0]?.options).toBeUndefined();
    expect(toolStrategy(point, { handleError: false })[0]?.options).toEqual({ handleError: false });
  });
});
