// A process that runs one thread of a long graph with `sync` durability, logging every task
// execution, so a test can kill it at random points and check what a restart does.
//   node --import tsx --conditions=source crash-child.test-helpers.ts <sqlite|postgres> <file|url> <thread> <log> <rounds>
import { appendFileSync } from "node:fs";
import { Annotation, END, START, StateGraph } from "../../index.js";
import { PostgresSaver } from "../postgres/index.js";
import { SqliteSaver } from "../sqlite/index.js";
import { crashGraphState, runCrashThread } from "./crash-graph.test-helpers.js";

const [kind, target, threadId, logFile, rounds] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const saver = kind === "sqlite" ? SqliteSaver.fromConnString(target) : PostgresSaver.fromConnString(target);
await saver.setup();
process.stdout.write("ready\n");
const state = await runCrashThread(
  { Annotation, END, START, StateGraph },
  saver,
  threadId,
  Number(rounds),
  (taskId) => appendFileSync(logFile, `${taskId}\n`),
);
process.stdout.write(`done ${JSON.stringify(crashGraphState(state))}\n`);
await (kind === "sqlite" ? (saver as SqliteSaver).close() : (saver as PostgresSaver).end());
