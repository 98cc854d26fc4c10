import { type CallbackHandler, hasHandlers, notifyHandlers, randomId } from "../shared/index.js";
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
  ) {}

  /** Reports progress data (what `runtime.writer` receives) to `handleToolEvent`. */
  handleToolEvent(data: unknown): void {
    notifyHandlers(this.handlers, "handleToolEvent", data, this.runId, this.toolCallId, this.toolName);
  }

  handleToolEnd(output: unknown): void {
    notifyHandlers(this.handlers, "handleToolEnd", output, this.runId, undefined, this.tags);
  }

  handleToolError(error: unknown): void {
    notifyHandlers(this.handlers, "handleToolError", error, this.runId, undefined, this.tags);
  }
}

/**
 * Starts a tool run when handlers listen (config callbacks first, then the tool's own):
 * calls `handleToolStart` with the JSON text of the arguments and returns the run, or
 * returns `undefined` without building anything.
 *
 * @example
 * ```ts
 * const run = startToolRun(config, this.callbacks, "get_weather", args, "call_1", "DynamicStructuredTool");
 * ```
 */
export function startToolRun(
  config: ToolRunnableConfig,
  own: readonly CallbackHandler[] | undefined,
  toolName: string,
  args: unknown,
  toolCallId: string | undefined,
  className: string,
): ToolRunManager | undefined {
  const handlers = [...(config.callbacks ?? []), ...(own ?? [])];
  if (!hasHandlers(handlers)) return undefined;
  const runId = config.runId ?? randomId();
  const run = new ToolRunManager(runId, handlers, config.tags, toolName, toolCallId);
  const input = typeof args === "string" ? args : JSON.stringify(args);
  notifyHandlers(
    handlers,
    "handleToolStart",
    { id: ["langchain", "tools", className], name: toolName },
    input ?? "",
    runId,
    undefined,
    config.tags,
    config.metadata,
    config.runName ?? toolName,
    toolCallId,
  );
  return run;
}
