import { describe, expect, it } from "vitest";
import { END, MessagesAnnotation, START, StateGraph } from "../../index.js";
import { AIMessage, type BaseMessage, HumanMessage } from "../../messages/index.js";
import { FakeChatModel } from "../../testing/index.js";

type Chunk = [BaseMessage, Record<string, unknown>];

function parentWithNestedChat() {
  const nested = new StateGraph(MessagesAnnotation)
    .addNode("greet", () => ({
      messages: [
        new HumanMessage({ content: "hello", id: "h1" }),
        new AIMessage({ content: "hi", id: "a1" }),
      ],
    }))
    .addNode("chat", async (state) => {
      const model = new FakeChatModel({ responses: ["answer"] });
      return { messages: [await model.invoke(state.messages)] };
    })
    .addEdge(START, "greet")
    .addEdge("greet", "chat")
    .addEdge("chat", END)
    .compile();
  return new StateGraph(MessagesAnnotation)
    .addNode("first", () => ({ messages: [new AIMessage({ content: "top", id: "t1" })] }))
    .addNode("inner", nested)
    .addEdge(START, "first")
    .addEdge("first", "inner")
    .compile();
}

describe("the messages stream of a graph with a nested graph", () => {
  it("without subgraphs, streams the nested graph's messages whole, as its parent node's", async () => {
    const graph = parentWithNestedChat();
    const chunks: Chunk[] = [];
    for await (const chunk of await graph.stream({ messages: [] }, { streamMode: "messages" })) {
      chunks.push(chunk as Chunk);
    }
    expect(
      chunks.map(([m, meta]) => [m.content, m.getType(), meta.langgraph_node, meta.langgraph_step]),
    ).toEqual([
      ["top", "ai", "first", 1],
      ["hello", "human", "inner", 2],
      ["hi", "ai", "inner", 2],
      ["answer", "ai", "inner", 2],
    ]);
  });

  it("with subgraphs, streams what happens inside the nested graph, under its namespace", async () => {
    const graph = parentWithNestedChat();
    const seen: [string[], string, string][] = [];
    for await (const chunk of await graph.stream(
      { messages: [] },
      { streamMode: "messages", subgraphs: true },
    )) {
      const [ns, [message, meta]] = chunk as unknown as [string[], Chunk];
      seen.push([ns.map((s) => s.split(":")[0] ?? ""), String(message.content), String(meta.langgraph_node)]);
    }
    // the model's tokens are streamed as they come; the nested graph's result is not repeated
    const text = seen
      .filter(([, , node]) => node === "chat")
      .map(([, content]) => content)
      .join("");
    expect(text).toBe("answer");
    expect(seen.filter(([, , node]) => node !== "chat")).toEqual([
      [[], "top", "first"],
      [["inner"], "hello", "greet"],
      [["inner"], "hi", "greet"],
    ]);
    expect(seen.every(([ns, , node]) => node === "first" || ns[0] === "inner")).toBe(true);
  });

  it("streams the messages of a nested graph named as its node with that graph's tags and metadata", async () => {
    const nested = () =>
      new StateGraph(MessagesAnnotation)
        .addNode("reply", () => ({ messages: [new AIMessage({ content: "done", id: "d1" })] }))
        .addEdge(START, "reply")
        .compile({ name: "worker" })
        .withConfig({ tags: ["agent"], metadata: { lc_agent_name: "worker", ls_integration: "x" } });
    const metaOf = async (node: string) => {
      const graph = new StateGraph(MessagesAnnotation).addNode(node, nested()).addEdge(START, node).compile();
      for await (const chunk of await graph.stream(
        { messages: [] },
        { streamMode: "messages", tags: ["run"] },
      )) {
        const [, meta] = chunk as Chunk;
        return [meta.tags, meta.lc_agent_name, meta.ls_integration];
      }
      return undefined;
    };
    // LangGraph.js reports them as the nested graph's run: its tags, no step tag, its metadata
    // under the task's
    expect(await metaOf("worker")).toEqual([["agent", "run"], "worker", "langgraph"]);
    // under another name, as the node's run
    expect(await metaOf("other")).toEqual([["graph:step:1", "run"], undefined, "langgraph"]);
  });
});
