/**
 * A node that takes the engine's continuation (`INVOKE_THEN`, as the agent's model node and
 * ToolNode do) runs through it: its output reaches the writers and the step in its own last
 * continuation, its failures reach the node's failure handling (retries, interrupts), and a
 * runnable node (an object with `invoke`) keeps the protocol through the node.
 */
import { describe, expect, it } from "vitest";
import { Annotation, Command, interrupt, MemorySaver, START, StateGraph } from "../../index.js";
import { INVOKE_THEN } from "../../shared/index.js";

const State = Annotation.Root({
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});
type S = typeof State.State;

type Then = (output: unknown) => unknown;
type OnError = (error: unknown) => unknown;

/** A node function that also implements the protocol, recording which way it was called. */
function fusedNode(
  calls: string[],
  run: (state: S, then: Then, onError: OnError) => Promise<unknown>,
): (state: S) => Promise<never> {
  const node = (state: S) => {
    calls.push("plain");
    return run(
      state,
      (output) => output,
      (error) => Promise.reject(error),
    );
  };
  Object.defineProperty(node as object, INVOKE_THEN, {
    value: (state: S, _config: unknown, then: Then, onError: OnError) => {
      calls.push("fused");
      return run(state, then, onError);
    },
  });
  return node as (state: S) => Promise<never>;
}

describe("nodes that take the engine's continuation", () => {
  it("hand their output to the writers through it", async () => {
    const calls: string[] = [];
    const node = fusedNode(calls, (state, then) =>
      Promise.resolve().then(() => then({ log: [`a${state.log.length}`] })),
    );
    const graph = new StateGraph(State).addNode("a", node).addEdge(START, "a").compile();
    expect(await graph.invoke({ log: [] })).toEqual({ log: ["a0"] });
    expect(calls).toEqual(["fused"]);
    // a Command as output works as a returned one
    const routed = new StateGraph(State)
      .addNode(
        "a",
        fusedNode([], (_state, then) =>
          Promise.resolve().then(() => then(new Command({ goto: "b", update: { log: ["a"] } }))),
        ),
        { ends: ["b"] },
      )
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .compile();
    expect(await routed.invoke({ log: [] })).toEqual({ log: ["a", "b"] });
  });

  it("send their failures to the node's failure handling: errors, retries and interrupts", async () => {
    const calls: string[] = [];
    let attempts = 0;
    const flaky = fusedNode(calls, (_state, then, onError) =>
      Promise.resolve().then(() => {
        attempts += 1;
        return attempts < 2 ? onError(new Error("flaky")) : then({ log: ["ok"] });
      }),
    );
    const retried = new StateGraph(State)
      .addNode("a", flaky, { retryPolicy: { maxAttempts: 3, initialInterval: 1, jitter: false } })
      .addEdge(START, "a")
      .compile();
    expect(await retried.invoke({ log: [] })).toEqual({ log: ["ok"] });
    // the first attempt through the protocol, the retry the plain way
    expect(calls).toEqual(["fused", "plain"]);

    const failing = new StateGraph(State)
      .addNode(
        "a",
        fusedNode([], (_s, _then, onError) => Promise.resolve().then(() => onError(new TypeError("bad")))),
      )
      .addEdge(START, "a")
      .compile();
    await expect(failing.invoke({ log: [] })).rejects.toThrow(TypeError);

    const asking = new StateGraph(State)
      .addNode(
        "a",
        fusedNode([], (_s, then, onError) =>
          Promise.resolve().then(() => {
            try {
              return then({ log: [`answer:${interrupt("q")}`] });
            } catch (error) {
              return onError(error);
            }
          }),
        ),
      )
      .addEdge(START, "a")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "fused" } };
    const paused = await asking.invoke({ log: [] }, config);
    expect((paused as { __interrupt__?: { value: unknown }[] }).__interrupt__?.[0]?.value).toBe("q");
  });

  it("keep the protocol when the node is a runnable object", async () => {
    const calls: string[] = [];
    const runnable = {
      invoke: (state: S) => {
        calls.push("invoke");
        return Promise.resolve({ log: [`r${state.log.length}`] });
      },
      [INVOKE_THEN]: (state: S, _config: unknown, then: Then) => {
        calls.push("fused");
        return Promise.resolve().then(() => then({ log: [`r${state.log.length}`] }));
      },
    };
    const graph = new StateGraph(State)
      .addNode("r", runnable as never)
      .addEdge(START, "r")
      .compile();
    expect(await graph.invoke({ log: [] })).toEqual({ log: ["r0"] });
    expect(calls).toEqual(["fused"]);
  });
});
