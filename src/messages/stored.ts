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

/** The oldest stored form, `{ type, text }`, which LangChain.js still reads. */
export interface LegacyStoredMessage {
  type: string;
  text: string;
  role?: string | undefined;
}

/**
 * Rebuilds a message from its stored form `{ type, data }`, or the legacy `{ type, text }`
 * (LangChain.js `mapStoredMessageToChatMessage`). Throws a `MessageCoercionError` for an
 * unknown type.
 *
 * @example
 * ```ts
 * mapStoredMessageToChatMessage({ type: "ai", data: { content: "hello" } }); // AIMessage
 * mapStoredMessageToChatMessage({ type: "human", text: "hi" }); // HumanMessage "hi"
 * ```
 */
export function mapStoredMessageToChatMessage(message: StoredMessage | LegacyStoredMessage): BaseMessage {
  if (
    (message as Partial<StoredMessage>).data === undefined &&
    typeof (message as LegacyStoredMessage).text === "string"
  ) {
    const stored: StoredMessage = {
      type: message.type,
      data: { content: (message as LegacyStoredMessage).text },
    };
    return coerceMessageLikeToMessage(stored);
  }
  return coerceMessageLikeToMessage(message as StoredMessage);
}

/**
 * Rebuilds messages from their stored forms (LangChain.js `mapStoredMessagesToChatMessages`).
 *
 * @example
 * ```ts
 * const history = mapStoredMessagesToChatMessages(JSON.parse(saved));
 * ```
 */
export function mapStoredMessagesToChatMessages(
  messages: readonly (StoredMessage | LegacyStoredMessage)[],
): BaseMessage[] {
  return messages.map((message) => mapStoredMessageToChatMessage(message));
}
