/**
 * Keeps examples/ from rotting: every example file runs in its own child process, the way a user
 * runs it (`tsx --conditions=source`), must exit with code 0 and print its key lines. Each runs in
 * a fresh temporary directory, so files it writes (the weather example's SQLite thread) stay out
 * of the repository, and without AGENTGRAPH_MODEL, so the weather example uses the offline model.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const EXAMPLES = fileURLToPath(new URL("../examples/", import.meta.url));
const TSX = new URL("../node_modules/tsx/dist/loader.mjs", import.meta.url).href;

/** Each example (path under examples/) and lines its output must contain. */
const EXPECTED: Record<string, Array<string | RegExp>> = {
  "quickstart.ts": ["Final state after 2 round(s) of planning: 6 answers."],
  "weather/index.ts": [
    "Model: agentgraph's offline demo model",
    "================================ Human Message =================================",
    "It's always sunny in Suzhou!",
    'Thread "weather-demo" now holds 4 messages',
  ],
  "structured-output.ts": [
    'structuredResponse: {"city":"Suzhou","sunny":true}',
    "sunny is a boolean",
    "retry message: Failed to parse structured output for tool 'Weather':",
    'last message: Returning structured response: {"city":"Suzhou","sunny":true}',
  ],
  "custom-middleware.ts": [
    /beforeAgent\nbeforeModel \(1 messages\)\nwrapModelCall: calling the model\nwrapModelCall: got a tool call\nafterModel\nwrapToolCall: get_weather\(\{"city":"Suzhou"\}\)\nbeforeModel \(3 messages\)/,
    "afterAgent (4 messages)",
    "modelCalls: 2",
    "system prompt the model got: You are a helpful assistant. Be brief.",
  ],
  "middleware/model-call-limit.ts": [
    "run 1: First answer.",
    "run 2: Model call limits exceeded: thread level call limit reached with 1 model calls",
  ],
  "middleware/tool-call-limit.ts": [
    "tool: Tool call limit exceeded. Do not call 'search' again.",
    "tool: results for a",
    "ai: Here is what I found.",
  ],
  "middleware/model-fallback.ts": ["answer: Answer from the fallback."],
  "middleware/model-retry.ts": ["attempts: 3, answer: Third time lucky."],
  "middleware/tool-retry.ts": [
    "tool attempts: 3",
    "tool result: 3 rows for orders",
    "answer: Found 3 orders.",
  ],
  "middleware/dynamic-system-prompt.ts": [
    'system message sent: [{"type":"text","text":"You are a helpful assistant."},{"type":"text","text":"Answer in French."}]',
  ],
  "middleware/human-in-the-loop.ts": [
    'to review: [{"name":"write_file","args":{"path":"notes.txt"}}]',
    "tool result: wrote safe.txt",
    "answer: Done.",
  ],
  "middleware/summarization.ts": [
    'human: "Here is a summary of the conversation to date:\\n\\nThe user asked about Paris and Rome."',
    'ai: "Berlin is lovely too."',
  ],
  "middleware/pii.ts": [
    "the model saw: Bill [REDACTED_EMAIL]",
    "the answer: Charged card ****-****-****-1111.",
    "blocked: PII detected: api_key found 1 occurrence(s)",
  ],
  "middleware/todo-list.ts": [
    "[in_progress] Draft the announcement",
    "[pending] Email the list",
    'tool answered: Updated todo list to [{"content":"Draft the announcement","status":"in_progress"}',
  ],
  "middleware/llm-tool-selector.ts": [
    "main model offered: weather, search",
    'selector saw: "Weather in Paris?"',
    "answer: It is sunny.",
  ],
  "middleware/context-editing.ts": [
    'third model call saw tool results: ["[cleared]","a long page of"]',
    "tool results in state: 2",
  ],
};

const exampleFiles = (readdirSync(EXAMPLES, { recursive: true }) as string[])
  .map((file) => file.split("\\").join("/"))
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
  .sort();

const scratch = mkdtempSync(join(tmpdir(), "agentgraph-examples-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("examples/", () => {
  it("has an expectation for every example file (add new examples to EXPECTED)", () => {
    expect(exampleFiles).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [file, lines] of Object.entries(EXPECTED)) {
    it(`${file} runs and prints its key lines`, async () => {
      const cwd = mkdtempSync(join(scratch, "run-"));
      const env = { ...process.env };
      delete env.AGENTGRAPH_MODEL;
      delete env.NODE_OPTIONS;
      const { stdout } = await run(
        process.execPath,
        ["--import", TSX, "--conditions=source", join(EXAMPLES, file)],
        { cwd, env, timeout: 60_000, maxBuffer: 4 << 20 },
      ).catch((error: Error & { stdout?: string; stderr?: string; code?: unknown }) => {
        throw new Error(
          `${file} failed (exit code ${String(error.code)}):\n${error.stderr ?? ""}${error.stdout ?? ""}`,
        );
      });
      for (const line of lines) {
        if (typeof line === "string") expect(stdout).toContain(line);
        else expect(stdout).toMatch(line);
      }
    }, 90_000);
  }
});
