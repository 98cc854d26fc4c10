import { AgentGraphError } from "../shared/index.js";

/**
 * Raised when a value cannot be turned into a message: an unknown role, a tool message
 * without `tool_call_id`, content that is neither a string nor an array, or a value of a
 * shape no message form matches. The message names what was received and lists the
 * accepted forms. Its `code` is `"MESSAGE_COERCION_FAILURE"`, the code LangChain.js uses.
 *
 * @example
 * ```ts
 * try {
 *   coerceMessageLikeToMessage({ role: "robot", content: "beep" });
 * } catch (e) {
 *   if (e instanceof MessageCoercionError) console.log(e.code); // "MESSAGE_COERCION_FAILURE"
 * }
 * ```
 */
export class MessageCoercionError extends AgentGraphError {
  static override readonly brandName: string = "MessageCoercionError";

  constructor(message: string) {
    super(message, { code: "MESSAGE_COERCION_FAILURE" });
  }
}

/**
 * Raised by {@link messagesStateReducer} when a `RemoveMessage` targets an id that is not in
 * the message list. The text is the one LangGraph.js uses:
 * `Attempting to delete a message with an ID that doesn't exist ('<id>')`.
 *
 * @example
 * ```ts
 * try {
 *   messagesStateReducer([], [new RemoveMessage({ id: "gone" })]);
 * } catch (e) {
 *   if (e instanceof MessageRemovalError) console.log(e.message);
 * }
 * ```
 */
export class MessageRemovalError extends AgentGraphError {
  static override readonly brandName: string = "MessageRemovalError";

  constructor(message: string) {
    super(message, { code: "MESSAGE_REMOVAL_FAILURE" });
  }
}

/**
 * Raised when two message chunks cannot be concatenated because the same metadata field
 * holds values of different types in each (for example a number in one chunk and a string
 * in the next). The text matches LangChain.js:
 * `field[<key>] already exists in the message chunk, but with a different type.`
 *
 * @example
 * ```ts
 * const a = new AIMessageChunk({ content: "", additional_kwargs: { n: 1 } });
 * const b = new AIMessageChunk({ content: "", additional_kwargs: { n: "one" } });
 * try { a.concat(b); } catch (e) { if (e instanceof MessageMergeError) console.log(e.message); }
 * ```
 */
export class MessageMergeError extends AgentGraphError {
  static override readonly brandName: string = "MessageMergeError";

  constructor(message: string) {
    super(message, { code: "MESSAGE_MERGE_FAILURE" });
  }
}

/**
 * Raised by {@link reviveMessage} when a stored value is not a serialized agentgraph message:
 * an unknown class id, a wrong envelope, or fields of the wrong type. Reviving never
 * instantiates anything but the message classes of this module, so a checkpoint holding an
 * unexpected id fails loudly instead of running foreign code.
 *
 * @example
 * ```ts
 * try {
 *   reviveMessage({ lc: 1, type: "constructor", id: ["evil", "Thing"], kwargs: {} });
 * } catch (e) {
 *   if (e instanceof MessageSerializationError) console.log(e.code); // "MESSAGE_SERIALIZATION_FAILURE"
 * }
 * ```
 */
export class MessageSerializationError extends AgentGraphError {
  static override readonly brandName: string = "MessageSerializationError";

  constructor(message: string) {
    super(message, { code: "MESSAGE_SERIALIZATION_FAILURE" });
  }
}
