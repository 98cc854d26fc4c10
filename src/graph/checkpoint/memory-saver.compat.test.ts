// Runs the reference's saver validation suite (@langchain/langgraph-checkpoint-validation)
// against MemorySaver: our savers take and return checkpoints exactly as LangGraph.js savers do.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemorySaver } from "./index.js";

Object.assign(globalThis, { describe, it, expect, beforeAll, afterAll, beforeEach, afterEach });
const { specTest } = await import("@langchain/langgraph-checkpoint-validation");

specTest({
  checkpointerName: "agentgraph MemorySaver",
  createCheckpointer: () => new MemorySaver() as never,
});
