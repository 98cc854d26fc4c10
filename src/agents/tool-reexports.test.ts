import { describe, expect, it } from "vitest";
import { AIMessage, HumanMessage, isToolMessage } from "../messages/index.js";
import { StructuredTool, Tool } from "../tools/index.js";
import { createAgent } from "./create-agent.js";
import { Document } from "./document.js";
import { Tool as AgentsTool } from "./index.js";
import { fakeModel } from "./testing/fake-model.js";

class Shout extends Tool<string> {
  name = "shout";
  description = "Upper-cases its input.";
  async _call(input: string | undefined) {
    return `${typeof input}:${(input ?? "").toUpperCase()}`;
  }
}

describe("Tool", () => {
  it("hands _call the string, from a string, { input } or a tool call", async () => {
    const shout = new Shout();
    expect(shout).toBeInstanceOf(StructuredTool);
    expect(await shout.invoke("hi")).toBe("string:HI");
    expect(await shout.invoke({ input: "obj" })).toBe("string:OBJ");
    const message = await shout.invoke({ name: "shout", args: { input: "tc" }, id: "t1", type: "tool_call" });
    expect(message).toMatchObject({ content: "string:TC", tool_call_id: "t1", name: "shout" });
    expect(shout.schema).toEqual({ type: "object", properties: { input: { type: "string" } } });
    expect(Tool.lc_name()).toBe("Tool");
    // langchain re-exports @langchain/core's class: one class under both imports
    expect(AgentsTool).toBe(Tool);
  });

  it("runs in an agent", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "shout", args: { input: "hey" }, id: "c1" }])
      .respond(new AIMessage("done"));
    const agent = createAgent({ model, tools: [new Shout()] });
    const result = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(result.messages.find(isToolMessage)?.text).toBe("string:HEY");
    expect(result.messages.at(-1)?.text).toBe("done");
  });
});

describe("Document", () => {
  it("keeps pageContent as a string, metadata and id", () => {
    const doc = new Document({
      pageContent: "Suzhou is in Jiangsu.",
      metadata: { source: "atlas" },
      id: "d1",
    });
    expect({ ...doc }).toEqual({
      pageContent: "Suzhou is in Jiangsu.",
      metadata: { source: "atlas" },
      id: "d1",
    });
    const bare = new Document({ pageContent: 42 as unknown as string });
    expect([bare.pageContent, bare.metadata, bare.id]).toEqual(["42", {}, undefined]);
    expect(new Document({}).pageContent).toBe("");
  });
});
