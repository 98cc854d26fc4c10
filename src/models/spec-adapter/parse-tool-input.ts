import type { InvalidToolCall, ToolCall } from "../../messages/index.js";

/** What LangChain.js's `OutputParserException` appends to its message. */
const OUTPUT_PARSING_FAILURE_URL =
  "\n\nTroubleshooting URL: https://docs.langchain.com/oss/javascript/langchain/errors/OUTPUT_PARSING_FAILURE/\n";

/**
 * Parses the raw argument text of a tool call: a JSON object (or empty text, read as `{}`)
 * gives a tool call; anything else an invalid tool call that keeps the raw text and says why
 * (the LangChain.js wording: `Function "<name>" arguments: … are not valid JSON.`, followed for
 * text that is not JSON by the troubleshooting URL of the `OutputParserException` LangChain.js
 * takes that message from). Never throws.
 * With `typeFirst` a tool call lists its keys as LangChain.js's OpenAI parser writes them
 * (`name`, `args`, `type`, `id`), which shows wherever the call is written out as JSON (say a
 * summarization prompt); otherwise as `@langchain/anthropic` writes them (`id` before `type`).
 *
 * @example
 * ```ts
 * parseToolInput("call_1", "get_weather", '{"city":"Suzhou"}');
 * // { toolCall: { name: "get_weather", args: { city: "Suzhou" }, id: "call_1", type: "tool_call" } }
 * ```
 */
export function parseToolInput(
  id: string,
  name: string,
  input: string,
  typeFirst = false,
): { toolCall: ToolCall } | { invalidToolCall: InvalidToolCall } {
  const call = (args: Record<string, unknown>): ToolCall =>
    typeFirst ? { name, args, type: "tool_call", id } : { name, args, id, type: "tool_call" };
  if (input.trim() === "") return { toolCall: call({}) };
  let reason: string;
  try {
    const value: unknown = JSON.parse(input);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      return { toolCall: call(value as Record<string, unknown>) };
    }
    reason = "the arguments must be a JSON object";
  } catch (error) {
    reason = `${(error as Error).message}${OUTPUT_PARSING_FAILURE_URL}`;
  }
  return {
    invalidToolCall: {
      name,
      args: input,
      id,
      error: `Function "${name}" arguments:\n\n${input}\n\nare not valid JSON.\nError: ${reason}`,
      type: "invalid_tool_call",
    },
  };
}
