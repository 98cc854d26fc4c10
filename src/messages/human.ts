import { BaseMessage, BaseMessageChunk, hasChunkType, hasMessageType, markBuiltIn } from "./base.js";
import { mergeCommonChunkFields } from "./chunk-fields.js";

/**
 * A message from the user.
 *
 * @example
 * ```ts
 * const question = new HumanMessage("What is the weather in Suzhou?");
 * const withId = new HumanMessage({ content: [{ type: "text", text: "Hi" }], id: "m1", name: "alice" });
 * ```
 */
export class HumanMessage extends BaseMessage {
  readonly type = "human" as const;

  static override lc_name(): string {
    return "HumanMessage";
  }

  static override isInstance(value: unknown): value is HumanMessage {
    return hasMessageType(value, "human");
  }
}

/**
 * A streamed fragment of a human message; `concat` joins fragments.
 *
 * @example
 * ```ts
 * new HumanMessageChunk("Hel").concat(new HumanMessageChunk("lo")).content; // "Hello"
 * ```
 */
export class HumanMessageChunk extends BaseMessageChunk {
  readonly type = "human" as const;

  static override lc_name(): string {
    return "HumanMessageChunk";
  }

  static override isInstance(value: unknown): value is HumanMessageChunk {
    return hasChunkType(value, "human");
  }

  concat(chunk: HumanMessageChunk): HumanMessageChunk {
    const Chunk = this.constructor as typeof HumanMessageChunk;
    return new Chunk(mergeCommonChunkFields(this, chunk));
  }
}

markBuiltIn(HumanMessage);
markBuiltIn(HumanMessageChunk);

/**
 * True for a human message (chunks included), from any copy of agentgraph.
 *
 * @example
 * ```ts
 * isHumanMessage(new HumanMessage("hi")); // true
 * ```
 */
export function isHumanMessage(value: unknown): value is HumanMessage {
  return hasMessageType(value, "human");
}

/**
 * True for a human message, chunk or whole (LangChain.js checks the type only).
 *
 * @example
 * ```ts
 * isHumanMessageChunk(new HumanMessageChunk("hi")); // true
 * isHumanMessageChunk(new HumanMessage("hi")); // true, as in LangChain.js
 * ```
 */
export function isHumanMessageChunk(value: unknown): value is HumanMessageChunk {
  return hasMessageType(value, "human");
}
