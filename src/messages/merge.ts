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
import type { ContentBlock, MessageContent } from "./content.js";
import { isObject, isPlainRecord } from "./content.js";
import { MessageMergeError } from "./errors.js";

type Dict = Record<string, unknown>;

const IGNORED_KEYS = new Set(["index", "created", "timestamp"]);
const REPLACED_KEYS = new Set(["id", "name", "output_version", "model_provider"]);

/**
 * Merges two metadata dictionaries of consecutive chunks (see the rules above).
 *
 * @example
 * ```ts
 * mergeDicts({ function_call: { name: "f", arguments: "{" } }, { function_call: { arguments: "}" } });
 * // { function_call: { name: "f", arguments: "{}" } }
 * ```
 */
export function mergeDicts(left: Dict | undefined, right: Dict | undefined): Dict | undefined {
  if (left == null) return right ?? undefined;
  if (right == null) return left;
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
      if (key === "type" || IGNORED_KEYS.has(key)) continue;
      if (REPLACED_KEYS.has(key)) {
        if (value) setOwn(merged, key, value);
      } else {
        setOwn(merged, key, current + (value as string));
      }
    } else if (typeof current === "number") {
      if (!IGNORED_KEYS.has(key)) setOwn(merged, key, current + (value as number));
    } else if (Array.isArray(current)) {
      setOwn(merged, key, mergeLists(current, value as unknown[]));
    } else if (isObject(current)) {
      setOwn(merged, key, mergeDicts(current, value as Dict));
    }
    // Other kinds (booleans, …) keep the first value, as LangChain.js does.
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
): T[] | undefined {
  if (left == null) return right == null ? undefined : [...right];
  if (right == null) return [...left];
  const merged: unknown[] = [...left];
  for (const item of right) {
    const target = findMergeTarget(merged, item);
    if (target !== -1) {
      merged[target] = mergeDicts(merged[target] as Dict, item as Dict);
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
export function mergeValues(left: unknown, right: unknown): unknown {
  if (left == null) return right ?? undefined;
  if (right == null) return left;
  if (typeof left !== typeof right) {
    throw new MessageMergeError(
      `Cannot merge objects of different types.\nLeft ${typeof left}\nRight ${typeof right}`,
    );
  }
  if (typeof left === "string") return left + (right as string);
  if (Array.isArray(left) && Array.isArray(right)) return mergeLists(left, right);
  if (isPlainRecord(left) && isPlainRecord(right)) return mergeDicts(left, right);
  if (left === right) return left;
  throw new MessageMergeError(
    `Can not merge objects of different types.\nLeft ${String(left)}\nRight ${String(right)}`,
  );
}

function isLegacyDataBlock(block: unknown): boolean {
  if (!isPlainRecord(block) || typeof block.type !== "string") return false;
  const source = block.source_type;
  return source === "url" || source === "base64" || source === "text" || source === "id";
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
    if (Array.isArray(second) && second.some(isLegacyDataBlock)) {
      return [{ type: "text", source_type: "text", text: first }, ...second];
    }
    return [{ type: "text", text: first }, ...asBlocks(second)];
  }
  if (Array.isArray(second)) {
    const left = asBlocks(first);
    return mergeLists(left, second) ?? [...left, ...second];
  }
  if (second === "") return first;
  if (Array.isArray(first) && first.some(isLegacyDataBlock)) {
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
export function mergeStatus(
  left: "success" | "error" | undefined,
  right: "success" | "error" | undefined,
): "success" | "error" {
  return left === "error" || right === "error" ? "error" : "success";
}
