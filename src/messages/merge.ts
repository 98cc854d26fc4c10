/**
 * How streamed message chunks combine. The rules are those of LangChain.js, so a stream
 * produced by any provider adapter joins the same way here:
 *
 * - strings append; numbers add (except `index`, `created`, `timestamp`, which keep the first);
 * - `id`, `name`, `output_version` and `model_provider` take the latest non-empty value, `type` the first;
 * - nested objects merge recursively; lists merge element by element, where an element that
 *   shares an `index` (and `id`, when both have one) with an earlier element merges into it.
 */
import { setOwn } from "../shared/index.js";
import type { ResponseMetadata } from "./base.js";
import type { ContentBlock, MessageContent } from "./content.js";
import { isObject, isPlainRecord } from "./content.js";
import { isDataContentBlock } from "./data-blocks.js";
import { MessageMergeError } from "./errors.js";

type Dict = Record<string, unknown>;

/**
 * The keys whose values the first chunk keeps (numbers are not added, strings not appended):
 * identification and timestamp fields. The default of {@link MergeDictsOptions.ignoreKeys}.
 *
 * @example
 * ```ts
 * _mergeDicts({ index: 0, n: 1 }, { index: 0, n: 2 }, { ignoreKeys: [...DEFAULT_MERGE_IGNORE_KEYS, "n"] });
 * // { index: 0, n: 1 }
 * ```
 */
export const DEFAULT_MERGE_IGNORE_KEYS: readonly string[] = ["index", "created", "timestamp"];

const REPLACED_KEYS = new Set(["id", "name", "output_version", "model_provider"]);

/**
 * Options of the merge helpers ({@link _mergeDicts}, {@link _mergeLists}, {@link _mergeObj}).
 *
 * @example
 * ```ts
 * const options: MergeDictsOptions = { ignoreKeys: [...DEFAULT_MERGE_IGNORE_KEYS, "role"] };
 * ```
 */
export interface MergeDictsOptions {
  /**
   * Keys whose first value is kept: a number is not added, a string not appended (except
   * `id`, `name`, `output_version` and `model_provider`, which always take the latest non-empty
   * value). Defaults to {@link DEFAULT_MERGE_IGNORE_KEYS}.
   */
  ignoreKeys?: readonly string[] | undefined;
}

/** The internal options: chunk concatenation keeps unmergeable values silently, the exported helpers warn. */
interface MergeOptions extends MergeDictsOptions {
  onUnmergeable?: ((key: string) => void) | undefined;
}

/**
 * Merges two metadata dictionaries of consecutive chunks (see the rules above).
 *
 * @example
 * ```ts
 * mergeDicts({ function_call: { name: "f", arguments: "{" } }, { function_call: { arguments: "}" } });
 * // { function_call: { name: "f", arguments: "{}" } }
 * ```
 */
export function mergeDicts(
  left: Dict | undefined,
  right: Dict | undefined,
  options?: MergeOptions,
): Dict | undefined {
  if (left == null) return right ?? undefined;
  if (right == null) return left;
  const ignoreKeys = options?.ignoreKeys ?? DEFAULT_MERGE_IGNORE_KEYS;
  const merged: Dict = { ...left };
  for (const key of Object.keys(right)) {
    const value = right[key];
    const current = Object.hasOwn(merged, key) ? merged[key] : undefined;
    if (current == null) {
      setOwn(merged, key, value);
    } else if (value == null) {
      // nothing to add
    } else if (typeof current !== typeof value || Array.isArray(current) !== Array.isArray(value)) {
      throw new MessageMergeError(
        `field[${key}] already exists in the message chunk, but with a different type.`,
      );
    } else if (typeof current === "string") {
      if (key === "type") continue;
      if (REPLACED_KEYS.has(key)) {
        if (value) setOwn(merged, key, value);
      } else if (!ignoreKeys.includes(key)) {
        setOwn(merged, key, current + (value as string));
      }
    } else if (typeof current === "number") {
      if (!ignoreKeys.includes(key)) setOwn(merged, key, current + (value as number));
    } else if (Array.isArray(current)) {
      setOwn(merged, key, mergeLists(current, value as unknown[], options));
    } else if (isObject(current)) {
      setOwn(merged, key, mergeDicts(current, value as Dict, options));
    } else if (current !== value) {
      // Other kinds (booleans, …) keep the first value, as LangChain.js does.
      options?.onUnmergeable?.(key);
    }
  }
  return merged;
}

function hasIndex(value: unknown): value is { index: number | string } {
  return isPlainRecord(value) && (typeof value.index === "number" || typeof value.index === "string");
}

function hasId(value: unknown): value is { id: unknown } {
  return isPlainRecord(value) && value.id != null && value.id !== "";
}

function baseType(type: unknown): unknown {
  return typeof type === "string" && type.endsWith("_delta") ? type.slice(0, -6) : type;
}

function findMergeTarget(merged: readonly unknown[], item: unknown): number {
  const itemHasIndex = hasIndex(item);
  const itemHasId = hasId(item);
  if (!itemHasIndex && !itemHasId) return -1;
  return merged.findIndex((candidate) => {
    const candidateHasIndex = hasIndex(candidate);
    if (itemHasIndex && candidateHasIndex) {
      if (candidate.index !== item.index) return false;
      const a = candidate as Dict;
      const b = item as Dict;
      if (typeof a.type === "string" && typeof b.type === "string" && baseType(a.type) !== baseType(b.type)) {
        return false;
      }
      return hasId(candidate) && itemHasId ? candidate.id === item.id : true;
    }
    return !itemHasIndex && !candidateHasIndex && itemHasId && hasId(candidate) && candidate.id === item.id;
  });
}

/**
 * Merges two lists of chunk elements (content blocks, tool-call fragments): elements that
 * share an `index` merge, others append; empty text fragments are dropped.
 *
 * @example
 * ```ts
 * mergeLists([{ type: "text", text: "Hel", index: 0 }], [{ type: "text", text: "lo", index: 0 }]);
 * // [{ type: "text", text: "Hello", index: 0 }]
 * ```
 */
export function mergeLists<T>(
  left: readonly T[] | undefined,
  right: readonly T[] | undefined,
  options?: MergeOptions,
): T[] | undefined {
  if (left == null) return right == null ? undefined : [...right];
  if (right == null) return [...left];
  const merged: unknown[] = [...left];
  for (const item of right) {
    const target = findMergeTarget(merged, item);
    if (target !== -1) {
      merged[target] = mergeDicts(merged[target] as Dict, item as Dict, options);
    } else if (!(isPlainRecord(item) && "text" in item && item.text === "")) {
      merged.push(item);
    }
  }
  return merged as T[];
}

/**
 * Merges two values of the same kind (strings append, lists and objects merge); used for
 * tool-message artifacts.
 *
 * @example
 * ```ts
 * mergeValues("ab", "cd"); // "abcd"
 * ```
 */
export function mergeValues(left: unknown, right: unknown, options?: MergeOptions): unknown {
  if (left == null) return right ?? undefined;
  if (right == null) return left;
  if (typeof left !== typeof right) {
    throw new MessageMergeError(
      `Cannot merge objects of different types.\nLeft ${typeof left}\nRight ${typeof right}`,
    );
  }
  if (typeof left === "string") return left + (right as string);
  if (Array.isArray(left) && Array.isArray(right)) return mergeLists(left, right, options);
  // as in LangChain.js, any two objects merge key by key (a list beside a record included)
  if (isObject(left) && isObject(right)) return mergeDicts(left, right, options);
  if (left === right) return left;
  throw new MessageMergeError(
    `Can not merge objects of different types.\nLeft ${String(left)}\nRight ${String(right)}`,
  );
}

function asBlocks(content: MessageContent | ContentBlock | null | undefined): ContentBlock[] {
  if (Array.isArray(content)) return content;
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  if (content == null) return [];
  return [content];
}

/**
 * Concatenates the content of two consecutive chunks: two strings append; otherwise both
 * sides become block lists and blocks with the same `index` merge (so streamed text
 * fragments of one block join into one block).
 *
 * @example
 * ```ts
 * mergeContent("Hel", "lo"); // "Hello"
 * mergeContent([{ type: "text", text: "a", index: 0 }], [{ type: "text", text: "b", index: 0 }]);
 * // [{ type: "text", text: "ab", index: 0 }]
 * ```
 */
export function mergeContent(first: MessageContent, second: MessageContent): MessageContent {
  if (typeof first === "string") {
    if (first === "") return second;
    if (typeof second === "string") return first + second;
    if (Array.isArray(second) && second.length === 0) return first;
    if (Array.isArray(second) && second.some(isDataContentBlock)) {
      return [{ type: "text", source_type: "text", text: first }, ...second];
    }
    return [{ type: "text", text: first }, ...asBlocks(second)];
  }
  if (Array.isArray(second)) {
    const left = asBlocks(first);
    return mergeLists(left, second) ?? [...left, ...second];
  }
  if (second === "") return first;
  if (Array.isArray(first) && first.some(isDataContentBlock)) {
    return [...first, { type: "file", source_type: "text", text: second }];
  }
  return [...asBlocks(first), { type: "text", text: second }];
}

/**
 * Combines two tool-message statuses: `"error"` wins.
 *
 * @example
 * ```ts
 * mergeStatus("success", "error"); // "error"
 * ```
 */
export function mergeStatus(left?: "success" | "error", right?: "success" | "error"): "success" | "error" {
  return left === "error" || right === "error" ? "error" : "success";
}

function warnUnmergeable(key: string): void {
  console.warn(`field[${key}] already exists in this message chunk and value has unsupported type.`);
}

function warning(options: MergeDictsOptions | undefined): MergeOptions {
  return { ...options, onUnmergeable: warnUnmergeable };
}

/**
 * Merges two metadata dictionaries the way chunk concatenation does (LangChain.js
 * `_mergeDicts`): strings append, numbers add, nested objects and lists merge, the
 * {@link MergeDictsOptions.ignoreKeys} keep their first value, `type` keeps the first and `id`,
 * `name`, `output_version`, `model_provider` take the latest non-empty value. A key holding
 * values of different types throws a {@link MessageMergeError}
 * (`field[<key>] already exists in the message chunk, but with a different type.`); two
 * different values that cannot merge (booleans, …) keep the first and log a warning. Either
 * side may be `undefined` (the other is returned).
 *
 * @example
 * ```ts
 * _mergeDicts({ text: "Hel", index: 0, n: 1 }, { text: "lo", index: 0, n: 2 });
 * // { text: "Hello", index: 0, n: 3 }
 * ```
 */
export function _mergeDicts(
  left: object | undefined,
  right: object | undefined,
  options?: MergeDictsOptions,
): Record<string, unknown> | undefined {
  return mergeDicts(left as Dict | undefined, right as Dict | undefined, warning(options));
}

/**
 * Merges two lists of chunk elements (LangChain.js `_mergeLists`): an element of `right` that
 * shares an `index` (and `id`, when both have one; or, without indexes, just the `id`) with an
 * element of `left` merges into it with {@link _mergeDicts}, an empty text fragment is dropped,
 * and any other element is appended. When one side is missing the other is returned as it is.
 *
 * @example
 * ```ts
 * _mergeLists([{ type: "text", text: "Hel", index: 0 }], [{ type: "text", text: "lo", index: 0 }]);
 * // [{ type: "text", text: "Hello", index: 0 }]
 * ```
 */
export function _mergeLists<T>(
  left?: T[] | undefined,
  right?: T[] | undefined,
  options?: MergeDictsOptions,
): T[] | undefined {
  if (left == null || right == null) return left ?? right ?? undefined;
  return mergeLists(left, right, warning(options));
}

/**
 * Merges two values of the same kind (LangChain.js `_mergeObj`, which joins tool-message
 * artifacts): strings append, lists merge with {@link _mergeLists}, objects with
 * {@link _mergeDicts}, equal values stay; a missing side yields the other. Values of different
 * types throw `Cannot merge objects of different types.\nLeft <type>\nRight <type>`, and
 * different values that cannot merge (numbers, booleans) throw
 * `Can not merge objects of different types.\nLeft <left>\nRight <right>`.
 *
 * @example
 * ```ts
 * _mergeObj({ rows: [1] }, { rows: [2] }); // { rows: [1, 2] }
 * _mergeObj("ab", "cd"); // "abcd"
 * ```
 */
export function _mergeObj<T = unknown>(
  left: T | undefined,
  right: T | undefined,
  options?: MergeDictsOptions,
): T | undefined {
  return mergeValues(left, right, warning(options)) as T | undefined;
}

/**
 * Merges the `response_metadata` of two chunks with {@link _mergeDicts}; `{}` when both are
 * missing (LangChain.js `mergeResponseMetadata`).
 *
 * @example
 * ```ts
 * mergeResponseMetadata({ model_name: "gpt-4.1" }, { finish_reason: "stop" });
 * // { model_name: "gpt-4.1", finish_reason: "stop" }
 * ```
 */
export function mergeResponseMetadata(a?: ResponseMetadata, b?: ResponseMetadata): ResponseMetadata {
  return (_mergeDicts(a, b) ?? {}) as ResponseMetadata;
}
