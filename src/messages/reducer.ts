import { uniqueId } from "../shared/index.js";
import type { BaseMessage } from "./base.js";
import { isBaseMessage, isBaseMessageChunk } from "./base.js";
import type { BaseMessageLike } from "./coerce.js";
import { coerceMessageLikeToMessage } from "./coerce.js";
import { chunkToMessage } from "./convert.js";
import { MessageRemovalError } from "./errors.js";
import { isRemoveMessage, REMOVE_ALL_MESSAGES } from "./remove.js";

/**
 * What the messages reducer accepts on either side: one message-like value or a list of them.
 *
 * @example
 * ```ts
 * const update: Messages = [{ role: "user", content: "Hi" }, new AIMessage("Hello")];
 * ```
 */
export type Messages = readonly BaseMessageLike[] | BaseMessageLike;

/** Coerces one value and stores chunks as whole messages. */
function toMessage(value: BaseMessage | BaseMessageLike): BaseMessage {
  if (isBaseMessage(value)) return isBaseMessageChunk(value) ? chunkToMessage(value) : value;
  return chunkToMessage(coerceMessageLikeToMessage(value));
}

/**
 * Coerces a side to messages and gives each one an id, in one pass. The given array is
 * reused when every item already is a whole message.
 */
function toMessages(side: Messages | null | undefined): readonly BaseMessage[] {
  if (side == null) return [];
  if (!Array.isArray(side)) return [withId(toMessage(side as BaseMessage | BaseMessageLike))];
  const list = side as readonly (BaseMessage | BaseMessageLike)[];
  let converted: BaseMessage[] | undefined;
  for (let i = 0; i < list.length; i += 1) {
    const item = list[i] as BaseMessage | BaseMessageLike;
    const message = withId(toMessage(item));
    if (converted === undefined && message !== item) converted = list.slice(0, i) as BaseMessage[];
    converted?.push(message);
  }
  return converted ?? (list as readonly BaseMessage[]);
}

/**
 * What the reducer knows about a list it built: its length then, and where each id sits (its
 * last occurrence, as LangGraph's map gives). A thread's history is merged once per update,
 * so re-checking and re-indexing the whole history every time would make a long thread
 * quadratic; with this a merge costs time in the size of the update alone.
 *
 * A list's index is shared with the lists built from it (appending only adds ids), so lists
 * branching from one history (an engine merges a node's update once for its conditional edges
 * and again at the step's end; parallel branches each merge their own) all record their
 * appended ids in it. An id keeps every position it was appended at (a number, or several when
 * branches put it at different places), so an id in a list always has its own position among
 * them. A position is checked before it is trusted: one inside the list that holds another id
 * (the list was reordered in place) falls back to a scan; when every position of an id lies
 * past the list's end, the id was appended by other branches only and is not in this list. An
 * id the index lacks is in none of the lists that share it. A list whose length changed since
 * it was built (a node pushed into it) is treated as unknown and checked again.
 */
interface ListIndex {
  readonly length: number;
  readonly positions: Map<string, number | number[]>;
}

const indexes = new WeakMap<readonly BaseMessage[], ListIndex>();

/** Below this many messages a list is scanned rather than indexed. */
const INDEX_FROM = 16;

function knownIndex(side: Messages | null | undefined): ListIndex | undefined {
  if (!Array.isArray(side)) return undefined;
  const index = indexes.get(side as unknown as readonly BaseMessage[]);
  return index !== undefined && index.length === side.length ? index : undefined;
}

function buildPositions(list: readonly BaseMessage[]): Map<string, number | number[]> {
  const positions = new Map<string, number | number[]>();
  for (let i = 0; i < list.length; i += 1) positions.set((list[i] as BaseMessage).id as string, i);
  return positions;
}

/** Records that `id` was appended at `at`, keeping the positions other branches gave it. */
function addPosition(positions: Map<string, number | number[]>, id: string, at: number): void {
  const known = positions.get(id);
  if (known === undefined) positions.set(id, at);
  else if (typeof known === "number") {
    if (known !== at) positions.set(id, [known, at]);
  } else if (!known.includes(at)) known.push(at);
}

function scan(list: readonly BaseMessage[], id: string): number | undefined {
  for (let i = list.length - 1; i >= 0; i -= 1) if ((list[i] as BaseMessage).id === id) return i;
  return undefined;
}

function withId(message: BaseMessage): BaseMessage {
  if (message.id == null) message.id = uniqueId();
  return message;
}

/**
 * The reducer of a `messages` state key (LangGraph's `messagesStateReducer`, also exported
 * as `addMessages`). It merges an update into the current list:
 *
 * 1. both sides are coerced to messages (a single value counts as a one-element list), and
 *    chunks are stored as whole messages;
 * 2. every message without an id gets one, a UUID (version 4 layout) no other message gets
 *    (see `uniqueId`; the message object itself is updated, on both sides, as in LangGraph);
 * 3. if the update holds a `RemoveMessage` with id {@link REMOVE_ALL_MESSAGES}, the result is
 *    only what follows the last such marker;
 * 4. otherwise each update message with a known id replaces that message in place, a
 *    `RemoveMessage` deletes it, and new messages are appended in order. Removing an id that
 *    is not there throws a {@link MessageRemovalError}.
 *
 * It never mutates the arrays it is given, and runs in time linear in both lists; merging into
 * a list it returned earlier (a thread's history, update after update) costs only the copy of
 * the array plus time in the size of the update. A missing side (`null` or `undefined`) counts
 * as `[]`.
 *
 * @example
 * ```ts
 * const state = [new HumanMessage({ content: "Hi", id: "1" })];
 * messagesStateReducer(state, new AIMessage({ content: "Hello", id: "2" })); // [Hi, Hello]
 * messagesStateReducer(state, new HumanMessage({ content: "Hey", id: "1" })); // [Hey]
 * messagesStateReducer(state, new RemoveMessage({ id: "1" })); // []
 * ```
 */
export function messagesStateReducer(left: Messages, right: Messages): BaseMessage[] {
  const known = knownIndex(left);
  const leftMessages = known === undefined ? toMessages(left) : (left as readonly BaseMessage[]);
  const rightMessages = toMessages(right);
  let removeAllIndex = -1;
  for (let i = 0; i < rightMessages.length; i += 1) {
    const message = rightMessages[i] as BaseMessage;
    if (message.id === REMOVE_ALL_MESSAGES && isRemoveMessage(message)) removeAllIndex = i;
  }
  if (removeAllIndex !== -1) return rightMessages.slice(removeAllIndex + 1);

  const positions =
    known?.positions ?? (leftMessages.length >= INDEX_FROM ? buildPositions(leftMessages) : undefined);
  // the update's new messages, appended at the end in one concat; the history is copied only
  // when a message in it is replaced
  const appended: BaseMessage[] = [];
  let replaced: BaseMessage[] | undefined;
  let removed: Set<string> | undefined;
  const size = leftMessages.length;
  /** Whether position `at` of history-then-appended holds `id`: "yes", "no", or "past" its end. */
  const holds = (at: number, id: string): "yes" | "no" | "past" => {
    const message = at < size ? (replaced ?? leftMessages)[at] : appended[at - size];
    return message === undefined ? "past" : message.id === id ? "yes" : "no";
  };
  /** Where `id` sits in history-then-appended (its last occurrence), if anywhere. */
  const find = (id: string): number | undefined => {
    if (positions !== undefined) {
      const known = positions.get(id);
      if (known === undefined) return undefined;
      let moved = false;
      if (typeof known === "number") {
        const held = holds(known, id);
        if (held === "yes") return known;
        moved = held === "no";
      } else {
        for (const at of known) {
          const held = holds(at, id);
          if (held === "yes") return at;
          if (held === "no") moved = true;
        }
      }
      // only other branches appended it
      if (!moved) return undefined;
    }
    for (let i = appended.length - 1; i >= 0; i -= 1)
      if ((appended[i] as BaseMessage).id === id) return size + i;
    return scan(replaced ?? leftMessages, id);
  };
  for (let i = 0; i < rightMessages.length; i += 1) {
    const message = rightMessages[i] as BaseMessage;
    const id = message.id as string;
    const existing = find(id);
    if (existing !== undefined) {
      if (isRemoveMessage(message)) {
        removed ??= new Set();
        removed.add(id);
      } else {
        removed?.delete(id);
        if (existing < size) {
          replaced ??= leftMessages.slice();
          replaced[existing] = message;
        } else appended[existing - size] = message;
      }
    } else {
      if (isRemoveMessage(message)) {
        throw new MessageRemovalError(
          `Attempting to delete a message with an ID that doesn't exist ('${id}')`,
        );
      }
      if (positions !== undefined) addPosition(positions, id, size + appended.length);
      appended.push(message);
    }
  }
  const merged =
    appended.length > 0 ? (replaced ?? leftMessages).concat(appended) : (replaced ?? leftMessages.slice());
  if (removed === undefined || removed.size === 0) {
    if (positions !== undefined) indexes.set(merged, { length: merged.length, positions });
    return merged;
  }
  const kept = removed;
  return merged.filter((message) => !kept.has(message.id as string));
}

/**
 * True when `list` is a list {@link messagesStateReducer} returned and still holds as many items
 * (a thread's history as its channel keeps it): every item is a whole message with an id, so a
 * receiver need not coerce them one by one. Short lists (which the reducer does not index) answer
 * false.
 */
export function isMergedMessageList(list: unknown): boolean {
  return knownIndex(list as Messages) !== undefined;
}

// Its result depends only on its arguments (an id it gives a message stays on the message), so a
// channel may keep a merge it computed early for the step's end: see the engine's
// `BinaryOperatorAggregate.rememberUpdate` (a registered symbol: this module does not import it).
Object.defineProperty(messagesStateReducer, Symbol.for("agentgraph.reducer.pure"), { value: true });
// It gives the messages of an update their ids in place, so the engine may give them those ids
// as soon as a task writes them (before streaming its update): see the engine's
// `BinaryOperatorAggregate.stampMessageIds`.
Object.defineProperty(messagesStateReducer, Symbol.for("agentgraph.reducer.stamps_message_ids"), {
  value: true,
});

/**
 * Alias of {@link messagesStateReducer}, under the name of Python LangGraph's `add_messages`.
 *
 * @example
 * ```ts
 * const next = addMessages(state.messages, [{ role: "user", content: "Thanks!" }]);
 * ```
 */
export const addMessages: typeof messagesStateReducer = messagesStateReducer;

/**
 * The state-field metadata of a `messages` list declared with Zod (merged with
 * {@link messagesStateReducer}, empty by default), as `@langchain/langgraph` exports it from its
 * root: `z.custom<BaseMessage[]>().register(registry, MessagesZodMeta)`. It needs no Zod, so the
 * root entry exports it without loading Zod; `agentgraph/zod` has it too.
 *
 * @example
 * ```ts
 * import { MessagesZodMeta } from "agentgraph";
 * import { registry } from "agentgraph/zod";
 * const State = z.object({ messages: z.custom<BaseMessage[]>().register(registry, MessagesZodMeta) });
 * ```
 */
export const MessagesZodMeta: {
  reducer: { fn: (left: BaseMessage[], right: Messages) => BaseMessage[] };
  jsonSchemaExtra: { langgraph_type: "messages" };
  default: () => BaseMessage[];
} = {
  reducer: { fn: messagesStateReducer },
  jsonSchemaExtra: { langgraph_type: "messages" },
  default: () => [],
};
