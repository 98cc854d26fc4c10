/**
 * ToolNode on its own: input forms, output shapes, ordering, concurrency, skipping answered
 * calls, output normalisation and runtime injection. Expected strings and shapes were checked
 * against @langchain/langgraph 1.7.3's ToolNode.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Command, MemorySaver, MessagesAnnotation, Send, START, StateGraph } from "../index.js";
import { AIMessage, HumanMessage, type ToolCall, ToolMessage } from "../messages/index.js";
import { StructuredTool, type ToolRuntime, tool } from "../tools/index.js";
import { ToolNode } from "./index.js";

const call = (name: string, args: Record<string, unknown>, id: string): ToolCall => ({
  name,
  args,
  id,
  type: "tool_call",
});
const aiCalling = (...calls: ToolCall[]) => new AIMessage({ content: "", tool_calls: calls });

const weather = tool(async ({ city }) => `It's sunny in ${city}.`, {
  name: "get_weather",
  description: "Weather of a city.",
  schema: z.object({ city: z.string() }),
});
const echo = tool(async (args) => args, {
  name: "echo",
  description: "Returns its arguments.",
  schema: z.object({ text: z.string() }),
});

type Messages = { messages: ToolMessage[] };

describe("ToolNode inputs and outputs", () => {
  it("answers every call of the last AIMessage in { messages } state, in call order", async () => {
    const node = new ToolNode([weather, echo]);
    const out = (await node.invoke({
      messages: [
        new HumanMessage("hi"),
        aiCalling(call("get_weather", { city: "Suzhou" }, "c1"), call("echo", { text: "x" }, "c2")),
      ],
    })) as Messages;
    expect(out.messages.map((m) => [m.tool_call_id, m.name, m.content, m.status])).toEqual([
      ["c1", "get_weather", "It's sunny in Suzhou.", "success"],
      ["c2", "echo", '{"text":"x"}', "success"],
    ]);
    expect(out.messages.every((m) => m instanceof ToolMessage)).toBe(true);
  });

  it("returns a list for a message-list input", async () => {
    const out = await new ToolNode([weather]).invoke([
      aiCalling(call("get_weather", { city: "Oslo" }, "c1")),
    ]);
    expect(Array.isArray(out)).toBe(true);
    expect((out as ToolMessage[]).map((m) => m.content)).toEqual(["It's sunny in Oslo."]);
  });

  it("runs a list of tool calls (and a single call) and returns { messages }", async () => {
    const node = new ToolNode([weather, echo]);
    const list = (await node.invoke([
      call("echo", { text: "a" }, "c1"),
      call("get_weather", { city: "Rome" }, "c2"),
    ])) as Messages;
    expect(list.messages.map((m) => m.tool_call_id)).toEqual(["c1", "c2"]);
    const single = (await node.invoke(call("echo", { text: "b" }, "c3"))) as Messages;
    expect(single.messages.map((m) => m.content)).toEqual(['{"text":"b"}']);
  });

  it("runs the Send payload { ...state, lg_tool_call } and gives the tool the state without the call", async () => {
    let seen: unknown;
    const spy = tool(
      async (_args, runtime) => {
        seen = runtime.state;
        return "ok";
      },
      { name: "spy", description: "Sees state.", schema: z.object({}) },
    );
    const out = (await new ToolNode([spy]).invoke({
      messages: [],
      userId: "u1",
      lg_tool_call: call("spy", {}, "c9"),
    })) as Messages;
    expect(out.messages.map((m) => [m.tool_call_id, m.content])).toEqual([["c9", "ok"]]);
    expect(seen).toEqual({ messages: [], userId: "u1" });
  });

  it("skips calls already answered by a ToolMessage", async () => {
    let runs = 0;
    const counted = tool(
      async () => {
        runs += 1;
        return "done";
      },
      { name: "counted", description: "Counts.", schema: z.object({}) },
    );
    const out = (await new ToolNode([counted]).invoke({
      messages: [
        aiCalling(call("counted", {}, "a"), call("counted", {}, "b")),
        new ToolMessage({ content: "done earlier", tool_call_id: "a" }),
      ],
    })) as Messages;
    expect(out.messages.map((m) => m.tool_call_id)).toEqual(["b"]);
    expect(runs).toBe(1);
  });

  it("fails clearly without an AIMessage, or for input it cannot read", async () => {
    const node = new ToolNode([weather]);
    await expect(node.invoke({ messages: [new HumanMessage("hi")] })).rejects.toThrow(
      "ToolNode only accepts AIMessages as input.",
    );
    await expect(node.invoke([])).rejects.toThrow("ToolNode only accepts AIMessages as input.");
    await expect(node.invoke({ foo: 1 })).rejects.toThrow(
      "ToolNode only accepts BaseMessage[] or { messages: BaseMessage[] } as input.",
    );
  });

  it("returns no messages when the AIMessage has no tool calls", async () => {
    const out = await new ToolNode([weather]).invoke({ messages: [new AIMessage("plain answer")] });
    expect(out).toEqual({ messages: [] });
  });
});

describe("the runtime of a tool run by a ToolNode in a graph", () => {
  it("carries the node's interrupt function and metadata", async () => {
    let seen: Record<string, unknown> | undefined;
    const probe = tool(
      async (_args: Record<string, never>, runtime) => {
        seen = runtime as unknown as Record<string, unknown>;
        return "ok";
      },
      { name: "probe", description: "d", schema: z.object({}) },
    );
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("tools", new ToolNode([probe]))
      .addEdge(START, "tools")
      .compile();
    await graph.invoke({ messages: [aiCalling(call("probe", {}, "c1"))] });
    expect(typeof seen?.interrupt).toBe("function");
    expect((seen?.metadata as Record<string, unknown> | undefined)?.langgraph_node).toBe("tools");
    expect(seen?.toolCallId).toBe("c1");
  });

  it("carries the node's run name when no callbacks hear the run (none when they do), as in LangGraph.js", async () => {
    const names: unknown[] = [];
    const probe = tool(
      async (_args: Record<string, never>, runtime) => {
        names.push(runtime.runName);
        return "ok";
      },
      { name: "probe", description: "d", schema: z.object({}) },
    );
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("act", new ToolNode([probe]))
      .addNode("direct", async (_state, config) => {
        // a node passing its own config on
        await probe.invoke({}, config);
        return {};
      })
      .addEdge(START, "act")
      .addEdge("act", "direct")
      .compile();
    await graph.invoke({ messages: [aiCalling(call("probe", {}, "c1"))] });
    await graph.invoke(
      { messages: [aiCalling(call("probe", {}, "c2"))] },
      { callbacks: [{ handleToolStart: () => undefined }] },
    );
    // outside a graph a tool made with tool() runs under its own name
    await probe.invoke({});
    expect(names).toEqual(["act", "direct", undefined, undefined, "probe"]);
  });
});

describe("ToolNode concurrency", () => {
  it("starts every call of one AIMessage before any of them finishes", async () => {
    const log: string[] = [];
    let started = 0;
    let releaseAll: () => void = () => {};
    const bothStarted = new Promise<void>((resolve) => {
      releaseAll = resolve;
    });
    const gated = tool(
      async ({ label }) => {
        log.push(`start ${label}`);
        started += 1;
        if (started === 2) releaseAll();
        // a sequential node would wait here forever for the second call to start
        await bothStarted;
        log.push(`end ${label}`);
        return label;
      },
      { name: "gated", description: "Waits for its sibling.", schema: z.object({ label: z.string() }) },
    );
    const out = (await new ToolNode([gated]).invoke({
      messages: [aiCalling(call("gated", { label: "slow" }, "1"), call("gated", { label: "fast" }, "2"))],
    })) as Messages;
    expect(log.slice(0, 2)).toEqual(["start slow", "start fast"]);
    expect(out.messages.map((m) => m.content)).toEqual(["slow", "fast"]);
  });

  it("keeps call order when later calls finish first", async () => {
    const order: string[] = [];
    let finishFirst: () => void = () => {};
    const firstMayFinish = new Promise<void>((resolve) => {
      finishFirst = resolve;
    });
    const first = tool(
      async () => {
        await firstMayFinish;
        order.push("first");
        return "1";
      },
      { name: "first", description: "", schema: z.object({}) },
    );
    const second = tool(
      async () => {
        order.push("second");
        finishFirst();
        return "2";
      },
      { name: "second", description: "", schema: z.object({}) },
    );
    const out = (await new ToolNode([first, second]).invoke({
      messages: [aiCalling(call("first", {}, "a"), call("second", {}, "b"))],
    })) as Messages;
    expect(order).toEqual(["second", "first"]);
    expect(out.messages.map((m) => m.tool_call_id)).toEqual(["a", "b"]);
  });
});

describe("ToolNode output normalisation", () => {
  const returning = (name: string, value: unknown) =>
    tool(async () => value, { name, description: "", schema: z.object({}) });

  it("keeps strings and content blocks, JSON-encodes other values", async () => {
    const blocks = [{ type: "text", text: "hi" }];
    const node = new ToolNode([
      returning("str", "plain"),
      returning("blocks", blocks),
      returning("num", 42),
      returning("obj", { a: [1, 2] }),
      returning("nothing", undefined),
    ]);
    const out = (await node.invoke({
      messages: [
        aiCalling(...["str", "blocks", "num", "obj", "nothing"].map((n, i) => call(n, {}, `c${i}`))),
      ],
    })) as Messages;
    expect(out.messages.map((m) => m.content)).toEqual(["plain", blocks, "42", '{"a":[1,2]}', ""]);
  });

  it("passes a returned ToolMessage through, filling in the call id and leaving its name unset (as LangChain.js)", async () => {
    const node = new ToolNode([
      returning("custom", new ToolMessage({ content: "mine", tool_call_id: "", artifact: { rows: 3 } })),
    ]);
    const out = (await node.invoke({ messages: [aiCalling(call("custom", {}, "c1"))] })) as Messages;
    const message = out.messages[0];
    expect([message?.content, message?.tool_call_id, message?.name, message?.artifact]).toEqual([
      "mine",
      "c1",
      undefined,
      { rows: 3 },
    ]);
  });

  it("normalises raw values from a tool that does not format its own output", async () => {
    class RawTool extends StructuredTool {
      name = "raw";
      description = "Returns a raw object from invoke.";
      schema = z.object({});
      protected async _call() {
        return "unused";
      }
      override async invoke(): Promise<never> {
        return { raw: true } as never;
      }
    }
    const out = (await new ToolNode([new RawTool()]).invoke({
      messages: [aiCalling(call("raw", {}, "r1"))],
    })) as Messages;
    expect(out.messages.map((m) => [m.content, m.tool_call_id, m.name])).toEqual([
      ['{"raw":true}', "r1", "raw"],
    ]);
  });
});

describe("ToolNode and calls without an id (as LangGraph.js)", () => {
  const weather = tool(async ({ city }: { city: string }) => `sunny in ${city}`, {
    name: "weather",
    description: "Weather.",
    schema: z.object({ city: z.string() }),
  });
  const noId = (args: Record<string, unknown>, name = "weather") =>
    aiCalling({ name, args, type: "tool_call" } as ToolCall);

  it("answers a successful call without a tool_call_id, and a failed one with an empty one", async () => {
    const node = new ToolNode([weather]);
    const ok = ((await node.invoke({ messages: [noId({ city: "x" })] })) as Messages).messages[0];
    expect([ok?.content, ok?.tool_call_id, ok?.status, ok?.name]).toEqual([
      "sunny in x",
      undefined,
      "success",
      "weather",
    ]);
    const bad = ((await node.invoke({ messages: [noId({ city: 1 })] })) as Messages).messages[0];
    expect([bad?.tool_call_id, bad?.status]).toEqual(["", "error"]);
    const missing = ((await node.invoke({ messages: [noId({}, "nope")] })) as Messages).messages[0];
    expect([missing?.tool_call_id, missing?.status]).toEqual(["", "error"]);
  });

  it("writes what the tool returned for such a call as JSON unless it is a string", async () => {
    // without a call id the tool hands back its raw value; the node writes the message itself
    const returning = (name: string, value: unknown) =>
      tool(async () => value, { name, description: "", schema: z.object({}) });
    const node = new ToolNode([
      returning("blocks", [{ type: "text", text: "hi" }]),
      returning("nothing", undefined),
      returning("str", "plain"),
    ]);
    const ai = aiCalling(
      ...["blocks", "nothing", "str"].map((name) => ({ name, args: {}, type: "tool_call" }) as ToolCall),
    );
    const out = (await node.invoke({ messages: [ai] })) as Messages;
    expect(out.messages.map((m) => [m.content, m.status])).toEqual([
      ['[{"type":"text","text":"hi"}]', "success"],
      [[], "success"],
      ["plain", "success"],
    ]);
  });

  it("stores and reads back that answer with a checkpointer", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("tools", new ToolNode([weather]))
      .addEdge(START, "tools")
      .compile({ checkpointer: new MemorySaver() });
    const thread = { configurable: { thread_id: "no-id" } };
    await graph.invoke({ messages: [noId({ city: "x" })] }, thread);
    const state = await graph.getState(thread);
    const answer = state.values.messages[1] as ToolMessage;
    expect([answer.content, answer.tool_call_id, answer.status]).toEqual([
      "sunny in x",
      undefined,
      "success",
    ]);
  });
});

describe("ToolNode invoked outside a graph", () => {
  it("gives tools an empty `configurable` when the config has none (as LangGraph.js)", async () => {
    const reader = tool(async (_args, runtime) => JSON.stringify(runtime.configurable), {
      name: "reader",
      description: "Reads the configurable.",
      schema: z.object({}),
    });
    const node = new ToolNode([reader]);
    const bare = (await node.invoke({ messages: [aiCalling(call("reader", {}, "c1"))] })) as Messages;
    expect(bare.messages[0]?.content).toBe("{}");
    const given = (await node.invoke(
      { messages: [aiCalling(call("reader", {}, "c1"))] },
      { configurable: { x: 1 } },
    )) as Messages;
    expect(given.messages[0]?.content).toBe('{"x":1}');
  });
});

describe("ToolNode.withConfig", () => {
  // pass-graph-state-to-tools how-to: `new ToolNode(tools).withConfig({ configurable: { messages } })`
  const reader = tool(
    async (_args, runtime) =>
      JSON.stringify([
        runtime.configurable?.messages,
        runtime.configurable?.user,
        runtime.tags,
        runtime.metadata?.m,
      ]),
    { name: "reader", description: "Reads its config.", schema: z.object({}) },
  );

  it("runs the tools with the bound config under the call's own", async () => {
    const node = new ToolNode([reader]).withConfig({
      configurable: { messages: 2 },
      tags: ["a"],
      metadata: { m: 1 },
    });
    expect(node).toBeInstanceOf(ToolNode);
    const out = (await node.invoke(
      { messages: [aiCalling(call("reader", {}, "c1"))] },
      { configurable: { user: "u" }, tags: ["b"] },
    )) as Messages;
    expect(out.messages[0]?.content).toBe('[2,"u",["a","b"],1]');
    // a second withConfig replaces the keys it gives (LangChain.js's RunnableBinding.withConfig)
    const twice = node.withConfig({ configurable: { user: "v" } });
    const again = (await twice.invoke({ messages: [aiCalling(call("reader", {}, "c2"))] })) as Messages;
    expect(again.messages[0]?.content).toBe('[null,"v",["a"],1]');
    const plain = (await new ToolNode([reader]).invoke({
      messages: [aiCalling(call("reader", {}, "c3"))],
    })) as Messages;
    expect(plain.messages[0]?.content).toBe("[null,null,[],null]");
  });

  it("adds the bound config to the node's inside a graph", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("tools", async (state) =>
        new ToolNode<typeof MessagesAnnotation.State>([reader])
          .withConfig({ configurable: { messages: state.messages.length } })
          .invoke(state),
      )
      .addEdge(START, "tools")
      .compile();
    const out = await graph.invoke(
      { messages: [aiCalling(call("reader", {}, "c1"))] },
      { configurable: { user: "u" } },
    );
    expect(out.messages.at(-1)?.content).toBe('[1,"u",[],null]');
  });

  it("types invoke's result for a state input as a node's update (the how-tos return it from a node)", async () => {
    // pass-run-time-values-to-tools: `return new ToolNode(tools).invoke(state)` (tsc rejected it)
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("tools", async (state) => new ToolNode([reader]).invoke(state))
      .addEdge(START, "tools")
      .compile();
    const out = await graph.invoke({ messages: [aiCalling(call("reader", {}, "c1"))] });
    expect(out.messages.at(-1)?.getType()).toBe("tool");
    const list: ToolMessage[] | Array<Command | ToolMessage[]> = await new ToolNode([reader]).invoke([
      aiCalling(call("reader", {}, "c2")),
    ]);
    expect(Array.isArray(list)).toBe(true);
  });
});

describe("ToolNode and a content_and_artifact tool that returns no pair", () => {
  it("tells the model LangChain.js's text", async () => {
    const lonely = tool(async () => "plain", {
      name: "ca",
      description: "Returns no artifact.",
      schema: z.object({}),
      responseFormat: "content_and_artifact",
    });
    const out = (await new ToolNode([lonely]).invoke({
      messages: [aiCalling(call("ca", {}, "c1"))],
    })) as Messages;
    expect(out.messages[0]?.content).toBe(
      'Error: Tool response format is "content_and_artifact" but the output was not a two-tuple.\nResult: "plain"\n Please fix your mistakes.',
    );
    const described = (await new ToolNode([lonely], { handleToolErrors: (e) => String(e) }).invoke({
      messages: [aiCalling(call("ca", {}, "c1"))],
    })) as Messages;
    expect(String(described.messages[0]?.content).startsWith("Error: Tool response format")).toBe(true);
  });
});

describe("ToolNode with tools returning Commands", () => {
  const commanding = tool(
    async ({ goto }, runtime) =>
      new Command({
        update: { messages: [new ToolMessage({ content: "routed", tool_call_id: runtime.toolCallId })] },
        goto,
      }),
    { name: "route", description: "", schema: z.object({ goto: z.string() }) },
  );

  it("mixes the Commands with one update per ToolMessage, in call order", async () => {
    const out = await new ToolNode([commanding, weather]).invoke({
      messages: [aiCalling(call("get_weather", { city: "Pisa" }, "w"), call("route", { goto: "next" }, "r"))],
    });
    expect(Array.isArray(out)).toBe(true);
    const [update, command] = out as [Messages, Command];
    expect(update.messages.map((m) => m.tool_call_id)).toEqual(["w"]);
    expect(command).toBeInstanceOf(Command);
    expect(command.goto).toEqual(["next"]);
  });

  it("wraps messages as lists for a message-list input", async () => {
    const out = (await new ToolNode([commanding, weather]).invoke([
      aiCalling(call("get_weather", { city: "Pisa" }, "w"), call("route", { goto: "next" }, "r")),
    ])) as unknown[];
    expect(Array.isArray(out[0])).toBe(true);
    expect((out[0] as ToolMessage[])[0]?.tool_call_id).toBe("w");
    expect(out[1]).toBeInstanceOf(Command);
  });

  it("merges parent-graph Commands that only send into one, last", async () => {
    const dispatch = tool(
      async ({ job }) => new Command({ graph: Command.PARENT, goto: [new Send("worker", { job })] }),
      { name: "dispatch", description: "", schema: z.object({ job: z.string() }) },
    );
    const out = (await new ToolNode([dispatch, weather]).invoke({
      messages: [
        aiCalling(
          call("dispatch", { job: "a" }, "1"),
          call("get_weather", { city: "Bonn" }, "2"),
          call("dispatch", { job: "b" }, "3"),
        ),
      ],
    })) as unknown[];
    expect(out).toHaveLength(2);
    const parent = out[1] as Command;
    expect(parent.graph).toBe(Command.PARENT);
    expect(parent.goto.map((send) => (send as Send).args)).toEqual([{ job: "a" }, { job: "b" }]);
  });
});

describe("ToolNode runtime injection", () => {
  it("hands tools the state, context, store, writer, config and call id, never as model arguments", async () => {
    let runtime: ToolRuntime | undefined;
    let received: unknown;
    const inspect = tool(
      async (args, rt) => {
        received = args;
        runtime = rt;
        return "seen";
      },
      { name: "inspect", description: "", schema: z.object({ query: z.string() }) },
    );
    const store = {
      get: async () => null,
      put: async () => {},
      delete: async () => {},
      search: async () => [],
    };
    const writes: unknown[] = [];
    const state = {
      messages: [aiCalling(call("inspect", { query: "q", state: "forged", toolCallId: "forged" }, "call-7"))],
      userId: "u1",
    };
    await new ToolNode([inspect], { tags: ["tooling"] }).invoke(state, {
      context: { tenant: "acme" },
      store,
      writer: (chunk) => writes.push(chunk),
      tags: ["run"],
      configurable: { thread_id: "t" },
    });
    expect(received).toEqual({ query: "q" });
    expect(runtime?.state).toBe(state);
    expect(runtime?.context).toEqual({ tenant: "acme" });
    expect(runtime?.store).toBe(store);
    expect(runtime?.toolCallId).toBe("call-7");
    expect(runtime?.config.configurable).toEqual({ thread_id: "t" });
    expect(runtime?.tags).toEqual(["run", "tooling"]);
    runtime?.writer?.("progress");
    expect(writes).toEqual(["progress"]);
  });

  it("passes the config's signal to tools", async () => {
    let signal: AbortSignal | undefined;
    const inspect = tool(
      async (_args, rt) => {
        signal = rt.signal;
        return "ok";
      },
      { name: "inspect", description: "", schema: z.object({}) },
    );
    const controller = new AbortController();
    await new ToolNode([inspect]).invoke([aiCalling(call("inspect", {}, "1"))], {
      signal: controller.signal,
    });
    expect(signal).toBe(controller.signal);
  });

  it("reports validation errors about model arguments only", async () => {
    const strict = tool(async ({ city }) => city, {
      name: "strict",
      description: "",
      schema: z.object({ city: z.string() }),
    });
    const out = (await new ToolNode([strict]).invoke({
      messages: [aiCalling(call("strict", { city: 5 }, "v1"))],
      userId: "u1",
    })) as Messages;
    const content = String(out.messages[0]?.content);
    expect(content).toBe(
      "Error: Received tool input did not match expected schema\n\n✖ Invalid input: expected string, received number\n  → at city\n Please fix your mistakes.",
    );
    expect(content).not.toMatch(/state|userId|runtime|toolCallId/);
    expect(out.messages[0]?.status).toBe("error");
  });
});
