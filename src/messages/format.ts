import type { MessageContent } from "./content.js";
import type { ToolCall } from "./tool-calls.js";

/** The parts of a message the pretty layout prints. */
export interface FormattableMessage {
  readonly type: string;
  readonly content: MessageContent;
  readonly name?: string | undefined;
  readonly tool_calls?: readonly ToolCall[] | undefined;
}

const WIDTH = 80;

/**
 * The title bar of the pretty layout: ` Human Message ` centred in `=` to 80 columns, the
 * extra `=` going to the right when the split is uneven.
 *
 * @example
 * ```ts
 * messageTitleBar("human");
 * // "================================ Human Message ================================="
 * ```
 */
export function messageTitleBar(type: string): string {
  const title = ` ${type.charAt(0).toUpperCase()}${type.slice(1)} Message `;
  const left = "=".repeat(Math.max(0, Math.floor((WIDTH - title.length) / 2)));
  const right = title.length % 2 === 0 ? left : `${left}=`;
  return `${left}${title}${right}`;
}

function formatArgValue(value: unknown): string {
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/**
 * The pretty layout of a message, byte for byte as LangChain.js prints it: the title bar,
 * then for AI messages a `Tool Calls:` section (`  name (id)`, ` Call ID: id`, `  Args:` and
 * one `    key: value` line per argument), for tool messages a `Name: <name>` line, and last
 * the content when it is a non-blank string (after an empty line if anything came before it).
 *
 * @example
 * ```ts
 * formatMessagePretty(new ToolMessage({ content: "Sunny", tool_call_id: "c1", name: "get_weather" }));
 * // "================================= Tool Message =================================\nName: get_weather\n\nSunny"
 * ```
 */
export function formatMessagePretty(message: FormattableMessage): string {
  const lines = [messageTitleBar(message.type)];
  if (message.type === "ai" && message.tool_calls !== undefined && message.tool_calls.length > 0) {
    lines.push("Tool Calls:");
    for (const call of message.tool_calls) {
      lines.push(`  ${call.name} (${call.id})`, ` Call ID: ${call.id}`, "  Args:");
      for (const [key, value] of Object.entries(call.args))
        lines.push(`    ${key}: ${formatArgValue(value)}`);
    }
  }
  if (message.type === "tool" && message.name) lines.push(`Name: ${message.name}`);
  if (typeof message.content === "string" && message.content.trim()) {
    if (lines.length > 1) lines.push("");
    lines.push(message.content);
  }
  return lines.join("\n");
}
