import { type ToolCall, ToolMessage } from "../messages/index.js";
import { type ToolNodeErrorHandler, ToolNotFoundError, type WrapToolCall } from "../prebuilt/index.js";
import { hasErrorBrand } from "../shared/index.js";
import { ToolInputParsingException } from "../tools/index.js";
import { MiddlewareError, ToolInvocationError } from "./errors.js";

/** The text of a call to a tool the agent does not have (LangChain.js's text). */
export function invalidToolText(name: string, available: readonly string[]): string {
  return `Error: ${name} is not a valid tool, try one of [${available.join(", ")}].`;
}

function isParsingError(error: unknown): boolean {
  return error instanceof ToolInputParsingException || hasErrorBrand(error, "ToolInputParsingException");
}

function invalidToolMessage(call: ToolCall, available: readonly string[]): ToolMessage {
  return new ToolMessage({
    content: invalidToolText(call.name, available),
    tool_call_id: call.id ?? "",
    name: call.name,
    status: "error",
  });
}

/**
 * The innermost `wrapToolCall` layer of an agent with `wrapToolCall` middleware, as
 * LangChain.js's tools node behaves under middleware: a call to an unknown tool answers with
 * the "not a valid tool" message (the middleware sees a `ToolMessage`, not an error), and
 * arguments that do not match the tool's schema raise a {@link ToolInvocationError}.
 */
export function agentToolExecutor(available: readonly string[]): WrapToolCall {
  return (request, execute) => {
    if (request.tool === undefined) return Promise.resolve(invalidToolMessage(request.toolCall, available));
    return execute(request).catch((error: unknown) => {
      if (isParsingError(error)) throw new ToolInvocationError(error, request.toolCall);
      throw error;
    });
  };
}

/**
 * The outermost `wrapToolCall` layer of an agent with `wrapToolCall` middleware: the
 * middleware get a copy of the call (and of its `args`), so changing `request.toolCall` does
 * not change the AI message in the state (as in LangChain.js).
 */
export const isolateToolCall: WrapToolCall = (request, execute) => {
  const call = request.toolCall;
  return execute({ ...request, toolCall: { ...call, args: { ...call.args } } });
};

/**
 * How the agent's tools node reports tool errors, as LangChain.js's agent does: an unknown
 * tool gets `Error: x is not a valid tool, try one of [a, b].`; bad arguments the
 * {@link ToolInvocationError} text (also when the error passed through `wrapToolCall`
 * middleware); any other error `<String(error)>\n Please fix your mistakes.` when no middleware
 * wraps tool calls. Errors that leave `wrapToolCall` middleware (the tool's own included)
 * propagate and fail the run.
 */
export function agentToolErrorHandler(available: readonly string[], wrapped: boolean): ToolNodeErrorHandler {
  // a text answer becomes the error ToolMessage for the call (toolErrorResult)
  return (error, call) => {
    let root: unknown = error;
    while (root instanceof MiddlewareError) root = root.cause;
    if (root instanceof ToolInvocationError) return root.message;
    if (wrapped) throw error;
    if (error instanceof ToolNotFoundError) return invalidToolText(call.name, available);
    if (isParsingError(error)) return new ToolInvocationError(error, call).message;
    return `${String(error)}\n Please fix your mistakes.`;
  };
}
