// Workload E: streaming the agent of workload C, as ../shared/bench/bench-e-stream.ts runs it.
//
// The N-turn agent (no saver) is run with `invoke`, `stream(…, { streamMode: "updates" })` and
// `stream(…, { streamMode: "values" })`, round-robin: 2 warm-up rounds, then --rounds timed ones,
// every chunk consumed. Reports each mode's median time, ms per turn, and its ratio to `invoke`
// (what streaming itself costs).
//
// Usage: tsx bench/workloads/stream.ts --impl agentgraph --turns 50 --rounds 7
import { agentWorkload } from "../lib/agent-workload.js";
import { check, emit, median, parseArgs, round } from "../lib/harness.js";
import { implFromArgs } from "../lib/impl.js";

const args = parseArgs();
const impl = implFromArgs(args);
const turns = Number(args.turns ?? 50);
const rounds = Number(args.rounds ?? 7);
const MODES = ["invoke", "updates", "values"] as const;

const { build, input, config } = await agentWorkload(impl);
const agent = build(turns, undefined);

async function runOnce(mode: (typeof MODES)[number]): Promise<number> {
  const started = performance.now();
  if (mode === "invoke") {
    const out = await agent.invoke(input(turns), config(undefined, "", turns));
    check(out.messages.length === 2 * turns + 2, `invoke returned ${out.messages.length} messages`);
    return performance.now() - started;
  }
  let chunks = 0;
  const stream = await agent.stream(input(turns), { ...config(undefined, "", turns), streamMode: mode });
  for await (const _chunk of stream) chunks++;
  check(chunks > turns, `${mode} produced only ${chunks} chunks`);
  return performance.now() - started;
}

for (let i = 0; i < 2; i++) for (const mode of MODES) await runOnce(mode);
const samples: Record<string, number[]> = { invoke: [], updates: [], values: [] };
for (let r = 0; r < rounds; r++) for (const mode of MODES) samples[mode]?.push(await runOnce(mode));
const invokeMs = median(samples.invoke ?? []);
for (const mode of MODES) {
  const ms = median(samples[mode] ?? []);
  emit({
    workload: "E",
    case: `stream_${mode}_n${turns}`,
    impl,
    total_ms: round(ms, 2),
    ms_per_turn: round(ms / turns, 4),
    vs_invoke: round(ms / invokeMs, 3),
  });
}
