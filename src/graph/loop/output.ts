import { EXCLUDED_METADATA_KEYS } from "../checkpoint/index.js";
import { ERROR, INTERRUPT, RETURN } from "../core/index.js";
import type { LangGraphRunnableConfig, RunningTask } from "./types.js";

/** The `updates` chunk of a finished task: `{ [node]: update }`, or `undefined` if it has none to show. */
export function updatesPayload(
  task: RunningTask,
  outputChannels: string | readonly string[],
): Record<string, unknown> | undefined {
  const writes = task.writes;
  const first = writes[0];
  if (first !== undefined && (first[0] === ERROR || first[0] === INTERRUPT)) return undefined;
  let value: unknown;
  const returned = writes.filter(([key]) => key === RETURN);
  if (returned.length > 0) {
    value = returned.length === 1 ? (returned[0] as [string, unknown])[1] : returned.map(([, v]) => v);
  } else if (typeof outputChannels === "string") {
    const values = writes.filter(([key]) => key === outputChannels).map(([, v]) => v);
    if (values.length === 0) return undefined;
    value = values.length === 1 ? values[0] : values;
  } else {
    const counts = new Map<string, number>();
    for (const [key] of writes) if (outputChannels.includes(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
    let repeated = false;
    for (const n of counts.values()) if (n > 1) repeated = true;
    if (repeated) {
      const list = writes.filter(([key]) => outputChannels.includes(key)).map(([key, v]) => ({ [key]: v }));
      value = list.length === 1 ? list[0] : list;
    } else {
      const update: Record<string, unknown> = {};
      for (const [key, v] of writes) if (outputChannels.includes(key)) update[key] = v;
      value = update;
    }
  }
  return { [task.name]: value };
}

/** User-meaningful metadata of a task for `tasks`/`debug` payloads, or `undefined` when there is none. */
export function taskMetadata(config: LangGraphRunnableConfig<unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let any = false;
  const metadata = config.metadata;
  if (metadata !== undefined) {
    for (const key in metadata) {
      // the keys the engine sets on every task are redundant in stream payloads
      if (EXCLUDED_METADATA_KEYS.has(key)) continue;
      out[key] = metadata[key];
      any = true;
    }
  }
  const tags = config.tags?.filter((tag) => !tag.startsWith("seq:step"));
  if (tags !== undefined && tags.length > 0) {
    out.tags = tags;
    any = true;
  }
  return any ? out : undefined;
}

/**
 * The hidden key under which a task-start payload carries the task's whole run metadata (the
 * `langgraph_*` keys, `thread_id`…), for `streamEvents` and chain callbacks; it is not enumerable,
 * so the `tasks` and `debug` chunks users see do not show it.
 */
export const TASK_RUN_METADATA: unique symbol = Symbol("agentgraph.taskRunMetadata") as never;

/** The hidden key under which a task-result payload carries what the node returned. */
export const TASK_RUN_OUTPUT: unique symbol = Symbol("agentgraph.taskRunOutput") as never;

/** The `tasks`-mode payload of a task about to run. */
export function taskStartPayload(task: RunningTask): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    id: task.id,
    name: task.name,
    input: task.input,
    triggers: task.triggers,
    interrupts: [],
  };
  const metadata = taskMetadata(task.config);
  if (metadata !== undefined) payload.metadata = metadata;
  Object.defineProperty(payload, TASK_RUN_METADATA, { value: task.config.metadata });
  return payload;
}

/** The `tasks`-mode payload of a finished task. */
export function taskResultPayload(
  task: RunningTask,
  streamChannels: string | readonly string[],
  error: unknown,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of task.writes) {
    const streamed =
      typeof streamChannels === "string" ? key === streamChannels : streamChannels.includes(key);
    if (!streamed) continue;
    if (Object.hasOwn(result, key)) {
      const previous = result[key] as { $writes?: unknown[] };
      const list =
        typeof previous === "object" && previous !== null && Array.isArray(previous.$writes)
          ? previous.$writes
          : [previous];
      list.push(value);
      result[key] = { $writes: list };
    } else {
      result[key] = value;
    }
  }
  const interrupts = task.writes.filter(([key]) => key === INTERRUPT).flatMap(([, v]) => v as unknown[]);
  const payload: Record<string, unknown> = {
    id: task.id,
    name: task.name,
    result,
    interrupts,
    error: error ?? null,
  };
  // what the node returned (for `streamEvents`), unless its writes were replayed rather than run
  if (!(task as { cached?: boolean }).cached) {
    Object.defineProperty(payload, TASK_RUN_OUTPUT, { value: task.output });
  }
  return payload;
}

/**
 * What a task's saved output writes show as its `result` (in `getState().tasks` and in the
 * `checkpoints` stream): the returned value of a call, else the value written to a single output
 * channel, else `{ channel: value }` (`undefined` when the task wrote no output channel).
 */
export function savedTaskResult(
  task: RunningTask,
  output: readonly (readonly [string, unknown])[],
  streamChannels: string | readonly string[],
): unknown {
  const returned = output.find(([c]) => c === RETURN);
  if (returned !== undefined) return returned[1];
  // a graph with one output channel (an entrypoint): the value the task wrote there
  if (typeof streamChannels === "string") return output.find(([c]) => c === streamChannels)?.[1];
  const result = taskResultPayload(
    { ...task, writes: output } as unknown as RunningTask,
    streamChannels,
    undefined,
  ).result;
  if (typeof result !== "object" || result === null) return result;
  for (const _ in result) return result;
  return undefined;
}
