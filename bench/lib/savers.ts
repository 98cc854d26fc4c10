/**
 * Opens a checkpointer of either runtime on neutral ground: SQLite files in the temp folder
 * (bytes = file size after folding the WAL in), a fresh PostgreSQL database per run (bytes = the
 * size of its tables), memory (bytes as the saver reports them, when it can).
 */
import { existsSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ImplName } from "./impl.js";

export type SaverKind = "memory" | "sqlite" | "postgres";

export interface SaverHandle {
  // biome-ignore lint/suspicious/noExplicitAny: either runtime's saver
  saver: any;
  /** Bytes the thread's storage occupies (NaN when the saver cannot tell). */
  storedBytes(): Promise<number>;
  /** Closes the saver and opens a new one on the same storage (a "freshly opened saver"). */
  reopen(): Promise<void>;
  close(): Promise<void>;
}

const adminUrl = () => process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

// biome-ignore lint/suspicious/noExplicitAny: either runtime's saver class
async function openSqlite(impl: ImplName, file: string): Promise<any> {
  if (impl === "agentgraph") {
    const { SqliteSaver } = await import("agentgraph/checkpoint/sqlite");
    const saver = SqliteSaver.fromConnString(file);
    await saver.setup?.();
    return saver;
  }
  const { SqliteSaver } = await import("@langchain/langgraph-checkpoint-sqlite");
  return SqliteSaver.fromConnString(file);
}

// biome-ignore lint/suspicious/noExplicitAny: either runtime's saver class
async function openPostgres(impl: ImplName, url: string): Promise<any> {
  const { PostgresSaver } =
    impl === "agentgraph"
      ? await import("agentgraph/checkpoint/postgres")
      : await import("@langchain/langgraph-checkpoint-postgres");
  const saver = PostgresSaver.fromConnString(url);
  // The bench drops its database WITH (FORCE) when a workload ends; a pooled connection that is
  // still open then gets "terminating connection due to administrator command", which an
  // unhandled pool 'error' event would turn into a crash of the whole process.
  (saver as { pool?: { on?: (event: string, listener: () => void) => void } }).pool?.on?.("error", () => {});
  await saver.setup();
  return saver;
}

// biome-ignore lint/suspicious/noExplicitAny: either runtime's saver
async function closeSaver(saver: any): Promise<void> {
  if (typeof saver?.close === "function") await saver.close();
  else if (typeof saver?.end === "function") await saver.end();
  else if (typeof saver?.db?.close === "function") saver.db.close();
}

export async function openSaver(impl: ImplName, kind: SaverKind, label: string): Promise<SaverHandle> {
  if (kind === "memory") {
    const { MemorySaver } = (
      impl === "agentgraph" ? await import("agentgraph") : await import("@langchain/langgraph")
    ) as {
      // biome-ignore lint/suspicious/noExplicitAny: either runtime's saver class
      MemorySaver: any;
    };
    const saver = new MemorySaver();
    return {
      saver,
      async storedBytes() {
        if (typeof saver.storedBytes === "function") return saver.storedBytes();
        let total = 0;
        for (const thread of Object.values(saver.storage ?? {}) as Record<
          string,
          Record<string, unknown[]>
        >[]) {
          for (const ns of Object.values(thread)) {
            for (const entry of Object.values(ns)) {
              for (const part of entry as unknown[])
                if (part instanceof Uint8Array || typeof part === "string") total += part.length;
            }
          }
        }
        for (const outer of Object.values(saver.writes ?? {}) as Record<string, unknown[]>[]) {
          for (const entry of Object.values(outer)) {
            const value = entry[2];
            if (value instanceof Uint8Array || typeof value === "string") total += value.length;
          }
        }
        return total;
      },
      async reopen() {},
      async close() {},
    };
  }
  if (kind === "sqlite") {
    const file = join(tmpdir(), `agentgraph-bench-${impl}-${label}-${process.pid}.sqlite`);
    const files = [file, `${file}-wal`, `${file}-shm`];
    const clean = () => {
      for (const f of files) if (existsSync(f)) rmSync(f);
    };
    clean();
    const handle: SaverHandle = {
      saver: await openSqlite(impl, file),
      async storedBytes() {
        const { default: Database } = await import("better-sqlite3");
        const db = new Database(file);
        db.pragma("wal_checkpoint(TRUNCATE)");
        db.close();
        const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
        return size(file) + size(`${file}-wal`);
      },
      async reopen() {
        await closeSaver(handle.saver);
        handle.saver = await openSqlite(impl, file);
      },
      async close() {
        await closeSaver(handle.saver);
        clean();
      },
    };
    return handle;
  }
  const { default: pg } = await import("pg");
  const database =
    `agentgraph_bench_${impl}_${label.replace(/[^a-z0-9_]/gi, "_")}_${process.pid}`.toLowerCase();
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${database}"`);
  await admin.query(`CREATE DATABASE "${database}"`);
  const url = adminUrl().replace(/\/[^/]*$/, `/${database}`);
  const handle: SaverHandle = {
    saver: await openPostgres(impl, url),
    async storedBytes() {
      const probe = new pg.Client({ connectionString: url });
      await probe.connect();
      const result = await probe.query(
        "SELECT coalesce(sum(pg_total_relation_size(c.oid)),0)::bigint AS b FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog','information_schema')",
      );
      await probe.end();
      return Number(result.rows[0]?.b ?? 0);
    },
    async reopen() {
      await closeSaver(handle.saver);
      handle.saver = await openPostgres(impl, url);
    },
    async close() {
      await closeSaver(handle.saver);
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.end();
    },
  };
  return handle;
}
