import { describe, expect, it } from "vitest";
import {
  Annotation,
  GraphValueError,
  getConfig,
  getCurrentTaskInput,
  getStore,
  getWriter,
  InMemoryStore,
  MessagesAnnotation,
  readCurrentState,
  Send,
  START,
  StateGraph,
} from "./index.js";
import { AIMessage, type BaseMessage, HumanMessage, RemoveMessage } from "./messages/index.js";

const State = Annotation.Root({
  i: Annotation<number>,
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

async function collect<T>(stream: Promise<AsyncIterable<T>>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of await stream) out.push(chunk);
  return out;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("free helpers inside nodes", () => {
  it("getConfig() is the node's config; getCurrentTaskInput() its input", async () => {
    let seen: unknown[] = [];
    const graph = new StateGraph(State)
      .addNode("a", (s, config) => {
        seen = [getConfig() === config, getConfig().metadata?.langgraph_node, getCurrentTaskInput(), s];
        return {};
      })
      .addEdge(START, "a")
      .compile();
    await graph.invoke({ i: 5 });
    expect(seen).toEqual([true, "a", { i: 5, log: [] }, { i: 5, log: [] }]);
  });

  it("getCurrentTaskInput(config) reads the task input from the node's config", async () => {
    let seen: unknown;
    const graph = new StateGraph(State)
      .addNode("a", (_s, config) => {
        seen = getCurrentTaskInput(config);
        return {};
      })
      .addEdge(START, "a")
      .compile();
    await graph.invoke({ i: 7 });
    expect(seen).toEqual({ i: 7, log: [] });
  });

  it("readCurrentState() gives a Send task the state its payload does not carry", async () => {
    const seen: unknown[] = [];
    const graph = new StateGraph(State)
      .addNode("plan", () => ({ log: ["planned"] }))
      .addNode("worker", (arg: unknown, config) => {
        // the input is the Send's argument; the state comes from the channels
        seen.push([arg, readCurrentState(config), readCurrentState()]);
        return { log: [`worker ${(arg as { n: number }).n}`] };
      })
      .addEdge(START, "plan")
      .addConditionalEdges("plan", () => [new Send("worker", { n: 1 }), new Send("worker", { n: 2 })])
      .compile();
    const out = await graph.invoke({ i: 7 });
    const state = { i: 7, log: ["planned"] };
    expect(seen).toEqual([
      [{ n: 1 }, state, state],
      [{ n: 2 }, state, state],
    ]);
    expect(out.log).toEqual(["planned", "worker 1", "worker 2"]);
    expect(readCurrentState()).toBeUndefined();
    expect(readCurrentState({})).toBeUndefined();
  });

  it("readCurrentState() includes the task's own writes so far", async () => {
    let after: unknown;
    const graph = new StateGraph(State)
      .addNode("a", async (_s, config) => {
        const writer = (config as { writer?: unknown }).writer;
        void writer;
        after = readCurrentState(config);
        return { i: 2 };
      })
      .addEdge(START, "a")
      .compile();
    await graph.invoke({ i: 1 });
    expect(after).toEqual({ i: 1, log: [] });
  });

  it("getWriter() streams custom chunks; it is a no-op when custom is not streamed", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => {
        getWriter()({ progress: 0.5 });
        return { i: 1 };
      })
      .addEdge(START, "a")
      .compile();
    expect(await collect(graph.stream({ i: 0 }, { streamMode: ["custom", "updates"] }))).toEqual([
      ["custom", { progress: 0.5 }],
      ["updates", { a: { i: 1 } }],
    ]);
    expect(await graph.invoke({ i: 0 })).toEqual({ i: 1, log: [] });
  });

  it("getStore() is the graph's store, or undefined without one", async () => {
    const store = { kind: "store" };
    const seen: unknown[] = [];
    const builder = new StateGraph(State)
      .addNode("a", () => {
        seen.push(getStore());
        return {};
      })
      .addEdge(START, "a");
    await builder.compile().invoke({ i: 0 });
    await builder.compile().invoke({ i: 0 }, { store: store as never });
    expect(seen).toEqual([undefined, store]);
  });

  it.each([
    ["getWriter", getWriter],
    ["getStore", getStore],
    ["getCurrentTaskInput", getCurrentTaskInput],
  ])(
    "%s() outside a node throws a clear GraphValueError, starting as LangGraph.js's error",
    (name, helper) => {
      expect(() => helper()).toThrow(GraphValueError);
      expect(() => helper()).toThrow(/^Config not retrievable\./);
      expect(() => helper()).toThrow(`${name}() was called outside of a graph node`);
    },
  );

  it("getConfig() outside a node returns undefined, as in LangGraph.js", () => {
    expect(getConfig()).toBeUndefined();
  });

  it("getStore and getWriter take the node's config, as in LangGraph.js", async () => {
    const store = new InMemoryStore();
    const seen: unknown[] = [];
    const graph = new StateGraph(State)
      .addNode("a", (_state, config) => {
        seen.push(getStore(config) === store, typeof getWriter(config));
        return {};
      })
      .addEdge(START, "a")
      .compile({ store });
    await graph.invoke({ i: 0 });
    expect(seen).toEqual([true, "function"]);
    // a config from outside a run is read as given
    expect(getStore({ store } as never)).toBe(store);
  });

  it("concurrent runs each see their own config through getConfig()", async () => {
    const graph = new StateGraph(State)
      .addNode("a", async () => {
        const before = getConfig().configurable?.who;
        await sleep(10);
        return { log: [`${before}/${getConfig().configurable?.who}`] };
      })
      .addEdge(START, "a")
      .compile();
    const results = await Promise.all(
      ["x", "y", "z"].map((who) => graph.invoke({ i: 0 }, { configurable: { who } })),
    );
    expect(results.map((r) => r.log)).toEqual([["x/x"], ["y/y"], ["z/z"]]);
  });
});

describe("graphs run inside a node function", () => {
  const Child = Annotation.Root({
    log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const child = new StateGraph(Child)
    .addNode("c", () => {
      getWriter()("from-child");
      return { log: ["c"] };
    })
    .addEdge(START, "c")
    .compile();

  it("invoke() without passing the config still nests under the calling node", async () => {
    const graph = new StateGraph(State)
      .addNode("a", async () => ({ log: (await child.invoke({ log: ["in"] })).log }))
      .addEdge(START, "a")
      .compile();
    expect(await graph.invoke({ i: 0 })).toEqual({ i: 0, log: ["in", "c"] });
    const chunks = (await collect(
      graph.stream({ i: 0 }, { subgraphs: true, streamMode: ["updates", "custom"] }),
    )) as [string[], string, unknown][];
    expect(chunks.map(([ns, mode]) => [ns.map((s) => s.split(":")[0]), mode])).toEqual([
      [["a"], "custom"],
      [["a"], "updates"],
      [[], "updates"],
    ]);
  });

  it("stream() inside a node yields the nested graph's values", async () => {
    let nested: unknown[] = [];
    const graph = new StateGraph(State)
      .addNode("a", async () => {
        nested = await collect(child.stream({ log: ["in"] }));
        return {};
      })
      .addEdge(START, "a")
      .compile();
    await graph.invoke({ i: 0 });
    expect(nested).toEqual([{ log: ["in"] }, { log: ["in", "c"] }]);
  });
});

describe("a node passing its config to a chat model", () => {
  it("type-checks and runs: model.invoke(state.messages, config), as LangGraph.js's docs write it", async () => {
    const { FakeChatModel } = await import("./testing/index.js");
    const model = new FakeChatModel({ responses: ["hello"] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("chat", async (state, config) => ({ messages: [await model.invoke(state.messages, config)] }))
      .addEdge(START, "chat")
      .compile();
    const out = await graph.invoke({ messages: [new HumanMessage("hi")] });
    expect(out.messages.map((m) => m.text)).toEqual(["hi", "hello"]);
  });
});

describe("MessagesAnnotation", () => {
  const view = (messages: BaseMessage[]) => messages.map((m) => [m.getType(), m.content]);

  it("is one messages key merged by the messages reducer", () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .compile();
    expect(graph.channels.messages?.constructor.name).toBe("BinaryOperatorAggregate");
  });

  it("coerces { role, content } objects and tuples to messages and assigns ids", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("a", (s) => ({ messages: [{ role: "assistant", content: `seen ${s.messages.length}` }] }))
      .addEdge(START, "a")
      .compile();
    const result = await graph.invoke({ messages: [{ role: "user", content: "hello" }, ["human", "again"]] });
    expect(view(result.messages)).toEqual([
      ["human", "hello"],
      ["human", "again"],
      ["ai", "seen 2"],
    ]);
    expect(result.messages.map((m) => m.id)).toEqual([
      expect.any(String),
      expect.any(String),
      expect.any(String),
    ]);
    expect(new Set(result.messages.map((m) => m.id)).size).toBe(3);
  });

  it("replaces a message with the same id and removes with RemoveMessage", async () => {
    const input = {
      messages: [new AIMessage({ content: "orig", id: "m1" }), new HumanMessage({ content: "x", id: "m2" })],
    };
    const edit = new StateGraph(MessagesAnnotation)
      .addNode("a", () => ({ messages: [new AIMessage({ content: "edited", id: "m1" })] }))
      .addEdge(START, "a")
      .compile();
    const edited = await edit.invoke(input);
    expect(edited.messages.map((m) => [m.id, m.content])).toEqual([
      ["m1", "edited"],
      ["m2", "x"],
    ]);
    const remove = new StateGraph(MessagesAnnotation)
      .addNode("a", () => ({ messages: [new RemoveMessage({ id: "m1" })] }))
      .addEdge(START, "a")
      .compile();
    expect((await remove.invoke(input)).messages.map((m) => m.id)).toEqual(["m2"]);
  });

  it("starts empty", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .compile();
    expect(await graph.invoke({ messages: [] })).toEqual({ messages: [] });
  });
});
