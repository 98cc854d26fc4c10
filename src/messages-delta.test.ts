/**
 * messagesDeltaReducer, MessagesDeltaValue, DeltaValue, and graphs whose messages live in a
 * DeltaChannel, with MemorySaver and SqliteSaver: state values, the updates stream, ids,
 * RemoveMessage, Overwrite, history, time travel and forks. Expected values: @langchain/langgraph
 * 1.7.3 (probes /tmp/peerbench/probe-helperB/delta1.ts, delta2.ts, delta2sq.ts, misc.ts).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SqliteSaver } from "./checkpoint/sqlite/index.js";
import {
  Annotation,
  type BaseCheckpointSaver,
  DeltaChannel,
  DeltaValue,
  END,
  MemorySaver,
  MessagesDeltaValue,
  messagesDeltaReducer,
  Overwrite,
  REMOVE_ALL_MESSAGES,
  START,
  StateGraph,
  StateSchema,
  type StateSnapshot,
} from "./index.js";
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  HumanMessage,
  RemoveMessage,
} from "./messages/index.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `[type, content, "uuid" | id | null]` per message. */
function show(messages: readonly BaseMessage[]): [string, unknown, string | null][] {
  return messages.map((m) => [m.getType(), m.content, m.id == null ? null : UUID.test(m.id) ? "uuid" : m.id]);
}

describe("messagesDeltaReducer", () => {
  it("coerces message-likes, leaves missing ids alone when called directly", () => {
    const result = messagesDeltaReducer([], [new HumanMessage("hi"), { role: "ai", content: "yo" }, "str"]);
    expect(show(result)).toEqual([
      ["human", "hi", null],
      ["ai", "yo", null],
      ["human", "str", null],
    ]);
  });

  it("replaces by id, removes by id, and ignores a RemoveMessage for an unknown id", () => {
    const result = messagesDeltaReducer(
      [new HumanMessage({ content: "a", id: "1" })],
      [
        [new AIMessage({ content: "b", id: "2" })],
        new RemoveMessage({ id: "1" }),
        new RemoveMessage({ id: "zz" }),
      ],
    );
    expect(show(result)).toEqual([["ai", "b", "2"]]);
    const replaced = messagesDeltaReducer(
      [new HumanMessage({ content: "a", id: "1" }), new AIMessage({ content: "b", id: "2" })],
      [new HumanMessage({ content: "a2", id: "1" })],
    );
    expect(show(replaced)).toEqual([
      ["human", "a2", "1"],
      ["ai", "b", "2"],
    ]);
  });

  it("clears everything before a REMOVE_ALL_MESSAGES marker and stores chunks as whole messages", () => {
    const cleared = messagesDeltaReducer(
      [new HumanMessage({ content: "a", id: "1" })],
      [
        new AIMessage({ content: "b", id: "2" }),
        new RemoveMessage({ id: REMOVE_ALL_MESSAGES }),
        new AIMessage({ content: "c", id: "3" }),
      ],
    );
    expect(show(cleared)).toEqual([["ai", "c", "3"]]);
    const [whole] = messagesDeltaReducer([], [new AIMessageChunk({ content: "ch", id: "c1" })]);
    expect(whole?.constructor.name).toBe("AIMessage");
    expect(whole?.id).toBe("c1");
  });

  it("is batching-invariant", () => {
    const xs = [new HumanMessage({ content: "a", id: "1" }), new AIMessage({ content: "b", id: "2" })];
    const ys = [new RemoveMessage({ id: "1" }), new HumanMessage({ content: "c", id: "3" })];
    const once = messagesDeltaReducer([], [...xs, ...ys]);
    const twice = messagesDeltaReducer(messagesDeltaReducer([], xs), ys);
    expect(show(twice)).toEqual(show(once));
  });
});

describe("MessagesDeltaValue and DeltaValue", () => {
  it("MessagesDeltaValue has LangGraph.js's fields", () => {
    expect(Object.keys(MessagesDeltaValue)).toEqual([
      "valueSchema",
      "inputSchema",
      "reducer",
      "snapshotFrequency",
      "jsonSchemaExtra",
    ]);
    expect(MessagesDeltaValue.snapshotFrequency).toBeUndefined();
    expect(MessagesDeltaValue.jsonSchemaExtra).toEqual({
      langgraph_type: "messages",
      description: "A list of chat messages",
    });
    expect(DeltaValue.isInstance(MessagesDeltaValue)).toBe(true);
    expect(DeltaValue.isInstance({})).toBe(false);
    expect(MessagesDeltaValue.reducer).toBe(messagesDeltaReducer);
  });

  it("a DeltaValue field becomes a DeltaChannel seeded by the schema's default and validated by inputSchema", async () => {
    const history = new DeltaValue(
      z.array(z.string()).default(() => ["x"]),
      {
        inputSchema: z.string(),
        reducer: (current: string[], writes: string[]) => [...current, ...writes],
        snapshotFrequency: 5,
      },
    );
    const State = new StateSchema({ history, other: z.string().optional() });
    const channel = State.getChannels().history as DeltaChannel<string[], string>;
    expect(channel.lc_graph_name).toBe("DeltaChannel");
    expect(channel.snapshotFrequency).toBe(5);
    expect(channel.fromCheckpoint(undefined).get()).toEqual(["x"]);
    const graph = new StateGraph(State)
      .addNode("n", () => ({ history: "b" }))
      .addEdge(START, "n")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "1" } };
    expect(await graph.invoke({ history: "a" }, config)).toEqual({ history: ["x", "a", "b"] });
    await expect(
      graph.invoke({ history: 5 as unknown as string }, { configurable: { thread_id: "2" } }),
    ).rejects.toThrow('Validation failed for field "history"');
    expect(await graph.invoke({ history: new Overwrite(["o"]) }, config)).toEqual({ history: ["o", "b"] });
  });

  it("MessagesDeltaValue gives every message written an id", async () => {
    const State = new StateSchema({ messages: MessagesDeltaValue });
    const graph = new StateGraph(State)
      .addNode("n", () => ({ messages: [{ role: "ai", content: "x" }] }))
      .addEdge(START, "n")
      .compile();
    const result = await graph.invoke({ messages: [["user", "hi"]] });
    expect(show(result.messages)).toEqual([
      ["human", "hi", "uuid"],
      ["ai", "x", "uuid"],
    ]);
  });
});

function deltaGraph(saver: BaseCheckpointSaver) {
  const State = Annotation.Root({
    messages: new DeltaChannel(messagesDeltaReducer),
    n: Annotation<number>(),
  });
  let turn = 0;
  return new StateGraph(State)
    .addNode("a", (s) => {
      turn += 1;
      return { messages: [{ role: "ai", content: `a${turn}` }, `s${turn}`], n: s.messages.length };
    })
    .addNode("b", (s) => {
      const first = s.messages[0] as BaseMessage;
      if (turn === 2) return { messages: [new RemoveMessage({ id: first.id as string })] };
      if (turn === 3) return { messages: new Overwrite([new HumanMessage("reset")]) };
      return { messages: [] };
    })
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", END)
    .compile({ checkpointer: saver });
}

/** Plain values of an updates chunk, messages shown as `[type, content, "uuid"]`. */
function showUpdate(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(showUpdate);
  if (value !== null && typeof value === "object") {
    if (typeof (value as BaseMessage).getType === "function") return show([value as BaseMessage])[0];
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === "id" && UUID.test(String(v)) ? "uuid" : showUpdate(v)]),
    );
  }
  return value;
}

describe.each([
  ["MemorySaver", () => new MemorySaver()],
  ["SqliteSaver", () => SqliteSaver.fromConnString(":memory:")],
])("a graph with messages in a DeltaChannel (%s)", (_name, makeSaver) => {
  it("checkpoints, streams, resumes, time-travels and forks as LangGraph.js does", async () => {
    const graph = deltaGraph(makeSaver());
    expect(graph.channels.messages?.lc_graph_name).toBe("DeltaChannel");
    const config = { configurable: { thread_id: "t1" } };

    const r1 = await graph.invoke({ messages: [{ role: "user", content: "hi" }] }, config);
    expect(show(r1.messages)).toEqual([
      ["human", "hi", "uuid"],
      ["ai", "a1", "uuid"],
      ["human", "s1", "uuid"],
    ]);
    expect(r1.n).toBe(1);

    const updates: unknown[] = [];
    for await (const chunk of await graph.stream(
      { messages: "again" },
      { ...config, streamMode: "updates" },
    )) {
      updates.push(showUpdate(chunk));
    }
    // the plain message gets its id on a copy, the string becomes a message: before the stream
    expect(updates).toEqual([
      { a: { messages: [{ role: "ai", content: "a2", id: "uuid" }, ["human", "s2", "uuid"]], n: 4 } },
      { b: { messages: [["remove", [], "uuid"]] } },
    ]);
    const s2 = await graph.getState(config);
    expect(show(s2.values.messages)).toEqual([
      ["ai", "a1", "uuid"],
      ["human", "s1", "uuid"],
      ["human", "again", "uuid"],
      ["ai", "a2", "uuid"],
      ["human", "s2", "uuid"],
    ]);

    const r3 = await graph.invoke({ messages: [new HumanMessage("third")] }, config);
    expect(show(r3.messages)).toEqual([["human", "reset", "uuid"]]);
    expect(r3.n).toBe(6);

    const history: StateSnapshot[] = [];
    for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot);
    expect(
      history.map((h) => [
        h.metadata?.step,
        h.metadata?.source,
        (h.values as { messages: BaseMessage[] }).messages.length,
        h.next,
      ]),
    ).toEqual([
      [10, "loop", 1, []],
      [9, "loop", 8, ["b"]],
      [8, "loop", 6, ["a"]],
      [7, "input", 5, ["__start__"]],
      [6, "loop", 5, []],
      [5, "loop", 6, ["b"]],
      [4, "loop", 4, ["a"]],
      [3, "input", 3, ["__start__"]],
      [2, "loop", 3, []],
      [1, "loop", 3, ["b"]],
      [0, "loop", 1, ["a"]],
      [-1, "input", 0, ["__start__"]],
    ]);

    // time travel: new input on the end of the first run forks from there
    const target = history.find((h) => h.metadata?.step === 2) as StateSnapshot;
    const firstIds = (target.values as { messages: BaseMessage[] }).messages.map((m) => m.id);
    expect(firstIds).toEqual(r1.messages.map((m) => m.id));
    const travelled = await graph.invoke({ messages: "fork" }, target.config);
    expect(show(travelled.messages)).toEqual([
      ["human", "hi", "uuid"],
      ["ai", "a1", "uuid"],
      ["human", "s1", "uuid"],
      ["human", "fork", "uuid"],
      ["ai", "a4", "uuid"],
      ["human", "s4", "uuid"],
    ]);
    expect(travelled.messages.slice(0, 3).map((m) => m.id)).toEqual(firstIds);

    // a fork by updateState sees the first run's messages only
    const forked = await graph.updateState(target.config, { messages: [{ role: "user", content: "upd" }] });
    const forkState = await graph.getState(forked);
    expect(show(forkState.values.messages)).toEqual([
      ["human", "hi", "uuid"],
      ["ai", "a1", "uuid"],
      ["human", "s1", "uuid"],
      ["human", "upd", "uuid"],
    ]);
    expect(forkState.values.n).toBe(1);
    expect(forkState.next).toEqual([]);
    // the latest state of the thread is the fork's
    expect(show((await graph.getState(config)).values.messages)).toEqual(show(forkState.values.messages));
  });
});
