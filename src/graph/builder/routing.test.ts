import { describe, expect, it } from "vitest";
import { Annotation, Command, END, InvalidUpdateError, Send, START, StateGraph } from "../index.js";

const State = Annotation.Root({
  items: Annotation<string[]>,
  out: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  n: Annotation<number>,
});

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the run to fail");
}

/** a → (router) → b | c, where b and c append their names to `out`. */
function routed(router: (s: typeof State.State) => unknown, pathMap?: unknown) {
  return new StateGraph(State)
    .addNode("a", () => ({}))
    .addNode("b", () => ({ out: ["b"] }))
    .addNode("c", () => ({ out: ["c"] }))
    .addEdge(START, "a")
    .addConditionalEdges("a", router as never, pathMap as never)
    .compile();
}

describe("conditional edges", () => {
  it("routes to the node the router names", async () => {
    expect((await routed(() => "c").invoke({ items: [] })).out).toEqual(["c"]);
  });

  it("routes to every node of a returned list (async router)", async () => {
    expect((await routed(async () => ["b", "c"]).invoke({ items: [] })).out).toEqual(["b", "c"]);
  });

  it("ends the branch when the router returns END, alone or in a list", async () => {
    expect((await routed(() => END).invoke({ items: [] })).out).toEqual([]);
    expect((await routed(() => [END, "b"]).invoke({ items: [] })).out).toEqual(["b"]);
  });

  it("maps router results through a path map object", async () => {
    const map = { go: "b", stop: END, other: "c" };
    expect((await routed(() => "go", map).invoke({ items: [] })).out).toEqual(["b"]);
    expect((await routed(() => "stop", map).invoke({ items: [] })).out).toEqual([]);
  });

  it("accepts a path map given as the list of allowed targets", async () => {
    expect((await routed(() => "c", ["b", "c"]).invoke({ items: [] })).out).toEqual(["c"]);
  });

  it("accepts the object form { source, path, pathMap }", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => ({}))
      .addNode("b", () => ({ out: ["b"] }))
      .addEdge(START, "a")
      .addConditionalEdges({ source: "a", path: () => "x", pathMap: { x: "b" } })
      .compile();
    expect((await graph.invoke({ items: [] })).out).toEqual(["b"]);
  });

  it("the router sees the state including its own node's update, and the node's config", async () => {
    let seen: unknown;
    let node: unknown;
    const graph = new StateGraph(State)
      .addNode("a", () => ({ n: 42, out: ["a"] }))
      .addNode("b", () => ({}))
      .addEdge(START, "a")
      .addConditionalEdges("a", (s, config) => {
        seen = s;
        node = [config.metadata?.langgraph_node, config.configurable?.foo];
        return "b";
      })
      .compile();
    await graph.invoke({ items: ["i"], n: 1, out: ["o"] }, { configurable: { foo: 1 } });
    expect(seen).toEqual({ items: ["i"], out: ["o", "a"], n: 42 });
    expect(node).toEqual(["a", 1]);
  });

  it("rejects a result that is not in the path map", async () => {
    const error = await rejection(routed(() => "zz", ["b", "c"]).invoke({ items: [] }));
    expect(error.message).toMatch(/^Branch condition returned unknown or null destination/);
    const nullError = await rejection(routed(() => null, ["b", "c"]).invoke({ items: [] }));
    expect(nullError.message).toMatch(/^Branch condition returned unknown or null destination/);
  });

  it("looks a boolean or number result up in the path map by its string form, as LangGraph.js does", async () => {
    expect(
      (await routed((s) => s.items.length > 0, { true: "b", false: "c" }).invoke({ items: ["x"] })).out,
    ).toEqual(["b"]);
    expect(
      (await routed((s) => s.items.length > 0, { true: "b", false: "c" }).invoke({ items: [] })).out,
    ).toEqual(["c"]);
    expect((await routed(() => 1, { 1: "c", 2: "b" }).invoke({ items: [] })).out).toEqual(["c"]);
    expect((await routed(() => 2, { 1: "c", 2: "b" }).invoke({ items: [] })).out).toEqual(["b"]);
    // a key the map lacks, even an inherited one, names nowhere
    const inherited = await rejection(routed(() => "toString", { b: "b", c: "c" }).invoke({ items: [] }));
    expect(inherited.message).toMatch(/^Branch condition returned unknown or null destination/);
  });

  it("without a path map, a boolean or number names the node of that string form", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => ({}))
      .addNode("true", () => ({ out: ["true"] }))
      .addNode("7", () => ({ out: ["7"] }))
      .addEdge(START, "a")
      .addConditionalEdges("a", (() => [true, 7]) as never)
      .compile();
    expect((await graph.invoke({ items: [] })).out.sort()).toEqual(["7", "true"]);
  });

  it("rejects a router that returns nothing, alone or inside a list (the reference's error)", async () => {
    for (const result of [undefined, null, "", [undefined], ["b", null]]) {
      const error = await rejection(routed(() => result).invoke({ items: [] }));
      expect(error.message).toMatch(/^Branch condition returned unknown or null destination/);
    }
    const error = await rejection(routed(() => undefined).invoke({ items: [] }));
    expect(error.message).toContain("returned undefined");
    expect(error.message).toContain("without a return statement");
  });

  it("rejects an unknown node without a path map (deliberate: the reference ignores it)", async () => {
    const error = await rejection(routed(() => "zz").invoke({ items: [] }));
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect(error.message).toContain('"zz"');
  });
});

describe("Send", () => {
  it("fans out one task per Send; writes apply pull tasks first, then sends in order", async () => {
    const graph = new StateGraph(State)
      .addNode("plan", () => ({}))
      .addNode("work", (async (arg: { item: string; delay: number }) => {
        await new Promise((r) => setTimeout(r, arg.delay));
        return { out: [arg.item] };
      }) as never)
      .addNode("other", () => ({ out: ["other"] }))
      .addEdge(START, "plan")
      .addConditionalEdges("plan", (s) => [
        ...s.items.map((item, k) => new Send("work", { item, delay: 30 - k * 10 })),
        "other",
      ])
      .compile();
    expect(await graph.invoke({ items: ["x", "y", "z"] })).toEqual({
      items: ["x", "y", "z"],
      out: ["other", "x", "y", "z"],
    });
    const chunks: unknown[] = [];
    for await (const chunk of await graph.stream({ items: ["x", "y", "z"] })) chunks.push(chunk);
    // updates stream in completion order
    expect(chunks).toEqual([
      { plan: {} },
      { other: { out: ["other"] } },
      { work: { out: ["z"] } },
      { work: { out: ["y"] } },
      { work: { out: ["x"] } },
    ]);
  });

  it("orders more than ten sends numerically, not as strings", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => ({}))
      .addNode("w", (async (x: { k: number }) => {
        await new Promise((r) => setTimeout(r, 15 - x.k));
        return { out: [String(x.k)] };
      }) as never)
      .addEdge(START, "a")
      .addConditionalEdges("a", () => Array.from({ length: 12 }, (_, k) => new Send("w", { k })))
      .compile();
    expect((await graph.invoke({ items: [] })).out).toEqual(Array.from({ length: 12 }, (_, k) => String(k)));
  });

  it("passes the Send's argument, not the state, as the node's input", async () => {
    const graph = new StateGraph(State)
      .addNode("plan", () => ({}))
      .addNode("work", (arg: unknown) => ({ out: [JSON.stringify(arg)] }))
      .addEdge(START, "plan")
      .addConditionalEdges("plan", () => new Send("work", { q: 1 }))
      .compile();
    expect((await graph.invoke({ items: [] })).out).toEqual(['{"q":1}']);
  });

  it("can fan out from START", async () => {
    const graph = new StateGraph(State)
      .addNode("work", ((arg: { item: string }) => ({ out: [arg.item] })) as never)
      .addConditionalEdges(START, (s) => s.items.map((item) => new Send("work", { item })))
      .compile();
    expect((await graph.invoke({ items: ["p", "q"] })).out).toEqual(["p", "q"]);
  });

  it("rejects a Send to an unknown node", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addConditionalEdges("a", () => [new Send("zz", {})])
      .compile();
    const error = await rejection(graph.invoke({ items: [] }));
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect(error.message).toMatch(/^Invalid node name "zz" in Send packet/);
  });

  it("rejects a Send to END from a router or a Command with the reference's message", async () => {
    const routedToEnd = new StateGraph(State)
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addConditionalEdges("a", () => [new Send(END, {})])
      .compile();
    const commanded = new StateGraph(State)
      .addNode("a", () => new Command({ goto: new Send(END, {}) }))
      .addEdge(START, "a")
      .compile();
    for (const graph of [routedToEnd, commanded]) {
      const error = await rejection(graph.invoke({ items: [] }));
      expect(error).toBeInstanceOf(InvalidUpdateError);
      expect(error.message).toMatch(/^Cannot send a packet to the END node/);
    }
  });
});
