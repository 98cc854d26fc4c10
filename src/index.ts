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
import "./entries/index.js";
import "./chat-model-stream-output.js";
import type { BaseMessage } from "./messages/index.js";

declare module "./graph/builder/compiled-state-graph.js" {
  /** Messages streamed by `streamMode: "messages"` are `BaseMessage`s, as in LangGraph.js. */
  interface StreamMessageTypes {
    message: BaseMessage;
  }
}

export * from "./graph/index.js";
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
