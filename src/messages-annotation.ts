import { Annotation, ReducedValue } from "./graph/index.js";
import { type BaseMessage, type Messages, messagesStateReducer } from "./messages/index.js";
import type { StandardSchemaLike } from "./shared/index.js";

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

/** A Standard Schema accepting any value, whose default (for a missing value) is `[]`. */
const messagesListSchema: StandardSchemaLike<BaseMessage[], BaseMessage[]> = {
  "~standard": {
    version: 1,
    vendor: "agentgraph",
    validate: (value) => ({ value: (value === undefined ? [] : value) as BaseMessage[] }),
  },
};

/** A Standard Schema accepting any value (the messages reducer coerces and checks updates). */
const messagesUpdateSchema: StandardSchemaLike<Messages, Messages> = {
  "~standard": { version: 1, vendor: "agentgraph", validate: (value) => ({ value: value as Messages }) },
};

/**
 * A {@link StateSchema} field holding a chat's messages (LangGraph.js `MessagesValue`): starts
 * as `[]`, merged with `messagesStateReducer`.
 *
 * @example
 * ```ts
 * const State = new StateSchema({ messages: MessagesValue, summary: z.string().default("") });
 * ```
 */
export const MessagesValue: ReducedValue<BaseMessage[], Messages> = new ReducedValue(messagesListSchema, {
  inputSchema: messagesUpdateSchema,
  reducer: messagesStateReducer,
  jsonSchemaExtra: { langgraph_type: "messages", description: "A list of chat messages" },
});
