import { isDirectToolOutput, isToolMessage, type MessageContent, ToolMessage } from "../messages/index.js";
import { ToolOutputFormatError } from "./errors.js";
import type { ResponseFormat } from "./types.js";

export { isDirectToolOutput };

/**
 * True for a graph `Command` from any copy of agentgraph (or LangGraph.js): detected by its
 * `lg_name` marker, since tools cannot import the graph package.
 *
 * @example
 * ```ts
 * isCommandLike(new Command({ update: { done: true } })); // true
 * ```
 */
export function isCommandLike(value: unknown): value is { readonly lg_name: "Command" } {
  return (
    typeof value === "object" && value !== null && (value as { lg_name?: unknown }).lg_name === "Command"
  );
}

/**
 * What the tool returned and what it answered.
 *
 * @example
 * ```ts
 * const ctx: ToolOutputContext = { output: "sunny", name: "get_weather", responseFormat: "content", toolCallId: "call_1" };
 * ```
 */
export interface ToolOutputContext {
  output: unknown;
  name: string;
  responseFormat: ResponseFormat;
  /** The id of the tool call, or `undefined` when the tool was invoked with plain arguments. */
  toolCallId: string | undefined;
  /** The tool's `metadata`, copied onto the `ToolMessage` (as LangChain.js does). */
  metadata?: Record<string, unknown> | undefined;
}

/**
 * Turns a tool's return value into what `invoke` returns, as LangChain.js does: with a tool
 * call, a `ToolMessage` (strings and content blocks are the content, anything else its JSON;
 * `[content, artifact]` for `"content_and_artifact"`); a returned `ToolMessage` passes
 * through with the call id filled in, and a `Command` passes through untouched. Without a
 * tool call, the raw value (the content part for `"content_and_artifact"`).
 *
 * @example
 * ```ts
 * formatToolOutput({ output: { temp: 21 }, name: "weather", responseFormat: "content", toolCallId: "call_1" });
 * // ToolMessage { content: '{"temp":21}', tool_call_id: "call_1", name: "weather", status: "success" }
 * ```
 */
export function formatToolOutput(ctx: ToolOutputContext): unknown {
  const { output, toolCallId, name } = ctx;
  if (isToolMessage(output)) {
    if (toolCallId !== undefined && output.tool_call_id === "") output.tool_call_id = toolCallId;
    return output;
  }
  if (isCommandLike(output) || isDirectToolOutput(output)) return output;
  let content = output;
  let artifact: unknown;
  if (ctx.responseFormat === "content_and_artifact") {
    if (!Array.isArray(output) || output.length !== 2) {
      throw new ToolOutputFormatError(
        `Tool response format is "content_and_artifact" but the output was not a two-tuple.\nResult: ${resultText(output)}`,
      );
    }
    [content, artifact] = output;
  }
  // an empty id counts as none, as in LangChain.js
  if (!toolCallId) return content;
  return new ToolMessage({
    content: toMessageContent(content),
    artifact,
    tool_call_id: toolCallId,
    name,
    status: "success",
    // a tool without metadata (`{}`) adds none to its messages
    metadata: hasKeys(ctx.metadata) ? ctx.metadata : undefined,
  });
}

/**
 * Strings and arrays of content blocks (objects with a `type`) are content as they are; anything
 * else, an array of other objects included, becomes JSON text.
 *
 * @example
 * ```ts
 * toMessageContent({ temp: 21 }); // '{"temp":21}'
 * toMessageContent([{ type: "text", text: "hi" }]); // the blocks, unchanged
 * toMessageContent([{ day: "Mon" }]); // '[{"day":"Mon"}]'
 * ```
 */
export function toMessageContent(value: unknown): MessageContent {
  if (typeof value === "string") return value;
  // content blocks carry a `type`; an array of other objects is data, sent as JSON
  if (
    Array.isArray(value) &&
    value.every((item) => typeof item === "object" && item !== null && "type" in item)
  ) {
    return value as MessageContent;
  }
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

function hasKeys(value: Record<string, unknown> | undefined): value is Record<string, unknown> {
  for (const _ in value) return true;
  return false;
}

/**
 * The JSON text of a wrong output, as LangChain.js prints it after `Result:`. An output JSON
 * cannot hold (a bigint, a cycle) throws `JSON.stringify`'s `TypeError`, as it does there.
 */
function resultText(value: unknown): string {
  return String(JSON.stringify(value));
}
