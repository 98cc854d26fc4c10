/**
 * Rebuilding the messages a thread's history holds most (human, system, AI and tool messages)
 * from their stored fields without running their constructors: a long history is read back
 * message by message, and most of what a constructor does (defaults, coercion of other input
 * forms, field definitions) has nothing to do for fields it wrote itself. The result is the
 * object the constructor builds — same prototype, same own properties in the same order, same
 * values (`message-quick-revive.property.test.ts` checks it against the constructors) — and
 * anything outside the plain shapes below is left to the constructor.
 */
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from "../messages/index.js";

type Kind = "human" | "system" | "ai" | "tool";

const KINDS: Readonly<Record<string, { kind: Kind; prototype: object }>> = {
  HumanMessage: { kind: "human", prototype: HumanMessage.prototype },
  SystemMessage: { kind: "system", prototype: SystemMessage.prototype },
  AIMessage: { kind: "ai", prototype: AIMessage.prototype },
  ToolMessage: { kind: "tool", prototype: ToolMessage.prototype },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Tool calls the AI message constructor keeps as they are (each already typed `tool_call`). */
function keptToolCalls(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const call of value) {
    if (!isPlainObject(call) || call.type !== "tool_call") return false;
  }
  return true;
}

/**
 * The message `new <className>(kwargs)` would build, or `undefined` when the class or a field is
 * not one this handles (the caller then runs the constructor).
 *
 * @example
 * ```ts
 * const message = quickMessage("HumanMessage", { content: "hi", id: "1" }) ?? new HumanMessage({ content: "hi", id: "1" });
 * ```
 */
export function quickMessage(className: string, kwargs: Record<string, unknown>): BaseMessage | undefined {
  const known = KINDS[className];
  if (known === undefined) return undefined;
  const kind = known.kind;
  for (const key in kwargs) {
    const value = kwargs[key];
    switch (key) {
      case "content":
        if (typeof value !== "string") return undefined;
        break;
      case "id":
      case "name":
        if (value !== undefined && typeof value !== "string") return undefined;
        break;
      case "additional_kwargs":
        // OpenAI-form tool calls in additional_kwargs are parsed by the AI constructor
        if (!isPlainObject(value) || (kind === "ai" && Object.hasOwn(value, "tool_calls"))) return undefined;
        break;
      case "response_metadata":
        if (!isPlainObject(value)) return undefined;
        break;
      case "tool_calls":
        if (kind !== "ai" || !keptToolCalls(value)) return undefined;
        break;
      case "usage_metadata":
        if (kind !== "ai" || (value !== undefined && !isPlainObject(value))) return undefined;
        break;
      case "tool_call_id":
        if (kind !== "tool" || typeof value !== "string") return undefined;
        break;
      case "status":
        if (kind !== "tool" || (value !== "success" && value !== "error")) return undefined;
        break;
      case "artifact":
        if (kind !== "tool") return undefined;
        break;
      default:
        return undefined;
    }
  }
  if (kind === "tool" && typeof kwargs.tool_call_id !== "string") return undefined;
  // the constructors' order: the base fields, `type`, then the class's own fields
  const message = Object.create(known.prototype) as Record<string, unknown>;
  message.content = kwargs.content ?? [];
  message.id = kwargs.id;
  message.name = kwargs.name;
  message.additional_kwargs = kwargs.additional_kwargs ?? {};
  message.response_metadata = kwargs.response_metadata ?? {};
  message.type = kind;
  if (kind === "ai") {
    message.tool_calls = kwargs.tool_calls ?? [];
    message.invalid_tool_calls = [];
    message.usage_metadata = kwargs.usage_metadata;
  } else if (kind === "tool") {
    message.tool_call_id = kwargs.tool_call_id;
    message.status = kwargs.status ?? "success";
    message.artifact = kwargs.artifact;
  }
  return message as unknown as BaseMessage;
}
