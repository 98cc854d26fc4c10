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

/**
 * Builds a message of one class from its fields, in the constructors' order (the base fields,
 * `type`, then the class's own fields). A plain function used with `new`, whose `prototype` is the
 * class's: V8 sizes its objects for every field it assigns, so a message is one allocation with
 * its fields inside it, where filling an `Object.create(prototype)` grew a separate property store
 * field by field.
 */
type Rebuild = new (...fields: unknown[]) => BaseMessage;

function rebuilder(kind: Kind, prototype: object): Rebuild {
  // `this` is the new message; each kind assigns its own fields after the base ones
  function Message(
    this: Record<string, unknown>,
    content: unknown,
    id: unknown,
    name: unknown,
    additional: unknown,
    metadata: unknown,
    a: unknown,
    b: unknown,
    c: unknown,
  ): void {
    this.content = content;
    this.id = id;
    this.name = name;
    this.additional_kwargs = additional;
    this.response_metadata = metadata;
    this.type = kind;
    if (kind === "ai") {
      this.tool_calls = a;
      this.invalid_tool_calls = [];
      this.usage_metadata = b;
    } else if (kind === "tool") {
      this.tool_call_id = a;
      this.status = b;
      this.artifact = c;
    }
  }
  Message.prototype = prototype;
  return Message as unknown as Rebuild;
}

const KINDS: Readonly<Record<string, { kind: Kind; rebuild: Rebuild }>> = {
  HumanMessage: { kind: "human", rebuild: rebuilder("human", HumanMessage.prototype) },
  SystemMessage: { kind: "system", rebuild: rebuilder("system", SystemMessage.prototype) },
  AIMessage: { kind: "ai", rebuild: rebuilder("ai", AIMessage.prototype) },
  ToolMessage: { kind: "tool", rebuild: rebuilder("tool", ToolMessage.prototype) },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Tool calls the AI message constructor keeps as they are (each already typed `tool_call`). */
function keptToolCalls(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) {
    const call: unknown = value[i];
    if (!isPlainObject(call) || call.type !== "tool_call") return false;
  }
  return true;
}

/** How many enumerable keys `object` has. */
function keyCount(object: object): number {
  let count = 0;
  for (const _ in object) count++;
  return count;
}

/**
 * The message `new <className>(kwargs)` would build, or `undefined` when the class or a field is
 * not one this handles (the caller then runs the constructor).
 *
 * Each field the class takes is read by name and checked; a key of any other name (or a field
 * present with the value `undefined`, which the stored form never holds) leaves the count of
 * fields taken short of the object's key count, and the constructor decides. A history read
 * back runs this once per message, mostly before the engine has optimized it: named reads cost
 * less there than a loop over the keys with a comparison of each.
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
  // Inline checks, no helper calls: this runs in the engine's baseline tiers, where each call
  // costs about as much as the check it makes.
  const { content, id, name } = kwargs;
  const additional = kwargs.additional_kwargs;
  const metadata = kwargs.response_metadata;
  if (
    (content !== undefined && typeof content !== "string") ||
    (id !== undefined && typeof id !== "string") ||
    (name !== undefined && typeof name !== "string") ||
    (metadata !== undefined && !isPlainObject(metadata)) ||
    // OpenAI-form tool calls in additional_kwargs are parsed by the AI constructor
    (additional !== undefined &&
      (!isPlainObject(additional) || (kind === "ai" && Object.hasOwn(additional, "tool_calls"))))
  )
    return undefined;
  // fields taken, for the key count below
  let taken =
    (content === undefined ? 0 : 1) +
    (id === undefined ? 0 : 1) +
    (name === undefined ? 0 : 1) +
    (additional === undefined ? 0 : 1) +
    (metadata === undefined ? 0 : 1);
  let toolCalls: unknown;
  let usage: unknown;
  let toolCallId: unknown;
  let status: unknown;
  let artifact: unknown;
  if (kind === "ai") {
    toolCalls = kwargs.tool_calls;
    usage = kwargs.usage_metadata;
    if (
      (toolCalls !== undefined && !keptToolCalls(toolCalls)) ||
      (usage !== undefined && !isPlainObject(usage))
    )
      return undefined;
    taken += (toolCalls === undefined ? 0 : 1) + (usage === undefined ? 0 : 1);
  } else if (kind === "tool") {
    toolCallId = kwargs.tool_call_id;
    status = kwargs.status;
    artifact = kwargs.artifact;
    if (
      typeof toolCallId !== "string" ||
      (status !== undefined && status !== "success" && status !== "error")
    )
      return undefined;
    taken += 1 + (status === undefined ? 0 : 1) + (artifact === undefined ? 0 : 1);
  }
  if (keyCount(kwargs) !== taken) return undefined;
  return new known.rebuild(
    content ?? [],
    id,
    name,
    additional ?? {},
    metadata ?? {},
    kind === "ai" ? (toolCalls ?? []) : toolCallId,
    kind === "ai" ? usage : status,
    artifact,
  );
}
