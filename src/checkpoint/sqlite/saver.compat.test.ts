// Runs the reference's saver validation suite (@langchain/langgraph-checkpoint-validation)
// against SqliteSaver, on an in-memory database and on a file.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SqliteSaver } from "./index.js";

Object.assign(globalThis, { describe, it, expect, beforeAll, afterAll, beforeEach, afterEach });
const { specTest } = await import("@langchain/langgraph-checkpoint-validation");

specTest({
  checkpointerName: "agentgraph SqliteSaver (:memory:)",
  createCheckpointer: () => SqliteSaver.fromConnString(":memory:") as never,
  destroyCheckpointer: async (saver) => {
    await (saver as unknown as SqliteSaver).close();
  },
});

const dir = mkdtempSync(join(tmpdir(), "agentgraph-sqlite-compat-"));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

specTest({
  checkpointerName: "agentgraph SqliteSaver (file)",
  createCheckpointer: () => SqliteSaver.fromConnString(join(dir, `validation-${files++}.db`)) as never,
  destroyCheckpointer: async (saver) => {
    await (saver as unknown as SqliteSaver).close();
  },
});
