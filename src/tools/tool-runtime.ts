import type { ToolRunnableConfig, ToolRuntime } from "./types.js";

/**
 * Builds the `runtime` argument of a tool function from the config the tool was invoked
 * with: the config's own fields, plus `state`, `context`, `store`, `writer`, `toolCallId`,
 * `toolCall` and the `config` itself.
 *
 * @example
 * ```ts
 * const runtime = buildToolRuntime({ toolCall: call, context: { userId: "u1" } });
 * runtime.toolCallId; // call.id
 * ```
 */
export function buildToolRuntime(
  config: ToolRunnableConfig,
  writer: ((chunk: unknown) => void) | null = config.writer ?? null,
): ToolRuntime {
  const runtime: ToolRuntime = {
    ...config,
    state: config.state,
    context: config.context,
    store: config.store ?? null,
    writer,
    toolCallId: config.toolCall?.id ?? "",
    config,
  };
  if (config.toolCall !== undefined) runtime.toolCall = config.toolCall;
  return runtime;
}
