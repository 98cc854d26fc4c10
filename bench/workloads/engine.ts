// Workload A (and the chain-length workload): engine overhead with trivial nodes, no checkpointer.
//
//   linear3       START -> a -> b -> c -> END, each node returns {x: x+1}; --invokes sequential
//                 invokes after a warm-up of at least --warmup invokes and --warmup-ms
//                 milliseconds; median µs per invoke and per superstep (= invoke / 3).
//   selfloop      one node with a conditional edge back to itself until it has run --steps
//                 times in a single invoke (recursionLimit = 10 × steps); µs per superstep.
//   chain<N>      START -> n1 -> … -> nN -> END with no-op nodes (return {}); µs per superstep
//                 (= invoke / N), for N in --chains: the cost of a step must not grow with N.
//                 Each size is warmed up for --warmup-ms and timed for at least --time-ms.
//
// Same graphs as ../shared/bench/bench-ab-engine.ts (linear3, selfloop1000).
import { check, emit, gc, median, parseArgs, round, timeEach, timeFor, warmUp } from "../lib/harness.js";
import { implFromArgs, loadImpl } from "../lib/impl.js";

const args = parseArgs();
const impl = implFromArgs(args);
const { StateGraph, Annotation, START, END } = await loadImpl(impl);
const INVOKES = Number(args.invokes ?? 2000);
const WARMUP = Number(args.warmup ?? 200);
const STEPS = Number(args.steps ?? 1000);
const LOOPS = Number(args.loops ?? 10);
const CHAINS = (args.chains ?? "10,100,1000").split(",").map(Number);
const WARMUP_MS = Number(args["warmup-ms"] ?? 1000);
const TIME_MS = Number(args["time-ms"] ?? 2000);

const LinearState = Annotation.Root({ x: Annotation() });
const LoopState = Annotation.Root({ i: Annotation(), target: Annotation() });

const linear = new StateGraph(LinearState)
  .addNode("a", (s: { x: number }) => ({ x: s.x + 1 }))
  .addNode("b", (s: { x: number }) => ({ x: s.x + 1 }))
  .addNode("c", (s: { x: number }) => ({ x: s.x + 1 }))
  .addEdge(START, "a")
  .addEdge("a", "b")
  .addEdge("b", "c")
  .addEdge("c", END)
  .compile();

const first = await linear.invoke({ x: 0 });
check(first.x === 3, `linear3 returned x=${first.x}`);
await warmUp(() => linear.invoke({ x: 0 }), WARMUP, WARMUP_MS);
gc();
const linearMs = await timeEach(INVOKES, () => linear.invoke({ x: 0 }));
const perInvokeUs = median(linearMs) * 1000;
emit({
  workload: "A",
  case: "linear3",
  impl,
  us_per_invoke: round(perInvokeUs),
  us_per_superstep: round(perInvokeUs / 3),
});

const loop = new StateGraph(LoopState)
  .addNode("step", (s: { i: number }) => ({ i: s.i + 1 }))
  .addEdge(START, "step")
  .addConditionalEdges("step", (s: { i: number; target: number }) => (s.i < s.target ? "step" : END), [
    "step",
    END,
  ])
  .compile();
const runLoop = () => loop.invoke({ i: 0, target: STEPS }, { recursionLimit: STEPS * 10 });
const looped = await runLoop();
check(looped.i === STEPS, `selfloop returned i=${looped.i}`);
await timeEach(2, runLoop);
gc();
const loopMs = await timeEach(LOOPS, runLoop);
emit({
  workload: "A",
  case: `selfloop${STEPS}`,
  impl,
  us_per_superstep: round((median(loopMs) * 1000) / STEPS),
});

const Empty = Annotation.Root({ x: Annotation() });
for (const n of CHAINS) {
  let graph = new StateGraph(Empty);
  for (let i = 1; i <= n; i++) graph = graph.addNode(`n${i}`, () => ({}));
  graph = graph.addEdge(START, "n1");
  for (let i = 1; i < n; i++) graph = graph.addEdge(`n${i}`, `n${i + 1}`);
  const chain = graph.addEdge(`n${n}`, END).compile();
  const run = () => chain.invoke({ x: 1 }, { recursionLimit: n + 10 });
  await warmUp(run, 2, WARMUP_MS);
  gc();
  const ms = await timeFor(run, 3, TIME_MS);
  emit({ workload: "A", case: `chain${n}`, impl, us_per_superstep: round((median(ms) * 1000) / n) });
}
