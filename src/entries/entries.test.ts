import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
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

/**
 * Every entry point's names, at runtime and in its types, pinned in __fixtures__/exports.json so
 * that an internal helper an area index exports for the other areas cannot reach the public API
 * unnoticed. After adding a public name on purpose, regenerate the fixture with
 * `UPDATE_EXPORTS=1 npx vitest run src/entries/entries.test.ts`, format it (`npx biome check --write`)
 * and review its diff.
 */
describe("entry point exports", () => {
  const ROOT = join(import.meta.dirname, "..", "..");
  const FIXTURE = join(import.meta.dirname, "__fixtures__", "exports.json");
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    exports: Record<string, { source?: string } | string>;
  };
  const entries = Object.entries(pkg.exports).flatMap(([subpath, target]) =>
    typeof target === "object" && target.source !== undefined
      ? [{ subpath, file: join(ROOT, target.source) }]
      : [],
  );
  const sorted = (names: Iterable<string>) => [...names].sort();

  it("each entry point exports exactly the pinned names", async () => {
    const program = ts.createProgram(
      entries.map((entry) => entry.file),
      {
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        strict: true,
        skipLibCheck: true,
        noEmit: true,
      },
    );
    const checker = program.getTypeChecker();
    const actual: Record<string, { values: string[]; types: string[] }> = {};
    for (const { subpath, file } of entries) {
      const source = program.getSourceFile(file);
      const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
      if (moduleSymbol === undefined) throw new Error(`${subpath}: ${file} not found`);
      const types = checker
        .getExportsOfModule(moduleSymbol)
        .filter((symbol) => {
          const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
          return (target.flags & ts.SymbolFlags.Value) === 0;
        })
        .map((symbol) => symbol.name);
      const values = Object.keys((await import(file)) as Record<string, unknown>);
      actual[subpath] = { values: sorted(values), types: sorted(types) };
    }
    if (process.env.UPDATE_EXPORTS === "1") writeFileSync(FIXTURE, `${JSON.stringify(actual, null, 2)}\n`);
    const pinned = JSON.parse(readFileSync(FIXTURE, "utf8")) as typeof actual;
    expect(actual).toEqual(pinned);
  }, 120_000);
});
