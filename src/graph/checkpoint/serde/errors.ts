import { AgentGraphError, type AgentGraphErrorOptions } from "../../../shared/index.js";

/**
 * Raised when a value cannot be encoded (nested too deep, a registered type whose `encode`
 * threw) or stored data cannot be decoded (malformed or truncated JSON, an unknown tag, a tagged
 * value of the wrong shape). The message names the problem and how to fix it; savers and stores
 * add the thread, checkpoint or item the data belongs to. Its `code` is `"SERIALIZATION_ERROR"`.
 *
 * @example
 * ```ts
 * try {
 *   defaultSerializer.decode('{"a": ');
 * } catch (e) {
 *   if (e instanceof SerializationError) console.log(e.code); // "SERIALIZATION_ERROR"
 * }
 * ```
 */
export class SerializationError extends AgentGraphError {
  static override readonly brandName: string = "SerializationError";

  constructor(message: string, options: AgentGraphErrorOptions = {}) {
    super(message, { code: "SERIALIZATION_ERROR", ...options });
  }
}

/** The message of an unknown thrown value, for wrapping it into a {@link SerializationError}. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
