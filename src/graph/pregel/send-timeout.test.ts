/**
 * `new Send(node, args, { timeout })`: a timeout for the one task a Send starts, ahead of the
 * target node's own `timeout`. Expected values: @langchain/langgraph 1.7.3 (probes
 * /tmp/sendprobe/probe.ts and probe2.ts, run against both libraries).
 */
import { afterAll, describe, expect, it } from "vitest";
import { SqliteSaver } from "../../checkpoint/sqlite/index.js";
import {
  Annotation,
  type BaseCheckpointSaver,
  Command,
  END,
  InvalidGraphError,
  interrupt,
  isNodeTimeoutError,
  MemorySaver,
  NodeTimeoutError,
  Send,
  type SendOptions,
  START,
  StateGraph,
} from "../../index.js";
import { defaultSerializer } from "../index.js";

const State = Annotation.Root({
  items: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

interface WorkerSetup {
  /** Options of the Send (none: a two-argument Send). */
  send?: SendOptions;
  /** The worker node's own `timeout`. */
  nodeTimeout?: number;
  /** How long the worker works. */
  work: number;
  checkpointer?: BaseCheckpointSaver;
  interruptBefore?: "worker"[];
  /** The worker asks (`interrupt`) before it works. */
  ask?: boolean;
}

/** START fans out one Send to `worker`, which sleeps `work` ms and records its input. */
function workerGraph(setup: WorkerSetup) {
  return new StateGraph(State)
    .addNode(
      "worker",
      async (state, config) => {
        const input = state as unknown as { x: number };
        if (setup.ask === true) interrupt("ok?");
        await sleep(setup.work, config.signal);
        return { items: [`done:${input.x}`] };
      },
      setup.nodeTimeout === undefined ? {} : { timeout: setup.nodeTimeout },
    )
    .addConditionalEdges(START, () => [
      setup.send === undefined ? new Send("worker", { x: 1 }) : new Send("worker", { x: 1 }, setup.send),
    ])
    .addEdge("worker", END)
    .compile({
      ...(setup.checkpointer === undefined ? {} : { checkpointer: setup.checkpointer }),
      ...(setup.interruptBefore === undefined ? {} : { interruptBefore: setup.interruptBefore }),
    });
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the run to fail");
}

describe("Send options", () => {
  it("normalizes the timeout as LangGraph.js does and carries it in toJSON", () => {
    expect(new Send("w", 1, { timeout: 100 }).timeout).toStrictEqual({ runTimeout: 100, refreshOn: "auto" });
    expect(new Send("w", 1, { timeout: { idleTimeout: 100 } }).timeout).toStrictEqual({
      idleTimeout: 100,
      refreshOn: "auto",
    });
    expect(new Send("w", 1, { timeout: { idleTimeout: 5, refreshOn: "heartbeat" } }).timeout).toStrictEqual({
      idleTimeout: 5,
      refreshOn: "heartbeat",
    });
    for (const send of [new Send("w", 1), new Send("w", 1, {}), new Send("w", 1, { timeout: {} })]) {
      expect(send.timeout).toBeUndefined();
      expect(Object.keys(send)).toEqual(["lg_name", "node", "args", "timeout"]);
      expect(JSON.stringify(send)).toBe('{"lg_name":"Send","node":"w","args":1}');
    }
    expect(JSON.stringify(new Send("w", { a: 1 }, { timeout: 100 }))).toBe(
      '{"lg_name":"Send","node":"w","args":{"a":1},"timeout":{"runTimeout":100,"refreshOn":"auto"}}',
    );
    expect(new Send("w", 1, { timeout: 7 }).toJSON()).toStrictEqual({
      lg_name: "Send",
      node: "w",
      args: 1,
      timeout: { runTimeout: 7, refreshOn: "auto" },
    });
  });

  it("refuses an invalid timeout when the Send is made (LangGraph.js's text)", () => {
    for (const timeout of [0, -5, Number.NaN, { runTimeout: 0 }, { idleTimeout: -1 }]) {
      expect(() => new Send("w", 1, { timeout })).toThrow(InvalidGraphError);
      expect(() => new Send("w", 1, { timeout })).toThrow(/^(run|idle)Timeout must be greater than 0/);
    }
    expect(() => new Send("w", 1, { timeout: { runTimeout: 1, refreshOn: "x" as "auto" } })).toThrow(
      'refreshOn must be "auto" or "heartbeat"',
    );
  });

  it("Command.goto keeps the timeout of a Send and of a plain { node, args, timeout }", () => {
    const command = new Command({ goto: [{ node: "worker", args: 1, timeout: 50 }] });
    const target = command.goto[0];
    expect(target).toBeInstanceOf(Send);
    expect((target as Send).timeout).toStrictEqual({ runTimeout: 50, refreshOn: "auto" });
    expect(command.toJSON()).toStrictEqual({
      lg_name: "Command",
      update: undefined,
      resume: undefined,
      goto: [{ lg_name: "Send", node: "worker", args: 1, timeout: { runTimeout: 50, refreshOn: "auto" } }],
    });
    const again = new Command({ goto: new Send("worker", 2, { timeout: { idleTimeout: 9 } }) });
    expect((again.goto[0] as Send).timeout).toStrictEqual({ idleTimeout: 9, refreshOn: "auto" });
  });

  it("the serializer round-trips the timeout; a Send without one is stored as before", () => {
    const timed = defaultSerializer.decode(
      defaultSerializer.encode(new Send("worker", { at: new Date(3) }, { timeout: { idleTimeout: 20 } })),
    );
    expect(timed).toBeInstanceOf(Send);
    expect(timed).toStrictEqual(new Send("worker", { at: new Date(3) }, { timeout: { idleTimeout: 20 } }));
    const plain = new Send("worker", { job: 1 });
    expect(defaultSerializer.encode(plain)).toBe('{"~t":"send","v":["worker",{"job":1}]}');
    expect(defaultSerializer.decode(defaultSerializer.encode(plain))).toStrictEqual(plain);
  });
});

describe("a Send's timeout in a run", () => {
  it("fires on the Send's task with a NodeTimeoutError (run timeout)", async () => {
    const error = await failure(workerGraph({ send: { timeout: 40 }, work: 400 }).invoke({}));
    expect(error).toBeInstanceOf(NodeTimeoutError);
    expect(isNodeTimeoutError(error)).toBe(true);
    const e = error as NodeTimeoutError;
    expect(e.name).toBe("NodeTimeoutError");
    expect(e.message).toMatch(/^Node "worker" exceeded its run timeout of 40ms \(elapsed: \d+ms\)\.$/);
    expect([e.node, e.kind, e.timeout, e.runTimeout, e.idleTimeout]).toEqual([
      "worker",
      "run",
      40,
      40,
      undefined,
    ]);
    expect(typeof (e as { pregelTaskId?: unknown }).pregelTaskId).toBe("string");
  });

  it("fires as an idle timeout for a policy with idleTimeout", async () => {
    const error = (await failure(
      workerGraph({ send: { timeout: { idleTimeout: 40 } }, work: 400 }).invoke({}),
    )) as NodeTimeoutError;
    expect(error).toBeInstanceOf(NodeTimeoutError);
    expect(error.message).toMatch(
      /^Node "worker" exceeded its idle timeout of 40ms without making progress \(elapsed: \d+ms\)\.$/,
    );
    expect([error.kind, error.timeout, error.idleTimeout]).toEqual(["idle", 40, 40]);
  });

  it("overrides the node's timeout, longer or shorter", async () => {
    await expect(
      workerGraph({ send: { timeout: 2000 }, nodeTimeout: 30, work: 150 }).invoke({}),
    ).resolves.toEqual({
      items: ["done:1"],
    });
    const error = (await failure(
      workerGraph({ send: { timeout: 40 }, nodeTimeout: 5000, work: 400 }).invoke({}),
    )) as NodeTimeoutError;
    expect(error).toBeInstanceOf(NodeTimeoutError);
    expect([error.kind, error.timeout]).toEqual(["run", 40]);
  });

  it("a Send without options behaves as before: the node's timeout, or none", async () => {
    const error = (await failure(workerGraph({ nodeTimeout: 40, work: 400 }).invoke({}))) as NodeTimeoutError;
    expect(error).toBeInstanceOf(NodeTimeoutError);
    expect(error.timeout).toBe(40);
    await expect(workerGraph({ nodeTimeout: 5000, work: 10 }).invoke({})).resolves.toEqual({
      items: ["done:1"],
    });
    await expect(workerGraph({ work: 10 }).invoke({})).resolves.toEqual({ items: ["done:1"] });
  });

  it("applies to its own task only: sibling Sends to the same node keep the node's timeout", async () => {
    const graph = new StateGraph(State)
      .addNode(
        "worker",
        async (state, config) => {
          const input = state as unknown as { x: number; work: number };
          await sleep(input.work, config.signal);
          return { items: [`done:${input.x}`] };
        },
        { timeout: 60 },
      )
      .addConditionalEdges(START, () => [
        new Send("worker", { x: 1, work: 200 }, { timeout: 2000 }),
        new Send("worker", { x: 2, work: 5 }),
      ])
      .compile();
    const result = await graph.invoke({});
    expect([...result.items].sort()).toEqual(["done:1", "done:2"]);
  });

  it("works with Command({ goto: Send }) and the node's retry policy", async () => {
    let attempts = 0;
    const graph = new StateGraph(State)
      .addNode("router", () => new Command({ goto: new Send("worker", { x: 3 }, { timeout: 40 }) }), {
        ends: ["worker"],
      })
      .addNode(
        "worker",
        async (state, config) => {
          const input = state as unknown as { x: number };
          attempts += 1;
          await sleep(attempts === 1 ? 400 : 5, config.signal);
          return { items: [`done:${input.x}`] };
        },
        { retryPolicy: { maxAttempts: 2, initialInterval: 1, jitter: false, logWarning: false } },
      )
      .addEdge(START, "router")
      .compile();
    await expect(graph.invoke({})).resolves.toEqual({ items: ["done:3"] });
    expect(attempts).toBe(2);
  });
});

const sqliteSavers: SqliteSaver[] = [];

afterAll(async () => {
  // the reopened savers share the first one's connection, which closes last
  for (const opened of sqliteSavers.reverse()) await opened.close();
});

const savers: Record<
  string,
  { open: () => BaseCheckpointSaver; reopen: (saver: BaseCheckpointSaver) => BaseCheckpointSaver }
> = {
  MemorySaver: { open: () => new MemorySaver(), reopen: (saver) => saver },
  "SqliteSaver (in-memory database, read by a second saver)": {
    open: () => {
      const saver = SqliteSaver.fromConnString(":memory:");
      sqliteSavers.push(saver);
      return saver;
    },
    // a saver that knows nothing of the thread, on the same database
    reopen: (saver) => {
      const fresh = new SqliteSaver((saver as SqliteSaver).db);
      sqliteSavers.push(fresh);
      return fresh;
    },
  },
};

describe.each(Object.entries(savers))(
  "a Send's timeout survives a checkpoint (%s)",
  (_name, { open, reopen }) => {
    let count = 0;
    const thread = () => {
      const id = `send-timeout-${_name}-${count++}`;
      return { configurable: { thread_id: id } };
    };

    it("is stored with the pending Send and applies when the run resumes (interruptBefore)", async () => {
      const saver = open();
      const config = thread();
      const setup = {
        send: { timeout: 40 },
        nodeTimeout: 5000,
        work: 400,
        interruptBefore: ["worker" as const],
      };
      // as in LangGraph.js: no values yet, the pause only
      await expect(workerGraph({ ...setup, checkpointer: saver }).invoke({}, config)).resolves.toEqual({
        __interrupt__: [],
      });
      const tuple = await saver.getTuple(config);
      const pending = tuple?.checkpoint.channel_values.__pregel_tasks as unknown[];
      expect(pending).toHaveLength(1);
      expect(pending[0]).toBeInstanceOf(Send);
      expect((pending[0] as Send).timeout).toStrictEqual({ runTimeout: 40, refreshOn: "auto" });

      const resumed = workerGraph({ ...setup, checkpointer: reopen(saver) });
      const error = (await failure(resumed.invoke(null, config))) as NodeTimeoutError;
      expect(error).toBeInstanceOf(NodeTimeoutError);
      expect([error.node, error.kind, error.timeout]).toEqual(["worker", "run", 40]);
      const state = await resumed.getState(config);
      expect(state.next).toEqual(["worker"]);
    });

    it("a longer Send timeout still overrides the node's after the resume", async () => {
      const saver = open();
      const config = thread();
      const setup = {
        send: { timeout: 2000 },
        nodeTimeout: 30,
        work: 150,
        interruptBefore: ["worker" as const],
      };
      await workerGraph({ ...setup, checkpointer: saver }).invoke({}, config);
      await expect(
        workerGraph({ ...setup, checkpointer: reopen(saver) }).invoke(null, config),
      ).resolves.toEqual({
        items: ["done:1"],
      });
    });

    it("applies to the rerun of a Send task that interrupted itself", async () => {
      const saver = open();
      const config = thread();
      const setup = { send: { timeout: { idleTimeout: 40 } }, work: 400, ask: true };
      const first = await workerGraph({ ...setup, checkpointer: saver }).invoke({}, config);
      expect(first).toEqual({ __interrupt__: [{ id: expect.any(String), value: "ok?" }] });
      const error = (await failure(
        workerGraph({ ...setup, checkpointer: reopen(saver) }).invoke(new Command({ resume: "yes" }), config),
      )) as NodeTimeoutError;
      expect(error).toBeInstanceOf(NodeTimeoutError);
      expect([error.kind, error.timeout]).toEqual(["idle", 40]);

      const longer = thread();
      const setup2 = { send: { timeout: 2000 }, nodeTimeout: 30, work: 150, ask: true };
      await workerGraph({ ...setup2, checkpointer: saver }).invoke({}, longer);
      await expect(
        workerGraph({ ...setup2, checkpointer: reopen(saver) }).invoke(
          new Command({ resume: "yes" }),
          longer,
        ),
      ).resolves.toEqual({ items: ["done:1"] });
    });
  },
);
