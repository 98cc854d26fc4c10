import type { RunningTask } from "./types.js";

const BLUE = "\u001b[34m";
const GREEN = "\u001b[32m";
const YELLOW = "\u001b[33;1m";
const RESET = "\u001b[0m";

function show(value: unknown): string {
  try {
    const text = JSON.stringify(value, null, 2);
    return text === undefined ? String(value) : text;
  } catch {
    return String(value);
  }
}

/** Prints the tasks a superstep is about to run (`debug: true`). */
export function printTasks(step: number, tasks: readonly RunningTask[]): void {
  const visible = tasks.filter((t) => !t.node.hidden);
  if (visible.length === 0) return;
  const lines = visible.map((t) => `- ${GREEN}${t.name}${RESET} -> ${show(t.input)}`);
  console.log(
    `${BLUE}[${step}:tasks]${RESET} Starting ${visible.length} task${visible.length === 1 ? "" : "s"} for step ${step}:\n${lines.join("\n")}`,
  );
}

/** Prints the writes of a finished superstep and the resulting state (`debug: true`). */
export function printStep(step: number, tasks: readonly RunningTask[], state: unknown): void {
  const writes: string[] = [];
  for (const task of tasks) {
    for (const [key, value] of task.writes) {
      if (key.startsWith("__") || key.startsWith("branch:")) continue;
      writes.push(`- ${YELLOW}${key}${RESET} -> ${show(value)}`);
    }
  }
  console.log(
    `${BLUE}[${step}:writes]${RESET} Finished step ${step} with writes to ${writes.length} channel${writes.length === 1 ? "" : "s"}:\n${writes.join("\n")}`,
  );
  console.log(`${BLUE}[${step}:checkpoint]${RESET} State at the end of step ${step}:\n${show(state)}`);
}
