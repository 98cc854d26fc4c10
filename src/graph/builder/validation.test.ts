import { describe, expect, it } from "vitest";
import { Annotation, END, InvalidGraphError, START, StateGraph, UnreachableNodeError } from "../index.js";

const State = Annotation.Root({ a: Annotation<string> });
const noop = () => ({});
const base = () => new StateGraph(State).addNode("x", noop).addNode("y", noop);

/** The error a builder call throws (fails the test when nothing is thrown). */
function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected an error");
}

describe("node names", () => {
  it.each([START, END])("rejects the reserved name %s", (name) => {
    const error = errorOf(() => new StateGraph(State).addNode(name, noop));
    expect(error).toBeInstanceOf(InvalidGraphError);
    expect(error.message).toMatch(new RegExp(`^Node \`${name}\` is reserved\\.`));
  });

  it.each(["|", ":"])("rejects the reserved character %s", (ch) => {
    expect(() => new StateGraph(State).addNode(`a${ch}b`, noop)).toThrow(
      `"${ch}" is a reserved character and is not allowed in node names.`,
    );
  });

  it("rejects a duplicate node", () => {
    expect(() => new StateGraph(State).addNode("x", noop).addNode("x", noop)).toThrow(
      /^Node `x` already present\./,
    );
  });

  it("rejects a node named like a state key", () => {
    expect(() => new StateGraph(State).addNode("a", noop)).toThrow(
      /^a is already being used as a state attribute \(a\.k\.a\. a channel\), cannot also be used as a node name\./,
    );
  });

  it("rejects an action that is neither a function nor a compiled graph, with the reference message", () => {
    expect(() => new StateGraph(State).addNode("x", 5 as never)).toThrow(
      /^Expected a Runnable, function or object\.\nInstead got an unsupported type\./,
    );
  });
});

describe("state keys declared again", () => {
  const concat = (a: string[], b: string[]) => a.concat(b);
  const Logged = Annotation.Root({
    v: Annotation<string>,
    log: Annotation<string[]>({ reducer: concat, default: () => [] }),
  });
  const channelClasses = (graph: { channels: Record<string, object> }) =>
    Object.entries(graph.channels).map(([key, channel]) => `${channel.constructor.name}:${key}`);

  it("refuses another kind of channel for a key, in an input, output or node input schema (as LangGraph.js)", () => {
    const otherReducer = Annotation.Root({
      log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    });
    const message = 'Channel "log" already exists with a different type.';
    expect(() => new StateGraph(Logged, { output: otherReducer })).toThrow(message);
    expect(() => new StateGraph(Logged, { input: otherReducer, output: Logged })).toThrow(message);
    expect(() => new StateGraph(Logged).addNode("n", noop, { input: otherReducer })).toThrow(message);
    const reducedLater = Annotation.Root({
      log: Annotation<string[]>({ reducer: concat, default: () => [] }),
    });
    expect(
      () => new StateGraph(Annotation.Root({ log: Annotation<string[]> }), { output: reducedLater }),
    ).toThrow(message);
  });

  it("keeps the state's channel for the same reducer, a plain value or the state schema itself", () => {
    const sameReducer = Annotation.Root({
      log: Annotation<string[]>({ reducer: concat, default: () => [] }),
    });
    const plain = Annotation.Root({ log: Annotation<string[]> });
    for (const graph of [
      new StateGraph(Logged, { output: sameReducer }),
      new StateGraph(Logged, { input: plain, output: Logged }),
      new StateGraph(Logged).addNode("n", noop, { input: Logged }),
    ]) {
      expect(channelClasses(graph)).toEqual(["LastValue:v", "BinaryOperatorAggregate:log"]);
    }
  });
});

describe("edges", () => {
  it("rejects edges from END and to START", () => {
    expect(() => base().addEdge(END as never, "x")).toThrow(/^END cannot be a start node/);
    expect(() => base().addEdge("x", START as never)).toThrow(/^START cannot be an end node/);
  });

  it("rejects a waiting edge from START, to END, or between unknown nodes", () => {
    expect(() => base().addEdge([START as never, "x"], "y")).toThrow(
      /^Need to add a node named "__start__" first/,
    );
    expect(() => base().addEdge(["x", "y"], END)).toThrow(/^END cannot be an end node/);
    expect(() => base().addEdge([END as never, "x"], "y")).toThrow(/^END cannot be a start node/);
    expect(() => base().addEdge(["x", "zz" as never], "y")).toThrow(/^Need to add a node named "zz" first/);
    expect(() => base().addEdge(["x", "y"], "zz" as never)).toThrow(/^Need to add a node named "zz" first/);
  });

  it("rejects an edge to an unknown node at compile time", () => {
    const error = errorOf(() =>
      base()
        .addEdge(START, "x")
        .addEdge("x", "y")
        .addEdge("y", "zz" as never)
        .compile(),
    );
    expect(error).toBeInstanceOf(InvalidGraphError);
    expect(error.message).toMatch(/^Found edge ending at unknown node `zz`/);
  });

  it("rejects an edge from an unknown node at compile time", () => {
    expect(() =>
      base()
        .addEdge(START, "x")
        .addEdge("x", "y")
        .addEdge("zz" as never, "y")
        .compile(),
    ).toThrow(/^Found edge starting at unknown node `zz`/);
  });

  it("rejects a conditional edge from an unknown node", () => {
    expect(() =>
      base()
        .addEdge(START, "x")
        .addEdge("x", "y")
        .addConditionalEdges("zz" as never, () => "y")
        .compile(),
    ).toThrow(/^Found edge starting at unknown node `zz`/);
  });

  it.each([
    ["an object", { y: "y", q: "zz" }],
    ["an array", ["y", "zz"]],
  ])("rejects a path map (%s) naming an unknown node", (_kind, pathMap) => {
    expect(() =>
      base()
        .addEdge(START, "x")
        .addConditionalEdges("x", () => "y", pathMap as never)
        .compile(),
    ).toThrow(/^Found edge ending at unknown node `zz`/);
  });

  it("checks unknown sources, then unreachable nodes, then unknown targets, as the reference does", () => {
    // an unknown target and an unreachable node: the reference reports the unreachable node
    const unreachableFirst = errorOf(() =>
      base()
        .addEdge(START, "x")
        .addEdge("x", "zz" as never)
        .compile(),
    );
    expect(unreachableFirst).toBeInstanceOf(UnreachableNodeError);
    expect(unreachableFirst.message).toMatch(/^Node `y` is not reachable\./);
    // an unknown target listed before an unknown source: the source is reported
    expect(() =>
      base()
        .addEdge(START, "x")
        .addEdge("x", "y")
        .addEdge("y", "zz" as never)
        .addEdge("qq" as never, "y")
        .compile(),
    ).toThrow(/^Found edge starting at unknown node `qq`/);
    // an unknown source and an unreachable node: the source is reported
    expect(() =>
      base()
        .addEdge(START, "x")
        .addEdge("qq" as never, "x")
        .compile(),
    ).toThrow(/^Found edge starting at unknown node `qq`/);
  });

  it("rejects unknown nodes in a node's ends", () => {
    expect(() =>
      new StateGraph(State)
        .addNode("x", noop, { ends: ["zz" as never] })
        .addEdge(START, "x")
        .compile(),
    ).toThrow(/^Found edge ending at unknown node `zz`/);
  });

  it("rejects a routing value that is not a function, with the reference message", () => {
    expect(() => base().addConditionalEdges("x", 5 as never)).toThrow(
      /^Expected a Runnable, function or object\.\nInstead got an unsupported type\./,
    );
  });

  it("rejects a second conditional edge from the same node, as the reference does", () => {
    expect(() =>
      base()
        .addEdge(START, "x")
        .addConditionalEdges("x", () => "y")
        .addConditionalEdges("x", () => END),
    ).toThrow(/^Condition `condition` already present for node `x`/);
  });
});

describe("entry point and reachability", () => {
  it("requires an edge from START: the reference's unreachable-node error, with how to add the entrypoint", () => {
    const error = errorOf(() => base().addEdge("x", "y").compile());
    expect(error).toBeInstanceOf(UnreachableNodeError);
    expect(error.message).toMatch(/^Node `x` is not reachable\./);
    expect(error.message).toContain(
      'No edge leaves START: the graph needs an entrypoint, e.g. addEdge(START, "x")',
    );
    expect((error as UnreachableNodeError).lc_error_code).toBe("UNREACHABLE_NODE");
  });

  it("compiles a graph without nodes, which returns its input (as LangGraph.js does)", async () => {
    const State = Annotation.Root({
      v: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    });
    expect(await new StateGraph(State).compile().invoke({ v: ["x"] })).toEqual({ v: ["x"] });
  });

  it("rejects a node no edge leads to", () => {
    const error = errorOf(() => base().addEdge(START, "x").compile());
    expect(error).toBeInstanceOf(UnreachableNodeError);
    expect(error.message).toMatch(
      /^Node `y` is not reachable\.\n\nIf you are returning Command objects from your node,\nmake sure you are passing names of potential destination nodes as an "ends" array\ninto "\.addNode\(\.\.\., \{ ends: \["node1", "node2"\] \}\)"\./,
    );
  });

  it("counts conditional edges without a path map, path maps and ends as reaching nodes", () => {
    expect(() =>
      base()
        .addEdge(START, "x")
        .addConditionalEdges("x", () => "y")
        .compile(),
    ).not.toThrow();
    expect(() =>
      base()
        .addEdge(START, "x")
        .addConditionalEdges("x", () => "y", ["y"])
        .compile(),
    ).not.toThrow();
    expect(() =>
      new StateGraph(State)
        .addNode("x", noop, { ends: ["y"] })
        .addNode("y", noop)
        .addEdge(START, "x")
        .compile(),
    ).not.toThrow();
  });

  it("accepts a conditional edge from START as the entry point", async () => {
    const graph = base()
      .addConditionalEdges(START, () => "y")
      .compile();
    expect(await graph.invoke({ a: "1" })).toEqual({ a: "1" });
  });
});

describe("compile options", () => {
  it.each(["interruptBefore", "interruptAfter"] as const)("rejects an unknown node in %s", (key) => {
    expect(() =>
      base()
        .addEdge(START, "x")
        .addEdge("x", "y")
        .compile({ [key]: ["zz"] } as never),
    ).toThrow(/^Interrupt node `zz` is not present/);
  });
});
