// Cost of `import "<package>"` in a fresh process: wall time of the import and the RSS it adds
// above a bare node process that imported nothing (measured in the same way, in another process).
import { execFileSync } from "node:child_process";
import { emit, median, parseArgs, round } from "../lib/harness.js";
import { implFromArgs } from "../lib/impl.js";

const args = parseArgs();
const impl = implFromArgs(args);
const REPS = Number(args.reps ?? 5);
const specifier = impl === "agentgraph" ? "agentgraph" : "@langchain/langgraph";

const probe = (code: string): { ms: number; rss: number } =>
  JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" })) as {
    ms: number;
    rss: number;
  };

const times: number[] = [];
const rss: number[] = [];
for (let i = 0; i < REPS; i++) {
  const bare = probe(`console.log(JSON.stringify({ ms: 0, rss: process.memoryUsage().rss }))`);
  const loaded = probe(
    `const t = performance.now(); await import(${JSON.stringify(specifier)}); const ms = performance.now() - t; console.log(JSON.stringify({ ms, rss: process.memoryUsage().rss }))`,
  );
  times.push(loaded.ms);
  rss.push((loaded.rss - bare.rss) / 2 ** 20);
}
emit({
  workload: "I",
  case: "import",
  impl,
  import_ms: round(median(times), 1),
  rss_mb: round(median(rss), 1),
});
