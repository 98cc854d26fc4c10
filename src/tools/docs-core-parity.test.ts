// Tool behaviours checked side by side against @langchain/core 1.4 while running its
// documentation's tool samples; each case pins the value the reference produced.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isToolMessage } from "../messages/index.js";
import { StructuredTool } from "./structured-tool.js";
import { tool } from "./tool.js";

const asCall = (name: string, args: Record<string, unknown>, id: string) =>
  ({ name, args, id, type: "tool_call" }) as const;

describe("docs samples: tools", () => {
  const echoArgs = tool(async (args) => JSON.stringify(args), {
    name: "echo_args",
    description: "Returns its parsed arguments",
    schema: z.object({
      label: z.string().default("none"),
      count: z.number().int().min(1).optional(),
      tags: z.array(z.string()).default([]),
    }),
  });

  it("fills defaults, omits absent optionals and strips unknown keys", async () => {
    expect(await echoArgs.invoke({})).toBe('{"label":"none","tags":[]}');
    expect(await echoArgs.invoke({ label: "x", extra: true } as Record<string, unknown>)).toBe(
      '{"label":"x","tags":[]}',
    );
  });

  it("rejects arguments that break a constraint with the reference's heading", async () => {
    await expect(echoArgs.invoke({ count: 0 })).rejects.toThrow(
      /^Received tool input did not match expected schema/,
    );
  });

  it("splits a content-and-artifact result only when called with a tool call", async () => {
    const sample = tool(async ({ n }) => [`picked ${n}`, { picked: [10, 20, 30].slice(0, n) }] as const, {
      name: "sample",
      description: "Picks values",
      schema: z.object({ n: z.number() }),
      responseFormat: "content_and_artifact",
    });
    expect(await sample.invoke({ n: 2 })).toBe("picked 2");
    const message = await sample.invoke(asCall("sample", { n: 2 }, "s1"));
    expect(isToolMessage(message)).toBe(true);
    expect(message).toMatchObject({
      content: "picked 2",
      artifact: { picked: [10, 20] },
      tool_call_id: "s1",
      name: "sample",
      status: "success",
    });
  });

  it("stringifies object results inside a ToolMessage and returns them raw otherwise", async () => {
    const obj = tool(async () => ({ ok: 1 }), { name: "obj", description: "o", schema: z.object({}) });
    expect(await obj.invoke({})).toEqual({ ok: 1 });
    expect(await obj.invoke(asCall("obj", {}, "o1"))).toMatchObject({
      content: '{"ok":1}',
      tool_call_id: "o1",
    });
  });

  it("runs a StructuredTool subclass with either input form", async () => {
    class Product extends StructuredTool {
      name = "product";
      description = "Multiplies two numbers";
      schema = z.object({ a: z.number(), b: z.number() });
      async _call({ a, b }: { a: number; b: number }): Promise<string> {
        return String(a * b);
      }
    }
    expect(await new Product().invoke({ a: 6, b: 7 })).toBe("42");
    expect(await new Product().invoke(asCall("product", { a: 6, b: 7 }, "p1"))).toMatchObject({
      content: "42",
      tool_call_id: "p1",
    });
  });
});
