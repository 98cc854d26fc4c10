import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type AIMessage, type BaseMessage, HumanMessage, RemoveMessage } from "../messages/index.js";
import { FakeChatModel } from "../testing/index.js";
import { createReactAgent } from "./create-react-agent.js";
import {
  answer,
  asking,
  call,
  lookup,
  outline,
  question,
  search,
} from "./create-react-agent.test-helpers.js";

const hook = () => ({});
const Format = z.object({ a: z.string() });

function topology(params: Partial<Parameters<typeof createReactAgent>[0]>): [string[], string[]] {
  const agent = createReactAgent({ llm: new FakeChatModel({ responses: [] }), tools: [search], ...params });
  const graph = agent.getGraph();
  const edges = graph.edges.map((e) => `${e.source}->${e.target}${e.conditional ? "?" : ""}`).sort();
  return [Object.keys(graph.nodes).sort(), edges];
}

describe("createReactAgent: graph", () => {
  // Node and edge sets printed by LangGraph.js 1.7.3's createReactAgent for the same options.
  it("has LangGraph.js's nodes and edges without options", () => {
    expect(topology({})).toEqual([
      ["__end__", "__start__", "agent", "tools"],
      ["__start__->agent", "agent->__end__?", "agent->tools?", "tools->agent"],
    ]);
    expect(topology({ tools: [] })).toEqual(topology({}));
    expect(topology({ version: "v2" })).toEqual(topology({}));
  });

  it("routes tools conditionally when a tool is return-direct", () => {
    expect(topology({ tools: [search, lookup] })[1]).toEqual([
      "__start__->agent",
      "agent->__end__?",
      "agent->tools?",
      "tools->__end__?",
      "tools->agent?",
    ]);
  });

  it("enters through pre_model_hook and comes back to it after tools", () => {
    expect(topology({ preModelHook: hook })[1]).toEqual([
      "__start__->pre_model_hook",
      "agent->__end__?",
      "agent->tools?",
      "pre_model_hook->agent",
      "tools->pre_model_hook",
    ]);
  });

  it("routes after post_model_hook", () => {
    for (const version of ["v1", "v2"] as const) {
      expect(topology({ postModelHook: hook, version })[1]).toEqual([
        "__start__->agent",
        "agent->post_model_hook",
        "post_model_hook->__end__?",
        "post_model_hook->agent?",
        "post_model_hook->tools?",
        "tools->agent",
      ]);
    }
  });

  it("ends through generate_structured_response with a responseFormat", () => {
    expect(topology({ responseFormat: Format })[1]).toEqual([
      "__start__->agent",
      "agent->generate_structured_response?",
      "agent->tools?",
      "generate_structured_response->__end__",
      "tools->agent",
    ]);
  });

  it("combines every option as LangGraph.js does", () => {
    const all = topology({
      tools: [search, lookup],
      preModelHook: hook,
      postModelHook: hook,
      responseFormat: Format,
    });
    expect(all).toEqual([
      [
        "__end__",
        "__start__",
        "agent",
        "generate_structured_response",
        "post_model_hook",
        "pre_model_hook",
        "tools",
      ],
      [
        "__start__->pre_model_hook",
        "agent->post_model_hook",
        "generate_structured_response->__end__",
        "post_model_hook->generate_structured_response?",
        "post_model_hook->pre_model_hook?",
        "post_model_hook->tools?",
        "pre_model_hook->agent",
        "tools->__end__?",
        "tools->pre_model_hook?",
      ],
    ]);
  });

  it("has LangGraph.js's channels", () => {
    const agent = createReactAgent({
      llm: new FakeChatModel({ responses: [] }),
      tools: [search],
      preModelHook: hook,
    });
    expect(Object.keys(agent.channels)).toEqual(
      expect.arrayContaining(["messages", "structuredResponse", "llmInputMessages"]),
    );
  });
});

describe("createReactAgent: preModelHook", () => {
  it("runs before every model call; llmInputMessages change what the model sees, not the state", async () => {
    const llm = new FakeChatModel({
      responses: [asking("a1", call("search", { query: "q" }, "c1")), answer("a2", "ok")],
    });
    const seen: number[] = [];
    const agent = createReactAgent({
      llm,
      tools: [search],
      preModelHook: (state) => {
        seen.push(state.remainingSteps);
        return { llmInputMessages: [new HumanMessage("summary"), ...state.messages.slice(-2)] };
      },
    });
    const updates: string[] = [];
    let out: BaseMessage[] = [];
    for await (const [mode, chunk] of await agent.stream(question(), { streamMode: ["updates", "values"] })) {
      if (mode === "updates") updates.push(...Object.keys(chunk));
      else out = (chunk as { messages: BaseMessage[] }).messages;
    }
    expect(updates).toEqual(["pre_model_hook", "agent", "tools", "pre_model_hook", "agent"]);
    expect(seen).toEqual([24, 21]);
    expect(outline(llm.calls[0] ?? [])).toEqual(["human:summary", "human:hi"]);
    expect(outline(llm.calls[1] ?? [])).toEqual(["human:summary", "ai:", "tool:results for q"]);
    expect(outline(out)).toEqual(["human:hi", "ai:", "tool:results for q", "ai:ok"]);
  });

  it("may rewrite messages instead", async () => {
    const llm = new FakeChatModel({ responses: ["ok"] });
    const agent = createReactAgent({
      llm,
      tools: [],
      preModelHook: (state) => ({
        messages: [
          new RemoveMessage({ id: state.messages[0]?.id ?? "" }),
          new HumanMessage({ content: "short", id: "h2" }),
        ],
      }),
    });
    const out = await agent.invoke({
      messages: [new HumanMessage({ content: "a very long question", id: "h1" })],
    });
    expect(outline(llm.calls[0] ?? [])).toEqual(["human:short"]);
    expect(outline(out.messages)).toEqual(["human:short", "ai:ok"]);
    expect(Object.keys(out)).toEqual(["messages"]);
  });
});

describe("createReactAgent: postModelHook", () => {
  for (const version of ["v1", "v2"] as const) {
    it(`${version}: runs after every model call and sends the pending calls to tools`, async () => {
      const llm = new FakeChatModel({
        responses: [
          asking("a1", call("search", { query: "a" }, "c1"), call("search", { query: "b" }, "c2")),
          answer("a2", "ok"),
        ],
      });
      const seen: string[] = [];
      const agent = createReactAgent({
        llm,
        tools: [search],
        version,
        postModelHook: (state) => {
          seen.push(outline(state.messages).at(-1) ?? "");
          return {};
        },
      });
      const nodes: string[] = [];
      for await (const chunk of await agent.stream(question())) nodes.push(...Object.keys(chunk));
      const tools = version === "v1" ? ["tools"] : ["tools", "tools"];
      expect(nodes).toEqual(["agent", "post_model_hook", ...tools, "agent", "post_model_hook"]);
      expect(seen).toEqual(["ai:", "ai:ok"]);
    });
  }

  it("can answer the calls itself: a ToolMessage last goes back to the model", async () => {
    const llm = new FakeChatModel({
      responses: [asking("a1", call("search", { query: "a" }, "c1")), answer("a2", "ok")],
    });
    const agent = createReactAgent({
      llm,
      tools: [search],
      postModelHook: (state) => {
        const last = state.messages.at(-1) as AIMessage;
        if (last.tool_calls.length === 0) return {};
        return { messages: [{ role: "tool", content: "denied", tool_call_id: "c1" }] as never };
      },
    });
    const nodes: string[] = [];
    for await (const chunk of await agent.stream(question())) nodes.push(...Object.keys(chunk));
    expect(nodes).toEqual(["agent", "post_model_hook", "agent", "post_model_hook"]);
    expect(outline(llm.calls[1] ?? [])).toEqual(["human:hi", "ai:", "tool:denied"]);
  });

  it("goes to generate_structured_response after the last answer", async () => {
    const llm = new FakeChatModel({
      responses: [answer("a1", "ok"), asking("s", call("extract", { a: "x" }, "x1"))],
    });
    const agent = createReactAgent({ llm, tools: [], postModelHook: hook, responseFormat: Format });
    const nodes: string[] = [];
    for await (const chunk of await agent.stream(question())) nodes.push(...Object.keys(chunk));
    expect(nodes).toEqual(["agent", "post_model_hook", "generate_structured_response"]);
  });
});
