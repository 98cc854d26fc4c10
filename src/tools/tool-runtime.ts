import { copyOf } from "../shared/index.js";
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
  // the config's fields, then the runtime's (see copyOf: a spread copy extended with them would
  // give every runtime a hidden class of its own)
  const runtime = copyOf(config) as unknown as ToolRuntime;
  runtime.state = config.state;
  runtime.context = config.context;
  // LangChain.js's type says `| null`, but a tool run without a store or writer finds
  // `undefined` there (the config's own, absent, fields): so does ours
  runtime.store = (config.store ?? undefined) as ToolRuntime["store"];
  runtime.writer = (writer ?? undefined) as ToolRuntime["writer"];
  runtime.toolCallId = config.toolCall?.id ?? "";
  runtime.config = config;
  if (config.toolCall !== undefined) runtime.toolCall = config.toolCall;
  return runtime;
}
