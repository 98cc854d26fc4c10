import { InvalidArgumentError } from "../shared/index.js";
import type { BaseMessageFields } from "./base.js";
import { BaseMessage, BaseMessageChunk, hasChunkType, hasMessageType, markBuiltIn } from "./base.js";
import { mergeCommonChunkFields } from "./chunk-fields.js";
import type { MessageContent } from "./content.js";

/**
 * The fields of a chat message: the common ones and its `role` (required), a role name of the
 * caller's choosing.
 *
 * @example
 * ```ts
 * const fields: ChatMessageFields = { content: "Order in the court!", role: "judge" };
 * ```
 */
export interface ChatMessageFields extends BaseMessageFields {
  role: string;
}

/** Reads `role`, which the two chat message classes require to be a string. */
function requireRole(value: unknown, className: string): string {
  if (typeof value === "string") return value;
  throw new InvalidArgumentError(
    `${className} requires a string role, got ${JSON.stringify(value) ?? String(value)}. ` +
      `Pass it as new ${className}(content, role) or new ${className}({ content, role }).`,
  );
}

/** The fields from either constructor form. */
function chatFields(fields: MessageContent | ChatMessageFields, role: string | undefined): ChatMessageFields {
  return typeof fields === "string" || Array.isArray(fields)
    ? { content: fields, role: role as string }
    : fields;
}

/**
 * A message with a role of its own (`"moderator"`, `"narrator"`, or a provider role such as
 * `"user"`), LangChain's generic message: its `type` is `"generic"` and `role` says who speaks.
 * OpenAI models receive it with that role; providers without free roles (Anthropic) reject it.
 * Construct it from fields or as `new ChatMessage(content, role)`.
 *
 * @example
 * ```ts
 * const line = new ChatMessage("Order in the court!", "judge");
 * const same = new ChatMessage({ content: "Order in the court!", role: "judge", id: "m1" });
 * getBufferString([line]); // "judge: Order in the court!"
 * ```
 */
export class ChatMessage extends BaseMessage {
  readonly type = "generic" as const;
  /** Who speaks: a role name of the caller's choosing. */
  role: string;

  constructor(fields: ChatMessageFields);
  constructor(content: MessageContent, role: string);
  constructor(fields: MessageContent | ChatMessageFields, role?: string) {
    const given = chatFields(fields, role);
    super(given);
    this.role = requireRole(given.role, "ChatMessage");
  }

  static override lc_name(): string {
    return "ChatMessage";
  }

  /** The class itself (LangChain.js `ChatMessage._chatMessageClass`). */
  static _chatMessageClass(): typeof ChatMessage {
    return ChatMessage;
  }

  /**
   * True for a chat message, chunk or whole (as in LangChain.js), from any copy of agentgraph.
   *
   * @example
   * ```ts
   * ChatMessage.isInstance(new ChatMessageChunk("Hi", "judge")); // true
   * ```
   */
  static override isInstance(value: unknown): value is ChatMessage {
    return hasMessageType(value, "generic");
  }

  /**
   * The fields LangChain.js shows when it inspects the message: the common ones and `role`.
   *
   * @example
   * ```ts
   * new ChatMessage("Hi", "judge")._printableFields.role; // "judge"
   * ```
   */
  get _printableFields(): Record<string, unknown> {
    return printableFields(this);
  }
}

/**
 * A streamed fragment of a chat message; `concat` joins fragments and keeps the first role.
 *
 * @example
 * ```ts
 * const a = new ChatMessageChunk("Order in ", "judge");
 * a.concat(new ChatMessageChunk("the court!", "judge")).content; // "Order in the court!"
 * ```
 */
export class ChatMessageChunk extends BaseMessageChunk {
  readonly type = "generic" as const;
  /** Who speaks: a role name of the caller's choosing. */
  role: string;

  constructor(fields: ChatMessageFields);
  constructor(content: MessageContent, role: string);
  constructor(fields: MessageContent | ChatMessageFields, role?: string) {
    const given = chatFields(fields, role);
    super(given);
    this.role = requireRole(given.role, "ChatMessageChunk");
  }

  static override lc_name(): string {
    return "ChatMessageChunk";
  }

  static override isInstance(value: unknown): value is ChatMessageChunk {
    return hasChunkType(value, "generic");
  }

  /** Content and both metadata bags merge; the role is this chunk's; id and name the first present. */
  concat(chunk: ChatMessageChunk): ChatMessageChunk {
    const Chunk = this.constructor as typeof ChatMessageChunk;
    return new Chunk({ ...mergeCommonChunkFields(this, chunk), role: this.role });
  }

  /** The fields LangChain.js shows when it inspects the message: the common ones and `role`. */
  get _printableFields(): Record<string, unknown> {
    return printableFields(this);
  }
}

function printableFields(message: ChatMessage | ChatMessageChunk): Record<string, unknown> {
  return {
    id: message.id,
    content: message.content,
    name: message.name,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
    role: message.role,
  };
}

markBuiltIn(ChatMessage);
markBuiltIn(ChatMessageChunk);

/**
 * True for a chat message (`type` `"generic"`, chunks included), from any copy of agentgraph.
 *
 * @example
 * ```ts
 * isChatMessage(new ChatMessage("Hi", "judge")); // true
 * ```
 */
export function isChatMessage(value: unknown): value is ChatMessage {
  return hasMessageType(value, "generic");
}

/**
 * True for a chat message, chunk or whole (LangChain.js checks the type only).
 *
 * @example
 * ```ts
 * isChatMessageChunk(new ChatMessageChunk("Hi", "judge")); // true
 * isChatMessageChunk(new ChatMessage("Hi", "judge")); // true, as in LangChain.js
 * ```
 */
export function isChatMessageChunk(value: unknown): value is ChatMessageChunk {
  return hasMessageType(value, "generic");
}
