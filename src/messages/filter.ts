import type { BaseMessage } from "./base.js";
import type { BaseMessageLike } from "./coerce.js";
import { coerceMessageLikeToMessage } from "./coerce.js";
import type { MessageTypeOrClass } from "./message-types.js";
import { toTypeSet } from "./message-types.js";
import type { MessagesTransformer } from "./trim.js";
import { messagesTransformer } from "./trim.js";

/**
 * Options of {@link filterMessages}. Exclusions win; when any `include*` option is given, a
 * message must match at least one of them.
 *
 * @example
 * ```ts
 * const options: FilterMessagesOptions = { includeTypes: ["human", "ai"], excludeNames: ["debug"] };
 * ```
 */
export interface FilterMessagesOptions {
  includeNames?: readonly string[] | undefined;
  excludeNames?: readonly string[] | undefined;
  includeTypes?: readonly MessageTypeOrClass[] | undefined;
  excludeTypes?: readonly MessageTypeOrClass[] | undefined;
  includeIds?: readonly string[] | undefined;
  excludeIds?: readonly string[] | undefined;
}

function filterWith(options: FilterMessagesOptions): (messages: BaseMessage[]) => BaseMessage[] {
  const includeTypes = toTypeSet(options.includeTypes);
  const excludeTypes = toTypeSet(options.excludeTypes);
  const includeNames = options.includeNames && new Set(options.includeNames);
  const excludeNames = options.excludeNames && new Set(options.excludeNames);
  const includeIds = options.includeIds && new Set(options.includeIds);
  const excludeIds = options.excludeIds && new Set(options.excludeIds);
  const hasInclude = includeTypes !== undefined || includeNames !== undefined || includeIds !== undefined;
  return (messages) =>
    messages.filter((m) => {
      if (excludeNames && m.name && excludeNames.has(m.name)) return false;
      if (excludeTypes?.has(m.type)) return false;
      if (excludeIds && m.id && excludeIds.has(m.id)) return false;
      if (!hasInclude) return true;
      return Boolean(
        (includeNames && m.name && includeNames.has(m.name)) ||
          includeTypes?.has(m.type) ||
          (includeIds && m.id && includeIds.has(m.id)),
      );
    });
}

/**
 * Keeps the messages that match by name, type or id (see {@link FilterMessagesOptions}).
 * Called with options alone it returns a reusable transformer.
 *
 * @example
 * ```ts
 * filterMessages(messages, { includeTypes: ["human"], excludeIds: ["m3"] });
 * const onlyUsers = filterMessages({ includeTypes: [HumanMessage] });
 * onlyUsers(messages);
 * ```
 */
export function filterMessages(
  messages: readonly BaseMessageLike[],
  options?: FilterMessagesOptions,
): BaseMessage[];
export function filterMessages(options?: FilterMessagesOptions): MessagesTransformer<BaseMessage[]>;
export function filterMessages(
  messagesOrOptions?: readonly BaseMessageLike[] | FilterMessagesOptions,
  options?: FilterMessagesOptions,
): BaseMessage[] | MessagesTransformer<BaseMessage[]> {
  if (Array.isArray(messagesOrOptions)) {
    const list = messagesOrOptions as readonly BaseMessageLike[];
    return filterWith(options ?? {})(list.map(coerceMessageLikeToMessage));
  }
  return messagesTransformer(filterWith((messagesOrOptions as FilterMessagesOptions | undefined) ?? {}));
}
