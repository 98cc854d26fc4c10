/**
 * agentgraph: durable LLM agents for TypeScript.
 *
 * This is the Node entry point. It installs `AsyncLocalStorage` as the engine's async-context
 * provider (so `getConfig()`, `interrupt()` and nested graphs work inside nodes), then exports
 * the graph engine together with the message vocabulary it is most often used with.
 *
 * @example
 * ```ts
 * import { StateGraph, MessagesAnnotation, START, END } from "agentgraph";
 * ```
 */
import { lazyMessagesZodState } from "./entries/index.js";
import type { AIMessage, BaseMessage } from "./messages/index.js";
import type { MessagesZodState as ZodMessagesZodState } from "./zod/index.js";

declare module "./graph/builder/compiled-state-graph.js" {
  /** Messages streamed by `streamMode: "messages"` are `BaseMessage`s, as in LangGraph.js. */
  interface StreamMessageTypes {
    message: BaseMessage;
  }
}

declare module "./graph/stream/chat-model-stream.js" {
  /** A v3 stream's assembled message (`await stream.output`) is an `AIMessage`, as in LangChain.js. */
  interface AssembledMessageTypes {
    message: AIMessage;
  }
}

export * from "./graph/index.js";
/**
 * A Zod state with just a `messages` list, the Zod twin of `MessagesAnnotation` (LangGraph.js
 * exports it from its root too). It needs `zod` 4 installed and is the same schema as
 * `agentgraph/zod`'s; the root builds it with the installed `zod` on first use, so importing
 * `agentgraph` does not load Zod.
 *
 * @example
 * ```ts
 * import { MessagesZodState, StateGraph, START } from "agentgraph";
 * const graph = new StateGraph(MessagesZodState).addNode("chat", chat).addEdge(START, "chat").compile();
 * ```
 */
export const MessagesZodState: typeof ZodMessagesZodState =
  lazyMessagesZodState as typeof ZodMessagesZodState;
export { MessageGraph } from "./message-graph.js";
export {
  addMessages,
  type Messages,
  MessagesZodMeta,
  messagesStateReducer,
  REMOVE_ALL_MESSAGES,
} from "./messages/index.js";
export {
  MessagesAnnotation,
  MessagesDeltaValue,
  MessagesValue,
  messagesDeltaReducer,
} from "./messages-annotation.js";
export { type PushMessageOptions, pushMessage } from "./push-message.js";
export {
  AgentGraphError,
  /** LangGraph.js's name for the base class of the engine's errors. */
  AgentGraphError as BaseLangGraphError,
  type CallbackHandler,
  InvalidArgumentError,
  type RunnableConfig,
} from "./shared/index.js";
