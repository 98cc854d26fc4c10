import type { BaseCheckpointSaver } from "../../graph/index.js";

/** The parts of the engine the crash graph is built from (passed in, so the child and the test share it). */
export interface CrashEngine {
  // biome-ignore lint/suspicious/noExplicitAny: the graph API is used generically here
  Annotation: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  StateGraph: any;
  START: string;
  END: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A graph that loops `rounds` times through `split → (left ∥ right) → join`, each node logging
 * its task id (the idempotency key) before doing a little asynchronous work.
 */
export function crashGraph(
  engine: CrashEngine,
  saver: BaseCheckpointSaver,
  rounds: number,
  log: (taskId: string) => void,
) {
  const { Annotation, StateGraph, START, END } = engine;
  const State = Annotation.Root({
    round: Annotation({ reducer: (a: number, b: number) => a + b, default: () => 0 }),
    trail: Annotation({ reducer: (a: string[], b: string[]) => a.concat(b), default: () => [] }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: node configs of the generic graph
  const work = (name: string) => async (state: { round: number }, config: any) => {
    log(String(config.executionInfo?.idempotencyKey ?? config.executionInfo?.taskId));
    await sleep(1 + (state.round % 3));
    return { trail: [`${name}${state.round}`] };
  };
  return new StateGraph(State)
    .addNode("split", work("s"))
    .addNode("left", work("l"))
    .addNode("right", work("r"))
    .addNode("join", async (state: { round: number }, config: unknown) => {
      const update = await work("j")(state, config);
      return { ...update, round: 1 };
    })
    .addEdge(START, "split")
    .addEdge("split", "left")
    .addEdge("split", "right")
    .addEdge(["left", "right"], "join")
    .addConditionalEdges("join", (state: { round: number }) => (state.round < rounds ? "split" : END), [
      "split",
      END,
    ])
    .compile({ checkpointer: saver });
}

/** Runs (or resumes) a thread of the crash graph to the end, with `sync` durability. */
export async function runCrashThread(
  engine: CrashEngine,
  saver: BaseCheckpointSaver,
  threadId: string,
  rounds: number,
  log: (taskId: string) => void,
): Promise<unknown> {
  const graph = crashGraph(engine, saver, rounds, log);
  const config = {
    configurable: { thread_id: threadId },
    durability: "sync",
    recursionLimit: rounds * 4 + 10,
  };
  const existing = await saver.getTuple({ configurable: { thread_id: threadId } });
  return graph.invoke(existing === undefined ? { round: 0 } : null, config);
}

/** The comparable part of a final state. */
export function crashGraphState(state: unknown): unknown {
  const s = state as { round: number; trail: string[] };
  return { round: s.round, trail: s.trail };
}
