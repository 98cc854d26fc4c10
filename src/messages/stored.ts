import type { BaseMessage, StoredMessage } from "./base.js";
import { coerceMessageLikeToMessage } from "./coerce.js";
import { isPlainRecord } from "./content.js";
import { MessageCoercionError } from "./errors.js";
import { reviveMessage } from "./revive.js";

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

/** The oldest stored form, `{ type, text }` (with `role` for a chat message), which LangChain.js reads. */
export interface LegacyStoredMessage {
  type: string;
  text: string;
  role?: string | undefined;
}

/** The types a stored message may have: LangChain.js's, and `"remove"` (which `toDict()` writes). */
const STORED_TYPES: ReadonlySet<string> = new Set([
  "human",
  "ai",
  "system",
  "function",
  "tool",
  "generic",
  "remove",
]);

/**
 * Rebuilds a message from its stored form `{ type, data }`, or the legacy `{ type, text }`
 * (LangChain.js `mapStoredMessageToChatMessage`). A `"generic"` message needs `data.role` and
 * a `"function"` one `data.name` and a `"tool"` one `data.tool_call_id`, as in LangChain.js.
 * Throws a `MessageCoercionError` for an unknown type (`Got unexpected type: user`, as in
 * LangChain.js; `"remove"` is read too) or a missing field.
 *
 * @example
 * ```ts
 * mapStoredMessageToChatMessage({ type: "ai", data: { content: "hello" } }); // AIMessage
 * mapStoredMessageToChatMessage({ type: "human", text: "hi" }); // HumanMessage "hi"
 * mapStoredMessageToChatMessage({ type: "generic", data: { content: "hi", role: "judge" } }); // ChatMessage
 * ```
 */
export function mapStoredMessageToChatMessage(message: StoredMessage | LegacyStoredMessage): BaseMessage {
  let stored = message as StoredMessage;
  if (
    (message as Partial<StoredMessage>).data === undefined &&
    typeof (message as LegacyStoredMessage).text === "string"
  ) {
    const legacy = message as LegacyStoredMessage;
    const data: Record<string, unknown> = { content: legacy.text };
    if (legacy.role !== undefined) data.role = legacy.role;
    stored = { type: legacy.type, data };
  }
  if (!STORED_TYPES.has(stored.type))
    throw new MessageCoercionError(`Got unexpected type: ${String(stored.type)}`);
  if (isPlainRecord(stored.data)) {
    // LangChain.js's checks and texts; the fields are then validated as any stored message's
    if (stored.type === "generic" && stored.data.role === undefined)
      throw new MessageCoercionError("Role must be defined for chat messages");
    if (stored.type === "function" && stored.data.name === undefined)
      throw new MessageCoercionError("Name must be defined for function messages");
    if (stored.type === "tool" && stored.data.tool_call_id === undefined)
      throw new MessageCoercionError("Tool call ID must be defined for tool messages");
    // a tool message stored with `tool_call_id: null` (a ToolNode's answer to a call without an
    // id) comes back as it was written
    if (stored.type === "generic" || stored.type === "function" || stored.type === "tool")
      return reviveMessage(stored);
  }
  return coerceMessageLikeToMessage(stored);
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
