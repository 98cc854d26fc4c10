import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Command, MemorySaver } from "../index.js";
import { AIMessage, HumanMessage, isToolMessage } from "../messages/index.js";
import { StructuredTool, Tool } from "../tools/index.js";
import { createAgent } from "./create-agent.js";
import { Document } from "./document.js";
import { Tool as AgentsTool, tool as agentTool } from "./index.js";
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

describe("tool({ name, description, schema }): a headless tool", () => {
  it("interrupts the run with { type: 'tool', toolCall } and answers with the resume value", async () => {
    const getLocation = agentTool({
      name: "get_location",
      description: "Get the user's location.",
      schema: z.object({ precise: z.boolean() }),
    });
    expect(getLocation.name).toBe("get_location");
    expect(getLocation.metadata).toEqual({ headlessTool: true });
    const execute = async ({ precise }: { precise: boolean }) => ({ lat: 1, precise });
    const implementation = getLocation.implement(execute);
    expect(implementation.tool).toBe(getLocation);
    expect(implementation.execute).toBe(execute);
    const model = fakeModel()
      .respondWithTools([{ name: "get_location", args: { precise: true }, id: "g1" }])
      .respond(new AIMessage("You are here."));
    const agent = createAgent({ model, tools: [getLocation], checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "headless" } };
    const paused = await agent.invoke({ messages: [new HumanMessage("Where am I?")] }, config);
    expect(paused.__interrupt__?.map((i) => i.value)).toEqual([
      { type: "tool", toolCall: { id: "g1", name: "get_location", args: { precise: true } } },
    ]);
    expect(paused.messages).toHaveLength(2);
    const done = await agent.invoke(new Command({ resume: { lat: 1 } }), config);
    const answer = done.messages[2];
    expect(isToolMessage(answer)).toBe(true);
    expect(answer).toMatchObject({ content: '{"lat":1}', tool_call_id: "g1", name: "get_location" });
    expect(done.messages.at(-1)?.text).toBe("You are here.");
  });

  it("still makes a tool from a function", async () => {
    const double = agentTool(async ({ n }) => n * 2, {
      name: "double",
      description: "Doubles.",
      schema: z.object({ n: z.number() }),
    });
    expect(await double.invoke({ n: 2 })).toBe(4);
  });
});
