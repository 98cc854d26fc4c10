// Workload C: the ReAct loop of createAgent, as ../shared/bench/bench-c-agent.ts runs it.
//
// A scripted chat model asks for one `lookup` tool call per turn for N turns, then answers;
// every message carries 200 characters. For each N in --turns: two 5-turn warm-up runs on
// other threads, a full GC, then one timed invoke of the N-turn conversation on a fresh thread.
// Reports ms per turn, RSS growth during the run (peak sampled at every model call, over the
// RSS after GC before it), and with a saver the bytes it holds: the database (the warm-up runs
// use a saver of their own) and, for agentgraph, the stored value bytes of the thread.
//
// Usage: tsx bench/workloads/agent.ts --impl agentgraph --saver none|memory|sqlite|postgres --turns 10,50,200

import { agentWorkload } from "../lib/agent-workload.js";
import { check, emit, gc, parseArgs, round } from "../lib/harness.js";
import { implFromArgs } from "../lib/impl.js";
import { openSaver, type SaverHandle, type SaverKind } from "../lib/savers.js";

const args = parseArgs();
const impl = implFromArgs(args);
const saverKind = (args.saver ?? "none") as SaverKind | "none";
const TURNS = (args.turns ?? "10,50,200").split(",").map(Number);
const MB = 2 ** 20;

const { build, input, config } = await agentWorkload(impl);

for (const turns of TURNS) {
  // warm up on a saver of its own, so the measured one holds the measured thread alone
  const warmHandle = saverKind === "none" ? undefined : await openSaver(impl, saverKind, `c-warm-${turns}`);
  try {
    const warm = build(5, warmHandle?.saver);
    for (let i = 0; i < 2; i++) {
      const out = await warm.invoke(input(5), config(warmHandle?.saver, `warm-${i}`, 5));
      check(out.messages.length === 12, `warm-up produced ${out.messages.length} messages`);
    }
  } finally {
    await warmHandle?.close();
  }
  const handle: SaverHandle | undefined =
    saverKind === "none" ? undefined : await openSaver(impl, saverKind, `c-${turns}`);
  try {
    const saver = handle?.saver;
    let peak = 0;
    const sample = () => {
      const rss = process.memoryUsage.rss();
      if (rss > peak) peak = rss;
    };
    const agent = build(turns, saver, sample);
    gc();
    const base = process.memoryUsage.rss();
    peak = base;
    const timer = setInterval(sample, 5);
    const started = performance.now();
    const out = await agent.invoke(input(turns), config(saver, "run", turns));
    const ms = performance.now() - started;
    clearInterval(timer);
    sample();
    check(out.messages.length === 2 * turns + 2, `got ${out.messages.length} messages`);
    const stored = handle === undefined ? undefined : await handle.storedBytes();
    // agentgraph's savers also count the bytes of the values they hold for one thread
    const valueBytes =
      typeof saver?.storedBytes === "function" ? Number(await saver.storedBytes("run")) : undefined;
    emit({
      workload: "C",
      case: `agent_${saverKind}_n${turns}`,
      impl,
      total_ms: round(ms, 1),
      ms_per_turn: round(ms / turns, 3),
      rss_growth_mb: round((peak - base) / MB, 1),
      ...(stored === undefined || Number.isNaN(stored)
        ? {}
        : { stored_bytes: stored, stored_bytes_per_turn: round(stored / turns, 1) }),
      ...(valueBytes === undefined ? {} : { stored_value_bytes: valueBytes }),
    });
  } finally {
    await handle?.close();
  }
}
