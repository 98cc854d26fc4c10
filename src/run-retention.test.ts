/**
 * What a finished run leaves reachable. A run's `signal` (the caller's, or the one its `timeout`
 * makes, which lives until its timer fires) must not keep the run's state alive once the run has
 * ended. The garbage collector is forced through `node:v8` (no `--expose-gc` needed).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { Annotation, START, StateGraph } from "./index.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const Blob = Annotation.Root({ blob: Annotation<{ big: number[] }> });

/** a → b, each writing a fresh object of some size. */
function twoSteps() {
  return new StateGraph(Blob)
    .addNode("a", () => ({ blob: { big: new Array(1000).fill(0) } }))
    .addNode("b", async (state) => ({ blob: { big: [...state.blob.big] } }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .compile();
}

describe("a finished run keeps nothing alive through its signal", () => {
  it("neither a `timeout` not yet elapsed nor a caller's lasting signal holds the run's state", async () => {
    const graph = twoSteps();
    const lasting = new AbortController();
    // what a run returned, held weakly (a local of this function would keep the last one)
    const runWeakly = async (options: { timeout?: number; signal?: AbortSignal }) =>
      new WeakRef((await graph.invoke({ blob: { big: [] } }, options)).blob);
    const refs = [
      await runWeakly({ timeout: 60_000 }),
      await runWeakly({ signal: lasting.signal }),
      await runWeakly({ timeout: 60_000, signal: lasting.signal }),
    ];
    await sleep(0);
    collectGarbage();
    expect(refs.map((ref) => ref.deref() === undefined)).toEqual([true, true, true]);
  });
});
