// Parity checks found by running LangGraph.js's remaining test files (typed_state, errors,
// pregel.io/read/cancellation/utils, constants, checkpointer, exec, zod, utils) against agentgraph.
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  Annotation,
  Command,
  MessagesAnnotation,
  Send,
  START,
  StateGraph,
  StateGraphInputError,
} from "../index.js";
import { AIMessageChunk, type BaseMessage, HumanMessage } from "../messages/index.js";
import {
  BaseChatModel,
  type CallbackManagerForLLMRun,
  ChatGenerationChunk,
  type ChatResult,
} from "../models/index.js";
import type { LegacyChannels } from "./builder/index.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A node that waits `ms` unless its signal aborts first (then rejects with the signal's reason). */
function waitFor(ms: number, record: { aborted?: unknown; finished?: boolean }) {
  return (_state: unknown, config: { signal?: AbortSignal }) =>
    new Promise<Record<string, never>>((resolve, reject) => {
      const timer = setTimeout(() => {
        record.finished = true;
        resolve({});
      }, ms);
      config.signal?.addEventListener("abort", () => {
        clearTimeout(timer);
        record.aborted = config.signal?.reason;
        reject(config.signal?.reason);
      });
    });
}

describe("run option `timeout` (LangChain.js RunnableConfig)", () => {
  const State = Annotation.Root({
    steps: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
  });

  it("aborts the run and the running node's signal with a TimeoutError once it elapses", async () => {
    const record: { aborted?: unknown; finished?: boolean } = {};
    let laterRan = false;
    const graph = new StateGraph(State)
      .addNode("slow", waitFor(500, record))
      .addNode("later", () => {
        laterRan = true;
        return { steps: ["later"] };
      })
      .addEdge(START, "slow")
      .addEdge("slow", "later")
      .compile();

    const started = Date.now();
    const error = await graph.invoke({}, { timeout: 20 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeLessThan(400);
    expect((error as Error).name).toBe("TimeoutError");
    expect((record.aborted as Error).name).toBe("TimeoutError");
    expect(record.finished).toBeUndefined();
    await sleep(50);
    expect(laterRan).toBe(false);
  });

  it("also applies to stream(), a subgraph node and a graph invoked inside a node", async () => {
    const record: { aborted?: unknown } = {};
    const inner = new StateGraph(State)
      .addNode("slow", waitFor(500, record))
      .addEdge(START, "slow")
      .compile();
    const asNode = new StateGraph(State).addNode("inner", inner).addEdge(START, "inner").compile();
    const chunks: unknown[] = [];
    const streamed = await (async () => {
      for await (const chunk of await asNode.stream({}, { timeout: 20 })) chunks.push(chunk);
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((streamed as Error).name).toBe("TimeoutError");
    expect(chunks).toEqual([]);

    // a graph run inside a node takes the node's signal, timeout included
    const record2: { aborted?: unknown } = {};
    const inner2 = new StateGraph(State)
      .addNode("slow", waitFor(500, record2))
      .addEdge(START, "slow")
      .compile();
    const calling = new StateGraph(State)
      .addNode("call", async () => {
        await inner2.invoke({});
        return {};
      })
      .addEdge(START, "call")
      .compile();
    const error = await calling.invoke({}, { timeout: 20 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error).name).toBe("TimeoutError");
    expect((record2.aborted as Error).name).toBe("TimeoutError");
  });

  it("combines with the caller's signal: whichever fires first aborts the run", async () => {
    const record: { aborted?: unknown } = {};
    const graph = new StateGraph(State)
      .addNode("slow", waitFor(500, record))
      .addEdge(START, "slow")
      .compile();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stopped by caller")), 10);
    const error = await graph.invoke({}, { timeout: 300, signal: controller.signal }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe("stopped by caller");
  });

  it("is recorded as metadata.timeoutMs, is not passed on as `timeout`, and must be positive", async () => {
    let seen:
      | { metadata: Record<string, unknown> | undefined; timeout: unknown; hasSignal: boolean }
      | undefined;
    const graph = new StateGraph(State)
      .addNode("look", (_state, config) => {
        seen = {
          metadata: config.metadata,
          timeout: (config as { timeout?: unknown }).timeout,
          hasSignal: config.signal !== undefined,
        };
        return {};
      })
      .addEdge(START, "look")
      .compile();
    await graph.invoke({}, { timeout: 5_000 });
    expect(seen?.metadata?.timeoutMs).toBe(5_000);
    expect(seen?.timeout).toBeUndefined();
    expect(seen?.hasSignal).toBe(true);

    for (const bad of [0, -1]) {
      await expect(graph.invoke({}, { timeout: bad })).rejects.toThrow(/^Timeout must be a positive number/);
    }
  });

  it("records configurable.model as metadata.model, as LangChain.js's ensureConfig does", async () => {
    const seen: unknown[] = [];
    const graph = new StateGraph(State)
      .addNode("look", (_state, config) => {
        seen.push(config.metadata);
        return {};
      })
      .addEdge(START, "look")
      .compile();
    const config = { configurable: { model: "gpt-x", thread_id: "t" }, metadata: { mine: 1 } };
    await graph.invoke({}, config);
    // LangGraph.js 1.7.3's node sees the model after the caller's metadata, before the ids
    expect(seen[0]).toMatchObject({ ls_integration: "langgraph", mine: 1, model: "gpt-x", thread_id: "t" });
    expect(Object.keys(seen[0] as object).slice(0, 4)).toEqual([
      "ls_integration",
      "mine",
      "model",
      "thread_id",
    ]);
    // the caller's config is left as given (LangChain.js adds the key to the caller's metadata)
    expect(config.metadata).toEqual({ mine: 1 });
    // metadata set by the caller wins; a model given as an object is not recorded
    await graph.invoke({}, { configurable: { model: "gpt-x" }, metadata: { model: "mine" } });
    await graph.invoke({}, { configurable: { model: { name: "x" } } });
    expect((seen[1] as Record<string, unknown>).model).toBe("mine");
    expect((seen[2] as Record<string, unknown>).model).toBeUndefined();
  });

  it("gives streamEvents' graph events the model and timeout metadata its nodes see", async () => {
    const graph = new StateGraph(State)
      .addNode("look", () => ({}))
      .addEdge(START, "look")
      .compile();
    const metadataOf = async (options: Record<string, unknown>) => {
      const seen: Record<string, unknown>[] = [];
      for await (const event of graph.streamEvents({}, { ...options, version: "v2" }))
        seen.push(event.metadata);
      return seen;
    };
    // LangGraph.js 1.7.3: every event of the run, the graph's own included
    for (const metadata of await metadataOf({
      configurable: { model: "gpt-x", thread_id: "q" },
      metadata: { m: 1 },
    }))
      expect(metadata).toMatchObject({ ls_integration: "langgraph", m: 1, model: "gpt-x", thread_id: "q" });
    for (const metadata of await metadataOf({ timeout: 4000 })) expect(metadata.timeoutMs).toBe(4000);
  });

  it("makes one timer a run, streamed or not", async () => {
    const graph = new StateGraph(State)
      .addNode("look", () => ({}))
      .addEdge(START, "look")
      .compile();
    const timers = vi.spyOn(AbortSignal, "timeout");
    try {
      await graph.invoke({}, { timeout: 5_000 });
      expect(timers).toHaveBeenCalledTimes(1);
      for await (const _ of await graph.stream({}, { timeout: 5_000 })) {
        // drained
      }
      expect(timers).toHaveBeenCalledTimes(2);
    } finally {
      timers.mockRestore();
    }
  });

  it("comes from the call only: a withConfig default does not limit runs (as in LangGraph.js)", async () => {
    let seenTimeoutMs: unknown;
    const graph = new StateGraph(State)
      .addNode("slow", async (_state, config) => {
        seenTimeoutMs = config.metadata?.timeoutMs;
        await sleep(60);
        return { steps: ["slow"] };
      })
      .addEdge(START, "slow")
      .compile()
      .withConfig({ timeout: 10 });
    expect(await graph.invoke({})).toEqual({ steps: ["slow"] });
    expect(seenTimeoutMs).toBeUndefined();
    expect(await graph.invoke({}, { timeout: 5_000 })).toEqual({ steps: ["slow"] });
    expect(seenTimeoutMs).toBe(5_000);
  });
});

describe("Command.goto given plain { node, args } objects", () => {
  const State = Annotation.Root({
    log: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
  });

  it("turns them into Sends, so a Command built from JSON routes like one built with Send", async () => {
    const fromJson = JSON.parse('{"goto":[{"node":"worker","args":{"log":["packet"]}},"audit"]}') as {
      goto: ({ node: "worker"; args: { log: string[] } } | "audit")[];
    };
    const command = new Command(fromJson);
    expect(command.goto[0]).toBeInstanceOf(Send);
    expect(command.goto[0]).toMatchObject({ node: "worker", args: { log: ["packet"] } });
    expect(command.goto[1]).toBe("audit");

    const graph = new StateGraph(State)
      .addNode("route", () => new Command({ goto: { node: "worker", args: { log: ["packet"] } } }), {
        ends: ["worker", "audit"],
      })
      .addNode("worker", (state) => ({ log: [`worker saw ${state.log.join("+")}`] }))
      .addNode("audit", () => ({ log: ["audit"] }))
      .addEdge(START, "route")
      .compile();
    expect(await graph.invoke({})).toEqual({ log: ["worker saw packet"] });
  });

  it("leaves names, Send instances and other values as they are", () => {
    const send = new Send("a", { x: 1 });
    const list: ("b" | Send<"a">)[] = [send, "b"];
    const command = new Command({ goto: list });
    expect(command.goto[0]).toBe(send);
    expect(command.goto).toBe(list);
    // an object without `args` is not a Send
    expect(new Command({ goto: [{ node: "a" } as unknown as string] }).goto[0]).toEqual({ node: "a" });
  });
});

/** A model written for LangChain.js that streams chunks without ids (reporting each before yielding it). */
class IdlessStreamingModel extends BaseChatModel {
  _llmType() {
    return "idless";
  }
  async _generate(): Promise<ChatResult> {
    throw new Error("streams only");
  }
  override async *_streamResponseChunks(
    _messages: BaseMessage[],
    _options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ) {
    for (const token of ["Cold", ", ", "3℃"]) {
      const chunk = new ChatGenerationChunk({ text: token, message: new AIMessageChunk({ content: token }) });
      await runManager?.handleLLMNewToken(token, undefined, undefined, undefined, undefined, { chunk });
      yield chunk;
    }
  }
}

describe("messages stream ids", () => {
  it("streams the chunks of a model that gives no ids under one run id, the id the state keeps", async () => {
    const model = new IdlessStreamingModel({});
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("agent", async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addEdge(START, "agent")
      .compile();
    const ids: (string | undefined)[] = [];
    let text = "";
    let final: BaseMessage[] = [];
    const stream = await graph.stream(
      { messages: [new HumanMessage("weather?")] },
      { streamMode: ["messages", "values"] },
    );
    for await (const [mode, payload] of stream) {
      if (mode === "values") {
        final = (payload as { messages: BaseMessage[] }).messages;
        continue;
      }
      const [message, metadata] = payload as [BaseMessage, Record<string, unknown>];
      expect(metadata.langgraph_node).toBe("agent");
      ids.push(message.id);
      text += message.text;
    }
    expect(text).toBe("Cold, 3℃");
    expect(ids).toHaveLength(3);
    expect(ids[0]).toMatch(/^run-/);
    expect(new Set(ids).size).toBe(1);
    expect(final.at(-1)?.id).toBe(ids[0]);
  });
});

describe("state schemas StateGraph cannot use", () => {
  it("are StateGraphInputErrors with LangGraph.js's first sentence, saying what is wrong", () => {
    const make = (schema: unknown) => () => new StateGraph(schema as never);
    const cases: [unknown, RegExp][] = [
      [z.object({ a: z.string() }).and(z.object({ b: z.string() })), /not a Zod object.*\.extend\(\)/],
      [z.array(z.string()), /not a Zod object/],
      [{ count: 5 }, /key "count" that is not a channel/],
      [{ name: z.string() }, /key "name" that is not a channel/],
      [{}, /has no keys/],
      [[Annotation<string>()], /is an array/],
    ];
    for (const [schema, detail] of cases) {
      expect(make(schema)).toThrow(StateGraphInputError);
      expect(make(schema)).toThrow(/^Invalid StateGraph input\. Make sure to pass a valid StateDefinition/);
      expect(make(schema)).toThrow(detail);
    }
  });

  it("still accepts maps of channels or channel factories, and an empty legacy channels map", () => {
    const graph = new StateGraph({ a: Annotation<string>, b: Annotation<number>() })
      .addNode("n", () => ({ b: 1 }))
      .addEdge(START, "n")
      .compile();
    expect(Object.keys(graph.channels)).toEqual(expect.arrayContaining(["a", "b"]));
    expect(() => new StateGraph({ channels: {} })).not.toThrow();
  });

  it("a legacy channels map takes a plain value as a last-value key without a default", async () => {
    // LangGraph.js's early supervisor example writes `next: "initialValueForNext"` (untyped)
    const channels = {
      messages: { value: (x: string[], y: string[]) => x.concat(y), default: () => [] },
      next: "initialValueForNext",
      count: 3,
    } as unknown as LegacyChannels<{ messages: string[]; next: string; count: number }>;
    const graph = new StateGraph({ channels })
      .addNode("n", (s) => ({ next: `seen ${JSON.stringify(s)}` }))
      .addEdge(START, "n")
      .compile();
    expect(graph.channels.next?.constructor.name).toBe("LastValue");
    expect(await graph.invoke({ messages: ["hi"] })).toEqual({
      messages: ["hi"],
      next: 'seen {"messages":["hi"]}',
    });
  });
});
