import type { Command } from "../graph/index.js";
import type { ToolCall, ToolMessage } from "../messages/index.js";
import type { StructuredToolInterface, ToolRuntime } from "../tools/index.js";

/**
 * One tool call as a {@link WrapToolCall} hook sees it: the call, the tool it names
 * (`undefined` when no tool of that name is registered), the graph state and the runtime the
 * tool will receive. Hand a modified copy to `execute` to change what runs.
 *
 * @example
 * ```ts
 * const shout: WrapToolCall = (request, execute) =>
 *   execute({ ...request, toolCall: { ...request.toolCall, args: { text: "LOUD" } } });
 * ```
 */
export interface ToolCallRequest<State = unknown, Context = unknown> {
  toolCall: ToolCall;
  tool: StructuredToolInterface | undefined;
  state: State;
  runtime: ToolRuntime<State, Context>;
}

/**
 * What one tool call produces: a `ToolMessage` answering it, or a `Command` (which updates
 * state and may route).
 *
 * @example
 * ```ts
 * const result: ToolCallResult = new ToolMessage({ content: "42", tool_call_id: "call_1" });
 * ```
 */
export type ToolCallResult = ToolMessage | Command;

/**
 * Runs a tool call and resolves to its result. It throws what the tool throws (an unknown
 * tool, bad arguments, the tool's own errors), so that a hook can retry or translate errors;
 * what escapes every hook is handled by the ToolNode's `handleToolErrors`.
 *
 * @example
 * ```ts
 * const result = await execute(request); // ToolMessage or Command
 * ```
 */
export type ToolCallHandler<State = unknown, Context = unknown> = (
  request: ToolCallRequest<State, Context>,
) => Promise<ToolCallResult>;

/**
 * A hook around each tool call of a ToolNode (what `createAgent` middleware's `wrapToolCall`
 * builds on). It receives the request and `execute`, and may call `execute` once (pass-through
 * or rewritten arguments), several times (retries), or not at all (return its own result), and
 * may rewrite the result.
 *
 * @example
 * ```ts
 * const retryOnce: WrapToolCall = async (request, execute) => {
 *   try {
 *     return await execute(request);
 *   } catch {
 *     return execute(request);
 *   }
 * };
 * new ToolNode(tools, { wrapToolCall: retryOnce });
 * ```
 */
export type WrapToolCall<State = unknown, Context = unknown> = (
  request: ToolCallRequest<State, Context>,
  execute: ToolCallHandler<State, Context>,
) => ToolCallResult | Promise<ToolCallResult>;

/**
 * Composes hooks into one, the first outermost: `chainWrapToolCall(a, b)` runs `a`, whose
 * `execute` runs `b`, whose `execute` runs the tool. With no hooks, the result just executes.
 *
 * @example
 * ```ts
 * new ToolNode(tools, { wrapToolCall: chainWrapToolCall(logCalls, retryOnce) });
 * ```
 */
export function chainWrapToolCall<State = unknown, Context = unknown>(
  ...hooks: WrapToolCall<State, Context>[]
): WrapToolCall<State, Context> {
  return (request, execute) => {
    const run = async (index: number, current: ToolCallRequest<State, Context>): Promise<ToolCallResult> => {
      const hook = hooks[index];
      if (hook === undefined) return execute(current);
      return hook(current, (next) => run(index + 1, next));
    };
    return run(0, request);
  };
}
