import { isGraphBubbleUp } from "../graph/index.js";
import { isToolMessage, type ToolCall, ToolMessage } from "../messages/index.js";
import { AgentGraphError, hasErrorBrand } from "../shared/index.js";

/**
 * A tool call named a tool the ToolNode does not have. With error handling on (the default),
 * the model receives `Error: Tool "<name>" not found.\n Please fix your mistakes.` instead.
 *
 * @example
 * ```ts
 * await new ToolNode([weather], { handleToolErrors: false }).invoke([aiCallingSearch]);
 * // throws ToolNotFoundError: Tool "search" not found.
 * ```
 */
export class ToolNotFoundError extends AgentGraphError {
  static override readonly brandName: string = "ToolNotFoundError";
  /** The name the tool call asked for. */
  readonly toolName: string;

  constructor(toolName: string) {
    super(`Tool "${toolName}" not found.`, { code: "TOOL_NOT_FOUND" });
    this.toolName = toolName;
  }
}

/**
 * Turns a tool error into what the model is told: text (the content of an error
 * `ToolMessage` answering the call) or a whole `ToolMessage`. It may throw to fail the run;
 * returning nothing (`undefined`) lets the original error fail the run, as in LangChain.js.
 *
 * @example
 * ```ts
 * const handler: ToolNodeErrorHandler = (error, call) => `${call.name} failed: ${String(error)}`;
 * ```
 */
export type ToolNodeErrorHandler = (
  error: unknown,
  toolCall: ToolCall,
) => string | ToolMessage | undefined | Promise<string | ToolMessage | undefined>;

/**
 * How a ToolNode reports tool errors to the model: `true` (the default) as
 * `Error: <message>\n Please fix your mistakes.`, a string sent instead of every error, a
 * function choosing the text or message, or `false` to let errors fail the run. Interrupts,
 * commands for a parent graph and aborts always propagate, whatever this says.
 *
 * @example
 * ```ts
 * new ToolNode(tools, { handleToolErrors: "The tool failed; try something else." });
 * ```
 */
export type HandleToolErrors = boolean | string | ToolNodeErrorHandler;

/**
 * The error `ToolMessage` for a failed call, per `handle`; rethrows when the error must
 * propagate (handling off, a control-flow signal or abort, or a handler function that returned
 * neither text nor a `ToolMessage`). A `ToolMessage` from the handler gets `status: "error"`
 * unless it has a status.
 */
export async function toolErrorResult(
  error: unknown,
  call: ToolCall,
  handle: HandleToolErrors,
  signal: AbortSignal | undefined,
): Promise<ToolMessage> {
  if (handle === false || mustPropagate(error, signal)) throw error;
  let answer: unknown;
  if (handle === true) answer = `Error: ${errorText(error)}\n Please fix your mistakes.`;
  else if (typeof handle === "string") answer = handle;
  else answer = await handle(error, call);
  if (isToolMessage(answer)) {
    if (answer.tool_call_id === "" && call.id !== undefined) answer.tool_call_id = call.id;
    if (answer.name === undefined) answer.name = call.name;
    // an answer to a failed call is an error answer unless the handler says otherwise (LangChain.js)
    if (answer.status === undefined) answer.status = "error";
    return answer;
  }
  // a handler that gives no answer (e.g. returns nothing) leaves the error unhandled, as in LangChain.js
  if (typeof answer !== "string") throw error;
  return new ToolMessage({
    content: answer,
    name: call.name,
    tool_call_id: call.id ?? "",
    status: "error",
  });
}

/** Interrupts, parent commands (also from other copies of the library) and aborts are not tool errors. */
function mustPropagate(error: unknown, signal: AbortSignal | undefined): boolean {
  if (isGraphBubbleUp(error)) return true;
  if (
    typeof error === "object" &&
    error !== null &&
    (error as { is_bubble_up?: unknown }).is_bubble_up === true
  )
    return true;
  if (hasErrorBrand(error, "AbortError")) return true;
  if (error instanceof Error && error.name === "AbortError") return true;
  return signal?.aborted === true;
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
