import { describe, expect, it } from "vitest";
import {
  Annotation,
  EmptyInputError,
  entrypoint,
  GraphValueError,
  getWriter,
  START,
  StateGraph,
  task,
} from "./index.js";

async function collect<T>(stream: Promise<AsyncIterable<T>>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of await stream) out.push(chunk);
  return out;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const addOne = task("addOne", async (x: number) => x + 1);
const double = task({ name: "double" }, (x: number) => x * 2);
const workflow = entrypoint("wf", async (input: number) => {
  const a = await addOne(input);
  const [b, c] = await Promise.all([double(a), addOne(a)]);
  return a + b + c;
});

describe("entrypoint and task", () => {
  it("invoke returns the entrypoint's result", async () => {
    expect(await workflow.invoke(1)).toBe(9);
    expect(await entrypoint("sync", (x: number) => x * 3).invoke(2)).toBe(6);
    expect(await entrypoint("obj", (x: { a: number }) => ({ got: x })).invoke({ a: 1 })).toEqual({
      got: { a: 1 },
    });
  });

  it("streams { task: result } per task, then { entrypoint: result }", async () => {
    expect(await collect(workflow.stream(1))).toEqual([
      { addOne: 2 },
      { double: 4 },
      { addOne: 3 },
      { wf: 9 },
    ]);
  });

  it("streams the result as the only values chunk", async () => {
    expect(await collect(workflow.stream(1, { streamMode: "values" }))).toEqual([9]);
    expect(await collect(workflow.stream(1, { streamMode: ["updates", "values"] }))).toEqual([
      ["updates", { addOne: 2 }],
      ["updates", { double: 4 }],
      ["updates", { addOne: 3 }],
      ["updates", { wf: 9 }],
      ["values", 9],
    ]);
  });

  it("tasks mode: each call is a push task with its arguments as input", async () => {
    const chunks = (await collect(workflow.stream(1, { streamMode: "tasks" }))) as Record<string, unknown>[];
    const starts = chunks.filter((c) => "input" in c);
    const results = chunks.filter((c) => "result" in c);
    expect(starts).toEqual([
      {
        id: expect.any(String),
        name: "wf",
        input: 1,
        triggers: ["__start__"],
        interrupts: [],
        metadata: { ls_integration: "langgraph" },
      },
      {
        id: expect.any(String),
        name: "addOne",
        input: [1],
        triggers: ["__pregel_push"],
        interrupts: [],
        metadata: { ls_integration: "langgraph" },
      },
      {
        id: expect.any(String),
        name: "double",
        input: [2],
        triggers: ["__pregel_push"],
        interrupts: [],
        metadata: { ls_integration: "langgraph" },
      },
      {
        id: expect.any(String),
        name: "addOne",
        input: [2],
        triggers: ["__pregel_push"],
        interrupts: [],
        metadata: { ls_integration: "langgraph" },
      },
    ]);
    expect(results.map((r) => [r.name, r.result, r.error])).toEqual([
      ["addOne", {}, null],
      ["double", {}, null],
      ["addOne", {}, null],
      ["wf", { __end__: 9 }, null],
    ]);
    for (const start of starts) {
      const index = chunks.indexOf(start);
      const result = chunks.findIndex((c) => "result" in c && c.id === start.id);
      expect(result).toBeGreaterThan(index);
    }
  });

  it("runs parallel task calls concurrently", async () => {
    const gauge = { current: 0, max: 0 };
    const slow = task("slow", async (k: number) => {
      gauge.current += 1;
      gauge.max = Math.max(gauge.max, gauge.current);
      await sleep(15);
      gauge.current -= 1;
      return k * 10;
    });
    const result = await entrypoint("p", async () => Promise.all([1, 2, 3, 4].map((k) => slow(k)))).invoke(0);
    expect(result).toEqual([10, 20, 30, 40]);
    expect(gauge.max).toBe(4);
  });

  it("tasks retry with their retry policy", async () => {
    let calls = 0;
    const flaky = task(
      { name: "flaky", retry: { maxAttempts: 3, initialInterval: 1, jitter: false, logWarning: false } },
      () => {
        calls += 1;
        if (calls < 3) throw new Error("flake");
        return calls;
      },
    );
    expect(await entrypoint("r", () => flaky()).invoke(0)).toBe(3);
    expect(calls).toBe(3);
  });

  it("entrypoint.final returns value and saves save", async () => {
    const wf = entrypoint("f", (x: number) => entrypoint.final({ value: x + 1, save: x * 10 }));
    expect(await wf.invoke(1)).toBe(2);
    expect(await collect(wf.stream(1, { streamMode: ["updates", "values"] }))).toEqual([
      ["updates", { f: 2 }],
      ["values", 2],
    ]);
  });

  it("returns undefined when the entrypoint returns nothing", async () => {
    const wf = entrypoint("u", () => undefined);
    expect(await wf.invoke(2)).toBeUndefined();
    expect(await collect(wf.stream(2))).toEqual([{}]);
  });

  it("null input is an EmptyInputError", async () => {
    await expect(entrypoint("n", (x: unknown) => x).invoke(null)).rejects.toThrow(EmptyInputError);
  });

  it("config.writer and getWriter() stream custom chunks from the entrypoint and its tasks", async () => {
    const inner = task("t", () => {
      getWriter()("w3");
      return 1;
    });
    const wf = entrypoint("c", async (x: number, config) => {
      config.writer?.("w1");
      getWriter()("w2");
      await inner();
      return x;
    });
    expect(await collect(wf.stream(1, { streamMode: ["custom", "updates"] }))).toEqual([
      ["custom", "w1"],
      ["custom", "w2"],
      ["custom", "w3"],
      ["updates", { t: 1 }],
      ["updates", { c: 1 }],
    ]);
  });

  it("a task's error fails the run", async () => {
    const bad = task("bad", () => {
      throw new Error("tbad");
    });
    const wf = entrypoint("e", async () => {
      await bad();
    });
    await expect(wf.invoke(1)).rejects.toThrow("tbad");
  });

  it("a task's error fails the run even when the entrypoint catches it, as in the reference", async () => {
    const bad = task("bad", () => {
      throw new Error("tbad");
    });
    const wf = entrypoint("e", async () => {
      try {
        await bad();
      } catch {
        return "caught";
      }
      return "not reached";
    });
    await expect(wf.invoke(1)).rejects.toThrow("tbad");
  });

  it("a task can be called from a graph node", async () => {
    const State = Annotation.Root({ v: Annotation<number> });
    const graph = new StateGraph(State)
      .addNode("n", async (s) => ({ v: await addOne(s.v) }))
      .addEdge(START, "n")
      .compile();
    expect(await graph.invoke({ v: 1 })).toEqual({ v: 2 });
    expect(await collect(graph.stream({ v: 1 }))).toEqual([{ addOne: 2 }, { n: { v: 2 } }]);
  });
});

describe("functional API errors", () => {
  it("a task called outside an entrypoint throws a GraphValueError (at once, as LangGraph.js throws)", () => {
    expect(() => addOne(1)).toThrow(GraphValueError);
  });

  it("task() returns an anonymous function, as LangGraph.js's does", () => {
    expect(addOne.name).toBe("");
  });

  it("generators are rejected", () => {
    expect(() =>
      entrypoint("g", async function* () {
        yield 1;
      } as never),
    ).toThrow(/^Generators are disallowed as entrypoints/);
    expect(() =>
      task("g", function* () {
        yield 1;
      } as never),
    ).toThrow(/^Generators are disallowed as tasks/);
  });
});

describe("entrypoint inspection", () => {
  it("is a graph with one node and the functional-API channels", () => {
    expect(Object.keys(workflow.nodes)).toEqual(["wf"]);
    expect(workflow.nodes.wf?.triggers).toEqual(["__start__"]);
    expect(Object.entries(workflow.channels).map(([k, c]) => `${c.constructor.name}:${k}`)).toEqual([
      "EphemeralValue:__start__",
      "LastValue:__end__",
      "LastValue:__previous__",
      "Topic:__pregel_tasks",
    ]);
    expect(workflow.inputChannels).toBe("__start__");
    expect(workflow.outputChannels).toBe("__end__");
  });

  it("draws as input → entrypoint → output", () => {
    const drawable = workflow as unknown as { getGraph(): { drawMermaid(): string } };
    expect(drawable.getGraph().drawMermaid()).toBe(
      "%%{init: {'flowchart': {'curve': 'linear'}}}%%\ngraph TD;\n" +
        "\twfInput([wfInput]):::first\n\twf(wf)\n\twfOutput([wfOutput]):::last\n" +
        "\twfInput --> wf;\n\twf --> wfOutput;\n" +
        "\tclassDef default fill:#f2f0ff,line-height:1.2;\n\tclassDef first fill-opacity:0;\n\tclassDef last fill:#bfb6fc;\n",
    );
  });

  it("toJSON() numbers its nodes and gives its schemas titles, as LangChain.js draws a runnable", () => {
    expect(workflow.getGraph().toJSON()).toStrictEqual({
      nodes: [
        {
          id: 0,
          type: "schema",
          data: { $schema: "http://json-schema.org/draft-07/schema#", title: "wfInput" },
        },
        { id: 1, type: "runnable", data: { id: ["langgraph", "pregel", "LangGraph"], name: "wf" } },
        {
          id: 2,
          type: "schema",
          data: { $schema: "http://json-schema.org/draft-07/schema#", title: "wfOutput" },
        },
      ],
      edges: [
        { source: 0, target: 1 },
        { source: 1, target: 2 },
      ],
    });
    // its nodes are identified by UUIDs, shown by name
    const nodes = Object.values(workflow.getGraph().nodes);
    expect(nodes.map((node) => node.name)).toEqual(["wfInput", "wf", "wfOutput"]);
    expect(
      nodes.every((node) =>
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(node.id),
      ),
    ).toBe(true);
  });

  it("getGraphAsync draws the same, as on a StateGraph", async () => {
    expect((await workflow.getGraphAsync()).drawMermaid()).toBe(workflow.getGraph().drawMermaid());
  });
});
