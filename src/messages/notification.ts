/**
 * Notification metadata: marks a human message that the agent harness added rather than the
 * user typed (a background task's update, a conversation summary), as LangChain.js 1.4 does,
 * in `additional_kwargs.lc_source` (which feature) and `additional_kwargs.lc_data` (its fields).
 * The built-in chat models do not send these keys, so the model sees only the content. Anyone who can write to a thread can set these keys: never trust a message
 * because of them.
 */
import type { BaseMessage } from "./base.js";
import { HumanMessage } from "./human.js";

/**
 * Which feature added a message, and that feature's fields.
 *
 * @example
 * ```ts
 * const metadata: NotificationMetadata = { source: "async_subagent", data: { task_id: "t_42" } };
 * ```
 */
export interface NotificationMetadata {
  /** The feature that added the message, e.g. `"async_subagent"`. */
  source: string;
  /** The feature's fields (JSON-serializable). */
  data?: Record<string, unknown> | undefined;
}

/**
 * Returns a copy of `message` (a new `HumanMessage` with the same content, id, name and
 * response metadata) marked as added by the harness: `additional_kwargs.lc_source` is set to
 * `metadata.source`, and `additional_kwargs.lc_data` to a copy of `metadata.data` when given;
 * an earlier `lc_data` is dropped. The content is not changed.
 *
 * @example
 * ```ts
 * const note = addNotificationMetadata(new HumanMessage("Background task t_42 finished."), {
 *   source: "async_subagent",
 *   data: { task_id: "t_42", status: "success" },
 * });
 * note.additional_kwargs; // { lc_source: "async_subagent", lc_data: { task_id: "t_42", status: "success" } }
 * ```
 */
export function addNotificationMetadata(message: HumanMessage, metadata: NotificationMetadata): HumanMessage {
  const { lc_data: _previous, ...kwargs } = message.additional_kwargs ?? {};
  const additional_kwargs: Record<string, unknown> = { ...kwargs, lc_source: metadata.source };
  if (metadata.data !== undefined) additional_kwargs.lc_data = { ...metadata.data };
  return new HumanMessage({
    content: message.content,
    id: message.id,
    name: message.name,
    additional_kwargs,
    response_metadata: message.response_metadata,
  });
}

/**
 * The notification metadata of `message`: `{ source, data }` as {@link addNotificationMetadata}
 * set it, or `undefined` when `additional_kwargs.lc_source` is not a string. `data` is a copy
 * of `lc_data`, left out unless `lc_data` is a (non-array) object.
 *
 * @example
 * ```ts
 * getNotificationMetadata(note); // { source: "async_subagent", data: { task_id: "t_42", status: "success" } }
 * getNotificationMetadata(new HumanMessage("typed by the user")); // undefined
 * ```
 */
export function getNotificationMetadata(message: BaseMessage): NotificationMetadata | undefined {
  const source = message.additional_kwargs?.lc_source;
  if (typeof source !== "string") return undefined;
  const data = message.additional_kwargs?.lc_data;
  return typeof data === "object" && data !== null && !Array.isArray(data)
    ? { source, data: { ...data } }
    : { source };
}
