/**
 * The checkpoint namespace of a functional-API task call nests in its caller's, as in
 * @langchain/langgraph 1.7.3 (probes q20, q21): `ep:<id>|task:<id>`.
 */
import { describe, expect, it } from "vitest";
import {
  Annotation,
  entrypoint,
  getConfig,
  getWriter,
  MemorySaver,
  START,
  StateGraph,
  type StreamEvent,
  task,
} from "../../index.js";
import { AIMessage, type BaseMessage } from "../../messages/index.js";
import { FakeChatModel } from "../../testing/index.js";

const State = Annotation.Root({
  v: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

describe("task call namespaces", () => {
  it("nest in the caller's: config, subgraph namespaces and stream namespaces", async () => {
    const sub = new StateGraph(State)
      .addNode("s1", (_s, config) => ({ v: [String(config.configurable?.checkpoint_ns)] }))
      .addEdge(START, "s1")
      .compile();
    const callSub = task("callsub", async () => {
      const result = await sub.invoke({ v: [] });
      return [...result.v, String(getConfig().configurable?.checkpoint_ns)];
    });
    const workflow = entrypoint({ name: "ep", checkpointer: new MemorySaver() }, async () => callSub());
    const chunks: [string[], unknown][] = [];
    for await (const chunk of await workflow.stream(1, {
      configurable: { thread_id: "ns1" },
      streamMode: "updates",
      subgraphs: true,
    })) {
      chunks.push(chunk as [string[], unknown]);
    }
    const [namespace] = chunks[0] ?? [[]];
    expect(namespace.map((segment) => segment.split(":")[0])).toEqual(["ep", "callsub"]);
    const final = chunks.at(-1)?.[1] as { ep: string[] };
    const [subNodeNs, callNs] = final.ep;
    expect(callNs).toMatch(/^ep:[0-9a-f-]+\|callsub:[0-9a-f-]+$/);
    expect(subNodeNs).toMatch(new RegExp(`^${callNs?.replace(/\|/g, "\\|")}\\|s1:`));
  });

  it("a model called in a task streams its messages at the entrypoint's level", async () => {
    const model = new FakeChatModel({
      responses: [new AIMessage({ content: "yo", id: "m1" }), new AIMessage({ content: "yo", id: "m1" })],
    });
    const callModel = task("callModel", async (text: string) =>
      model.invoke([{ role: "user", content: text }]),
    );
    const workflow = entrypoint({ name: "ep", checkpointer: new MemorySaver() }, async (text: string) => {
      const answer = await callModel(text);
      return answer.content;
    });
    for (const subgraphs of [false, true]) {
      const chunks: unknown[] = [];
      for await (const chunk of await workflow.stream("hi", {
        configurable: { thread_id: `ns3-${subgraphs}` },
        streamMode: "messages",
        subgraphs,
      })) {
        chunks.push(chunk);
      }
      const pairs = (
        subgraphs ? chunks.map((c) => c as [string[], unknown]) : chunks.map((c) => [[], c])
      ) as [string[], [BaseMessage, Record<string, unknown>]][];
      expect(pairs.length).toBeGreaterThan(0);
      for (const [namespace, [message, metadata]] of pairs) {
        expect(namespace).toEqual([]);
        expect(message.id).toBe("m1");
        expect(metadata.langgraph_node).toBe("callModel");
        expect(metadata.checkpoint_ns).toMatch(/^ep:[0-9a-f-]+\|callModel:[0-9a-f-]+$/);
      }
    }
  });

  it("a model called in a task carries the tag seq:step:1, one called in the entrypoint none", async () => {
    const model = new FakeChatModel({
      responses: ["in body", "in task", "nested", "again", "again", "again"],
    });
    const inner = task("inner", async (text: string) => (await model.invoke(text)).content);
    const outer = task("outer", async (text: string) => inner(text));
    const workflow = entrypoint({ name: "ep" }, async (text: string) => [
      (await model.invoke(text)).content,
      await inner(text),
      await outer(text),
    ]);
    // one entry per streamed message (the fake streams each answer in chunks under one id)
    const seen = new Map<unknown, [unknown, unknown]>();
    for await (const [message, metadata] of await workflow.stream("hi", {
      streamMode: "messages",
      tags: ["mine"],
    })) {
      seen.set(message.id, [metadata.langgraph_node, metadata.tags]);
    }
    expect([...seen.values()]).toEqual([
      ["ep", ["mine"]],
      ["inner", ["seq:step:1", "mine"]],
      ["inner", ["seq:step:1", "mine"]],
    ]);
    // the task's own run has no such tag
    const starts: [string, string[] | undefined][] = [];
    for await (const event of workflow.streamEvents("hi", { version: "v2" })) {
      if (event.event === "on_chain_start" && event.name === "inner") starts.push([event.name, event.tags]);
    }
    expect(starts).toEqual([
      ["inner", ["graph:step:0"]],
      ["inner", ["graph:step:0"]],
    ]);
  });

  it("streamEvents reports a call with that namespace and its returned value as output", async () => {
    const double = task("double", async (x: number) => x * 2);
    const workflow = entrypoint({ name: "ep", checkpointer: new MemorySaver() }, async (x: number) => {
      const a = await double(x);
      return a + (await double(a));
    });
    const events: StreamEvent[] = [];
    for await (const event of workflow.streamEvents(3, {
      version: "v2",
      configurable: { thread_id: "ns2" },
    })) {
      events.push(event);
    }
    const ends = events.filter((e) => e.event === "on_chain_end");
    expect(ends.map((e) => [e.name, e.data.output])).toEqual([
      ["double", 6],
      ["double", 12],
      // the entrypoint's hidden runs that take its result apart
      ["pluckReturnValue", 18],
      ["pluckSaveValue", 18],
      ["ep", 18],
      ["ep", 18],
    ]);
    const call = events.find((e) => e.event === "on_chain_start" && e.name === "double");
    expect(call?.metadata.checkpoint_ns).toMatch(/^ep:[0-9a-f-]+\|double:[0-9a-f-]+$/);
  });
});

describe("task call checkpoint maps", () => {
  it("add the caller's namespace, so a graph the call runs lists its caller among its parents", async () => {
    const sub = new StateGraph(State)
      .addNode("s1", () => ({ v: ["s1"] }))
      .addEdge(START, "s1")
      .compile();
    const callSub = task("callsub", async () => {
      await sub.invoke({ v: [] });
      return getConfig().configurable?.checkpoint_map as Record<string, string>;
    });
    const checkpointer = new MemorySaver();
    const workflow = entrypoint({ name: "ep", checkpointer }, async () => callSub());
    const map = await workflow.invoke(1, { configurable: { thread_id: "maps" } });
    const root = Object.values(map)[0];
    const callerNs = Object.keys(map).find((key) => key !== "") as string;
    expect(callerNs).toMatch(/^ep:/);
    expect(map).toEqual({ "": root, [callerNs]: root });
    for await (const tuple of checkpointer.list({ configurable: { thread_id: "maps" } })) {
      if (tuple.config.configurable?.checkpoint_ns !== "") {
        expect(tuple.metadata?.parents).toEqual({ "": root, [callerNs]: root });
      }
    }
  });
});

describe("task call custom chunks", () => {
  it("come from the caller's namespace, as in LangGraph.js", async () => {
    const inner = task("inner", () => {
      getWriter()?.("from inner");
      return 1;
    });
    const outer = task("outer", async () => {
      getWriter()?.("from outer");
      return inner();
    });
    const graph = new StateGraph(State)
      .addNode("n", async (_s, config) => {
        config.writer?.("from node");
        await outer();
        return {};
      })
      .addEdge(START, "n")
      .compile();
    const chunks: [string[], string][] = [];
    for await (const chunk of await graph.stream({ v: [] }, { streamMode: "custom", subgraphs: true })) {
      chunks.push(chunk as [string[], string]);
    }
    const names = chunks.map(([namespace, text]) => [namespace.map((s) => s.split(":")[0]), text]);
    expect(names).toEqual([
      [[], "from node"],
      [["n"], "from outer"],
      [["n", "outer"], "from inner"],
    ]);
    // without subgraphs they are streamed all the same
    const plain: unknown[] = [];
    for await (const chunk of await graph.stream({ v: [] }, { streamMode: "custom" })) plain.push(chunk);
    expect(plain).toEqual(["from node", "from outer", "from inner"]);
  });
});
