import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type { MessagesEventData } from "../graph/index.js";
import {
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
  StreamChannel,
  type StreamTransformer,
} from "../index.js";
import { AIMessage, AIMessageChunk, type BaseMessage } from "../messages/index.js";
import { BaseChatModel, ChatGenerationChunk, type ChatModelRun } from "../models/index.js";
import { FakeChatModel } from "../testing/index.js";
import { tool } from "../tools/index.js";
import { answer, asking, call, question } from "./agent.test-helpers.js";
import { createAgent, createMiddleware } from "./index.js";

const lookup = tool(async ({ query }: { query: string }) => `found ${query}`, {
  name: "lookup",
  description: "Looks a word up.",
  schema: z.object({ query: z.string() }),
});

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe("agent.streamEvents(input, { version: 'v3' })", () => {
  it("resolves to the graph's run stream: protocol events, then the final state as output", async () => {
    const agent = createAgent({
      model: new FakeChatModel({
        responses: [asking("a1", call("lookup", { query: "x" }, "c1")), answer("a2", "done")],
      }),
      tools: [lookup],
    });
    const run = await agent.streamEvents(question(), { version: "v3" });
    const events = await collect(run);
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((event) => event.type === "event")).toBe(true);
    const seqs = events.map((event) => event.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const nodes = new Set(events.map((event) => event.params.node).filter((node) => node !== undefined));
    expect(nodes.has("model_request")).toBe(true);
    expect(nodes.has("tools")).toBe(true);
    const output = (await run.output) as { messages: { text: string }[] };
    expect(output.messages.map((message) => message.text)).toEqual([
      question().messages[0]?.content,
      "",
      "found x",
      "done",
    ]);
  });

  it("runs the agent's input preparation (middleware defaults) before the graph", async () => {
    const agent = createAgent({ model: new FakeChatModel({ responses: ["hello"] }) });
    const run = await agent.streamEvents(question(), { version: "v3" });
    const values = await collect(run.values);
    expect(values.at(-1)?.messages.at(-1)?.text).toBe("hello");
  });

  it("compiles in the middleware's streamTransformers, then the agent's, as run.extensions", async () => {
    const order: string[] = [];
    const counting = (key: string) => () => {
      let count = 0;
      return {
        init: () => {
          order.push(key);
          return {
            [key]: {
              get count() {
                return count;
              },
            },
          };
        },
        process: () => {
          count += 1;
          return true;
        },
      };
    };
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["hi"] }),
      middleware: [createMiddleware({ name: "Counting", streamTransformers: [counting("fromMiddleware")] })],
      streamTransformers: [counting("fromAgent")],
    });
    const run = await agent.streamEvents(question(), { version: "v3" });
    const events = await collect(run);
    const extensions = run.extensions as Record<string, { count: number }>;
    expect(order).toEqual(["fromMiddleware", "fromAgent"]);
    expect(extensions.fromMiddleware?.count).toBe(events.length);
    expect(extensions.fromAgent?.count).toBe(events.length);
  });

  it("types each tool call by its tool: the name is the tool's literal name, which narrows the call", async () => {
    const add = tool(async ({ a, b }) => `${a + b}`, {
      name: "add",
      description: "Adds two numbers.",
      schema: z.object({ a: z.number(), b: z.number() }),
    });
    const agent = createAgent({
      model: new FakeChatModel({
        responses: [asking("a1", call("add", { a: 1, b: 2 }, "c1")), answer("a2", "3")],
      }),
      tools: [lookup, add],
    });
    const run = await agent.streamEvents(question(), { version: "v3" });
    const seen: [string, unknown][] = [];
    for await (const toolCall of run.toolCalls) {
      expectTypeOf(toolCall.name).toEqualTypeOf<"lookup" | "add">();
      if (toolCall.name === "add") {
        expectTypeOf(toolCall.input).toEqualTypeOf<{ a: number; b: number }>();
        expectTypeOf(toolCall.output).toEqualTypeOf<Promise<string>>();
        seen.push([toolCall.name, await toolCall.output]);
      } else {
        expectTypeOf(toolCall.name).toEqualTypeOf<"lookup">();
        expectTypeOf(toolCall.input).toEqualTypeOf<{ query: string }>();
      }
    }
    expect(seen).toEqual([["add", "3"]]);
  });

  it("types run.extensions by the agent's own streamTransformers, as LangChain.js does", async () => {
    const eventCount = (): StreamTransformer<{ eventCount: StreamChannel<number> }> => {
      const channel = StreamChannel.remote<number>("eventCount");
      return { init: () => ({ eventCount: channel }), process: () => true };
    };
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["hi"] }),
      streamTransformers: [eventCount],
    });
    const run = await agent.streamEvents(question(), { version: "v3" });
    expectTypeOf(run.extensions.eventCount).toEqualTypeOf<StreamChannel<number>>();
    expect(run.extensions.eventCount).toBeInstanceOf(StreamChannel);
    await run.output;
  });

  it("types run.extensions by its middlewares' streamTransformers too", async () => {
    const eventCount = (): StreamTransformer<{ eventCount: StreamChannel<number> }> => {
      const channel = StreamChannel.remote<number>("eventCount");
      return { init: () => ({ eventCount: channel }), process: () => true };
    };
    const methods = (): StreamTransformer<{ methods: StreamChannel<string> }> => {
      const channel = StreamChannel.remote<string>("methods");
      return { init: () => ({ methods: channel }), process: () => true };
    };
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["hi"] }),
      middleware: [
        createMiddleware({ name: "Counting", streamTransformers: [eventCount] }),
        createMiddleware({ name: "Plain" }),
        createMiddleware({ name: "Tracking", streamTransformers: [methods] }),
      ],
    });
    const run = await agent.streamEvents(question(), { version: "v3" });
    expectTypeOf(run.extensions.eventCount).toEqualTypeOf<StreamChannel<number>>();
    expectTypeOf(run.extensions.methods).toEqualTypeOf<StreamChannel<string>>();
    expect(run.extensions.methods).toBeInstanceOf(StreamChannel);
    await run.output;
  });
});

/** A custom model streaming "a", "b", "c", reporting its tokens itself or not. */
class ThreeChunks extends BaseChatModel {
  constructor(private readonly reports: boolean) {
    super({});
  }
  _llmType() {
    return "three-chunks";
  }
  async _generate() {
    return { generations: [{ text: "whole", message: new AIMessage("whole") }] };
  }
  override async *_streamResponseChunks(
    _messages: BaseMessage[],
    _options: this["ParsedCallOptions"],
    runManager?: ChatModelRun,
  ) {
    for (const text of ["a", "b", "c"]) {
      const chunk = new ChatGenerationChunk({ text, message: new AIMessageChunk({ content: text }) });
      yield chunk;
      if (this.reports)
        await runManager?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, { chunk });
    }
  }
}

describe("a custom model's chunks in a v3 run", () => {
  // LangGraph.js 1.7.3 / @langchain/core 1.4.0: the base class makes protocol events of every
  // chunk `_streamResponseChunks` yields for a v3 run, whether the model reports its tokens or not;
  // the `messages` mode hears only the tokens a model reports
  for (const reports of [false, true]) {
    it(`streams each chunk once (tokens reported by the model: ${reports})`, async () => {
      const agent = createAgent({ model: new ThreeChunks(reports), tools: [] });
      const run = await agent.streamEvents(question(), { version: "v3" });
      const events: string[] = [];
      for await (const event of run) {
        if (event.method !== "messages") continue;
        const data = (event.params as { data: MessagesEventData }).data;
        events.push(
          data.event === "content-block-delta" && data.delta.type === "text-delta"
            ? `delta:${data.delta.text}`
            : data.event === "message-finish"
              ? `finish:${data.reason}`
              : data.event,
        );
      }
      expect(events).toEqual([
        "message-start",
        "content-block-start",
        "delta:a",
        "delta:b",
        "delta:c",
        "content-block-finish",
        "finish:stop",
      ]);
      const chunks: unknown[] = [];
      for await (const [message] of await agent.stream(question(), { streamMode: "messages" }))
        chunks.push(message.content);
      expect(chunks).toEqual(reports ? ["a", "b", "c"] : ["abc"]);
    });
  }
});

/** Streams "Hello world", then a usage chunk; or a call of `lookup` in two tool call chunks. */
class Streamer extends BaseChatModel {
  constructor(private readonly mode: "text" | "tool") {
    super({});
  }
  _llmType(): string {
    return "streamer";
  }
  async _generate(): Promise<{ generations: { text: string; message: AIMessage }[] }> {
    return { generations: [{ text: "Hello world", message: new AIMessage("Hello world") }] };
  }
  override async *_streamResponseChunks(): AsyncGenerator<ChatGenerationChunk> {
    const chunk = (fields: ConstructorParameters<typeof AIMessageChunk>[0] & object) =>
      new ChatGenerationChunk({ text: "", message: new AIMessageChunk(fields) });
    if (this.mode === "text") {
      yield chunk({ content: "Hello", id: "m1", response_metadata: { foo: "bar" } });
      yield chunk({ content: " world", id: "m1" });
      yield chunk({
        content: "",
        id: "m1",
        usage_metadata: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
      });
    } else {
      yield chunk({
        content: "",
        id: "m2",
        tool_call_chunks: [{ id: "c1", name: "lookup", args: '{"query":', index: 0 }],
      });
      yield chunk({ content: "", id: "m2", tool_call_chunks: [{ args: '"x"}', index: 0 }] });
    }
  }
}

describe("the state of a v3 run with a streaming model", () => {
  // LangGraph.js 1.7.3 / @langchain/core 1.4.0: the model's answer in a v3 run is the message its
  // protocol events assemble to (content blocks, the finish reason, no chunk metadata), in the
  // output, the `values` events and the saved checkpoints alike; other runs keep the chunks joined
  it("holds the answer assembled from the protocol events: text", async () => {
    const checkpointer = new MemorySaver();
    const agent = createAgent({ model: new Streamer("text"), tools: [], checkpointer });
    const config = { configurable: { thread_id: "v3-text" } };
    const run = await agent.streamEvents(question(), { version: "v3", ...config });
    const values: { messages: BaseMessage[] }[] = [];
    for await (const event of run) if (event.method === "values") values.push(event.params.data as never);
    const output = (await run.output) as { messages: BaseMessage[] };
    const expected = {
      content: [{ type: "text", text: "Hello world" }],
      response_metadata: { output_version: "v1", finish_reason: "stop" },
      id: "m1",
      tool_calls: [],
      usage_metadata: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
    };
    const answerOf = (messages: BaseMessage[]) => {
      const message = messages.at(-1) as AIMessage;
      return {
        content: message.content,
        response_metadata: message.response_metadata,
        id: message.id,
        tool_calls: message.tool_calls,
        usage_metadata: message.usage_metadata,
      };
    };
    expect(answerOf(output.messages)).toEqual(expected);
    expect(JSON.stringify(answerOf(output.messages).response_metadata)).toBe(
      '{"output_version":"v1","finish_reason":"stop"}',
    );
    expect(answerOf((values.at(-1) as { messages: BaseMessage[] }).messages)).toEqual(expected);
    const saved = await agent.getState(config);
    expect(answerOf((saved.values as { messages: BaseMessage[] }).messages)).toEqual(expected);
    // outside v3 the chunks are joined as they are
    const plain = await createAgent({ model: new Streamer("text"), tools: [] }).invoke(question());
    expect((plain.messages.at(-1) as AIMessage).content).toBe("Hello world");
  });

  it("a tool call: its own content block, listed as the message's tool_calls", async () => {
    // what a handler asking for protocol events (as the v3 run's does) makes a model call return
    const heard: unknown[] = [];
    const message = await new Streamer("tool").invoke("hi", {
      callbacks: [
        { lc_prefer_chat_model_stream_events: true, handleChatModelStreamEvent: (e) => heard.push(e) },
      ],
    });
    const toolCall = { type: "tool_call", id: "c1", name: "lookup", args: { query: "x" } };
    expect(message.content).toEqual([toolCall]);
    expect(message.tool_calls).toEqual([toolCall]);
    expect(message.id).toBe("m2");
    expect(message.response_metadata).toEqual({ output_version: "v1", finish_reason: "stop" });
    expect(heard).toEqual([
      { event: "message-start", id: "m2" },
      {
        event: "content-block-start",
        index: 0,
        content: { type: "tool_call_chunk", id: "c1", name: "lookup", args: "", index: 0 },
      },
      { event: "content-block-delta", index: 0, delta: { type: "tool-call-delta", args: '{"query":' } },
      { event: "content-block-delta", index: 0, delta: { type: "tool-call-delta", args: '"x"}' } },
      { event: "content-block-finish", index: 0, content: toolCall },
      { event: "message-finish", reason: "stop" },
    ]);
  });
});

/** Streams "a" then "b" (or fails after "a"). */
class TwoChunks extends BaseChatModel {
  constructor(private readonly fails: boolean) {
    super({});
  }
  _llmType(): string {
    return "two-chunks";
  }
  async _generate(): Promise<{ generations: { text: string; message: AIMessage }[] }> {
    return { generations: [{ text: "x", message: new AIMessage("x") }] };
  }
  override async *_streamResponseChunks(): AsyncGenerator<ChatGenerationChunk> {
    yield new ChatGenerationChunk({ text: "a", message: new AIMessageChunk({ content: "a", id: "q" }) });
    if (this.fails) throw new Error("boom");
    yield new ChatGenerationChunk({ text: "b", message: new AIMessageChunk({ content: "b", id: "q" }) });
  }
}

describe("model calls a v3 run does not stream as protocol events", () => {
  // LangGraph.js 1.7.3: its v3 handler hears no tokens, so a `model.stream()` call inside a node
  // is sent whole when it ends (its message as the node returns it), and a call that fails sends
  // no `error` event (the lifecycle says the node failed)
  async function messageEvents(
    node: (state: { messages: BaseMessage[] }) => Promise<{ messages: BaseMessage[] }>,
  ) {
    const graph = new StateGraph(MessagesAnnotation).addNode("n", node).addEdge(START, "n").compile();
    const run = await graph.streamEvents({ messages: [{ role: "user", content: "hi" }] }, { version: "v3" });
    const events: unknown[] = [];
    try {
      for await (const event of run) {
        if (event.method !== "messages") continue;
        const { run_id: _runId, ...data } = event.params.data as MessagesEventData;
        events.push(data);
      }
    } catch {
      // the run fails with the model's error
    }
    return events;
  }

  it("model.stream(): the message the node returns, whole", async () => {
    const events = await messageEvents(async (state) => {
      let joined: AIMessageChunk | undefined;
      for await (const chunk of await new TwoChunks(false).stream(state.messages))
        joined = joined === undefined ? chunk : joined.concat(chunk);
      return { messages: [new AIMessage({ content: joined?.content ?? "", id: joined?.id })] };
    });
    expect(events).toEqual([
      { event: "message-start", id: "q" },
      { event: "content-block-start", index: 0, content: { type: "text", text: "" } },
      { event: "content-block-delta", index: 0, delta: { type: "text-delta", text: "ab" } },
      { event: "content-block-finish", index: 0, content: { type: "text", text: "ab" } },
      { event: "message-finish", responseMetadata: {} },
    ]);
  });

  it("a failed call: its events so far, no error event", async () => {
    const events = await messageEvents(async (state) => ({
      messages: [await new TwoChunks(true).invoke(state.messages)],
    }));
    expect(events).toEqual([
      { event: "message-start", id: "q" },
      { event: "content-block-start", index: 0, content: { type: "text", text: "" } },
      { event: "content-block-delta", index: 0, delta: { type: "text-delta", text: "a" } },
    ]);
  });
});

/** Streams OpenAI-shaped audio (`additional_kwargs.audio`) or image-generation outputs. */
class Media extends BaseChatModel {
  constructor(private readonly mode: "audio" | "image") {
    super({});
  }
  _llmType(): string {
    return "media";
  }
  async _generate(): Promise<{ generations: { text: string; message: AIMessage }[] }> {
    return { generations: [{ text: "x", message: new AIMessage("x") }] };
  }
  override async *_streamResponseChunks(): AsyncGenerator<ChatGenerationChunk> {
    const chunk = (fields: ConstructorParameters<typeof AIMessageChunk>[0] & object) =>
      new ChatGenerationChunk({ text: "", message: new AIMessageChunk(fields) });
    if (this.mode === "audio") {
      yield chunk({ content: "Hi", id: "m1" });
      yield chunk({
        content: "",
        id: "m1",
        additional_kwargs: { audio: { transcript: "Hel", format: "mp3" } },
      });
      yield chunk({
        content: "",
        id: "m1",
        additional_kwargs: { audio: { id: "au1", data: "AAA", transcript: "lo" } },
      });
      yield chunk({ content: "", id: "m1", additional_kwargs: { audio: { data: "BBB" } } });
      yield chunk({ content: "", id: "m1", additional_kwargs: { audio: { expires_at: 5 } } });
    } else {
      const generated = { type: "image_generation_call", id: "ig1", result: "IMG", output_format: "webp" };
      yield chunk({ content: "Look", id: "m2" });
      yield chunk({
        content: "",
        id: "m2",
        additional_kwargs: { tool_outputs: [generated, { type: "web_search_call" }] },
      });
      yield chunk({
        content: "",
        id: "m2",
        additional_kwargs: {
          tool_outputs: [
            generated,
            { type: "image_generation_call", url: "https://example.com/y.png" },
            { type: "image_generation_call", id: "none" },
          ],
        },
      });
    }
  }
}

describe("a custom model's OpenAI audio and generated images in a v3 run", () => {
  // @langchain/core 1.4.0's compatibility bridge turns `additional_kwargs.audio` into one audio
  // block (mime type from its format; the start event's block is the one that fills up) and each
  // new `image_generation_call` output into an image block; the message holds them as content
  const heardFrom = async (mode: "audio" | "image") => {
    const heard: unknown[] = [];
    const message = await new Media(mode).invoke("hi", {
      callbacks: [
        { lc_prefer_chat_model_stream_events: true, handleChatModelStreamEvent: (e) => heard.push(e) },
      ],
    });
    return { heard, message };
  };

  it("audio: one block, the transcript so far as block-deltas, the data as data-deltas", async () => {
    const { heard, message } = await heardFrom("audio");
    const audio = { type: "audio", data: "AAABBB", mimeType: "audio/mpeg", id: "au1", transcript: "Hello" };
    expect(heard).toEqual([
      { event: "message-start", id: "m1" },
      { event: "content-block-start", index: 0, content: { type: "text", text: "" } },
      { event: "content-block-delta", index: 0, delta: { type: "text-delta", text: "Hi" } },
      { event: "content-block-start", index: 1, content: audio },
      {
        event: "content-block-delta",
        index: 1,
        delta: { type: "block-delta", fields: { type: "audio", transcript: "Hel" } },
      },
      {
        event: "content-block-delta",
        index: 1,
        delta: { type: "block-delta", fields: { type: "audio", transcript: "Hello" } },
      },
      {
        event: "content-block-delta",
        index: 1,
        delta: { type: "data-delta", data: "AAA", encoding: "base64" },
      },
      {
        event: "content-block-delta",
        index: 1,
        delta: { type: "data-delta", data: "BBB", encoding: "base64" },
      },
      { event: "content-block-finish", index: 0, content: { type: "text", text: "Hi" } },
      { event: "content-block-finish", index: 1, content: audio },
      { event: "message-finish", reason: "stop" },
    ]);
    expect(message.content).toEqual([{ type: "text", text: "Hi" }, audio]);
  });

  it("generated images: a block for each new one", async () => {
    const { heard, message } = await heardFrom("image");
    const first = { type: "image", id: "ig1", data: "IMG", mimeType: "image/webp" };
    const second = { type: "image", url: "https://example.com/y.png", mimeType: "image/png" };
    expect(heard).toEqual([
      { event: "message-start", id: "m2" },
      { event: "content-block-start", index: 0, content: { type: "text", text: "" } },
      { event: "content-block-delta", index: 0, delta: { type: "text-delta", text: "Look" } },
      { event: "content-block-start", index: 1, content: first },
      { event: "content-block-start", index: 2, content: second },
      { event: "content-block-finish", index: 0, content: { type: "text", text: "Look" } },
      { event: "content-block-finish", index: 1, content: first },
      { event: "content-block-finish", index: 2, content: second },
      { event: "message-finish", reason: "stop" },
    ]);
    expect(message.content).toEqual([{ type: "text", text: "Look" }, first, second]);
  });
});
