import { isCommand } from "../graph/index.js";
import { isToolMessage } from "../messages/index.js";
import type { ToolCallHandler, ToolCallRequest, ToolCallResult, WrapToolCall } from "../prebuilt/index.js";
import { InvalidArgumentError } from "../shared/index.js";
import { MiddlewareError } from "./errors.js";
import type { AnyAgentMiddleware, WrapToolCallHook } from "./types.js";

/**
 * A middleware's `wrapToolCall` as a ToolNode hook: errors it throws name the middleware
 * (errors that came up from the tool or an inner hook pass through unchanged), and what it
 * returns must be a `ToolMessage` or a `Command`.
 */
export function wrapToolCallChain(middleware: AnyAgentMiddleware): WrapToolCall {
  const wrap = middleware.wrapToolCall as unknown as WrapToolCallHook;
  return async (request: ToolCallRequest, execute: ToolCallHandler): Promise<ToolCallResult> => {
    const downstream = new Set<unknown>();
    const handler = async (next: ToolCallRequest): Promise<ToolCallResult> => {
      try {
        return await execute(next);
      } catch (error) {
        downstream.add(error);
        throw error;
      }
    };
    let result: unknown;
    try {
      result = await wrap(request as never, handler as never);
    } catch (error) {
      if (downstream.has(error)) throw error;
      throw MiddlewareError.wrap(error, middleware.name, "wrapToolCall");
    }
    if (!isToolMessage(result as never) && !isCommand(result)) {
      // a MiddlewareError, as in LangChain.js (the InvalidArgumentError as its cause)
      throw new MiddlewareError(
        new InvalidArgumentError(
          `Invalid response from "wrapToolCall" in middleware "${middleware.name}": expected ToolMessage or Command, got ${typeof result}`,
        ),
        middleware.name,
        "wrapToolCall",
      );
    }
    return result as ToolCallResult;
  };
}
