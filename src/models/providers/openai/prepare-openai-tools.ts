import type { ChatModelV1CallOptions } from "../../spec/index.js";
import type { OpenAIChatRequest, OpenAIWireTool } from "./openai-wire.js";

/**
 * The tool-related request fields: `tools` in function form, `tool_choice`
 * (`{ type: "tool" }` becomes a forced function), and `parallel_tool_calls`. Fields not set
 * in the options are left out of the request.
 *
 * @example
 * ```ts
 * prepareOpenAITools({ prompt: [], tools: [tool], toolChoice: { type: "required" } });
 * // { tools: [{ type: "function", function: { … } }], tool_choice: "required" }
 * ```
 */
export function prepareOpenAITools(
  options: ChatModelV1CallOptions,
): Pick<OpenAIChatRequest, "tools" | "tool_choice" | "parallel_tool_calls"> {
  const out: Pick<OpenAIChatRequest, "tools" | "tool_choice" | "parallel_tool_calls"> = {};
  if (options.tools !== undefined && options.tools.length > 0) {
    out.tools = options.tools.map((tool) => {
      const fn: OpenAIWireTool["function"] = {
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        parameters: tool.inputSchema,
      };
      if (tool.strict !== undefined) fn.strict = tool.strict;
      return { type: "function", function: fn };
    });
  }
  const choice = options.toolChoice;
  if (choice !== undefined) {
    out.tool_choice =
      choice.type === "tool" ? { type: "function", function: { name: choice.toolName } } : choice.type;
  }
  if (options.parallelToolCalls !== undefined) out.parallel_tool_calls = options.parallelToolCalls;
  return out;
}
