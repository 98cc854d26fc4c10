import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fakeModel } from "../agents/index.js";
import { AIMessage, HumanMessage } from "../messages/index.js";
import { tool } from "../tools/index.js";
import { AgentExecutorError, createAgentExecutor } from "./agent-executor.js";
import { ToolExecutor } from "./tool-executor.js";
import { withAgentName } from "./with-agent-name.js";

const search = tool(async ({ q }) => `found ${q}`, {
  name: "search",
  description: "Searches.",
  schema: z.object({ q: z.string() }),
});

describe("withAgentName", () => {
  it("inlines the names of AI messages and takes the tags off the answer", async () => {
    const model = fakeModel().respond(new AIMessage("<name>bot</name><content>Hi there</content>"));
    const named = withAgentName(model, "inline");
    const answer = await named.invoke([
      new HumanMessage("hi"),
      new AIMessage({ content: "Hello", name: "greeter" }),
      new AIMessage({ content: [{ type: "image_url", image_url: "x" }], name: "painter" }),
    ]);
    expect([answer.content, answer.name]).toEqual(["Hi there", "bot"]);
    expect(model.calls[0]?.messages.map((m) => [m.content, m.name])).toEqual([
      ["hi", undefined],
      ["<name>greeter</name><content>Hello</content>", undefined],
      [
        [
          { type: "text", text: "<name>painter</name><content></content>" },
          { type: "image_url", image_url: "x" },
        ],
        undefined,
      ],
    ]);
  });

  it("accepts only the inline mode", () => {
    expect(() => withAgentName(fakeModel(), "tool" as "inline")).toThrow(
      'Invalid agent name mode: tool. Needs to be one of: "inline"',
    );
  });
});

describe("ToolExecutor", () => {
  it("runs a tool by name and names the valid tools for an unknown one", async () => {
    const executor = new ToolExecutor({ tools: [search] });
    expect(await executor.invoke({ tool: "search", toolInput: { q: "w" } })).toBe("found w");
    expect(await executor.invoke({ tool: "nope", toolInput: {} })).toBe(
      "nope is not a valid tool, try one of search.",
    );
    const custom = new ToolExecutor({ tools: [search], invalidToolMsgTemplate: "No {requestedToolName}." });
    expect(await custom.invoke({ tool: "x", toolInput: {} })).toBe("No x.");
    expect(executor.lc_graph_name).toBe("ToolExecutor");
  });
});

describe("createAgentExecutor", () => {
  it("alternates agent and action until the agent finishes", async () => {
    let turns = 0;
    const agentRunnable = {
      invoke: async (state: { steps: unknown[] }) => {
        turns += 1;
        return turns === 1
          ? { tool: "search", toolInput: { q: "a" }, log: "l1" }
          : { returnValues: { output: `done after ${state.steps.length}` }, log: "l2" };
      },
    };
    const executor = createAgentExecutor({ agentRunnable, tools: [search] });
    expect(Object.keys(executor.nodes)).toEqual(["__start__", "agent", "action"]);
    expect(await executor.invoke({ input: "question" })).toEqual({
      input: "question",
      agentOutcome: { returnValues: { output: "done after 1" }, log: "l2" },
      steps: [{ action: { tool: "search", toolInput: { q: "a" }, log: "l1" }, observation: "found a" }],
    });
  });

  it("refuses to run the action node without an action", async () => {
    const executor = createAgentExecutor({
      agentRunnable: { invoke: () => undefined as never },
      tools: new ToolExecutor({ tools: [search] }),
    });
    await expect(executor.invoke({ input: "x" })).rejects.toThrow(AgentExecutorError);
    await expect(executor.invoke({ input: "x" })).rejects.toThrow(/^Agent has not been run yet/);
  });
});
