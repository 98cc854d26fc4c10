import { InvalidArgumentError } from "../../shared/index.js";
import { isLangChainTool } from "../../tools/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentMiddleware, AgentTool, ModelCallHandler, ModelRequest } from "../types.js";

/**
 * Options of {@link providerToolSearchMiddleware}.
 *
 * @example
 * ```ts
 * const config: ProviderToolSearchMiddlewareConfig = { searchableTools: ["send_email", "create_invoice"] };
 * ```
 */
export interface ProviderToolSearchMiddlewareConfig {
  /** Tools (names or tool objects) to defer behind the provider's tool search. */
  searchableTools?: ReadonlyArray<string | { readonly name: string }> | undefined;
}

type SearchProvider = "anthropic" | "openai";

const SEARCH_TOOLS: Record<SearchProvider, Record<string, string>> = {
  anthropic: { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
  openai: { type: "tool_search" },
};

interface ModelLike {
  getName?: () => string;
  _defaultConfig?: { modelProvider?: unknown } | undefined;
}

interface NamedTool {
  name: string;
  description?: string;
  schema?: unknown;
  extras?: Record<string, unknown> | undefined;
}

function providerOf(model: ModelLike): SearchProvider | "other" {
  const name = typeof model.getName === "function" ? model.getName() : "";
  const configured = name === "ConfigurableModel" ? model._defaultConfig?.modelProvider : undefined;
  if (name === "ChatAnthropic" || configured === "anthropic") return "anthropic";
  if (name === "ChatOpenAI" || configured === "openai") return "openai";
  return "other";
}

function isDeferred(tool: AgentTool, names: ReadonlySet<string>): tool is AgentTool & NamedTool {
  if (!isLangChainTool(tool)) return false;
  const t = tool as unknown as NamedTool;
  return t.extras?.defer_loading === true || names.has(t.name);
}

/**
 * Defers tools behind the provider's server-side tool search, as LangChain.js's
 * `providerToolSearchMiddleware`: every tool is still sent to the provider, but the deferred
 * ones (named in `searchableTools`, or built with `extras: { defer_loading: true }`) go as
 * `{ name, description, schema, extras: { defer_loading: true } }` and the provider's search
 * tool is added (`{ type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" }`
 * for Anthropic, `{ type: "tool_search" }` for OpenAI), so the model discovers them on demand.
 * Without deferred tools the request is left alone.
 *
 * @throws {InvalidArgumentError} at a model call, when `searchableTools` names a tool the model
 *   is not given, or when the model is neither a `ChatAnthropic` nor a `ChatOpenAI`.
 *
 * @example
 * ```ts
 * import { createAgent, providerToolSearchMiddleware } from "agentgraph/agents";
 *
 * const agent = createAgent({
 *   model: myAnthropicModel,
 *   tools: [getWeather, ...nicheTools],
 *   middleware: [providerToolSearchMiddleware({ searchableTools: nicheTools })],
 * });
 * ```
 */
export function providerToolSearchMiddleware(
  config: ProviderToolSearchMiddlewareConfig = {},
): AgentMiddleware<Record<never, never>, Record<string, unknown>> {
  const deferNames = new Set((config.searchableTools ?? []).map((t) => (typeof t === "string" ? t : t.name)));
  return createMiddleware({
    name: "ProviderToolSearch",
    wrapModelCall: (request: ModelRequest, handler: ModelCallHandler) => {
      const tools = request.tools ?? [];
      if (deferNames.size > 0) {
        const available = tools.filter(isLangChainTool).map((t) => (t as unknown as NamedTool).name);
        const unknown = [...deferNames].filter((name) => !available.includes(name));
        if (unknown.length > 0) {
          throw new InvalidArgumentError(
            `providerToolSearchMiddleware: searchableTools references tool(s) not bound to the model: ${unknown.join(", ")}`,
          );
        }
      }
      const provider = providerOf(request.model as ModelLike);
      if (provider === "other") {
        throw new InvalidArgumentError(
          `providerToolSearchMiddleware requires a provider with server-side tool search, but got ${provider}`,
        );
      }
      if (!tools.some((t) => isDeferred(t, deferNames))) return handler(request);
      const bound = tools.map((t): AgentTool => {
        if (!isDeferred(t, deferNames)) return t;
        return {
          name: t.name,
          description: t.description,
          schema: t.schema,
          extras: { ...t.extras, defer_loading: true },
        } as unknown as AgentTool;
      });
      return handler({ ...request, tools: [...bound, SEARCH_TOOLS[provider] as unknown as AgentTool] });
    },
  });
}
