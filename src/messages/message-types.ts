import { InvalidArgumentError } from "../shared/index.js";
import type { BaseMessage, MessageType } from "./base.js";

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
