import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { Annotation, END, START, StateGraph } from "../../index.js";
import { SqliteSaver, SqliteSaverError } from "./index.js";

// Another process holding the database's write lock while a run saves. better-sqlite3 waits for
// the lock up to the connection's busy_timeout (5 s unless set), synchronously; the saver's
// transactions take the write lock first (BEGIN IMMEDIATE), so every save goes through that wait.
// LangGraph.js's SqliteSaver does the same (a save waits within busy_timeout, then fails with
// SQLITE_BUSY).

const dir = mkdtempSync(join(tmpdir(), "agentgraph-sqlite-busy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A process that holds `path`'s write lock for `ms` milliseconds; resolves once it holds it. */
function holdWriteLock(path: string, ms: number): Promise<ChildProcess> {
  const script = `
    import Database from "better-sqlite3";
    const db = new Database(process.argv[1]);
    db.exec("BEGIN IMMEDIATE");
    process.stdout.write("locked\\n");
    setTimeout(() => { db.exec("ROLLBACK"); db.close(); }, ${ms});
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script, path], {
    cwd: process.cwd(),
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (data: Buffer) => {
      if (String(data).includes("locked")) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`the lock holder exited (${code}) before locking`)));
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.on("exit", () => resolve());
  });

const State = Annotation.Root({
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

/** Five steps; in step `lockedAt` (its first run), another process takes the write lock for `ms`. */
function chain(saver: SqliteSaver, path: string, lockedAt: number, ms: number) {
  const holders: ChildProcess[] = [];
  const graph = new StateGraph(State)
    .addNode("step", async (state) => {
      if (state.log.length === lockedAt && holders.length === 0) holders.push(await holdWriteLock(path, ms));
      return { log: [String(state.log.length)] };
    })
    .addEdge(START, "step")
    .addConditionalEdges("step", (state) => (state.log.length < 5 ? "step" : END))
    .compile({ checkpointer: saver });
  return { graph, holders };
}

describe("SqliteSaver under another process's write lock", () => {
  it("a save waits for the lock within busy_timeout, and the run completes", async () => {
    const path = join(dir, "waits.db");
    const saver = SqliteSaver.fromConnString(path);
    const { graph, holders } = chain(saver, path, 2, 600);
    const config = { configurable: { thread_id: "waits" } };
    const started = Date.now();
    const result = await graph.invoke({ log: [] }, { ...config, durability: "sync" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(holders).toHaveLength(1);
    expect(result.log).toStrictEqual(["0", "1", "2", "3", "4"]);
    const steps: unknown[] = [];
    for await (const tuple of saver.list(config)) steps.push(tuple.metadata?.step);
    expect(steps).toStrictEqual([5, 4, 3, 2, 1, 0, -1]);
    for (const holder of holders) await exited(holder);
    await saver.close();
  });

  it("a save that waits longer than busy_timeout fails with a SqliteSaverError that says so; the run resumes", async () => {
    const path = join(dir, "fails.db");
    const db = new Database(path);
    db.pragma("busy_timeout = 100");
    const saver = new SqliteSaver(db);
    const { graph, holders } = chain(saver, path, 2, 1500);
    const config = { configurable: { thread_id: "fails" } };
    const error = await graph.invoke({ log: [] }, { ...config, durability: "sync" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SqliteSaverError);
    expect((error as Error).message).toMatch(
      /^SqliteSaver could not save .* of thread "fails".*: database is locked \(SQLITE_BUSY\)\. Another connection held the database's write lock for longer than busy_timeout/,
    );
    for (const holder of holders) await exited(holder);
    // the steps saved before are kept: the run goes on from the last one
    const stored = await graph.getState(config);
    expect(stored.values.log).toStrictEqual(["0", "1"]);
    expect(stored.next).toStrictEqual(["step"]);
    const resumed = await graph.invoke(null, config);
    expect(resumed.log).toStrictEqual(["0", "1", "2", "3", "4"]);
    db.close();
  });
});
