import { Annotation } from "./graph/index.js";
import { type BaseMessage, type Messages, messagesStateReducer } from "./messages/index.js";

/**
 * The state of a chat graph: a `messages` list merged with `messagesStateReducer` (append new
 * messages, replace by id, remove with `RemoveMessage`).
 *
 * @example
 * ```ts
 * const graph = new StateGraph(MessagesAnnotation)
 *   .addNode("chat", async (s) => ({ messages: [await model.invoke(s.messages)] }))
 *   .addEdge(START, "chat")
 *   .compile();
 * ```
 */
export const MessagesAnnotation = Annotation.Root({
  messages: Annotation<BaseMessage[], Messages>({
    reducer: messagesStateReducer,
    default: () => [],
  }),
});
