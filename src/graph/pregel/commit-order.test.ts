/**
 * The order in which the tasks of one step are committed (their `updates` chunks, interrupts
 * included) when they finish together. Expected values: @langchain/langgraph 1.7.3, where a task
 * settles once its node's writers ran (a node with no edges before one with edges, before one with
 * a router), a failing node sooner, and the loop then takes the first started among the tasks
 * settled by then.
 */
import { describe, expect, it } from "vitest";
import {
  Annotation,
  Command,
  END,
  interrupt,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from "../../index.js";
import { AIMessage, type BaseMessage } from "../../messages/index.js";
import { collect } from "./persistence.test-helpers.js";

const State = Annotation.Root({
  l: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

type Update = { l: string[] } | Command | undefined;
type Node = () => Update | Promise<Update>;
/** No edge, an edge to z, a router to END, a router to z. */
type Out = "none" | "edge" | "router" | "route";

const sync =
  (name: string): Node =>
  () => ({ l: [name] });
const async =
  (name: string): Node =>
  async () => ({ l: [name] });
const awaiting =
  (name: string, turns: number): Node =>
  async () => {
    for (let i = 0; i < turns; i++) await null;
    return { l: [name] };
  };
const interrupting =
  (name: string, turns = 0): Node =>
  async () => {
    for (let i = 0; i < turns; i++) await null;
    return { l: [interrupt(name) as string] };
  };
const syncInterrupt =
  (name: string): Node =>
  () => ({ l: [interrupt(name) as string] });

/** The names of the step's `updates` chunks (`I:<value>` for an interrupt), `START` fanning out to every node. */
async function order(nodes: [name: string, node: Node, out: Out][]): Promise<string> {
  // z and y are only reached through START's router (which routes nowhere), so they stay out of the step
  let graph = new StateGraph(State)
    .addNode("z", () => ({}))
    .addNode("y", () => ({}))
    .addConditionalEdges(START, () => [], ["z", "y"]);
  // typed as one of the fixed nodes: the names vary, the graph's type does not
  for (const [name, node] of nodes) graph = graph.addNode(name as "z", node).addEdge(START, name as "z");
  for (const [name, , out] of nodes) {
    if (out === "edge") graph = graph.addEdge(name as "z", "z");
    if (out === "router") graph = graph.addConditionalEdges(name as "z", () => END);
    if (out === "route") graph = graph.addConditionalEdges(name as "z", () => "z" as const, ["z"]);
  }
  const compiled = graph.compile({ checkpointer: new MemorySaver() });
  const chunks = await collect(
    compiled.stream({}, { configurable: { thread_id: "t" }, streamMode: "updates" }),
  );
  const seen: string[] = [];
  for (const chunk of chunks) {
    const record = chunk as Record<string, unknown>;
    const key = Object.keys(record)[0] as string;
    if (key === "__interrupt__") {
      const values = (record[key] as { value: unknown }[]).map((i) => String(i.value));
      seen.push(`I:${values.join("+")}`);
    } else if (key !== "z" && key !== "y") seen.push(key);
  }
  return seen.join(",");
}

const nothing = (): Node => () => undefined;
const asyncNothing = (): Node => async () => undefined;
const gotoZ = (): Node => () => new Command({ goto: "z" });
const asyncGotoZ = (): Node => async () => new Command({ goto: "z" });
const commandUpdate =
  (name: string): Node =>
  () =>
    new Command({ update: { l: [name] } });

describe("the commits of a step's tasks that finish together", () => {
  it("come after their nodes' writers: no edges, then edges, then a router", async () => {
    expect(
      await order([
        ["a", sync("a"), "edge"],
        ["b", sync("b"), "none"],
      ]),
    ).toBe("b,a");
    expect(
      await order([
        ["a", sync("a"), "router"],
        ["b", sync("b"), "edge"],
      ]),
    ).toBe("b,a");
    expect(
      await order([
        ["a", sync("a"), "edge"],
        ["b", sync("b"), "edge"],
      ]),
    ).toBe("a,b");
    expect(
      await order([
        ["a", sync("a"), "router"],
        ["b", sync("b"), "edge"],
        ["c", sync("c"), "none"],
      ]),
    ).toBe("c,b,a");
  });

  it("put a node's promise a little after the synchronous nodes, and ahead of a writer's turns", async () => {
    expect(
      await order([
        ["a", async("a"), "none"],
        ["b", sync("b"), "none"],
      ]),
    ).toBe("b,a");
    expect(
      await order([
        ["a", async("a"), "none"],
        ["b", sync("b"), "edge"],
      ]),
    ).toBe("a,b");
    expect(
      await order([
        ["a", awaiting("a", 1), "edge"],
        ["b", sync("b"), "router"],
      ]),
    ).toBe("a,b");
  });

  it("take the first started among the tasks settled when the previous commit is done", async () => {
    // b settles first; a and c have both settled once b is committed
    expect(
      await order([
        ["a", async("a"), "none"],
        ["b", sync("b"), "none"],
        ["c", sync("c"), "none"],
      ]),
    ).toBe("b,a,c");
    expect(
      await order([
        ["a", sync("a"), "none"],
        ["b", async("b"), "none"],
        ["c", sync("c"), "none"],
      ]),
    ).toBe("a,b,c");
    // c settles right after a; b's writer is still running then
    expect(
      await order([
        ["a", sync("a"), "none"],
        ["b", sync("b"), "edge"],
        ["c", sync("c"), "none"],
      ]),
    ).toBe("a,c,b");
  });

  it("put an interrupt before the successes, unless its node kept running long after theirs", async () => {
    expect(
      await order([
        ["a", sync("a"), "none"],
        ["b", interrupting("b", 1), "none"],
        ["c", async("c"), "none"],
        ["d", syncInterrupt("d"), "none"],
      ]),
    ).toBe("I:d,I:b,a,c");
    expect(
      await order([
        ["a", sync("a"), "none"],
        ["b", interrupting("b", 21), "none"],
      ]),
    ).toBe("I:b,a");
    expect(
      await order([
        ["a", sync("a"), "none"],
        ["b", interrupting("b", 22), "none"],
      ]),
    ).toBe("a,I:b");
  });

  it("move by what the node did: nothing returned, a goto, a router's choice, an async node's writers", async () => {
    /** The order of two parallel nodes, `a` started first. */
    const pair = (a: [Node, Out], b: [Node, Out]) =>
      order([
        ["a", ...a],
        ["b", ...b],
      ]);
    // a node that returned nothing settles a turn sooner
    expect(await pair([sync("a"), "none"], [nothing(), "none"])).toBe("b,a");
    expect(await pair([commandUpdate("a"), "edge"], [nothing(), "edge"])).toBe("b,a");
    // a Command with a goto settles a turn later
    expect(await pair([gotoZ(), "edge"], [sync("b"), "edge"])).toBe("b,a");
    expect(await pair([asyncNothing(), "none"], [gotoZ(), "none"])).toBe("a,b");
    // a router that chose a node settles a turn later than one that chose END
    expect(await pair([sync("a"), "router"], [awaiting("b", 24), "none"])).toBe("a,b");
    expect(await pair([sync("a"), "route"], [awaiting("b", 24), "none"])).toBe("b,a");
    expect(await pair([sync("a"), "route"], [awaiting("b", 25), "none"])).toBe("a,b");
    expect(await pair([nothing(), "route"], [awaiting("b", 23), "none"])).toBe("b,a");
    // an async node's result takes a turn more through its writers
    expect(await pair([async("a"), "edge"], [awaiting("b", 11), "none"])).toBe("b,a");
    expect(await pair([async("a"), "edge"], [awaiting("b", 12), "none"])).toBe("a,b");
    expect(await pair([asyncGotoZ(), "none"], [awaiting("b", 1), "none"])).toBe("b,a");
    expect(await pair([asyncGotoZ(), "none"], [awaiting("b", 2), "none"])).toBe("a,b");
  });

  it("stream a nested graph's chunks and its update after the siblings that finished at once", async () => {
    const inner = new StateGraph(State)
      .addNode("i1", () => ({ l: ["i1"] }))
      .addEdge(START, "i1")
      .compile();
    const graph = () =>
      new StateGraph(State)
        .addNode("s", inner)
        .addNode("b", sync("b"))
        .addNode("z", () => ({}))
        .addEdge(START, "s")
        .addEdge(START, "b")
        .addEdge("b", "z")
        .compile();
    const updates = await collect(graph().stream({}, { streamMode: "updates" }));
    expect(updates.map((chunk) => Object.keys(chunk)[0])).toEqual(["b", "s", "z"]);
    const nested = await collect(graph().stream({}, { streamMode: "updates", subgraphs: true }));
    expect(nested.map(([ns, chunk]) => `${ns.length > 0 ? "s/" : ""}${Object.keys(chunk)[0]}`)).toEqual([
      "b",
      "s/i1",
      "s",
      "z",
    ]);
  });

  it("come after the messages stream heard each of those nodes finish", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("a", () => ({ messages: [new AIMessage({ content: "from a", id: "ma" })] }))
      .addNode("b", async () => ({ messages: [new AIMessage({ content: "from b", id: "mb" })] }))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .compile();
    const chunks = await collect(graph.stream({ messages: [] }, { streamMode: ["messages", "updates"] }));
    const seen = chunks.map(([mode, chunk]) =>
      mode === "messages"
        ? `m:${(chunk as [BaseMessage, unknown])[0].id}`
        : `u:${Object.keys(chunk as Record<string, unknown>)[0]}`,
    );
    expect(seen).toEqual(["m:ma", "m:mb", "u:a", "u:b"]);
  });

  it("keep the start order of many tasks alike (a step's tasks start in the order of their names)", async () => {
    const names = Array.from({ length: 80 }, (_, i) => `n${i}`);
    expect(await order(names.map((name) => [name, sync(name), "edge"]))).toBe([...names].sort().join(","));
  });
});
