import { describe, expect, it } from "vitest";
import { Annotation, type LangGraphRunnableConfig, START, StateGraph } from "../index.js";

const State = Annotation.Root({
  n: Annotation<number>,
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

describe("objects with invoke(input, config) as nodes", () => {
  it("runs the object's invoke with the node's input and config", async () => {
    const seen: { input: unknown; node: unknown; self: boolean }[] = [];
    class Doubler {
      readonly factor = 2;
      async invoke(input: { n: number }, config: LangGraphRunnableConfig) {
        seen.push({ input, node: config.metadata?.langgraph_node, self: this instanceof Doubler });
        return { n: input.n * this.factor, log: ["doubled"] };
      }
    }
    const graph = new StateGraph(State).addNode("double", new Doubler()).addEdge(START, "double").compile();
    expect(await graph.invoke({ n: 21 })).toEqual({ n: 42, log: ["doubled"] });
    expect(seen).toEqual([{ input: { n: 21, log: [] }, node: "double", self: true }]);
  });

  it("accepts plain objects, in the object and list forms of addNode too", async () => {
    const inc = { invoke: (s: { n: number }) => ({ n: s.n + 1 }) };
    const graph = new StateGraph(State)
      .addNode({ first: inc })
      .addNode([["second", inc]])
      .addEdge(START, "first")
      .addEdge("first", "second")
      .compile();
    expect((await graph.invoke({ n: 0 })).n).toBe(2);
  });

  it("still rejects objects without invoke, with the reference message", () => {
    expect(() => new StateGraph(State).addNode("x", { run: () => ({}) } as never)).toThrow(
      /^Expected a Runnable, function or object\.\nInstead got an unsupported type\. Node `x` must be/,
    );
  });
});
