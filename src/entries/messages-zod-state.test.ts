import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { MessagesZodState, START, StateGraph } from "../index.js";
import type { BaseMessage } from "../messages/index.js";
import { MessagesZodState as ZodEntryMessagesZodState } from "../zod/index.js";

function channelClasses(graph: { channels: Record<string, object> }): string[] {
  return Object.entries(graph.channels).map(([key, channel]) => `${channel.constructor.name}:${key}`);
}

describe("MessagesZodState from the package root", () => {
  it("is a Zod object schema with a messages field", () => {
    expect(MessagesZodState).toBeInstanceOf(z.ZodObject);
    expect(Object.keys(MessagesZodState.shape)).toEqual(["messages"]);
    expect("~standard" in MessagesZodState).toBe(true);
    expect(MessagesZodState.safeParse({ messages: [] }).success).toBe(true);
    expectTypeOf(MessagesZodState).toEqualTypeOf<typeof ZodEntryMessagesZodState>();
  });

  it("builds a graph whose messages channel appends, as the agentgraph/zod schema does", async () => {
    const build = (schema: typeof MessagesZodState) =>
      new StateGraph(schema)
        .addNode("reply", (state) => ({
          messages: [{ role: "ai", content: `seen ${state.messages.length}` }],
        }))
        .addEdge(START, "reply")
        .compile();
    const root = build(MessagesZodState);
    const entry = build(ZodEntryMessagesZodState);
    expect(channelClasses(root)).toEqual(channelClasses(entry));
    expect(channelClasses(root)).toContain("BinaryOperatorAggregate:messages");
    const out = await root.invoke({ messages: [{ role: "user", content: "hi" }] });
    expect(out.messages.map((m: BaseMessage) => [m.getType(), m.content])).toEqual([
      ["human", "hi"],
      ["ai", "seen 1"],
    ]);
  });

  it("extends with the user's own Zod fields", async () => {
    const State = MessagesZodState.extend({ mood: z.string().default("calm") });
    const graph = new StateGraph(State)
      .addNode("reply", (state) => ({ messages: [{ role: "ai", content: state.mood }] }))
      .addEdge(START, "reply")
      .compile();
    const out = await graph.invoke({ messages: "hello" });
    expect(out.mood).toBe("calm");
    expect(out.messages.map((m: BaseMessage) => m.content)).toEqual(["hello", "calm"]);

    const Spread = z.object({ ...MessagesZodState.shape, count: z.number() });
    const counted = new StateGraph(Spread)
      .addNode("counter", (state) => ({ count: state.messages.length }))
      .addEdge(START, "counter")
      .compile();
    expect(await counted.invoke({ messages: ["a", "b"], count: 0 })).toMatchObject({ count: 2 });
  });
});
