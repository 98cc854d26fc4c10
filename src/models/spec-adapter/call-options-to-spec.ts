import {
  type BindToolsInput,
  isProviderTool,
  isStandardSchema,
  toJsonSchema,
  toStrictJsonSchema,
  toToolDefinition,
} from "../../tools/index.js";
import type {
  ChatModelV1CallOptions,
  ChatModelV1FunctionTool,
  ChatModelV1ResponseFormat,
  ChatModelV1Tool,
  ChatModelV1ToolChoice,
} from "../spec/index.js";

/**
 * Translates LangChain-style call options (`tools` in any accepted form, `tool_choice`,
 * `parallel_tool_calls`, `strict`, `response_format` in OpenAI form) into spec call options.
 *
 * @example
 * ```ts
 * toolOptionsToSpec({ tools: [getWeather], tool_choice: "any" });
 * // { tools: [{ type: "function", name: "get_weather", … }], toolChoice: { type: "required" } }
 * ```
 */
export function toolOptionsToSpec(
  options: Record<string, unknown>,
): Pick<ChatModelV1CallOptions, "tools" | "toolChoice" | "parallelToolCalls" | "responseFormat"> {
  const out: Pick<ChatModelV1CallOptions, "tools" | "toolChoice" | "parallelToolCalls" | "responseFormat"> =
    {};
  const strict = typeof options.strict === "boolean" ? options.strict : undefined;
  if (Array.isArray(options.tools) && options.tools.length > 0) {
    out.tools = options.tools.map((input): ChatModelV1Tool => {
      if (isProviderTool(input)) return { type: "provider", tool: input };
      const def = toToolDefinition(input as BindToolsInput);
      const tool: ChatModelV1FunctionTool = { type: "function", name: def.name, inputSchema: def.parameters };
      if (def.description !== undefined) tool.description = def.description;
      // A call's own `strict` wins over the one baked into the tool (LangChain.js's order).
      const toolStrict = strict ?? def.strict;
      if (toolStrict !== undefined) tool.strict = toolStrict;
      if (def.extras !== undefined) tool.extras = def.extras;
      return tool;
    });
  }
  const choice = toolChoiceToSpec(options.tool_choice);
  if (choice !== undefined) out.toolChoice = choice;
  if (typeof options.parallel_tool_calls === "boolean") out.parallelToolCalls = options.parallel_tool_calls;
  const format = responseFormatToSpec(options.response_format);
  if (format !== undefined) out.responseFormat = format;
  return out;
}

/**
 * `"auto"`, `"none"`, `"any"`/`"required"`, a tool name, or a provider object
 * (`{ type: "function", function: { name } }`, `{ type: "tool", name }`, `{ type: "any" }`).
 *
 * @example
 * ```ts
 * toolChoiceToSpec("get_weather"); // { type: "tool", toolName: "get_weather" }
 * ```
 */
export function toolChoiceToSpec(choice: unknown): ChatModelV1ToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (typeof choice === "string") {
    if (choice === "auto" || choice === "none") return { type: choice };
    if (choice === "any" || choice === "required") return { type: "required" };
    return { type: "tool", toolName: choice };
  }
  if (typeof choice === "object") {
    const c = choice as { type?: unknown; name?: unknown; function?: { name?: unknown } };
    if (typeof c.function?.name === "string") return { type: "tool", toolName: c.function.name };
    if (c.type === "tool" && typeof c.name === "string") return { type: "tool", toolName: c.name };
    if (c.type === "any" || c.type === "required") return { type: "required" };
    if (c.type === "auto" || c.type === "none") return { type: c.type };
  }
  return undefined;
}

function responseFormatToSpec(format: unknown): ChatModelV1ResponseFormat | undefined {
  if (typeof format !== "object" || format === null) return undefined;
  const f = format as {
    type?: unknown;
    json_schema?: { name?: unknown; description?: unknown; schema?: unknown; strict?: unknown };
  };
  if (f.type === "text") return { type: "text" };
  if (f.type === "json_object") return { type: "json" };
  if (
    f.type === "json_schema" &&
    typeof f.json_schema?.schema === "object" &&
    f.json_schema.schema !== null
  ) {
    const given = f.json_schema.schema;
    // a Zod schema is sent as its strict JSON Schema, strict unless told otherwise, as
    // LangChain.js's ChatOpenAI sends it
    const zod = isStandardSchema(given) && given["~standard"].vendor === "zod";
    const strict = typeof f.json_schema.strict === "boolean" ? f.json_schema.strict : zod ? true : undefined;
    const schema = isStandardSchema(given)
      ? strict === true
        ? toStrictJsonSchema(toJsonSchema(given))
        : toJsonSchema(given)
      : (given as Record<string, unknown>);
    const out: ChatModelV1ResponseFormat = { type: "json", schema };
    if (typeof f.json_schema.name === "string") out.name = f.json_schema.name;
    if (typeof f.json_schema.description === "string") out.description = f.json_schema.description;
    if (strict !== undefined) out.strict = strict;
    return out;
  }
  return undefined;
}
