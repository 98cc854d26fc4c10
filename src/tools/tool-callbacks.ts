import {
  type CallbackHandler,
  hasHandlers,
  notifyRaising,
  parentRunIdOf,
  randomId,
} from "../shared/index.js";
import type { ToolRunnableConfig } from "./types.js";

/**
 * The callback run of one tool invocation: handed to `_call` as its `runManager`. Only built
 * when a handler is listening.
 *
 * @example
 * ```ts
 * protected async _call(args: Args, runManager?: ToolRunManager) {
 *   runManager?.handleToolEvent({ progress: 0.5 });
 * }
 * ```
 */
export class ToolRunManager {
  constructor(
    readonly runId: string,
    readonly handlers: readonly CallbackHandler[],
    readonly tags: string[] | undefined,
    readonly toolName: string,
    readonly toolCallId: string | undefined,
    /** The run this call is part of: the graph node's it runs in (see `parentRunIdOf`). */
    readonly parentRunId?: string,
  ) {}

  /**
   * Handlers with `raiseError` and `awaitHandlers` that heard the tool start: the tool runs once
   * they are done, and not at all when one fails (the call fails with its error, as in LangChain.js).
   */
  startRaised: Promise<void> | undefined;

  /**
   * Reports a value the tool's generator yielded to `handleToolEvent(data, runId, parentRunId,
   * tags)`. As in LangChain.js, a handler that fails here is not logged, unless it has
   * `raiseError: true`: its error is then reported to every handler's `handleToolError`, and the
   * tool goes on.
   */
  handleToolEvent(data: unknown): void {
    for (const handler of this.handlers) {
      const fn = handler.handleToolEvent;
      if (typeof fn !== "function" || handler.ignoreAgent === true) continue;
      const raised = (error: unknown) => {
        // (logged there; it does not fail the tool, whose generator goes on)
        if (handler.raiseError === true) this.handleToolError(error)?.catch(() => {});
      };
      try {
        const result: unknown = fn.call(handler, data, this.runId, this.parentRunId, this.tags);
        if (result instanceof Promise) result.catch(raised);
      } catch (error) {
        raised(error);
      }
    }
  }

  /**
   * Reports the tool's output; what a handler with `raiseError` and `awaitHandlers` makes of it
   * is to wait for (its error fails the call), `undefined` when there is none.
   */
  handleToolEnd(output: unknown): Promise<void> | undefined {
    return notifyRaising(this.handlers, "handleToolEnd", output, this.runId, this.parentRunId, this.tags);
  }

  /** Reports the tool's failure (see {@link handleToolEnd} for the result). */
  handleToolError(error: unknown): Promise<void> | undefined {
    return notifyRaising(this.handlers, "handleToolError", error, this.runId, this.parentRunId, this.tags);
  }
}

/**
 * Starts a tool run when handlers listen (config callbacks first, then the tool's own):
 * calls `handleToolStart` with the JSON text of the arguments and returns the run, or
 * returns `undefined` without building anything.
 *
 * @example
 * ```ts
 * const run = startToolRun(config, this, args, "call_1", "DynamicStructuredTool");
 * ```
 */
export function startToolRun(
  config: ToolRunnableConfig,
  tool: ToolRunOwner,
  args: unknown,
  toolCallId: string | undefined,
  className: string,
): ToolRunManager | undefined {
  const handlers = [...(config.callbacks ?? []), ...(tool.callbacks ?? [])];
  if (!hasHandlers(handlers)) return undefined;
  const toolName = tool.name;
  const runId = config.runId ?? randomId();
  // the config's tags and metadata, then the tool's own (LangChain.js's order)
  const tags = mergeTags(config.tags, tool.tags);
  const metadata =
    tool.metadata === undefined || config.metadata === undefined
      ? (tool.metadata ?? config.metadata)
      : { ...config.metadata, ...tool.metadata };
  const parentRunId = parentRunIdOf(config);
  const run = new ToolRunManager(runId, handlers, tags, toolName, toolCallId, parentRunId);
  const input = typeof args === "string" ? args : JSON.stringify(args);
  const serialized = { lc: 1, type: "not_implemented", id: ["langchain", "tools", className] };
  // LangChain.js's tracers (LangSmith's `LangChainTracer`) record a tool run from the arguments
  // object before they hear its start as JSON text: a run traced as `{ q }`, not `{ input }`
  if (typeof args === "object" && args !== null && !Array.isArray(args))
    for (const handler of handlers)
      recordTracerToolRun(
        handler,
        serialized,
        args,
        runId,
        parentRunId,
        tags,
        metadata,
        config.runName,
        toolCallId,
      );
  run.startRaised = notifyRaising(
    handlers,
    "handleToolStart",
    // the tool as LangChain.js serializes it (its name is the run name below)
    serialized,
    // no arguments at all: `undefined`, as LangChain.js passes `JSON.stringify(undefined)`
    input as string,
    runId,
    parentRunId,
    tags,
    metadata,
    config.runName,
    toolCallId,
  );
  return run;
}

/**
 * Has a LangChain.js tracer (a `BaseTracer`, known by its `_addRunToRunMap`) record the tool's
 * run from its arguments as given, as LangChain.js's callback manager does before it reports the
 * start; the tracer's `handleToolStart` then finds the run it recorded.
 */
function recordTracerToolRun(handler: CallbackHandler, ...args: unknown[]): void {
  const tracer = handler as {
    _addRunToRunMap?: unknown;
    _createRunForToolStart?: unknown;
    ignoreAgent?: unknown;
  };
  if (typeof tracer._addRunToRunMap !== "function" || tracer.ignoreAgent === true) return;
  if (typeof tracer._createRunForToolStart !== "function") return;
  try {
    tracer._createRunForToolStart(...args);
  } catch {
    // then the tracer records the run itself when it hears the start
  }
}

/** What a tool run reads from its tool. */
export interface ToolRunOwner {
  readonly name: string;
  readonly callbacks?: readonly CallbackHandler[] | undefined;
  readonly tags?: readonly string[] | undefined;
  readonly metadata?: Record<string, unknown> | undefined;
}

function mergeTags(
  inherited: readonly string[] | undefined,
  own: readonly string[] | undefined,
): string[] | undefined {
  // no tags at all: `[]`, as LangChain.js's callback manager reports them
  if (own === undefined || own.length === 0) return inherited === undefined ? [] : (inherited as string[]);
  if (inherited === undefined || inherited.length === 0) return [...own];
  const out = [...inherited];
  for (const tag of own) if (!out.includes(tag)) out.push(tag);
  return out;
}
