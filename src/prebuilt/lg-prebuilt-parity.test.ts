/**
 * Behaviours found by running LangGraph.js's own createReactAgent / agent-name tests against
 * agentgraph, kept here so they stay in line with LangGraph.js 1.7.3.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AIMessage, type BaseMessage, type ContentBlock, HumanMessage } from "../messages/index.js";
import type { BaseLanguageModelInput } from "../models/index.js";
import type { RunnableConfig } from "../shared/index.js";
import { createReactAgent } from "./create-react-agent.js";
import type { ReactAgentChatModel } from "./create-react-agent-model.js";
import { withAgentName } from "./with-agent-name.js";

/** A hand-written model (no `BaseChatModel`): answers in turn and keeps the config of each call. */
function recordingModel(answers: AIMessage[]) {
  const configs: Array<RunnableConfig | undefined> = [];
  const inputs: BaseLanguageModelInput[] = [];
  let turn = 0;
  const model: ReactAgentChatModel = {
    async invoke(input, config) {
      inputs.push(input);
      configs.push(config);
      const next = answers[turn++];
      if (next === undefined) throw new Error("no more answers");
      return next;
    },
    bindTools() {
      return model;
    },
  };
  return { model, configs, inputs };
}

describe("withAgentName: a bare string inside a content list", () => {
  it("gets the name tags and stays a string, with no empty name block added", async () => {
    let seen: BaseMessage[] = [];
    const model = {
      invoke: async (messages: BaseMessage[]) => {
        seen = messages;
        return new AIMessage("done");
      },
    };
    // LangChain.js's legacy form of content: plain strings mixed with blocks
    const legacy = ["first part" as unknown as ContentBlock, { type: "image", url: "https://x.test/a.png" }];
    await withAgentName(model, "inline").invoke([
      new HumanMessage("hi"),
      new AIMessage({ content: legacy, name: "planner" }),
    ]);
    expect(seen[1]?.content).toEqual([
      "<name>planner</name><content>first part</content>",
      { type: "image", url: "https://x.test/a.png" },
    ]);
    expect(seen[1]?.name).toBeUndefined();
  });
});

describe("createReactAgent hands the node's run config to its model calls", () => {
  it("passes configurable and signal to a hand-written model, without graph-only fields", async () => {
    const { model, configs } = recordingModel([new AIMessage("hello")]);
    const agent = createReactAgent({ llm: model, tools: [] });
    const controller = new AbortController();
    await agent.invoke(
      { messages: [new HumanMessage("hi")] },
      { configurable: { tenant: "acme" }, signal: controller.signal, context: { user: "u1" } },
    );
    expect(configs).toHaveLength(1);
    const config = configs[0];
    expect(config?.configurable?.tenant).toBe("acme");
    expect(config?.signal).toBeInstanceOf(AbortSignal);
    for (const graphOnly of ["store", "writer", "context", "interrupt", "executionInfo"]) {
      expect(config).not.toHaveProperty(graphOnly);
    }
  });

  it("still passes it on when the agent name is inlined", async () => {
    const { model, configs, inputs } = recordingModel([new AIMessage("one"), new AIMessage("two")]);
    const agent = createReactAgent({ llm: model, tools: [], name: "helper", includeAgentName: "inline" });
    const first = await agent.invoke({ messages: [new HumanMessage("hi")] });
    await agent.invoke(
      { messages: [...first.messages, new HumanMessage("again")] },
      { configurable: { tenant: "beta" } },
    );
    expect(configs[1]?.configurable?.tenant).toBe("beta");
    const secondInput = inputs[1] as BaseMessage[];
    expect(secondInput[1]?.content).toBe("<name>helper</name><content>one</content>");
  });

  it("passes it to a custom structured-output runnable", async () => {
    const seen: Array<RunnableConfig | undefined> = [];
    const { model } = recordingModel([new AIMessage("It is sunny.")]);
    const llm: ReactAgentChatModel = {
      ...model,
      withStructuredOutput: () => ({
        invoke: async (_messages: unknown, config?: RunnableConfig) => {
          seen.push(config);
          return { sky: "clear" };
        },
      }),
    };
    const agent = createReactAgent({ llm, tools: [], responseFormat: z.object({ sky: z.string() }) });
    const out = await agent.invoke(
      { messages: [new HumanMessage("weather?")] },
      { configurable: { tenant: "gamma" } },
    );
    expect(out.structuredResponse).toEqual({ sky: "clear" });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.configurable?.tenant).toBe("gamma");
  });
});
