import { describe, expect, it } from "vitest";
import { interrupt, MemorySaver } from "../../index.js";
import {
  Annotation,
  Command,
  EmptyInputError,
  GraphRecursionError,
  InvalidUpdateError,
  START,
  StateGraph,
} from "../index.js";

const State = Annotation.Root({ i: Annotation<number>, j: Annotation<number> });

function single(fn: (state: typeof State.State) => unknown) {
  return new StateGraph(State)
    .addNode("a", fn as never)
    .addEdge(START, "a")
    .compile();
}

async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected the run to fail");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("invalid node returns", () => {
  it.each([
    ["number", 5],
    ["string", "x"],
    ["array", [{ i: 1 }]],
  ])("a node returning a %s fails with INVALID_GRAPH_NODE_RETURN_VALUE", async (kind, value) => {
    const error = await rejection(single(() => value).invoke({ i: 0 }));
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect(error.lc_error_code).toBe("INVALID_GRAPH_NODE_RETURN_VALUE");
    expect(error.message).toMatch(
      new RegExp(
        `^Expected node "a" to return an object or an array containing at least one Command object, received ${kind}`,
      ),
    );
    expect(error.pregelTaskId).toEqual(expect.any(String));
  });

  it.each([
    ["false", false],
    ["0", 0],
    ["an empty string", ""],
  ])(
    "a node returning %s writes nothing, alone or next to a Command (as in LangGraph.js)",
    async (_, value) => {
      expect(await single(() => value).invoke({ i: 0 })).toEqual({ i: 0 });
      expect(await single(() => [new Command({ update: { i: 2 } }), value]).invoke({ i: 0 })).toEqual({
        i: 2,
      });
    },
  );

  it("a falsy graph input other than null starts the run without writes", async () => {
    expect(await single(() => ({ i: 9 })).invoke(0 as never)).toEqual({ i: 9 });
    expect(await single(() => ({ i: 9 })).invoke(false as never)).toEqual({ i: 9 });
  });

  it("graph input that is not an object fails as the input node's return value", async () => {
    const error = await rejection(single(() => ({})).invoke(5 as never));
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect(error.lc_error_code).toBe("INVALID_GRAPH_NODE_RETURN_VALUE");
    expect(error.message).toMatch(
      /^Expected node "__start__" to return an object or an array containing at least one Command object, received number/,
    );
  });
});

describe("concurrent writes to a single-value key", () => {
  it("fail with INVALID_CONCURRENT_GRAPH_UPDATE, naming the key and suggesting a reducer", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => ({ i: 1 }))
      .addNode("b", () => ({ i: 2 }))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .compile();
    const error = await rejection(graph.invoke({ i: 0 }));
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect(error.lc_error_code).toBe("INVALID_CONCURRENT_GRAPH_UPDATE");
    expect(error.message).toMatch(
      /^Invalid update for channel "i" with values \[1,2\]: LastValue can only receive one value per step\./,
    );
    expect(error.message).toMatch(/reducer/);
  });
});

describe("input", () => {
  it.each([
    ["null", null],
    ["undefined", undefined],
  ])("%s input (without a checkpointer) is an EmptyInputError", async (_kind, input) => {
    const error = await rejection(single(() => ({})).invoke(input as never));
    expect(error).toBeInstanceOf(EmptyInputError);
    expect(error.message).toMatch(/^Received no input writes for "__start__"/);
  });

  it("input without any state key runs the graph; unknown keys are dropped", async () => {
    expect(await single(() => ({ i: 5 })).invoke({ zz: 1 } as never)).toEqual({ i: 5 });
  });

  it("an empty Command as input is an EmptyInputError", async () => {
    const error = await rejection(single(() => ({})).invoke(new Command({}) as never));
    expect(error).toBeInstanceOf(EmptyInputError);
    expect(error.message).toMatch(/^Received empty Command input/);
  });

  it("a Command as input applies its update and goto", async () => {
    const Log = Annotation.Root({
      i: Annotation<number>,
      log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    });
    const graph = new StateGraph(Log)
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    expect(await graph.invoke(new Command({ goto: "b" }) as never)).toEqual({ log: ["b"] });
    expect(await graph.invoke(new Command({ update: { i: 5 }, goto: "b" }) as never)).toEqual({
      i: 5,
      log: ["b"],
    });
    expect(await graph.invoke(new Command({ update: { i: 5 } }) as never)).toEqual({ i: 5, log: [] });
  });
});

describe("node errors", () => {
  it("propagate unchanged (same class and message), annotated with pregelTaskId", async () => {
    class MyError extends Error {
      override name = "MyError";
    }
    const error = await rejection(
      single(async () => {
        throw new MyError("bad");
      }).invoke({ i: 0 }),
    );
    expect(error).toBeInstanceOf(MyError);
    expect(error.message).toBe("bad");
    expect(error.pregelTaskId).toEqual(expect.any(String));
  });

  it("a thrown non-error value propagates as is", async () => {
    await expect(
      single(() => {
        throw "plain string";
      }).invoke({ i: 0 }),
    ).rejects.toBe("plain string");
  });

  it.each([
    ["async", true],
    ["sync", false],
  ])("several %s failures in one step become an AggregateError", async (_kind, isAsync) => {
    const fail = (msg: string) =>
      isAsync
        ? async () => {
            throw new Error(msg);
          }
        : () => {
            throw new Error(msg);
          };
    const graph = new StateGraph(State)
      .addNode("s", () => ({}))
      .addNode("a", fail("A"))
      .addNode("b", fail("B"))
      .addEdge(START, "s")
      .addEdge("s", "a")
      .addEdge("s", "b")
      .compile();
    const error = await rejection(graph.invoke({ i: 0 }));
    expect(error).toBeInstanceOf(AggregateError);
    expect(error.message).toBe(
      'Multiple errors occurred during superstep 2. See the "errors" field of this exception for more details.',
    );
    expect((error as unknown as AggregateError).errors.map((e: Error) => e.message)).toEqual(["A", "B"]);
  });

  it("a failure aborts the signal of the other tasks of the step", async () => {
    let aborted: boolean | undefined;
    const graph = new StateGraph(State)
      .addNode("a", async () => {
        await sleep(5);
        throw new Error("A");
      })
      .addNode("b", async (_s, config) => {
        await sleep(30);
        aborted = config.signal?.aborted;
        return {};
      })
      .addEdge(START, "a")
      .addEdge(START, "b")
      .compile();
    await expect(graph.invoke({ i: 0 })).rejects.toThrow("A");
    await sleep(60);
    expect(aborted).toBe(true);
  });

  it("the first failure rejects the run at once, without waiting for slower tasks", async () => {
    let slowDone = false;
    const graph = new StateGraph(State)
      .addNode("a", async () => {
        throw new Error("A");
      })
      .addNode("b", async () => {
        await sleep(50);
        slowDone = true;
        throw new Error("B");
      })
      .addEdge(START, "a")
      .addEdge(START, "b")
      .compile();
    const error = await rejection(graph.invoke({ i: 0 }));
    expect(error).not.toBeInstanceOf(AggregateError);
    expect(error.message).toBe("A");
    expect(slowDone).toBe(false);
  });

  it("errors of later steps still let the stream deliver earlier chunks", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => ({ i: 1 }))
      .addNode("b", () => {
        throw new Error("B");
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    const chunks: unknown[] = [];
    await expect(
      (async () => {
        for await (const chunk of await graph.stream({ i: 0 })) chunks.push(chunk);
      })(),
    ).rejects.toThrow("B");
    expect(chunks).toEqual([{ a: { i: 1 } }]);
  });
});

describe("recursionLimit", () => {
  function selfLoop(counter: { n: number }) {
    return new StateGraph(State)
      .addNode("a", () => {
        counter.n += 1;
        return { i: counter.n };
      })
      .addEdge(START, "a")
      .addEdge("a", "a")
      .compile();
  }

  it("defaults to 25: a self-loop runs 25 times, then GraphRecursionError", async () => {
    const counter = { n: 0 };
    const error = await rejection(selfLoop(counter).invoke({ i: 0 }));
    expect(counter.n).toBe(25);
    expect(error).toBeInstanceOf(GraphRecursionError);
    expect(error.lc_error_code).toBe("GRAPH_RECURSION_LIMIT");
    expect(error.message).toMatch(
      /^Recursion limit of 25 reached without hitting a stop condition\. You can increase the limit by setting the "recursionLimit" config key\./,
    );
  });

  it.each([1, 2, 3, 7])("with recursionLimit %i a self-loop runs exactly that many times", async (limit) => {
    const counter = { n: 0 };
    await expect(selfLoop(counter).invoke({ i: 0 }, { recursionLimit: limit })).rejects.toThrow(
      GraphRecursionError,
    );
    expect(counter.n).toBe(limit);
  });

  it("a three-node chain needs recursionLimit 4", async () => {
    const chain = new StateGraph(State)
      .addSequence({ a: () => ({}), b: () => ({}), c: () => ({ i: 3 }) })
      .addEdge(START, "a")
      .compile();
    await expect(chain.invoke({ i: 0 }, { recursionLimit: 2 })).rejects.toThrow(GraphRecursionError);
    await expect(chain.invoke({ i: 0 }, { recursionLimit: 3 })).rejects.toThrow(GraphRecursionError);
    expect(await chain.invoke({ i: 0 }, { recursionLimit: 4 })).toEqual({ i: 3 });
  });

  it.each([0, -1])("rejects recursionLimit %i", async (limit) => {
    await expect(single(() => ({})).invoke({ i: 0 }, { recursionLimit: limit })).rejects.toThrow(
      /^Passed "recursionLimit" must be at least 1/,
    );
  });

  it("takes a numeric string as its number and refuses null, as LangGraph.js does", async () => {
    const counter = { n: 0 };
    const error = await rejection(selfLoop(counter).invoke({ i: 0 }, { recursionLimit: "3" as never }));
    expect(error).toBeInstanceOf(GraphRecursionError);
    expect(error.message).toMatch(/^Recursion limit of 3 reached without hitting a stop condition\./);
    expect(counter.n).toBe(3);
    await expect(single(() => ({})).invoke({ i: 0 }, { recursionLimit: null as never })).rejects.toThrow(
      /^Passed "recursionLimit" must be at least 1/,
    );
  });

  it("takes any number from 1 up, as LangGraph.js does: Infinity means no limit", async () => {
    const chain = new StateGraph(State)
      .addSequence({ a: () => ({}), b: () => ({}), c: () => ({ i: 3 }) })
      .addEdge(START, "a")
      .compile();
    expect(await chain.invoke({ i: 0 }, { recursionLimit: Number.POSITIVE_INFINITY })).toEqual({ i: 3 });
    expect(await chain.invoke({ i: 0 }, { recursionLimit: 4.5 })).toEqual({ i: 3 });
    await expect(chain.invoke({ i: 0 }, { recursionLimit: 3.5 })).rejects.toThrow(
      /^Recursion limit of 3\.5 reached/,
    );
  });

  it("streams every step's update before the GraphRecursionError", async () => {
    const graph = new StateGraph(State)
      .addNode("a", () => ({ i: 1 }))
      .addEdge(START, "a")
      .addEdge("a", "a")
      .compile();
    const chunks: unknown[] = [];
    await expect(
      (async () => {
        for await (const chunk of await graph.stream({ i: 0 }, { recursionLimit: 3 })) chunks.push(chunk);
      })(),
    ).rejects.toThrow(GraphRecursionError);
    expect(chunks).toEqual([{ a: { i: 1 } }, { a: { i: 1 } }, { a: { i: 1 } }]);
  });

  it("withConfig sets a default recursionLimit", async () => {
    const counter = { n: 0 };
    await expect(selfLoop(counter).withConfig({ recursionLimit: 4 }).invoke({ i: 0 })).rejects.toThrow(
      GraphRecursionError,
    );
    expect(counter.n).toBe(4);
  });
});

describe("a Command for the parent graph given to a root run", () => {
  it("fails with LangGraph.js's 'There is no parent graph.'", async () => {
    const graph = new StateGraph(Annotation.Root({ v: Annotation<number> }))
      .addNode("a", () => ({ v: 1 }))
      .addEdge(START, "a")
      .compile();
    const error = await graph.invoke(new Command({ graph: Command.PARENT, update: { v: 5 } })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect((error as Error).message).toMatch(/^There is no parent graph\./);
  });
});

describe("lc_error_code of a run's errors, as LangGraph.js gives it", () => {
  it("a run's errors: the codes LangGraph.js raises them with; none on interrupt()'s, which names its task", async () => {
    const XState = Annotation.Root({ x: Annotation<number>() });
    const looping = new StateGraph(XState)
      .addNode("a", () => ({ x: 1 }))
      .addEdge(START, "a")
      .addEdge("a", "a")
      .compile();
    const recursion = await looping.invoke({ x: 0 }, { recursionLimit: 3 }).catch((e: unknown) => e);
    expect(recursion).toMatchObject({ name: "GraphRecursionError", lc_error_code: "GRAPH_RECURSION_LIMIT" });
    const empty = await looping.invoke(null).catch((e: unknown) => e);
    expect(empty).toMatchObject({ name: "EmptyInputError", lc_error_code: undefined });
    const twice = new StateGraph(XState)
      .addNode("a", () => ({ x: 1 }))
      .addNode("b", () => ({ x: 2 }))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .compile();
    const concurrent = await twice.invoke({ x: 0 }).catch((e: unknown) => e);
    expect(concurrent).toMatchObject({
      name: "InvalidUpdateError",
      lc_error_code: "INVALID_CONCURRENT_GRAPH_UPDATE",
    });
    let raised: unknown;
    const asking = new StateGraph(XState)
      .addNode("ask", () => {
        try {
          interrupt("why?");
        } catch (error) {
          raised = error;
          throw error;
        }
        return {};
      })
      .addEdge(START, "ask")
      .compile({ checkpointer: new MemorySaver() });
    await asking.invoke({ x: 0 }, { configurable: { thread_id: "codes" } });
    expect(Object.keys(raised as object)).toEqual(["lc_error_code", "interrupts", "name", "pregelTaskId"]);
    expect((raised as { lc_error_code?: string }).lc_error_code).toBeUndefined();
    const state = await asking.getState({ configurable: { thread_id: "codes" } });
    expect((raised as { pregelTaskId?: string }).pregelTaskId).toBe(state.tasks[0]?.id);
  });
});
