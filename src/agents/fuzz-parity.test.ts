/**
 * Combinations where a randomized differential run against LangChain.js's `createAgent` showed
 * agentgraph doing something else; the expected values are what LangChain.js printed.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemorySaver } from "../index.js";
import { AIMessage, isToolMessage } from "../messages/index.js";
import { call, jumpToModelOnce, RecordingModel } from "./agent.test-helpers.js";
import { createAgent, humanInTheLoopMiddleware, tool, toolStrategy } from "./index.js";

describe("a structured-output retry next to other tool calls", () => {
  it("goes back to the model without running the answer's other calls", async () => {
    const [strategy] = toolStrategy(z.object({ answer: z.string() }));
    const name = strategy?.name ?? "";
    const ran: string[] = [];
    const echo = tool(
      ({ text }: { text: string }) => {
        ran.push(text);
        return text;
      },
      { name: "echo", description: "echo", schema: z.object({ text: z.string() }) },
    );
    const model = new RecordingModel([
      new AIMessage({
        content: "",
        id: "a1",
        tool_calls: [call(name, { answer: 7 }, "s1"), call("echo", { text: "hi" }, "c1")],
      }),
      new AIMessage({ content: "done", id: "a2" }),
    ]);
    const agent = createAgent({ model, tools: [echo], responseFormat: strategy ? [strategy] : [] });
    const result = await agent.invoke({ messages: [{ role: "user", content: "q" }] });
    expect(ran).toEqual([]);
    expect(result.messages.map((m) => [m.type, isToolMessage(m) ? m.tool_call_id : m.id])).toEqual([
      ["human", result.messages[0]?.id],
      ["ai", "a1"],
      ["tool", "s1"],
      ["ai", "a2"],
    ]);
    expect(String(result.messages[2]?.content)).toContain(
      `Failed to parse structured output for tool '${name}'`,
    );
    expect(model.calls).toHaveLength(2);
  });
});

describe("a structured-output retry right after a beforeModel jump to the model", () => {
  it("streams the node's two updates only, without a separate jumpTo entry", async () => {
    const [strategy] = toolStrategy(z.object({ answer: z.string() }).meta({ title: "Answer" }));
    const model = new RecordingModel([
      new AIMessage({ content: "", id: "a1", tool_calls: [call("Answer", { answer: 7 }, "s1")] }),
      new AIMessage({ content: "", id: "a2", tool_calls: [call("Answer", { answer: "x" }, "s2")] }),
    ]);
    const once = jumpToModelOnce();
    const agent = createAgent({
      model,
      tools: [],
      middleware: [once],
      responseFormat: strategy ? [strategy] : [],
    });
    const shapes: unknown[] = [];
    for await (const chunk of await agent.stream(
      { messages: [{ role: "user", content: "q" }] },
      { streamMode: "updates" },
    )) {
      for (const [node, update] of Object.entries(chunk)) {
        const entries = Array.isArray(update) ? update : [update];
        shapes.push([node, entries.map((u: Record<string, unknown>) => Object.keys(u))]);
      }
    }
    expect(shapes).toEqual([
      ["Once.before_model", [["messages", "jumpTo"]]],
      ["model_request", [["messages"], ["messages"]]],
      ["model_request", [["messages", "structuredResponse"]]],
    ]);
  });
});

describe("a structured-output call no ToolMessage answers (seed 3627)", () => {
  const schema = z.object({ answer: z.string() }).meta({ title: "Answer" });
  const search = tool(({ q }: { q: string }) => `found ${q}`, {
    name: "search",
    description: "search",
    schema: z.object({ q: z.string() }),
  });
  const forked = new AIMessage({
    content: "",
    id: "u1",
    tool_calls: [call("Answer", { answer: "y" }, "s1")],
  });
  const outline = (messages: readonly { type: string; content: unknown }[]) =>
    messages.map((m) => `${m.type}:${String(m.content)}`);

  for (const [label, withHook, asNode] of [
    ["after the HITL afterModel hook", true, "HumanInTheLoopMiddleware.after_model"],
    ["after the model node", false, "model_request"],
  ] as const) {
    it(`is run by the tools node, which answers it with an error (${label})`, async () => {
      const model = new RecordingModel([
        new AIMessage({ content: "plain", id: "a1" }),
        new AIMessage({ content: "", id: "a2", tool_calls: [call("Answer", { answer: "x" }, "s2")] }),
      ]);
      const agent = createAgent({
        model,
        tools: [search],
        responseFormat: toolStrategy(schema),
        middleware: withHook ? [humanInTheLoopMiddleware({ interruptOn: { search: true } })] : [],
        checkpointer: new MemorySaver(),
      });
      const config = { configurable: { thread_id: "t" } };
      await agent.invoke({ messages: [{ role: "user", content: "hi" }] }, config);
      await agent.updateState(config, { messages: [forked] }, asNode);
      expect((await agent.getState(config)).next).toEqual(["tools"]);
      const result = await agent.invoke(null, config);
      // LangChain.js 1.5.14 prints the same messages
      expect(outline(result.messages)).toEqual([
        "human:hi",
        "ai:plain",
        "ai:",
        "tool:Error: Answer is not a valid tool, try one of [search].",
        "ai:",
        'tool:{"answer":"x"}',
        'ai:Returning structured response: {"answer":"x"}',
      ]);
      expect(result.structuredResponse).toEqual({ answer: "x" });
      expect(model.calls).toHaveLength(2);
    });
  }

  it("ends right after the model when every call has an extract- name", async () => {
    const model = new RecordingModel([new AIMessage({ content: "plain", id: "a1" })]);
    const agent = createAgent({
      model,
      tools: [search],
      responseFormat: toolStrategy(z.object({ answer: z.string() })),
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "t" } };
    await agent.invoke({ messages: [{ role: "user", content: "hi" }] }, config);
    const extract = new AIMessage({
      content: "",
      id: "u1",
      tool_calls: [call("extract-9", { answer: "y" }, "x1")],
    });
    await agent.updateState(config, { messages: [extract] }, "model_request");
    expect((await agent.getState(config)).next).toEqual([]);
  });
});
