import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { Command, interrupt, MemorySaver, type ProtocolEvent } from "../index.js";
import { AIMessage, ToolMessage } from "../messages/index.js";
import { FakeChatModel } from "../testing/index.js";
import { tool } from "../tools/index.js";
import { answer, asking, call, question } from "./agent.test-helpers.js";
import { createAgent } from "./index.js";
import {
  createSubagentTransformer,
  createToolCallTransformer,
  type SubagentRunStream,
  type ToolCallStreamUnion,
} from "./stream-transformers.js";

const lookup = tool(async ({ q }: { q: string }) => `found ${q}`, {
  name: "lookup",
  description: "Looks a word up.",
  schema: z.object({ q: z.string() }),
});
const asMessage = tool(
  async ({ q }: { q: string }) => new ToolMessage({ content: `message ${q}`, tool_call_id: "other" }),
  { name: "as_message", description: "Answers with a ToolMessage.", schema: z.object({ q: z.string() }) },
);
const boom = tool(
  async (): Promise<string> => {
    throw new Error("kaboom");
  },
  { name: "boom", description: "Always fails.", schema: z.object({}) },
);

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** A tool that runs `agent` on `task` (in the tool's run, so the agent's events join the stream). */
function delegateTo(
  name: string,
  agent: {
    invoke(input: { messages: { role: "user"; content: string }[] }, config: never): Promise<unknown>;
  },
) {
  return tool(
    async ({ task }: { task: string }, runtime) => {
      const out = (await agent.invoke({ messages: [{ role: "user", content: task }] }, runtime as never)) as {
        messages: { text: string }[];
      };
      return out.messages.at(-1)?.text ?? "";
    },
    { name, description: "Delegates a task.", schema: z.object({ task: z.string() }) },
  );
}

function event(method: string, namespace: string[], data: unknown): ProtocolEvent {
  return { type: "event", seq: 0, method, params: { namespace, timestamp: 0, data } };
}

describe("run.toolCalls", () => {
  it("yields each tool call the agent runs, in order, with its input and result", async () => {
    const agent = createAgent({
      model: new FakeChatModel({
        responses: [
          asking("a1", call("lookup", { q: "x" }, "c1"), call("as_message", { q: "y" }, "c2")),
          asking("a2", call("lookup", { q: "z" }, "c3")),
          answer("a3", "done"),
        ],
      }),
      tools: [lookup, asMessage],
    });
    const run = await agent.streamEvents(question(), { version: "v3" });
    const seen: unknown[] = [];
    for await (const toolCall of run.toolCalls) {
      expect(Object.keys(toolCall)).toEqual(["name", "callId", "input", "output", "status", "error"]);
      seen.push({
        name: toolCall.name,
        callId: toolCall.callId,
        input: toolCall.input,
        output: await toolCall.output,
        status: await toolCall.status,
        error: await toolCall.error,
      });
    }
    expect(seen).toEqual([
      {
        name: "lookup",
        callId: "c1",
        input: { q: "x" },
        output: "found x",
        status: "finished",
        error: undefined,
      },
      {
        name: "as_message",
        callId: "c2",
        input: { q: "y" },
        output: "message y",
        status: "finished",
        error: undefined,
      },
      {
        name: "lookup",
        callId: "c3",
        input: { q: "z" },
        output: "found z",
        status: "finished",
        error: undefined,
      },
    ]);
    expect((await run.output).messages.at(-1)?.text).toBe("done");
  });

  it("is set on the run itself (not on run.extensions), replays, and is compiled into agent.graph", async () => {
    const agent = createAgent({
      model: new FakeChatModel({ responses: [asking("a1", call("lookup", { q: "x" }, "c1")), "done"] }),
      tools: [lookup],
    });
    const run = await agent.streamEvents(question(), { version: "v3" });
    expect(Object.keys(run)).toEqual(expect.arrayContaining(["toolCalls", "subagents"]));
    expect(run.extensions).toEqual({});
    await run.output;
    expect((await collect(run.toolCalls)).map((c) => c.callId)).toEqual(["c1"]);
    expect((await collect(run.toolCalls)).map((c) => c.callId)).toEqual(["c1"]);
    const graphRun = (await agent.graph.streamEvents(question(), { version: "v3" })) as unknown as {
      toolCalls?: unknown;
    };
    expect(graphRun.toolCalls).toBeDefined();
  });

  it("reports a failing tool as an error: status, message, rejected output", async () => {
    const agent = createAgent({
      model: new FakeChatModel({
        responses: [asking("a1", call("lookup", { q: "x" }, "c1"), call("boom", {}, "c2")), "done"],
      }),
      tools: [lookup, boom],
    });
    const run = await agent.streamEvents(question(), { version: "v3" });
    const calls = await collect(run.toolCalls);
    expect(calls.map((c) => c.name)).toEqual(["lookup", "boom"]);
    const failed = calls[1];
    expect(await failed?.status).toBe("error");
    expect(await failed?.error).toBe("kaboom");
    await expect(failed?.output).rejects.toThrow("kaboom");
    expect(await calls[0]?.status).toBe("finished");
    // the agent turned the error into a ToolMessage and went on
    expect((await run.output).messages.at(-1)?.text).toBe("done");
  });

  it("leaves the output of a failed call that nobody awaits unobserved without an unhandled rejection", async () => {
    const agent = createAgent({
      model: new FakeChatModel({ responses: [asking("a1", call("boom", {}, "c1")), "done"] }),
      tools: [boom],
    });
    const run = await agent.streamEvents(question(), { version: "v3" });
    expect((await collect(run.toolCalls)).map((c) => c.callId)).toEqual(["c1"]);
    await run.output;
    await new Promise((resolve) => setTimeout(resolve, 10));
  });

  it("fails with the run: calls seen so far stay, iteration rethrows the run's error", async () => {
    // a scripted model with one answer fails on its second call
    const model = new FakeChatModel({ responses: [asking("a1", call("lookup", { q: "x" }, "c1"))] });
    const agent = createAgent({ model, tools: [lookup] });
    const run = await agent.streamEvents(question(), { version: "v3" });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const toolCall of run.toolCalls) seen.push(`${toolCall.callId}:${await toolCall.output}`);
      })(),
    ).rejects.toThrow("no response for call 2");
    expect(seen).toEqual(["c1:found x"]);
    await expect(collect(run.subagents)).rejects.toThrow("no response for call 2");
    await expect(run.output).rejects.toThrow("no response for call 2");
  });

  it("keeps a call paused by interrupt() pending, then settles it as finished without output", async () => {
    const ask = tool(async ({ q }: { q: string }) => `answer ${String(interrupt({ question: q }))}`, {
      name: "ask",
      description: "Asks the user.",
      schema: z.object({ q: z.string() }),
    });
    const agent = createAgent({
      model: new FakeChatModel({
        responses: [asking("a1", call("lookup", { q: "x" }, "c1"), call("ask", { q: "why" }, "c2")), "done"],
      }),
      tools: [lookup, ask],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "t1" } };
    const first = await agent.streamEvents(question(), { version: "v3", ...config });
    const paused = await collect(first.toolCalls);
    expect(paused.map((c) => c.callId)).toEqual(["c1", "c2"]);
    expect(await paused[1]?.status).toBe("finished");
    expect(await paused[1]?.error).toBeUndefined();
    expect(await paused[1]?.output).toBeUndefined();
    expect(first.interrupted).toBe(true);

    const resumed = await agent.streamEvents(new Command({ resume: "because" }), {
      version: "v3",
      ...config,
    });
    const again = await collect(resumed.toolCalls);
    expect(again.map((c) => c.callId)).toEqual(["c2"]);
    expect(await again[0]?.output).toBe("answer because");
  });
});

describe("run.subagents", () => {
  function researcher(name?: string) {
    return createAgent({
      model: new FakeChatModel({
        responses: [asking("r1", call("lookup", { q: "deep" }, "rc1")), answer("r2", "child done")],
      }),
      tools: [lookup],
      ...(name === undefined ? {} : { name }),
    });
  }

  it("yields a named agent that a tool runs, with its cause, messages, tool calls and output", async () => {
    const agent = createAgent({
      model: new FakeChatModel({
        responses: [asking("p1", call("delegate", { task: "dig" }, "pc1")), answer("p2", "parent done")],
      }),
      tools: [delegateTo("delegate", researcher("researcher"))],
    });
    const run = await agent.streamEvents(question(), { version: "v3" });
    const subagents = await collect(run.subagents);
    expect(subagents).toHaveLength(1);
    const sub = subagents[0] as SubagentRunStream;
    expect(Object.keys(sub)).toEqual(["name", "cause", "output", "messages", "toolCalls", "subagents"]);
    expect(sub.name).toBe("researcher");
    expect(sub.cause).toEqual({ type: "toolCall", tool_call_id: "pc1" });
    const texts: string[] = [];
    for await (const message of sub.messages) texts.push(await message.text);
    expect(texts).toEqual(["", "child done"]);
    const childCalls = await collect(sub.toolCalls);
    expect(childCalls.map((c) => [c.name, c.callId])).toEqual([["lookup", "rc1"]]);
    expect(await childCalls[0]?.output).toBe("found deep");
    expect(await collect(sub.subagents)).toEqual([]);
    const output = (await sub.output) as { messages: { text: string }[] };
    expect(output.messages.map((m) => m.text)).toEqual(["dig", "", "found deep", "child done"]);
    // the root's own tool calls only: the subagent's are not among them
    const rootCalls = await collect(run.toolCalls);
    expect(rootCalls.map((c) => c.callId)).toEqual(["pc1"]);
    expect(await rootCalls[0]?.output).toBe("child done");
  });

  it("ignores an unnamed agent run by a tool of an unnamed agent", async () => {
    const agent = createAgent({
      model: new FakeChatModel({
        responses: [asking("p1", call("delegate", { task: "dig" }, "pc1")), answer("p2", "parent done")],
      }),
      tools: [delegateTo("delegate", researcher())],
    });
    const run = await agent.streamEvents(question(), { version: "v3" });
    expect(await collect(run.subagents)).toEqual([]);
    expect((await run.output).messages.at(-1)?.text).toBe("parent done");
  });

  it("nests: a subagent's own subagents, each one level down", async () => {
    const worker = createAgent({
      model: new FakeChatModel({
        responses: [asking("w1", call("lookup", { q: "w" }, "wc1")), "worker done"],
      }),
      tools: [lookup],
      name: "worker",
    });
    const manager = createAgent({
      model: new FakeChatModel({
        responses: [asking("m1", call("work", { task: "w" }, "mc1")), "manager done"],
      }),
      tools: [delegateTo("work", worker)],
      name: "manager",
    });
    const agent = createAgent({
      model: new FakeChatModel({ responses: [asking("p1", call("manage", { task: "m" }, "pc1")), "done"] }),
      tools: [delegateTo("manage", manager)],
    });
    const run = await agent.streamEvents(question(), { version: "v3" });
    const [sub] = await collect(run.subagents);
    if (sub === undefined) throw new Error("no subagent");
    expect(sub.name).toBe("manager");
    expect((await collect(sub.toolCalls)).map((c) => c.callId)).toEqual(["mc1"]);
    const [grandchild] = await collect(sub.subagents);
    if (grandchild === undefined) throw new Error("no nested subagent");
    // the worker runs with the manager tool's config, whose metadata names the manager (as in
    // LangChain.js: the caller's `lc_agent_name` wins over the nested agent's own name)
    expect(grandchild.name).toBe("manager");
    expect(grandchild.cause).toEqual({ type: "toolCall", tool_call_id: "mc1" });
    expect((await collect(grandchild.toolCalls)).map((c) => c.callId)).toEqual(["wc1"]);
    const output = (await grandchild.output) as { messages: { text: string }[] };
    expect(output.messages.at(-1)?.text).toBe("worker done");
  });
});

/** A tool-call transformer of the root that has seen call `c1` of tool `name` start with `input`. */
function toolCallTransformerWithCall(name: string, input: string) {
  const transformer = createToolCallTransformer([])();
  const { toolCalls } = transformer.init();
  transformer.process(
    event("tools", ["tools:1"], { event: "tool-started", tool_call_id: "c1", tool_name: name, input }),
  );
  return { transformer, toolCalls };
}

describe("createToolCallTransformer / createSubagentTransformer", () => {
  it("ignores an interrupt reported as a tool error and settles pending calls at the end", async () => {
    const { transformer, toolCalls } = toolCallTransformerWithCall("ask", "{}");
    transformer.process(
      event("tools", ["tools:1"], {
        event: "tool-error",
        tool_call_id: "c1",
        message: JSON.stringify([{ id: "i1", value: "why?" }]),
      }),
    );
    // a deeper namespace belongs to a subagent
    transformer.process(
      event("tools", ["tools:1", "tools:2"], { event: "tool-started", tool_call_id: "c2", tool_name: "x" }),
    );
    transformer.finalize?.();
    const calls = await collect(toolCalls);
    expect(calls.map((c) => c.callId)).toEqual(["c1"]);
    expect(await calls[0]?.status).toBe("finished");
    expect(await calls[0]?.output).toBeUndefined();
  });

  it("keeps unparseable input as given and reads a serialized ToolMessage's content", async () => {
    const { transformer, toolCalls } = toolCallTransformerWithCall("t", "raw");
    transformer.process(
      event("tools", ["tools:1"], {
        event: "tool-finished",
        tool_call_id: "c1",
        output: {
          lc: 1,
          type: "constructor",
          id: ["langchain_core", "messages", "ToolMessage"],
          kwargs: { content: "result", tool_call_id: "c1" },
        },
      }),
    );
    transformer.finalize?.();
    const [only] = await collect(toolCalls);
    expect(only?.input).toBe("raw");
    expect(await only?.output).toBe("result");
  });

  it("rejects a subagent's output when its lifecycle reports a failure", async () => {
    const transformer = createSubagentTransformer()();
    const { subagents } = transformer.init();
    const ns = ["tools:t1"];
    transformer.process(
      event("tools", ns, { event: "tool-started", tool_call_id: "pc1", tool_name: "delegate", input: "{}" }),
    );
    transformer.process(
      event("tasks", ns, { id: "k1", name: "model_request", metadata: { lc_agent_name: "x" } }),
    );
    transformer.process(event("values", ns, { messages: [] }));
    transformer.process(event("lifecycle", ns, { event: "failed", graph_name: "x" }));
    transformer.finalize?.();
    const [sub] = await collect(subagents);
    expect(sub?.cause).toEqual({ type: "toolCall", tool_call_id: "pc1" });
    await expect(sub?.output).rejects.toThrow("Subagent x failed");
  });
});

describe("types", () => {
  it("types run.toolCalls by the agent's tools and run.subagents as subagent streams", async () => {
    const agent = createAgent({
      model: new FakeChatModel({ responses: [new AIMessage("hi")] }),
      tools: [lookup],
    });
    const run = await agent.streamEvents(question(), { version: "v3" });
    expectTypeOf(run.toolCalls).toEqualTypeOf<AsyncIterable<ToolCallStreamUnion<readonly [typeof lookup]>>>();
    for await (const toolCall of run.toolCalls) {
      expectTypeOf(toolCall.input).toEqualTypeOf<{ q: string }>();
      expectTypeOf(toolCall.output).toEqualTypeOf<Promise<string>>();
      expectTypeOf(toolCall.status).toEqualTypeOf<Promise<"running" | "finished" | "error">>();
    }
    for await (const sub of run.subagents) {
      expectTypeOf(sub.name).toBeString();
      expectTypeOf(sub.output).resolves.toHaveProperty("messages");
    }
    expect(await collect(run.toolCalls)).toEqual([]);
  });
});
