import { z } from "zod";
import { AIMessage, isAIMessage, type ToolCall, ToolMessage } from "../../messages/index.js";
import { AgentGraphError, InvalidArgumentError } from "../../shared/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentMiddleware, AgentState } from "../types.js";

/** Count key of a limiter that counts every tool. */
const ALL_TOOLS = "__all__";

/**
 * What to do when a call would go over a limit: `"continue"` answers the blocked calls with
 * an error `ToolMessage` and lets the rest run; `"error"` throws
 * {@link ToolCallLimitExceededError}; `"end"` answers the blocked calls and ends the run.
 *
 * @example
 * ```ts
 * const behavior: ToolCallLimitExitBehavior = "end";
 * ```
 */
export type ToolCallLimitExitBehavior = "continue" | "error" | "end";

/**
 * Options of {@link toolCallLimitMiddleware}. At least one limit is required, and `runLimit`
 * may not exceed `threadLimit`.
 *
 * @example
 * ```ts
 * const options: ToolCallLimitMiddlewareConfig = { toolName: "search", threadLimit: 5, runLimit: 3 };
 * ```
 */
export interface ToolCallLimitMiddlewareConfig {
  /** Only count (and block) calls to this tool; every tool call when omitted. */
  toolName?: string;
  /** Most calls over the whole thread (counted across runs; needs a checkpointer to persist). */
  threadLimit?: number;
  /** Most calls in one run (one `invoke` or `stream`). */
  runLimit?: number;
  /** Default `"continue"`. */
  exitBehavior?: ToolCallLimitExitBehavior;
}

/**
 * The state fields the tool call limit keeps: calls per counted tool (by tool name, or
 * `"__all__"` for a limiter of every tool) in the thread and in the current run.
 *
 * @example
 * ```ts
 * const { threadToolCallCount } = await agent.invoke(input, config); // { search: 2 }
 * ```
 */
export interface ToolCallLimitState {
  threadToolCallCount: Record<string, number>;
  runToolCallCount: Record<string, number>;
}

function finalMessageText(
  threadCount: number,
  runCount: number,
  threadLimit: number | undefined,
  runLimit: number | undefined,
  toolName: string | undefined,
): string {
  const exceeded: string[] = [];
  if (threadLimit !== undefined && threadCount > threadLimit) {
    exceeded.push(`thread limit exceeded (${threadCount}/${threadLimit} calls)`);
  }
  if (runLimit !== undefined && runCount > runLimit)
    exceeded.push(`run limit exceeded (${runCount}/${runLimit} calls)`);
  return `${toolName === undefined ? "Tool" : `'${toolName}' tool`} call limit reached: ${exceeded.join(" and ")}.`;
}

/**
 * A tool call limit was exceeded with `exitBehavior: "error"`. The message says which limit,
 * e.g. `'search' tool call limit reached: thread limit exceeded (4/3 calls).`
 *
 * @example
 * ```ts
 * try {
 *   await agent.invoke(input);
 * } catch (error) {
 *   const cause = error instanceof Error ? error.cause : undefined;
 *   if (cause instanceof ToolCallLimitExceededError) console.log(cause.toolName, cause.threadCount);
 * }
 * ```
 */
export class ToolCallLimitExceededError extends AgentGraphError {
  static override readonly brandName: string = "ToolCallLimitExceededError";
  /** Calls counted in the thread, the blocked ones included. */
  readonly threadCount: number;
  /** Calls counted in the run, the blocked ones included. */
  readonly runCount: number;
  readonly threadLimit: number | undefined;
  readonly runLimit: number | undefined;
  /** The limited tool, or `undefined` for a limit on every tool. */
  readonly toolName: string | undefined;

  constructor(
    threadCount: number,
    runCount: number,
    threadLimit: number | undefined,
    runLimit: number | undefined,
    toolName: string | undefined = undefined,
  ) {
    super(finalMessageText(threadCount, runCount, threadLimit, runLimit, toolName), {
      code: "TOOL_CALL_LIMIT_EXCEEDED",
    });
    this.threadCount = threadCount;
    this.runCount = runCount;
    this.threadLimit = threadLimit;
    this.runLimit = runLimit;
    this.toolName = toolName;
  }
}

function validate(options: ToolCallLimitMiddlewareConfig): ToolCallLimitExitBehavior {
  const { threadLimit, runLimit } = options;
  if (threadLimit === undefined && runLimit === undefined) {
    throw new InvalidArgumentError("At least one limit must be specified (threadLimit or runLimit)");
  }
  const exitBehavior = options.exitBehavior ?? "continue";
  if (!["continue", "error", "end"].includes(exitBehavior)) {
    throw new InvalidArgumentError(
      `Invalid enum value. Expected 'continue' | 'error' | 'end', received '${String(exitBehavior)}'`,
    );
  }
  if (threadLimit !== undefined && runLimit !== undefined && runLimit > threadLimit) {
    throw new InvalidArgumentError(
      `runLimit (${runLimit}) cannot exceed threadLimit (${threadLimit}). The run limit should be less than or equal to the thread limit.`,
    );
  }
  return exitBehavior;
}

// plain last-value fields, as in LangChain.js: every hook update writes them back
const stateSchema = z.object({
  threadToolCallCount: z.record(z.string(), z.number()).default({}),
  runToolCallCount: z.record(z.string(), z.number()).default({}),
});

function lastAIMessage(messages: readonly unknown[]): AIMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (isAIMessage(message as never)) return message as AIMessage;
  }
  return undefined;
}

/** Names of the calls that would keep running when the limiter wants to end the run. */
function otherPendingTools(
  calls: readonly ToolCall[],
  allowed: readonly ToolCall[],
  toolName: string | undefined,
) {
  if (toolName !== undefined) return calls.filter((call) => call.name !== toolName);
  if (new Set(calls.map((call) => call.name).filter(Boolean)).size > 1)
    return allowed.length > 0 ? allowed : calls;
  return [];
}

/**
 * Limits tool calls, per thread and per run, for one tool (`toolName`) or for all, as
 * LangChain.js's `toolCallLimitMiddleware`. After each model call it counts the calls of the
 * last AI message; a call that would go over a limit is blocked: it is answered with
 * `ToolMessage("Tool call limit exceeded. Do not call 'search' again.", { status: "error" })`
 * (`"… Do not make additional tool calls."` without `toolName`) and never runs.
 * `exitBehavior` then decides: `"continue"` (default) lets the other calls run and the model
 * react; `"error"` throws {@link ToolCallLimitExceededError}; `"end"` also adds
 * `AIMessage("'search' tool call limit reached: run limit exceeded (2/1 calls).")` and ends the
 * run (it throws when calls to other tools are pending in the same message).
 *
 * Counts live in the state (`threadToolCallCount`, `runToolCallCount`, keyed by tool name or
 * `"__all__"`); the run count is reset when the run ends. Blocked calls count towards the run,
 * not the thread. Each limiter is named `ToolCallLimitMiddleware[<toolName>]` (or
 * `ToolCallLimitMiddleware`), so one agent can have a limiter per tool.
 *
 * @example
 * ```ts
 * import { createAgent, toolCallLimitMiddleware } from "agentgraph/agents";
 *
 * const agent = createAgent({
 *   model: "openai:gpt-4.1-mini",
 *   tools: [search, calculator],
 *   middleware: [
 *     toolCallLimitMiddleware({ threadLimit: 20, runLimit: 10 }),
 *     toolCallLimitMiddleware({ toolName: "search", runLimit: 3, exitBehavior: "end" }),
 *   ],
 * });
 * ```
 */
export function toolCallLimitMiddleware(
  options: ToolCallLimitMiddlewareConfig,
): AgentMiddleware<ToolCallLimitState, Record<string, unknown>> {
  const exitBehavior = validate(options ?? {});
  const { toolName, threadLimit, runLimit } = options;
  const key = toolName ?? ALL_TOOLS;
  const overLimit = (thread: number, run: number) =>
    (threadLimit !== undefined && thread + 1 > threadLimit) || (runLimit !== undefined && run + 1 > runLimit);

  const afterModel = (state: AgentState<ToolCallLimitState>) => {
    const message = lastAIMessage(state.messages);
    const calls = message?.tool_calls ?? [];
    if (message === undefined || calls.length === 0) return undefined;
    const threadCounts = { ...(state.threadToolCallCount ?? {}) };
    const runCounts = { ...(state.runToolCallCount ?? {}) };
    let thread = threadCounts[key] ?? 0;
    let run = runCounts[key] ?? 0;
    const allowed: ToolCall[] = [];
    const blocked: ToolCall[] = [];
    for (const call of calls) {
      if (toolName !== undefined && call.name !== toolName) continue;
      if (overLimit(thread, run)) {
        blocked.push(call);
      } else {
        allowed.push(call);
        thread += 1;
        run += 1;
      }
    }
    // blocked calls count towards the run (they were attempted in it), not the thread
    run += blocked.length;
    threadCounts[key] = thread;
    runCounts[key] = run;
    if (blocked.length === 0) {
      return allowed.length > 0
        ? { threadToolCallCount: threadCounts, runToolCallCount: runCounts }
        : undefined;
    }
    if (exitBehavior === "error") {
      throw new ToolCallLimitExceededError(thread + blocked.length, run, threadLimit, runLimit, toolName);
    }
    const text =
      toolName === undefined
        ? "Tool call limit exceeded. Do not make additional tool calls."
        : `Tool call limit exceeded. Do not call '${toolName}' again.`;
    const answers: Array<ToolMessage | AIMessage> = blocked.map(
      (call) =>
        new ToolMessage({ content: text, tool_call_id: call.id ?? "", name: call.name, status: "error" }),
    );
    if (exitBehavior === "continue") {
      return { threadToolCallCount: threadCounts, runToolCallCount: runCounts, messages: answers };
    }
    const others = otherPendingTools(calls, allowed, toolName);
    if (others.length > 0) {
      const names = [...new Set(others.map((call) => call.name).filter(Boolean))].join(", ");
      // a plain Error, as LangChain.js throws it
      throw new Error(
        `Cannot end execution with other tool calls pending. Found calls to: ${names}. Use 'continue' or 'error' behavior instead.`,
      );
    }
    answers.push(
      new AIMessage(finalMessageText(thread + blocked.length, run, threadLimit, runLimit, toolName)),
    );
    return {
      threadToolCallCount: threadCounts,
      runToolCallCount: runCounts,
      jumpTo: "end" as const,
      messages: answers,
    };
  };

  return createMiddleware({
    name: toolName === undefined ? "ToolCallLimitMiddleware" : `ToolCallLimitMiddleware[${toolName}]`,
    stateSchema,
    afterModel: { canJumpTo: ["end"], hook: afterModel },
    afterAgent: () => ({ runToolCallCount: {} }),
  });
}
