// Runs the reference's saver validation suite (@langchain/langgraph-checkpoint-validation)
// against PostgresSaver, in a schema of its own that is dropped afterwards.
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PostgresSaver } from "./index.js";

Object.assign(globalThis, { describe, it, expect, beforeAll, afterAll, beforeEach, afterEach });
const { specTest } = await import("@langchain/langgraph-checkpoint-validation");

const url = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const schema = `agentgraph_saver_compat_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
const pool = new pg.Pool({ connectionString: url, max: 10 });
const TABLES = [
  "agentgraph_checkpoints",
  "agentgraph_checkpoint_blobs",
  "agentgraph_checkpoint_items",
  "agentgraph_checkpoint_writes",
];

specTest({
  checkpointerName: "agentgraph PostgresSaver",
  beforeAll: async () => {
    await new PostgresSaver(pool, undefined, { schema }).setup();
  },
  afterAll: async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  },
  createCheckpointer: async () => {
    const saver = new PostgresSaver(pool, undefined, { schema });
    await saver.setup();
    return saver as never;
  },
  destroyCheckpointer: async () => {
    await pool.query(`TRUNCATE ${TABLES.map((t) => `"${schema}".${t}`).join(", ")}`);
  },
});
