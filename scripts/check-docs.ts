/**
 * Type-checks the TypeScript examples of README.md and docs/ against src/, so the docs cannot
 * drift from the code.
 *
 * The convention: a ```ts block whose first line is an `import` is a complete program, checked
 * as a module of its own (strict, as tsconfig.json, with `agentgraph` resolving to src/ through
 * the `source` condition; unused names are allowed, since examples show values without using
 * them). A block that starts otherwise continues the examples before it (it uses their `graph`,
 * `agent`, `model`, …) and is not checked. Blocks in other languages are not checked either.
 *
 * Only the example files get diagnostics; src/ is read for its types, not checked again (that is
 * `npm run typecheck`).
 *
 * Usage: tsx scripts/check-docs.ts   (exit code 1 and the errors, by file and line, on failure)
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(import.meta.dirname, "..");

/** README.md and every Markdown file under docs/. */
function markdownFiles(): string[] {
  const files = [join(ROOT, "README.md")];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".md")) files.push(path);
    }
  };
  walk(join(ROOT, "docs"));
  return files;
}

interface Example {
  /** Where the block's first code line is: `docs/agents.md:11`. */
  readonly at: string;
  /** The virtual file the block is checked as (next to the Markdown file, never written). */
  readonly fileName: string;
  readonly code: string;
  /** The Markdown line of the code's first line, less one. */
  readonly lineOffset: number;
}

const FENCE = /^(\s*)```(\S*)\s*$/;

/** The complete examples of one Markdown file: ```ts blocks whose first line is an import. */
function examplesOf(path: string): Example[] {
  const lines = readFileSync(path, "utf8").split("\n");
  const out: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? "");
    if (open === null) continue;
    const indent = open[1]?.length ?? 0;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j] ?? ""); j++)
      body.push((lines[j] ?? "").slice(indent));
    if (open[2] === "ts" && /^import\b/.test(body[0] ?? "")) {
      const at = `${relative(ROOT, path)}:${i + 2}`;
      out.push({
        at,
        fileName: `${path}.example-${i + 2}.ts`,
        code: `${body.join("\n")}\nexport {};\n`,
        lineOffset: i + 1,
      });
    }
    i = j;
  }
  return out;
}

function compilerOptions(): ts.CompilerOptions {
  const configPath = join(ROOT, "tsconfig.json");
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, configPath);
  return { ...options, noEmit: true, noUnusedLocals: false, noUnusedParameters: false, declaration: false };
}

const examples = markdownFiles().flatMap(examplesOf);
const byFile = new Map(examples.map((e) => [e.fileName, e]));
const options = compilerOptions();
const host = ts.createCompilerHost(options);
const { fileExists, readFile, getSourceFile } = host;
host.fileExists = (name) => byFile.has(name) || fileExists.call(host, name);
host.readFile = (name) => byFile.get(name)?.code ?? readFile.call(host, name);
host.getSourceFile = (name, languageVersion, onError, shouldCreate) => {
  const example = byFile.get(name);
  return example !== undefined
    ? ts.createSourceFile(name, example.code, languageVersion, true, ts.ScriptKind.TS)
    : getSourceFile.call(host, name, languageVersion, onError, shouldCreate);
};
const program = ts.createProgram({ rootNames: [...byFile.keys()], options, host });

const errors: string[] = [];
for (const example of examples) {
  const file = program.getSourceFile(example.fileName);
  if (file === undefined) throw new Error(`${example.at}: not loaded`);
  for (const d of [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]) {
    const line = d.start === undefined ? 0 : file.getLineAndCharacterOfPosition(d.start).line;
    const where = `${relative(ROOT, example.fileName.replace(/\.example-\d+\.ts$/, ""))}:${example.lineOffset + line + 1}`;
    errors.push(`${where}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, "\n  ")}`);
  }
}

if (errors.length > 0) {
  console.error(errors.join("\n"));
  console.error(
    `\n${errors.length} error(s) in the docs' examples. A \`\`\`ts block that starts with an import must compile on its own (scripts/check-docs.ts).`,
  );
  process.exit(1);
}
console.log(`docs examples: ok (${examples.length} checked)`);
