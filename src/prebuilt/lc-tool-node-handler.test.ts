/**
 * A `handleToolErrors` function, where running LangChain.js's ToolNode tests against agentgraph
 * showed differences: a handler that gives no answer leaves the error unhandled, and a
 * `ToolMessage` it returns is marked as an error answer.
 */
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AIMessage, ToolMessage } from "../messages/index.js";
import { tool } from "../tools/index.js";
import { ToolNode } from "./index.js";

const failure = new Error("disk full");
const save = tool(
  async () => {
    throw failure;
  },
  { name: "save", description: "Saves the file.", schema: z.object({}) },
);
const request = {
  messages: [new AIMessage({ content: "", tool_calls: [{ name: "save", args: {}, id: "c1" }] })],
};

describe("handleToolErrors as a function", () => {
  it("rethrows the tool's error when the handler returns nothing, after calling it once", async () => {
    const observe = vi.fn((_error: unknown) => undefined);
    await expect(new ToolNode([save], { handleToolErrors: observe }).invoke(request)).rejects.toBe(failure);
    expect(observe).toHaveBeenCalledTimes(1);
    expect(observe).toHaveBeenCalledWith(failure, expect.objectContaining({ name: "save", id: "c1" }));
  });

  it("marks a returned ToolMessage without a status as an error", async () => {
    const node = new ToolNode([save], {
      handleToolErrors: (_error, call) =>
        new ToolMessage({ content: "saved later", tool_call_id: call.id ?? "" }),
    });
    const { messages } = (await node.invoke(request)) as { messages: ToolMessage[] };
    expect(messages[0]).toMatchObject({ content: "saved later", status: "error", tool_call_id: "c1" });
  });

  it("keeps the status the handler chose", async () => {
    const node = new ToolNode([save], {
      handleToolErrors: (_error, call) =>
        new ToolMessage({ content: "queued", tool_call_id: call.id ?? "", status: "success" }),
    });
    const { messages } = (await node.invoke(request)) as { messages: ToolMessage[] };
    expect(messages[0]?.status).toBe("success");
  });

  it("still turns returned text into an error ToolMessage", async () => {
    const node = new ToolNode([save], { handleToolErrors: (error) => `could not save: ${String(error)}` });
    const { messages } = (await node.invoke(request)) as { messages: ToolMessage[] };
    expect(messages[0]).toMatchObject({ content: "could not save: Error: disk full", status: "error" });
  });
});
