import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  AgentGraphError,
  BaseLangGraphError,
  Command,
  type ConditionalEdgeRouter,
  END,
  entrypoint,
  type GraphNode,
  getSchemaDefaultGetter,
  isStandardSchema,
  MemorySaver,
  MessagesValue,
  Overwrite,
  ReducedValue,
  START,
  StateGraph,
  StateGraphInputError,
  StateSchema,
  UntrackedValue,
  UntrackedValueChannel,
  writer,
} from "./index.js";
import { AIMessage, type BaseMessage } from "./messages/index.js";

// Expected values are what @langchain/langgraph 1.7.3 returns for the same programs.
const State = new StateSchema({
  messages: MessagesValue,
  question: z.string(),
  count: new ReducedValue(z.number().default(0), { reducer: (a: number, b: number) => a + b }),
  tags: new ReducedValue(
    z.array(z.string()).default(() => []),
    {
      inputSchema: z.string(),
      reducer: (a: string[], b: string) => [...a, b],
    },
  ),
  note: z.string().default("none"),
  cache: new UntrackedValue(z.number().default(7)),
});

function twoNodeGraph() {
  return new StateGraph(State)
    .addNode("a", (s) => ({
      messages: [new AIMessage({ content: `got ${s.question}`, id: "a1" })],
      count: 2,
      tags: "x",
      note: `${s.note}!`,
    }))
    .addNode("b", (s) => ({ count: 3, tags: "y", cache: s.cache + 1 }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", END)
    .compile({ checkpointer: new MemorySaver() });
}

describe("StateSchema", () => {
  it("makes channels from schemas, reduced values, messages and untracked values", async () => {
    const graph = twoNodeGraph();
    const config = { configurable: { thread_id: "1" } };
    const out = await graph.invoke(
      { question: "hi", messages: [{ role: "user", content: "hello", id: "h1" }] },
      config,
    );
    expect(out.messages.map((m: BaseMessage) => [m.getType(), m.content, m.id])).toEqual([
      ["human", "hello", "h1"],
      ["ai", "got hi", "a1"],
    ]);
    expect(out).toMatchObject({ question: "hi", count: 5, tags: ["x", "y"], note: "none!", cache: 8 });
    // the untracked field is not checkpointed: a snapshot shows its initial value
    const snapshot = await graph.getState(config);
    expect(snapshot.values).toMatchObject({ count: 5, tags: ["x", "y"], note: "none!", cache: 7 });
    expect(snapshot.next).toEqual([]);
  });

  it("validates graph input field by field, with LangGraph.js's message", async () => {
    const graph = twoNodeGraph();
    await expect(
      graph.invoke({ question: 5 as unknown as string }, { configurable: { thread_id: "2" } }),
    ).rejects.toThrow(
      /^Validation failed for field "question": \[\{"expected":"string","code":"invalid_type"/,
    );
    // a reduced field's input is checked by its input schema
    await expect(
      graph.invoke({ question: "q", tags: 5 as unknown as string }, { configurable: { thread_id: "3" } }),
    ).rejects.toThrow('Validation failed for field "tags"');
  });

  it("validates node updates, and an Overwrite by the value's schema", async () => {
    const bad = new StateGraph(State)
      .addNode("a", () => ({ count: "nope" as unknown as number }))
      .addEdge(START, "a")
      .compile();
    await expect(bad.invoke({ question: "q" })).rejects.toThrow('Validation failed for field "count"');

    const overwrite = new StateGraph(State)
      .addNode("a", () => ({ tags: new Overwrite(["z"]), count: new Overwrite(10) }))
      .addEdge(START, "a")
      .compile();
    expect(await overwrite.invoke({ question: "q", tags: "first" })).toMatchObject({
      tags: ["z"],
      count: 10,
    });

    const overwriteBad = new StateGraph(State)
      .addNode("a", () => ({ tags: new Overwrite("not a list" as unknown as string[]) }))
      .addEdge(START, "a")
      .compile();
    await expect(overwriteBad.invoke({ question: "q" })).rejects.toThrow(
      'Validation failed for field "tags"',
    );
  });

  it("takes a separate input schema", async () => {
    const Input = new StateSchema({ question: z.string() });
    const graph = new StateGraph({ state: State, input: Input })
      .addNode("a", (s) => ({ note: s.question }))
      .addEdge(START, "a")
      .compile();
    expect(await graph.invoke({ question: "qq" })).toMatchObject({ note: "qq", count: 0, tags: [] });
    await expect(graph.invoke({ question: 3 as unknown as string })).rejects.toThrow(
      'Validation failed for field "question"',
    );
  });

  it("rejects a field that is not a schema, a value type or a channel", () => {
    expect(() => new StateSchema({ x: 5 as never })).toThrow('Invalid state field "x"');
    expect(() => new ReducedValue(z.number(), {} as never)).toThrow("needs a `reducer` function");
  });

  it("lists its keys and validates input like LangGraph.js", async () => {
    expect(State.getChannelKeys()).toEqual(["messages", "question", "count", "tags", "note", "cache"]);
    expect(StateSchema.isInstance(State)).toBe(true);
    expect(StateSchema.isInstance({ fields: {} })).toBe(false);
    expect(ReducedValue.isInstance(MessagesValue)).toBe(true);
    expect(await State.validateInput({ question: "x", count: 1, other: 1 })).toEqual({
      question: "x",
      count: 1,
      other: 1,
    });
    await expect(State.validateInput({ question: 1 })).rejects.toThrow(
      'Validation failed for field "question"',
    );
  });

  it("uses LangGraph.js's channel classes and keeps the old channel API of UntrackedValue", () => {
    const graph = twoNodeGraph();
    const names = Object.fromEntries(
      ["messages", "question", "count", "note", "cache"].map((k) => [k, graph.channels[k]?.constructor.name]),
    );
    expect(names).toEqual({
      messages: "BinaryOperatorAggregate",
      question: "LastValue",
      count: "BinaryOperatorAggregate",
      note: "LastValue",
      cache: "UntrackedValueChannel",
    });
    expect(graph.channels.cache).toBeInstanceOf(UntrackedValue);
    expect(new UntrackedValueChannel()).toBeInstanceOf(UntrackedValue);
    const channel = new UntrackedValue<number>({ guard: false, initialValueFactory: () => 1 });
    expect(channel.get()).toBe(1);
    expect(channel.update([2, 3])).toBe(true);
    expect(channel.get()).toBe(3);
  });

  it("exposes the Standard Schema helpers", () => {
    expect(isStandardSchema(z.string())).toBe(true);
    expect(isStandardSchema({})).toBe(false);
    expect(getSchemaDefaultGetter(z.number().default(4))?.()).toBe(4);
    expect(getSchemaDefaultGetter(z.number())).toBeUndefined();
    // a mutable default is made afresh for every run, never shared between them
    const list = getSchemaDefaultGetter(z.array(z.string()).default(() => []));
    expect(list?.()).toEqual([]);
    expect(list?.()).not.toBe(list?.());
  });

  it("types the state, the updates and standalone nodes", () => {
    expectTypeOf<typeof State.State>().toEqualTypeOf<{
      messages: BaseMessage[];
      question: string;
      count: number;
      tags: string[];
      note: string;
      cache: number;
    }>();
    expectTypeOf<typeof State.Update.tags>().toEqualTypeOf<string | Overwrite<string[]> | undefined>();
    const node: GraphNode<typeof State> = (state) => ({ count: state.count + 1 });
    const route: ConditionalEdgeRouter<typeof State, Record<string, unknown>, "a"> = (state) =>
      state.count > 1 ? END : "a";
    const graph = new StateGraph(State)
      .addNode("a", node)
      .addEdge(START, "a")
      .addConditionalEdges("a", route);
    expect(graph).toBeInstanceOf(StateGraph);
    // @ts-expect-error count is a number
    const wrong: GraphNode<typeof State> = () => ({ count: "one" });
    expect(wrong).toBeTypeOf("function");
  });

  it("types standalone nodes and routers given a type bag, as the docs' GraphNode examples", async () => {
    // LangGraph.js's GraphNode<{ InputSchema; Nodes }> and ConditionalEdgeRouter<{ InputSchema; Nodes }>
    const Counter = new StateSchema({ count: z.number().default(0), result: z.string().optional() });
    const routerNode: GraphNode<{ InputSchema: typeof Counter; Nodes: "process" | "done" }> = (state) =>
      state.count >= 2
        ? new Command({ goto: "done" })
        : new Command({ update: { count: state.count + 1 }, goto: "process" });
    const router: ConditionalEdgeRouter<{ InputSchema: typeof Counter; Nodes: "process" | "done" }> = (
      state,
    ) => (state.count > 5 ? END : "process");
    expectTypeOf<Parameters<typeof router>[0]>().toEqualTypeOf<typeof Counter.State>();
    const graph = new StateGraph(Counter)
      .addNode("check", routerNode, { ends: ["process", "done"] })
      .addNode("process", () => ({}))
      .addNode("done", () => ({ result: "done" }))
      .addEdge(START, "check")
      .addConditionalEdges("process", router)
      .compile();
    expect(await graph.invoke({ count: 2 })).toEqual({ count: 2, result: "done" });
  });
});

describe("an invalid graph input", () => {
  it("fails before the run saves anything", async () => {
    const S = new StateSchema({ q: z.string() });
    const graph = new StateGraph(S)
      .addNode("n", () => ({ q: "y" }))
      .addEdge(START, "n")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    await expect(graph.invoke({ q: 1 } as never, config)).rejects.toThrow('Validation failed for field "q"');
    const state = await graph.getState(config);
    expect(state.values).toEqual({});
    expect(state.next).toEqual([]);
  });
});

describe("a Command given as the graph input", () => {
  it("has its update validated field by field", async () => {
    const S = new StateSchema({ a: z.string().default("A"), c: z.number().optional() });
    const graph = new StateGraph(S)
      .addNode("n", () => ({}))
      .addEdge(START, "n")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    await graph.invoke({ c: 1 }, config);
    expect(await graph.invoke(new Command({ update: { c: 5 } }), config)).toEqual({ a: "A", c: 5 });
    await expect(graph.invoke(new Command({ update: { c: "bad" } }), config)).rejects.toThrow(
      'Validation failed for field "c": [{"expected":"number","code":"invalid_type","path":[],"message":"Invalid input: expected number, received string"}]',
    );
  });
});

describe("LangGraph.js names around the state", () => {
  it("StateGraphInputError for what is not a schema, with LangGraph.js's first sentence", () => {
    const make = (schema: unknown) => () => new StateGraph(schema as never);
    expect(make(undefined)).toThrow(StateGraphInputError);
    expect(make(5)).toThrow(
      /^Invalid StateGraph input\. Make sure to pass a valid StateDefinition, Annotation\.Root, or Zod schema\./,
    );
    expect(BaseLangGraphError).toBe(AgentGraphError);
    expect(make(5)).toThrow(BaseLangGraphError);
  });

  it("writer() writes to the custom stream of the running task", async () => {
    const flow = entrypoint({ name: "flow", checkpointer: new MemorySaver() }, async (n: number) => {
      writer({ got: n });
      return n + 1;
    });
    const chunks: unknown[] = [];
    for await (const chunk of await flow.stream(1, {
      streamMode: "custom",
      configurable: { thread_id: "w" },
    })) {
      chunks.push(chunk);
    }
    expect(chunks).toEqual([{ got: 1 }]);
    expect(() => writer("outside")).toThrow("outside of a graph node");
  });
});
