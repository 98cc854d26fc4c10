import { InvalidArgumentError } from "../shared/index.js";
import type { AIMessage, AIMessageChunk } from "./ai.js";
import type { BaseMessage, MessageType } from "./base.js";
import type { ChatMessage, ChatMessageChunk } from "./chat.js";
import type { FunctionMessage, FunctionMessageChunk } from "./function.js";
import type { HumanMessage, HumanMessageChunk } from "./human.js";
import type { RemoveMessage } from "./remove.js";
import type { SystemMessage, SystemMessageChunk } from "./system.js";
import type { ToolMessage, ToolMessageChunk } from "./tool.js";

/** The message classes (what `includeTypes` and the like take besides type strings). */
export type MessageUnion =
  | typeof HumanMessage
  | typeof AIMessage
  | typeof SystemMessage
  | typeof ChatMessage
  | typeof FunctionMessage
  | typeof ToolMessage
  | typeof RemoveMessage;

/** The message chunk classes (and `RemoveMessage`, as LangChain.js lists it). */
export type MessageChunkUnion =
  | typeof HumanMessageChunk
  | typeof AIMessageChunk
  | typeof SystemMessageChunk
  | typeof FunctionMessageChunk
  | typeof ToolMessageChunk
  | typeof ChatMessageChunk
  | typeof RemoveMessage;

/**
 * A message kind given either as its type string (`"human"`, `"ai"`, `"system"`, `"tool"`,
 * `"remove"`, `"generic"`, `"function"`) or as a message class (`HumanMessage`,
 * `AIMessageChunk`, `ChatMessage`, …), as the `startOn`, `endOn`, `includeTypes` and
 * `excludeTypes` options accept.
 *
 * @example
 * ```ts
 * const kinds: MessageTypeOrClass[] = ["human", ToolMessage];
 * ```
 */
export type MessageTypeOrClass = MessageType | (abstract new (...args: never[]) => BaseMessage);

const TYPE_BY_CLASS_NAME: Readonly<Record<string, MessageType>> = {
  HumanMessage: "human",
  HumanMessageChunk: "human",
  AIMessage: "ai",
  AIMessageChunk: "ai",
  SystemMessage: "system",
  SystemMessageChunk: "system",
  ToolMessage: "tool",
  ToolMessageChunk: "tool",
  RemoveMessage: "remove",
  ChatMessage: "generic",
  ChatMessageChunk: "generic",
  FunctionMessage: "function",
  FunctionMessageChunk: "function",
};

function typeOf(kind: MessageTypeOrClass | string): string {
  if (typeof kind === "string") return kind;
  const lcName = (kind as { lc_name?: unknown }).lc_name;
  const name = typeof lcName === "function" ? (lcName as () => unknown).call(kind) : undefined;
  if (typeof name === "string" && Object.hasOwn(TYPE_BY_CLASS_NAME, name))
    return TYPE_BY_CLASS_NAME[name] as string;
  // LangChain.js's text first ("Invalid type provided."), then what is wrong and what to pass
  throw new InvalidArgumentError(
    `Invalid type provided. ${String(kind.name || kind)} is not a message type: use a type string ("human", "ai", "system", "tool") or a message class.`,
  );
}

/**
 * Resolves kinds to a set of type strings once, so matching each message is a set lookup.
 * `undefined` stays `undefined` (no filter).
 */
export function toTypeSet(
  kinds: MessageTypeOrClass | readonly MessageTypeOrClass[] | undefined,
): ReadonlySet<string> | undefined {
  if (kinds === undefined) return undefined;
  const list = Array.isArray(kinds) ? kinds : [kinds as MessageTypeOrClass];
  return new Set(list.map(typeOf));
}
