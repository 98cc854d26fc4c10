import { InvalidArgumentError } from "../shared/index.js";
import { isStandardSchema, type JsonSchema } from "./schema/standard-schema.js";
import { toJsonSchema, toStrictJsonSchema } from "./schema/to-json-schema.js";
import { isStructuredTool, isStructuredToolParams, type StructuredToolInterface } from "./structured-tool.js";

/**
 * A tool as a plain object, the forms `bindTools` accepts besides tool instances:
 * `{ name, description, schema }` (zod or JSON Schema), `{ name, description, parameters }`,
 * Anthropic's `{ name, description, input_schema }`, or OpenAI's
 * `{ type: "function", function: { name, description, parameters } }`.
 *
 * @example
 * ```ts
 * const descriptor: ToolDescriptor = {
 *   name: "get_weather",
 *   description: "Get weather for a given city.",
 *   parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
 * };
 * ```
 */
export type ToolDescriptor =
  | { name: string; description?: string; schema: object; strict?: boolean }
  | { name: string; description?: string; parameters: JsonSchema; strict?: boolean }
  | { name: string; description?: string; input_schema: JsonSchema }
  | {
      type: "function";
      function: { name: string; description?: string; parameters?: JsonSchema; strict?: boolean };
    };

/**
 * Anything that can be offered to a model as a tool: a tool instance or a descriptor.
 *
 * @example
 * ```ts
 * const tools: BindToolsInput[] = [getWeather, { name: "noop", description: "Does nothing.", parameters: {} }];
 * ```
 */
export type BindToolsInput = StructuredToolInterface | ToolDescriptor | ProviderToolDescriptor;

/**
 * A provider's own tool (a server tool it runs, such as Anthropic's web search), described as
 * the provider's API takes it; see {@link isProviderTool}.
 *
 * @example
 * ```ts
 * const search: ProviderToolDescriptor = { type: "web_search_20250305", name: "web_search", max_uses: 3 };
 * ```
 */
export interface ProviderToolDescriptor {
  type: string;
  [field: string]: unknown;
}

/**
 * A tool reduced to what a provider needs: name, description and the JSON Schema of its
 * arguments.
 *
 * @example
 * ```ts
 * const def: ToolDefinition = { name: "get_weather", description: "…", parameters: { type: "object" } };
 * ```
 */
export interface ToolDefinition {
  name: string;
  description?: string;
  parameters: JsonSchema;
  strict?: boolean;
  /** The tool's provider-specific fields (LangChain.js `extras`, e.g. Anthropic `defer_loading`). */
  extras?: Record<string, unknown>;
}

/**
 * A provider's own tool descriptor (a server tool such as `{ type: "web_search_20250305", name:
 * "web_search" }`): a plain object with a `type` other than `"function"` and no argument schema
 * of its own, so the provider runs it and it is sent as given.
 *
 * @example
 * ```ts
 * isProviderTool({ type: "web_search_20250305", name: "web_search" }); // true
 * isProviderTool({ name: "get_weather", parameters: {} }); // false
 * ```
 */
export function isProviderTool(input: unknown): input is Record<string, unknown> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return false;
  const t = input as Record<string, unknown>;
  if (typeof t.type !== "string" || t.type === "function") return false;
  if (typeof t.invoke === "function" || typeof t.lc_namespace === "object") return false;
  return !("schema" in t || "parameters" in t || "input_schema" in t || "function" in t);
}

/**
 * Normalises any {@link BindToolsInput} to a {@link ToolDefinition}, converting zod schemas
 * to JSON Schema.
 *
 * @example
 * ```ts
 * toToolDefinition(getWeather);
 * // { name: "get_weather", description: "Get weather for a given city.",
 * //   parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }
 * ```
 */
export function toToolDefinition(input: BindToolsInput): ToolDefinition {
  if (typeof input !== "object" || input === null) throw badTool(input);
  if ("type" in input && input.type === "function" && "function" in input) {
    const fn = (input as Extract<ToolDescriptor, { type: "function" }>).function;
    return withExtras(
      definition(fn.name, fn.description, fn.parameters ?? { type: "object", properties: {} }, fn.strict),
      (input as { extras?: unknown }).extras,
    );
  }
  if (isStructuredTool(input)) {
    return withExtras(
      definition(input.name, input.description, toJsonSchema(input.schema)),
      (input as { extras?: unknown }).extras,
    );
  }
  const named = input as { name?: unknown; description?: string; strict?: boolean };
  if (typeof named.name !== "string") throw badTool(input);
  const schema =
    "schema" in input
      ? input.schema
      : "parameters" in input
        ? input.parameters
        : "input_schema" in input
          ? input.input_schema
          : undefined;
  if (schema === undefined) throw badTool(input);
  return withExtras(
    definition(named.name, named.description, toJsonSchema(schema), named.strict),
    (input as { extras?: unknown }).extras,
  );
}

function withExtras(def: ToolDefinition, extras: unknown): ToolDefinition {
  if (typeof extras === "object" && extras !== null && Object.keys(extras).length > 0) {
    def.extras = extras as Record<string, unknown>;
  }
  return def;
}

function definition(name: string, description: string | undefined, parameters: JsonSchema, strict?: boolean) {
  const out: ToolDefinition = { name, parameters };
  // an empty description is sent as given, as LangChain.js sends it
  if (description !== undefined) out.description = description;
  if (strict !== undefined) out.strict = strict;
  return out;
}

function badTool(input: unknown): InvalidArgumentError {
  const shown = isStandardSchema(input)
    ? "a bare schema"
    : (JSON.stringify(input)?.slice(0, 120) ?? String(input));
  return new InvalidArgumentError(
    `Cannot use ${shown} as a tool. Pass a tool made with tool(), a StructuredTool, ` +
      "or a descriptor { name, description, schema | parameters }.",
  );
}

/**
 * A tool in OpenAI's Chat Completions form, what {@link convertToOpenAITool} returns for a tool
 * or a descriptor.
 *
 * @example
 * ```ts
 * const def: OpenAIFunctionTool = { type: "function", function: { name: "noop", parameters: { type: "object" } } };
 * ```
 */
export interface OpenAIFunctionTool {
  type: "function";
  function: { name: string; description?: string; parameters: JsonSchema; strict?: boolean };
  extras?: Record<string, unknown>;
}

/**
 * Formats a tool the way OpenAI's Chat Completions API takes it (LangChain.js
 * `convertToOpenAITool`). With `strict: true` the schema is closed
 * (`additionalProperties: false`) and marked `strict`.
 *
 * @example
 * ```ts
 * convertToOpenAITool(getWeather);
 * // { type: "function", function: { name: "get_weather", description: "…", parameters: { … } } }
 * ```
 *
 * A tool's `extras` (provider-specific fields) ride along as `extras`, for the provider models
 * that send them. A provider's own tool ({@link isProviderTool}, such as
 * `{ type: "web_search_preview" }`) is returned as it is, as LangChain.js returns it.
 */
export function convertToOpenAITool(
  input: StructuredToolInterface | ToolDescriptor,
  options?: { strict?: boolean | undefined },
): OpenAIFunctionTool;
export function convertToOpenAITool<T extends ProviderToolDescriptor>(
  input: T,
  options?: { strict?: boolean | undefined },
): T;
export function convertToOpenAITool(
  input: BindToolsInput,
  options?: { strict?: boolean | undefined },
): OpenAIFunctionTool | ProviderToolDescriptor;
export function convertToOpenAITool(
  input: BindToolsInput,
  options: { strict?: boolean | undefined } = {},
): OpenAIFunctionTool | ProviderToolDescriptor {
  if (isProviderTool(input)) return input as ProviderToolDescriptor;
  const def = toToolDefinition(input);
  const strict = options.strict ?? def.strict;
  // LangChain.js writes a tool's own description, an empty one included
  const description =
    def.description ??
    (isStructuredTool(input) || isStructuredToolParams(input)
      ? (input as { description?: unknown }).description
      : undefined);
  const fn: OpenAIFunctionTool["function"] = {
    name: def.name,
    ...(typeof description === "string" ? { description } : {}),
    parameters: strict === true ? toStrictJsonSchema(def.parameters) : def.parameters,
  };
  if (strict !== undefined) fn.strict = strict;
  return def.extras === undefined
    ? { type: "function", function: fn }
    : { type: "function", function: fn, extras: def.extras };
}
