import { describe, expect, it } from "vitest";
import { isDirectToolOutput } from "../../messages/index.js";
import {
  Annotation,
  Command,
  END,
  InvalidUpdateError,
  isCommand,
  isSend,
  MemorySaver,
  Overwrite,
  Send,
  START,
  StateGraph,
  unwrapOverwrite,
} from "../index.js";

const State = Annotation.Root({
  out: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  n: Annotation<number>,
});

async function collect<T>(stream: Promise<AsyncIterable<T>>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of await stream) out.push(chunk);
  return out;
}

describe("Command, Send and Overwrite values", () => {
  it("normalise goto to a list and serialise like LangGraph.js", () => {
    const command = new Command({ update: { n: 1 }, goto: "b" });
    expect(command.goto).toEqual(["b"]);
    expect(new Command({}).goto).toEqual([]);
    expect(JSON.parse(JSON.stringify(command))).toEqual({
      lg_name: "Command",
      update: { n: 1 },
      goto: ["b"],
    });
    // LangGraph.js 1.7.3 always writes goto (a list) and leaves the target graph out
    expect(JSON.stringify(new Command({ resume: 1 }))).toBe('{"lg_name":"Command","resume":1,"goto":[]}');
    expect(JSON.stringify(new Command({ graph: Command.PARENT, goto: "x", update: { a: 1 } }))).toBe(
      '{"lg_name":"Command","update":{"a":1},"goto":["x"]}',
    );
    expect(new Command({}).toJSON()).toStrictEqual({
      lg_name: "Command",
      update: undefined,
      resume: undefined,
      goto: [],
    });
    expect(JSON.parse(JSON.stringify(new Send("w", { k: 1 })))).toEqual({
      lg_name: "Send",
      node: "w",
      args: { k: 1 },
    });
    expect(JSON.parse(JSON.stringify(new Overwrite([1])))).toEqual({ __overwrite__: [1] });
    expect(Command.PARENT).toBe("__parent__");
  });

  it("carry LangGraph.js's lc_direct_tool_output flag, so tools return them as they are", () => {
    const command = new Command({ update: { n: 1 } });
    expect(command.lc_direct_tool_output).toBe(true);
    expect(Object.keys(command)).toContain("lc_direct_tool_output");
    expect(isDirectToolOutput(command)).toBe(true);
  });

  it("have LangGraph.js's keys, in its order", () => {
    expect(Object.keys(new Command({ goto: "b", update: { n: 1 }, resume: 2 }))).toEqual([
      "lg_name",
      "lc_direct_tool_output",
      "graph",
      "update",
      "resume",
      "goto",
    ]);
  });

  it("are recognised by shape, across package copies", () => {
    expect(isCommand({ lg_name: "Command", goto: [] })).toBe(true);
    expect(isCommand({ goto: [] })).toBe(false);
    expect(isSend({ lg_name: "Send", node: "x", args: 1 })).toBe(true);
    expect(unwrapOverwrite({ lg_name: "Overwrite", value: 3 })).toEqual({ overwrite: true, value: 3 });
    expect(unwrapOverwrite({ __overwrite__: 3 })).toEqual({ overwrite: true, value: 3 });
    expect(unwrapOverwrite({ __overwrite__: 3, other: 1 })).toBeUndefined();
  });
});

describe("Command returned by a node", () => {
  it("updates state and routes, in addition to the node's static edges", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => new Command({ goto: "c", update: { n: 1 } }), { ends: ["c"] })
      .addNode("b", () => ({ out: ["b"] }))
      .addNode("c", () => ({ out: ["c"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    expect(await graph.invoke({})).toEqual({ out: ["b", "c"], n: 1 });
    expect(await collect(graph.stream({}))).toEqual([
      { a: { n: 1 } },
      { b: { out: ["b"] } },
      { c: { out: ["c"] } },
    ]);
  });

  it("goto may mix node names and Sends", async () => {
    const graph = new StateGraph(State)
      .addNode(
        "a",
        () =>
          new Command({
            update: { n: 1 },
            goto: [new Send("w", { item: "s1" }), "b", new Send("w", { item: "s2" })],
          }),
        { ends: ["w", "b"] },
      )
      .addNode("w", ((arg: { item: string }) => ({ out: [arg.item] })) as never)
      .addNode("b", () => ({ out: ["b"] }))
      .addEdge(START, "a")
      .compile();
    expect(await graph.invoke({})).toEqual({ out: ["b", "s1", "s2"], n: 1 });
  });

  it("goto END routes nowhere", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => new Command({ update: { n: 2 }, goto: END }), { ends: ["b"] })
      .addNode("b", () => ({ out: ["b"] }))
      .addEdge(START, "a")
      .compile();
    expect(await graph.invoke({})).toEqual({ out: [], n: 2 });
  });

  it("an update given as [key, value] pairs may write a key twice (updates lists both)", async () => {
    const graph = new StateGraph(State)
      .addNode(
        "a",
        () =>
          new Command<unknown, Record<string, unknown>>({
            update: [
              ["out", ["1"]],
              ["out", ["2"]],
            ],
          }),
      )
      .addEdge(START, "a")
      .compile();
    expect(await graph.invoke({})).toEqual({ out: ["1", "2"] });
    expect(await collect(graph.stream({}))).toEqual([{ a: [{ out: ["1"] }, { out: ["2"] }] }]);
  });

  it("a node may return a list of Commands (and updates next to them)", async () => {
    const graph = new StateGraph(State)
      .addNode(
        "a",
        () => [
          new Command({ update: { n: 1 }, goto: "b" }),
          new Command({ update: { out: ["x"] }, goto: "c" }),
        ],
        { ends: ["b", "c"] },
      )
      .addNode("b", () => ({ out: ["b"] }))
      .addNode("c", () => ({ out: ["c"] }))
      .addEdge(START, "a")
      .compile();
    expect(await graph.invoke({})).toEqual({ out: ["x", "b", "c"], n: 1 });
    expect(await collect(graph.stream({}))).toEqual([
      { a: { n: 1, out: ["x"] } },
      { b: { out: ["b"] } },
      { c: { out: ["c"] } },
    ]);
    const mixed = new StateGraph(State)
      .addNode("a", () => [{ n: 1 }, new Command({ update: { out: ["y"] } })])
      .addEdge(START, "a")
      .compile();
    expect(await mixed.invoke({})).toEqual({ out: ["y"], n: 1 });
  });

  it("goto to an unknown node fails (deliberate: the reference ignores it)", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => new Command({ goto: "zz" }))
      .addEdge(START, "a")
      .compile();
    await expect(graph.invoke({})).rejects.toThrow(InvalidUpdateError);
    await expect(graph.invoke({})).rejects.toThrow(/"zz"/);
  });

  it("a Send to an unknown node in goto fails with the reference message", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => new Command({ goto: new Send("zz", {}) }))
      .addEdge(START, "a")
      .compile();
    await expect(graph.invoke({})).rejects.toThrow(/^Invalid node name "zz" in Send packet/);
  });

  it.each([
    ["null", [null]],
    ["undefined", ["a", undefined]],
  ])(
    "a goto list holding %s fails as a router's null destination does in the reference",
    async (_kind, goto) => {
      const graph = new StateGraph(State)
        .addNode("a", () => new Command({ goto: goto as never }))
        .addEdge(START, "a")
        .compile();
      const error = await graph.invoke({}).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error).toBeInstanceOf(InvalidUpdateError);
      expect(error?.message).toMatch(/^Branch condition returned unknown or null destination/);
    },
  );

  it.each([
    ["null", null],
    ["an empty string", ""],
  ])("a goto of %s means no goto, as in the reference", async (_kind, goto) => {
    const command = new Command({ update: { n: 1 }, goto: goto as never });
    expect(command.goto).toEqual([]);
    const graph = new StateGraph(State)
      .addNode("a", () => command)
      .addEdge(START, "a")
      .compile();
    expect(await graph.invoke({})).toEqual({ out: [], n: 1 });
  });

  it("a Send to an unknown node fails the task that sends it, as the reference does", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => new Command({ goto: new Send("zz", {}) }))
      .addEdge(START, "a")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" }, recursionLimit: 1 };
    const chunks: unknown[] = [];
    const error = await (async () => {
      try {
        for await (const chunk of await graph.stream({ out: ["in"] }, { ...config, streamMode: "updates" }))
          chunks.push(chunk);
      } catch (e) {
        return e as Error;
      }
      throw new Error("expected the run to fail");
    })();
    // the node's task fails (not the next step, which the recursion limit would stop first)
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect(error.message).toMatch(/^Invalid node name "zz" in Send packet/);
    expect(chunks).toEqual([]);
    const state = await graph.getState(config);
    expect(state.values).toEqual({ out: ["in"] });
    expect(state.next).toEqual(["a"]);
  });
});

describe("Overwrite through a reducer key", () => {
  it("replaces the reduced value", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => ({ out: ["a"] }))
      .addNode("b", () => ({ out: new Overwrite(["reset"]) as never }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    expect(await graph.invoke({ out: ["init"] })).toEqual({ out: ["reset"] });
    expect(await collect(graph.stream({ out: ["init"] }, { streamMode: "values" }))).toEqual([
      { out: ["init"] },
      { out: ["init", "a"] },
      { out: ["reset"] },
    ]);
  });

  it("wins over plain writes of the same step, in either order", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => ({ out: ["a"] }))
      .addNode("b", () => ({ out: new Overwrite(["reset"]) as never }))
      .addNode("c", () => ({ out: ["c"] }))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .addEdge(START, "c")
      .compile();
    expect(await graph.invoke({ out: ["init"] })).toEqual({ out: ["reset"] });
  });

  it("accepts the JSON form", async () => {
    const graph = new StateGraph(State)
      .addNode("b", () => ({ out: { __overwrite__: ["J"] } as never }))
      .addEdge(START, "b")
      .compile();
    expect(await graph.invoke({ out: ["init"] })).toEqual({ out: ["J"] });
  });

  it("two Overwrites of one key in one step are an error", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => ({ out: new Overwrite(["A"]) as never }))
      .addNode("b", () => ({ out: new Overwrite(["B"]) as never }))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .compile();
    const error = await graph.invoke({ out: ["init"] }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect(error?.message).toMatch(
      /^Invalid update for channel "out" with values \[\{"__overwrite__":\["A"\]\},\{"__overwrite__":\["B"\]\}\]: Can receive only one Overwrite value per step\./,
    );
  });
});
