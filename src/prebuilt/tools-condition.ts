import { END } from "../graph/index.js";

interface MaybeCallingMessage {
  tool_calls?: readonly unknown[] | undefined;
}

/**
 * A conditional edge for the tool loop, as LangGraph.js's `toolsCondition`: `"tools"` when the
 * last message (of a message list, or of the state's `messages`) has tool calls, `END`
 * otherwise (also when there are no messages).
 *
 * @example
 * ```ts
 * new StateGraph(MessagesAnnotation)
 *   .addNode("agent", callModel)
 *   .addNode("tools", new ToolNode(tools))
 *   .addEdge(START, "agent")
 *   .addConditionalEdges("agent", toolsCondition, ["tools", END])
 *   .addEdge("tools", "agent");
 * ```
 */
export function toolsCondition(
  state: readonly unknown[] | { messages: readonly unknown[] },
): "tools" | typeof END {
  const messages = Array.isArray(state) ? state : (state as { messages: readonly unknown[] }).messages;
  const last = messages[messages.length - 1] as MaybeCallingMessage | undefined;
  const calls = typeof last === "object" && last !== null ? last.tool_calls : undefined;
  return Array.isArray(calls) && calls.length > 0 ? "tools" : END;
}
