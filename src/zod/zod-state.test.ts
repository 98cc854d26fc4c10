import { describe, expect, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import { Command, MemorySaver, Overwrite, START, StateGraph } from "../graph/index.js";
import { MessagesZodMeta as RootMessagesZodMeta } from "../index.js";
import { AIMessage, type BaseMessage, HumanMessage } from "../messages/index.js";
import { MessagesZodMeta, MessagesZodState, registry, schemaMetaRegistry, withLangGraph } from "./index.js";

function channelClasses(graph: { channels: Record<string, object> }): string[] {
  return Object.entries(graph.channels).map(([key, channel]) => `${channel.constructor.name}:${key}`);
}

/** `registry`'s meta is typed over `unknown` values, so the reducer is written over `unknown` too. */
const concatStrings = (a: unknown, b: unknown) => (a as string[]).concat(b as string[]);

const view = (messages: BaseMessage[]) =>
  messages.map((m) => ({ type: m.getType(), content: m.content, id: m.id }));

describe("Zod object state", () => {
  it("gives registered fields a reducer and default, and plain fields a last-value channel", async () => {
    const State = z.object({
      q: z.string(),
      notes: z.array(z.string()).register(registry, {
        reducer: { fn: concatStrings },
        default: () => ["d"],
      }),
    });
    const graph = new StateGraph(State)
      .addNode("a", (s) => ({ notes: [`a:${s.q}`] }))
      .addNode("b", () => ({ notes: ["b"], q: "changed" }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    expect(await graph.invoke({ q: "x" })).toEqual({ q: "changed", notes: ["d", "a:x", "b"] });
    expect(await graph.invoke({ q: "x", notes: ["in"] })).toEqual({
      q: "changed",
      notes: ["d", "in", "a:x", "b"],
    });
    expect(channelClasses(graph)).toEqual([
      "LastValue:q",
      "BinaryOperatorAggregate:notes",
      "EphemeralValue:__start__",
      "Topic:__pregel_tasks",
      "EphemeralValue:branch:to:a",
      "EphemeralValue:branch:to:b",
    ]);
  });

  it("withLangGraph gives a field with a reducer its update schema as lg_reducer_schema", () => {
    const updates = z.number();
    const items = withLangGraph(z.array(z.number()), {
      reducer: { fn: (a: number[], b: number) => a.concat(b), schema: updates },
      default: () => [],
    });
    expect(items.lg_reducer_schema).toBe(updates);
    const plain = withLangGraph(z.array(z.number()), {
      reducer: { fn: (a: number[], b: number[]) => a.concat(b) },
    });
    expect(plain.lg_reducer_schema).toBe(plain);
    const noReducer = z.string();
    withLangGraph(noReducer, { default: () => "d" });
    expect("lg_reducer_schema" in noReducer).toBe(false);
  });

  it("withLangGraph attaches a reducer, so parallel writes combine", async () => {
    const State = z.object({
      items: withLangGraph(z.array(z.number()), {
        reducer: { fn: (a: number[], b: number[]) => a.concat(b) },
        default: () => [],
      }),
    });
    const graph = new StateGraph(State)
      .addNode("a", () => ({ items: [1] }))
      .addNode("b", () => ({ items: [2] }))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .compile();
    expect(await graph.invoke({ items: [0] })).toEqual({ items: [0, 1, 2] });
  });

  it("a reducer field without an explicit default uses the schema's .default()", async () => {
    const State = z.object({
      tags: z
        .array(z.string())
        .default(() => ["base"])
        .register(registry, { reducer: { fn: concatStrings } }),
    });
    const graph = new StateGraph(State)
      .addNode("a", () => ({ tags: ["a"] }))
      .addEdge(START, "a")
      .compile();
    expect(await graph.invoke({ tags: ["in"] })).toEqual({ tags: ["base", "in", "a"] });
  });

  it("a plain field with .default() starts from that default", async () => {
    const State = z.object({ count: z.number().default(3), y: z.string() });
    const graph = new StateGraph(State)
      .addNode("a", (s) => ({ y: `y${s.count}`, count: s.count + 1 }))
      .addEdge(START, "a")
      .compile();
    expect(await graph.invoke({ y: "q" })).toEqual({ count: 4, y: "y3" });
  });

  it("validates node updates against the schema", async () => {
    const State = z.object({ v: z.string() });
    const graph = new StateGraph(State)
      .addNode("a", () => ({ v: 5 }) as never)
      .addEdge(START, "a")
      .compile();
    const error = await graph.invoke({ v: "x" }).then(
      () => undefined,
      (e: unknown) => e as { issues?: { path: unknown[] }[] },
    );
    expect(error?.issues?.[0]?.path).toEqual(["v"]);
  });

  it("writes the parsed update: coerced, transformed, nested defaults filled, unknown nested keys stripped", async () => {
    const State = z.object({
      q: z.string(),
      n: z.coerce.number().optional(),
      tag: z
        .string()
        .transform((s) => s.toUpperCase())
        .optional(),
      o: z.object({ a: z.number().default(1), b: z.number() }).optional(),
      log: withLangGraph(z.array(z.string()), {
        reducer: { fn: (a: string[], b: string[]) => a.concat(b), schema: z.array(z.string()) },
        default: () => [],
      }),
    });
    const seen: unknown[] = [];
    const graph = new StateGraph(State)
      .addNode("a", () => ({ n: "5", tag: "low", o: { b: 2, junk: true } }) as never)
      .addNode("b", (state) => {
        seen.push({ ...state });
        return new Command({
          update: [
            ["tag", "cmd"],
            ["log", ["x"]],
            ["log", ["y"]],
          ],
        }) as never;
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    const updates: unknown[] = [];
    for await (const chunk of await graph.stream({ q: "x" }, { streamMode: "updates" })) updates.push(chunk);
    expect(updates[0]).toEqual({ a: { n: 5, tag: "LOW", o: { a: 1, b: 2 } } });
    expect(seen[0]).toEqual({ q: "x", n: 5, tag: "LOW", o: { a: 1, b: 2 }, log: [] });
    // a list-form command update writing one key twice keeps both writes, each parsed
    expect(await graph.invoke({ q: "x" })).toEqual({
      q: "x",
      n: 5,
      tag: "CMD",
      o: { a: 1, b: 2 },
      log: ["x", "y"],
    });
  });

  it("validates graph input against the schema", async () => {
    const State = z.object({ v: z.string() });
    const graph = new StateGraph(State)
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .compile();
    const error = await graph.invoke({ v: 5 } as never).then(
      () => undefined,
      (e: unknown) => e as { issues?: { path: unknown[] }[] },
    );
    expect(error?.issues?.[0]?.path).toEqual(["v"]);
  });
});

describe("validating updates of a Zod state (as LangGraph.js)", () => {
  const collect = async (stream: AsyncIterable<unknown>) => {
    const chunks: unknown[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    return chunks;
  };

  it("writes only the keys an update gives: defaults of the others are not written", async () => {
    const State = z.object({
      q: z.string().default("dq"),
      n: z.number().default(3),
      m: z.number().optional(),
    });
    const graph = new StateGraph(State)
      .addNode("a", (s) => ({ m: s.n + 1 }))
      .addNode("b", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    expect(await graph.invoke({ q: "x" })).toEqual({ q: "x", n: 3, m: 4 });
    expect(await collect(await graph.stream({ q: "x" }, { streamMode: ["updates", "values"] }))).toEqual([
      ["values", { q: "x", n: 3 }],
      ["updates", { a: { m: 4 } }],
      ["values", { q: "x", n: 3, m: 4 }],
      ["updates", { b: {} }],
    ]);
  });

  it("parallel updates through commands and lists do not write each other's defaults", async () => {
    const State = z.object({
      a: z.string().default("A"),
      b: z.number().default(1),
      c: z.number().optional(),
    });
    const graph = new StateGraph(State)
      .addNode("n", () => new Command({ update: { c: 2 }, goto: "m" }), { ends: ["m"] })
      .addNode("m", () => [new Command({ update: { a: "z" } }), { b: 7 }])
      .addEdge(START, "n")
      .compile();
    expect(await graph.invoke({ c: 1 })).toEqual({ a: "z", b: 7, c: 2 });
  });

  it("a plain update inside a list of commands is validated", async () => {
    const State = z.object({ c: z.number().optional() });
    const graph = new StateGraph(State)
      .addNode("m", () => [new Command({}), { c: "bad" }] as never)
      .addEdge(START, "m")
      .compile();
    await expect(graph.invoke({})).rejects.toMatchObject({ issues: [{ path: ["c"] }] });
  });

  it("reports the first invalid key of an update only", async () => {
    const State = z.object({ a: z.string(), b: z.number(), c: z.boolean() });
    const graph = new StateGraph(State)
      .addNode("n", () => ({ c: 1, b: "x" }) as never)
      .addEdge(START, "n")
      .compile();
    const error = (await graph.invoke({ a: "5" }).catch((e: unknown) => e)) as { issues: unknown[] };
    expect(error.issues).toEqual([expect.objectContaining({ path: ["c"], expected: "boolean" })]);
  });

  it("checks an Overwrite's value against the field's schema and writes it in JSON form", async () => {
    const items = z.array(z.string()).register(registry, {
      reducer: { fn: concatStrings, schema: z.array(z.string()) },
      default: () => [],
    });
    const State = z.object({
      items,
      t: z
        .string()
        .transform((x) => `${x}!`)
        .optional(),
    });
    const graph = new StateGraph(State)
      .addNode("n", () => ({ items: new Overwrite(["o"]), t: "a" }))
      .addEdge(START, "n")
      .compile();
    expect(
      await collect(await graph.stream({ items: ["i"] }, { streamMode: ["updates", "values"] })),
    ).toEqual([
      ["values", { items: ["i"] }],
      ["updates", { n: { items: { __overwrite__: ["o"] }, t: "a!" } }],
      ["values", { items: ["o"], t: "a!" }],
    ]);
    const bad = new StateGraph(State)
      .addNode("n", () => ({ items: new Overwrite(5) }) as never)
      .addEdge(START, "n")
      .compile();
    const error = (await bad.invoke({}).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain("Invalid input: expected array, received number");
  });

  it("an input that is not an object fails with the schema's error", async () => {
    const graph = new StateGraph(z.object({ q: z.string().optional() }))
      .addNode("n", () => ({}))
      .addEdge(START, "n")
      .compile();
    await expect(graph.invoke(["x"] as never)).rejects.toMatchObject({
      name: "ZodError",
      issues: [{ code: "invalid_type", expected: "object", path: [] }],
    });
    await expect(graph.invoke("x" as never)).rejects.toMatchObject({ name: "ZodError" });
  });

  it("an invalid input fails before the run saves anything", async () => {
    const graph = new StateGraph(z.object({ q: z.string() }))
      .addNode("n", () => ({}))
      .addEdge(START, "n")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "bad-input" } };
    const chunks: unknown[] = [];
    const run = async () => {
      for await (const chunk of await graph.stream({ q: 1 } as never, {
        ...config,
        streamMode: ["checkpoints", "values"],
      }))
        chunks.push(chunk);
    };
    await expect(run()).rejects.toMatchObject({ name: "ZodError" });
    expect(chunks).toEqual([]);
    const state = await graph.getState(config);
    expect(state.values).toEqual({});
    expect(state.next).toEqual([]);
  });

  it("validates the update of a Command given as the graph input, keeping only its keys", async () => {
    const State = z.object({ a: z.string().default("A"), c: z.number().optional() });
    const graph = new StateGraph(State)
      .addNode("n", () => ({}))
      .addEdge(START, "n")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    await graph.invoke({ c: 1, a: "given" }, config);
    expect(await graph.invoke(new Command({ update: { c: 5 } }), config)).toEqual({ a: "given", c: 5 });
    await expect(graph.invoke(new Command({ update: { c: "bad" } }), config)).rejects.toMatchObject({
      issues: [{ path: ["c"] }],
    });
  });
});

describe("Zod 3 object state (zod/v3), as LangGraph.js takes it", () => {
  it("builds channels, applies withLangGraph reducers and .default()s, and validates", async () => {
    const State = z3.object({
      q: z3.string(),
      items: withLangGraph(z3.array(z3.string()).default(["d"]), {
        reducer: { fn: (a: string[], b: string[]) => a.concat(b) },
      }),
    });
    const graph = new StateGraph(State)
      .addNode("a", (s) => ({ q: `${s.q}!`, items: ["a"] }))
      .addEdge(START, "a")
      .compile();
    expect(await graph.invoke({ q: "x" })).toEqual({ q: "x!", items: ["d", "a"] });
    await expect(graph.invoke({ q: 1 } as never)).rejects.toMatchObject({
      name: "ZodError",
      issues: [{ path: ["q"], message: "Expected string, received number" }],
    });
  });
});

it("takes reducers from the .langgraph plugin that importing agentgraph/zod installs", async () => {
  // as the docs' "Zod objects with Zod v3" example, which LangGraph.js runs once
  // `@langchain/langgraph/zod` is imported
  const State = z3.object({
    messages: z3
      .array(z3.custom<BaseMessage>())
      .default([])
      .langgraph.reducer((a: BaseMessage[], b: BaseMessage[]) => a.concat(b)),
    question: z3.string().optional(),
    count: z3
      .number()
      .default(0)
      .langgraph.reducer((a: number, b: number) => a + b),
    total: z3
      .number()
      .default(0)
      .langgraph.reducer((a: number, b: string) => a + Number(b), z3.string()),
  });
  const graph = new StateGraph(State)
    .addNode("n", () => ({ count: 2, total: "5", messages: [new AIMessage({ content: "x", id: "a" })] }))
    .addEdge(START, "n")
    .compile();
  const out = await graph.invoke({
    question: "q",
    count: 1,
    total: "2",
    messages: [new HumanMessage({ content: "hi", id: "h" })],
  });
  expect({ ...out, messages: view(out.messages) }).toEqual({
    question: "q",
    count: 3,
    total: 7,
    messages: [
      { type: "human", content: "hi", id: "h" },
      { type: "ai", content: "x", id: "a" },
    ],
  });
  const field = z3.string();
  expect(field.langgraph.metadata({ langgraph_type: "prompt" })).toBe(field);
});

describe("messages in Zod state", () => {
  it("MessagesZodState merges messages with the messages reducer and assigns ids", async () => {
    const graph = new StateGraph(MessagesZodState)
      .addNode("a", () => ({ messages: [{ role: "assistant", content: "hi" }] }) as never)
      .addEdge(START, "a")
      .compile();
    const result = await graph.invoke({ messages: [{ role: "user", content: "hello" }] } as never);
    expect(view(result.messages)).toEqual([
      { type: "human", content: "hello", id: expect.any(String) },
      { type: "ai", content: "hi", id: expect.any(String) },
    ]);
    expect(channelClasses(graph)[0]).toBe("BinaryOperatorAggregate:messages");
  });

  it("MessagesZodMeta is also exported by the root entry, as by @langchain/langgraph", async () => {
    expect(RootMessagesZodMeta).toBe(MessagesZodMeta);
    const State = z.object({
      messages: z.custom<BaseMessage[]>().register(registry, RootMessagesZodMeta),
    });
    const graph = new StateGraph(State)
      .addNode("a", () => ({ messages: [new AIMessage({ content: "r", id: "2" })] }))
      .addEdge(START, "a")
      .compile();
    const result = await graph.invoke({ messages: [new HumanMessage({ content: "q", id: "1" })] });
    expect(result.messages.map((m) => [m.type, m.content])).toEqual([
      ["human", "q"],
      ["ai", "r"],
    ]);
  });

  it("MessagesZodMeta on a custom field replaces messages by id and starts empty", async () => {
    const State = z.object({
      messages: z.custom<BaseMessage[]>().register(registry, MessagesZodMeta),
      n: z.number(),
    });
    const graph = new StateGraph(State)
      .addNode("a", () => ({ messages: [new AIMessage({ content: "edited", id: "m1" })] }))
      .addEdge(START, "a")
      .compile();
    const result = await graph.invoke({
      messages: [new AIMessage({ content: "orig", id: "m1" }), new HumanMessage({ content: "q", id: "h1" })],
      n: 1,
    });
    expect(view(result.messages)).toEqual([
      { type: "ai", content: "edited", id: "m1" },
      { type: "human", content: "q", id: "h1" },
    ]);
    const fresh = await graph.invoke({ n: 2 } as never);
    expect(view(fresh.messages)).toEqual([{ type: "ai", content: "edited", id: "m1" }]);
    expect(fresh.n).toBe(2);
  });

  it("MessagesZodMeta marks the field as messages for tooling", () => {
    expect(MessagesZodMeta.jsonSchemaExtra).toEqual({ langgraph_type: "messages" });
    expect(MessagesZodMeta.default?.()).toEqual([]);
  });
});

describe("registry types", () => {
  it("types a field's reducer and default by the field's schema", () => {
    const items = z
      .array(z.string())
      .register(registry, { reducer: { fn: (a, b) => a.concat(b) }, default: () => [] });
    const total = z.number().register(registry, { reducer: { fn: (a, b) => a + b } });
    // @ts-expect-error a reducer over strings does not fit a number field
    const wrong = z.number().register(registry, { reducer: { fn: (a: string, b: string) => a + b } });
    expect([items, total, wrong].every((schema) => registry.has(schema))).toBe(true);
  });

  it("types withLangGraph fields by the schema's value and the reducer's update", async () => {
    const State = z.object({
      items: withLangGraph(z.array(z.string()), {
        reducer: { fn: (a, b) => a.concat(b) },
        default: () => [],
      }),
      last: withLangGraph(z.array(z.string()), {
        reducer: { fn: (a, b: string) => [...a, b], schema: z.string() },
        default: () => [],
      }),
    });
    const graph = new StateGraph(State)
      .addNode("a", (state) => ({ items: [`${state.items.length}`], last: "z" }))
      .addEdge(START, "a")
      .compile();
    // @ts-expect-error `last` takes one string per update
    new StateGraph(State).addNode("b", () => ({ last: ["z"] }));
    expect(await graph.invoke({ items: ["a"] })).toEqual({ items: ["a", "1"], last: ["z"] });
  });

  it("types a graph's updates by the registered reducers, as LangGraph.js's register does", async () => {
    const State = z.object({
      messages: z.custom<BaseMessage[]>().register(registry, MessagesZodMeta),
      tags: z
        .array(z.string())
        // updates are checked against the reducer's schema when it has one (else the field's)
        .register(registry, {
          reducer: {
            fn: (a, b: string | string[]) => a.concat(b),
            schema: z.union([z.string(), z.array(z.string())]),
          },
          default: () => [],
        }),
      note: z.string().optional(),
    });
    const graph = new StateGraph(State)
      // a single message-like, a single tag and a plain field: what the reducers take
      .addNode("a", () => ({ messages: { role: "assistant", content: "Hello" }, tags: "a", note: "n" }))
      .addEdge(START, "a")
      .compile();
    // @ts-expect-error a plain field still takes only its own type
    new StateGraph(State).addNode("b", () => ({ note: 1 }));
    const out = await graph.invoke({ messages: "Hi", tags: ["start"] });
    const messages: BaseMessage[] = out.messages;
    const tags: string[] = out.tags;
    expect(messages.map((m) => [m.getType(), m.content])).toEqual([
      ["human", "Hi"],
      ["ai", "Hello"],
    ]);
    expect(tags).toEqual(["start", "a"]);
    // the same for a state built on MessagesZodState
    const Extended = MessagesZodState.extend({ turns: z.number() });
    const extended = new StateGraph(Extended)
      .addNode("a", (state) => ({ messages: [["ai", `turn ${state.turns}`]], turns: state.turns + 1 }))
      .addEdge(START, "a")
      .compile();
    const after = await extended.invoke({ messages: [{ role: "user", content: "go" }], turns: 1 });
    expect(after.messages.map((m) => m.content)).toEqual(["go", "turn 1"]);
    expect(after.turns).toBe(2);
  });
});

describe("registry", () => {
  it("behaves like a Zod registry: add, get, has, remove", () => {
    const field = z.string();
    const meta = { default: () => "x" };
    expect(registry.has(field)).toBe(false);
    field.register(registry, meta);
    expect(registry.has(field)).toBe(true);
    expect(registry.get(field)?.default?.()).toBe("x");
    registry.remove(field);
    expect(registry.has(field)).toBe(false);
  });
});

describe("schemaMetaRegistry.getExtendedChannelSchemas", () => {
  it("swaps in reducer schemas, writes jsonSchemaExtra into descriptions, makes fields optional", () => {
    const updates = z.union([z.string(), z.array(z.string())]);
    const State = z.object({
      items: z
        .array(z.string())
        .describe("the items")
        .register(registry, {
          reducer: { fn: concatStrings, schema: updates },
          default: () => [],
          jsonSchemaExtra: { langgraph_nodes: ["a"] },
        }),
      q: z.string(),
    });
    expect(schemaMetaRegistry.getExtendedChannelSchemas(State, {})).toBe(State);
    const effects = { withReducerSchema: true, withJsonSchemaExtrasAsDescription: true, asPartial: true };
    const extended = schemaMetaRegistry.getExtendedChannelSchemas(State, effects);
    expect(schemaMetaRegistry.getExtendedChannelSchemas(State, effects)).toBe(extended);
    expect(z.toJSONSchema(extended as z.ZodType)).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        items: {
          anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
          description: 'lg:{"langgraph_nodes":["a"],"description":"the items"}',
        },
        q: { type: "string" },
      },
      additionalProperties: false,
    });
  });
});

describe("a reducer field with a default", () => {
  it("starts from the default once when the input leaves the field out", async () => {
    const items = z
      .array(z.string())
      .default(() => ["seed"])
      .register(registry, {
        reducer: {
          fn: (left: unknown, right: unknown) => (left as string[]).concat(right as string[]),
          schema: z.array(z.string()),
        },
      });
    const graph = new StateGraph(z.object({ label: z.string(), items }))
      .addNode("add", () => ({ items: ["x"] }))
      .addEdge(START, "add")
      .compile();
    expect(await graph.invoke({ label: "l" })).toEqual({ label: "l", items: ["seed", "x"] });
    expect(await graph.invoke({ label: "l", items: ["given"] })).toEqual({
      label: "l",
      items: ["seed", "given", "x"],
    });
  });
});
