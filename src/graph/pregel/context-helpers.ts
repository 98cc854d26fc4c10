import { getAsyncContext, hasAsyncContextStorage, mergeOf } from "../../shared/index.js";
import { GraphValueError } from "../core/index.js";
import {
  CURRENT_TASK,
  type LangGraphRunnableConfig,
  type RunningTask,
  type StreamWriter,
} from "../loop/index.js";
import type { BaseStore } from "../store/index.js";
import { MessagesStreamHandler } from "./messages-stream.js";

/**
 * `given`, else the config of the running node. Outside a node, LangGraph.js's error (its first
 * sentence), then what happened and how to fix it.
 */
function ambientConfig(
  helper: string,
  given?: LangGraphRunnableConfig<unknown>,
): LangGraphRunnableConfig<unknown> {
  const config = given ?? getAsyncContext<LangGraphRunnableConfig<unknown>>();
  if (config === undefined) {
    throw new GraphValueError(
      hasAsyncContextStorage()
        ? `Config not retrievable. ${helper} was called outside of a graph node. Call it inside a node (or a task), or pass it the config the node receives as its second argument.`
        : `Config not retrievable. ${helper} needs an async-context storage, which this runtime does not provide. Import "agentgraph" (which installs AsyncLocalStorage on Node) or pass it the config the node receives as its second argument.`,
    );
  }
  return config;
}

/**
 * The config of the node (or task) currently running: the same object the node receives as its
 * second argument. Outside a node it returns `undefined`, as LangGraph.js's does (its type, like
 * LangGraph.js's, does not say so).
 *
 * @example
 * ```ts
 * const node = async () => ({ user: getConfig().configurable?.user_id });
 * ```
 */
export function getConfig<Context = Record<string, unknown>>(): LangGraphRunnableConfig<Context> {
  return getAsyncContext<LangGraphRunnableConfig<unknown>>() as LangGraphRunnableConfig<Context>;
}

/**
 * The `custom`-mode stream writer of the running node (a no-op when nobody streams `custom`), or
 * of the node whose `config` is given.
 *
 * @example
 * ```ts
 * const node = async () => { getWriter()({ progress: 0.5 }); return {}; };
 * ```
 */
export function getWriter(config?: LangGraphRunnableConfig<unknown>): StreamWriter {
  return ambientConfig("getWriter()", config).writer ?? (() => {});
}

/**
 * Writes `chunk` to the `custom` stream of the running node or task (LangGraph.js `writer`,
 * the functional API's shorthand for `getWriter()(chunk)`).
 *
 * @example
 * ```ts
 * const fetchPage = task("fetchPage", async (url: string) => { writer({ fetching: url }); return get(url); });
 * ```
 */
export function writer<Chunk = unknown>(chunk: Chunk): void {
  getWriter()(chunk);
}

/** The chunk type of a typed `writer` (`typeof writer<Chunk>`); `unknown` otherwise. */
export type InferWriterType<T> = T extends (chunk: infer Chunk) => void ? Chunk : unknown;

/**
 * The long-term store of the running graph (or of the node whose `config` is given), or
 * `undefined` when it has none.
 *
 * @example
 * ```ts
 * const memories = await getStore()?.search(["users", userId]);
 * ```
 */
export function getStore<Store = BaseStore>(config?: LangGraphRunnableConfig<unknown>): Store | undefined {
  return ambientConfig("getStore()", config).store as Store | undefined;
}

/**
 * A config `getCurrentTaskInput` reads: a node's, or a tool's runtime (whose `store` and `writer`
 * may be `null`), which LangChain.js types loosely enough to pass. Only the running task it
 * carries is read.
 */
export type TaskInputConfig = LangGraphRunnableConfig<unknown> | object;

/**
 * The input of the running task: the state a node was called with, or the arguments of a
 * functional-API task. Pass the node's `config` (or a tool's runtime, as LangGraph.js allows) to
 * read it from there rather than from the async context.
 *
 * @example
 * ```ts
 * const state = getCurrentTaskInput<typeof State.State>(config);
 * ```
 */
export function getCurrentTaskInput<Input = unknown>(config?: TaskInputConfig): Input {
  const task =
    config === undefined
      ? undefined
      : ((config as Record<symbol, unknown>)[CURRENT_TASK] as RunningTask | undefined);
  const running = task ?? currentTask("getCurrentTaskInput()");
  return (running.inputView === undefined ? running.input : running.inputView()) as Input;
}

/**
 * Makes `getCurrentTaskInput()` answer `view()` for the running task of `config` (when it is
 * one) instead of the task's own input: createAgent's tools node, whose `Send` carries only the
 * tool call, shows its tools LangChain.js's `{ ...state, lg_tool_call }` this way.
 *
 * @internal
 */
export function setTaskInputView(config: LangGraphRunnableConfig<unknown>, view: () => unknown): void {
  const task = (config as Record<symbol, unknown>)[CURRENT_TASK] as RunningTask | undefined;
  if (task !== undefined) task.inputView = view;
}

/**
 * The graph state as the running task sees it: the channels its node reads (for a state graph,
 * the state keys of its input schema), as they stood when the superstep began, with the task's
 * own writes so far applied. A task started by a `Send` gets the `Send`'s argument as its input;
 * this is how it reads the rest of the state without the `Send` carrying a copy of it. Returns
 * `undefined` when `config` is not the config of a running graph task.
 *
 * @example
 * ```ts
 * const worker = (call: ToolCall, config: LangGraphRunnableConfig) => {
 *   const state = readCurrentState<{ messages: BaseMessage[] }>(config);
 *   return { results: [`${call.name} after ${state?.messages.length ?? 0} messages`] };
 * };
 * ```
 */
export function readCurrentState<State = Record<string, unknown>>(
  config?: LangGraphRunnableConfig<unknown>,
): State | undefined {
  const source = config ?? getAsyncContext<LangGraphRunnableConfig<unknown>>();
  const task = (source as Record<symbol, unknown> | undefined)?.[CURRENT_TASK] as RunningTask | undefined;
  if (task === undefined) return undefined;
  const channels = task.node.channels;
  const keys: readonly string[] = Array.isArray(channels)
    ? (channels as readonly string[])
    : Object.values(channels as Readonly<Record<string, string>>);
  const read = task.readFresh(keys);
  if (Array.isArray(channels)) return read as State;
  // keyed input: report the state under the node's input keys
  const out: Record<string, unknown> = {};
  const byKey = channels as Readonly<Record<string, string>>;
  // `for…in`, not entries: a tool call reads the state this way on every call, mostly before the
  // engine optimizes this code, where each entry and iterator step would be a new object
  for (const key in byKey) {
    if (!Object.hasOwn(byKey, key)) continue;
    const channel = byKey[key] as string;
    if (Object.hasOwn(read, channel)) out[key] = read[channel];
  }
  return out as State;
}

/** The running task (internal). */
export function currentTask(helper: string): RunningTask {
  const task = (ambientConfig(helper) as Record<symbol, unknown>)[CURRENT_TASK] as RunningTask | undefined;
  if (task === undefined) {
    throw new GraphValueError(`${helper} was called outside of a graph node or task.`);
  }
  return task;
}

/**
 * The engine's half of `pushMessage`: streams `message` (already a message with an id) in the
 * `messages` mode of the running graph and, when `stateKey` is given, writes it to that state
 * key as the running task's own write (applied with the task's other writes at the step's end).
 *
 * @internal
 */
export function pushTaskMessage(
  message: object,
  stateKey: string | undefined,
  config?: LangGraphRunnableConfig<unknown>,
): void {
  const ambient = ambientConfig("pushMessage()");
  const metadata = mergeOf(ambient.metadata, config?.metadata);
  // a config's callbacks replace the node's (as when configs merge): the node's own config, passed
  // back, must not stream the message twice
  for (const handler of config?.callbacks ?? ambient.callbacks ?? []) {
    if (handler instanceof MessagesStreamHandler) handler.pushed(metadata, message);
  }
  if (stateKey === undefined) return;
  const task = (ambient as unknown as Record<symbol, RunningTask | undefined>)[CURRENT_TASK];
  if (task === undefined) {
    throw new GraphValueError("pushMessage() with a state key must be called inside a graph node.");
  }
  task.writes.push([stateKey, message]);
}
