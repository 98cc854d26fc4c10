import { EXCLUDED_METADATA_KEYS } from "../checkpoint/index.js";
import { ERROR, INTERRUPT, RETURN } from "../core/index.js";
import type { LangGraphRunnableConfig, RunningTask } from "./types.js";

/**
 * The `updates` chunk of a finished task: `{ [node]: update }`, or `undefined` if it has none to show.
 *
 * Indexed loops over the writes, without destructuring: this runs for every task of a streamed
 * run, mostly before the engine has optimized it, where `([key]) => …` and `for…of` over
 * `[key, value]` pairs each allocate an iterator per write.
 */
export function updatesPayload(
  task: RunningTask,
  outputChannels: string | readonly string[],
): Record<string, unknown> | undefined {
  const writes = task.writes;
  const count = writes.length;
  const first = writes[0];
  if (first !== undefined && (first[0] === ERROR || first[0] === INTERRUPT)) return undefined;
  let returned = 0;
  let lastReturned: unknown;
  for (let i = 0; i < count; i++) {
    const write = writes[i] as [string, unknown];
    if (write[0] === RETURN) {
      returned += 1;
      lastReturned = write[1];
    }
  }
  let value: unknown;
  if (returned > 0) {
    value = returned === 1 ? lastReturned : valuesOf(writes, (key) => key === RETURN);
  } else if (typeof outputChannels === "string") {
    const values = valuesOf(writes, (key) => key === outputChannels);
    if (values.length === 0) return undefined;
    value = values.length === 1 ? values[0] : values;
  } else {
    let shown = 0;
    let repeated = false;
    const update: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) {
      const write = writes[i] as [string, unknown];
      const key = write[0];
      if (!outputChannels.includes(key)) continue;
      if (Object.hasOwn(update, key)) repeated = true;
      update[key] = write[1];
      shown += 1;
    }
    if (repeated) {
      // a channel written twice: one `{ [key]: value }` per write, in order
      const list: Record<string, unknown>[] = [];
      for (let i = 0; i < count; i++) {
        const write = writes[i] as [string, unknown];
        if (outputChannels.includes(write[0])) list.push({ [write[0]]: write[1] });
      }
      value = shown === 1 ? list[0] : list;
    } else value = update;
  }
  return { [task.name]: value };
}

/** The values of the writes whose channel passes `keep`, in order. */
function valuesOf(
  writes: readonly (readonly [string, unknown])[],
  keep: (key: string) => boolean,
): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < writes.length; i++) {
    const write = writes[i] as readonly [string, unknown];
    if (keep(write[0])) out.push(write[1]);
  }
  return out;
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

/**
 * The hidden key under which a task-start payload carries the task's `executionInfo` object (its
 * own, per task of a run), by which chain callbacks register the run they report the task under.
 */
export const TASK_RUN_INFO: unique symbol = Symbol("agentgraph.taskRunInfo") as never;

/**
 * The hidden key marking a `debug` event of a hidden task (the `__start__` node), streamed only
 * to a sink that reports to chain callbacks (see `StreamSink.hearsHidden`): no stream shows it.
 */
export const HIDDEN_TASK_EVENT: unique symbol = Symbol("agentgraph.hiddenTaskEvent") as never;

/**
 * The hidden key marking a task-start payload whose task does not run (its writes come from the
 * node cache or were saved before the run was interrupted): `streamEvents` and chain callbacks
 * report no run for it, as LangGraph.js reports none.
 */
export const TASK_NOT_RUN: unique symbol = Symbol("agentgraph.taskNotRun") as never;

/** The hidden key under which a task-result payload carries what the node returned. */
export const TASK_RUN_OUTPUT: unique symbol = Symbol("agentgraph.taskRunOutput") as never;

/** The hidden key under which a task-result payload carries the error the task failed with. */
export const TASK_RUN_ERROR: unique symbol = Symbol("agentgraph.taskRunError") as never;

/**
 * A task's error as LangGraph.js saves and streams it: `{ message, name }` for an `Error` (so a
 * chunk sent as JSON keeps both), anything else as it was thrown.
 */
export function errorRecord(error: unknown): unknown {
  return error instanceof Error ? { message: error.message, name: error.name } : error;
}

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
  if (task.config.executionInfo !== undefined)
    Object.defineProperty(payload, TASK_RUN_INFO, { value: task.config.executionInfo });
  return payload;
}

/** The `tasks`-mode payload of a finished task (its result made of `writes`, by default its own). */
export function taskResultPayload(
  task: RunningTask,
  streamChannels: string | readonly string[],
  error: unknown,
  writes: readonly (readonly [string, unknown])[] = task.writes,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of writes) {
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
  const interrupts = writes.filter(([key]) => key === INTERRUPT).flatMap(([, v]) => v as unknown[]);
  const payload: Record<string, unknown> = {
    id: task.id,
    name: task.name,
    result,
    interrupts,
    error: error === undefined || error === null ? null : errorRecord(error),
  };
  if (error !== undefined && error !== null) Object.defineProperty(payload, TASK_RUN_ERROR, { value: error });
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
  const result = taskResultPayload(task, streamChannels, undefined, output).result;
  if (typeof result !== "object" || result === null) return result;
  for (const _ in result) return result;
  return undefined;
}
