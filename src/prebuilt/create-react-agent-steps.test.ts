import { describe, expect, it } from "vitest";
import { Annotation, GraphRecursionError, START, StateGraph } from "../graph/index.js";
import { MemorySaver } from "../index.js";
import { AIMessage } from "../messages/index.js";
import { FakeChatModel } from "../testing/index.js";
import { type CreateReactAgentParams, createReactAgent } from "./create-react-agent.js";
import {
  answer,
  asking,
  call,
  lookup,
  outline,
  question,
  search,
} from "./create-react-agent.test-helpers.js";
import { NEED_MORE_STEPS } from "./create-react-agent-steps.js";

/** A model that asks for a search on every call, forever. */
function loopingModel(): FakeChatModel {
  const responses = Array.from({ length: 40 }, (_, i) =>
    asking(`a${i}`, call("search", { query: `q${i}` }, `c${i}`)),
  );
  return new FakeChatModel({ responses });
}

describe("executionInfo.remainingSteps", () => {
  it("counts down to 0 at the last step the recursion limit allows", async () => {
    for (const limit of [1, 3, 6]) {
      const seen: unknown[] = [];
      const graph = new StateGraph(Annotation.Root({ n: Annotation<number> }))
        .addNode("loop", (state, config) => {
          seen.push(config.executionInfo?.remainingSteps);
          return { n: state.n + 1 };
        })
        .addEdge(START, "loop")
        .addEdge("loop", "loop")
        .compile();
      await expect(graph.invoke({ n: 0 }, { recursionLimit: limit })).rejects.toThrow(GraphRecursionError);
      expect(seen).toEqual(Array.from({ length: limit }, (_, i) => limit - 1 - i));
    }
  });

  it("is the same for every task of a step", async () => {
    const seen: Record<string, unknown> = {};
    const graph = new StateGraph(Annotation.Root({ n: Annotation<number>({ reducer: (a, b) => a + b }) }))
      .addNode("a", (_s, config) => {
        seen.a = config.executionInfo?.remainingSteps;
        return { n: 1 };
      })
      .addNode("b", (_s, config) => {
        seen.b = config.executionInfo?.remainingSteps;
        return { n: 1 };
      })
      .addEdge(START, "a")
      .addEdge(START, "b")
      .compile();
    await graph.invoke({ n: 0 }, { recursionLimit: 7 });
    expect(seen).toEqual({ a: 6, b: 6 });
  });
});

describe("createReactAgent: remaining steps", () => {
  // Fresh run: the agent runs at steps 1, 3, 5, … with `limit - step` steps remaining; the run
  // ends normally only if its last node runs before step `limit`, so a tool round trip from
  // step s needs s + 2 < limit.
  const cases: Array<[limit: number, modelCalls: number]> = [
    [2, 1],
    [3, 1],
    [4, 2],
    [5, 2],
    [6, 3],
    [8, 4],
    [25, 12],
  ];
  for (const [limit, modelCalls] of cases) {
    it(`recursionLimit ${limit}: ${modelCalls - 1} tool round trip(s), then the apology instead of GraphRecursionError`, async () => {
      const llm = loopingModel();
      const out = await createReactAgent({ llm, tools: [search] }).invoke(question(), {
        recursionLimit: limit,
      });
      expect(llm.calls).toHaveLength(modelCalls);
      const last = out.messages.at(-1) as AIMessage;
      expect(last.content).toBe(NEED_MORE_STEPS);
      expect(last.tool_calls).toEqual([]);
      expect(last.id).toBe(`a${modelCalls - 1}`);
      expect(out.messages.filter((m) => m.getType() === "tool")).toHaveLength(modelCalls - 1);
    });
  }

  it("v2 stops at the same point", async () => {
    const llm = loopingModel();
    const out = await createReactAgent({ llm, tools: [search], version: "v2" }).invoke(question(), {
      recursionLimit: 6,
    });
    expect(llm.calls).toHaveLength(3);
    expect(outline(out.messages).at(-1)).toBe(`ai:${NEED_MORE_STEPS}`);
  });

  it("replaces the whole answer, keeping its id and the agent's name", async () => {
    const llm = new FakeChatModel({
      responses: [
        new AIMessage({
          id: "a1",
          content: "let me look",
          tool_calls: [call("search", { query: "q" }, "c1")],
        }),
      ],
    });
    const out = await createReactAgent({ llm, tools: [search], name: "bot" }).invoke(question(), {
      recursionLimit: 2,
    });
    const last = out.messages.at(-1) as AIMessage;
    expect([last.id, last.content, last.name, last.tool_calls.length]).toEqual([
      "a1",
      NEED_MORE_STEPS,
      "bot",
      0,
    ]);
  });

  it("keeps a final answer with a single step left", async () => {
    const llm = new FakeChatModel({ responses: [answer("a1", "done")] });
    const out = await createReactAgent({ llm, tools: [search] }).invoke(question(), { recursionLimit: 2 });
    expect(outline(out.messages)).toEqual(["human:hi", "ai:done"]);
  });

  it("cannot help when the limit leaves no step at all (as LangGraph.js)", async () => {
    const llm = new FakeChatModel({ responses: [answer("a1", "done")] });
    const agent = createReactAgent({ llm, tools: [search] });
    await expect(agent.invoke(question(), { recursionLimit: 1 })).rejects.toThrow(GraphRecursionError);
  });

  it("needs one step fewer when a call is return-direct (its result ends the run, as in LangGraph.js)", async () => {
    const direct = new FakeChatModel({ responses: [asking("a1", call("lookup", { key: "k" }, "c1"))] });
    const out = await createReactAgent({ llm: direct, tools: [search, lookup] }).invoke(question(), {
      recursionLimit: 3,
    });
    expect(outline(out.messages)).toEqual(["human:hi", "ai:", "tool:value of k"]);
    const mixed = new FakeChatModel({
      responses: [asking("a1", call("lookup", { key: "k" }, "c1"), call("search", { query: "q" }, "c2"))],
    });
    const out2 = await createReactAgent({ llm: mixed, tools: [search, lookup] }).invoke(question(), {
      recursionLimit: 3,
    });
    expect(outline(out2.messages)).toEqual(["human:hi", "ai:", "tool:value of k", "tool:results for q"]);
    const tooFew = new FakeChatModel({ responses: [asking("a1", call("lookup", { key: "k" }, "c1"))] });
    const out3 = await createReactAgent({ llm: tooFew, tools: [lookup] }).invoke(question(), {
      recursionLimit: 2,
    });
    expect(outline(out3.messages).at(-1)).toBe(`ai:${NEED_MORE_STEPS}`);
  });

  it("counts the hook nodes of the loop as steps", async () => {
    // pre hook at 1, agent at 2: a round trip needs post, tools, pre, agent, post (5 steps)
    for (const [limit, modelCalls] of [
      [4, 1],
      [7, 1],
      [8, 2],
      [11, 2],
      [12, 3],
    ] as const) {
      const llm = loopingModel();
      const agent = createReactAgent({
        llm,
        tools: [search],
        preModelHook: () => ({}),
        postModelHook: () => ({}),
      });
      const out = await agent.invoke(question(), { recursionLimit: limit });
      expect(outline(out.messages).at(-1)).toBe(`ai:${NEED_MORE_STEPS}`);
      expect(llm.calls).toHaveLength(modelCalls);
    }
  });

  it("leaves a step for the structured response", async () => {
    for (const [limit, modelCalls] of [
      [3, 1],
      [4, 1],
      [5, 2],
      [6, 2],
      [7, 3],
    ] as const) {
      const responses = [
        ...Array.from({ length: modelCalls - 1 }, (_, i) =>
          asking(`a${i}`, call("search", { query: "q" }, `c${i}`)),
        ),
        asking("last", call("search", { query: "q" }, "cx")),
        asking("s", call("extract", { ok: true }, "x")),
      ];
      const llm = new FakeChatModel({ responses });
      const agent = createReactAgent({
        llm,
        tools: [search],
        responseFormat: { type: "object", properties: {} },
      });
      const out = await agent.invoke(question(), { recursionLimit: limit });
      expect(outline(out.messages).at(-1)).toBe(`ai:${NEED_MORE_STEPS}`);
      expect(out.structuredResponse).toEqual({ ok: true });
      expect(llm.calls).toHaveLength(modelCalls + 1);
    }
  });

  it("keeps the answer when the apology cannot end the run in time either (fails as LangGraph.js, resumable)", async () => {
    // limit 1: the agent runs at the last step; limit 2 with a post hook: the hook would run at it
    for (const [limit, postModelHook] of [
      [1, undefined],
      [2, () => ({})],
    ] as const) {
      const llm = new FakeChatModel({
        responses: [asking("a1", call("search", { query: "q" }, "c1")), answer("a2", "ok")],
      });
      const agent = createReactAgent({
        llm,
        tools: [search],
        checkpointer: new MemorySaver(),
        ...(postModelHook === undefined ? {} : { postModelHook }),
      });
      const thread = { configurable: { thread_id: `t${limit}` }, recursionLimit: limit };
      await expect(agent.invoke(question(), thread)).rejects.toThrow(GraphRecursionError);
      const state = await agent.getState(thread);
      expect(outline(state.values.messages)).toEqual(["human:hi", "ai:"]);
      const out = await agent.invoke(null, { ...thread, recursionLimit: 25 });
      expect(outline(out.messages)).toEqual(["human:hi", "ai:", "tool:results for q", "ai:ok"]);
    }
  });

  it("counts only the steps before a static interrupt, which ends the run (as LangGraph.js, whose resumed run has a fresh limit)", async () => {
    const cases: Array<Pick<CreateReactAgentParams, "interruptBefore" | "interruptAfter">> = [
      { interruptBefore: ["tools"] },
      { interruptAfter: ["tools"] },
      { interruptAfter: ["agent"] },
    ];
    for (const interrupts of cases) {
      const llm = new FakeChatModel({
        responses: [asking("a1", call("search", { query: "q" }, "c1")), answer("a2", "ok")],
      });
      const agent = createReactAgent({
        llm,
        tools: [search],
        checkpointer: new MemorySaver(),
        ...interrupts,
      });
      const thread = { configurable: { thread_id: "t" }, recursionLimit: 2 };
      await agent.invoke(question(), thread);
      let state = await agent.getState(thread);
      while (state.next.length > 0) {
        await agent.invoke(null, thread);
        state = await agent.getState(thread);
      }
      expect(outline(state.values.messages)).toEqual(["human:hi", "ai:", "tool:results for q", "ai:ok"]);
    }
  });

  it("lets a run that ends with the apology go on in the next invoke", async () => {
    const llm = new FakeChatModel({
      responses: [
        asking("a1", call("search", { query: "q" }, "c1")),
        asking("a2", call("search", { query: "r" }, "c2")),
        answer("a3", "ok"),
      ],
    });
    const agent = createReactAgent({ llm, tools: [search] });
    const first = await agent.invoke(question(), { recursionLimit: 4 });
    expect(outline(first.messages).at(-1)).toBe(`ai:${NEED_MORE_STEPS}`);
    const again = await agent.invoke({ messages: first.messages }, { recursionLimit: 4 });
    expect(outline(again.messages).at(-1)).toBe("ai:ok");
  });
});
