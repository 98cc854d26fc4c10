import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { BaseCheckpointSaver } from "../../index.js";
import { SqliteSaver } from "../sqlite/index.js";
import { crashTest } from "./crash-driver.test-helpers.js";

const dir = mkdtempSync(join(tmpdir(), "agentgraph-crash-sqlite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("crash recovery on SQLite (sync durability, SIGKILL at random points)", () => {
  it("resumes every killed run to the uninterrupted result without re-running committed tasks", async () => {
    const file = join(dir, "crash.sqlite");
    const { kills, threads } = await crashTest({
      kind: "sqlite",
      target: file,
      openSaver: async () => {
        const saver = SqliteSaver.fromConnString(file);
        await saver.setup();
        return saver;
      },
      closeSaver: (saver: BaseCheckpointSaver) => (saver as SqliteSaver).close(),
      kills: 50,
      rounds: 25,
    });
    expect(kills).toBeGreaterThanOrEqual(50);
    expect(threads).toBeGreaterThan(0);
  }, 600_000);
});
