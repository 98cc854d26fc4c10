import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { Annotation, type BaseCheckpointSaver, END, MemorySaver, START, StateGraph } from "../../index.js";
import { crashGraphState, runCrashThread } from "./crash-graph.test-helpers.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const CHILD = join(HERE, "crash-child.test-helpers.ts");
const ROOT = join(HERE, "..", "..", "..");

interface Spawned {
  /** "done" with the final state, or "killed". */
  outcome: { done: unknown } | "killed";
  /** Task ids the process executed. */
  executed: string[];
}

/** Runs the child once; kills it with SIGKILL after `killAfterMs` past its "ready" line (never when undefined). */
function spawnChild(
  kind: string,
  target: string,
  threadId: string,
  rounds: number,
  killAfterMs: number | undefined,
  dir: string,
  n: number,
): Promise<Spawned> {
  const log = join(dir, `exec-${threadId}-${n}.log`);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--conditions=source", CHILD, kind, target, threadId, log, String(rounds)],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    let err = "";
    let killed = false;
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (killAfterMs !== undefined && out.includes("ready\n") && !killed) {
        killed = true;
        setTimeout(() => child.kill("SIGKILL"), killAfterMs);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      const executed = existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter((l) => l !== "")
        : [];
      const done = /done (.*)\n/.exec(out);
      if (done !== null) resolve({ outcome: { done: JSON.parse(done[1] as string) }, executed });
      else if (signal === "SIGKILL") resolve({ outcome: "killed", executed });
      else reject(new Error(`crash child exited with code ${code}: ${err}`));
    });
  });
}

/** Task ids whose writes the saver holds for a thread (committed work). */
async function committedTasks(saver: BaseCheckpointSaver, threadId: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for await (const tuple of saver.list({ configurable: { thread_id: threadId } })) {
    for (const [taskId] of tuple.pendingWrites ?? []) ids.add(taskId);
  }
  return ids;
}

/**
 * Kills child processes running threads of the crash graph at random points until `kills` kills
 * have happened; after each, a new process resumes the thread. Checks that every thread ends in
 * the state an uninterrupted run reaches, and that no task whose writes were committed before a
 * kill ran again afterwards.
 */
export async function crashTest(options: {
  kind: "sqlite" | "postgres";
  target: string;
  openSaver: () => Promise<BaseCheckpointSaver>;
  closeSaver: (saver: BaseCheckpointSaver) => Promise<void>;
  kills: number;
  rounds: number;
}): Promise<{ kills: number; threads: number }> {
  const engine = { Annotation, StateGraph, START, END };
  const expected = crashGraphState(
    await runCrashThread(engine, new MemorySaver(), "expected", options.rounds, () => {}),
  );
  const dir = mkdtempSync(join(tmpdir(), "agentgraph-crash-"));
  let kills = 0;
  let threads = 0;
  try {
    while (kills < options.kills) {
      const threadId = `crash-${threads++}`;
      let committed = new Set<string>();
      for (let n = 0; ; n++) {
        const result = await spawnChild(
          options.kind,
          options.target,
          threadId,
          options.rounds,
          Math.floor(Math.random() * 250),
          dir,
          n,
        );
        const rerun = result.executed.filter((id) => committed.has(id));
        expect(
          rerun,
          `tasks re-run after their writes were committed (thread ${threadId}, run ${n})`,
        ).toEqual([]);
        const saver = await options.openSaver();
        try {
          committed = await committedTasks(saver, threadId);
        } finally {
          await options.closeSaver(saver);
        }
        if (result.outcome === "killed") {
          kills++;
          continue;
        }
        expect(result.outcome.done).toEqual(expected);
        break;
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { kills, threads };
}
