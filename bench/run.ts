/**
 * Runs the benchmark workloads on agentgraph and on LangGraph.js (the reference), back to back in
 * the same session, each job in fresh processes, and prints both figures and their ratio.
 *
 *   npm run bench                 full run (3 processes per job and runtime; takes several minutes)
 *   npm run bench -- --quick      small sizes, one process each (what CI runs, so the bench never rots)
 *   npm run bench -- --only fanout   jobs whose name matches a regular expression
 *   npm run bench -- --impl agentgraph   one runtime only
 *
 * Results: a Markdown table on stdout, raw JSON lines in bench/results/ (not committed).
 * Nothing here asserts a speed: the workloads only check that each runtime computed the right result.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, parseArgs, round } from "./lib/harness.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const args = parseArgs();
const quick = args.quick === "true";
const only = args.only === undefined ? undefined : new RegExp(args.only);
const impls = (args.impl ?? "agentgraph,langgraphjs").split(",");
const REPS = Number(args.reps ?? (quick ? 1 : 3));

interface Job {
  name: string;
  script: string;
  args: string[];
  /** Arguments for the reference only (when it cannot run the full sizes in reasonable time). */
  referenceArgs?: string[];
}

const JOBS: Job[] = quick
  ? [
      {
        name: "engine",
        script: "workloads/engine.ts",
        args: [
          ...["--invokes", "300", "--warmup", "50", "--warmup-ms", "100", "--time-ms", "100"],
          ...["--steps", "200", "--loops", "2", "--chains", "10,100"],
        ],
      },
      {
        name: "fanout-edge",
        script: "workloads/fanout.ts",
        args: ["--via", "edge", "--sizes", "300", "--reps", "1"],
      },
      {
        name: "fanout-command",
        script: "workloads/fanout.ts",
        args: ["--via", "command", "--sizes", "300", "--reps", "1"],
      },
      { name: "import", script: "workloads/import.ts", args: ["--reps", "1"] },
      ...["memory", "sqlite", "postgres"].map((saver) => ({
        name: `persist-b-${saver}`,
        script: "workloads/persistence.ts",
        args: [
          "--workload",
          "B",
          "--saver",
          saver,
          "--invokes",
          "20",
          "--warmup",
          "5",
          "--warmup-ms",
          "50",
          "--time-ms",
          "50",
          "--steps",
          "50",
          "--loops",
          "1",
        ],
      })),
      {
        name: "persist-g-sqlite",
        script: "workloads/persistence.ts",
        args: ["--workload", "G", "--saver", "sqlite", "--turns", "20"],
      },
      ...["none", "sqlite"].map((saver) => ({
        name: `agent-c-${saver}`,
        script: "workloads/agent.ts",
        args: ["--saver", saver, "--turns", "10"],
      })),
      { name: "agent-e-stream", script: "workloads/stream.ts", args: ["--turns", "10", "--rounds", "2"] },
    ]
  : [
      { name: "engine", script: "workloads/engine.ts", args: [] },
      {
        name: "fanout-edge",
        script: "workloads/fanout.ts",
        args: ["--via", "edge", "--sizes", "1000,4000,10000"],
        // 10,000 sends take LangGraph.js about 129 s (../shared/bench/RESULTS.md): run it by hand with --all.
        ...(args.all === "true" ? {} : { referenceArgs: ["--via", "edge", "--sizes", "1000,4000"] }),
      },
      {
        name: "fanout-command",
        script: "workloads/fanout.ts",
        args: ["--via", "command", "--sizes", "1000,4000,10000"],
        ...(args.all === "true" ? {} : { referenceArgs: ["--via", "command", "--sizes", "1000"] }),
      },
      {
        name: "fanout-engine",
        script: "workloads/fanout.ts",
        args: ["--via", "edge", "--reducer", "push", "--sizes", "1000,4000,10000"],
        ...(args.all === "true"
          ? {}
          : { referenceArgs: ["--via", "edge", "--reducer", "push", "--sizes", "1000"] }),
      },
      { name: "import", script: "workloads/import.ts", args: [] },
      ...["memory", "sqlite", "postgres"].flatMap((saver) =>
        ["async", "sync"].map((durability) => ({
          name: `persist-b-${saver}-${durability}`,
          script: "workloads/persistence.ts",
          args: ["--workload", "B", "--saver", saver, "--durability", durability],
        })),
      ),
      ...["sqlite", "postgres", "memory"].map((saver) => ({
        name: `persist-g-${saver}`,
        script: "workloads/persistence.ts",
        args: ["--workload", "G", "--saver", saver, "--turns", "50,200,500"],
        // 500 turns take LangGraph.js minutes and 219 MB on SQLite: it runs 50 and 200 unless --all.
        ...(args.all === "true"
          ? {}
          : { referenceArgs: ["--workload", "G", "--saver", saver, "--turns", "50,200"] }),
      })),
      ...["none", "sqlite", "postgres"].map((saver) => ({
        name: `agent-c-${saver}`,
        script: "workloads/agent.ts",
        args: ["--saver", saver, "--turns", "10,50,200"],
      })),
      { name: "agent-e-stream", script: "workloads/stream.ts", args: ["--turns", "50", "--rounds", "7"] },
      {
        name: "persist-g-1kb",
        script: "workloads/persistence.ts",
        args: ["--workload", "G", "--saver", "sqlite", "--turns", "500", "--chars", "1000"],
        referenceArgs: ["--workload", "G", "--saver", "sqlite", "--turns", "50", "--chars", "1000"],
      },
    ];

type Row = Record<string, unknown> & { case: string; impl: string };
const rows: Row[] = [];

for (const job of JOBS) {
  if (only !== undefined && !only.test(job.name)) continue;
  for (let rep = 0; rep < REPS; rep++) {
    for (const impl of impls) {
      const jobArgs =
        impl === "langgraphjs" && job.referenceArgs !== undefined ? job.referenceArgs : job.args;
      const started = performance.now();
      const result = spawnSync(
        process.execPath,
        ["--expose-gc", "--import", "tsx", join(HERE, job.script), "--impl", impl, ...jobArgs],
        { encoding: "utf8", maxBuffer: 64 * 2 ** 20 },
      );
      if (result.status !== 0) {
        process.stderr.write(result.stdout);
        process.stderr.write(result.stderr);
        throw new Error(`${job.name} (${impl}) failed with exit code ${result.status}`);
      }
      for (const line of result.stdout.split("\n")) {
        if (line.startsWith("{")) rows.push(JSON.parse(line) as Row);
      }
      process.stderr.write(
        `  ${job.name} ${impl} #${rep + 1}: ${round((performance.now() - started) / 1000, 1)} s\n`,
      );
    }
  }
}

const METRICS = [
  "us_per_invoke",
  "us_per_superstep",
  "total_ms",
  "us_per_send",
  "import_ms",
  "rss_mb",
  "ms_per_turn",
  "rss_growth_mb",
  "stored_bytes",
  "stored_value_bytes",
  "stored_bytes_per_turn",
  "stored_over_raw",
  "get_state_ms",
  "get_state_median5_ms",
];
const cases = [...new Set(rows.map((r) => r.case))];
const lines = [
  "| case | metric | agentgraph | LangGraph.js | LangGraph.js / agentgraph |",
  "|---|---|---|---|---|",
];
const value = (impl: string, name: string, metric: string): number | undefined => {
  const values = rows.filter((r) => r.case === name && r.impl === impl && typeof r[metric] === "number");
  return values.length === 0 ? undefined : median(values.map((r) => r[metric] as number));
};
const show = (v: number | undefined) => (v === undefined ? "–" : v.toLocaleString("en-US"));
for (const name of cases) {
  for (const metric of METRICS) {
    const ours = value("agentgraph", name, metric);
    const ref = value("langgraphjs", name, metric);
    if (ours === undefined && ref === undefined) continue;
    const ratio = ours !== undefined && ref !== undefined && ours > 0 ? `${round(ref / ours, 1)}×` : "–";
    lines.push(`| ${name} | ${metric} | ${show(ours)} | ${show(ref)} | ${ratio} |`);
  }
}
const table = lines.join("\n");
console.log(
  `\n${quick ? "Quick run" : "Full run"} (median of ${REPS} process${REPS === 1 ? "" : "es"} per runtime)\n`,
);
console.log(table);

const outDir = join(HERE, "results");
mkdirSync(outDir, { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
writeFileSync(
  join(outDir, `${quick ? "quick" : "full"}-${stamp}.jsonl`),
  `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`,
);
