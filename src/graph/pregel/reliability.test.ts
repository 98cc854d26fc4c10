/**
 * Node reliability options: per-node timeouts, node error handlers, graceful drain, stepTimeout.
 * Expected values: @langchain/langgraph 1.7.3 (probes /tmp/peerbench/probe-helperA/{to1,eh1,eh2,dr1,dr2}.ts).
 */
import { describe, expect, it } from "vitest";
import {
  Annotation,
  Command,
  entrypoint,
  GraphBubbleUp,
  GraphDrained,
  interrupt,
  isGraphBubbleUp,
  isGraphDrained,
  isNodeError,
  isNodeTimeoutError,
  type LangGraphRunnableConfig,
  MemorySaver,
  NodeError,
  NodeTimeoutError,
  RunControl,
  START,
  StateGraph,
} from "../../index.js";

const State = Annotation.Root({
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  status: Annotation<string>,
});

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const chunks: T[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function failure(run: Promise<unknown>): Promise<unknown> {
  try {
    await run;
  } catch (error) {
    return error;
  }
  throw new Error("expected the run to fail");
}

describe("NodeTimeoutError, NodeError, GraphDrained", () => {
  it("have LangGraph.js's messages and fields", () => {
    const run = new NodeTimeoutError({ node: "n", elapsed: 12, kind: "run", runTimeout: 10 });
    expect(run.message).toBe('Node "n" exceeded its run timeout of 10ms (elapsed: 12ms).');
    expect([run.name, run.timeout, run.idleTimeout, isNodeTimeoutError(run)]).toEqual([
      "NodeTimeoutError",
      10,
      undefined,
      true,
    ]);
    const idle = new NodeTimeoutError({
      node: "n",
      elapsed: 12,
      kind: "idle",
      idleTimeout: 10,
      runTimeout: 100,
    });
    expect(idle.message).toBe(
      'Node "n" exceeded its idle timeout of 10ms without making progress (elapsed: 12ms).',
    );
    expect(idle.timeout).toBe(10);
    expect(() => new NodeTimeoutError({ node: "n", elapsed: 1, kind: "idle" })).toThrow(
      "idleTimeout is required when kind='idle'",
    );
    expect(isGraphBubbleUp(run)).toBe(false);

    const nodeError = new NodeError("a", new Error("boom"));
    expect([isNodeError(nodeError), isNodeError({ node: "a", error: new Error() })]).toEqual([true, false]);
    expect(Object.keys(nodeError)).toEqual(["node", "error"]);

    const drained = new GraphDrained();
    expect([drained.message, drained.reason, drained.name]).toEqual([
      "Graph drained: shutdown",
      "shutdown",
      "GraphDrained",
    ]);
    expect(new GraphDrained("x").message).toBe("Graph drained: x");
    expect([drained instanceof GraphBubbleUp, isGraphBubbleUp(drained), isGraphDrained(drained)]).toEqual([
      true,
      true,
      true,
    ]);
  });

  it("RunControl records the first… and the latest drain reason", () => {
    const control = new RunControl();
    expect([control.drainRequested, control.drainReason]).toEqual([false, undefined]);
    control.requestDrain();
    expect([control.drainRequested, control.drainReason]).toEqual([true, "shutdown"]);
    control.requestDrain("sigterm");
    expect(control.drainReason).toBe("sigterm");
  });
});

describe("node timeouts", () => {
  it("a run timeout aborts the node's signal and fails with NodeTimeoutError", async () => {
    let signal: AbortSignal | undefined;
    const graph = new StateGraph(State)
      .addNode(
        "a",
        async (_s, config) => {
          signal = config.signal;
          await sleep(200);
          return { log: ["a"] };
        },
        { timeout: 50 },
      )
      .addEdge(START, "a")
      .compile();
    const started = Date.now();
    const error = (await failure(graph.invoke({ log: [] }))) as NodeTimeoutError;
    expect(Date.now() - started).toBeLessThan(150);
    expect(error).toBeInstanceOf(NodeTimeoutError);
    expect(error.message).toMatch(/^Node "a" exceeded its run timeout of 50ms \(elapsed: \d+ms\)\.$/);
    expect([error.node, error.kind, error.timeout, error.runTimeout, error.idleTimeout]).toEqual([
      "a",
      "run",
      50,
      50,
      undefined,
    ]);
    expect(typeof (error as { pregelTaskId?: unknown }).pregelTaskId).toBe("string");
    expect([signal?.aborted, (signal?.reason as Error | undefined)?.name]).toEqual([true, "AbortError"]);
  });

  it("an idle timeout is refreshed by the custom writer, and by heartbeat() alone with refreshOn: heartbeat", async () => {
    const writing = new StateGraph(State)
      .addNode(
        "a",
        async (_s, config) => {
          // eight 40 ms gaps (320 ms in all) under a 250 ms idle timeout: each gap is far below
          // it, so a loaded machine that stretches a gap does not fail the run
          for (let i = 0; i < 8; i++) {
            await sleep(40);
            config.writer?.({ i });
          }
          return { log: ["a"] };
        },
        { timeout: { idleTimeout: 250 } },
      )
      .addEdge(START, "a")
      .compile();
    expect(await writing.invoke({ log: [] })).toEqual({ log: ["a"] });

    const idle = new StateGraph(State)
      .addNode(
        "a",
        async () => {
          await sleep(100);
          return { log: ["a"] };
        },
        { timeout: { idleTimeout: 40, runTimeout: 1000 } },
      )
      .addEdge(START, "a")
      .compile();
    const error = (await failure(idle.invoke({ log: [] }))) as NodeTimeoutError;
    expect([error.kind, error.timeout, error.runTimeout, error.idleTimeout]).toEqual(["idle", 40, 1000, 40]);
    expect(error.message).toMatch(/^Node "a" exceeded its idle timeout of 40ms without making progress/);

    const heartbeat = (useWriter: boolean) =>
      new StateGraph(State)
        .addNode(
          "a",
          async (_s, config) => {
            for (let i = 0; i < 8; i++) {
              await sleep(40);
              if (useWriter) config.writer?.({ i });
              else config.heartbeat?.();
            }
            return { log: ["a"] };
          },
          { timeout: { idleTimeout: 250, refreshOn: "heartbeat" } },
        )
        .addEdge(START, "a")
        .compile();
    expect(await heartbeat(false).invoke({ log: [] })).toEqual({ log: ["a"] });
    expect(isNodeTimeoutError(await failure(heartbeat(true).invoke({ log: [] })))).toBe(true);
  });

  it("nodes without a timeout get no heartbeat; a blocking node over its run timeout still times out", async () => {
    let heartbeat: unknown = "unset";
    const plain = new StateGraph(State)
      .addNode("a", (_s, config) => {
        heartbeat = config.heartbeat;
        return {};
      })
      .addEdge(START, "a")
      .compile();
    await plain.invoke({ log: [] });
    expect(heartbeat).toBeUndefined();

    const blocking = new StateGraph(State)
      .addNode(
        "a",
        () => {
          const until = Date.now() + 60;
          while (Date.now() < until) {
            // busy
          }
          return { log: ["a"] };
        },
        { timeout: 30 },
      )
      .addEdge(START, "a")
      .compile();
    const error = (await failure(blocking.invoke({ log: [] }))) as NodeTimeoutError;
    expect([error.kind, error.timeout]).toEqual(["run", 30]);
  });

  it("is retried by the retry policy, each attempt with a fresh clock", async () => {
    let attempts = 0;
    const graph = new StateGraph(State)
      .addNode(
        "a",
        async () => {
          attempts += 1;
          if (attempts < 3) await sleep(100);
          return { log: [`a${attempts}`] };
        },
        { timeout: 30, retryPolicy: { initialInterval: 1, jitter: false, logWarning: false } },
      )
      .addEdge(START, "a")
      .compile();
    expect(await graph.invoke({ log: [] })).toEqual({ log: ["a3"] });
    expect(attempts).toBe(3);
  });

  it("drops the writes of the timed-out attempt; the checkpoint keeps the node pending", async () => {
    const graph = new StateGraph(State)
      .addNode(
        "a",
        async () => {
          await sleep(100);
          return { log: ["a"] };
        },
        { timeout: 20 },
      )
      .addEdge(START, "a")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    const chunks: unknown[] = [];
    const error = await failure(
      (async () => {
        for await (const chunk of await graph.stream({ log: [] }, { ...config, streamMode: "updates" }))
          chunks.push(chunk);
      })(),
    );
    expect(isNodeTimeoutError(error)).toBe(true);
    expect(chunks).toEqual([]);
    const state = await graph.getState(config);
    expect(state.next).toEqual(["a"]);
    expect(state.values).toEqual({ log: [] });
    expect((state.tasks[0]?.error as Error | undefined)?.name).toBe("NodeTimeoutError");
  });

  it("rejects timeouts that are not positive", () => {
    const add = (timeout: unknown) => () =>
      new StateGraph(State).addNode("a", () => ({}), { timeout: timeout as number });
    expect(add(0)).toThrow("runTimeout must be greater than 0");
    expect(add(-1)).toThrow("runTimeout must be greater than 0");
    expect(add(Number.NaN)).toThrow("runTimeout must be greater than 0");
    expect(add({ idleTimeout: -5 })).toThrow("idleTimeout must be greater than 0");
    expect(add({ runTimeout: 5, refreshOn: "x" })).toThrow('refreshOn must be "auto" or "heartbeat"');
    expect(add({})).not.toThrow();
  });

  it("an entrypoint's timeout option times its run, as a node's does", async () => {
    // the fault-tolerance docs: entrypoint({ name, timeout }, fn)
    const slow = entrypoint({ name: "slow", timeout: 30 }, async (x: number) => {
      await sleep(150);
      return x;
    });
    const error = (await failure(slow.invoke(1))) as NodeTimeoutError;
    expect(error).toBeInstanceOf(NodeTimeoutError);
    expect([error.node, error.kind, error.timeout]).toEqual(["slow", "run", 30]);
    const idle = entrypoint(
      { name: "idle", timeout: { idleTimeout: 30 }, checkpointer: new MemorySaver() },
      async () => {
        await sleep(150);
        return 0;
      },
    );
    const idleError = (await failure(
      idle.invoke(1, { configurable: { thread_id: "i" } }),
    )) as NodeTimeoutError;
    expect([idleError.node, idleError.kind]).toEqual(["idle", "idle"]);
    const fast = entrypoint({ name: "fast", timeout: 1000 }, async (x: number) => x + 1);
    expect(await fast.invoke(1)).toBe(2);
  });
});

describe("node error handlers", () => {
  it("run once the node failed, as the node __error_handler__<name>, with a NodeError", async () => {
    const seen: unknown[] = [];
    const builder = new StateGraph(State)
      .addNode(
        "a",
        () => {
          throw new Error("boom");
        },
        {
          errorHandler: (state, failure, config?: LangGraphRunnableConfig) => {
            seen.push({
              isNodeError: isNodeError(failure),
              node: failure.node,
              message: failure.error.message,
              state,
              metadata: {
                node: config?.metadata?.langgraph_node,
                step: config?.metadata?.langgraph_step,
                triggers: config?.metadata?.langgraph_triggers,
                path: config?.metadata?.langgraph_path,
              },
              runName: config?.runName,
            });
            return { status: "handled", log: ["h"] };
          },
        },
      )
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .addEdge("a", "b");
    expect(Object.keys(builder.nodes)).toEqual(["__error_handler__a", "a", "b"]);
    const graph = builder.compile({ checkpointer: new MemorySaver() });
    expect(Object.keys(graph.nodes)).toEqual(["__start__", "__error_handler__a", "a", "b"]);
    expect(graph.getGraph().drawMermaid()).toContain("\t__error_handler__a(__error_handler__a)\n\ta(a)");
    expect(graph.getGraph().drawMermaid()).not.toContain("__error_handler__a -->");
    const config = { configurable: { thread_id: "t1" } };
    const chunks = await collect(
      await graph.stream({ log: ["in"] }, { ...config, streamMode: ["updates", "tasks"] }),
    );
    const outline = chunks.map(([mode, chunk]) => {
      const c = chunk as Record<string, unknown>;
      if (mode === "updates") return [mode, c];
      return [mode, c.name, "triggers" in c ? "start" : c.error === null ? "ok" : (c.error as Error).message];
    });
    expect(outline).toEqual([
      ["tasks", "a", "start"],
      ["tasks", "__error_handler__a", "start"],
      ["tasks", "a", "boom"],
      ["updates", { __error_handler__a: { status: "handled", log: ["h"] } }],
      ["tasks", "__error_handler__a", "ok"],
    ]);
    expect(seen).toEqual([
      {
        isNodeError: true,
        node: "a",
        message: "boom",
        state: { log: ["in"] },
        metadata: {
          node: "__error_handler__a",
          step: 1,
          triggers: ["__pregel_push"],
          path: ["__pregel_pull", "a", "node_error_handler", false],
        },
        runName: "__error_handler__a",
      },
    ]);
    const state = await graph.getState(config);
    expect([state.values, state.next, state.metadata?.step]).toEqual([
      { log: ["in", "h"], status: "handled" },
      [],
      1,
    ]);
    expect(await graph.invoke({ log: ["x"] }, { configurable: { thread_id: "t2" } })).toEqual({
      log: ["x", "h"],
      status: "handled",
    });
  });

  it("run after the retries, and route with Command({ goto })", async () => {
    let attempts = 0;
    const graph = new StateGraph(State)
      .addNode(
        "a",
        () => {
          attempts += 1;
          throw new Error(`boom${attempts}`);
        },
        {
          retryPolicy: { maxAttempts: 3, initialInterval: 1, jitter: false, logWarning: false },
          errorHandler: (_s, failure) =>
            new Command({ update: { log: [`handled:${failure.error.message}`] }, goto: "recover" }),
        },
      )
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("recover", () => ({ log: ["recover"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    expect(await collect(await graph.stream({ log: [] }))).toEqual([
      { __error_handler__a: { log: ["handled:boom3"] } },
      { recover: { log: ["recover"] } },
    ]);
    expect(attempts).toBe(3);
  });

  it("never handle their own failures, nor interrupts", async () => {
    const failing = new StateGraph(State)
      .addNode(
        "a",
        () => {
          throw new Error("boom");
        },
        {
          errorHandler: () => {
            throw new Error("handler failed");
          },
        },
      )
      .addEdge(START, "a")
      .compile();
    expect(((await failure(failing.invoke({ log: [] }))) as Error).message).toBe("handler failed");

    const asking = new StateGraph(State)
      .addNode("a", () => ({ log: [String(interrupt("q"))] }), { errorHandler: () => ({ log: ["handled"] }) })
      .addEdge(START, "a")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "i" } };
    const paused = (await asking.invoke({ log: [] }, config)) as Record<string, unknown>;
    expect((paused.__interrupt__ as { value: unknown }[])[0]?.value).toBe("q");
    expect(await asking.invoke(new Command({ resume: "ans" }), config)).toEqual({ log: ["ans"] });
  });

  it("let the other tasks of the step finish", async () => {
    const graph = new StateGraph(State)
      .addNode(
        "a",
        async () => {
          await sleep(5);
          throw new Error("boom");
        },
        { errorHandler: () => ({ log: ["ha"] }) },
      )
      .addNode("b", async () => {
        await sleep(20);
        return { log: ["b"] };
      })
      .addNode("c", () => ({ log: ["c"] }))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .addEdge("a", "c")
      .addEdge("b", "c")
      .compile();
    expect(await collect(await graph.stream({ log: [] }))).toEqual([
      { __error_handler__a: { log: ["ha"] } },
      { b: { log: ["b"] } },
      { c: { log: ["c"] } },
    ]);
  });

  it("handle timeouts too", async () => {
    const graph = new StateGraph(State)
      .addNode(
        "a",
        async (_s, config) => {
          await sleep(100, config.signal);
          return { log: ["a"] };
        },
        {
          timeout: 20,
          errorHandler: (_s, failure) => ({
            log: [`${failure.error.name}:${(failure.error as NodeTimeoutError).kind}`],
          }),
        },
      )
      .addEdge(START, "a")
      .compile();
    expect(await graph.invoke({ log: [] })).toEqual({ log: ["NodeTimeoutError:run"] });
  });

  it("setNodeDefaults({ errorHandler }) handles the nodes without a handler of their own", async () => {
    const builder = new StateGraph(State)
      .setNodeDefaults({ errorHandler: (_s, failure) => ({ log: [`default:${failure.node}`] }) })
      .addNode("a", () => {
        throw new Error("boom");
      })
      .addNode(
        "b",
        () => {
          throw new Error("boom2");
        },
        { errorHandler: (_s, failure) => ({ log: [`own:${failure.node}`] }) },
      )
      .addEdge(START, "a")
      .addEdge(START, "b");
    const graph = builder.compile();
    expect(Object.keys(graph.nodes)).toEqual([
      "__start__",
      "a",
      "__error_handler__b",
      "b",
      "__default_error_handler__",
    ]);
    expect(Object.keys(builder.nodes)).toEqual(["a", "__error_handler__b", "b"]);
    expect(await collect(await graph.stream({ log: [] }))).toEqual([
      { __default_error_handler__: { log: ["default:a"] } },
      { __error_handler__b: { log: ["own:b"] } },
    ]);
  });

  it("refuse a node already named like the handler", () => {
    expect(() =>
      new StateGraph(State)
        .addNode("__error_handler__a", () => ({}))
        .addNode("a", () => ({}), { errorHandler: () => ({}) }),
    ).toThrow(
      "Cannot add error handler to node `a`: the reserved name `__error_handler__a` is already in use.",
    );
  });

  it("a resumed step runs the handler of a handled failure again, not the node", async () => {
    let nodeRuns = 0;
    let handlerRuns = 0;
    const graph = new StateGraph(State)
      .addNode(
        "a",
        () => {
          nodeRuns += 1;
          throw new Error("boom");
        },
        {
          errorHandler: (_s, failure) => {
            handlerRuns += 1;
            return { log: [`${String(interrupt("fix?"))}:${failure.error.message}`] };
          },
        },
      )
      .addEdge(START, "a")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "r" } };
    await graph.invoke({ log: [] }, config);
    expect(await graph.invoke(new Command({ resume: "fixed" }), config)).toEqual({ log: ["fixed:boom"] });
    expect([nodeRuns, handlerRuns]).toEqual([1, 2]);
  });
});

describe("graceful drain", () => {
  const chain = (saver?: MemorySaver) =>
    new StateGraph(State)
      .addNode("a", (_s, config) => {
        config.control?.requestDrain("from-node");
        return { log: ["a"] };
      })
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("c", () => ({ log: ["c"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", "c")
      .compile(saver === undefined ? {} : { checkpointer: saver });

  it("stops at the next superstep boundary with the checkpoint saved, and resumes with invoke(null)", async () => {
    const graph = chain(new MemorySaver());
    const config = { configurable: { thread_id: "d1" } };
    const error = (await failure(graph.invoke({ log: [] }, config))) as GraphDrained;
    expect(error).toBeInstanceOf(GraphDrained);
    expect([error.message, error.reason]).toEqual(["Graph drained: from-node", "from-node"]);
    const state = await graph.getState(config);
    expect([state.values, state.next, state.metadata?.step]).toEqual([{ log: ["a"] }, ["b"], 1]);
    expect(await graph.invoke(null, config)).toEqual({ log: ["a", "b", "c"] });
    expect(isGraphDrained(await failure(chain().invoke({ log: [] })))).toBe(true);
  });

  it("streams the finished steps, then fails the stream", async () => {
    const graph = chain(new MemorySaver());
    const chunks: unknown[] = [];
    const error = await failure(
      (async () => {
        for await (const chunk of await graph.stream(
          { log: [] },
          { configurable: { thread_id: "d2" }, streamMode: ["updates", "values"] },
        ))
          chunks.push(chunk);
      })(),
    );
    expect(isGraphDrained(error)).toBe(true);
    expect(chunks).toEqual([
      ["values", { log: [] }],
      ["updates", { a: { log: ["a"] } }],
      ["values", { log: ["a"] }],
    ]);
  });

  it("a drain requested before the run stops it before the first step; one in the last step lets it finish", async () => {
    const graph = chain(new MemorySaver());
    const control = new RunControl();
    control.requestDrain();
    const config = { configurable: { thread_id: "d3" }, control };
    expect(((await failure(graph.invoke({ log: [] }, config))) as GraphDrained).reason).toBe("shutdown");
    const state = await graph.getState(config);
    expect([state.values, state.next, state.metadata?.step]).toEqual([{ log: [] }, ["__start__"], -1]);

    const last = new StateGraph(State)
      .addNode("a", (_s, config) => {
        config.control?.requestDrain();
        return { log: ["a"] };
      })
      .addEdge(START, "a")
      .compile();
    const own = new RunControl();
    expect(await last.invoke({ log: [] }, { control: own })).toEqual({ log: ["a"] });
    expect(own.drainRequested).toBe(true);
  });

  it("a subgraph obeys the run's control; the parent resumes it", async () => {
    const sub = new StateGraph(State)
      .addNode("s1", (_s, config) => {
        config.control?.requestDrain("sub");
        return { log: ["s1"] };
      })
      .addNode("s2", () => ({ log: ["s2"] }))
      .addEdge(START, "s1")
      .addEdge("s1", "s2")
      .compile();
    const graph = new StateGraph(State)
      .addNode("p", sub)
      .addNode("q", () => ({ log: ["q"] }))
      .addEdge(START, "p")
      .addEdge("p", "q")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "d4" } };
    expect(((await failure(graph.invoke({ log: [] }, config))) as GraphDrained).reason).toBe("sub");
    const state = await graph.getState(config);
    expect([state.values, state.next]).toEqual([{ log: [] }, ["p"]]);
    expect(await graph.invoke(null, config)).toEqual({ log: ["s1", "s2", "q"] });
  });
});

describe("stepTimeout", () => {
  it("fails a superstep that runs too long, aborting its tasks", async () => {
    let signal: AbortSignal | undefined;
    const graph = new StateGraph(State)
      .addNode("a", async (_s, config) => {
        signal = config.signal;
        await sleep(200);
        return { log: ["a"] };
      })
      .addEdge(START, "a")
      .compile();
    expect(graph.stepTimeout).toBeUndefined();
    graph.stepTimeout = 30;
    const error = (await failure(graph.invoke({ log: [] }))) as Error;
    expect(error.message).toMatch(/^Abort/);
    expect(signal?.aborted).toBe(true);
  });
});
