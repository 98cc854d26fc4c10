// The engine with each saver (memory, SQLite on a file and in memory) and each durability:
// interrupt and resume, getState, getStateHistory, updateState, time travel. Every saver must
// produce the transcript MemorySaver produces. Postgres: engine-integration.pg.test.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type BaseCheckpointSaver, MemorySaver } from "../index.js";
import { MemorySaverAssertImmutable } from "../testing/index.js";
import { DURABILITIES, runScenario } from "./engine-integration.test-helpers.js";
import { SqliteSaver } from "./sqlite/index.js";

const dir = mkdtempSync(join(tmpdir(), "agentgraph-engine-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const SAVERS: Record<string, () => BaseCheckpointSaver> = {
  MemorySaverAssertImmutable: () => new MemorySaverAssertImmutable(),
  "SqliteSaver (file)": () => SqliteSaver.fromConnString(join(dir, `engine-${files++}.db`)),
  "SqliteSaver (:memory:)": () => SqliteSaver.fromConnString(":memory:"),
};

describe.each(DURABILITIES)("engine persistence, durability %s", (durability) => {
  let reference: unknown;
  it("MemorySaver (reference transcript)", async () => {
    reference = await runScenario(new MemorySaver(), durability, `engine-${durability}`);
  });
  for (const [name, create] of Object.entries(SAVERS)) {
    it(name, async () => {
      const saver = create();
      try {
        const transcript = await runScenario(saver, durability, `engine-${durability}`);
        expect(transcript).toEqual(reference);
      } finally {
        await (saver as { close?: () => Promise<void> }).close?.();
      }
    });
  }
});
