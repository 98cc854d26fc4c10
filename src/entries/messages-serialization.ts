/**
 * Registers the message classes with the checkpoint serializer, so messages in graph state,
 * pending writes, stores and caches come back as instances of their classes. The engine never
 * imports `messages/`; every Node entry point composes the two (see node-setup.ts).
 */
import { registerSerializable } from "../graph/index.js";
import {
  AIMessage,
  AIMessageChunk,
  BaseMessage,
  ChatMessage,
  ChatMessageChunk,
  FunctionMessage,
  FunctionMessageChunk,
  HumanMessage,
  HumanMessageChunk,
  isBaseMessage,
  RemoveMessage,
  type SerializableMessageClassName,
  SystemMessage,
  SystemMessageChunk,
  storedMessageFields,
  ToolMessage,
  ToolMessageChunk,
} from "../messages/index.js";
import { quickMessage } from "./message-quick-revive.js";

/** Stored form of a message: its class name and its constructor fields without empty defaults. */
type StoredMessageJson = [className: string, kwargs: Record<string, unknown>];

/** Fields that the message constructors default to an empty object or list. */
const EMPTY_DEFAULTS: ReadonlySet<string> = new Set([
  "additional_kwargs",
  "response_metadata",
  "tool_calls",
  "invalid_tool_calls",
  "tool_call_chunks",
]);

function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value !== "object" || value === null) return false;
  for (const _ in value) return false;
  return true;
}

const baseToJSON = BaseMessage.prototype.toJSON;

function encodeMessage(message: BaseMessage): StoredMessageJson {
  // toJSON()'s fields without building its wrapper and a compacted copy (a save encodes every new
  // message of a step, mostly before the engine optimizes this code); a class with a toJSON() of
  // its own is stored as that gives it
  if (message.toJSON === baseToJSON) {
    return [(message.constructor as typeof BaseMessage).lc_name(), storedMessageFields(message)];
  }
  const { id, kwargs } = message.toJSON();
  // A new object rather than `delete`: deleting keys would put it in V8's slow dictionary mode.
  const compact: Record<string, unknown> = {};
  for (const key in kwargs) {
    const value = kwargs[key];
    if (value === undefined) continue;
    if (EMPTY_DEFAULTS.has(key) && isEmpty(value)) continue;
    compact[key] = value;
  }
  return [id[id.length - 1] as string, compact];
}

type Fields = never;

/**
 * The classes stored data may name, and nothing else. The constructors are called directly
 * (they validate what they need: a tool message's `tool_call_id`, a remove message's `id`, a
 * chat message's `role`, a function message's `name`): `reviveMessage` re-validates every
 * field and costs several times more per message.
 */
const CLASSES: Readonly<Record<SerializableMessageClassName, new (fields: Fields) => BaseMessage>> = {
  HumanMessage,
  HumanMessageChunk,
  AIMessage,
  AIMessageChunk,
  SystemMessage,
  SystemMessageChunk,
  ToolMessage,
  ToolMessageChunk,
  RemoveMessage,
  ChatMessage,
  ChatMessageChunk,
  FunctionMessage,
  FunctionMessageChunk,
};

function decodeMessage(json: StoredMessageJson): BaseMessage {
  // indexed, not destructured: this runs once per message of a history read back
  const className = Array.isArray(json) ? json[0] : undefined;
  const kwargs = Array.isArray(json) ? json[1] : undefined;
  const fields =
    typeof kwargs === "object" && kwargs !== null && !Array.isArray(kwargs)
      ? (kwargs as Record<string, unknown>)
      : undefined;
  // the plain shapes of the common classes first: quickMessage checks every field it takes
  if (typeof className === "string" && fields !== undefined) {
    const quick = quickMessage(className, fields);
    if (quick !== undefined) return quick;
  }
  const MessageClass =
    typeof className === "string" && Object.hasOwn(CLASSES, className)
      ? CLASSES[className as SerializableMessageClassName]
      : undefined;
  if (MessageClass === undefined) {
    throw new Error(
      `unknown message class ${JSON.stringify(className)}; stored messages name one of ${Object.keys(CLASSES).join(", ")}`,
    );
  }
  if (fields === undefined) throw new Error(`the fields of a stored ${className} must be an object`);
  const content = fields.content;
  if (content !== undefined && typeof content !== "string" && !Array.isArray(content)) {
    throw new Error(`the content of a stored ${className} must be a string or an array`);
  }
  return new MessageClass(fields as Fields);
}

let registered = false;

/**
 * Teaches the serializer to round-trip the message classes (`HumanMessage`, `AIMessage`,
 * `AIMessageChunk`, `ToolMessage`, `ChatMessage`, `FunctionMessage`, …): each is stored
 * compactly as its class name and its constructor fields (empty defaults left out) and rebuilt as its constructor builds it (the
 * common classes in their plain shapes without running it: see message-quick-revive.ts); stored
 * data can only name a message class, so nothing else is ever built from it. Importing `agentgraph` calls it; calling it
 * again does nothing.
 *
 * @example
 * ```ts
 * registerMessageSerialization();
 * const text = defaultSerializer.encode([new HumanMessage("hi")]);
 * // '[{"~t":"msg","v":["HumanMessage",{"content":"hi"}]}]'
 * ```
 */
export function registerMessageSerialization(): void {
  if (registered) return;
  registerSerializable<BaseMessage, StoredMessageJson>({
    tag: "msg",
    test: isBaseMessage,
    encode: encodeMessage,
    decode: decodeMessage,
  });
  registered = true;
}
