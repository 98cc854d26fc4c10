import { InvalidArgumentError } from "../shared/index.js";
import type { BaseMessageFields } from "./base.js";
import { BaseMessage, BaseMessageChunk, hasChunkType, hasMessageType, markBuiltIn } from "./base.js";
import { mergeCommonChunkFields } from "./chunk-fields.js";

/**
 * The fields of a function message: the common ones, with `name` (the function that ran)
 * required.
 *
 * @example
 * ```ts
 * const fields: FunctionMessageFields = { content: '{"temp": 21}', name: "get_weather" };
 * ```
 */
export interface FunctionMessageFields extends BaseMessageFields {
  name: string;
}

/**
 * The result of a legacy OpenAI function call (the `additional_kwargs.function_call` of an AI
 * message), sent back as a `role: "function"` message. New code answers tool calls with a
 * `ToolMessage`; this class is here for programs ported from the function-calling era.
 *
 * @example
 * ```ts
 * const result = new FunctionMessage({ content: '{"temp": 21}', name: "get_weather" });
 * result.getType(); // "function"
 * ```
 */
export class FunctionMessage extends BaseMessage {
  readonly type = "function" as const;
  /** The function whose result this is. */
  declare name: string;

  constructor(fields: FunctionMessageFields) {
    super(fields);
    const name = typeof fields === "object" && !Array.isArray(fields) ? fields.name : undefined;
    if (typeof name !== "string") {
      throw new InvalidArgumentError(
        "FunctionMessage requires the name of the function that ran, got " +
          `${JSON.stringify(name) ?? String(name)}. Pass it as new FunctionMessage({ content, name }).`,
      );
    }
    this.name = name;
  }

  static override lc_name(): string {
    return "FunctionMessage";
  }

  /**
   * True for a function message, chunk or whole (as in LangChain.js), from any copy of agentgraph.
   *
   * @example
   * ```ts
   * FunctionMessage.isInstance(new FunctionMessageChunk({ content: "21", name: "f" })); // true
   * ```
   */
  static override isInstance(value: unknown): value is FunctionMessage {
    return hasMessageType(value, "function");
  }
}

/**
 * A streamed fragment of a function message; `concat` joins fragments. Its `name` is optional;
 * a joined chunk has the first chunk's name, or `""` (as in LangChain.js).
 *
 * @example
 * ```ts
 * const a = new FunctionMessageChunk({ content: '{"temp": ', name: "get_weather" });
 * a.concat(new FunctionMessageChunk({ content: "21}" })).content; // '{"temp": 21}'
 * ```
 */
export class FunctionMessageChunk extends BaseMessageChunk {
  readonly type = "function" as const;

  static override lc_name(): string {
    return "FunctionMessageChunk";
  }

  static override isInstance(value: unknown): value is FunctionMessageChunk {
    return hasChunkType(value, "function");
  }

  /** Content and both metadata bags merge; the name is this chunk's (or `""`); id the first present. */
  concat(chunk: FunctionMessageChunk): FunctionMessageChunk {
    const Chunk = this.constructor as typeof FunctionMessageChunk;
    return new Chunk({ ...mergeCommonChunkFields(this, chunk), name: this.name ?? "" });
  }
}

markBuiltIn(FunctionMessage);
markBuiltIn(FunctionMessageChunk);

/**
 * True for a function message (chunks included), from any copy of agentgraph.
 *
 * @example
 * ```ts
 * isFunctionMessage(new FunctionMessage({ content: "21", name: "get_weather" })); // true
 * ```
 */
export function isFunctionMessage(value: unknown): value is FunctionMessage {
  return hasMessageType(value, "function");
}

/**
 * True for a function message, chunk or whole (LangChain.js checks the type only).
 *
 * @example
 * ```ts
 * isFunctionMessageChunk(new FunctionMessageChunk({ content: "21" })); // true
 * isFunctionMessageChunk(new FunctionMessage({ content: "21", name: "f" })); // true, as in LangChain.js
 * ```
 */
export function isFunctionMessageChunk(value: unknown): value is FunctionMessageChunk {
  return hasMessageType(value, "function");
}
