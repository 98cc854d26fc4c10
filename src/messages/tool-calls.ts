import { isPlainRecord } from "./content.js";
import { parsePartialJson } from "./partial-json.js";

/**
 * A request from the model to run one tool: `{ name, args, id, type: "tool_call" }`.
 * `args` is the parsed JSON object of arguments; `id` links the request to the
 * `ToolMessage` that answers it. Calls parsed from a model's output carry `type: "tool_call"`;
 * a message keeps the calls it is given as they are (as LangChain.js does), so `type` is optional.
 *
 * @example
 * ```ts
 * const call: ToolCall = { name: "get_weather", args: { city: "Suzhou" }, id: "call_1", type: "tool_call" };
 * new AIMessage({ content: "", tool_calls: [call] });
 * ```
 */
export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
  id?: string | undefined;
  type?: "tool_call" | undefined;
}

/**
 * A tool call whose arguments could not be parsed (or that lacks an id): `args` keeps the
 * raw text and `error` says what was wrong.
 *
 * @example
 * ```ts
 * const bad: InvalidToolCall = { name: "search", args: "{oops", id: "call_2", error: "Malformed args.", type: "invalid_tool_call" };
 * ```
 */
export interface InvalidToolCall {
  name?: string | undefined;
  args?: string | undefined;
  id?: string | undefined;
  error?: string | undefined;
  type?: "invalid_tool_call" | undefined;
}

/**
 * A streamed fragment of a tool call. Fragments with the same `index` (and the same `id`
 * when both have one) are joined when chunks are concatenated; `args` holds a piece of the
 * JSON argument text.
 *
 * @example
 * ```ts
 * const first: ToolCallChunk = { name: "search", args: '{"q": "ca', id: "call_1", index: 0, type: "tool_call_chunk" };
 * const second: ToolCallChunk = { args: 't"}', index: 0, type: "tool_call_chunk" };
 * ```
 */
export interface ToolCallChunk {
  name?: string | undefined;
  args?: string | undefined;
  id?: string | undefined;
  index?: number | undefined;
  type?: "tool_call_chunk" | undefined;
  /**
   * Set by providers for a custom (free-form) tool: its arguments are raw text, not JSON, and
   * the collapsed call gets them as `args.input`.
   */
  isCustomTool?: boolean | undefined;
}

/**
 * A tool call in the OpenAI chat-completions wire form (`function.arguments` is JSON text),
 * as found in `additional_kwargs.tool_calls` and in `{ role: "assistant", tool_calls }` objects.
 *
 * @example
 * ```ts
 * const raw: OpenAIToolCall = { id: "call_1", type: "function", function: { name: "search", arguments: '{"q":"cat"}' } };
 * ```
 */
export interface OpenAIToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
  index?: number | undefined;
}

const MALFORMED_ARGS = "Malformed args.";

/** True for an object in the OpenAI `{ id, type: "function", function: { name, arguments } }` form. */
export function isOpenAIToolCall(value: unknown): value is OpenAIToolCall {
  if (!isPlainRecord(value) || !isPlainRecord(value.function)) return false;
  return typeof value.function.name === "string" && typeof value.function.arguments === "string";
}

/**
 * Splits OpenAI-form tool calls into parsed tool calls and invalid ones (arguments that are
 * not a JSON object). Entries without a `function` are skipped, as LangChain.js does.
 *
 * @example
 * ```ts
 * const [valid, invalid] = parseOpenAIToolCalls([
 *   { id: "1", type: "function", function: { name: "f", arguments: '{"a":1}' } },
 *   { id: "2", type: "function", function: { name: "g", arguments: "{" } },
 * ]);
 * // valid: [{ name: "f", args: { a: 1 }, id: "1", type: "tool_call" }]; invalid: one entry for "g"
 * ```
 */
export function parseOpenAIToolCalls(raw: readonly unknown[]): [ToolCall[], InvalidToolCall[]] {
  const valid: ToolCall[] = [];
  const invalid: InvalidToolCall[] = [];
  for (const entry of raw) {
    if (!isPlainRecord(entry) || !isPlainRecord(entry.function)) continue;
    const name = typeof entry.function.name === "string" ? entry.function.name : "";
    const id = typeof entry.id === "string" ? entry.id : undefined;
    const text = entry.function.arguments;
    const args = parseArgsObject(text);
    if (args === undefined) {
      invalid.push({
        name,
        args: typeof text === "string" ? text : JSON.stringify(text),
        id,
        error: MALFORMED_ARGS,
        type: "invalid_tool_call",
      });
    } else {
      valid.push({ name, args, id, type: "tool_call" });
    }
  }
  return [valid, invalid];
}

/**
 * Parses OpenAI-form tool calls as LangChain.js's `defaultToolCallParser` does: an entry
 * without `function` is skipped; one whose `function.arguments` is JSON becomes
 * `{ name, args, id }` (an empty name reads as `""`, a falsy parsed value as `{}`), and one
 * whose arguments do not parse (an empty text included) becomes
 * `{ name, args: <the raw arguments>, id, error: "Malformed args." }`. Unlike the parsing
 * `AIMessage` does, the calls carry no `type` and `args` is whatever the JSON holds.
 *
 * @example
 * ```ts
 * defaultToolCallParser([
 *   { id: "1", type: "function", function: { name: "f", arguments: '{"a":1}' } },
 *   { id: "2", type: "function", function: { name: "g", arguments: "{" } },
 * ]);
 * // [[{ name: "f", args: { a: 1 }, id: "1" }], [{ name: "g", args: "{", id: "2", error: "Malformed args." }]]
 * ```
 */
export function defaultToolCallParser(rawToolCalls: readonly object[]): [ToolCall[], InvalidToolCall[]] {
  const toolCalls: ToolCall[] = [];
  const invalidToolCalls: InvalidToolCall[] = [];
  for (const raw of rawToolCalls) {
    // read as LangChain.js reads it: a null entry throws its TypeError
    const entry = raw as { id?: string; function?: { name?: string; arguments?: string } };
    const fn = entry.function;
    if (!fn) continue;
    const name = fn.name;
    try {
      const args: unknown = JSON.parse(fn.arguments as string);
      toolCalls.push({ name: name || "", args: (args || {}) as Record<string, unknown>, id: entry.id });
    } catch {
      invalidToolCalls.push({ name, args: fn.arguments, id: entry.id, error: MALFORMED_ARGS });
    }
  }
  return [toolCalls, invalidToolCalls];
}

/**
 * True for an array whose every element has a numeric `index`: streamed OpenAI-form tool-call
 * fragments (LangChain.js `isOpenAIToolCallArray`). An empty array counts.
 *
 * @example
 * ```ts
 * isOpenAIToolCallArray([{ index: 0, id: "1", type: "function", function: { name: "f", arguments: "" } }]); // true
 * isOpenAIToolCallArray([{ id: "1", type: "function", function: { name: "f", arguments: "{}" } }]); // false
 * ```
 */
export function isOpenAIToolCallArray(value?: unknown): value is OpenAIToolCall[] {
  // element access as LangChain.js: a null element throws its TypeError
  return Array.isArray(value) && value.every((v: { index?: unknown }) => typeof v.index === "number");
}

/** Parses complete JSON argument text; `undefined` unless it is an object (an empty text means `{}`). */
function parseArgsObject(text: unknown): Record<string, unknown> | undefined {
  if (isPlainRecord(text)) return text;
  if (typeof text !== "string") return undefined;
  if (text.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Turns streamed tool-call fragments into tool calls: fragments are grouped by `id` and
 * `index`, their `args` joined and parsed as (possibly partial) JSON. A group whose text is
 * not a JSON object, or that has no id, becomes an invalid tool call with
 * `error: "Malformed args."`; a group with `isCustomTool` gets its raw text as `args.input`.
 * The fragments come back as `tool_call_chunks`, as in LangChain.js. This is what
 * `AIMessageChunk.tool_calls` reports.
 *
 * @example
 * ```ts
 * collapseToolCallChunks([
 *   { name: "search", args: '{"q": "ca', id: "call_1", index: 0 },
 *   { args: 't"}', index: 0 },
 * ]).tool_calls; // [{ name: "search", args: { q: "cat" }, id: "call_1", type: "tool_call" }]
 * ```
 */
export function collapseToolCallChunks<Chunk extends ToolCallChunk>(
  chunks: readonly Chunk[],
): {
  tool_call_chunks: readonly Chunk[];
  tool_calls: ToolCall[];
  invalid_tool_calls: InvalidToolCall[];
} {
  const tool_calls: ToolCall[] = [];
  const invalid_tool_calls: InvalidToolCall[] = [];
  for (const group of groupChunks(chunks)) {
    const first = group[0] as ToolCallChunk;
    const name = first.name ?? "";
    let text = "";
    for (const chunk of group) text += chunk.args ?? "";
    const id = group.find((c) => c.id)?.id ?? first.id;
    // a custom tool's arguments are raw text, kept as they came (untrimmed)
    if (id && group.some((c) => c.isCustomTool === true)) {
      tool_calls.push({ name, args: { input: text }, id, type: "tool_call" });
      continue;
    }
    text = text.trim();
    const argsText = text.length > 0 ? text : "{}";
    const parsed = parsePartialJson(argsText);
    if (id && isPlainRecord(parsed)) {
      tool_calls.push({ name, args: parsed, id, type: "tool_call" });
    } else {
      invalid_tool_calls.push({ name, args: argsText, id, error: MALFORMED_ARGS, type: "invalid_tool_call" });
    }
  }
  return { tool_call_chunks: chunks, tool_calls, invalid_tool_calls };
}

/** Groups fragments that belong to one call (same id and index, or the one of them present). */
function groupChunks(chunks: readonly ToolCallChunk[]): ToolCallChunk[][] {
  const groups: ToolCallChunk[][] = [];
  for (const chunk of chunks) {
    const hasId = typeof chunk.id === "string" && chunk.id !== "";
    const hasIndex = chunk.index !== undefined && chunk.index !== null;
    const group = groups.find(([head]) => {
      if (head === undefined) return false;
      if (hasId && hasIndex) return head.id === chunk.id && head.index === chunk.index;
      if (hasId) return head.id === chunk.id;
      if (hasIndex) return head.index === chunk.index;
      return false;
    });
    if (group === undefined) groups.push([chunk]);
    else group.push(chunk);
  }
  return groups;
}
