/**
 * agentgraph's checkpoint saver conformance suite, independent of any test framework: each case
 * is a function that throws a descriptive `Error` when the saver misbehaves, so it runs under
 * vitest, jest, `node:test` or a plain script. It covers what matters beyond the reference's
 * validation suite (@langchain/langgraph-checkpoint-validation): every serializable value type,
 * list channels over long histories, forks, namespaces, threads, listing, deletion, pruning,
 * time-to-live, linear growth, bounded reads and damaged rows.
 *
 * Run it on a dedicated database: cases write threads with unique ids, and the time-to-live case
 * deletes every thread of the storage idle for more than 75 ms.
 */
import {
  type CaseBody,
  forks,
  listChannels,
  listing,
  missingAndDeleted,
  namespaces,
  threads,
  valueTypesInCheckpoints,
  valueTypesInWrites,
  writeIndexes,
} from "./saver-conformance-cases.js";
import {
  CaseContext,
  type SaverCapability,
  type SaverConformanceOptions,
  SaverConformanceSkipped,
  type SaverFactory,
} from "./saver-conformance-context.js";
import {
  boundedReads,
  corruptRows,
  linearGrowth,
  prune,
  sharedStorage,
  timeToLive,
} from "./saver-conformance-retention.js";

export {
  type SaverCapability,
  type SaverConformanceOptions,
  SaverConformanceSkipped,
  type SaverFactory,
} from "./saver-conformance-context.js";
export { findDifference, SaverConformanceError } from "./saver-conformance-support.js";

/**
 * One case of the suite: `run(create)` creates the savers it needs with `create` (and disposes
 * of them), and throws an `Error` saying what was wrong when the saver misbehaves. A case whose
 * `requires` the saver lacks throws {@link SaverConformanceSkipped}.
 *
 * @example
 * ```ts
 * const [first] = saverConformanceCases();
 * await first.run(() => new MemorySaver());
 * ```
 */
export interface SaverConformanceCase {
  name: string;
  /** Capabilities beyond `BaseCheckpointSaver` that the case needs. */
  requires: readonly SaverCapability[];
  run(create: SaverFactory): Promise<void>;
}

const CASES: readonly (readonly [name: string, requires: readonly SaverCapability[], body: CaseBody])[] = [
  ["round-trips every serializable value type through checkpoints", [], valueTypesInCheckpoints],
  ["round-trips every serializable value type through pending writes", [], valueTypesInWrites],
  ["keeps the first write of a task per index, and the last control write", [], writeIndexes],
  [
    "rebuilds list channels through appends, replacements, removals, remove-all and overwrites past the chain limits",
    [],
    listChannels,
  ],
  ["keeps forks apart: two children of one checkpoint never see each other's values", [], forks],
  ["keeps the namespaces of a thread apart", [], namespaces],
  ["keeps threads apart, with identical checkpoint ids and shared value objects", [], threads],
  ["lists checkpoints newest first, with filter, before and limit", [], listing],
  ["returns nothing for missing threads and checkpoints, and deletes one thread only", [], missingAndDeleted],
  [
    "prune keeps exactly the newest checkpoints of each namespace, with values and pending writes",
    ["retention"],
    prune,
  ],
  ["deleteStaleThreads deletes idle threads, and pruning keeps their age", ["retention"], timeToLive],
  [
    "a thread deleted or pruned through another saver on the same storage can be written again",
    ["reopen"],
    sharedStorage,
  ],
  ["stored bytes grow linearly with an append-only list", ["storedBytes"], linearGrowth],
  [
    "reads a checkpoint in a bounded number of storage calls, whatever the thread's length",
    ["storage"],
    boundedReads,
  ],
  [
    "reports damaged stored rows as CheckpointCorruptError naming thread and checkpoint",
    ["corrupt"],
    corruptRows,
  ],
];

/**
 * The cases of the suite, to register with any test framework.
 *
 * @example
 * ```ts
 * import { describe, it } from "vitest"; // or node:test, jest…
 * import { saverConformanceCases } from "agentgraph/testing";
 * import { SqliteSaver } from "agentgraph/checkpoint/sqlite";
 *
 * describe("SqliteSaver conformance", () => {
 *   for (const c of saverConformanceCases()) it(c.name, () => c.run(() => SqliteSaver.fromConnString(":memory:")));
 * });
 * ```
 */
export function saverConformanceCases(options: SaverConformanceOptions = {}): SaverConformanceCase[] {
  return CASES.map(([name, requires, body]) => ({
    name,
    requires,
    async run(create: SaverFactory): Promise<void> {
      const context = new CaseContext(create, options);
      try {
        await body(context);
      } finally {
        await context.dispose();
      }
    },
  }));
}

/**
 * What {@link runSaverConformance} found.
 *
 * @example
 * ```ts
 * const { passed, failed, skipped } = await runSaverConformance(() => new MemorySaver());
 * console.log(`${passed.length} passed, ${failed.length} failed, ${skipped.length} skipped`);
 * ```
 */
export interface SaverConformanceReport {
  passed: string[];
  failed: { name: string; error: unknown }[];
  skipped: { name: string; reason: string }[];
}

/**
 * Runs every case in turn, without a test framework, and reports which passed, failed or were
 * skipped (the saver lacking a capability a case needs).
 *
 * @example
 * ```ts
 * const report = await runSaverConformance(() => new MemorySaver());
 * if (report.failed.length > 0) console.error(report.failed);
 * ```
 */
export async function runSaverConformance(
  create: SaverFactory,
  options: SaverConformanceOptions = {},
): Promise<SaverConformanceReport> {
  const report: SaverConformanceReport = { passed: [], failed: [], skipped: [] };
  for (const testCase of saverConformanceCases(options)) {
    try {
      await testCase.run(create);
      report.passed.push(testCase.name);
    } catch (error) {
      if (error instanceof SaverConformanceSkipped)
        report.skipped.push({ name: testCase.name, reason: error.message });
      else report.failed.push({ name: testCase.name, error });
    }
  }
  return report;
}

/**
 * Runs every case and throws one `Error` listing the failures (skipped cases are not failures).
 *
 * @example
 * ```ts
 * await assertSaverConformance(() => SqliteSaver.fromConnString(":memory:"));
 * ```
 */
export async function assertSaverConformance(
  create: SaverFactory,
  options: SaverConformanceOptions = {},
): Promise<SaverConformanceReport> {
  const report = await runSaverConformance(create, options);
  if (report.failed.length > 0) {
    const lines = report.failed.map(
      ({ name, error }) => `- ${name}: ${error instanceof Error ? error.message : String(error)}`,
    );
    throw new Error(`The saver failed ${report.failed.length} conformance case(s):\n${lines.join("\n")}`);
  }
  return report;
}
