import { AIMessage } from "./ai.js";
import type { AdditionalKwargs, BaseMessage, ResponseMetadata, SerializedMessage } from "./base.js";
import { isBaseMessage } from "./base.js";
import type { MessageContent } from "./content.js";
import { isPlainRecord } from "./content.js";
import { MessageCoercionError } from "./errors.js";
import { HumanMessage } from "./human.js";
import { RemoveMessage } from "./remove.js";
import { SystemMessage } from "./system.js";
import { ToolMessage } from "./tool.js";
import type { InvalidToolCall, OpenAIToolCall, ToolCall } from "./tool-calls.js";
import { isOpenAIToolCall, parseOpenAIToolCalls } from "./tool-calls.js";
import type { UsageMetadata } from "./usage.js";

/**
 * The message fields a plain object may carry besides its role or type.
 *
 * @example
 * ```ts
 * const fields: MessageObjectFields = { content: "Hi", name: "alice", id: "m1" };
 * ```
 */
export interface MessageObjectFields {
  content?: MessageContent | null | undefined;
  id?: string | undefined;
  name?: string | undefined;
  tool_call_id?: string | undefined;
  tool_calls?: Array<ToolCall | OpenAIToolCall> | undefined;
  invalid_tool_calls?: InvalidToolCall[] | undefined;
  usage_metadata?: UsageMetadata | undefined;
  status?: "success" | "error" | undefined;
  artifact?: unknown;
  metadata?: Record<string, unknown> | undefined;
  additional_kwargs?: AdditionalKwargs | undefined;
  response_metadata?: ResponseMetadata | undefined;
}

/**
 * A plain message object in the chat-completions style: `{ role, content, … }`. Roles:
 * `user`/`human`, `assistant`/`ai`, `system`, `developer`, `tool` (with `tool_call_id`),
 * `remove` (with `id`).
 *
 * @example
 * ```ts
 * const m: MessageFieldWithRole = { role: "user", content: "What is the weather?" };
 * ```
 */
export interface MessageFieldWithRole extends MessageObjectFields {
  role: string;
}

/**
 * True for a message-like value with a string `role` (a `{ role, content }` object), as
 * LangChain.js's `_isMessageFieldWithRole` checks it (reading `role` of `null` throws).
 *
 * @example
 * ```ts
 * _isMessageFieldWithRole({ role: "user", content: "Hi" }); // true
 * _isMessageFieldWithRole(["user", "Hi"]); // false
 * ```
 */
export function _isMessageFieldWithRole(x: BaseMessageLike): x is MessageFieldWithRole {
  return typeof (x as { role?: unknown }).role === "string";
}

/**
 * A plain message object keyed by `type` (`"human"`, `"ai"`, …) instead of `role`.
 *
 * @example
 * ```ts
 * const m: MessageFieldWithType = { type: "ai", content: "It is sunny." };
 * ```
 */
export interface MessageFieldWithType extends MessageObjectFields {
  type: string;
}

/**
 * A `[role, content]` pair, e.g. `["user", "Hello"]`.
 *
 * @example
 * ```ts
 * const pair: MessageLikeTuple = ["system", "Be brief."];
 * ```
 */
export type MessageLikeTuple = [role: string, content: MessageContent];

/**
 * Anything accepted where a message is expected: a message, a string (a human message), a
 * `[role, content]` pair, a `{ role, content }` or `{ type, content }` object, or a
 * serialized message.
 *
 * @example
 * ```ts
 * const inputs: BaseMessageLike[] = ["Hi", ["ai", "Hello!"], { role: "user", content: "Weather?" }];
 * ```
 */
export type BaseMessageLike =
  | BaseMessage
  | string
  | MessageLikeTuple
  | MessageFieldWithRole
  | MessageFieldWithType
  | SerializedMessage;

/**
 * Alias of {@link BaseMessageLike}.
 *
 * @example
 * ```ts
 * const input: MessageLike = { role: "assistant", content: "Sure." };
 * ```
 */
export type MessageLike = BaseMessageLike;

const ACCEPTED_FORMS =
  "Accepted forms: a message instance (new HumanMessage(...)); a string (becomes a human message); " +
  'a [role, content] pair; an object { role, content } with role "user" | "human", "assistant" | "ai", ' +
  '"system", "developer", "tool" (with tool_call_id) or "remove" (with id); the same object keyed by ' +
  '`type` instead of `role`; or a serialized message { lc: 1, type: "constructor", id, kwargs }.';

const CLASS_ROLES: Readonly<Record<string, string>> = {
  HumanMessage: "human",
  HumanMessageChunk: "human",
  AIMessage: "ai",
  AIMessageChunk: "ai",
  SystemMessage: "system",
  SystemMessageChunk: "system",
  ToolMessage: "tool",
  ToolMessageChunk: "tool",
  RemoveMessage: "remove",
};

/** A short, always-printable rendering of a received value for error messages. */
export function previewValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
}

/** LangChain.js's text for a role or type it cannot build a message of. */
const UNSUPPORTED_ROLE =
  "Unable to coerce message from array: only human, AI, system, developer, or tool message coercion is currently supported.";

/**
 * A coercion failure: `unsupportedRole` where LangChain.js fails too (with {@link UNSUPPORTED_ROLE},
 * which then starts the text), else for a field LangChain.js does not check.
 */
function coercionError(reason: string, received: unknown, unsupportedRole = false): MessageCoercionError {
  const opening = unsupportedRole ? `${UNSUPPORTED_ROLE} This one failed:` : "Unable to coerce message:";
  return new MessageCoercionError(
    `${opening} ${reason}\n\nReceived: ${previewValue(received)}\n\n${ACCEPTED_FORMS}`,
  );
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function optionalString(fields: Record<string, unknown>, key: string, received: unknown): string | undefined {
  const value = fields[key];
  if (value == null) return undefined;
  if (typeof value === "string") return value;
  throw coercionError(`\`${key}\` must be a string, got ${kindOf(value)}.`, received);
}

function optionalRecord<T>(fields: Record<string, unknown>, key: string, received: unknown): T | undefined {
  const value = fields[key];
  if (value == null) return undefined;
  if (isPlainRecord(value)) return value as T;
  throw coercionError(`\`${key}\` must be an object, got ${kindOf(value)}.`, received);
}

function readContent(fields: Record<string, unknown>, received: unknown): MessageContent | undefined {
  const content = fields.content;
  if (content == null) return undefined;
  if (typeof content === "string" || Array.isArray(content)) return content as MessageContent;
  throw coercionError(
    `message content must be a string or an array of content blocks, got ${kindOf(content)}.`,
    received,
  );
}

/** Splits `tool_calls` of a plain assistant object into parsed calls and invalid ones. */
function readToolCalls(raw: unknown, received: unknown): [ToolCall[], InvalidToolCall[]] | undefined {
  if (raw == null) return undefined;
  if (!Array.isArray(raw))
    throw coercionError(`\`tool_calls\` must be an array, got ${kindOf(raw)}.`, received);
  const valid: ToolCall[] = [];
  const invalid: InvalidToolCall[] = [];
  for (const entry of raw) {
    if (isPlainRecord(entry) && entry.type !== "tool_call" && isOpenAIToolCall(entry)) {
      const [parsed, failed] = parseOpenAIToolCalls([entry]);
      // LangChain.js builds these calls as `{ id, args, name, type }`; keep its key order so
      // serialized messages print the same.
      valid.push(...parsed.map(({ id, args, name, type }) => ({ id, args, name, type })));
      invalid.push(...failed);
    } else if (isPlainRecord(entry) && typeof entry.name === "string") {
      valid.push(entry as unknown as ToolCall);
    } else {
      throw coercionError(
        "each tool call must be { name, args, id } or the OpenAI { id, type: 'function', function: { name, arguments } } form.",
        received,
      );
    }
  }
  return [valid, invalid];
}

function messageFromFields(role: string, fields: Record<string, unknown>, received: unknown): BaseMessage {
  const common = {
    content: readContent(fields, received),
    id: optionalString(fields, "id", received),
    name: optionalString(fields, "name", received),
    additional_kwargs: optionalRecord<AdditionalKwargs>(fields, "additional_kwargs", received),
    response_metadata: optionalRecord<ResponseMetadata>(fields, "response_metadata", received),
  };
  switch (role) {
    case "human":
    case "user":
      return new HumanMessage(common);
    case "ai":
    case "assistant": {
      const calls = readToolCalls(fields.tool_calls, received);
      const givenInvalid = Array.isArray(fields.invalid_tool_calls)
        ? (fields.invalid_tool_calls as InvalidToolCall[])
        : [];
      return new AIMessage({
        ...common,
        tool_calls: calls?.[0],
        invalid_tool_calls: calls === undefined ? givenInvalid : [...givenInvalid, ...calls[1]],
        usage_metadata: optionalRecord<UsageMetadata>(fields, "usage_metadata", received),
      });
    }
    case "system":
      return new SystemMessage(common);
    case "developer":
      return new SystemMessage({
        ...common,
        additional_kwargs: { ...common.additional_kwargs, __openai_role__: "developer" },
      });
    case "tool": {
      const id = fields.tool_call_id;
      if (typeof id !== "string" && typeof id !== "number") {
        throw coercionError(
          "a tool message needs a `tool_call_id` (the id of the tool call it answers).",
          received,
          true,
        );
      }
      return new ToolMessage({
        ...common,
        tool_call_id: String(id),
        status: fields.status === "error" || fields.status === "success" ? fields.status : undefined,
        artifact: fields.artifact,
        metadata: isPlainRecord(fields.metadata) ? fields.metadata : undefined,
      });
    }
    case "remove": {
      if (typeof common.id !== "string") {
        throw coercionError(
          "a remove message needs the string `id` of the message to delete.",
          received,
          true,
        );
      }
      return new RemoveMessage({ ...common, id: common.id });
    }
    default:
      throw coercionError(
        `unknown message role ${JSON.stringify(role)}: only human (user), AI (assistant), system (developer), tool and remove messages are supported.`,
        received,
        true,
      );
  }
}

function isSerializedConstructor(
  value: Record<string, unknown>,
): value is Record<string, unknown> & SerializedMessage {
  return (
    value.lc === 1 && value.type === "constructor" && Array.isArray(value.id) && isPlainRecord(value.kwargs)
  );
}

/**
 * Turns anything message-like into a message instance (messages are returned as they are).
 * Strings become human messages; `[role, content]` pairs and `{ role | type, content, … }`
 * objects become the message of that role, keeping `id`, `name`, `tool_calls` (OpenAI
 * `function` form parsed; arguments that are not a JSON object become `invalid_tool_calls`),
 * `tool_call_id`, `status`, `artifact`, `usage_metadata` and both metadata bags; a
 * `developer` role becomes a system message marked `__openai_role__: "developer"`. Serialized
 * messages (`{ lc: 1, type: "constructor", … }`, `{ type, data }`) are accepted too. Anything
 * else throws a {@link MessageCoercionError} naming what was received and the accepted forms.
 *
 * @example
 * ```ts
 * coerceMessageLikeToMessage("Hi"); // HumanMessage
 * coerceMessageLikeToMessage(["assistant", "Hello!"]); // AIMessage
 * coerceMessageLikeToMessage({ role: "tool", content: "42", tool_call_id: "call_1" }); // ToolMessage
 * ```
 */
export function coerceMessageLikeToMessage(value: BaseMessageLike): BaseMessage {
  if (typeof value === "string") return new HumanMessage(value);
  if (isBaseMessage(value)) return value;
  if (Array.isArray(value)) {
    // LangChain.js reads the first two elements and ignores any others
    const [role, content] = value as unknown[];
    if (value.length < 2 || typeof role !== "string") {
      throw coercionError(
        "a [role, content] pair needs the role (a string) first, then the content.",
        value,
        true,
      );
    }
    return messageFromFields(role, { content }, value);
  }
  const record: unknown = value;
  if (!isPlainRecord(record))
    throw coercionError(`a value of type ${kindOf(record)} cannot be a message.`, record, true);
  if (isSerializedConstructor(record)) {
    const className = record.id[record.id.length - 1];
    const role =
      typeof className === "string" && Object.hasOwn(CLASS_ROLES, className)
        ? CLASS_ROLES[className]
        : undefined;
    // LangChain.js fails on these classes too (ChatMessage, FunctionMessage, …)
    if (role === undefined)
      throw coercionError(`unknown serialized message class ${JSON.stringify(className)}.`, record, true);
    return messageFromFields(role, record.kwargs, record);
  }
  if (typeof record.role === "string") return messageFromFields(record.role, record, record);
  if (typeof record.type === "string") {
    const fields = record.content === undefined && isPlainRecord(record.data) ? record.data : record;
    return messageFromFields(record.type, fields, record);
  }
  throw coercionError("an object message needs a string `role` or `type`.", record, true);
}
