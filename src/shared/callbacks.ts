import { getAmbientConfig } from "./runnable-config.js";

/**
 * Callback handlers: how model and tool calls report progress to whoever is listening
 * (the engine's `messages` and `tools` stream modes, or a user's own handler).
 *
 * The method names and argument orders are those of LangChain.js `BaseCallbackHandler`, so a
 * handler object written for LangChain.js (`{ handleLLMNewToken(token) { … } }`) works here.
 * Every method is optional. Message-typed arguments are `unknown` here because this layer
 * sits below `messages/`; at run time they are agentgraph message instances.
 *
 * Nothing is built when no handler is listening: callers check {@link hasHandlers} first.
 */
export interface CallbackHandler {
  /** Optional name, for debugging. */
  name?: string;

  /**
   * When true, a failure of this handler is logged with `console.error` rather than
   * `console.warn`; with {@link awaitHandlers} too, it then fails the call it observes with the
   * handler's own error, as in LangChain.js. Without `awaitHandlers` the call goes on (LangChain.js
   * leaves an unhandled rejection there; agentgraph only logs).
   */
  raiseError?: boolean;

  /**
   * When true (with {@link raiseError}), the call waits for this handler, and fails with its
   * error, as LangChain.js's callback manager does. LangChain.js's `BaseCallbackHandler` sets it
   * when built with `raiseError: true`; a plain object without a `name` gets it from
   * `LANGCHAIN_CALLBACKS_BACKGROUND=false`, as LangChain.js wraps such an object in a handler.
   */
  awaitHandlers?: boolean;

  /** When true, this handler hears no model call (`handleChatModelStart`, `handleLLM*`), as in LangChain.js. */
  ignoreLLM?: boolean;

  /** When true, this handler hears no graph or node run (`handleChain*`), as in LangChain.js. */
  ignoreChain?: boolean;

  /** When true, this handler hears no tool call (`handleTool*`), as in LangChain.js. */
  ignoreAgent?: boolean;

  /**
   * When true, a chat model invoked under this handler streams internally (and still returns
   * the whole message), so that `handleLLMNewToken` sees tokens. The engine's `messages` stream
   * mode sets it; LangChain.js uses the same flag.
   */
  lc_prefer_streaming?: boolean;

  /**
   * When true, a chat model invoked under this handler that can stream produces its answer as
   * protocol events (`_streamChatModelEvents`), each reported to `handleChatModelStreamEvent`,
   * and answers with the message they assemble to (content blocks). `streamEvents` v3 sets it;
   * LangChain.js uses the same flag.
   */
  lc_prefer_chat_model_stream_events?: boolean;

  /** A chat model call starts. `messages` is a one-element batch of the prompt messages. */
  handleChatModelStart?(
    llm: { id: string[]; name?: string },
    messages: unknown[][],
    runId: string,
    parentRunId?: string,
    extraParams?: Record<string, unknown>,
    tags?: string[],
    metadata?: Record<string, unknown>,
    runName?: string,
  ): unknown;

  /**
   * A model call starts, told to a handler without `handleChatModelStart` (as LangChain.js
   * does): `prompts` holds the prompt as one string, its messages as `getBufferString` writes
   * them (`"System: …\nHuman: …"`).
   */
  handleLLMStart?(
    llm: { id: string[]; name?: string },
    prompts: string[],
    runId: string,
    parentRunId?: string,
    extraParams?: Record<string, unknown>,
    tags?: string[],
    metadata?: Record<string, unknown>,
    runName?: string,
  ): unknown;

  /** A streamed token (or tool-call fragment) arrives; `fields.chunk.message` is the `AIMessageChunk`. */
  handleLLMNewToken?(
    token: string,
    idx: { prompt: number; completion: number },
    runId: string,
    parentRunId?: string,
    tags?: string[],
    fields?: { chunk?: { text: string; message: unknown } },
  ): unknown;

  /**
   * One protocol event of a model call streamed for a handler that sets
   * `lc_prefer_chat_model_stream_events` (`{ event: "message-start", id }`,
   * `{ event: "content-block-delta", index, delta }`, …; a message-start without an id gets
   * `run-<runId>`).
   */
  handleChatModelStreamEvent?(event: unknown, runId: string, parentRunId?: string, tags?: string[]): unknown;

  /** A model call ends; `output.generations[0][0].message` is the final `AIMessage`. */
  handleLLMEnd?(
    output: {
      generations: {
        text: string;
        message: unknown;
        generationInfo?: Record<string, unknown> | undefined;
      }[][];
      llmOutput?: Record<string, unknown> | undefined;
    },
    runId: string,
    parentRunId?: string,
    tags?: string[],
    extraParams?: Record<string, unknown>,
  ): unknown;

  /** A model call fails. */
  handleLLMError?(
    error: unknown,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    extraParams?: Record<string, unknown>,
  ): unknown;

  /** A tool call starts. `input` is the JSON text of the arguments. */
  handleToolStart?(
    tool: { lc: number; type: string; id: string[] },
    input: string,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
    runName?: string,
    toolCallId?: string,
  ): unknown;

  /** A tool call ends with its output (a `ToolMessage`, a `Command`, or a raw value). */
  handleToolEnd?(output: unknown, runId: string, parentRunId?: string, tags?: string[]): unknown;

  /** A tool call fails. */
  handleToolError?(error: unknown, runId: string, parentRunId?: string, tags?: string[]): unknown;

  /**
   * A run reported a custom event (a model's `runManager.handleCustomEvent(name, data)`, as
   * LangChain.js's `FakeListChatModel` with `emitCustomEvent` does): its name and data, the run's
   * id, tags and metadata.
   */
  handleCustomEvent?(
    eventName: string,
    data: unknown,
    runId: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
  ): unknown;

  /** A tool's async generator yielded a value (its progress). */
  handleToolEvent?(data: unknown, runId: string, parentRunId?: string, tags?: string[]): unknown;

  /**
   * A graph run, or a node of it, starts (LangChain.js's chain callbacks). `chain.id` identifies
   * what runs; `runName` is the graph's or the node's name.
   */
  handleChainStart?(
    chain: { lc: number; type: string; id: string[]; name?: string },
    inputs: unknown,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
    runType?: string,
    runName?: string,
    extra?: Record<string, unknown>,
  ): unknown;

  /**
   * A graph run, or a node of it, ends with this output. `kwargs` is `undefined` (LangChain.js
   * passes a run's `{ inputs }` there only from runnables that stream, never from a graph's).
   */
  handleChainEnd?(
    outputs: unknown,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    kwargs?: { inputs?: Record<string, unknown> },
  ): unknown;

  /** A graph run, or a node of it, fails (`kwargs` as for {@link handleChainEnd}). */
  handleChainError?(
    error: unknown,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    kwargs?: { inputs?: Record<string, unknown> },
  ): unknown;
}

type HandlerArgs<K extends keyof CallbackHandler> =
  NonNullable<CallbackHandler[K]> extends (...args: infer A) => unknown ? A : never;

/** True when the list holds at least one handler. */
export function hasHandlers(
  handlers: readonly CallbackHandler[] | undefined,
): handlers is readonly CallbackHandler[] {
  return handlers !== undefined && handlers.length > 0;
}

/**
 * The run id each graph node is reported under to chain callbacks, while it runs (a fresh id per
 * run of the node, as in LangChain.js: a node resumed or retried is a new run), by its task's
 * `executionInfo` object: one of its own per task of a run, so two runs that run the same task id
 * at once (both resumed from one checkpoint) never read each other's. Written by the graph run
 * that reports its nodes; read by {@link parentRunIdOf}.
 */
export const NODE_RUN_IDS = new WeakMap<object, string>();

/**
 * Reports calls made with `copy`, a copy of a task's `executionInfo` made for one call inside the
 * task (the tools node gives each tool call its own idempotency key), under the node's run, as
 * calls made with the task's own: without it the tool's run hears the task id as its parent, a
 * run no handler heard start.
 *
 * @example
 * ```ts
 * const own = copyWith(info, "idempotencyKey", key);
 * shareNodeRun(own, info);
 * ```
 */
export function shareNodeRun(copy: object, original: object): void {
  const runId = NODE_RUN_IDS.get(original);
  if (runId !== undefined) NODE_RUN_IDS.set(copy, runId);
}

/**
 * Marks the config a tool run with handlers gives its function (and the ambient config it runs
 * in) with the tool's run id: calls made there are children of the tool's run, as in LangChain.js.
 */
export const TOOL_RUN_ID: unique symbol = Symbol.for("agentgraph.toolRunId") as never;

/**
 * The run a model or tool call made with `config` is part of, for its callbacks' `parentRunId`:
 * inside a graph node whose run has handlers (the graph's callbacks, or a stream's own), the
 * node's run (the id chain callbacks hear it start with, else its task's id), as LangChain.js
 * links a call to the node's run; inside a tool run with handlers, the tool's run. `undefined` anywhere else: outside a graph, or
 * in a graph run without handlers (a model's own callbacks then hear no parent, as in LangChain.js).
 */
export function parentRunIdOf(config: {
  callbacks?: readonly CallbackHandler[] | undefined;
}): string | undefined {
  // a call made in a tool run with handlers is the tool's child (its config, or the ambient one)
  const tool = (config as Record<symbol, unknown>)[TOOL_RUN_ID];
  if (typeof tool === "string") return tool;
  const info = (config as { executionInfo?: { taskId?: unknown } }).executionInfo;
  if (info === undefined) return undefined;
  const ambient = getAmbientConfig();
  if (ambient === undefined || !hasHandlers(ambient.callbacks)) return undefined;
  if (typeof info.taskId !== "string") return undefined;
  return NODE_RUN_IDS.get(info) ?? info.taskId;
}

/**
 * Calls `method` on every handler that defines it. A handler that throws (or rejects) never
 * breaks the call it observes: the failure is logged as LangChain.js logs it, with
 * `console.warn` (`console.error` for a handler with `raiseError: true`):
 * `Error in handler Handler, handleLLMEnd: Error: …` (`Handler` for a plain object without a
 * `name`, else the handler's class name, `Object` for a plain object with one). Where a
 * handler's failure may fail the call, see {@link notifyRaising}.
 */
export function notifyHandlers<K extends keyof CallbackHandler>(
  handlers: readonly CallbackHandler[] | undefined,
  method: K,
  ...args: HandlerArgs<K>
): void {
  if (handlers === undefined) return;
  dispatch(handlers, method, args, false);
}

/**
 * {@link notifyHandlers}, for a call that a handler with both `raiseError` and `awaitHandlers`
 * fails, as in LangChain.js: every handler is called, each failure logged, and when such a handler
 * was called the result waits for them and rejects with the first one's error (the call awaits
 * it). `undefined`, and nothing to wait for, when no such handler was called.
 *
 * @example
 * ```ts
 * const raised = notifyRaising(handlers, "handleToolEnd", output, runId, parentRunId, tags);
 * if (raised !== undefined) await raised;
 * ```
 */
export function notifyRaising<K extends keyof CallbackHandler>(
  handlers: readonly CallbackHandler[] | undefined,
  method: K,
  ...args: HandlerArgs<K>
): Promise<void> | undefined {
  if (handlers === undefined) return undefined;
  return dispatch(handlers, method, args, true);
}

function dispatch(
  handlers: readonly CallbackHandler[],
  method: keyof CallbackHandler,
  args: unknown[],
  raising: boolean,
): Promise<void> | undefined {
  const ignoredBy = IGNORED_BY[method];
  let awaited: unknown[] | undefined;
  for (const handler of handlers) {
    const fn = handler[method] as ((...a: unknown[]) => unknown) | undefined;
    if (typeof fn !== "function") continue;
    if (ignoredBy !== undefined && handler[ignoredBy] === true) continue;
    const raises = raising && handler.raiseError === true && raisesFor(handler);
    let result: unknown;
    try {
      result = fn.apply(handler, args);
    } catch (error) {
      reportHandlerError(handler, method, error);
      if (raises) awaited = waitFor(awaited, Promise.reject(error));
      continue;
    }
    if (!(result instanceof Promise)) continue;
    const logged = result.catch((error: unknown) => {
      reportHandlerError(handler, method, error);
      if (raises) throw error;
    });
    if (raises) awaited = waitFor(awaited, logged);
  }
  // LangChain.js waits for all of them, and fails with the first error
  return awaited === undefined ? undefined : Promise.all(awaited).then(() => undefined);
}

function waitFor(awaited: unknown[] | undefined, result: unknown): unknown[] {
  if (awaited === undefined) return [result];
  awaited.push(result);
  return awaited;
}

/**
 * Whether a handler with `raiseError` is awaited, so that its error fails the call (LangChain.js's
 * `awaitHandlers`; a plain object without a `name` is wrapped by LangChain.js in a handler that
 * reads it from `LANGCHAIN_CALLBACKS_BACKGROUND`).
 */
function raisesFor(handler: CallbackHandler): boolean {
  if (handler.awaitHandlers !== undefined) return handler.awaitHandlers === true;
  const ctor = (handler as { constructor?: unknown }).constructor;
  if (ctor !== Object || "name" in handler) return false;
  return typeof process !== "undefined" && process.env?.LANGCHAIN_CALLBACKS_BACKGROUND === "false";
}

/** The flag that keeps a handler from hearing a method (LangChain.js's `ignoreLLM`, …). */
const IGNORED_BY: Partial<Record<keyof CallbackHandler, "ignoreLLM" | "ignoreChain" | "ignoreAgent">> = {
  handleChatModelStart: "ignoreLLM",
  handleLLMStart: "ignoreLLM",
  handleLLMNewToken: "ignoreLLM",
  handleLLMEnd: "ignoreLLM",
  handleLLMError: "ignoreLLM",
  handleChainStart: "ignoreChain",
  handleChainEnd: "ignoreChain",
  handleChainError: "ignoreChain",
  handleToolStart: "ignoreAgent",
  handleToolEnd: "ignoreAgent",
  handleToolError: "ignoreAgent",
  handleToolEvent: "ignoreAgent",
};

function reportHandlerError(handler: CallbackHandler, method: string, error: unknown): void {
  const ctor = (handler as { constructor?: { name?: unknown } }).constructor;
  // LangChain.js wraps a plain object in a `Handler` class unless it has a `name` (then it is
  // used as it is, and named by its own constructor, `Object`)
  const wrapped = ctor === Object && !("name" in handler);
  const name = ctor === undefined || wrapped || typeof ctor.name !== "string" ? "Handler" : ctor.name;
  // LangChain.js names a chat model's start `handleLLMStart` in this message
  const reported = method === "handleChatModelStart" ? "handleLLMStart" : method;
  const log = (handler as { raiseError?: unknown }).raiseError === true ? console.error : console.warn;
  log(`Error in handler ${name}, ${reported}: ${String(error)}`);
}
