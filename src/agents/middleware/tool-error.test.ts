import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AIMessage, HumanMessage, isToolMessage } from "../../messages/index.js";
import { tool } from "../../tools/index.js";
import { createAgent } from "../create-agent.js";
import { fakeModel } from "../testing/fake-model.js";
import { toolErrorMiddleware } from "./tool-error.js";
import { toolRetryMiddleware } from "./tool-retry.js";

const boom = tool(
  async () => {
    throw new TypeError("kaput");
  },
  { name: "boom", description: "Explodes.", schema: z.object({}) },
);
const ok = tool(async () => "fine", { name: "ok", description: "Works.", schema: z.object({}) });

const callsBoom = () =>
  fakeModel()
    .respondWithTools([{ name: "boom", args: {}, id: "c1" }])
    .respond(new AIMessage("after"));

describe("toolErrorMiddleware", () => {
  it("answers a failed call with the content onError returns", async () => {
    const model = callsBoom();
    const agent = createAgent({
      model,
      tools: [boom],
      middleware: [
        toolErrorMiddleware({
          onError: (error, request) =>
            error instanceof TypeError ? `Tool '${request.toolCall.name}' failed with TypeError.` : undefined,
        }),
      ],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(result.messages.map((m) => m.text)).toEqual([
      "go",
      "go",
      "Tool 'boom' failed with TypeError.",
      "after",
    ]);
    const toolMessage = result.messages.find(isToolMessage);
    expect(toolMessage).toMatchObject({ tool_call_id: "c1", name: "boom", status: "error" });
  });

  it("rethrows the original error when onError returns nothing, or for other tools", async () => {
    const silent = createAgent({
      model: callsBoom(),
      tools: [boom],
      middleware: [toolErrorMiddleware({ onError: () => undefined })],
    });
    await expect(silent.invoke({ messages: [new HumanMessage("go")] })).rejects.toThrow(TypeError);
    const filtered = createAgent({
      model: callsBoom(),
      tools: [boom, ok],
      middleware: [toolErrorMiddleware({ onError: () => "handled", tools: [ok] })],
    });
    await expect(filtered.invoke({ messages: [new HumanMessage("go")] })).rejects.toThrow("kaput");
  });

  it("handles what remains after toolRetryMiddleware({ onFailure: 'error' }) gives up", async () => {
    let attempts = 0;
    const flaky = tool(
      async () => {
        attempts += 1;
        throw new RangeError(`attempt ${attempts}`);
      },
      { name: "flaky", description: "Fails.", schema: z.object({}) },
    );
    const model = fakeModel()
      .respondWithTools([{ name: "flaky", args: {}, id: "c1" }])
      .respond(new AIMessage("after"));
    const agent = createAgent({
      model,
      tools: [flaky],
      middleware: [
        toolErrorMiddleware({ onError: async (error) => `gave up: ${(error as Error).name}` }),
        toolRetryMiddleware({ maxRetries: 1, initialDelayMs: 0, jitter: false, onFailure: "error" }),
      ],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(attempts).toBe(2);
    expect(result.messages.find(isToolMessage)?.text).toBe("gave up: RangeError");
  });

  it("is named toolErrorMiddleware and needs onError", () => {
    expect(toolErrorMiddleware({ onError: () => "x" }).name).toBe("toolErrorMiddleware");
    expect(() => toolErrorMiddleware({} as never)).toThrow(/needs an `onError/);
  });
});
