import { describe, expect, it } from "vitest";
import { createAgent } from "../../agents/index.js";
import { MessagesAnnotation, START, StateGraph } from "../../index.js";
import { AIMessage, type BaseMessage } from "../../messages/index.js";
import type { CallbackHandler } from "../../shared/index.js";
import { BaseChatModel } from "../index.js";

/** A model that records the option keys its `_generate` gets. */
class KeyRecorder extends BaseChatModel {
  seen: string[] = [];
  _llmType(): string {
    return "key-recorder";
  }
  async _generate(_messages: BaseMessage[], options: Record<string, unknown>) {
    this.seen = Object.keys(options).sort();
    return { generations: [{ text: "done", message: new AIMessage("done") }] };
  }
}

function startOptionKeys() {
  const heard: string[][] = [];
  const handler: CallbackHandler = {
    handleChatModelStart(_llm, _messages, _runId, _parent, extra) {
      heard.push(Object.keys((extra as { options?: object } | undefined)?.options ?? {}).sort());
    },
  };
  return { heard, handler };
}

const RUNTIME = ["control", "executionInfo", "interrupt", "signal", "writer"];

describe("a model called in a graph task gets the task's runtime as call options (LangChain.js)", () => {
  it("a node calling model.invoke(messages, config)", async () => {
    const model = new KeyRecorder({});
    const { heard, handler } = startOptionKeys();
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("call", async (state, config) => ({ messages: [await model.invoke(state.messages, config)] }))
      .addEdge(START, "call")
      .compile();
    await graph.invoke({ messages: [{ role: "user", content: "hi" }] }, { callbacks: [handler] });
    expect(model.seen).toEqual([...RUNTIME.slice(0, 3), "promptIndex", ...RUNTIME.slice(3)]);
    expect(heard).toEqual([RUNTIME]);
  });

  it("createAgent's model call", async () => {
    const model = new KeyRecorder({});
    const { heard, handler } = startOptionKeys();
    const agent = createAgent({ model, tools: [] });
    await agent.invoke({ messages: [{ role: "user", content: "hi" }] }, { callbacks: [handler] });
    // (with the options binding its tools, which this model does not override)
    expect(model.seen).toEqual(expect.arrayContaining(RUNTIME));
    expect(heard).toEqual([expect.arrayContaining(RUNTIME)]);
  });
});
