// The engine with PostgresSaver and each durability: interrupt and resume, getState,
// getStateHistory, updateState, time travel; the transcript must equal MemorySaver's. The saver
// works in a schema of its own, dropped afterwards.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { MemorySaver } from "../index.js";
import { DURABILITIES, runScenario } from "./engine-integration.test-helpers.js";
import { PostgresSaver } from "./postgres/index.js";

const url = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const schema = `agentgraph_engine_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
const pool = new pg.Pool({ connectionString: url, max: 5 });

afterAll(async () => {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

describe.each(DURABILITIES)("engine persistence on PostgresSaver, durability %s", (durability) => {
  it("produces MemorySaver's transcript", async () => {
    const reference = await runScenario(new MemorySaver(), durability, `engine-${durability}`);
    const saver = new PostgresSaver(pool, undefined, { schema });
    await saver.setup();
    const transcript = await runScenario(saver, durability, `engine-${durability}`);
    expect(transcript).toEqual(reference);
    await saver.end();
  });
});
