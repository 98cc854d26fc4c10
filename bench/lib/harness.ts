/** Small measuring helpers shared by the workloads (no dependency on either runtime). */

export function parseArgs(argv: string[] = process.argv.slice(2)): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith("--")) continue;
    const next = argv[i + 1];
    if (next === undefined || next.startsWith("--")) out[arg.slice(2)] = "true";
    else {
      out[arg.slice(2)] = next;
      i++;
    }
  }
  return out;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Runs `fn(i)` n times sequentially and returns each duration in milliseconds. */
export async function timeEach(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn(i);
    out[i] = performance.now() - start;
  }
  return out;
}

/**
 * Runs `fn` until both `minRuns` runs and `minMs` milliseconds have passed (a warm-up that gives
 * the JIT the same chance whatever the per-run cost), and returns how many runs it made.
 */
export async function warmUp(fn: () => Promise<unknown>, minRuns: number, minMs: number): Promise<number> {
  const start = performance.now();
  let runs = 0;
  while (runs < minRuns || performance.now() - start < minMs) {
    await fn();
    runs++;
  }
  return runs;
}

/** Times runs of `fn` until both `minRuns` runs and `minMs` milliseconds have passed; returns each duration (ms). */
export async function timeFor(fn: () => Promise<unknown>, minRuns: number, minMs: number): Promise<number[]> {
  const out: number[] = [];
  const start = performance.now();
  while (out.length < minRuns || performance.now() - start < minMs) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

export function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect !== undefined) {
    collect();
    collect();
  }
}

/** Prints one result line (JSON) for bench/run.ts to collect. */
export function emit(result: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

export function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`workload self-check failed: ${message}`);
}
