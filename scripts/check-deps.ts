/**
 * Enforces the dependency rules of docs/architecture.md on src/:
 *
 *  1. Layers: each area of src/ may import only the areas listed in ALLOWED.
 *  2. Across folders, only a folder's index.ts may be imported (no reaching into internals).
 *  3. `node:*` and Node built-in modules only where NODE_ALLOWED says; never in the engine.
 *  4. No `@langchain/*` or `langchain` import outside compatibility tests (*.compat.test.ts).
 *  5. src/graph/algorithm/** imports only channels, checkpoint types and shared, and never awaits.
 *  6. src/models/spec/** is types only.
 *
 * Test files (*.test.ts) may import across layers (a test of the engine may use messages),
 * but rules 3 (for the engine's own tests that run in every runtime), 4 and 2 still apply.
 *
 * Usage: tsx scripts/check-deps.ts   (exit code 1 and one line per violation on failure)
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(import.meta.dirname, "..");
const SRC = join(ROOT, "src");

/** Which areas each area may import (besides itself). */
const ALLOWED: Record<string, readonly string[]> = {
  shared: [],
  messages: ["shared"],
  tools: ["messages", "shared"],
  models: ["tools", "messages", "shared"],
  graph: ["shared"],
  zod: ["graph", "messages", "shared"],
  prebuilt: ["graph", "tools", "models", "messages", "shared"],
  agents: ["prebuilt", "graph", "tools", "models", "messages", "shared", "zod"],
  checkpoint: ["graph", "shared"],
  testing: ["agents", "prebuilt", "graph", "tools", "models", "messages", "shared", "checkpoint"],
  server: ["agents", "prebuilt", "graph", "messages", "shared", "checkpoint"],
  cli: ["server", "agents", "prebuilt", "graph", "messages", "models", "shared", "checkpoint"],
  studio: [],
  entries: ["agents", "prebuilt", "graph", "tools", "models", "messages", "shared", "checkpoint", "testing"],
  "(root)": ["graph", "messages", "shared", "zod", "entries"],
};

/** Inside graph/, which subfolders each subfolder may import. */
const GRAPH_ALLOWED: Record<string, readonly string[]> = {
  core: [],
  channels: ["core"],
  checkpoint: ["core", "channels"],
  cache: ["core", "checkpoint"],
  store: ["core", "checkpoint"],
  algorithm: ["core", "channels", "checkpoint"],
  stream: ["core", "channels", "checkpoint"],
  loop: ["core", "algorithm", "channels", "checkpoint", "stream", "cache", "store"],
  pregel: ["core", "loop", "algorithm", "channels", "checkpoint", "stream", "cache", "store"],
  builder: ["core", "pregel", "loop", "algorithm", "channels", "checkpoint", "stream", "cache", "store"],
  func: [
    "core",
    "builder",
    "pregel",
    "loop",
    "algorithm",
    "channels",
    "checkpoint",
    "stream",
    "cache",
    "store",
  ],
  "(graph)": [
    "core",
    "func",
    "builder",
    "pregel",
    "loop",
    "algorithm",
    "channels",
    "checkpoint",
    "stream",
    "cache",
    "store",
  ],
};

/** Areas (or files) that may use Node built-ins. The engine and the vocabulary layers may not. */
const NODE_ALLOWED = ["checkpoint", "server", "cli", "testing", "entries", "(root)"];

const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

interface Violation {
  file: string;
  line: number;
  message: string;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(ts|mts|tsx)$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** "graph" for src/graph/x.ts, "messages" for src/messages/a/b.ts, "(root)" for src/index.ts. */
function areaOf(file: string): string {
  const rel = relative(SRC, file).split("/");
  return rel.length === 1 ? "(root)" : (rel[0] as string);
}

/** For graph files: "channels" for src/graph/channels/x.ts, "(graph)" for src/graph/index.ts. */
function graphFolderOf(file: string): string {
  const rel = relative(join(SRC, "graph"), file).split("/");
  return rel.length === 1 ? "(graph)" : (rel[0] as string);
}

/** The folder whose index.ts guards a file: src/<area> or src/graph/<sub>. */
function guardFolderOf(file: string): string {
  const area = areaOf(file);
  if (area === "(root)") return SRC;
  if (area === "graph") {
    const sub = graphFolderOf(file);
    return sub === "(graph)" ? join(SRC, "graph") : join(SRC, "graph", sub);
  }
  return join(SRC, area);
}

function resolveRelative(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  const candidates = [
    base.replace(/\.js$/, ".ts"),
    base.replace(/\.mjs$/, ".mts"),
    base,
    `${base}.ts`,
    join(base, "index.ts"),
  ];
  return candidates.find((c) => {
    try {
      return statSync(c).isFile();
    } catch {
      return false;
    }
  });
}

interface ImportRef {
  spec: string;
  typeOnly: boolean;
  line: number;
}

function importsOf(source: ts.SourceFile): ImportRef[] {
  const refs: ImportRef[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      refs.push({ spec: node.moduleSpecifier.text, typeOnly, line: lineOf(node) });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      refs.push({ spec: node.moduleSpecifier.text, typeOnly: node.isTypeOnly, line: lineOf(node) });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      refs.push({ spec: node.arguments[0].text, typeOnly: false, line: lineOf(node) });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const lit = node.argument.literal;
      if (ts.isStringLiteral(lit)) refs.push({ spec: lit.text, typeOnly: true, line: lineOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return refs;
}

function findAwaits(source: ts.SourceFile): number[] {
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isAwaitExpression(node) ||
      (ts.isForOfStatement(node) && node.awaitModifier !== undefined) ||
      (ts.isFunctionLike(node) &&
        ts.canHaveModifiers(node) &&
        (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.AsyncKeyword))
    ) {
      lines.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

function hasRuntimeCode(source: ts.SourceFile): number | undefined {
  for (const stmt of source.statements) {
    if (
      ts.isInterfaceDeclaration(stmt) ||
      ts.isTypeAliasDeclaration(stmt) ||
      (ts.isImportDeclaration(stmt) && stmt.importClause?.isTypeOnly) ||
      (ts.isExportDeclaration(stmt) && stmt.isTypeOnly)
    ) {
      continue;
    }
    return source.getLineAndCharacterOfPosition(stmt.getStart(source)).line + 1;
  }
  return undefined;
}

export function checkDependencies(files: readonly string[]): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const rel = relative(ROOT, file);
    const isTest = /\.test(-d|-helpers)?\.ts$/.test(file) || file.includes("/__tests__/");
    const isCompatTest = file.endsWith(".compat.test.ts");
    const area = areaOf(file);
    const fail = (line: number, message: string) => violations.push({ file: rel, line, message });

    for (const ref of importsOf(source)) {
      const { spec, line } = ref;
      if (/^(@langchain\/|langchain($|\/))/.test(spec) && !isCompatTest) {
        fail(line, `imports "${spec}": LangChain packages may appear only in bench/ and *.compat.test.ts`);
        continue;
      }
      if (builtins.has(spec) || spec.startsWith("node:")) {
        const engineTest = isTest && area === "graph";
        if ((!NODE_ALLOWED.includes(area) && !isTest) || engineTest) {
          fail(
            line,
            `imports "${spec}": ${area}/ must run in any JavaScript runtime (no Node built-ins here)`,
          );
        }
        continue;
      }
      if (!spec.startsWith(".")) continue; // packages: checked by the lockfile and the exports check
      const target = resolveRelative(file, spec);
      if (target === undefined) {
        fail(line, `imports "${spec}", which does not resolve to a file under src/`);
        continue;
      }
      if (!target.startsWith(SRC)) {
        if (!isTest) fail(line, `imports "${spec}" from outside src/`);
        continue;
      }
      const targetArea = areaOf(target);
      const sameGuard = guardFolderOf(file) === guardFolderOf(target);
      // Test helpers (*.test-helpers.ts) are shared between test files of several folders.
      if (!sameGuard && !target.endsWith("/index.ts") && !(isTest && target.endsWith(".test-helpers.ts"))) {
        fail(
          line,
          `imports "${spec}", an internal file of ${relative(ROOT, guardFolderOf(target))}/: import its index.ts`,
        );
      }
      if (isTest) continue;
      if (targetArea !== area && !(ALLOWED[area] ?? []).includes(targetArea)) {
        fail(
          line,
          `${area}/ may not import ${targetArea}/ (allowed: ${(ALLOWED[area] ?? []).join(", ") || "nothing"})`,
        );
      }
      if (area === "graph" && targetArea === "graph") {
        const from = graphFolderOf(file);
        const to = graphFolderOf(target);
        if (from !== to && !(GRAPH_ALLOWED[from] ?? []).includes(to)) {
          fail(line, `graph/${from} may not import graph/${to}`);
        }
        if (from === "algorithm" && to === "checkpoint" && !ref.typeOnly) {
          fail(line, "graph/algorithm may import only checkpoint *types* (use `import type`)");
        }
      }
    }

    if (area === "graph" && graphFolderOf(file) === "algorithm" && !isTest) {
      for (const line of findAwaits(source))
        fail(line, "graph/algorithm is pure: no async functions and no await");
    }
    if (rel.startsWith("src/models/spec/") && !isTest) {
      const line = hasRuntimeCode(source);
      if (line !== undefined)
        fail(line, "models/spec is types only (interfaces, type aliases, type-only imports)");
    }
  }
  return violations;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename);
if (isMain) {
  const violations = checkDependencies(walk(SRC));
  if (violations.length > 0) {
    for (const v of violations) console.error(`${v.file}:${v.line}: ${v.message}`);
    console.error(`\n${violations.length} dependency rule violation(s). The rules: docs/architecture.md`);
    process.exit(1);
  }
  console.log("dependency rules: ok");
}
