import { describe, expect, it } from "vitest";
import { Annotation, Command, interrupt, MemorySaver, START, StateGraph } from "../../index.js";

const Log = Annotation.Root({
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

describe("a graph streamed from inside another graph's node", () => {
  const sub = new StateGraph(Log)
    .addNode("ask", () => ({ log: [`ask:${String(interrupt("question"))}`] }))
    .addEdge(START, "ask")
    .compile();

  it("runs as part of the parent run: its interrupt pauses the parent and resumes", async () => {
    const seen: unknown[] = [];
    const graph = new StateGraph(Log)
      .addNode("call", async () => {
        let last: { log?: string[] } | undefined;
        for await (const chunk of await sub.stream({ log: [] })) {
          seen.push(chunk);
          last = chunk as { log?: string[] };
        }
        return { log: last?.log ?? [] };
      })
      .addEdge(START, "call")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    const paused = await graph.invoke({ log: [] }, config);
    expect(paused).toEqual({ log: [], __interrupt__: [{ id: expect.any(String), value: "question" }] });
    // the nested stream yields its own values chunks (its default mode inside a node)
    expect(seen[0]).toEqual({ log: [] });
    expect(await graph.invoke(new Command({ resume: "yes" }), config)).toEqual({ log: ["ask:yes"] });
  });

  it("reports its chunks to the parent's stream too (with subgraphs: true)", async () => {
    const done = new StateGraph(Log)
      .addNode("s", () => ({ log: ["s"] }))
      .addEdge(START, "s")
      .compile();
    const graph = new StateGraph(Log)
      .addNode("call", async () => {
        for await (const _ of await done.stream({ log: [] })) {
          // drained
        }
        return {};
      })
      .addEdge(START, "call")
      .compile();
    const chunks: [string[], unknown][] = [];
    for await (const chunk of await graph.stream({ log: [] }, { subgraphs: true })) {
      chunks.push(chunk as [string[], unknown]);
    }
    expect(chunks.map(([ns, payload]) => [ns.map((s) => s.split(":")[0]), payload])).toEqual([
      [["call"], { s: { log: ["s"] } }],
      [[], { call: {} }],
    ]);
  });
});

describe("the chunks of a run of invoke", () => {
  const Full = Annotation.Root({ q: Annotation<string>, a: Annotation<string>, tmp: Annotation<string> });
  const sub = new StateGraph(Full, {
    input: Annotation.Root({ q: Annotation<string> }),
    output: Annotation.Root({ a: Annotation<string> }),
  })
    .addNode("s", () => ({ tmp: "t" }))
    .addNode("s2", (s) => ({ a: `A${s.q}${s.tmp}`, tmp: "t2" }))
    .addEdge(START, "s")
    .addEdge("s", "s2")
    .compile();

  it("show its output keys in values and updates chunks, as in LangGraph.js", async () => {
    expect(await sub.invoke({ q: "x" }, { streamMode: ["values", "updates"] })).toEqual([
      ["updates", { s: {} }],
      ["updates", { s2: { a: "Axt" } }],
      ["values", { a: "Axt" }],
    ]);
  });

  it("do so for a subgraph node streamed with subgraphs: true, while stream() shows every key", async () => {
    const graph = new StateGraph(Full).addNode("sub", sub).addEdge(START, "sub").compile();
    const chunks: unknown[] = [];
    for await (const [ns, mode, chunk] of await graph.stream(
      { q: "x" },
      { subgraphs: true, streamMode: ["values", "updates"] },
    )) {
      chunks.push([ns.length, mode, chunk]);
    }
    expect(chunks).toEqual([
      [0, "values", { q: "x" }],
      [1, "updates", { s: {} }],
      [1, "updates", { s2: { a: "Axt" } }],
      [1, "values", { a: "Axt" }],
      [0, "updates", { sub: { a: "Axt" } }],
      [0, "values", { q: "x", a: "Axt" }],
    ]);
    const own: unknown[] = [];
    for await (const chunk of await sub.stream({ q: "x" }, { streamMode: "updates" })) own.push(chunk);
    expect(own).toEqual([{ s: { tmp: "t" } }, { s2: { a: "Axt", tmp: "t2" } }]);
  });
});
