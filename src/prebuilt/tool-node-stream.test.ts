/**
 * The `tools` stream mode with a ToolNode, as @langchain/langgraph 1.7.3 emits it:
 * `{ event, toolCallId, name, input | data | output | error }`, namespaced like other modes,
 * subgraph events only with `subgraphs: true`.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  Command,
  interrupt,
  type LangGraphRunnableConfig,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from "../index.js";
import { AIMessage, type ToolCall, ToolMessage } from "../messages/index.js";
import { tool } from "../tools/index.js";
import { ToolNode } from "./index.js";

const call = (name: string, id: string, args: Record<string, unknown> = {}): ToolCall => ({
  name,
  args,
  id,
  type: "tool_call",
});
const input = (...calls: ToolCall[]) => ({ messages: [new AIMessage({ content: "", tool_calls: calls })] });

// an `async function*` tool: what it yields is progress (on_tool_event), what it returns the result
const weather = tool(
  async function* ({ city }: { city: string }) {
    yield { looking: city };
    return `sunny in ${city}`;
  },
  { name: "weather", description: "", schema: z.object({ city: z.string() }) },
);
const boom = tool(
  async () => {
    throw new Error("kaboom");
  },
  { name: "boom", description: "", schema: z.object({}) },
);

async function collect(stream: Promise<AsyncIterable<unknown>>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const chunk of await stream) out.push(chunk);
  return out;
}

const toolsGraph = (node: ToolNode) =>
  new StateGraph(MessagesAnnotation).addNode("tools", node).addEdge(START, "tools").compile();

describe('streamMode: "tools"', () => {
  it("reports start, progress and end of a tool call", async () => {
    const chunks = await collect(
      toolsGraph(new ToolNode([weather])).stream(input(call("weather", "c1", { city: "sf" })), {
        streamMode: "tools",
      }),
    );
    expect(chunks).toHaveLength(3);
    expect(chunks[0]).toEqual({
      event: "on_tool_start",
      toolCallId: "c1",
      name: "weather",
      input: '{"city":"sf"}',
    });
    expect(chunks[1]).toEqual({
      event: "on_tool_event",
      toolCallId: "c1",
      name: "weather",
      data: { looking: "sf" },
    });
    const end = chunks[2] as { event: string; toolCallId: string; name: string; output: ToolMessage };
    expect([end.event, end.toolCallId, end.name]).toEqual(["on_tool_end", "c1", "weather"]);
    expect(end.output).toBeInstanceOf(ToolMessage);
    expect(end.output.content).toBe("sunny in sf");
  });

  it("sends what a tool writes to the custom stream only, as LangChain.js does", async () => {
    const writing = tool(
      async ({ city }, runtime) => {
        runtime.writer?.({ looking: city });
        return `sunny in ${city}`;
      },
      { name: "writing", description: "", schema: z.object({ city: z.string() }) },
    );
    const chunks = (await collect(
      toolsGraph(new ToolNode([writing])).stream(input(call("writing", "w1", { city: "sf" })), {
        streamMode: ["tools", "custom"],
      }),
    )) as [string, { event?: string }][];
    expect(chunks.map(([mode, chunk]) => (mode === "tools" ? chunk.event : chunk))).toEqual([
      "on_tool_start",
      { looking: "sf" },
      "on_tool_end",
    ]);
  });

  it("reports a failing tool with on_tool_error carrying the error, even when the node handles it", async () => {
    const chunks = (await collect(
      toolsGraph(new ToolNode([boom])).stream(input(call("boom", "b1")), {
        streamMode: ["tools", "updates"],
      }),
    )) as [string, Record<string, unknown>][];
    const tools = chunks.filter(([mode]) => mode === "tools").map(([, event]) => event);
    expect(tools.map((e) => e.event)).toEqual(["on_tool_start", "on_tool_error"]);
    expect(tools[1]?.error).toBeInstanceOf(Error);
    expect(tools[1]?.error).toMatchObject({ message: "kaboom" });
    const updates = chunks.filter(([mode]) => mode === "updates");
    expect(updates).toHaveLength(1);
  });

  it("reports nothing for unknown tools or bad arguments (the tool never starts)", async () => {
    const chunks = await collect(
      toolsGraph(new ToolNode([weather])).stream(
        input(call("ghost", "g1"), call("weather", "w1", { city: 1 })),
        { streamMode: "tools" },
      ),
    );
    expect(chunks).toEqual([]);
  });

  it("does not send what a generator tool yields to the custom mode", async () => {
    const chunks = await collect(
      toolsGraph(new ToolNode([weather])).stream(input(call("weather", "c1", { city: "sf" })), {
        streamMode: ["custom", "tools"],
      }),
    );
    expect(chunks.filter((c) => (c as [string])[0] === "custom")).toEqual([]);
  });

  it("reports an on_tool_end with the Command a tool returns", async () => {
    const commanding = tool(
      async (_args, runtime) =>
        new Command({
          update: { messages: [new ToolMessage({ content: "c", tool_call_id: runtime.toolCallId })] },
        }),
      { name: "commanding", description: "", schema: z.object({}) },
    );
    const chunks = (await collect(
      toolsGraph(new ToolNode([commanding])).stream(input(call("commanding", "k1")), { streamMode: "tools" }),
    )) as { event: string; output?: unknown }[];
    expect(chunks.map((c) => c.event)).toEqual(["on_tool_start", "on_tool_end"]);
    expect(chunks[1]?.output).toBeInstanceOf(Command);
  });

  it("reports the start of every tool called together before any of them runs", async () => {
    // LangChain.js awaits handleToolStart before a tool's function runs, so the custom chunks a
    // tool writes at once come after the starts of all the calls of the step
    const progress = (name: string) =>
      tool(
        async (_args: Record<string, never>, config: LangGraphRunnableConfig) => {
          config.writer?.({ from: name });
          return `${name} done`;
        },
        { name, description: "", schema: z.object({}) },
      );
    const chunks = (await collect(
      toolsGraph(new ToolNode([progress("a"), progress("b")])).stream(
        input(call("a", "ca"), call("b", "cb")),
        {
          streamMode: ["tools", "custom"],
        },
      ),
    )) as [string, { event?: string; toolCallId?: string; from?: string }][];
    expect(
      chunks.map(([mode, chunk]) => (mode === "tools" ? `${chunk.event}:${chunk.toolCallId}` : chunk.from)),
    ).toEqual(["on_tool_start:ca", "on_tool_start:cb", "a", "b", "on_tool_end:ca", "on_tool_end:cb"]);
  });

  it("does not report an interrupt as an error", async () => {
    const ask = tool(async () => String(interrupt("approve?")), {
      name: "ask",
      description: "",
      schema: z.object({}),
    });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("tools", new ToolNode([ask]))
      .addEdge(START, "tools")
      .compile({ checkpointer: new MemorySaver() });
    const thread = { configurable: { thread_id: "t-stream" } };
    const first = (await collect(
      graph.stream(input(call("ask", "a1")), { ...thread, streamMode: "tools" }),
    )) as {
      event: string;
    }[];
    expect(first.map((c) => c.event)).toEqual(["on_tool_start"]);
    const second = (await collect(
      graph.stream(new Command({ resume: "yes" }), { ...thread, streamMode: "tools" }),
    )) as { event: string; output?: ToolMessage }[];
    expect(second.map((c) => c.event)).toEqual(["on_tool_start", "on_tool_end"]);
    expect(second[1]?.output?.content).toBe("yes");
  });

  describe("in subgraphs", () => {
    const inner = toolsGraph(new ToolNode([weather]));
    const outer = new StateGraph(MessagesAnnotation).addNode("team", inner).addEdge(START, "team").compile();

    it("reports a subgraph's tools only with subgraphs: true", async () => {
      const quiet = await collect(
        outer.stream(input(call("weather", "c1", { city: "sf" })), { streamMode: "tools" }),
      );
      expect(quiet).toEqual([]);
    });

    it("prefixes the subgraph's namespace", async () => {
      const chunks = (await collect(
        outer.stream(input(call("weather", "c1", { city: "sf" })), { streamMode: "tools", subgraphs: true }),
      )) as [string[], { event: string }][];
      expect(chunks.map(([, event]) => event.event)).toEqual([
        "on_tool_start",
        "on_tool_event",
        "on_tool_end",
      ]);
      for (const [namespace] of chunks) {
        expect(namespace).toHaveLength(1);
        expect(namespace[0]).toMatch(/^team:[0-9a-f-]+$/);
      }
    });

    it("yields [namespace, mode, event] with several modes", async () => {
      const chunks = (await collect(
        outer.stream(input(call("weather", "c1", { city: "sf" })), {
          streamMode: ["tools", "updates"],
          subgraphs: true,
        }),
      )) as [string[], string, unknown][];
      const tools = chunks.filter(([, mode]) => mode === "tools");
      expect(tools).toHaveLength(3);
      expect(tools[0]?.[0][0]).toMatch(/^team:/);
      expect(chunks.filter(([ns, mode]) => mode === "updates" && ns.length === 0)).toHaveLength(1);
    });

    it("reports the tools of the root graph with an empty namespace", async () => {
      const chunks = (await collect(
        toolsGraph(new ToolNode([weather])).stream(input(call("weather", "c1", { city: "sf" })), {
          streamMode: "tools",
          subgraphs: true,
        }),
      )) as [string[], unknown][];
      expect(chunks.map(([ns]) => ns)).toEqual([[], [], []]);
    });
  });
});
