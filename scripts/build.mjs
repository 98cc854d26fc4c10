/**
 * Builds dist/: type declarations with tsc, and the JavaScript as one ES module per public entry
 * point (the `exports` map) plus shared chunks, bundled with rolldown. Shared code lives in
 * exactly one chunk, so a class is the same class whichever entry point it is imported through.
 * A dozen files load several times faster than two hundred (`import "agentgraph"` is a cost
 * users pay at every start). Dependencies stay external.
 *
 * Usage: node scripts/build.mjs
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

/** `{ "checkpoint/sqlite/index": "<root>/src/checkpoint/sqlite/index.ts", … }` */
const input = {};
for (const target of Object.values(pkg.exports)) {
  if (typeof target !== "object" || typeof target.source !== "string") continue;
  const name = target.source.replace(/^\.\/src\//, "").replace(/\.ts$/, "");
  input[name] = join(ROOT, target.source);
}

rmSync(join(ROOT, "dist"), { recursive: true, force: true });
execFileSync(
  process.execPath,
  [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json", "--emitDeclarationOnly"],
  { cwd: ROOT, stdio: "inherit" },
);
await build({
  cwd: ROOT,
  input,
  platform: "node",
  // our own modules are bundled; packages (zod, pg, better-sqlite3, the SDKs) and node:* are not
  external: (id) => !id.startsWith(".") && !id.startsWith("/"),
  logLevel: "warn",
  output: {
    dir: join(ROOT, "dist"),
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "chunks/[name]-[hash].js",
    sourcemap: true,
  },
});
