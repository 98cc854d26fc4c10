import { InvalidArgumentError } from "../shared/index.js";
import { BaseMessage, hasMessageType, markBuiltIn } from "./base.js";

/**
 * The id of a {@link RemoveMessage} that clears the whole list: the messages reducer keeps
 * only what follows it in the same update.
 *
 * @example
 * ```ts
 * return { messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), new HumanMessage("Start over")] };
 * ```
 */
export const REMOVE_ALL_MESSAGES = "__remove_all__";

/**
 * The fields of a remove message: the id of the message to delete.
 *
 * @example
 * ```ts
 * const fields: RemoveMessageFields = { id: "msg-42" };
 * ```
 */
export interface RemoveMessageFields {
  id: string;
  name?: string | undefined;
  additional_kwargs?: Record<string, unknown> | undefined;
  response_metadata?: Record<string, unknown> | undefined;
}

/**
 * An instruction to the messages reducer: delete the message with this `id` (or, with
 * {@link REMOVE_ALL_MESSAGES}, every message before it). Its content is always empty.
 *
 * @example
 * ```ts
 * // In a node: drop all but the last two messages.
 * return { messages: state.messages.slice(0, -2).map((m) => new RemoveMessage({ id: m.id! })) };
 * ```
 */
export class RemoveMessage extends BaseMessage {
  readonly type = "remove" as const;
  /** The id of the message to delete. */
  declare id: string;

  constructor(fields: RemoveMessageFields) {
    if (typeof fields?.id !== "string") {
      const got = fields?.id === undefined ? "undefined" : JSON.stringify(fields.id);
      throw new InvalidArgumentError(
        `RemoveMessage requires the string id of the message to delete, got ${got}. ` +
          "Use new RemoveMessage({ id: message.id }), or REMOVE_ALL_MESSAGES to clear the list.",
      );
    }
    super({ ...fields, content: [] });
  }

  static override lc_name(): string {
    return "RemoveMessage";
  }

  static override isInstance(value: unknown): value is RemoveMessage {
    return hasMessageType(value, "remove");
  }
}

markBuiltIn(RemoveMessage);

/**
 * True for a remove message, from any copy of agentgraph.
 *
 * @example
 * ```ts
 * isRemoveMessage(new RemoveMessage({ id: "m1" })); // true
 * ```
 */
export function isRemoveMessage(value: unknown): value is RemoveMessage {
  return hasMessageType(value, "remove");
}
