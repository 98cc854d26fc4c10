import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  Annotation,
  Command,
  END,
  entrypoint,
  GraphRunStream,
  interrupt,
  MemorySaver,
  MessagesAnnotation,
  type ProtocolEvent,
  Send,
  START,
  STREAM_EVENTS_V3_MODES,
  StateGraph,
  StreamChannel,
  type StreamTransformer,
  SubgraphRunStream,
  task,
} from "../../index.js";
import { AIMessage, HumanMessage } from "../../messages/index.js";
import { ToolNode } from "../../prebuilt/index.js";
import { FakeChatModel } from "../../testing/index.js";
import { tool } from "../../tools/index.js";

const State = Annotation.Root({
  a: Annotation<string>(),
  n: Annotation<number>({ reducer: (x, y) => x + y, default: () => 0 }),
});

function twoNodes() {
  return new StateGraph(State)
    .addNode("one", (s, config) => {
      config.writer?.({ hi: 1 });
      return { a: `${s.a}1`, n: 1 };
    })
    .addNode("two", (s) => ({ a: `${s.a}2` }))
    .addEdge(START, "one")
    .addEdge("one", "two")
    .addEdge("two", END);
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** `method` and a short description of each event. */
function outline(events: ProtocolEvent[]): string[] {
  return events.map((e) => {
    const data = e.params.data as Record<string, unknown>;
    const ns = e.params.namespace.map((s) => s.split(":")[0]).join("/");
    const where = ns === "" ? "" : `@${ns}`;
    switch (e.method) {
      case "lifecycle":
        return `lifecycle${where} ${data.event} ${data.graph_name}`;
      case "checkpoints":
        return `checkpoints${where} ${data.step}`;
      case "tasks":
        return `tasks${where} ${data.name} ${"result" in data ? "result" : "start"}`;
      case "updates":
        return `updates${where} ${e.params.node}`;
      case "messages":
        return `messages${where} ${data.event}`;
      case "tools":
        return `tools${where} ${data.event}`;
      default:
        return `${e.method}${where}`;
    }
  });
}

describe("streamEvents v3", () => {
  it("streams the run as protocol events, in the order LangGraph.js sends them", async () => {
    const run = await twoNodes().compile().streamEvents({ a: "x" }, { version: "v3" });
    expect(run).toBeInstanceOf(GraphRunStream);
    const events = await collect(run);
    expect(outline(events)).toEqual([
      "lifecycle running root",
      "checkpoints 0",
      "values",
      "tasks one start",
      "custom",
      "updates one",
      "tasks one result",
      "checkpoints 1",
      "values",
      "tasks two start",
      "updates two",
      "tasks two result",
      "checkpoints 2",
      "values",
      "lifecycle completed root",
    ]);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    for (const event of events) {
      expect(event.type).toBe("event");
      expect(typeof event.params.timestamp).toBe("number");
      expect(event.params.namespace).toEqual([]);
    }
    expect(events[2]?.params.data).toEqual({ a: "x", n: 0 });
    expect(events[4]?.params.data).toEqual({ payload: { hi: 1 } });
    expect(events[5]?.params).toMatchObject({
      node: "one",
      data: { node: "one", values: { a: "x1", n: 1 } },
    });
    expect(events[1]?.params.data).toMatchObject({ step: 0, source: "loop" });
    expect(STREAM_EVENTS_V3_MODES).toEqual(["values", "updates", "messages", "tools", "custom", "tasks"]);
  });

  it("projects values, output and lifecycle, each replayable after the run", async () => {
    const run = await twoNodes().compile().streamEvents({ a: "x" }, { version: "v3" });
    expect(await run.output).toEqual({ a: "x12", n: 1 });
    expect(await collect(run.values)).toEqual([
      { a: "x", n: 0 },
      { a: "x1", n: 1 },
      { a: "x12", n: 1 },
    ]);
    expect(await run.values).toEqual({ a: "x12", n: 1 });
    expect((await collect(run.lifecycle)).map((e) => [e.event, e.graph_name, e.namespace])).toEqual([
      ["running", "root", []],
      ["completed", "root", []],
    ]);
    expect(await collect(run.subgraphs)).toEqual([]);
    expect(run.interrupted).toBe(false);
    expect(run.interrupts).toEqual([]);
    expect(run.path).toEqual([]);
    expect(run.extensions).toEqual({});
  });

  it("describes the saved checkpoints in the envelopes when the graph has a checkpointer", async () => {
    const graph = twoNodes().compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    const run = await graph.streamEvents({ a: "x" }, { version: "v3", ...config });
    const envelopes = (await collect(run))
      .filter((e) => e.method === "checkpoints")
      .map((e) => e.params.data);
    const history = [];
    for await (const snapshot of graph.getStateHistory(config)) history.unshift(snapshot);
    expect(envelopes).toEqual(
      history.slice(1).map((s) => ({
        id: s.config.configurable?.checkpoint_id,
        parent_id: s.parentConfig?.configurable?.checkpoint_id,
        step: s.metadata?.step,
        source: "loop",
      })),
    );
  });

  it("streams a model's tokens as message events under the node task, and groups them per message", async () => {
    const model = new FakeChatModel({ responses: [new AIMessage({ content: "hello there", id: "m1" })] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("llm", async (s) => ({ messages: [await model.invoke(s.messages)] }))
      .addEdge(START, "llm")
      .compile();
    const run = await graph.streamEvents(
      { messages: [new HumanMessage({ content: "hi", id: "h1" })] },
      { version: "v3" },
    );
    const messages = collect(run.messages);
    const events = (await collect(run)).filter((e) => e.method === "messages");
    const first = events[0];
    expect(first?.params.node).toBe("llm");
    expect(first?.params.namespace).toHaveLength(1);
    expect(first?.params.namespace[0]).toMatch(/^llm:/);
    const kinds = events.map((e) => (e.params.data as { event: string }).event);
    expect(kinds[0]).toBe("message-start");
    expect(kinds[1]).toBe("content-block-start");
    expect(kinds.slice(-2)).toEqual(["content-block-finish", "message-finish"]);
    expect(first?.params.data).toMatchObject({ event: "message-start", id: "m1" });
    expect(events.at(-2)?.params.data).toMatchObject({ content: { type: "text", text: "hello there" } });
    const [message] = await messages;
    expect(message?.node).toBe("llm");
    expect(await message?.text).toBe("hello there");
    const output = (await message?.output) as AIMessage;
    expect(output).toBeInstanceOf(AIMessage);
    expect(output.id).toBe("m1");
    expect(output.content).toEqual([{ type: "text", text: "hello there" }]);
    // the node task's namespace is a subgraph stream of its own, as in LangGraph.js
    const subgraphs = await collect(run.subgraphs);
    expect(subgraphs.map((s) => [s.name, s instanceof SubgraphRunStream])).toEqual([["llm", true]]);
  });

  it("filters messages by node and projects a streamed tool call", async () => {
    const caller = new FakeChatModel({
      responses: [
        new AIMessage({
          content: "",
          id: "c1",
          tool_calls: [{ name: "add", args: { a: 1 }, id: "call-1", type: "tool_call" }],
        }),
      ],
    });
    const talker = new FakeChatModel({ responses: [new AIMessage({ content: "done", id: "t1" })] });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("call", async (s) => ({ messages: [await caller.invoke(s.messages)] }))
      .addNode("talk", async (s) => ({ messages: [await talker.invoke(s.messages)] }))
      .addEdge(START, "call")
      .addEdge("call", "talk")
      .compile();
    const run = await graph.streamEvents({ messages: [] }, { version: "v3" });
    const fromTalk = await collect(run.messagesFrom("talk"));
    expect(await Promise.all(fromTalk.map((m) => m.text))).toEqual(["done"]);
    const [call] = await collect(run.messagesFrom("call"));
    expect(await call?.toolCalls).toEqual([{ type: "tool_call", id: "call-1", name: "add", args: { a: 1 } }]);
    expect(await call?.text).toBe("");
    const assembled = (await call?.output) as AIMessage;
    expect(assembled.tool_calls).toEqual([{ type: "tool_call", id: "call-1", name: "add", args: { a: 1 } }]);
  });

  it("streams a message a node returns whole, and leaves tool messages out of run.messages", async () => {
    const add = tool(async ({ a, b }: { a: number; b: number }) => String(a + b), {
      name: "add",
      description: "adds",
      schema: z.object({ a: z.number(), b: z.number() }),
    });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("agent", () => ({
        messages: [
          new AIMessage({
            content: "calling",
            id: "ai-1",
            tool_calls: [{ name: "add", args: { a: 1, b: 2 }, id: "call-1", type: "tool_call" }],
          }),
        ],
      }))
      .addNode("tools", new ToolNode([add]))
      .addEdge(START, "agent")
      .addEdge("agent", "tools")
      .compile();
    const run = await graph.streamEvents({ messages: [] }, { version: "v3" });
    const events = await collect(run);
    expect(outline(events).filter((e) => e.startsWith("messages") || e.startsWith("tools"))).toEqual([
      "messages@agent message-start",
      "messages@agent content-block-start",
      "messages@agent content-block-delta",
      "messages@agent content-block-finish",
      "messages@agent message-finish",
      "tools@tools tool-started",
      "tools@tools tool-finished",
    ]);
    const started = events.find((e) => e.method === "tools")?.params.data;
    expect(started).toMatchObject({ event: "tool-started", tool_call_id: "call-1", tool_name: "add" });
    expect(await Promise.all((await collect(run.messages)).map((m) => m.text))).toEqual(["calling"]);
    const final = (await run.output) as { messages: { id?: string }[] };
    // the tool message is not streamed, so it gets its id from the state's reducer
    expect(final.messages[1]?.id).not.toMatch(/^run-/);
  });

  it("discovers subgraphs and reports their lifecycle", async () => {
    const inner = new StateGraph(State)
      .addNode("leaf", () => ({ a: "leaf" }))
      .addEdge(START, "leaf")
      .compile();
    const graph = new StateGraph(State).addNode("sub", inner).addEdge(START, "sub").compile();
    const run = await graph.streamEvents({ a: "x" }, { version: "v3" });
    const subs = collect(run.subgraphs);
    const events = await collect(run);
    expect(outline(events)).toEqual([
      "lifecycle running root",
      "checkpoints 0",
      "values",
      "tasks sub start",
      "lifecycle@sub started sub",
      "checkpoints@sub 0",
      "values@sub",
      "tasks@sub leaf start",
      "updates@sub leaf",
      "tasks@sub leaf result",
      "checkpoints@sub 1",
      "values@sub",
      "updates sub",
      "tasks sub result",
      "lifecycle@sub completed sub",
      "checkpoints 1",
      "values",
      "lifecycle completed root",
    ]);
    const [sub] = await subs;
    if (sub === undefined) throw new Error("no subgraph stream");
    expect(sub?.name).toBe("sub");
    expect(sub?.index).toBe(0);
    expect(await sub?.output).toEqual({ a: "leaf", n: 0 });
    expect(await collect(sub.values)).toEqual([
      { a: "x", n: 0 },
      { a: "leaf", n: 0 },
    ]);
    expect((await collect(sub.lifecycle)).map((e) => e.event)).toEqual(["started", "completed"]);
    expect((await collect(sub)).every((e) => e.params.namespace.length > 0)).toBe(true);
  });

  it("streams a functional workflow, its step numbers as LangGraph.js counts them", async () => {
    const double = task("double", async (x: number) => x * 2);
    const workflow = entrypoint("wf", async (x: number) => (await double(x)) + 1);
    const run = await workflow.streamEvents(3, { version: "v3" });
    const events = await collect(run);
    expect(outline(events)).toEqual([
      "lifecycle running root",
      "tasks wf start",
      "tasks double start",
      "updates double",
      "tasks double result",
      "updates wf",
      "tasks wf result",
      "checkpoints 0",
      "values",
      "lifecycle completed root",
    ]);
    expect(await run.output).toBe(7);
  });

  it("reports interrupts and resumes", async () => {
    const graph = new StateGraph(State)
      .addNode("ask", () => ({ a: String(interrupt({ q: "ok?" })) }))
      .addEdge(START, "ask")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "i" } };
    const run = await graph.streamEvents({ a: "x" }, { version: "v3", ...config });
    const events = await collect(run);
    expect(outline(events).slice(-4)).toEqual([
      "updates __interrupt__",
      "values",
      "tasks ask result",
      "lifecycle completed root",
    ]);
    expect(run.interrupted).toBe(true);
    expect(run.interrupts).toEqual([{ interruptId: expect.any(String), payload: { q: "ok?" } }]);
    expect(await run.output).toEqual({
      __interrupt__: [{ id: run.interrupts[0]?.interruptId, value: { q: "ok?" } }],
    });
    const resumed = await graph.streamEvents(new Command({ resume: "yes" }), { version: "v3", ...config });
    expect(await resumed.output).toEqual({ a: "yes", n: 0 });
    expect(resumed.interrupted).toBe(false);
  });

  it("fails the iteration, the output and the lifecycle with the node's error", async () => {
    const graph = new StateGraph(State)
      .addNode("bad", () => {
        throw new Error("boom");
      })
      .addEdge(START, "bad")
      .compile();
    const run = await graph.streamEvents({ a: "x" }, { version: "v3" });
    const seen: ProtocolEvent[] = [];
    await expect(
      (async () => {
        for await (const event of run) seen.push(event);
      })(),
    ).rejects.toThrow("boom");
    await expect(run.output).rejects.toThrow("boom");
    expect(seen.at(-2)?.params.data).toMatchObject({ error: { message: "boom", name: "Error" } });
    expect(seen.at(-1)?.params.data).toEqual({ event: "failed", graph_name: "root", error: "boom" });
  });

  it("abort() cancels the run", async () => {
    const graph = new StateGraph(State)
      .addNode("slow", async (_s, config) => {
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, 2_000);
          config.signal?.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(new Error("stopped"));
          });
        });
        return { a: "late" };
      })
      .addEdge(START, "slow")
      .compile();
    const run = await graph.streamEvents({ a: "x" }, { version: "v3" });
    setTimeout(() => run.abort(), 20);
    await expect(run.output).rejects.toThrow();
    expect(run.signal.aborted).toBe(true);
  });

  it("runs call-site and compile-time transformers: projections, dropped events, remote channels", async () => {
    const counter = () => {
      const counts = StreamChannel.remote<{ n: number }>("counts");
      const local = StreamChannel.local<number>();
      let n = 0;
      let resolveTotal: (value: number) => void = () => {};
      const total = new Promise<number>((resolve) => {
        resolveTotal = resolve;
      });
      const transformer: StreamTransformer<{
        counts: StreamChannel<{ n: number }>;
        local: StreamChannel<number>;
        total: Promise<number>;
      }> = {
        init: () => ({ counts, local, total }),
        process(event) {
          if (event.method === "updates") {
            n += 1;
            counts.push({ n });
            local.push(n);
          }
          return event.method !== "custom";
        },
        finalize: () => resolveTotal(n),
      };
      return transformer;
    };
    const fromCompile = () => ({ init: () => ({ compiled: true }), process: () => true });
    const graph = twoNodes().compile({ transformers: [fromCompile] });
    const run = await graph.streamEvents({ a: "x" }, { version: "v3", transformers: [counter] });
    expect(Object.keys(run.extensions)).toEqual(["compiled", "counts", "local", "total"]);
    const events = await collect(run);
    const methods = events.map((e) => e.method);
    expect(methods.filter((m) => m === "custom:counts")).toHaveLength(2);
    // the transformer dropped the writer's custom event; the final value is sent as `custom`
    expect(events.filter((e) => e.method === "custom").map((e) => e.params.data)).toEqual([
      { name: "total", payload: 2 },
    ]);
    // a channel's item comes before the event that made the transformer push it
    expect(methods.indexOf("custom:counts")).toBe(methods.indexOf("updates") - 1);
    expect(await collect(run.extensions.counts)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await collect(run.extensions.local)).toEqual([1, 2]);
    expect(await run.extensions.total).toBe(2);
    // the compile-time transformers' projections are typed too, before the call's own, as in
    // LangGraph.js (tsc fails here when compile() drops their types)
    expect(run.extensions.compiled).toBe(true);
    expectTypeOf(run.extensions.compiled).toEqualTypeOf<boolean>();
    expectTypeOf(run.extensions.total).toEqualTypeOf<Promise<number>>();
    const compiledOnly = await graph.streamEvents({ a: "x" }, { version: "v3" });
    expectTypeOf(compiledOnly.extensions.compiled).toEqualTypeOf<boolean>();
    // typed as LangGraph.js types it: withConfig takes streamTransformers
    const withMore = graph.withConfig({
      streamTransformers: [() => ({ init: () => ({ more: 1 }), process: () => true })],
    });
    const second = await withMore.streamEvents({ a: "x" }, { version: "v3" });
    expect(Object.keys(second.extensions)).toEqual(["compiled", "more"]);
  });

  it("keeps a StreamChannel's state private: only channelName is an own key, as in LangGraph.js", () => {
    const named = new StreamChannel<number>("n");
    named.push(1);
    const local = StreamChannel.local<number>();
    local.push(2);
    expect(Object.keys(named)).toEqual(["channelName"]);
    expect(Object.keys(local)).toEqual(["channelName"]);
    expect(JSON.stringify(named)).toBe('{"channelName":"n"}');
    expect(JSON.stringify(local)).toBe("{}");
  });

  it("encodes the events as Server-Sent Events", async () => {
    const stream = await twoNodes()
      .compile()
      .streamEvents({ a: "x" }, { version: "v3", encoding: "text/event-stream" });
    const decoder = new TextDecoder();
    let text = "";
    for await (const bytes of stream) text += decoder.decode(bytes);
    const blocks = text.trim().split("\n\n");
    expect(blocks[0]).toBe('event: lifecycle\ndata: {"event":"running","graph_name":"root"}');
    expect(blocks[2]).toBe('event: values\ndata: {"a":"x","n":0}');
    expect(blocks.at(-1)).toBe('event: lifecycle\ndata: {"event":"completed","graph_name":"root"}');
  });
});

describe("checkpoint envelopes of nested graphs run side by side", () => {
  // LangGraph.js 1.7.3: resuming Sends to a subgraph that both paused, each nested graph's
  // snapshots (its input one included) come right after a `checkpoints` envelope of its own
  // namespace, steps 0 and 1; before, the second graph's input snapshot had none
  it("puts each nested graph's envelope before its snapshot", async () => {
    const Items = Annotation.Root({
      items: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
      n: Annotation<number>(),
    });
    const sub = new StateGraph(Items, { input: Items, output: Annotation.Root({ items: Items.spec.items }) })
      .addNode("s", (state) => ({ items: [`s${state.n}${String(interrupt(`q${state.n}`))}`] }))
      .addEdge(START, "s")
      .compile();
    const graph = new StateGraph(Items)
      .addNode("fan", () => ({}))
      .addNode("sub", sub)
      .addEdge(START, "fan")
      .addConditionalEdges("fan", () => [
        new Send("sub", { n: 1, items: [] }),
        new Send("sub", { n: 2, items: [] }),
      ])
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "send-envelopes" } };
    await graph.invoke({ items: [] }, config);
    const resume: Record<string, string> = {};
    for (const t of (await graph.getState(config)).tasks)
      for (const i of t.interrupts) if (i.id !== undefined) resume[i.id] = "ok";
    const run = (await graph.streamEvents(new Command({ resume }), {
      version: "v3",
      ...config,
    })) as GraphRunStream;
    const events: ProtocolEvent[] = [];
    for await (const event of run) events.push(event);
    const nested = new Map<string, string[]>();
    events.forEach((event, i) => {
      const ns = event.params.namespace;
      if (ns.length === 0 || event.method !== "values") return;
      const before = events[i - 1];
      const envelope =
        before?.method === "checkpoints" && before.params.namespace.join("|") === ns.join("|")
          ? `step ${(before.params.data as { step: number }).step}`
          : "none";
      nested.set(ns.join("|"), [...(nested.get(ns.join("|")) ?? []), envelope]);
    });
    expect([...nested.values()]).toEqual([
      ["step 0", "step 1"],
      ["step 0", "step 1"],
    ]);
    expect(await run.output).toEqual({ items: ["s1ok", "s2ok"] });
  });
});

describe("the checkpoint envelope of a resumed entrypoint's first snapshot", () => {
  // LangGraph.js 1.7.3: resuming an entrypoint, its `null` snapshot comes after an envelope of
  // the run's input checkpoint (`source: "input"`, step -1), which the next checkpoint names as
  // its parent; before, that snapshot had no envelope
  it("describes the input checkpoint", async () => {
    const workflow = entrypoint({ name: "wf", checkpointer: new MemorySaver() }, async (x: number) => {
      const more = interrupt("more?") as number;
      return x + more;
    });
    const config = { configurable: { thread_id: "resume-envelope" } };
    await workflow.invoke(1, config);
    const run = await workflow.streamEvents(new Command({ resume: 5 }), { version: "v3", ...config });
    const seen: unknown[] = [];
    for await (const event of run)
      if (event.method === "checkpoints" || event.method === "values")
        seen.push([event.method, event.params.data]);
    expect(seen).toEqual([
      ["checkpoints", { id: expect.any(String), source: "input", step: -1 }],
      ["values", null],
      ["checkpoints", { id: expect.any(String), parent_id: expect.any(String), source: "loop", step: 0 }],
      ["values", 6],
    ]);
    const [first, , last] = seen as [string, { id: string; parent_id?: string }][];
    expect(last?.[1].parent_id).toBe(first?.[1].id);
  });
});

describe("checkpoint envelopes of an unsaved graph inside a saved run", () => {
  // LangGraph.js 1.7.3: a checkpointer: false graph nested in a persisted run saves no
  // checkpoint, yet each of its snapshots comes after an envelope (a fresh id, its superstep, no
  // parent), as in a run without a checkpointer; before, its snapshots had none
  it("describes its snapshots by their supersteps", async () => {
    const Items = Annotation.Root({
      items: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    });
    const inner = new StateGraph(Items)
      .addNode("x", () => ({ items: ["x"] }))
      .addEdge(START, "x")
      .compile({ checkpointer: false });
    const middle = new StateGraph(Items)
      .addNode("inner", inner)
      .addEdge(START, "inner")
      .compile({ checkpointer: true });
    const graph = new StateGraph(Items)
      .addNode("middle", middle)
      .addEdge(START, "middle")
      .compile({ checkpointer: new MemorySaver() });
    const run = await graph.streamEvents(
      { items: [] },
      { version: "v3", configurable: { thread_id: "unsaved-envelopes" } },
    );
    const events: ProtocolEvent[] = [];
    for await (const event of run) events.push(event);
    const innermost = events.filter((e) => e.params.namespace.length === 2 && e.method !== "lifecycle");
    const shape = innermost
      .filter((e) => e.method === "checkpoints" || e.method === "values")
      .map((e) => [e.method, e.params.data]);
    expect(shape).toEqual([
      ["checkpoints", { id: expect.any(String), step: 0, source: "loop" }],
      ["values", { items: [] }],
      ["checkpoints", { id: expect.any(String), step: 1, source: "loop" }],
      ["values", { items: ["x"] }],
    ]);
  });
});
