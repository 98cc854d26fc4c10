import { Annotation, DeltaValue, Overwrite, ReducedValue, unwrapOverwrite } from "./graph/index.js";
import {
  type BaseMessage,
  type BaseMessageLike,
  chunkToMessage,
  coerceMessageLikeToMessage,
  isBaseMessage,
  isBaseMessageChunk,
  isRemoveMessage,
  type Messages,
  messagesStateReducer,
  REMOVE_ALL_MESSAGES,
} from "./messages/index.js";
import { type StandardSchemaLike, uniqueId } from "./shared/index.js";

/**
 * The state of a chat graph: a `messages` list merged with `messagesStateReducer` (append new
 * messages, replace by id, remove with `RemoveMessage`).
 *
 * @example
 * ```ts
 * const graph = new StateGraph(MessagesAnnotation)
 *   .addNode("chat", async (s) => ({ messages: [await model.invoke(s.messages)] }))
 *   .addEdge(START, "chat")
 *   .compile();
 * ```
 */
export const MessagesAnnotation = Annotation.Root({
  messages: Annotation<BaseMessage[], Messages>({
    reducer: messagesStateReducer,
    default: () => [],
  }),
});

/** A Standard Schema accepting any value, whose default (for a missing value) is `[]`. */
const messagesListSchema: StandardSchemaLike<BaseMessage[], BaseMessage[]> = {
  "~standard": {
    version: 1,
    vendor: "agentgraph",
    validate: (value) => ({ value: (value === undefined ? [] : value) as BaseMessage[] }),
  },
};

/** A Standard Schema accepting any value (the messages reducer coerces and checks updates). */
const messagesUpdateSchema: StandardSchemaLike<Messages, Messages> = {
  "~standard": { version: 1, vendor: "agentgraph", validate: (value) => ({ value: value as Messages }) },
};

/**
 * A {@link StateSchema} field holding a chat's messages (LangGraph.js `MessagesValue`): starts
 * as `[]`, merged with `messagesStateReducer`.
 *
 * @example
 * ```ts
 * const State = new StateSchema({ messages: MessagesValue, summary: z.string().default("") });
 * ```
 */
export const MessagesValue: ReducedValue<BaseMessage[], Messages> = new ReducedValue(messagesListSchema, {
  inputSchema: messagesUpdateSchema,
  reducer: messagesStateReducer,
  jsonSchemaExtra: { langgraph_type: "messages", description: "A list of chat messages" },
});

/** Where `DeltaChannel` looks for how a write to it gets message ids (see `channels/delta.ts`). */
const DELTA_WRITE_IDS = Symbol.for("agentgraph.delta_channel.write_ids");
/** LangGraph.js's brand of its messages delta reducer. */
const MESSAGES_DELTA_REDUCER = Symbol.for("langgraph.messages_delta_reducer");

/** Coerces one value to a message, and stores chunks as whole messages. */
function toWholeMessage(value: unknown): BaseMessage {
  const message = isBaseMessage(value) ? value : coerceMessageLikeToMessage(value as BaseMessageLike);
  return isBaseMessageChunk(message) ? chunkToMessage(message) : message;
}

/**
 * **Experimental.** The batch reducer of a messages `DeltaChannel` (LangGraph.js
 * `messagesDeltaReducer`, the reducer of {@link MessagesDeltaValue}). In one pass over the
 * step's writes (each a message-like or a list of them): messages are coerced (chunks become
 * whole messages), a message whose id is already there replaces it, a `RemoveMessage` deletes
 * its id (an unknown id is ignored), a `RemoveMessage` with id `REMOVE_ALL_MESSAGES` clears
 * everything before it, and other messages are appended. It is batching-invariant, as a
 * `DeltaChannel` requires.
 *
 * Called directly it assigns no ids (as in LangGraph.js); a `DeltaChannel` using it gives every
 * message written to it an id first.
 *
 * @example
 * ```ts
 * const State = Annotation.Root({ messages: new DeltaChannel(messagesDeltaReducer) });
 * ```
 */
export function messagesDeltaReducer(state: BaseMessage[], writes: Messages[]): BaseMessage[] {
  const incoming: BaseMessage[] = [];
  for (const write of writes) {
    if (Array.isArray(write)) for (const item of write) incoming.push(toWholeMessage(item));
    else incoming.push(toWholeMessage(write));
  }
  const current = state.length > 0 && isBaseMessage(state[0]) ? state : state.map(toWholeMessage);
  const result: (BaseMessage | null)[] = current.slice();
  if (incoming.length === 0) return result as BaseMessage[];
  const index = new Map<string, number>();
  for (let i = 0; i < current.length; i += 1) {
    const id = (current[i] as BaseMessage).id;
    if (id != null) index.set(id, i);
  }
  let removed = false;
  for (const message of incoming) {
    const id = message.id;
    if (isRemoveMessage(message) && id === REMOVE_ALL_MESSAGES) {
      result.length = 0;
      index.clear();
    } else if (id == null) {
      result.push(message);
    } else if (isRemoveMessage(message)) {
      const at = index.get(id);
      if (at !== undefined) {
        result[at] = null;
        index.delete(id);
        removed = true;
      }
    } else {
      const at = index.get(id);
      if (at !== undefined) result[at] = message;
      else {
        index.set(id, result.length);
        result.push(message);
      }
    }
  }
  return removed ? (result.filter((m) => m !== null) as BaseMessage[]) : (result as BaseMessage[]);
}

/** Plain message objects written to a messages delta channel, and their copies with an id. */
const plainWithIds = new WeakMap<object, object>();

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !("lc" in value);
}

/** A message-like (not in an `Overwrite`) with an id: a plain object stays plain, on a copy. */
function writtenWithId(item: unknown): unknown {
  if (!isPlainObject(item)) return messageWithId(item);
  const known = plainWithIds.get(item);
  if (known !== undefined) return known;
  let hasId: boolean;
  try {
    hasId = Boolean(coerceMessageLikeToMessage(item as unknown as BaseMessageLike).id);
  } catch {
    return item;
  }
  if (hasId) return item;
  const copy = { ...item, id: uniqueId() };
  plainWithIds.set(item, copy);
  return copy;
}

/** A message-like as a message with an id (a message keeps its object); others stay as they are. */
function messageWithId(item: unknown): unknown {
  if (isBaseMessage(item)) {
    if (item.id == null) item.id = uniqueId();
    return item;
  }
  let message: BaseMessage;
  try {
    message = coerceMessageLikeToMessage(item as BaseMessageLike);
  } catch {
    return item;
  }
  if (message.id == null || message.id === "") message.id = uniqueId();
  return message;
}

function mapItems(items: readonly unknown[], fn: (item: unknown) => unknown): readonly unknown[] {
  let mapped: unknown[] | undefined;
  for (let i = 0; i < items.length; i += 1) {
    const next = fn(items[i]);
    if (mapped === undefined && next !== items[i]) mapped = items.slice(0, i);
    mapped?.push(next);
  }
  return mapped ?? items;
}

/** A write to a messages delta channel, with an id on every message-like it holds. */
function deltaWriteWithIds(value: unknown): unknown {
  const overwrite = unwrapOverwrite(value);
  if (overwrite === undefined)
    return Array.isArray(value) ? mapItems(value, writtenWithId) : writtenWithId(value);
  if (!Array.isArray(overwrite.value)) return value;
  const items = mapItems(overwrite.value, messageWithId);
  return items === overwrite.value ? value : new Overwrite(items);
}

Object.defineProperty(messagesDeltaReducer, MESSAGES_DELTA_REDUCER, { value: true });
Object.defineProperty(messagesDeltaReducer, DELTA_WRITE_IDS, { value: deltaWriteWithIds });

/**
 * **Experimental.** A {@link StateSchema} field holding a chat's messages in a `DeltaChannel`
 * (LangGraph.js `MessagesDeltaValue`): starts as `[]`, merged with {@link messagesDeltaReducer};
 * every message written gets an id. A drop-in alternative to {@link MessagesValue}. In
 * LangGraph.js it saves storage on long threads; agentgraph stores every list linearly already,
 * so the two differ only in the reducer's rules (removing an unknown id is ignored here).
 *
 * @example
 * ```ts
 * const State = new StateSchema({ messages: MessagesDeltaValue });
 * ```
 */
export const MessagesDeltaValue: DeltaValue<BaseMessage[], Messages> = new DeltaValue(messagesListSchema, {
  inputSchema: messagesUpdateSchema,
  reducer: messagesDeltaReducer,
  jsonSchemaExtra: { langgraph_type: "messages", description: "A list of chat messages" },
});
