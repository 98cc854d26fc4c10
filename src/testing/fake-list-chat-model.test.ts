import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MessagesAnnotation, START, StateGraph } from "../index.js";
import { AIMessage, AIMessageChunk, type BaseMessage } from "../messages/index.js";
import { BaseChatModel, ChatGenerationChunk, type ChatModelRun, type ChatResult } from "../models/index.js";
import { tool } from "../tools/index.js";
import { FakeListChatModel } from "./index.js";

const lookup = tool(async () => "found", {
  name: "lookup",
  description: "Looks something up.",
  schema: z.object({ query: z.string() }),
});

async function streamed(model: FakeListChatModel, input = "hi"): Promise<AIMessageChunk[]> {
  const chunks: AIMessageChunk[] = [];
  for await (const chunk of await model.stream(input)) chunks.push(chunk);
  return chunks;
}

/** The messages a one-node graph streams in `messages` mode while its node calls `call`. */
async function messagesStream(call: (messages: BaseMessage[]) => Promise<BaseMessage>) {
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("call", async (state) => ({ messages: [await call(state.messages)] }))
    .addEdge(START, "call")
    .compile();
  const out: [string, unknown][] = [];
  const stream = await graph.stream(
    { messages: [{ role: "user", content: "hi" }] },
    { streamMode: "messages" },
  );
  for await (const [message, metadata] of stream) {
    out.push([message.constructor.name, message.content]);
    expect(metadata.langgraph_node).toBe("call");
  }
  return out;
}

describe("FakeListChatModel (as @langchain/core/utils/testing's)", () => {
  it("answers with its responses in turn and wraps around after the last", async () => {
    const model = new FakeListChatModel({ responses: ["Hello", "Bye"] });
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await model.invoke("hi"));
    expect(answers.map((m) => [m.constructor.name, m.content, m.tool_calls])).toEqual([
      ["AIMessage", "Hello", []],
      ["AIMessage", "Bye", []],
      ["AIMessage", "Hello", []],
    ]);
    expect(model.i).toBe(1);
    expect(model._llmType()).toBe("fake-list");
  });

  it("reports an empty llmOutput to handleLLMEnd, none for a call with stop sequences", async () => {
    const outputs: unknown[] = [];
    const callbacks = [{ handleLLMEnd: (output: { llmOutput?: unknown }) => outputs.push(output.llmOutput) }];
    const model = new FakeListChatModel({ responses: ["a"] });
    await model.invoke("x", { callbacks });
    await model.invoke("x", { callbacks, stop: ["!"] });
    expect(outputs).toStrictEqual([{}, undefined]);
  });

  it("with emitCustomEvent, reports a custom event to handleCustomEvent and to a graph's streamEvents", async () => {
    const heard: unknown[][] = [];
    const callbacks = [{ handleCustomEvent: (...args: unknown[]) => heard.push(args) }];
    const model = new FakeListChatModel({ responses: ["hi"], emitCustomEvent: true });
    await model.invoke("x", { callbacks, tags: ["t"], runId: "r1" });
    for await (const _ of await model.stream("x", { callbacks, runId: "r2" })) {
      // drain
    }
    expect(heard.map(([name, data, runId, tags]) => [name, data, runId, tags])).toEqual([
      ["some_test_event", { someval: true }, "r1", ["t"]],
      ["some_test_event", { someval: true }, "r2", []],
    ]);
    expect(heard[0]?.[4]).toMatchObject({ ls_provider: "FakeListChatModel", ls_model_type: "chat" });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("call", async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addEdge(START, "call")
      .compile();
    const custom: unknown[] = [];
    for await (const event of graph.streamEvents({ messages: [] }, { version: "v2" })) {
      if (event.event === "on_custom_event")
        custom.push([event.name, event.data, event.metadata.langgraph_node]);
    }
    expect(custom).toEqual([["some_test_event", { someval: true }, "call"]]);
  });

  it("answers a call with stop sequences with the first one, without advancing", async () => {
    const model = new FakeListChatModel({ responses: ["Hello", "Bye"] });
    expect((await model.invoke("hi", { stop: ["STOP", "END"] })).content).toBe("STOP");
    expect((await model.invoke("hi")).content).toBe("Hello");
  });

  it("streams one character at a time, the last chunk carrying generationInfo", async () => {
    const model = new FakeListChatModel({ responses: ["Hi!"], generationInfo: { finish_reason: "stop" } });
    const chunks = await streamed(model);
    expect(chunks.map((c) => [c.content, c.response_metadata])).toEqual([
      ["H", {}],
      ["i", {}],
      ["!", { finish_reason: "stop" }],
    ]);
    expect(chunks.every((c) => c instanceof AIMessageChunk)).toBe(true);
  });

  it("fails a call with thrownErrorString, invoked or streamed", async () => {
    const model = new FakeListChatModel({ responses: ["Hi"] });
    await expect(model.invoke("hi", { thrownErrorString: "boom" })).rejects.toThrow("boom");
    await expect(
      (async () => {
        for await (const _ of await model.stream("hi", { thrownErrorString: "bang" })) {
          // drain
        }
      })(),
    ).rejects.toThrow("bang");
  });

  it("waits `sleep` ms before answering", async () => {
    const model = new FakeListChatModel({ responses: ["Hi"], sleep: 30 });
    const started = performance.now();
    await model.invoke("hi");
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it("bindTools returns a copy that starts at the current answer and counts on its own", async () => {
    const model = new FakeListChatModel({ responses: ["one", "two", "three"] });
    await model.invoke("hi");
    const bound = model.bindTools([lookup]);
    expect((await bound.invoke("hi")).content).toBe("two");
    expect((await bound.invoke("hi")).content).toBe("three");
    // the original did not move
    expect((await model.invoke("hi")).content).toBe("two");
  });

  it("bound through withConfig, bindTools calls the copy, without the model's own tags (as createAgent binds it in LangChain.js)", async () => {
    const model = new FakeListChatModel({ responses: ["one", "two", "three"], tags: ["own"] });
    await model.invoke("hi");
    const bound = model.withConfig({ tags: ["bound"] }).bindTools([lookup]);
    const tags: unknown[] = [];
    const handler = {
      handleChatModelStart: (...args: unknown[]) => {
        tags.push(args[5]);
      },
    };
    expect((await bound.invoke("hi", { callbacks: [handler] })).content).toBe("two");
    expect((await bound.invoke("hi")).content).toBe("three");
    expect((await model.invoke("hi")).content).toBe("two");
    expect(tags).toEqual([["bound"]]);
  });

  it("withStructuredOutput parses the answer's text as JSON, whatever the schema", async () => {
    const model = new FakeListChatModel({ responses: ['{"name":"Ada"}', "not json"] });
    const structured = model.withStructuredOutput(z.object({ name: z.string() }));
    expect(await structured.invoke("who?")).toEqual({ name: "Ada" });
    await expect(structured.invoke("who?")).rejects.toBeInstanceOf(SyntaxError);
  });

  it("streams its characters in a graph's messages mode, as LangGraph.js does", async () => {
    const model = new FakeListChatModel({ responses: ["Hey"] });
    expect(await messagesStream((messages) => model.invoke(messages))).toEqual([
      ["AIMessageChunk", "H"],
      ["AIMessageChunk", "e"],
      ["AIMessageChunk", "y"],
    ]);
  });
});

describe("messages mode and models that report tokens without chunks", () => {
  it("streams each such token as an AIMessageChunk under one id", async () => {
    // a custom model written as LangChain.js allows: it reports its tokens itself, without chunks
    class TokenModel extends BaseChatModel {
      _llmType() {
        return "tokens";
      }
      async _generate(): Promise<ChatResult> {
        return { generations: [{ text: "ok", message: new AIMessage("ok") }] };
      }
      override async *_streamResponseChunks(_m: BaseMessage[], _o: unknown, runManager?: ChatModelRun) {
        for (const text of ["o", "k"]) {
          yield new ChatGenerationChunk({ text, message: new AIMessageChunk({ content: text }) });
          await runManager?.handleLLMNewToken(text);
        }
      }
    }
    const model = new TokenModel();
    const ids = new Set<string | undefined>();
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("call", async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addEdge(START, "call")
      .compile();
    const contents: unknown[] = [];
    for await (const [message] of await graph.stream({ messages: [] }, { streamMode: "messages" })) {
      contents.push(message.content);
      ids.add(message.id);
    }
    expect(contents).toEqual(["o", "k"]);
    expect(ids.size).toBe(1);
    const [id] = ids;
    expect(id).toMatch(/^run-/);
  });

  it("gives streamEvents an on_chat_model_stream event per such token", async () => {
    const model = new FakeListChatModel({ responses: ["Hey"] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("call", async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addEdge(START, "call")
      .compile();
    const streamed: [unknown, string | undefined][] = [];
    for await (const event of graph.streamEvents({ messages: [] }, { version: "v2" })) {
      if (event.event !== "on_chat_model_stream") continue;
      const chunk = (event.data as { chunk: AIMessageChunk }).chunk;
      expect(chunk).toBeInstanceOf(AIMessageChunk);
      streamed.push([chunk.content, chunk.id]);
    }
    expect(streamed.map(([content]) => content)).toEqual(["H", "e", "y"]);
    expect(streamed.every(([, id]) => id?.startsWith("run-"))).toBe(true);
  });

  it("still streams a non-streaming model's answer whole", async () => {
    const answer = new AIMessage({ content: "whole", id: "a1" });
    expect(await messagesStream(async () => answer)).toEqual([["AIMessage", "whole"]]);
  });
});
