import type { BaseMessageChunk } from "./base.js";
import { isBaseMessageChunk } from "./base.js";
import { isPlainRecord } from "./content.js";
import { MessageMergeError } from "./errors.js";

/**
 * Joins two streamed values: message chunks through their `concat`, strings and arrays by
 * appending, numbers by adding, and plain objects key by key (the same helper LangChain.js
 * keeps in `@langchain/core/utils/stream`). Useful to fold a model stream into one message.
 *
 * @example
 * ```ts
 * let whole: AIMessageChunk | undefined;
 * for await (const chunk of await model.stream(messages)) whole = whole === undefined ? chunk : concat(whole, chunk);
 * ```
 */
export function concat<T extends BaseMessageChunk>(first: T, second: T): T;
export function concat(first: string, second: string): string;
export function concat(first: number, second: number): number;
export function concat<T>(first: readonly T[], second: readonly T[]): T[];
export function concat(
  first: Record<string, unknown>,
  second: Record<string, unknown>,
): Record<string, unknown>;
export function concat(first: unknown, second: unknown): unknown {
  if (Array.isArray(first) && Array.isArray(second)) return first.concat(second);
  if (typeof first === "string" && typeof second === "string") return first + second;
  if (typeof first === "number" && typeof second === "number") return first + second;
  if (isBaseMessageChunk(first)) return first.concat(second as BaseMessageChunk);
  if (isPlainRecord(first) && isPlainRecord(second)) {
    const joined: Record<string, unknown> = { ...first };
    for (const [key, value] of Object.entries(second)) {
      const current = Object.hasOwn(joined, key) ? joined[key] : undefined;
      const next =
        current !== undefined && !Array.isArray(current) ? concat(current as never, value as never) : value;
      Object.defineProperty(joined, key, {
        value: next,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return joined;
  }
  throw new MessageMergeError(`Cannot concat ${typeof first} and ${typeof second}`);
}
