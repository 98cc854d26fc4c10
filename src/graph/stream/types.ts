/**
 * What a stream reports:
 * - `values`: the whole state after each superstep;
 * - `updates`: what each node returned, as `{ [node]: update }` (the default of `stream()`);
 * - `messages`: `[messageChunk, metadata]` for each token of each model call made in a node;
 * - `custom`: whatever nodes send through `config.writer` / `getWriter()`;
 * - `debug`: `{ step, type, timestamp, payload }` events for tasks, results and checkpoints;
 * - `checkpoints`: each checkpoint as it is saved;
 * - `tasks`: each task as it starts and as it finishes;
 * - `tools`: tool calls as they start, report progress, finish or fail (those of subgraphs only
 *   with `subgraphs: true`).
 */
export type StreamMode =
  | "values"
  | "updates"
  | "messages"
  | "custom"
  | "debug"
  | "checkpoints"
  | "tasks"
  | "tools";

/** Every stream mode, in a stable order. */
export const STREAM_MODES: readonly StreamMode[] = [
  "values",
  "updates",
  "messages",
  "custom",
  "debug",
  "checkpoints",
  "tasks",
  "tools",
];

/** Modes that a nested graph reports to its parent's stream even without `subgraphs: true`. */
export const ALWAYS_PROPAGATED_MODES: ReadonlySet<StreamMode> = new Set(["messages", "custom"]);
