import { type LangGraphRunnableConfig, pushTaskMessage } from "./graph/index.js";
import { type BaseMessage, type BaseMessageLike, coerceMessageLikeToMessage } from "./messages/index.js";
import { InvalidArgumentError } from "./shared/index.js";

/** Options of {@link pushMessage}: a config to merge over the node's, and the state key to write. */
export type PushMessageOptions = LangGraphRunnableConfig<unknown> & {
  /** The state key the message is written to (default `"messages"`); `null` streams it only. */
  stateKey?: string | null;
};

/**
 * Sends a message from inside a node (LangGraph.js `pushMessage`): it is streamed at once in
 * the `messages` stream mode, as a whole message with the node's metadata, and written to the
 * `messages` state key (or `stateKey`; `null` streams without writing) with the node's other
 * writes. The message needs an id. Returns the message (coerced from a message-like value).
 *
 * @example
 * ```ts
 * const node = async () => {
 *   pushMessage(new AIMessage({ content: "Looking that up…", id: "progress-1" }));
 *   return {};
 * };
 * ```
 */
export function pushMessage(
  message: BaseMessage | BaseMessageLike,
  options?: PushMessageOptions,
): BaseMessage {
  const { stateKey, ...config } = options ?? {};
  const valid = coerceMessageLikeToMessage(message);
  if (!valid.id) {
    throw new InvalidArgumentError(
      "Message ID is required. Give the message an id: new AIMessage({ content, id }).",
    );
  }
  pushTaskMessage(valid, stateKey === null ? undefined : (stateKey ?? "messages"), config);
  return valid;
}
