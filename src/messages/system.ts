import { BaseMessage, BaseMessageChunk, hasChunkType, hasMessageType, markBuiltIn } from "./base.js";
import { mergeCommonChunkFields } from "./chunk-fields.js";
import { mergeContent } from "./merge.js";

/**
 * Instructions for the model, usually first in the list. A `{ role: "developer" }` object
 * coerces to a system message with `additional_kwargs.__openai_role__ = "developer"`.
 *
 * @example
 * ```ts
 * const prompt = new SystemMessage("You are a helpful assistant");
 * const longer = prompt.concat("\nAnswer in French."); // a new SystemMessage
 * ```
 */
export class SystemMessage extends BaseMessage {
  readonly type = "system" as const;

  static override lc_name(): string {
    return "SystemMessage";
  }

  static override isInstance(value: unknown): value is SystemMessage {
    return hasMessageType(value, "system");
  }

  /**
   * A new system message with text or another system message appended (metadata of the
   * second overrides the first; id and name come from the first when it has them). Anything
   * else throws `Error("Unexpected chunk type for system message")`, as in LangChain.js.
   */
  concat(next: string | SystemMessage): SystemMessage {
    if (!SystemMessage.isInstance(next) && typeof next !== "string") {
      // LangChain.js's error for anything else (content blocks, another kind of message)
      throw new Error("Unexpected chunk type for system message");
    }
    if (typeof next === "string") {
      return new SystemMessage({
        content: mergeContent(this.content, next),
        additional_kwargs: this.additional_kwargs,
        response_metadata: this.response_metadata,
        id: this.id,
        name: this.name,
      });
    }
    return new SystemMessage({
      content: mergeContent(this.content, next.content),
      additional_kwargs: { ...this.additional_kwargs, ...next.additional_kwargs },
      response_metadata: { ...this.response_metadata, ...next.response_metadata },
      id: this.id ?? next.id,
      name: this.name ?? next.name,
    });
  }
}

/**
 * A streamed fragment of a system message; `concat` joins fragments.
 *
 * @example
 * ```ts
 * new SystemMessageChunk("Be ").concat(new SystemMessageChunk("brief.")).content; // "Be brief."
 * ```
 */
export class SystemMessageChunk extends BaseMessageChunk {
  readonly type = "system" as const;

  static override lc_name(): string {
    return "SystemMessageChunk";
  }

  static override isInstance(value: unknown): value is SystemMessageChunk {
    return hasChunkType(value, "system");
  }

  concat(chunk: SystemMessageChunk): SystemMessageChunk {
    const Chunk = this.constructor as typeof SystemMessageChunk;
    return new Chunk(mergeCommonChunkFields(this, chunk));
  }
}

markBuiltIn(SystemMessage);
markBuiltIn(SystemMessageChunk);

/**
 * True for a system message (chunks included), from any copy of agentgraph.
 *
 * @example
 * ```ts
 * isSystemMessage(new SystemMessage("Be brief.")); // true
 * ```
 */
export function isSystemMessage(value: unknown): value is SystemMessage {
  return hasMessageType(value, "system");
}

/**
 * True for a system message, chunk or whole (LangChain.js checks the type only).
 *
 * @example
 * ```ts
 * isSystemMessageChunk(new SystemMessageChunk("x")); // true
 * isSystemMessageChunk(new SystemMessage("x")); // true, as in LangChain.js
 * ```
 */
export function isSystemMessageChunk(value: unknown): value is SystemMessageChunk {
  return hasMessageType(value, "system");
}
