import { InvalidArgumentError } from "../../../shared/index.js";
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
    out.tools = options.tools.map((tool): OpenAIWireTool => {
      if (tool.type === "provider") return providerTool(tool.tool);
      // as @langchain/openai: a tool's `extras.providerToolDefinition` is sent in its place, and
      // `extras.defer_loading: true` goes with it
      const extras = tool.extras ?? {};
      const definition = extras.providerToolDefinition;
      if (typeof definition === "object" && definition !== null)
        return providerTool(definition as Record<string, unknown>);
      const fn: OpenAIWireTool["function"] = {
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        parameters: tool.inputSchema,
      };
      if (tool.strict !== undefined) fn.strict = tool.strict;
      return extras.defer_loading === true
        ? { type: "function", function: fn, defer_loading: true }
        : { type: "function", function: fn };
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

/** OpenAI's built-in tools, which only its Responses API runs. */
const RESPONSES_ONLY = new Set([
  "web_search",
  "web_search_preview",
  "tool_search",
  "file_search",
  "code_interpreter",
  "image_generation",
  "computer_use_preview",
  "mcp",
  "local_shell",
]);

/**
 * A provider tool in a Chat Completions request: sent as given (e.g. a `custom` tool), except
 * the built-in tools of the Responses API, which Chat Completions does not run.
 */
function providerTool(tool: Record<string, unknown>): OpenAIWireTool {
  const type = String(tool.type);
  if (RESPONSES_ONLY.has(type)) {
    throw new InvalidArgumentError(
      `ChatOpenAI sends requests to the Chat Completions API, which has no built-in "${type}" tool (it is a tool of OpenAI's Responses API). Offer a function tool instead, or use a model that runs it (e.g. ChatAnthropic's server tools).`,
    );
  }
  return tool as unknown as OpenAIWireTool;
}
