import { AIMessage, AIMessageChunk } from "./ai.js";
import type { AdditionalKwargs, BaseMessage, ResponseMetadata, SerializedMessage } from "./base.js";
import { ChatMessage, ChatMessageChunk } from "./chat.js";
import type { ContentBlock, MessageContent } from "./content.js";
import { isPlainRecord } from "./content.js";
import { MessageSerializationError } from "./errors.js";
import { FunctionMessage, FunctionMessageChunk } from "./function.js";
import { HumanMessage, HumanMessageChunk } from "./human.js";
import { RemoveMessage } from "./remove.js";
import { SystemMessage, SystemMessageChunk } from "./system.js";
import { ToolMessage, ToolMessageChunk } from "./tool.js";
import type { InvalidToolCall, ToolCall, ToolCallChunk } from "./tool-calls.js";
import type { UsageMetadata } from "./usage.js";

/**
 * The name of every message class that {@link reviveMessage} can rebuild.
 *
 * @example
 * ```ts
 * const name: SerializableMessageClassName = "AIMessageChunk";
 * ```
 */
export type SerializableMessageClassName =
  | "HumanMessage"
  | "HumanMessageChunk"
  | "AIMessage"
  | "AIMessageChunk"
  | "SystemMessage"
  | "SystemMessageChunk"
  | "ToolMessage"
  | "ToolMessageChunk"
  | "RemoveMessage"
  | "ChatMessage"
  | "ChatMessageChunk"
  | "FunctionMessage"
  | "FunctionMessageChunk";

type Kwargs = Record<string, unknown>;

function fail(reason: string): never {
  throw new MessageSerializationError(
    `Cannot revive a message: ${reason} Only agentgraph/LangChain message classes (${Object.keys(
      BUILDERS,
    ).join(
      ", ",
    )}) serialized as { lc: 1, type: "constructor", id, kwargs } or { type, data } can be revived.`,
  );
}

function content(kwargs: Kwargs): MessageContent {
  const value = kwargs.content;
  if (value == null) return [];
  if (typeof value === "string" || Array.isArray(value)) return value as MessageContent;
  return fail(`"content" must be a string or an array, got ${typeof value}.`);
}

function optionalString(kwargs: Kwargs, key: string): string | undefined {
  const value = kwargs[key];
  if (value == null) return undefined;
  if (typeof value === "string") return value;
  return fail(`"${key}" must be a string, got ${typeof value}.`);
}

function optionalRecord<T>(kwargs: Kwargs, key: string): T | undefined {
  const value = kwargs[key];
  if (value == null) return undefined;
  if (isPlainRecord(value)) return value as T;
  return fail(`"${key}" must be an object, got ${Array.isArray(value) ? "an array" : typeof value}.`);
}

function optionalRecords<T>(
  kwargs: Kwargs,
  key: string,
  check?: (entry: Kwargs) => boolean,
): T[] | undefined {
  const value = kwargs[key];
  if (value == null) return undefined;
  if (!Array.isArray(value)) return fail(`"${key}" must be an array, got ${typeof value}.`);
  for (const entry of value) {
    if (!isPlainRecord(entry) || (check !== undefined && !check(entry))) {
      return fail(`"${key}" holds an entry of the wrong shape: ${JSON.stringify(entry)}.`);
    }
  }
  return value as T[];
}

const isToolCall = (entry: Kwargs): boolean => typeof entry.name === "string" && isPlainRecord(entry.args);

function common(kwargs: Kwargs) {
  // a message LangChain.js built from content blocks is written with `content_blocks` alone
  const blocks = kwargs.content === undefined && Array.isArray(kwargs.content_blocks);
  return {
    ...(blocks ? { contentBlocks: kwargs.content_blocks as ContentBlock[] } : { content: content(kwargs) }),
    id: optionalString(kwargs, "id"),
    name: optionalString(kwargs, "name"),
    additional_kwargs: optionalRecord<AdditionalKwargs>(kwargs, "additional_kwargs"),
    response_metadata: optionalRecord<ResponseMetadata>(kwargs, "response_metadata"),
  };
}

function aiFields(kwargs: Kwargs) {
  return {
    ...common(kwargs),
    tool_calls: optionalRecords<ToolCall>(kwargs, "tool_calls", isToolCall),
    invalid_tool_calls: optionalRecords<InvalidToolCall>(kwargs, "invalid_tool_calls"),
    usage_metadata: optionalRecord<UsageMetadata>(kwargs, "usage_metadata"),
  };
}

/** A tool message's `metadata`: a plain object, or absent. */
function optionalMetadata(value: unknown): Record<string, unknown> | undefined {
  if (value == null) return undefined;
  if (!isPlainRecord(value)) fail('"metadata" must be an object.');
  return value;
}

function toolFields(kwargs: Kwargs) {
  const id = kwargs.tool_call_id;
  // null: the answer a ToolNode gave a call without an id (stored as null, see serializedKwargs)
  if (id !== null && typeof id !== "string" && typeof id !== "number")
    fail('a tool message needs a string "tool_call_id".');
  const status = kwargs.status;
  if (status != null && status !== "success" && status !== "error") {
    fail(`"status" must be "success" or "error", got ${JSON.stringify(status)}.`);
  }
  return {
    ...common(kwargs),
    tool_call_id: id === null ? (id as unknown as string) : String(id),
    status: status === "error" ? ("error" as const) : status === "success" ? ("success" as const) : undefined,
    artifact: kwargs.artifact,
    metadata: optionalMetadata(kwargs.metadata),
  };
}

function chatFields(kwargs: Kwargs) {
  const role = optionalString(kwargs, "role");
  if (role === undefined) return fail('a chat message needs a string "role".');
  return { ...common(kwargs), role };
}

function functionFields(kwargs: Kwargs) {
  const fields = common(kwargs);
  if (fields.name === undefined) return fail('a function message needs a string "name".');
  return { ...fields, name: fields.name };
}

const BUILDERS: Readonly<Record<SerializableMessageClassName, (kwargs: Kwargs) => BaseMessage>> = {
  HumanMessage: (kwargs) => new HumanMessage(common(kwargs)),
  HumanMessageChunk: (kwargs) => new HumanMessageChunk(common(kwargs)),
  AIMessage: (kwargs) => new AIMessage(aiFields(kwargs)),
  AIMessageChunk: (kwargs) =>
    new AIMessageChunk({
      ...aiFields(kwargs),
      tool_call_chunks: optionalRecords<ToolCallChunk>(kwargs, "tool_call_chunks"),
    }),
  SystemMessage: (kwargs) => new SystemMessage(common(kwargs)),
  SystemMessageChunk: (kwargs) => new SystemMessageChunk(common(kwargs)),
  ToolMessage: (kwargs) => new ToolMessage(toolFields(kwargs)),
  ToolMessageChunk: (kwargs) => new ToolMessageChunk(toolFields(kwargs)),
  RemoveMessage: (kwargs) => {
    const id = optionalString(kwargs, "id");
    if (id === undefined) return fail('a remove message needs a string "id".');
    return new RemoveMessage({ ...common(kwargs), id });
  },
  ChatMessage: (kwargs) => new ChatMessage(chatFields(kwargs)),
  ChatMessageChunk: (kwargs) => new ChatMessageChunk(chatFields(kwargs)),
  FunctionMessage: (kwargs) => new FunctionMessage(functionFields(kwargs)),
  FunctionMessageChunk: (kwargs) => new FunctionMessageChunk(common(kwargs)),
};

const CLASS_BY_STORED_TYPE: Readonly<Record<string, SerializableMessageClassName>> = {
  human: "HumanMessage",
  ai: "AIMessage",
  system: "SystemMessage",
  tool: "ToolMessage",
  remove: "RemoveMessage",
  generic: "ChatMessage",
  function: "FunctionMessage",
};

/**
 * The id paths under which message classes are serialized: `"langchain_core/messages"` (what
 * `toJSON` writes, as LangChain.js does) and `"langchain/schema/messages"` (what Python
 * LangChain writes). {@link reviveMessage} accepts both.
 *
 * @example
 * ```ts
 * MESSAGE_SERIALIZATION_NAMESPACES[0]; // ["langchain_core", "messages"]
 * ```
 */
export const MESSAGE_SERIALIZATION_NAMESPACES: readonly (readonly string[])[] = [
  ["langchain_core", "messages"],
  ["langchain", "schema", "messages"],
];

/**
 * The serialized id of each message class, as `toJSON()` writes it. A checkpoint serializer
 * registers {@link reviveMessage} under these ids (and their `MESSAGE_SERIALIZATION_NAMESPACES`
 * variants) so that it revives messages and nothing else.
 *
 * @example
 * ```ts
 * MESSAGE_SERIALIZATION_IDS.AIMessage; // ["langchain_core", "messages", "AIMessage"]
 * for (const id of Object.values(MESSAGE_SERIALIZATION_IDS)) registry.register(id, reviveMessage);
 * ```
 */
export const MESSAGE_SERIALIZATION_IDS: Readonly<Record<SerializableMessageClassName, readonly string[]>> =
  Object.freeze(
    Object.fromEntries(
      Object.keys(BUILDERS).map((name) => [name, Object.freeze(["langchain_core", "messages", name])]),
    ) as Record<SerializableMessageClassName, readonly string[]>,
  );

function sameNamespace(id: readonly unknown[]): boolean {
  const prefix = id.slice(0, -1);
  return MESSAGE_SERIALIZATION_NAMESPACES.some(
    (namespace) => namespace.length === prefix.length && namespace.every((part, i) => part === prefix[i]),
  );
}

function builderFor(name: unknown): ((kwargs: Kwargs) => BaseMessage) | undefined {
  return typeof name === "string" && Object.hasOwn(BUILDERS, name)
    ? BUILDERS[name as SerializableMessageClassName]
    : undefined;
}

/**
 * True when `value` is a serialized message that {@link reviveMessage} accepts in the
 * constructor form (`{ lc: 1, type: "constructor", id: [...namespace, ClassName], kwargs }`).
 *
 * @example
 * ```ts
 * isSerializedMessage(new AIMessage("hi").toJSON()); // true
 * isSerializedMessage({ lc: 1, type: "constructor", id: ["x", "Y"], kwargs: {} }); // false
 * ```
 */
export function isSerializedMessage(value: unknown): value is SerializedMessage {
  if (!isPlainRecord(value) || value.lc !== 1 || value.type !== "constructor") return false;
  const id = value.id;
  return (
    Array.isArray(id) &&
    isPlainRecord(value.kwargs) &&
    sameNamespace(id) &&
    builderFor(id.at(-1)) !== undefined
  );
}

/**
 * Rebuilds a message from its serialized form — the constructor form `toJSON()` writes, or
 * the stored form `{ type: "human", data: {…} }` that `toDict()` writes. Only the message
 * classes of this module are ever created, from validated fields; an unknown class id, a
 * foreign namespace or a field of the wrong type throws a {@link MessageSerializationError}.
 *
 * @example
 * ```ts
 * const original = new AIMessage({ content: "", tool_calls: [{ name: "f", args: {}, id: "c1" }] });
 * const copy = reviveMessage(JSON.parse(JSON.stringify(original)));
 * copy.tool_calls; // same tool calls; copy is an AIMessage
 * ```
 */
export function reviveMessage(json: unknown): BaseMessage {
  if (!isPlainRecord(json)) return fail(`expected an object, got ${json === null ? "null" : typeof json}.`);
  if (json.lc === 1 && json.type === "constructor") {
    const id = json.id;
    if (!Array.isArray(id) || !id.every((part) => typeof part === "string")) {
      return fail('"id" must be an array of strings.');
    }
    const build = builderFor(id.at(-1));
    if (!sameNamespace(id) || build === undefined) return fail(`unknown class id ${JSON.stringify(id)}.`);
    if (!isPlainRecord(json.kwargs)) return fail('"kwargs" must be an object.');
    return build(json.kwargs);
  }
  if (typeof json.type === "string" && isPlainRecord(json.data)) {
    const className = Object.hasOwn(CLASS_BY_STORED_TYPE, json.type)
      ? CLASS_BY_STORED_TYPE[json.type]
      : undefined;
    if (className === undefined) return fail(`unknown stored message type ${JSON.stringify(json.type)}.`);
    return BUILDERS[className](json.data);
  }
  return fail("the value is neither a serialized constructor nor a stored message.");
}

/**
 * Alias of {@link reviveMessage}.
 *
 * @example
 * ```ts
 * const message = messageFromJSON({ type: "human", data: { content: "hi" } });
 * ```
 */
export const messageFromJSON: typeof reviveMessage = reviveMessage;
