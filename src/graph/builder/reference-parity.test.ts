import { afterEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import { z } from "zod";
import {
  Annotation,
  Command,
  END,
  MemorySaver,
  NodeInterrupt,
  START,
  StateGraph,
  type StateGraphArgs,
} from "../index.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the legacy channel map of new StateGraph({ channels })", () => {
  const concat = (left: unknown, right: unknown) => (left as string[]).concat(right as string[]);
  const add = (left: unknown, right: unknown) => (left as number) + (right as number);

  it("reads null as a last-value key and { reducer, default } / { value } as reduced keys", async () => {
    const graph = new StateGraph({
      channels: {
        title: null,
        tags: { reducer: concat, default: () => [] },
        total: { value: add, default: () => 10 },
      },
    })
      .addNode("tag", () => ({ title: "renamed", tags: ["b"], total: 5 }))
      .addEdge(START, "tag")
      .compile();
    expect(await graph.invoke({ title: "first", tags: ["a"] })).toEqual({
      title: "renamed",
      tags: ["a", "b"],
      total: 15,
    });
  });

  it("keeps a key whose node wrote undefined through a reducer that ignores it", async () => {
    const graph = new StateGraph({
      channels: {
        note: null,
        kept: { default: () => "", reducer: (left: unknown, right: unknown) => right ?? left },
      },
    })
      .addNode("write", () => ({ note: "n", kept: "stays" }))
      .addNode("wipe", () => ({ note: undefined, kept: undefined }))
      .addEdge(START, "write")
      .addEdge("write", "wipe")
      .addEdge("wipe", END)
      .compile();
    expect(await graph.invoke({})).toEqual({ kept: "stays" });
  });

  it("takes a map typed by the state it declares, as the docs' new StateGraph<WorkflowState>({ channels })", async () => {
    interface WorkflowState {
      messages: string[];
      question: string;
      answer: string;
    }
    // the reducer is written over the key's own type (tsc rejected it against unknown before)
    const workflow = new StateGraph<WorkflowState>({
      channels: {
        messages: {
          reducer: (current: string[], update: string[]) => current.concat(update),
          default: () => [],
        },
        question: null,
        answer: null,
      },
    });
    const graph = workflow
      .addNode("reply", () => ({ answer: "42", messages: ["a"] }))
      .addEdge(START, "reply")
      .compile();
    expect(await graph.invoke({ question: "q", messages: ["q"] })).toEqual({
      messages: ["q", "a"],
      question: "q",
      answer: "42",
    });
  });

  it("is typed by StateGraphArgs<State>['channels'], as older LangGraph.js programs declare it", async () => {
    interface AgentState {
      messages: string[];
      next: string;
      input: string | null;
    }
    const graphState: StateGraphArgs<AgentState>["channels"] = {
      messages: { value: (x: string[], y: string[]) => x.concat(y), default: () => [] },
      next: { value: (_x, y) => y, default: () => "start" },
      input: null,
    };
    const graph = new StateGraph<AgentState>({ channels: graphState })
      .addNode("agent", (s: AgentState) => ({ messages: [`hi ${s.input}`], next: `after ${s.next}` }))
      .addEdge(START, "agent")
      .compile();
    expect(await graph.invoke({ messages: ["x"], input: "in" })).toEqual({
      messages: ["x", "hi in"],
      next: "after start",
      input: "in",
    });
  });
});

describe("a legacy channel map typed by StateGraphArgs<State> (the how-tos' respond-in-format)", () => {
  it("types the map, the nodes and the routers by the state (tsc checks this file)", async () => {
    interface IState {
      messages: string[];
      done?: boolean;
    }
    const graphState: StateGraphArgs<IState>["channels"] = {
      messages: { value: (x: string[], y: string[]) => x.concat(y), default: () => [] },
      done: null,
    };
    // a router over the state type itself (before: Record<string, unknown>, which tsc rejected)
    const route = (state: IState) => (state.messages.length > 2 ? END : "more");
    const more = (state: IState): Partial<IState> => ({ messages: [`m${state.messages.length}`] });
    const graph = new StateGraph<IState>({ channels: graphState })
      .addNode("more", more)
      .addEdge(START, "more")
      .addConditionalEdges("more", route)
      .compile();
    const out: IState = await graph.invoke({ messages: ["a"] });
    expect(out).toEqual({ messages: ["a", "m1", "m2"] });
  });

  it("types the graph's state as the declared one, so routers read it (branching how-to)", async () => {
    interface IState2 {
      aggregate: string[];
      which: string;
    }
    const channels: StateGraphArgs<IState2>["channels"] = {
      aggregate: { value: (x: string[], y: string[]) => x.concat(y), default: () => [] },
      which: { value: (x: string, y: string) => (y ? y : x), default: () => "bc" },
    };
    // tsc rejected this router before: the state was typed Record<string, unknown>
    const route = (state: IState2): string[] => (state.which === "cd" ? ["c", "d"] : ["b", "c"]);
    const graph = new StateGraph<IState2>({ channels })
      .addNode("a", () => ({ aggregate: ["a"] }))
      .addNode("b", () => ({ aggregate: ["b"] }))
      .addNode("c", () => ({ aggregate: ["c"] }))
      .addNode("d", () => ({ aggregate: ["d"] }))
      .addEdge(START, "a")
      .addConditionalEdges("a", route, { b: "b", c: "c", d: "d" })
      .compile();
    const result = await graph.invoke({ aggregate: [], which: "cd" });
    expect(result).toEqual({ aggregate: ["a", "c", "d"], which: "cd" });
    expectTypeOf(result.which).toEqualTypeOf<string>();
  });
});

describe("NodeInterrupt", () => {
  it("reports its value without an interrupt id", async () => {
    const graph = new StateGraph(Annotation.Root({ n: Annotation<number> }))
      .addNode("stop", () => {
        throw new NodeInterrupt("paused here");
      })
      .addEdge(START, "stop")
      .compile();
    const result: Record<string, unknown> = await graph.invoke({ n: 1 });
    expect(result.__interrupt__).toEqual([{ value: "paused here" }]);
  });

  it("warns once when a routing function throws it, and still interrupts", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const graph = new StateGraph(Annotation.Root({ n: Annotation<number> }))
      .addNode("first", () => ({ n: 2 }))
      .addNode("second", () => ({}))
      .addEdge(START, "first")
      .addConditionalEdges("first", (): "second" => {
        throw new NodeInterrupt("from the edge");
      })
      .compile({ checkpointer: new MemorySaver() });
    const result: Record<string, unknown> = await graph.invoke(
      { n: 1 },
      { configurable: { thread_id: "edge" } },
    );
    expect(result.__interrupt__).toEqual([{ value: "from the edge" }]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(
      "[WARN]: 'NodeInterrupt' thrown in conditional edge. This is likely a bug in your graph implementation.\nNodeInterrupt should only be thrown inside a node, not in edge conditions.",
    );
  });
});

describe("graph.nodes[name].invoke", () => {
  it("runs one node's function alone and resolves to its return value", async () => {
    const graph = new StateGraph(Annotation.Root({ items: Annotation<string[]> }))
      .addNode("extend", (s) => ({ items: [...s.items, "added"] }))
      .addNode("never", () => {
        throw new Error("must not run");
      })
      .addEdge(START, "extend")
      .addEdge("extend", "never")
      .compile();
    expect(await graph.nodes.extend?.invoke({ items: ["start"] })).toEqual({ items: ["start", "added"] });
  });
});

describe("a node's runName", () => {
  it("is the node's name without callbacks and absent when callbacks listen", async () => {
    const seen: (string | undefined)[] = [];
    const graph = new StateGraph(Annotation.Root({ n: Annotation<number> }))
      .addNode("probe", (_s, config) => {
        seen.push(config.runName);
        return {};
      })
      .addEdge(START, "probe")
      .compile();
    await graph.invoke({ n: 1 });
    await graph.invoke({ n: 1 }, { callbacks: [{}] });
    expect(seen).toEqual(["probe", undefined]);
  });
});

describe("getGraph()", () => {
  const build = () => {
    const inner = new StateGraph(Annotation.Root({ v: Annotation<string> }))
      .addNode("i1", () => ({}))
      .addNode("i2", () => ({}))
      .addEdge(START, "i1")
      .addEdge("i1", "i2")
      .compile();
    return new StateGraph(Annotation.Root({ v: Annotation<string> }))
      .addNode("prep", () => ({}), { metadata: { team: "core" } })
      .addNode("inner", inner)
      .addNode("done", () => ({}))
      .addEdge(START, "prep")
      .addConditionalEdges("prep", () => "inner", { go: "inner", stop: END })
      .addEdge("inner", "done")
      .compile();
  };

  it("toJSON() lists schema and runnable nodes and labelled edges", () => {
    const json = build().getGraph().toJSON();
    expect(json.nodes).toEqual([
      { id: "__start__", type: "schema", data: { $schema: "https://json-schema.org/draft/2020-12/schema" } },
      {
        id: "prep",
        type: "runnable",
        data: { id: ["langgraph", "RunnableCallable"], name: "prep" },
        metadata: { team: "core" },
      },
      {
        id: "inner",
        type: "runnable",
        data: { id: ["langgraph", "pregel", "CompiledStateGraph"], name: "LangGraph" },
        metadata: {},
      },
      {
        id: "done",
        type: "runnable",
        data: { id: ["langgraph", "RunnableCallable"], name: "done" },
        metadata: {},
      },
      { id: "__end__", type: "schema", data: { $schema: "https://json-schema.org/draft/2020-12/schema" } },
    ]);
    expect(json.edges).toContainEqual({ source: "prep", target: "inner", data: "go", conditional: true });
    expect(json.edges).toContainEqual({ source: "__start__", target: "prep", conditional: false });
  });

  it("with xray draws a subgraph's nodes in a subgraph block", () => {
    const mermaid = build().getGraph({ xray: true }).drawMermaid({ withStyles: false });
    expect(mermaid).toBe(
      [
        "graph TD;",
        "\t__start__ --> prep;",
        "\tinner_i2 --> done;",
        "\tprep -. &nbsp;go&nbsp; .-> inner_i1;",
        "\tprep -. &nbsp;stop&nbsp; .-> __end__;",
        "\tdone --> __end__;",
        "\tsubgraph inner",
        "\tinner_i1 --> inner_i2;",
        "\tend",
        "",
      ].join("\n"),
    );
  });
});

describe("a run without context", () => {
  it("has its configurable checked against the contextSchema, as LangGraph.js does", async () => {
    const graph = new StateGraph(
      Annotation.Root({ v: Annotation<string> }),
      z.object({ prompt: z.string().min(1) }),
    )
      .addNode("n", () => ({ v: "done" }))
      .addEdge(START, "n")
      .compile();
    await expect(graph.invoke({ v: "x" })).rejects.toThrow(/^The run context does not match/);
    await expect(graph.invoke({ v: "x" }, { configurable: { prompt: "" } })).rejects.toThrow(
      /^The run context does not match/,
    );
    expect(await graph.invoke({ v: "x" }, { configurable: { prompt: "from configurable" } })).toEqual({
      v: "done",
    });
    expect(await graph.invoke({ v: "x" }, { context: { prompt: "given" } })).toEqual({ v: "done" });
  });
});

describe("new StateGraph(state, { input, output, context })", () => {
  it("takes the input, output and context schemas from the options object", async () => {
    const graph = new StateGraph(Annotation.Root({ a: Annotation<string>, b: Annotation<string> }), {
      input: Annotation.Root({ a: Annotation<string> }),
      output: Annotation.Root({ b: Annotation<string> }),
      context: z.object({ k: z.string() }),
    })
      .addNode("n", (state) => {
        expect(state).toEqual({ a: "A" });
        return { b: "B" };
      })
      .addEdge(START, "n")
      .compile();
    expect(await graph.invoke({ a: "A", b: "dropped" }, { context: { k: "v" } })).toEqual({ b: "B" });
    await expect(graph.invoke({ a: "A" }, { context: { k: 1 } })).rejects.toThrow(
      /^The run context does not match/,
    );
  });
});

describe("a Zod input schema", () => {
  it("parses the graph input: its checks reject, its transforms and defaults apply", async () => {
    const State = z.object({ q: z.string(), n: z.number().optional(), ans: z.string().optional() });
    const Input = z.object({
      q: z
        .string()
        .min(3)
        .transform((q) => q.toUpperCase()),
      n: z.number().default(7),
    });
    const graph = new StateGraph(State, { input: Input })
      .addNode("x", (s) => ({ ans: `${s.q}:${s.n}` }))
      .addEdge(START, "x")
      .compile();
    expect(await graph.invoke({ q: "hello" } as never)).toEqual({ q: "HELLO", n: 7, ans: "HELLO:7" });
    await expect(graph.invoke({ q: "hi" } as never)).rejects.toMatchObject({
      issues: [{ code: "too_small" }],
    });
  });
});

describe("chain callbacks", () => {
  it("hear the graph and each node start and end, with the invoke output last", async () => {
    const seen: string[] = [];
    const names = new Map<string, string>();
    const handler = {
      handleChainStart(
        _chain: unknown,
        _inputs: unknown,
        runId: string,
        parentRunId?: string,
        ...rest: unknown[]
      ) {
        // after the tags, the metadata and the run type (LangChain.js passes an `extra` after it)
        const name = String(rest[3]);
        names.set(runId, name);
        seen.push(`start ${name}${parentRunId === undefined ? " (root)" : ""}`);
      },
      handleChainEnd(outputs: unknown, runId: string) {
        seen.push(`end ${names.get(runId)} ${JSON.stringify(outputs)}`);
      },
      handleChainError(error: unknown, runId: string) {
        seen.push(`error ${names.get(runId)} ${(error as Error).message}`);
      },
    };
    const State = Annotation.Root({ a: Annotation<string>, b: Annotation<string> });
    const graph = new StateGraph({ state: State, output: Annotation.Root({ a: Annotation<string> }) })
      .addNode("one", () => ({ a: "x", b: "y" }))
      .addEdge(START, "one")
      .compile();
    expect(await graph.invoke({ a: "" }, { callbacks: [handler] })).toEqual({ a: "x" });
    expect(seen).toEqual([
      "start LangGraph (root)",
      "start __start__",
      'end __start__ {"a":""}',
      "start one",
      'end one {"a":"x","b":"y"}',
      'end LangGraph {"a":"x"}',
    ]);

    seen.length = 0;
    const failing = new StateGraph(State)
      .addNode("bad", () => {
        throw new Error("boom");
      })
      .addEdge(START, "bad")
      .compile()
      .withConfig({ callbacks: [handler] });
    await expect(failing.invoke({ a: "" })).rejects.toThrow("boom");
    expect(seen).toEqual([
      "start LangGraph (root)",
      "start __start__",
      'end __start__ {"a":""}',
      "start bad",
      "error bad boom",
      "error LangGraph boom",
    ]);
  });
});

describe("what a node without an input schema reads", () => {
  it("is the state schema's keys, not a private channel another node's input schema added", async () => {
    const State = Annotation.Root({ q: Annotation<string>(), ans: Annotation<string>() });
    const Private = Annotation.Root({ q: Annotation<string>(), priv: Annotation<string>() });
    const graph = new StateGraph(State)
      .addNode("a", () => ({ priv: "p" }) as never, { input: Private })
      .addNode("b", (s) => ({ ans: JSON.stringify(s) }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    // LangGraph.js: b's state is { q } only; the values stream still shows priv
    expect(await graph.invoke({ q: "x" })).toEqual({ q: "x", ans: '{"q":"x"}' });
    expect(graph.nodes.b?.channels).toEqual({ q: "q", ans: "ans" });
    expect(graph.nodes.a?.channels).toEqual({ q: "q", priv: "priv" });
  });

  it("gets a private channel's value through a Zod state, which does not strip it", async () => {
    const State = z.object({ a: z.number() });
    const Private = z.object({ priv: z.string() });
    const seen: unknown[] = [];
    const graph = new StateGraph(State)
      .addNode("x", () => ({ a: 1, priv: "secret" }) as never)
      .addNode(
        "y",
        (s: { priv: string }) => {
          seen.push(s);
          return new Command({ update: { priv: `${s.priv}!` } as never, goto: "z" });
        },
        { input: Private, ends: ["z"] },
      )
      .addNode(
        "z",
        (s: { priv: string }) => {
          seen.push(s);
          return { a: 2 };
        },
        { input: Private },
      )
      .addEdge(START, "x")
      .addEdge("x", "y")
      .compile();
    expect(await graph.invoke({ a: 0 })).toEqual({ a: 2 });
    expect(seen).toEqual([{ priv: "secret" }, { priv: "secret!" }]);
  });

  it("leaves out the keys only the graph's input and output schemas declare", async () => {
    const State = Annotation.Root({ q: Annotation<string>() });
    const Input = Annotation.Root({ q: Annotation<string>(), extra: Annotation<string>() });
    const graph = new StateGraph({ stateSchema: State, input: Input, output: Input })
      .addNode("n", (s) => ({ q: Object.keys(s).join(",") }))
      .addEdge(START, "n")
      .compile();
    expect(await graph.invoke({ q: "x", extra: "e" })).toEqual({ q: "q", extra: "e" });
  });
});
