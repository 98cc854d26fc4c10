import { getAsyncContext, hasAsyncContextStorage } from "../../shared/index.js";
import { GraphValueError } from "../core/index.js";
import {
  CURRENT_TASK,
  type LangGraphRunnableConfig,
  type RunningTask,
  type StreamWriter,
} from "../loop/index.js";

function ambientConfig(helper: string): LangGraphRunnableConfig<unknown> {
  const config = getAsyncContext<LangGraphRunnableConfig<unknown>>();
  if (config === undefined) {
    throw new GraphValueError(
      hasAsyncContextStorage()
        ? `${helper} was called outside of a graph node. Call it inside a node (or a task), or use the config passed to the node as its second argument.`
        : `${helper} needs an async-context storage, which this runtime does not provide. Import "agentgraph" (which installs AsyncLocalStorage on Node) or use the config passed to the node as its second argument.`,
    );
  }
  return config;
}

/**
 * The config of the node (or task) currently running: the same object the node receives as its
 * second argument.
 *
 * @example
 * ```ts
 * const node = async () => ({ user: getConfig().configurable?.user_id });
 * ```
 */
export function getConfig<Context = Record<string, unknown>>(): LangGraphRunnableConfig<Context> {
  return ambientConfig("getConfig()") as LangGraphRunnableConfig<Context>;
}

/**
 * The `custom`-mode stream writer of the running node (a no-op when nobody streams `custom`).
 *
 * @example
 * ```ts
 * const node = async () => { getWriter()({ progress: 0.5 }); return {}; };
 * ```
 */
export function getWriter(): StreamWriter {
  return ambientConfig("getWriter()").writer ?? (() => {});
}

/**
 * The long-term store of the running graph, or `undefined` when it has none.
 *
 * @example
 * ```ts
 * const memories = await getStore()?.search(["users", userId]);
 * ```
 */
export function getStore<Store = unknown>(): Store | undefined {
  return ambientConfig("getStore()").store as Store | undefined;
}

/**
 * The input of the running task: the state a node was called with, or the arguments of a
 * functional-API task.
 */
export function getCurrentTaskInput<Input = unknown>(): Input {
  return currentTask("getCurrentTaskInput()").input as Input;
}

/** The running task (internal). */
export function currentTask(helper: string): RunningTask {
  const task = (ambientConfig(helper) as Record<symbol, unknown>)[CURRENT_TASK] as RunningTask | undefined;
  if (task === undefined) {
    throw new GraphValueError(`${helper} was called outside of a graph node or task.`);
  }
  return task;
}
