/**
 * A subgraph node beside a sibling that awaits for a while: where the sibling's chunks fall among
 * the subgraph's, and which of their interrupts is listed first, depend on how many microtask
 * turns the nested run takes to start and to run each step. The expected values are what
 * LangGraph.js 1.7.3 gave for the same programs.
 */
import { describe, expect, it } from "vitest";
import {
  Annotation,
  Command,
  interrupt,
  MemorySaver,
  START,
  StateGraph,
  type StreamMode,
} from "../../index.js";

const State = Annotation.Root({
  out: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await undefined;
}

/** The chunks of a run where the sibling `n` awaits `wait` turns, one line each. */
async function streamed(wait: number, streamMode: StreamMode[]): Promise<string[]> {
  const child = new StateGraph(State)
    .addNode("x", (_state, config) => {
      config.writer?.({ x: 1 });
      return { out: ["x"] };
    })
    .addEdge(START, "x")
    .compile();
  const graph = new StateGraph(State)
    .addNode("n", async (_state, config) => {
      await turns(wait);
      config.writer?.({ n: 1 });
      return { out: ["n"] };
    })
    .addNode("child", child)
    .addEdge(START, "n")
    .addEdge(START, "child")
    .compile({ checkpointer: new MemorySaver() });
  const lines: string[] = [];
  const stream = await graph.stream(
    { out: [] },
    { configurable: { thread_id: "t" }, streamMode, subgraphs: true },
  );
  for await (const [ns, mode, chunk] of stream as AsyncIterable<
    [string[], string, Record<string, unknown>]
  >) {
    const where = ns.length > 0 ? "child" : "-";
    const what =
      mode === "values"
        ? JSON.stringify(chunk.out)
        : mode === "updates"
          ? Object.keys(chunk).join(",")
          : JSON.stringify(chunk);
    lines.push(`${where} ${mode} ${what}`);
  }
  return lines;
}

describe("a subgraph beside a sibling that awaits", () => {
  it.each([
    [
      "streams a sibling that finishes within 20 turns before the subgraph's chunks",
      20,
      ["updates", "custom"],
      ['- custom {"n":1}', "- updates n", 'child custom {"x":1}', "child updates x", "- updates child"],
    ],
    [
      "interleaves a sibling that waited 60 turns with the subgraph's first node",
      60,
      ["updates", "custom"],
      ['- custom {"n":1}', 'child custom {"x":1}', "- updates n", "child updates x", "- updates child"],
    ],
    [
      "streams the subgraph's first node and its update before a sibling that waited 140 turns",
      140,
      ["updates", "custom"],
      ['child custom {"x":1}', "child updates x", '- custom {"n":1}', "- updates n", "- updates child"],
    ],
    [
      "streams the subgraph's input values and first node before a sibling that waited 110 turns",
      110,
      ["values", "custom"],
      [
        "- values []",
        "child values []",
        'child custom {"x":1}',
        '- custom {"n":1}',
        'child values ["x"]',
        '- values ["x","n"]',
      ],
    ],
  ] as const)("%s", async (_name, wait, modes, expected) => {
    expect(await streamed(wait, [...modes])).toEqual(expected);
  });
});

/**
 * Interrupts of a run where the sibling `n` pauses after awaiting `wait` turns and the subgraph
 * pauses at its node after `before` other steps; each round resumes every interrupt with "yes".
 */
async function paused(wait: number, before: 0 | 1 | 2): Promise<unknown[]> {
  const ask = () => ({ out: [`ask:${String(interrupt("child question"))}`] });
  const child =
    before === 0
      ? new StateGraph(State).addNode("ask", ask).addEdge(START, "ask")
      : before === 1
        ? new StateGraph(State)
            .addNode("p0", () => ({ out: ["p0"] }))
            .addNode("ask", ask)
            .addEdge(START, "p0")
            .addEdge("p0", "ask")
        : new StateGraph(State)
            .addNode("p0", () => ({ out: ["p0"] }))
            .addNode("p1", () => ({ out: ["p1"] }))
            .addNode("ask", ask)
            .addEdge(START, "p0")
            .addEdge("p0", "p1")
            .addEdge("p1", "ask");
  const graph = new StateGraph(State)
    .addNode("n", async () => {
      await turns(wait);
      return { out: [`n:${String(interrupt("sibling question"))}`] };
    })
    .addNode("child", child.compile())
    .addEdge(START, "n")
    .addEdge(START, "child")
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "t" } };
  const rounds: unknown[] = [];
  let input: { out: string[] } | Command = { out: [] };
  for (let round = 0; round < 3; round++) {
    const result = await graph.invoke(input, config);
    const { __interrupt__: pending = [] } = result as { __interrupt__?: { value: unknown }[] };
    const interrupts = pending.map((item) => item.value);
    rounds.push({ out: result.out, interrupts });
    if (interrupts.length === 0) break;
    input = new Command({ resume: "yes" });
  }
  return rounds;
}

describe("a subgraph that pauses beside a sibling that awaits and pauses", () => {
  it.each([
    [
      "lists the subgraph's interrupt first when it pauses at its first node and the sibling after 140 turns",
      140,
      0,
      ["child question", "sibling question"],
      ["ask:yes", "n:yes"],
    ],
    [
      "lists the sibling's interrupt first when the subgraph pauses at its second node and the sibling after 160 turns",
      160,
      1,
      ["sibling question", "child question"],
      ["p0", "ask:yes", "n:yes"],
    ],
    [
      "lists the sibling's interrupt first when the subgraph pauses at its third node and the sibling after 190 turns",
      190,
      2,
      ["sibling question", "child question"],
      ["p0", "p1", "ask:yes", "n:yes"],
    ],
  ] as const)("%s", async (_name, wait, before, interrupts, out) => {
    expect(await paused(wait, before)).toEqual([
      { out: [], interrupts },
      { out, interrupts: [] },
    ]);
  });
});

describe("streamEvents of a subgraph beside an async sibling", () => {
  it("starts the subgraph's run and its __start__ step before a sibling that returns at once ends", async () => {
    const child = new StateGraph(State)
      .addNode("x", () => ({ out: ["x"] }))
      .addEdge(START, "x")
      .compile();
    const graph = new StateGraph(State)
      .addNode("n", async () => ({ out: ["n"] }))
      .addNode("sub", child)
      .addEdge(START, "n")
      .addEdge(START, "sub")
      .compile();
    const events: string[] = [];
    for await (const event of graph.streamEvents({ out: [] }, { version: "v2" })) {
      if (event.event.startsWith("on_chain")) events.push(`${event.event} ${event.name}`);
    }
    expect(events).toEqual([
      "on_chain_start LangGraph",
      "on_chain_start __start__",
      "on_chain_end __start__",
      "on_chain_start n",
      "on_chain_start sub",
      "on_chain_start LangGraph",
      "on_chain_start __start__",
      "on_chain_end n",
      "on_chain_stream LangGraph",
      "on_chain_end __start__",
      "on_chain_start x",
      "on_chain_end x",
      "on_chain_end LangGraph",
      "on_chain_end sub",
      "on_chain_stream LangGraph",
      "on_chain_end LangGraph",
    ]);
  });
});
