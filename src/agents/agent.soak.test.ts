/**
 * Soak: 10,000 agent invocations in one process keep a flat heap. A child `node --expose-gc`
 * process runs the loop (src/agents/__tests__/soak-child.ts) and reports heapUsed after forced GC
 * every 1,000 invocations; the growth from invocation 1,000 (everything warmed up and cached) to
 * 10,000 must stay under 10 MB. The measured growth is printed and attached to the test.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL("./__tests__/soak-child.ts", import.meta.url));
const LIMIT_BYTES = 10 * 1024 * 1024;

interface SoakReport {
  total: number;
  ms: number;
  samples: Array<{ invocations: number; heapUsed: number }>;
}

async function soak(mode: "plain" | "middleware"): Promise<SoakReport> {
  const { stdout } = await run(
    process.execPath,
    ["--expose-gc", "--import", "tsx", "--conditions=source", CHILD, "10000", "1000", mode],
    { cwd: fileURLToPath(new URL("../..", import.meta.url)), maxBuffer: 1 << 20, timeout: 120_000 },
  );
  const line = stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(line) as SoakReport;
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

describe("soak: 10,000 createAgent invocations (one tool call, then an answer)", () => {
  for (const mode of ["plain", "middleware"] as const) {
    it(`keeps heapUsed after GC within 10 MB from invocation 1,000 to 10,000 (${mode})`, async ({
      annotate,
    }) => {
      const report = await soak(mode);
      expect(report.total).toBe(10_000);
      expect(report.samples.map((s) => s.invocations)).toEqual([
        1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000,
      ]);
      const first = report.samples[0]?.heapUsed ?? Number.NaN;
      const last = report.samples.at(-1)?.heapUsed ?? Number.NaN;
      const peak = Math.max(...report.samples.map((s) => s.heapUsed));
      const summary =
        `${mode}: heap growth ${mb(last - first)} (1,000 → 10,000 invocations), ` +
        `peak ${mb(peak - first)} above invocation 1,000, in ${report.ms} ms`;
      console.log(`[soak] ${summary}`);
      await annotate(summary);
      expect(last - first).toBeLessThan(LIMIT_BYTES);
      expect(peak - first).toBeLessThan(LIMIT_BYTES);
    }, 120_000);
  }
});
