// Behaviours found by running the LangGraph.js documentation's Graph API, streaming, subgraph and
// functional-API samples against both libraries. Every expectation below is what LangGraph.js
// 1.7.3 printed for the same program.
import { describe, expect, it } from "vitest";
import {
  Annotation,
  Command,
  entrypoint,
  GraphRecursionError,
  InMemoryCache,
  MemorySaver,
  MessagesAnnotation,
  Send,
  START,
  StateGraph,
  task,
} from "../index.js";
import { AIMessage, AIMessageChunk, type BaseMessage, HumanMessage } from "../messages/index.js";
import {
  BaseChatModel,
  type CallbackManagerForLLMRun,
  ChatGenerationChunk,
  type ChatResult,
} from "../models/index.js";

/** A model streaming a fixed answer word by word, reporting each piece as LangChain.js models do. */
class WordStreamer extends BaseChatModel {
  private calls = 0;
  constructor(private readonly answer: string) {
    super({});
  }
  _llmType() {
    return "word-streamer";
  }
  async _generate(): Promise<ChatResult> {
    this.calls += 1;
    const message = new AIMessage({ content: this.answer, id: `answer-${this.calls}` });
    return { generations: [{ message, text: this.answer }] };
  }
  override async *_streamResponseChunks(
    _messages: BaseMessage[],
    _options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ) {
    this.calls += 1;
    for (const word of this.answer.split(/(?<= )/)) {
      const chunk = new ChatGenerationChunk({
        text: word,
        message: new AIMessageChunk({ content: word, id: `answer-${this.calls}` }),
      });
      yield chunk;
      await runManager?.handleLLMNewToken(word, undefined, undefined, undefined, undefined, { chunk });
    }
  }
}

async function drain<T>(stream: Promise<AsyncIterable<T>>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of await stream) out.push(chunk);
  return out;
}

async function readText(stream: Promise<AsyncIterable<Uint8Array>>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const bytes of await stream) text += decoder.decode(bytes, { stream: true });
  return text;
}

/** Splits Server-Sent Events text into `{ event, data }` pairs (data parsed as JSON). */
function parseEvents(text: string): { event: string; data: unknown }[] {
  return text
    .split("\n\n")
    .filter((block) => block.length > 0)
    .map((block) => {
      const [eventLine = "", dataLine = ""] = block.split("\n");
      return { event: eventLine.slice("event: ".length), data: JSON.parse(dataLine.slice("data: ".length)) };
    });
}

const Trail = Annotation.Root({
  topic: Annotation<string>(),
  trail: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

describe("stream({ encoding: 'text/event-stream' })", () => {
  const pipeline = () =>
    new StateGraph(Trail)
      .addNode("first", (_s, config) => {
        config.writer?.({ progress: "first" });
        return { trail: ["first"] };
      })
      .addNode("second", () => ({ trail: ["second"] }))
      .addEdge(START, "first")
      .addEdge("first", "second")
      .compile();

  it("writes one event per chunk, named after its mode, with the payload as JSON", async () => {
    const text = await readText(
      pipeline().stream(
        { topic: "t" },
        { encoding: "text/event-stream", streamMode: ["updates", "values", "custom"] },
      ),
    );
    expect(text.endsWith("\n\n")).toBe(true);
    expect(parseEvents(text)).toEqual([
      { event: "values", data: { topic: "t", trail: [] } },
      { event: "custom", data: { progress: "first" } },
      { event: "updates", data: { first: { trail: ["first"] } } },
      { event: "values", data: { topic: "t", trail: ["first"] } },
      { event: "updates", data: { second: { trail: ["second"] } } },
      { event: "values", data: { topic: "t", trail: ["first", "second"] } },
    ]);
  });

  it("uses the graph's default mode when none is given", async () => {
    const events = parseEvents(
      await readText(pipeline().stream({ topic: "t" }, { encoding: "text/event-stream" })),
    );
    expect(events.map((e) => e.event)).toEqual(["updates", "updates"]);
  });

  it("names a nested graph's events after its namespace, and writes messages in their stored form", async () => {
    const model = new WordStreamer("two words");
    const inner = new StateGraph(MessagesAnnotation)
      .addNode("reply", async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addEdge(START, "reply")
      .compile();
    const outer = new StateGraph(MessagesAnnotation).addNode("chat", inner).addEdge(START, "chat").compile();
    const events = parseEvents(
      await readText(
        outer.stream(
          { messages: [new HumanMessage({ content: "hi", id: "h1" })] },
          { encoding: "text/event-stream", subgraphs: true, streamMode: ["updates", "messages"] },
        ),
      ),
    );
    const names = events.map((e) => e.event.replace(/:[0-9a-f-]{36}/g, ":<id>"));
    expect(names).toEqual(["messages|chat:<id>", "messages|chat:<id>", "updates|chat:<id>", "updates"]);
    const [token, metadata] = (events[0] as { data: unknown }).data as [
      Record<string, unknown>,
      Record<string, unknown>,
    ];
    expect(token).toMatchObject({ type: "ai", content: "two ", id: "answer-1" });
    expect(metadata).toMatchObject({ langgraph_node: "reply" });
    expect(events[3]?.data).toMatchObject({
      chat: {
        messages: [
          { type: "human", content: "hi", id: "h1" },
          { type: "ai", content: "two words" },
        ],
      },
    });
  });

  it("reduces checkpoint configs to references and ends a failed run with an error event", async () => {
    const graph = new StateGraph(Trail)
      .addNode("only", () => ({ trail: ["x"] }))
      .addEdge(START, "only")
      .compile({ checkpointer: new MemorySaver() });
    const events = parseEvents(
      await readText(
        graph.stream(
          { topic: "t" },
          { encoding: "text/event-stream", streamMode: "checkpoints", configurable: { thread_id: "sse" } },
        ),
      ),
    );
    expect(events.map((e) => e.event)).toEqual(["checkpoints", "checkpoints", "checkpoints"]);
    const last = events[2]?.data as Record<string, unknown>;
    expect(last.checkpoint).toMatchObject({ thread_id: "sse", checkpoint_ns: "", checkpoint_map: null });
    expect(last.parent_checkpoint).toMatchObject({ thread_id: "sse" });
    expect(last).not.toHaveProperty("parentConfig");
    expect(last).toHaveProperty("parent_config");

    const failing = new StateGraph(Trail)
      .addNode("boom", () => {
        throw new RangeError("out of range");
      })
      .addEdge(START, "boom")
      .compile();
    const failed = parseEvents(
      await readText(failing.stream({ topic: "t" }, { encoding: "text/event-stream", streamMode: "values" })),
    );
    expect(failed).toEqual([
      { event: "values", data: { topic: "t", trail: [] } },
      { event: "error", data: { error: "RangeError", message: "out of range" } },
    ]);
  });
});

describe("documentation samples", () => {
  it("fans out to parallel branches and joins them once both finished", async () => {
    const graph = new StateGraph(Trail)
      .addNode("root", () => ({ trail: ["root"] }))
      .addNode("left", () => ({ trail: ["left"] }))
      .addNode("right", () => ({ trail: ["right"] }))
      .addNode("join", (s) => ({ trail: [`join saw ${s.trail.length}`] }))
      .addEdge(START, "root")
      .addEdge("root", "left")
      .addEdge("root", "right")
      .addEdge(["left", "right"], "join")
      .compile();
    expect((await graph.invoke({ topic: "" })).trail).toEqual(["root", "left", "right", "join saw 3"]);
  });

  it("runs a deferred node after every Send and the longer branch", async () => {
    const graph = new StateGraph(Trail)
      .addNode("plan", () => ({ trail: ["plan"] }))
      .addNode("worker", (s: { topic: string }) => ({ trail: [`w${s.topic}`] }))
      .addNode("slow1", () => ({ trail: ["slow1"] }))
      .addNode("slow2", () => ({ trail: ["slow2"] }))
      .addNode("gather", (s) => ({ trail: [`gather(${s.trail.length})`] }), { defer: true })
      .addEdge(START, "plan")
      .addConditionalEdges("plan", () => [
        new Send("worker", { topic: "1" }),
        new Send("worker", { topic: "2" }),
        "slow1",
      ])
      .addEdge("slow1", "slow2")
      .addEdge("slow2", "gather")
      .addEdge("worker", "gather")
      .compile();
    expect((await graph.invoke({ topic: "" })).trail).toEqual([
      "plan",
      "slow1",
      "w1",
      "w2",
      "slow2",
      "gather(5)",
    ]);
  });

  it("routes from a subgraph to a sibling of its parent node with Command.PARENT", async () => {
    const Letters = Annotation.Root({
      s: Annotation<string>({ reducer: (a, b) => a + b, default: () => "" }),
    });
    const inner = new StateGraph(Letters)
      .addNode("hop", () => new Command({ graph: Command.PARENT, goto: "last", update: { s: "b" } }))
      .addEdge(START, "hop")
      .compile();
    const graph = new StateGraph(Letters)
      .addNode("first", () => ({ s: "a" }))
      .addNode("inner", inner, { ends: ["last"] })
      .addNode("last", () => ({ s: "c" }))
      .addEdge(START, "first")
      .addEdge("first", "inner")
      .compile();
    expect(await graph.invoke({ s: "" })).toEqual({ s: "abc" });
    expect(await drain(graph.stream({ s: "" }, { subgraphs: true }))).toEqual([
      [[], { first: { s: "a" } }],
      [[], { inner: { s: "b" } }],
      [[], { last: { s: "c" } }],
    ]);
  });

  it("tags streamed tokens with the node and lets callers filter them by tag", async () => {
    const tagged = new WordStreamer("tagged reply").withConfig({ tags: ["keep"] });
    const plain = new WordStreamer("other");
    const graph = new StateGraph(Trail)
      .addNode("talk", async () => {
        await plain.invoke("x");
        const reply = await tagged.invoke("y");
        return { topic: String(reply.content) };
      })
      .addEdge(START, "talk")
      .compile();
    let kept = "";
    for await (const [chunk, metadata] of await graph.stream({ topic: "" }, { streamMode: "messages" })) {
      const { content } = chunk as BaseMessage;
      expect(metadata.langgraph_node).toBe("talk");
      if ((metadata.tags as string[] | undefined)?.includes("keep")) kept += String(content);
    }
    expect(kept).toBe("tagged reply");
  });

  it("reuses a cached node result and streams it as cached", async () => {
    let runs = 0;
    const graph = new StateGraph(Trail)
      .addNode(
        "costly",
        (s) => {
          runs += 1;
          return { trail: [s.topic.toUpperCase()] };
        },
        { cachePolicy: { ttl: 60 } },
      )
      .addEdge(START, "costly")
      .compile({ cache: new InMemoryCache() });
    await graph.invoke({ topic: "a" });
    expect(await drain(graph.stream({ topic: "a" }))).toEqual([
      { costly: { trail: ["A"] }, __metadata__: { cached: true } },
    ]);
    expect(runs).toBe(1);
  });

  it("stops a loop at the recursion limit after streaming the steps it ran", async () => {
    const graph = new StateGraph(Trail)
      .addNode("ping", () => ({ trail: ["ping"] }))
      .addNode("pong", () => ({ trail: ["pong"] }))
      .addEdge(START, "ping")
      .addEdge("ping", "pong")
      .addEdge("pong", "ping")
      .compile();
    const seen: unknown[] = [];
    await expect(async () => {
      for await (const chunk of await graph.stream({ topic: "" }, { recursionLimit: 3 })) seen.push(chunk);
    }).rejects.toThrow(GraphRecursionError);
    expect(seen).toEqual([
      { ping: { trail: ["ping"] } },
      { pong: { trail: ["pong"] } },
      { ping: { trail: ["ping"] } },
    ]);
  });

  it("keeps values outside the output schema private, while `values` streams the whole state", async () => {
    const In = Annotation.Root({ question: Annotation<string>() });
    const Out = Annotation.Root({ answer: Annotation<string>() });
    const All = Annotation.Root({
      question: Annotation<string>(),
      answer: Annotation<string>(),
      notes: Annotation<string>(),
    });
    const graph = new StateGraph({ input: In, output: Out, stateSchema: All })
      .addNode("respond", (s) => ({ answer: `re: ${s.question}`, notes: "private" }))
      .addEdge(START, "respond")
      .compile();
    expect(await graph.invoke({ question: "q" })).toEqual({ answer: "re: q" });
    expect(await drain(graph.stream({ question: "q" }, { streamMode: "values" }))).toEqual([
      { question: "q" },
      { question: "q", answer: "re: q", notes: "private" },
    ]);
  });

  it("streams a functional workflow's custom chunks and task updates", async () => {
    const shout = task("shout", async (word: string) => word.toUpperCase());
    const flow = entrypoint("flow", async (word: string, config) => {
      config.writer?.({ started: word });
      return await shout(word);
    });
    const chunks = await drain(flow.stream("hey", { streamMode: ["custom", "updates"] }));
    expect(chunks).toEqual([
      ["custom", { started: "hey" }],
      ["updates", { shout: "HEY" }],
      ["updates", { flow: "HEY" }],
    ]);
  });
});
