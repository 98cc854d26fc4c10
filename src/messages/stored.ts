import type { BaseMessage, StoredMessage } from "./base.js";
import { coerceMessageLikeToMessage } from "./coerce.js";

/**
 * The stored form of each message, `{ type, data }` (what `toDict()` returns), for chat-history
 * stores (LangChain.js `mapChatMessagesToStoredMessages`).
 *
 * @example
 * ```ts
 * mapChatMessagesToStoredMessages([new HumanMessage("hi")]);
 * // [{ type: "human", data: { content: "hi", additional_kwargs: {}, response_metadata: {} } }]
 * ```
 */
export function mapChatMessagesToStoredMessages(messages: readonly BaseMessage[]): StoredMessage[] {
  return messages.map((message) => message.toDict());
}

/**
 * Rebuilds a message from its stored form `{ type, data }` (LangChain.js
 * `mapStoredMessageToChatMessage`). Throws a `MessageCoercionError` for an unknown type.
 *
 * @example
 * ```ts
 * mapStoredMessageToChatMessage({ type: "ai", data: { content: "hello" } }); // AIMessage
 * ```
 */
export function mapStoredMessageToChatMessage(message: StoredMessage): BaseMessage {
  return coerceMessageLikeToMessage(message);
}

/**
 * Rebuilds messages from their stored forms (LangChain.js `mapStoredMessagesToChatMessages`).
 *
 * @example
 * ```ts
 * const history = mapStoredMessagesToChatMessages(JSON.parse(saved));
 * ```
 */
export function mapStoredMessagesToChatMessages(messages: readonly StoredMessage[]): BaseMessage[] {
  return messages.map(mapStoredMessageToChatMessage);
}
