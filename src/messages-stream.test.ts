import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "./agents/index.js";
import { Annotation, END, MemorySaver, MessagesAnnotation, pushMessage, START, StateGraph } from "./index.js";
import { AIMessage, AIMessageChunk, type BaseMessage, HumanMessage, ToolMessage } from "./messages/index.js";
import { BaseChatModel, ChatGenerationChunk, type ChatModelRun } from "./models/index.js";
import { ToolNode } from "./prebuilt/index.js";
import { FakeChatModel } from "./testing/index.js";
import { tool } from "./tools/index.js";

type MessageChunk = [BaseMessage, Record<string, unknown>];

/** The chunks of a `messages` stream. */
async function streamed(stream: Promise<AsyncIterable<unknown>>): Promise<MessageChunk[]> {
  const chunks: MessageChunk[] = [];
  for await (const chunk of await stream) chunks.push(chunk as MessageChunk);
  return chunks;
}

function chatGraph(model: FakeChatModel) {
  return new StateGraph(MessagesAnnotation)
    .addNode("chat", async (s) => ({ messages: [await model.invoke(s.messages)] }))
    .addEdge(START, "chat")
    .compile();
}

describe("the messages stream mode", () => {
  it("streams each token of a model call made inside a node, with the node's metadata", async () => {
    const model = new FakeChatModel({ responses: ["hello there"] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("chat", async (s) => ({
        messages: [await model.invoke(s.messages, { tags: ["mine"], metadata: { purpose: "greet" } })],
      }))
      .addEdge(START, "chat")
      .compile();
    const chunks = await streamed(
      graph.stream({ messages: [new HumanMessage("hi")] }, { streamMode: "messages" }),
    );
    expect(chunks.length).toBeGreaterThan(1);
    for (const [message, metadata] of chunks) {
      expect(message).toBeInstanceOf(AIMessageChunk);
      expect(metadata).toMatchObject({
        langgraph_step: 1,
        langgraph_node: "chat",
        langgraph_triggers: ["branch:to:chat"],
        langgraph_path: ["__pregel_pull", "chat"],
        langgraph_checkpoint_ns: expect.stringMatching(/^chat:/),
        purpose: "greet",
      });
      expect(metadata.tags).toEqual(expect.arrayContaining(["mine"]));
    }
    const text = chunks.map(([m]) => m.text).join("");
    expect(text).toBe("hello there");
    expect(new Set(chunks.map(([m]) => m.id)).size).toBe(1);
  });

  it("makes invoke() stream internally only while somebody streams messages", async () => {
    const model = new FakeChatModel({ responses: ["a b c", "d e f"] });
    const graph = chatGraph(model);
    const plain = await graph.invoke({ messages: [new HumanMessage("hi")] });
    expect(plain.messages.at(-1)?.text).toBe("a b c");
    const chunks = await streamed(
      graph.stream({ messages: [new HumanMessage("hi")] }, { streamMode: "messages" }),
    );
    expect(chunks.map(([m]) => m.text).join("")).toBe("d e f");
  });

  it("streams messages a node returns without calling a model, once", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("plain", () => ({ messages: [new AIMessage({ content: "no model", id: "m-1" })] }))
      .addEdge(START, "plain")
      .compile();
    const chunks = await streamed(
      graph.stream(
        { messages: [new HumanMessage({ content: "hi", id: "h-1" })] },
        { streamMode: "messages" },
      ),
    );
    expect(chunks).toHaveLength(1);
    const [message, metadata] = chunks[0] as MessageChunk;
    expect(message.id).toBe("m-1");
    expect(message.text).toBe("no model");
    expect(metadata).toMatchObject({ name: "plain", langgraph_node: "plain" });
  });

  it("gives a returned message without an id LangGraph.js's stream id, which the state keeps", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("plain", () => ({
        messages: [
          new AIMessage("first"),
          new ToolMessage({ content: "result", tool_call_id: "call_7" }),
          new AIMessage("third"),
        ],
      }))
      .addEdge(START, "plain")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "ids" } };
    const chunks = await streamed(
      graph.stream(
        { messages: [new HumanMessage({ content: "hi", id: "h-1" })] },
        { ...config, streamMode: "messages" },
      ),
    );
    const uuid = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
    const ids = chunks.map(([m]) => m.id as string);
    expect(ids[0]).toMatch(new RegExp(`^run-${uuid}-out-0$`));
    expect(ids[1]).toMatch(new RegExp(`^run-${uuid}-tool-call_7$`));
    // the index counts every message the node returned
    expect(ids[2]).toMatch(new RegExp(`^run-${uuid}-out-2$`));
    const runId = ids[0]?.slice(4, 40);
    expect(ids.every((id) => id.startsWith(`run-${runId}-`))).toBe(true);
    const state = await graph.getState(config);
    expect(state.values.messages.map((m) => m.id)).toEqual(["h-1", ...ids]);
    // without the messages mode, the reducer gives plain UUIDs
    const plain = await graph.invoke({ messages: [] }, { configurable: { thread_id: "plain" } });
    for (const m of plain.messages) expect(m.id).toMatch(new RegExp(`^${uuid}$`));
  });

  it("streams both answers of two tool calls sharing an id, though they get the same stream id", async () => {
    const echo = tool(async ({ x }: { x: string }) => `got ${x}`, {
      name: "echo",
      description: "Echoes.",
      schema: z.object({ x: z.string() }),
    });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("tools", new ToolNode([echo]))
      .addEdge(START, "tools")
      .compile();
    const asking = new AIMessage({
      content: "",
      id: "a",
      tool_calls: [
        { name: "echo", args: { x: "1" }, id: "c1", type: "tool_call" },
        { name: "echo", args: { x: "2" }, id: "c1", type: "tool_call" },
      ],
    });
    const chunks = await streamed(graph.stream({ messages: [asking] }, { streamMode: "messages" }));
    // LangGraph.js checks for a message streamed already before naming it
    expect(chunks.map(([m]) => [m.content, (m.id ?? "").replace(/^run-[0-9a-f-]{36}-/, "run-*-")])).toEqual([
      ["got 1", "run-*-tool-c1"],
      ["got 2", "run-*-tool-c1"],
    ]);
  });
  it("does not stream the tokens of a call tagged nostream, but still reports the node's output", async () => {
    const model = new FakeChatModel({ responses: ["quiet answer"] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("quiet", async (s) => ({ messages: [await model.invoke(s.messages, { tags: ["nostream"] })] }))
      .addEdge(START, "quiet")
      .compile();
    const chunks = await streamed(
      graph.stream({ messages: [new HumanMessage("hi")] }, { streamMode: "messages" }),
    );
    expect(chunks).toHaveLength(1);
    expect((chunks[0] as MessageChunk)[0].text).toBe("quiet answer");
  });

  it("streams model calls of subgraphs, with their namespace when subgraphs is set", async () => {
    const model = new FakeChatModel({ responses: ["inner words"] });
    const inner = chatGraph(model);
    const outer = new StateGraph(MessagesAnnotation).addNode("sub", inner).addEdge(START, "sub").compile();
    const plain: MessageChunk[] = [];
    for await (const chunk of await outer.stream(
      { messages: [new HumanMessage("hi")] },
      { streamMode: "messages" },
    )) {
      plain.push(chunk as MessageChunk);
    }
    expect(plain.map(([m]) => m.text).join("")).toBe("inner words");

    const model2 = new FakeChatModel({ responses: ["more words"] });
    const outer2 = new StateGraph(MessagesAnnotation)
      .addNode("sub", chatGraph(model2))
      .addEdge(START, "sub")
      .compile();
    const namespaced: [string[], MessageChunk][] = [];
    for await (const chunk of await outer2.stream(
      { messages: [new HumanMessage("hi")] },
      { streamMode: "messages", subgraphs: true },
    )) {
      namespaced.push(chunk as [string[], MessageChunk]);
    }
    expect(namespaced.length).toBeGreaterThan(0);
    for (const [namespace, [, metadata]] of namespaced) {
      expect(namespace).toEqual([expect.stringMatching(/^sub:/)]);
      expect(metadata).toMatchObject({
        langgraph_node: "chat",
        langgraph_step: 1,
        langgraph_triggers: ["branch:to:chat"],
        langgraph_path: ["__pregel_pull", "chat"],
        langgraph_checkpoint_ns: expect.stringMatching(/^sub:[^|]+\|chat:[^|]+$/),
      });
      // The namespace of the stream is the subgraph's part of the checkpoint namespace.
      expect(String(metadata.langgraph_checkpoint_ns).startsWith(`${namespace[0]}|`)).toBe(true);
    }
  });

  it("suppresses a model whose own tags include nostream, and one tagged langsmith:nostream", async () => {
    const quiet = new FakeChatModel({ responses: ["from tagged model"], tags: ["nostream"] });
    const silent = new FakeChatModel({ responses: ["from langsmith tag"] });
    const configured = new FakeChatModel({ responses: ["from withConfig"] }).withConfig({
      tags: ["nostream"],
    });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("both", async (s) => ({
        messages: [
          await quiet.invoke(s.messages),
          await silent.invoke(s.messages, { tags: ["langsmith:nostream"] }),
          await configured.invoke(s.messages),
        ],
      }))
      .addEdge(START, "both")
      .compile();
    const chunks = await streamed(
      graph.stream({ messages: [new HumanMessage("hi")] }, { streamMode: "messages" }),
    );
    // No tokens: each answer arrives once, whole, as the node's output.
    expect(chunks.map(([m]) => m.text)).toEqual([
      "from tagged model",
      "from langsmith tag",
      "from withConfig",
    ]);
    for (const [message] of chunks) expect(message).toBeInstanceOf(AIMessage);
  });

  it("names a model called inside a tool with the tool's config by the model, not the tool", async () => {
    const inner = new FakeChatModel({ responses: ["inner words"] });
    const lookup = tool(async ({ q }, config) => (await inner.invoke([new HumanMessage(q)], config)).text, {
      name: "lookup",
      description: "d",
      schema: z.object({ q: z.string() }),
    });
    const tools = new ToolNode([lookup]);
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("tools", tools)
      .addEdge(START, "tools")
      .compile();
    const input = new AIMessage({
      content: "",
      tool_calls: [{ name: "lookup", args: { q: "x" }, id: "c1" }],
    });
    const chunks = await streamed(graph.stream({ messages: [input] }, { streamMode: "messages" }));
    const tokens = chunks.filter(([message]) => message instanceof AIMessageChunk);
    expect(tokens.length).toBeGreaterThan(0);
    // LangChain.js reports the model's run name there: unset, as the tool's config carries none
    for (const [, metadata] of tokens) expect(metadata.name).toBeUndefined();
  });

  it("combines with other modes as [mode, chunk]", async () => {
    const graph = chatGraph(new FakeChatModel({ responses: ["x y"] }));
    const modes = new Set<string>();
    for await (const chunk of await graph.stream(
      { messages: [new HumanMessage("hi")] },
      { streamMode: ["messages", "updates"] },
    )) {
      modes.add((chunk as [string, unknown])[0]);
    }
    expect([...modes].sort()).toEqual(["messages", "updates"]);
  });

  it("keeps a call's own tag order when its config repeats the node's tags", async () => {
    const model = new FakeChatModel({ responses: ["a", "b"] }).withConfig({ tags: ["model-tag"] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("chat", async (s, config) => ({
        messages: [await model.invoke(s.messages, config), await model.invoke(s.messages, { tags: ["own"] })],
      }))
      .addEdge(START, "chat")
      .compile();
    const tags: unknown[] = [];
    for await (const chunk of await graph.stream(
      { messages: [new HumanMessage("hi")] },
      { streamMode: "messages", tags: ["run-tag"] },
    )) {
      tags.push((chunk as MessageChunk)[1].tags);
    }
    // LangChain.js's callback manager removes a call's tags, then appends them
    expect(tags).toEqual([
      ["model-tag", "run-tag"],
      ["run-tag", "model-tag", "own"],
    ]);
  });

  it("puts a configured model's tags before the node's when it streams without a config, and after them when it is invoked", async () => {
    const model = new FakeChatModel({ responses: ["a", "b"] }).withConfig({ tags: ["model-tag"] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("chat", async (s) => {
        let streamedAnswer: AIMessageChunk | undefined;
        for await (const chunk of await model.stream(s.messages))
          streamedAnswer = streamedAnswer === undefined ? chunk : streamedAnswer.concat(chunk);
        return { messages: [streamedAnswer as AIMessageChunk, await model.invoke(s.messages)] };
      })
      .addEdge(START, "chat")
      .compile();
    const tags = new Map<string, unknown>();
    for await (const chunk of await graph.stream(
      { messages: [new HumanMessage("hi")] },
      { streamMode: "messages", tags: ["run-tag"] },
    )) {
      const [message, metadata] = chunk as MessageChunk;
      tags.set(message.text, metadata.tags);
    }
    // LangChain.js's RunnableBinding.stream resolves the ambient config first; invoke does not
    expect(Object.fromEntries(tags)).toEqual({ a: ["model-tag", "run-tag"], b: ["run-tag", "model-tag"] });
  });

  it("streams what a graph named as its node returns as that graph's, when the node invokes it", async () => {
    const researcher = createAgent({
      model: new FakeChatModel({ responses: ["found it"] }),
      name: "researcher",
    });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("researcher", async (s, config) => {
        const out = await researcher.invoke({ messages: s.messages }, config);
        return { messages: out.messages.slice(s.messages.length) };
      })
      .addEdge(START, "researcher")
      .compile();
    const chunks = await streamed(
      graph.stream({ messages: [new HumanMessage("hi")] }, { streamMode: "messages", tags: ["run-tag"] }),
    );
    // LangGraph.js takes the agent's run for the node's: its tags (no step tag) and its metadata
    expect(chunks.map(([m, md]) => [m.text, md.langgraph_node, md.lc_agent_name, md.tags, md.name])).toEqual([
      ["found it", "researcher", "researcher", ["run-tag"], "researcher"],
    ]);
  });

  // as @langchain/langgraph 1.7.3: only the ids of the streamed chunks count as seen
  it("streams the node's answer whole when its tokens were reported without their chunks", async () => {
    class TokenOnlyModel extends BaseChatModel {
      _llmType() {
        return "token-only";
      }
      async _generate() {
        return { generations: [{ text: "a b", message: new AIMessage({ content: "a b", id: "ans-1" }) }] };
      }
      override async *_streamResponseChunks(
        _messages: BaseMessage[],
        _options: this["ParsedCallOptions"],
        runManager?: ChatModelRun,
      ) {
        for (const word of ["a", " b"]) {
          yield new ChatGenerationChunk({
            text: word,
            message: new AIMessageChunk({ content: word, id: "ans-1" }),
          });
          await runManager?.handleLLMNewToken(word);
        }
      }
    }
    const model = new TokenOnlyModel({});
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("chat", async (s) => ({ messages: [await model.invoke(s.messages)] }))
      .addEdge(START, "chat")
      .compile();
    const chunks = await streamed(
      graph.stream(
        { messages: [new HumanMessage({ content: "hi", id: "h-1" })] },
        { streamMode: "messages" },
      ),
    );
    expect(chunks.map(([m]) => m.text)).toEqual(["a", " b", "a b"]);
    const ids = chunks.map(([m]) => m.id);
    expect(ids[0]).toMatch(/^run-[0-9a-f-]{36}$/);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).toBe("ans-1");
    expect(chunks[2]?.[1]).toMatchObject({ name: "chat", langgraph_node: "chat", tags: ["graph:step:1"] });
  });
});

// Expected values are what @langchain/langgraph 1.7.3 streams for the same graphs.
describe("pushMessage and the tags of a node's own messages", () => {
  const graph = () =>
    new StateGraph(MessagesAnnotation)
      .addNode("a", async () => {
        pushMessage(new AIMessage({ content: "progress", id: "p1" }));
        return { messages: [new AIMessage({ content: "final", id: "f1" })] };
      })
      .addNode("b", async () => {
        pushMessage({ role: "assistant", content: "only streamed", id: "s1" }, { stateKey: null });
        return {};
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();

  it("streams a pushed message at once and writes it to the messages key", async () => {
    const out = await graph().invoke({ messages: [] });
    expect(out.messages.map((m: BaseMessage) => m.id)).toEqual(["p1", "f1"]);
    const chunks: [string | undefined, unknown, unknown, unknown][] = [];
    for await (const [message, metadata] of await graph().stream(
      { messages: [] },
      { streamMode: "messages", tags: ["run"] },
    )) {
      const meta = metadata as Record<string, unknown>;
      chunks.push([(message as BaseMessage).id, meta.tags, meta.name, meta.langgraph_node]);
    }
    expect(chunks).toEqual([
      // a pushed message carries the node's metadata only
      ["p1", undefined, undefined, "a"],
      // a node's returned message: its step's tag, then the run's tags
      ["f1", ["graph:step:1", "run"], "a", "a"],
      ["s1", undefined, undefined, "b"],
    ]);
  });

  it("streams once when the node passes its own config", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("a", async (_s, config) => {
        pushMessage(new AIMessage({ content: "progress", id: "p1" }), config);
        return {};
      })
      .addEdge(START, "a")
      .compile();
    const ids: (string | undefined)[] = [];
    for await (const [message] of await graph.stream({ messages: [] }, { streamMode: "messages" })) {
      ids.push((message as BaseMessage).id);
    }
    expect(ids).toEqual(["p1"]);
  });

  it("writes to another key, and needs an id", async () => {
    const State = Annotation.Root({
      log: Annotation<BaseMessage[], BaseMessage>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    });
    const out = await new StateGraph(State)
      .addNode("a", () => {
        pushMessage(new AIMessage({ content: "x", id: "x1" }), { stateKey: "log" });
        return {};
      })
      .addEdge(START, "a")
      .compile()
      .invoke({});
    expect(out.log.map((m) => m.id)).toEqual(["x1"]);
    const noId = new StateGraph(MessagesAnnotation)
      .addNode("a", () => {
        pushMessage(new AIMessage("no id"));
        return {};
      })
      .addEdge(START, "a")
      .compile();
    await expect(noId.invoke({ messages: [] })).rejects.toThrow(/^Message ID is required\./);
  });
});
