import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

describe("subpath entry points", () => {
  it("work without importing the root entry: interrupts inside nodes, messages revived from SQLite", () => {
    // A fresh process that imports only agentgraph/agents, /checkpoint/sqlite, /models and /tools:
    // each entry installs the async context (interrupt() needs it) and the message serialization.
    const out = execFileSync(
      process.execPath,
      [
        "--conditions=source",
        "--import",
        "tsx",
        join(import.meta.dirname, "__fixtures__", "agents-only.mjs"),
      ],
      { encoding: "utf8", cwd: join(import.meta.dirname, "..", "..") },
    );
    const lines = out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([{ interrupted: "get_weather" }, { classes: ["HumanMessage", "AIMessage"] }]);
  });
});
