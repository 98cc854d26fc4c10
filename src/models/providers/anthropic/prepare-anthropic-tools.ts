import type { ChatModelV1CallOptions } from "../../spec/index.js";
import type { AnthropicRequest, AnthropicWireTool, AnthropicWireToolChoice } from "./anthropic-wire.js";

/**
 * The tool-related request fields: `tools` with `input_schema`, and `tool_choice`
 * (`required` → `{ type: "any" }`, a tool name → `{ type: "tool", name }`);
 * `parallelToolCalls: false` sets `disable_parallel_tool_use`.
 *
 * @example
 * ```ts
 * prepareAnthropicTools({ prompt: [], tools: [tool], toolChoice: { type: "required" } });
 * // { tools: [{ name, description, input_schema }], tool_choice: { type: "any" } }
 * ```
 */
export function prepareAnthropicTools(
  options: ChatModelV1CallOptions,
): Pick<AnthropicRequest, "tools" | "tool_choice"> {
  const out: Pick<AnthropicRequest, "tools" | "tool_choice"> = {};
  if (options.tools !== undefined && options.tools.length > 0) {
    out.tools = options.tools.map((tool): AnthropicWireTool => {
      // a server tool (web search, code execution, …) goes as Anthropic describes it
      if (tool.type === "provider") return tool.tool as unknown as AnthropicWireTool;
      const wire: AnthropicWireTool =
        tool.description === undefined
          ? { name: tool.name, input_schema: tool.inputSchema }
          : { name: tool.name, description: tool.description, input_schema: tool.inputSchema };
      // the tool's extras (`defer_loading`, `cache_control`, …) are Anthropic tool fields
      return tool.extras === undefined ? wire : { ...wire, ...tool.extras };
    });
  }
  let choice: AnthropicWireToolChoice | undefined;
  const requested = options.toolChoice;
  if (requested?.type === "tool") choice = { type: "tool", name: requested.toolName };
  else if (requested?.type === "required") choice = { type: "any" };
  else if (requested !== undefined) choice = { type: requested.type };
  if (options.parallelToolCalls === false && out.tools !== undefined) {
    choice = { ...(choice ?? { type: "auto" }), disable_parallel_tool_use: true };
  }
  if (choice !== undefined) out.tool_choice = choice;
  return out;
}
