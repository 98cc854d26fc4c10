import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BaseCheckpointSaver } from "../../index.js";
import { PostgresSaver } from "../postgres/index.js";
import { crashTest } from "./crash-driver.test-helpers.js";

const adminUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const database = `agentgraph_crash_${process.pid}`;
const url = adminUrl.replace(/\/[^/]*$/, `/${database}`);
const admin = new pg.Client({ connectionString: adminUrl });

beforeAll(async () => {
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${database}"`);
  await admin.query(`CREATE DATABASE "${database}"`);
});

afterAll(async () => {
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.end();
});

describe("crash recovery on PostgreSQL (sync durability, SIGKILL at random points)", () => {
  it("resumes every killed run to the uninterrupted result without re-running committed tasks", async () => {
    const { kills } = await crashTest({
      kind: "postgres",
      target: url,
      openSaver: async () => {
        const saver = PostgresSaver.fromConnString(url);
        await saver.setup();
        return saver;
      },
      closeSaver: (saver: BaseCheckpointSaver) => (saver as PostgresSaver).end(),
      kills: 50,
      rounds: 25,
    });
    expect(kills).toBeGreaterThanOrEqual(50);
  }, 900_000);
});
