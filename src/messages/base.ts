import type { ContentBlock, MessageContent } from "./content.js";
import { textOfContent } from "./content.js";
import { toStandardContentBlocks } from "./content-blocks.js";
import { formatMessagePretty } from "./format.js";
import type { OpenAIToolCall } from "./tool-calls.js";

/**
 * The kind of a message, as `message.type` and `message.getType()` report it. `"generic"` is a
 * `ChatMessage` (a message with a role of its own), `"function"` a legacy `FunctionMessage`.
 *
 * @example
 * ```ts
 * const kind: MessageType = new HumanMessage("hi").getType(); // "human"
 * ```
 */
export type MessageType = "human" | "ai" | "system" | "tool" | "remove" | "generic" | "function";

/**
 * Provider-specific extras of a message that have no field of their own. The two named keys
 * are the legacy OpenAI function-calling fields.
 *
 * @example
 * ```ts
 * new SystemMessage({ content: "Be brief.", additional_kwargs: { __openai_role__: "developer" } });
 * ```
 */
export interface AdditionalKwargs {
  function_call?: FunctionCall | undefined;
  tool_calls?: OpenAIToolCall[] | undefined;
  [key: string]: unknown;
}

/** A legacy OpenAI function call: the function's name and its arguments as JSON text. */
export interface FunctionCall {
  arguments: string;
  name: string;
}

/**
 * What the provider said about a response: model name, finish reason, headers, log probs….
 *
 * @example
 * ```ts
 * new AIMessage({ content: "Hi", response_metadata: { model_name: "gpt-4.1-mini", finish_reason: "stop" } });
 * ```
 */
export interface ResponseMetadata {
  model_provider?: string | undefined;
  model_name?: string | undefined;
  output_version?: "v0" | "v1" | undefined;
  [key: string]: unknown;
}

/**
 * The fields every message constructor accepts. `content` may also be given as
 * `contentBlocks` (standard v1 blocks), which marks the message `output_version: "v1"`.
 *
 * @example
 * ```ts
 * const fields: BaseMessageFields = { content: "Hello", id: "msg-1", name: "alice" };
 * new HumanMessage(fields);
 * ```
 */
export interface BaseMessageFields {
  content?: MessageContent | null | undefined;
  contentBlocks?: ContentBlock[] | undefined;
  id?: string | undefined;
  name?: string | undefined;
  additional_kwargs?: AdditionalKwargs | undefined;
  response_metadata?: ResponseMetadata | undefined;
}

/**
 * The serialized ("constructor") form of a message, the layout LangChain uses in
 * checkpoints: `{ lc: 1, type: "constructor", id: ["langchain_core", "messages", "<Class>"], kwargs }`.
 *
 * @example
 * ```ts
 * const json: SerializedMessage = new HumanMessage("hi").toJSON();
 * json.id; // ["langchain_core", "messages", "HumanMessage"]
 * ```
 */
export interface SerializedMessage {
  lc: 1;
  type: "constructor";
  id: string[];
  kwargs: Record<string, unknown>;
}

/**
 * The "stored message" form of a message: `{ type: "human", data: { content, … } }`, as
 * `message.toDict()` returns and chat-history stores keep.
 *
 * @example
 * ```ts
 * const stored: StoredMessage = new HumanMessage("hi").toDict();
 * // { type: "human", data: { content: "hi", additional_kwargs: {}, response_metadata: {} } }
 * ```
 */
export interface StoredMessage {
  type: string;
  data: StoredMessageData;
}

/**
 * The `data` of a stored message: the message's fields, those it has of `content` (or
 * `content_blocks`, for a message built from them), `role`, `name`, `tool_call_id` (`null` for a
 * tool message answering a call without id), `id`, `tool_calls`….
 */
export interface StoredMessageData {
  content?: MessageContent | undefined;
  role?: string | undefined;
  name?: string | undefined;
  tool_call_id?: string | null | undefined;
  additional_kwargs?: Record<string, unknown> | undefined;
  response_metadata?: Record<string, unknown> | undefined;
  id?: string | undefined;
  [key: string]: unknown;
}

/** Brand on every message prototype; `Symbol.for` so copies of this package recognise each other. */
export const MESSAGE_BRAND: unique symbol = Symbol.for("agentgraph.message") as never;
/** Brand on every chunk prototype. */
export const CHUNK_BRAND: unique symbol = Symbol.for("agentgraph.message.chunk") as never;
/** Marks the classes of this module, so user subclasses get ordinary `instanceof`. */
const BUILT_IN: unique symbol = Symbol("agentgraph.message.builtIn") as never;

type Branded = { [MESSAGE_BRAND]?: unknown; [CHUNK_BRAND]?: unknown; type?: unknown };

/**
 * True for a message made by agentgraph (any copy of it), whatever its class. Based on a
 * brand, not `instanceof`, so it holds across package copies and realms.
 *
 * @example
 * ```ts
 * isBaseMessage(new HumanMessage("hi")); // true
 * isBaseMessage({ role: "user", content: "hi" }); // false — coerce it first
 * ```
 */
export function isBaseMessage(value: unknown): value is BaseMessage {
  return typeof value === "object" && value !== null && (value as Branded)[MESSAGE_BRAND] === true;
}

/**
 * True for a streamed message chunk (`AIMessageChunk`, `HumanMessageChunk`, …).
 *
 * @example
 * ```ts
 * isBaseMessageChunk(new AIMessageChunk("par")); // true
 * isBaseMessageChunk(new AIMessage("whole")); // false
 * ```
 */
export function isBaseMessageChunk(value: unknown): value is BaseMessageChunk {
  return isBaseMessage(value) && (value as Branded)[CHUNK_BRAND] === true;
}

/** True for an agentgraph message of the given type (chunks included). */
export function hasMessageType(value: unknown, type: MessageType): boolean {
  return isBaseMessage(value) && (value as Branded).type === type;
}

/** True for an agentgraph chunk of the given type. */
export function hasChunkType(value: unknown, type: MessageType): boolean {
  return isBaseMessageChunk(value) && (value as Branded).type === type;
}

/**
 * The base class of every message. A message has `content` (a string or content blocks), an
 * optional `id` and `name`, and two metadata bags. Construct a subclass either from its
 * content (`new HumanMessage("hi")`) or from fields (`new HumanMessage({ content, id })`).
 *
 * `instanceof` checks use the brand (so they work across package copies); prefer the
 * `isHumanMessage`-style guards in new code.
 *
 * @example
 * ```ts
 * const message: BaseMessage = new HumanMessage({ content: "What is the weather?", id: "m1" });
 * message.getType(); // "human"
 * message.text; // "What is the weather?"
 * ```
 */
export abstract class BaseMessage {
  /** The message kind; `getType()` returns the same. */
  abstract readonly type: MessageType;
  /** The content: a string or an array of content blocks. */
  content: MessageContent;
  /** Unique id; the messages reducer assigns one when absent. */
  id: string | undefined;
  /** Optional name of the author (a user name, an agent name, a tool name). */
  name: string | undefined;
  /** Provider-specific extras. */
  additional_kwargs: AdditionalKwargs;
  /** Provider response metadata. */
  response_metadata: ResponseMetadata;

  constructor(fields: MessageContent | BaseMessageFields) {
    if (typeof fields === "string" || Array.isArray(fields)) {
      this.content = fields;
      this.id = undefined;
      this.name = undefined;
      this.additional_kwargs = {};
      this.response_metadata = {};
      return;
    }
    const metadata = fields.response_metadata ?? {};
    if (fields.content === undefined && fields.contentBlocks !== undefined) {
      this.content = fields.contentBlocks;
      this.response_metadata = { output_version: "v1", ...metadata };
      contentBlocksOrigin.set(this, "given");
    } else {
      this.content = fields.content ?? [];
      this.response_metadata = metadata;
    }
    this.id = fields.id ?? undefined;
    this.name = fields.name ?? undefined;
    this.additional_kwargs = fields.additional_kwargs ?? {};
  }

  /** The class name used in serialized ids (`"HumanMessage"`, …). */
  static lc_name(): string {
    return "BaseMessage";
  }

  /**
   * True for any agentgraph message (see {@link isBaseMessage}); subclasses narrow to their type.
   *
   * @example
   * ```ts
   * AIMessage.isInstance(new AIMessage("hi")); // true
   * ```
   */
  static isInstance(value: unknown): value is BaseMessage {
    return isBaseMessage(value);
  }

  /**
   * `instanceof` on a class of this module asks its `isInstance` (brand-based); on a user's
   * subclass it falls back to the prototype chain, so `x instanceof MyMessage` stays exact.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore-start lint/complexity/noThisInStatic: `this` is the class `instanceof` was asked about.
    if (Object.hasOwn(this, BUILT_IN)) return this.isInstance(value);
    return Function.prototype[Symbol.hasInstance].call(this, value);
    // biome-ignore-end lint/complexity/noThisInStatic: see above
  }

  /** The message kind (`"human"`, `"ai"`, `"system"`, `"tool"`, `"remove"`, `"generic"`, `"function"`). */
  getType(): MessageType {
    return this.type;
  }

  /** @deprecated Use {@link getType} or the `type` field. */
  _getType(): MessageType {
    return this.type;
  }

  /** The concatenated text of the content: the string itself, or the text of every text block. */
  get text(): string {
    return textOfContent(this.content);
  }

  /** The content as standard (v1) blocks: provider forms translated, an AI message's tool calls listed. */
  get contentBlocks(): ContentBlock[] {
    return toStandardContentBlocks(this);
  }

  /**
   * The message as text: `"pretty"` (default) gives the layout `prettyPrint` prints,
   * `"json"` the JSON of {@link toJSON}.
   */
  toFormattedString(format: "pretty" | "json" = "pretty"): string {
    return format === "pretty" ? formatMessagePretty(this) : JSON.stringify(this);
  }

  /** Prints {@link toFormattedString} to the console. */
  prettyPrint(): void {
    console.log(this.toFormattedString());
  }

  /** The serialized constructor form (what `JSON.stringify(message)` writes). */
  toJSON(): SerializedMessage {
    const name = (this.constructor as typeof BaseMessage).lc_name();
    return {
      lc: 1,
      type: "constructor",
      id: ["langchain_core", "messages", name],
      kwargs: serializedKwargs(this),
    };
  }

  /** The stored-message form `{ type, data }`. */
  toDict(): StoredMessage {
    return { type: this.type, data: serializedKwargs(this) as StoredMessageData };
  }
}

/**
 * Messages whose content came in as standard blocks, which LangChain.js keeps among the
 * constructor fields it serializes (`content_blocks`, the current content): `"given"` when built
 * from `contentBlocks` (written instead of `content`), `"v1"` for an `AIMessage` whose content is
 * marked `output_version: "v1"` (written besides `content`).
 */
const contentBlocksOrigin = new WeakMap<BaseMessage, "given" | "v1">();

/** @internal Marks `message` as an `AIMessage` built from content marked `output_version: "v1"`. */
export function markV1Content(message: BaseMessage): void {
  if (!contentBlocksOrigin.has(message)) contentBlocksOrigin.set(message, "v1");
}

/**
 * The constructor fields that rebuild a message: `content`, the fields of its type, `id` and
 * `name` when set, and both metadata bags. Values are shared, not copied: the result is meant
 * to be stringified at once. (A function rather than per-class overrides, so that a chunk
 * class stays assignable to its message class.)
 */
function serializedKwargs(message: BaseMessage, compact = false): Record<string, unknown> {
  const origin = contentBlocksOrigin.get(message);
  // a message built from `contentBlocks` is rebuilt from them, as LangChain.js writes it
  const kwargs: Record<string, unknown> =
    origin === "given" ? { content_blocks: message.content } : { content: message.content };
  const fields = message as unknown as Record<string, unknown>;
  if (message.type === "generic") {
    kwargs.role = fields.role;
  } else if (message.type === "function") {
    // a function message's name is its own field, written after the content as LangChain.js does
    if (message.name !== undefined) kwargs.name = message.name;
  } else if (message.type === "ai") {
    putDefaulted(kwargs, "tool_calls", fields.tool_calls, compact);
    putDefaulted(kwargs, "invalid_tool_calls", fields.invalid_tool_calls, compact);
    if (isBaseMessageChunk(message))
      putDefaulted(kwargs, "tool_call_chunks", fields.tool_call_chunks, compact);
    if (fields.usage_metadata !== undefined) kwargs.usage_metadata = fields.usage_metadata;
  } else if (message.type === "tool") {
    // a ToolNode answers a call without an id without one (as LangGraph.js does): stored as null
    kwargs.tool_call_id = fields.tool_call_id ?? null;
    if (fields.status !== undefined) kwargs.status = fields.status;
    if (fields.artifact !== undefined) kwargs.artifact = fields.artifact;
    if (fields.metadata !== undefined) kwargs.metadata = fields.metadata;
  }
  if (message.id !== undefined) kwargs.id = message.id;
  if (message.name !== undefined) kwargs.name = message.name;
  if (origin === "v1") kwargs.content_blocks = message.content;
  putDefaulted(kwargs, "additional_kwargs", message.additional_kwargs, compact);
  putDefaulted(kwargs, "response_metadata", message.response_metadata, compact);
  return kwargs;
}

/** Sets a field the constructors default to an empty list or object (left out, `compact`, when empty). */
function putDefaulted(kwargs: Record<string, unknown>, key: string, value: unknown, compact: boolean): void {
  if (compact && (value === undefined || isEmptyValue(value))) return;
  kwargs[key] = value;
}

function isEmptyValue(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value !== "object" || value === null) return false;
  for (const _ in value) return false;
  return true;
}

/**
 * The fields a checkpoint stores for a message: what `toJSON()` gives as `kwargs`, without the
 * fields the constructors default to an empty list or object when they are empty. Internal: the
 * serializer's (entries/messages-serialization.ts).
 *
 * @example
 * ```ts
 * storedMessageFields(new HumanMessage({ content: "hi", id: "1" })); // { content: "hi", id: "1" }
 * ```
 */
export function storedMessageFields(message: BaseMessage): Record<string, unknown> {
  return serializedKwargs(message, true);
}

/**
 * The class name a message shows in `String(message)` and `console.log(message)`: its class's
 * `lc_name()`, except that LangChain.js labels a `RemoveMessage` with its base class's name.
 */
function displayName(message: BaseMessage): string {
  return message.type === "remove" ? "BaseMessage" : (message.constructor as typeof BaseMessage).lc_name();
}

/**
 * The fields `console.log(message)` shows, in LangChain.js's order: `id`, `content`, `name`, the
 * metadata bags, then those of the message's type.
 */
function printableFields(message: BaseMessage): Record<string, unknown> {
  const fields = message as unknown as Record<string, unknown>;
  const printable: Record<string, unknown> = {
    id: message.id,
    content: message.content,
    name: message.name,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
  };
  if (message.type === "ai") {
    printable.tool_calls = fields.tool_calls;
    if (isBaseMessageChunk(message)) printable.tool_call_chunks = fields.tool_call_chunks;
    printable.invalid_tool_calls = fields.invalid_tool_calls;
    printable.usage_metadata = fields.usage_metadata;
  } else if (message.type === "tool") {
    printable.tool_call_id = fields.tool_call_id;
    printable.artifact = fields.artifact;
  } else if (message.type === "generic") {
    printable.role = fields.role;
  }
  return printable;
}

/** `value` as JSON, with objects and lists nested `depthLimit` levels deep shown as `[Object]` / `[Array]`. */
function stringifyToDepth(value: unknown, depthLimit: number): string {
  const cut = (item: unknown, depth: number): unknown => {
    if (typeof item !== "object" || item === null) return item;
    if (depth >= depthLimit) return Array.isArray(item) ? "[Array]" : "[Object]";
    if (Array.isArray(item)) return item.map((entry) => cut(entry, depth + 1));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(item)) out[key] = cut((item as Record<string, unknown>)[key], depth + 1);
    return out;
  };
  return JSON.stringify(cut(value, 0), null, 2);
}

// `Object.prototype.toString` and Node's `util.inspect` (hence `console.log`) show a message as
// LangChain.js does: `[object HumanMessage]`, and `HumanMessage { "content": "hi", … }` with the
// fields as indented JSON (at least four levels deep). Symbols from `Symbol.for`, so the engine
// imports nothing from Node.
Object.defineProperty(BaseMessage.prototype, Symbol.toStringTag, {
  get(this: BaseMessage): string {
    return displayName(this);
  },
});
Object.defineProperty(BaseMessage.prototype, Symbol.for("nodejs.util.inspect.custom"), {
  value(this: BaseMessage, depth: number | null): unknown {
    if (depth === null) return this;
    return `${displayName(this)} ${stringifyToDepth(printableFields(this), Math.max(4, depth))}`;
  },
});
Object.defineProperty(BaseMessage.prototype, MESSAGE_BRAND, { value: true });
// Present (false) on every message so that the chunk check stops at the first prototype.
Object.defineProperty(BaseMessage.prototype, CHUNK_BRAND, { value: false });

/**
 * The base class of streamed message chunks, which `concat` joins into longer chunks.
 *
 * @example
 * ```ts
 * const whole: BaseMessageChunk = new AIMessageChunk("Hel").concat(new AIMessageChunk("lo"));
 * whole.content; // "Hello"
 * ```
 */
export abstract class BaseMessageChunk extends BaseMessage {
  /** Joins this chunk with the next one of the same kind. */
  abstract concat(chunk: BaseMessageChunk): BaseMessageChunk;

  static override isInstance(value: unknown): value is BaseMessageChunk {
    return isBaseMessageChunk(value);
  }
}

Object.defineProperty(BaseMessageChunk.prototype, CHUNK_BRAND, { value: true });

/** Marks a class of this module so that `instanceof` on it is brand-based. */
export function markBuiltIn(cls: abstract new (...args: never[]) => BaseMessage): void {
  Object.defineProperty(cls, BUILT_IN, { value: true });
}

markBuiltIn(BaseMessage);
markBuiltIn(BaseMessageChunk);
