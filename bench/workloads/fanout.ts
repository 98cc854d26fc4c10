// Workload D: map-style fan-out with Send (same graph as ../shared/bench/bench-d-fanout.ts).
//
// START -> plan -> (N × Send("worker", {item: i})) -> worker -> END; each worker returns
// {results: [item * 2]} into the reducer (a, b) => a.concat(b). One invoke runs N worker tasks
// in one superstep.
//   --via edge     the Sends come from addConditionalEdges("plan", ...)  (default)
//   --via command  the plan node returns new Command({ goto: Send[] })
//   --reducer concat  the workload's reducer (itself quadratic: N concatenations of a growing list)
//   --reducer push    an in-place append, to measure the engine's own cost apart
import { check, emit, gc, median, parseArgs, round, timeEach } from "../lib/harness.js";
import { implFromArgs, loadImpl } from "../lib/impl.js";

const args = parseArgs();
const impl = implFromArgs(args);
const { StateGraph, Annotation, START, END, Send, Command } = await loadImpl(impl);
const via = args.via ?? "edge";
const reducerKind = args.reducer ?? "concat";
const SIZES = (args.sizes ?? "1000,4000,10000").split(",").map(Number);

const reducer =
  reducerKind === "push"
    ? (a: number[], b: number[]) => {
        for (const x of b) a.push(x);
        return a;
      }
    : (a: number[], b: number[]) => a.concat(b);
const FanState = Annotation.Root({
  n: Annotation(),
  results: Annotation({ reducer, default: () => [] }),
});
const sends = (n: number) => Array.from({ length: n }, (_, i) => new Send("worker", { item: i }));
const worker = (p: { item: number }) => ({ results: [p.item * 2] });

const graph = new StateGraph(FanState);
if (via === "edge") {
  graph
    .addNode("plan", () => ({}))
    .addNode("worker", worker)
    .addEdge(START, "plan")
    .addConditionalEdges("plan", (s: { n: number }) => sends(s.n), ["worker"])
    .addEdge("worker", END);
} else {
  graph
    .addNode("plan", (s: { n: number }) => new Command({ goto: sends(s.n) }), { ends: ["worker"] })
    .addNode("worker", worker)
    .addEdge(START, "plan")
    .addEdge("worker", END);
}
const app = graph.compile();

const run = async (n: number) => {
  const out = await app.invoke({ n });
  check(out.results.length === n, `fan-out ${n} returned ${out.results.length} results`);
  return out;
};
const sorted = (await run(100)).results.slice().sort((a: number, b: number) => a - b);
check(sorted[99] === 198, "fan-out results are wrong");
await timeEach(3, () => run(100));

for (const n of SIZES) {
  const reps = Number(args.reps ?? (n <= 1000 ? 5 : 1));
  if (n <= 1000) await run(n);
  gc();
  const ms = await timeEach(reps, () => run(n));
  emit({
    workload: "D",
    case: `fanout_${via}_${reducerKind}_n${n}`,
    impl,
    total_ms: round(median(ms)),
    us_per_send: round((median(ms) * 1000) / n),
  });
}
