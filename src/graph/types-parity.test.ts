// Type-level parity with LangGraph.js 1.7.3: typical documentation programs that type-check
// against `@langchain/langgraph` must type-check against agentgraph too. Each case below is a
// gap found by type-checking the docs' snippets against both libraries (strict mode).
import { describe, expect, expectTypeOf, it } from "vitest";
import { z as z3 } from "zod/v3";
import { z } from "zod/v4";
import {
  Annotation,
  type AnyStateSchema,
  type BaseStore,
  Command,
  type CompiledGraphType,
  type ContextSchemaInit,
  END,
  type ExtractStateType,
  type ExtractUpdateType,
  entrypoint,
  type GraphNodeReturnValue,
  getStore,
  type InferInterruptInputType,
  type InferInterruptResumeType,
  type InferWriterType,
  InMemoryStore,
  type interrupt,
  type LangGraphRunnableConfig,
  MemorySaver,
  type Messages,
  MessagesAnnotation,
  type NodePolicyOptions,
  type NodeType,
  Overwrite,
  type PregelNode,
  type Runtime,
  Send,
  START,
  type StateDefinitionInit,
  StateGraph,
  type StateGraphAddNodeOptions,
  type StateGraphArgs,
  type StateGraphArgsWithInputOutputSchemas,
  type StateGraphArgsWithStateSchema,
  type StateGraphInit,
  StateSchema,
  type StreamedMessage,
  type StreamedMessageLike,
  type StreamMessageMetadata,
  type StreamMode,
  task,
  type writer,
} from "../index.js";
import { AIMessage, AIMessageChunk, type BaseMessage, HumanMessage } from "../messages/index.js";
import { MessagesZodMeta, type UpdateType, withLangGraph } from "../zod/index.js";

const messagesGraph = () =>
  new StateGraph(MessagesAnnotation)
    .addNode("agent", () => ({ messages: [new AIMessage("hi")] }))
    .addEdge(START, "agent")
    .compile();

describe("streamMode: messages", () => {
  it("types the streamed message as BaseMessage once the root entry is loaded", async () => {
    const graph = messagesGraph();
    expectTypeOf<StreamedMessage>().toEqualTypeOf<BaseMessage>();
    for await (const [msg, metadata] of await graph.stream({ messages: [] }, { streamMode: "messages" })) {
      expectTypeOf(msg).toEqualTypeOf<BaseMessage>();
      expectTypeOf(msg.content).not.toBeUnknown();
      expectTypeOf(msg.text).toBeString();
      expectTypeOf(metadata).toEqualTypeOf<StreamMessageMetadata>();
      if (AIMessageChunk.isInstance(msg)) expectTypeOf(msg.tool_call_chunks).not.toBeUnknown();
    }
  });

  it("types the metadata's known keys, as LangGraph.js programs read them (its metadata is `any`)", async () => {
    const graph = messagesGraph();
    const seen: [string, number, string, string[], string | undefined][] = [];
    for await (const [, metadata] of await graph.stream({ messages: [] }, { streamMode: "messages" })) {
      const node: string = metadata.langgraph_node;
      const step: number = metadata.langgraph_step + 0;
      const namespace: string = metadata.langgraph_checkpoint_ns.split(":")[0] ?? "";
      const triggers: string[] = metadata.langgraph_triggers;
      const provider: string | undefined = metadata.ls_provider;
      seen.push([node, step, namespace, triggers, provider]);
      expectTypeOf(metadata.tags).toEqualTypeOf<string[]>();
      expectTypeOf(metadata.thread_id).toBeUnknown();
    }
    expect(seen).toEqual([["agent", 1, "agent", ["branch:to:agent"], undefined]]);
  });

  it("types it in multi-mode and subgraph tuples too", async () => {
    const graph = messagesGraph();
    for await (const [mode, chunk] of await graph.stream(
      { messages: [] },
      { streamMode: ["messages", "updates"] },
    )) {
      if (mode === "messages") expectTypeOf(chunk[0]).toEqualTypeOf<BaseMessage>();
    }
    for await (const [ns, chunk] of await graph.stream(
      { messages: [] },
      { streamMode: "messages", subgraphs: true },
    )) {
      expectTypeOf(ns).toEqualTypeOf<string[]>();
      expectTypeOf(chunk[0]).toEqualTypeOf<BaseMessage>();
    }
  });

  it("the structural fallback (without the root entry) is satisfied by the message classes", () => {
    expectTypeOf<BaseMessage>().toExtend<StreamedMessageLike>();
    expectTypeOf<AIMessage>().toExtend<StreamedMessageLike>();
    expectTypeOf<AIMessageChunk>().toExtend<StreamedMessageLike>();
    expectTypeOf<StreamedMessageLike["content"]>().not.toBeUnknown();
    // @ts-expect-error -- a plain object is not a streamed message
    const notAMessage: StreamedMessageLike = { content: "x" };
    void notAMessage;
  });
});

describe("streamMode: updates", () => {
  it("keys each chunk by the graph's nodes, not by __start__ (the input is not reported)", async () => {
    const graph = new StateGraph(Annotation.Root({ a: Annotation<number>, b: Annotation<string> }))
      .addNode("n1", () => ({ a: 1 }))
      .addNode("n2", () => ({ b: "x" }))
      .addEdge(START, "n1")
      .addEdge("n1", "n2")
      .compile();
    const keys: string[] = [];
    for await (const chunk of await graph.stream({ a: 0 }, { streamMode: "updates" })) {
      expectTypeOf<keyof typeof chunk>().toEqualTypeOf<"n1" | "n2">();
      // @ts-expect-error -- no chunk is keyed __start__
      void chunk.__start__;
      keys.push(...Object.keys(chunk));
    }
    expect(keys).toEqual(["n1", "n2"]);
  });
});

describe("streamMode typed as one mode or a list", () => {
  it("yields [mode, payload] pairs of every mode (custom's unknown payload no longer swallows the rest)", async () => {
    const graph = new StateGraph(Annotation.Root({ n: Annotation<number> }))
      .addNode("inc", (s) => ({ n: s.n + 1 }))
      .addEdge(START, "inc")
      .compile();
    const streamMode = ["values", "updates"] as StreamMode | StreamMode[];
    for await (const [mode, payload] of await graph.stream({ n: 1 }, { streamMode })) {
      if (mode === "values") expectTypeOf(payload).toEqualTypeOf<{ n: number }>();
      if (mode === "custom") expectTypeOf(payload).toBeUnknown();
    }
    for await (const [ns, mode] of await graph.stream({ n: 1 }, { streamMode, subgraphs: true })) {
      expectTypeOf(ns).toEqualTypeOf<string[]>();
      expectTypeOf(mode).toEqualTypeOf<StreamMode>();
    }
  });
});

describe("node signatures", () => {
  it("a Send target may take its own input type (map-reduce)", async () => {
    const State = Annotation.Root({
      subjects: Annotation<string[]>,
      jokes: Annotation<string[]>({ reducer: (a, b) => a.concat(b) }),
    });
    const graph = new StateGraph(State)
      .addNode("generateJoke", (state: { subject: string }) => ({ jokes: [`Joke about ${state.subject}`] }))
      .addConditionalEdges(START, (s) => s.subjects.map((subject) => new Send("generateJoke", { subject })))
      .addEdge("generateJoke", END)
      .compile();
    expectTypeOf(await graph.invoke({ subjects: ["cats"] })).toHaveProperty("jokes");
    new StateGraph(State)
      // @ts-expect-error -- the update must still fit the state
      .addNode("bad", (_state: { subject: string }) => ({ jokes: 1 }));
  });

  it("a node may return keys the state does not declare, its private channels (pass_private_state)", async () => {
    const Overall = Annotation.Root({ question: Annotation<string>, answer: Annotation<string> });
    const QueryOutput = Annotation.Root({ query: Annotation<string> });
    // tsc rejected these nodes before: their updates share no key with the state
    const graph = new StateGraph(Overall)
      .addNode("generate_query", async (state: typeof Overall.State) => ({ query: `${state.question}?` }))
      .addNode("retrieve", async (state: typeof QueryOutput.State) => ({ answer: state.query }), {
        input: QueryOutput,
      })
      .addEdge(START, "generate_query")
      .addEdge("generate_query", "retrieve")
      .compile();
    expect(await graph.invoke({ question: "How are you" })).toEqual({
      question: "How are you",
      answer: "How are you?",
    });
    new StateGraph(Overall)
      // @ts-expect-error -- the state's own keys keep their types
      .addNode("bad", () => ({ answer: 1, query: "q" }));
  });

  it("infers the context type from a Zod context schema (Runtime<Context>)", () => {
    const ContextSchema = z.object({ llm: z.enum(["openai", "anthropic"]) });
    const State = Annotation.Root({ out: Annotation<string> });
    const graph = new StateGraph(State, ContextSchema)
      .addNode("node", (_state, runtime: Runtime<z.infer<typeof ContextSchema>>) => ({
        out: runtime.context?.llm ?? "none",
      }))
      .addEdge(START, "node")
      .compile();
    expectTypeOf(graph.invoke).toBeFunction();
    new StateGraph(State, ContextSchema)
      // @ts-expect-error -- the node's context type must match the schema's
      .addNode("node", (_state, runtime: Runtime<{ llm: number }>) => ({
        out: String(runtime.context?.llm),
      }));
  });

  it("config.store is a store nodes can call", () => {
    const node = async (_state: typeof MessagesAnnotation.State, config: LangGraphRunnableConfig) => {
      const found = await config.store?.search(["memories", "1"], { query: "food", limit: 3 });
      await config.store?.put(["memories", "1"], "k", { data: "pizza" });
      const item = await config.store?.get(["memories", "1"], "k");
      return { messages: [{ role: "assistant", content: `${found?.length} ${String(item?.value.data)}` }] };
    };
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("n", node)
      .addEdge(START, "n")
      .compile({ store: new InMemoryStore() });
    expectTypeOf(graph.invoke).toBeFunction();
  });

  it("getStore() is a BaseStore", () => {
    const inNode = () => getStore();
    expectTypeOf<ReturnType<typeof inNode>>().toEqualTypeOf<BaseStore | undefined>();
  });

  it("an update may Overwrite a reduced key", () => {
    const State = Annotation.Root({
      items: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    });
    new StateGraph(State)
      .addNode("a", () => new Command({ goto: [new Send("b", { items: ["x"] })] }), { ends: ["b"] })
      .addNode("b", () => ({ items: new Overwrite(["reset"]) }))
      .addEdge(START, "a");
    // @ts-expect-error -- the overwritten value must have the key's type
    new StateGraph(State).addNode("c", () => ({ items: new Overwrite(1) }));
  });
});

describe("functional API", () => {
  it("streams [mode, chunk] tuples for a list of modes", async () => {
    const addOne = task("addOne", async (n: number) => n + 1);
    const main = entrypoint(
      { name: "main", checkpointer: new MemorySaver() },
      async (inputs: { x: number }) => {
        return (await addOne(inputs.x)) + 1;
      },
    );
    const stream = await main.stream(
      { x: 1 },
      { streamMode: ["custom", "updates"], configurable: { thread_id: "1" } },
    );
    for await (const [mode] of stream) expectTypeOf(mode).toEqualTypeOf<"custom" | "updates">();
  });

  it("types an entrypoint's chunks by the stream mode: updates by name, values as it returns", async () => {
    const one = task("one", (input: string) => ({ one: `one(${input})` }));
    const graph = entrypoint("graph", async (query: { input: string }) => ({
      foo: [await one(query.input)],
    }));
    for await (const chunk of await graph.stream({ input: "x" })) {
      expectTypeOf(chunk).toEqualTypeOf<{ [name: string]: unknown }>();
    }
    for await (const value of await graph.stream({ input: "x" }, { streamMode: "values" })) {
      expectTypeOf(value.foo).toEqualTypeOf<{ one: string }[]>();
    }
    for await (const [ns, mode, payload] of await graph.stream(
      { input: "x" },
      { streamMode: ["updates", "values"], subgraphs: true },
    )) {
      expectTypeOf(ns).toEqualTypeOf<string[]>();
      if (mode === "values") expectTypeOf(payload).toEqualTypeOf<{ foo: { one: string }[] }>();
    }
  });
});

describe("streamEvents v3", () => {
  it("types each item of run.messages as the message's stream, not as what awaiting it gives", async () => {
    const graph = messagesGraph();
    const run = await graph.streamEvents({ messages: [] }, { version: "v3" });
    for await (const message of run.messages) {
      expectTypeOf(message.node).toEqualTypeOf<string | undefined>();
      expectTypeOf(message.text).toMatchTypeOf<AsyncIterable<string>>();
      expectTypeOf(await message.text).toBeString();
    }
  });
});

describe("Zod 3 (zod/v3) object schemas", () => {
  it("type the state, the updates and the invoke input, reducer fields by their reducer", async () => {
    const State = z3.object({
      messages: withLangGraph(z3.custom<BaseMessage[]>(), MessagesZodMeta),
      count: z3.number().default(0),
      note: z3.string().optional(),
    });
    const node = (state: { messages: BaseMessage[]; count: number }) => ({
      messages: "hello",
      count: state.count + 1,
    });
    const graph = new StateGraph(State).addNode({ node }).addEdge(START, "node").compile();
    const result = await graph.invoke({ messages: [new HumanMessage("hi")], count: 1 });
    expectTypeOf(result.messages).toEqualTypeOf<BaseMessage[]>();
    expectTypeOf(result.count).toEqualTypeOf<number>();
    expectTypeOf(result.note).toEqualTypeOf<string | undefined>();
    new StateGraph(State)
      // @ts-expect-error -- count is a number
      .addNode("bad", () => ({ count: "one" }));
  });

  it("type the context of a Zod 3 context schema", () => {
    const State = z3.object({ out: z3.string() });
    const Context = z3.object({ userId: z3.string() });
    new StateGraph(State, Context).addNode("node", (_state, runtime: Runtime<z3.infer<typeof Context>>) => {
      expectTypeOf(runtime.context?.userId).toEqualTypeOf<string | undefined>();
      return { out: runtime.context?.userId ?? "" };
    });
    new StateGraph(State, Context)
      // @ts-expect-error -- the node's context type must match the schema's
      .addNode("node", (_state, runtime: Runtime<{ userId: number }>) => ({
        out: String(runtime.context?.userId),
      }));
  });

  it("agentgraph/zod's UpdateType takes what the reducer takes, for Zod 3 and Zod 4 objects", () => {
    const V3 = z3.object({ messages: withLangGraph(z3.custom<BaseMessage[]>(), MessagesZodMeta) });
    const V4 = z.object({ messages: withLangGraph(z.custom<BaseMessage[]>(), MessagesZodMeta) });
    expectTypeOf<{ messages?: Messages }>().toExtend<UpdateType<typeof V3>>();
    expectTypeOf<{ messages?: Messages }>().toExtend<UpdateType<typeof V4>>();
  });
});

describe("the legacy channel map typed by its state (time-travel how-to)", () => {
  interface IState {
    messages: BaseMessage[];
    step?: number;
  }

  it("StateGraphArgs<State>['channels'] types the map, and new StateGraph<State>({ channels }) that state", async () => {
    const graphState: StateGraphArgs<IState>["channels"] = {
      messages: { value: (x: BaseMessage[], y: BaseMessage[]) => x.concat(y), default: () => [] },
      step: null,
    };
    const graph = new StateGraph<IState>({ channels: graphState })
      .addNode("agent", (state: IState) => ({ messages: [new AIMessage(`seen ${state.messages.length}`)] }))
      .addEdge(START, "agent")
      .addConditionalEdges("agent", (state: IState) => (state.messages.length > 9 ? "agent" : END))
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    const result = await graph.invoke({ messages: [new HumanMessage("hi")] }, config);
    expectTypeOf(result.messages).toEqualTypeOf<BaseMessage[]>();
    expect(result.messages.map((m) => m.text)).toEqual(["hi", "seen 1"]);
    const snapshot = await graph.getState(config);
    expectTypeOf(snapshot.values.messages).toEqualTypeOf<BaseMessage[]>();
    const sum = (x: number, y: number) => x + y;
    // @ts-expect-error -- messages are BaseMessage[]
    const wrong: StateGraphArgs<IState>["channels"] = { messages: { value: sum } };
    expect(wrong).toBeDefined();
  });
});

describe("LangGraph.js's type names, exported by the root", () => {
  const State = Annotation.Root({
    count: Annotation<number>,
    names: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const Query = z.object({ q: z.string() });

  it("ExtractStateType / ExtractUpdateType read any schema form, and fall back for other types", () => {
    expectTypeOf<ExtractStateType<typeof State>>().toEqualTypeOf<{ count: number; names: string[] }>();
    expectTypeOf<ExtractStateType<typeof Query>>().toEqualTypeOf<{ q: string }>();
    expectTypeOf<ExtractStateType<{ a: number }>>().toEqualTypeOf<{ a: number }>();
    const update: ExtractUpdateType<typeof State> = { names: ["x"] };
    const partial: ExtractUpdateType<{ a: number }> = {};
    expect([update, partial]).toHaveLength(2);
  });

  it("NodeType, GraphNodeReturnValue, StateGraphInit and the schema constraints", () => {
    const node: NodeType<typeof State.spec> = (state) => ({ count: state.count + 1 });
    const ret: GraphNodeReturnValue<ExtractUpdateType<typeof State>, "a"> = { count: 2 };
    const init: StateGraphInit<typeof State> = { state: State, nodes: ["a"] };
    const schemas: StateDefinitionInit[] = [State, Query, new StateSchema({ n: z.number() })];
    const anySchema: AnyStateSchema = new StateSchema({ n: z.number() });
    const context: ContextSchemaInit = Query;
    const policies: NodePolicyOptions = { retryPolicy: { maxAttempts: 2 }, cachePolicy: true };
    const addOptions: StateGraphAddNodeOptions<"a"> = { ends: ["a"], timeout: 1000 };
    expect([node, ret, init, schemas, anySchema, context, policies, addOptions]).toHaveLength(8);
    expect(new StateGraph({ state: State, nodes: ["a"] }).addNode("a", node)).toBeDefined();
  });

  it("new StateGraph({ state }) (and { stateSchema }, { input }) types nodes and results by that schema", async () => {
    const Counter = Annotation.Root({ x: Annotation<number> });
    const graph = new StateGraph({ state: Counter })
      .addNode("n", (s) => {
        expectTypeOf(s.x).toEqualTypeOf<number>();
        return { x: s.x + 1 };
      })
      .addEdge(START, "n")
      .compile();
    const out = await graph.invoke({ x: 1 });
    expectTypeOf(out.x).toEqualTypeOf<number>();
    expect(out.x).toBe(2);
    const legacy = new StateGraph({ stateSchema: Counter }).addNode("n", (s) => ({ x: s.x * 2 }));
    const inputOnly = new StateGraph({ input: Counter }).addNode("n", (s) => ({ x: s.x - 1 }));
    const run = async (g: { invoke(input: { x: number }): Promise<{ x: number }> }) =>
      (await g.invoke({ x: 3 })).x;
    expect(await run(legacy.addEdge(START, "n").compile())).toBe(6);
    expect(await run(inputOnly.addEdge(START, "n").compile())).toBe(2);
  });

  it("StateGraphArgs<State>['channels'] types a legacy channel map, as LangGraph.js's older docs write it", async () => {
    interface Legacy {
      messages: string[];
      count: number;
    }
    const channels: StateGraphArgs<Legacy>["channels"] = {
      messages: { value: (x: string[], y: string[]) => x.concat(y), default: () => [] },
      count: null,
    };
    const graph = new StateGraph<Legacy>({ channels })
      .addNode("a", (state: Legacy) => ({ count: state.count + 1 }))
      .addEdge(START, "a")
      .compile();
    expect(await graph.invoke({ messages: ["x"], count: 0 })).toEqual({ messages: ["x"], count: 1 });
    const withSchema: StateGraphArgsWithStateSchema<typeof State.spec, typeof State.spec, typeof State.spec> =
      {
        stateSchema: State,
      };
    const inputOutput: StateGraphArgsWithInputOutputSchemas<typeof State.spec> = {
      input: State,
      output: State,
    };
    expect([withSchema, inputOutput]).toHaveLength(2);
  });

  it("typed interrupt and writer functions, and CompiledGraphType / PregelNode", () => {
    type Ask = typeof interrupt<{ question: string }, boolean>;
    expectTypeOf<InferInterruptInputType<Ask>>().toEqualTypeOf<{ question: string }>();
    expectTypeOf<InferInterruptResumeType<Ask>>().toEqualTypeOf<boolean>();
    type Both = { ask: Ask; pick: typeof interrupt<number, string> };
    expectTypeOf<InferInterruptInputType<Both>>().toEqualTypeOf<{ question: string } | number>();
    expectTypeOf<InferInterruptResumeType<Both>>().toEqualTypeOf<boolean | string>();
    expectTypeOf<InferWriterType<typeof writer<{ progress: number }>>>().toEqualTypeOf<{
      progress: number;
    }>();
    const graph = new StateGraph(State)
      .addNode("a", (state) => ({ count: state.count }))
      .addEdge(START, "a")
      .compile();
    type Spec = {
      node: "a" | typeof START;
      state: ExtractStateType<typeof State>;
      update: ExtractUpdateType<typeof State>;
    };
    const typed: CompiledGraphType<Spec> = graph;
    const pregelNode: PregelNode | undefined = graph.nodes.a;
    expect([typed, pregelNode]).toHaveLength(2);
  });
});
