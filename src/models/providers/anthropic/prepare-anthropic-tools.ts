import type { ChatModelV1CallOptions } from "../../spec/index.js";
import type { AnthropicRequest, AnthropicWireTool, AnthropicWireToolChoice } from "./anthropic-wire.js";

const COMPOSITION_KEYS = ["oneOf", "anyOf", "allOf"] as const;
/** The `extras` of a tool that are fields of an Anthropic tool definition. */
const TOOL_EXTRAS = [
  "cache_control",
  "defer_loading",
  "input_examples",
  "allowed_callers",
  "strict",
] as const;

/**
 * The tool-related request fields: `tools` with `input_schema`, and `tool_choice`
 * (`required` → `{ type: "any" }`, a tool name → `{ type: "tool", name }`);
 * `parallelToolCalls: false` sets `disable_parallel_tool_use`; `strict` is sent per tool.
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
  // a tool whose schema is a top-level anyOf / oneOf / allOf is left out, as
  // @langchain/anthropic leaves it out (the API refuses such an input_schema)
  const tools = (options.tools ?? []).filter(
    (tool) =>
      tool.type === "provider" || !COMPOSITION_KEYS.some((key) => Object.hasOwn(tool.inputSchema, key)),
  );
  if (tools.length > 0) {
    out.tools = tools.map((tool): AnthropicWireTool => {
      // a server tool (web search, code execution, …) goes as Anthropic describes it
      if (tool.type === "provider") return tool.tool as unknown as AnthropicWireTool;
      const extras = tool.extras ?? {};
      // a tool that stands for a provider tool is sent as that tool
      if (typeof extras.providerToolDefinition === "object" && extras.providerToolDefinition !== null) {
        return extras.providerToolDefinition as AnthropicWireTool;
      }
      const wire: AnthropicWireTool =
        tool.description === undefined
          ? { name: tool.name, input_schema: tool.inputSchema }
          : { name: tool.name, description: tool.description, input_schema: tool.inputSchema };
      // the extras that are Anthropic tool fields (`defer_loading`, `cache_control`, …)
      for (const key of TOOL_EXTRAS)
        if (extras[key] !== undefined && key !== "strict") wire[key] = extras[key];
      const strict = tool.strict ?? (typeof extras.strict === "boolean" ? extras.strict : undefined);
      if (strict !== undefined) wire.strict = strict;
      return wire;
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
