import { z } from "zod";
import { type BaseMessage, isHumanMessage, SystemMessage } from "../../messages/index.js";
import { initChatModel, OutputParserException } from "../../models/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentChatModel, AgentMiddleware, AgentTool, ModelRequest } from "../types.js";

/**
 * The default instruction of the selection call.
 *
 * @example
 * ```ts
 * llmToolSelectorMiddleware({ systemPrompt: `${DEFAULT_TOOL_SELECTOR_PROMPT} Prefer read-only tools.` });
 * ```
 */
export const DEFAULT_TOOL_SELECTOR_PROMPT =
  "Your goal is to select the most relevant tools for answering the user's query.";

/**
 * A model that can answer in a structured form (`withStructuredOutput`), as every
 * `BaseChatModel` can.
 *
 * @example
 * ```ts
 * const selector: StructuredOutputCapableModel = new ChatOpenAI({ model: "gpt-4.1-mini" });
 * ```
 */
export interface StructuredOutputCapableModel {
  withStructuredOutput(
    schema: never,
    options?: never,
  ): { invoke(input: BaseMessage[], options?: Record<string, unknown>): Promise<unknown> };
}

/**
 * Options of {@link llmToolSelectorMiddleware}: the `model` that selects (an instance or a
 * `"provider:model"` string; default the agent's model), its `systemPrompt` (default
 * {@link DEFAULT_TOOL_SELECTOR_PROMPT}), `maxTools` (at most this many selected tools are
 * kept) and `alwaysInclude` (tool names always passed, not counted in `maxTools`). All of
 * them may also come from the run's context.
 *
 * @example
 * ```ts
 * const options: LLMToolSelectorConfig = { maxTools: 3, alwaysInclude: ["search"] };
 * ```
 */
export interface LLMToolSelectorConfig {
  model?: string | StructuredOutputCapableModel | AgentChatModel;
  systemPrompt?: string;
  maxTools?: number;
  alwaysInclude?: string[];
}

const contextSchema = z.object({
  model: z.unknown().optional(),
  systemPrompt: z.string().optional(),
  maxTools: z.number().optional(),
  alwaysInclude: z.array(z.string()).optional(),
});

interface NamedTool {
  name: string;
  description: string;
}

function isNamedTool(value: AgentTool): value is AgentTool & NamedTool {
  return (
    typeof value === "object" &&
    value !== null &&
    "name" in value &&
    "description" in value &&
    typeof (value as { name: unknown }).name === "string"
  );
}

/**
 * Lets a model pick the tools relevant to each request before the main model call, as
 * LangChain.js's `llmToolSelectorMiddleware`. The selector model gets the system prompt and
 * the last human message and answers `{ tools: [names…] }` (through `withStructuredOutput`);
 * the main call then gets only the selected tools (at most `maxTools`, in the agent's order),
 * then the `alwaysInclude` ones, then provider-side tools. Useful with many tools.
 *
 * Errors: `Tools in alwaysInclude not found in request: …`, `No user message found in request
 * messages`, `Model selected invalid tools: …`.
 *
 * @example
 * ```ts
 * import { createAgent, llmToolSelectorMiddleware } from "agentgraph/agents";
 *
 * const agent = createAgent({
 *   model: "openai:gpt-4.1",
 *   tools: manyTools,
 *   middleware: [llmToolSelectorMiddleware({ model: "openai:gpt-4.1-mini", maxTools: 3, alwaysInclude: ["search"] })],
 * });
 * ```
 */
export function llmToolSelectorMiddleware(
  options: LLMToolSelectorConfig = {},
): AgentMiddleware<Record<never, never>, Record<string, unknown>, LLMToolSelectorConfig> {
  const models = new Map<string, Promise<unknown>>();
  const resolveModel = (model: unknown, fallback: unknown): Promise<unknown> => {
    if (model === undefined || model === null) return Promise.resolve(fallback);
    if (typeof model !== "string") return Promise.resolve(model);
    let pending = models.get(model);
    if (pending === undefined) {
      pending = initChatModel(model);
      models.set(model, pending);
    }
    return pending;
  };
  const middleware = createMiddleware({
    name: "LLMToolSelector",
    contextSchema,
    wrapModelCall: async (request, handler) => {
      const context = (request.runtime.context ?? {}) as LLMToolSelectorConfig;
      const maxTools = context.maxTools ?? options.maxTools;
      const alwaysInclude = context.alwaysInclude ?? options.alwaysInclude ?? [];
      const systemPrompt = context.systemPrompt ?? options.systemPrompt ?? DEFAULT_TOOL_SELECTOR_PROMPT;
      const tools = request.tools ?? [];
      if (tools.length === 0) return handler(request);
      const named = tools.filter(isNamedTool);
      const available = new Set(named.map((t) => t.name));
      const missing = alwaysInclude.filter((name) => !available.has(name));
      // run-time errors are plain Errors, as LangChain.js throws them
      if (missing.length > 0) {
        throw new Error(
          `Tools in alwaysInclude not found in request: ${missing.join(", ")}. Available tools: ${[...available].sort().join(", ")}`,
        );
      }
      const candidates = named.filter((t) => !alwaysInclude.includes(t.name));
      if (candidates.length === 0) return handler(request);

      let instruction = systemPrompt;
      if (maxTools !== undefined) {
        instruction += `\nIMPORTANT: List the tool names in order of relevance, with the most relevant first. If you exceed the maximum number of tools, only the first ${maxTools} will be used.`;
      }
      const lastHuman = [...request.messages].reverse().find(isHumanMessage);
      if (lastHuman === undefined) throw new Error("No user message found in request messages");

      const selector = (await resolveModel(
        context.model ?? options.model,
        request.model,
      )) as Partial<StructuredOutputCapableModel>;
      const names = candidates.map((t) => t.name);
      const schema = z.object({
        tools: z
          .array(z.enum(names as [string, ...string[]]))
          .describe("Tools to use. Place the most relevant tools first."),
      });
      const structured = selector.withStructuredOutput?.(schema as never);
      let response: unknown;
      try {
        response = await structured?.invoke([new SystemMessage(instruction), lastHuman], {
          metadata: { lc_source: "llmToolSelector" },
          tags: ["nostream"],
          // as LangChain.js: no callbacks, so the selection call is neither streamed nor reported
          // (streamEvents, handlers); the summarization middleware's call keeps them
          callbacks: [],
        });
      } catch (error) {
        response = namesOutsideSchema(error);
      }
      if (typeof response !== "object" || response === null || !("tools" in response)) {
        throw new Error(`Expected object response with tools array, got ${typeof response}`);
      }
      const selected = selectTools(
        request as ModelRequest,
        (response as { tools: unknown }).tools,
        candidates,
        alwaysInclude,
        maxTools,
      );
      return handler({ ...request, tools: selected });
    },
  });
  return middleware as unknown as AgentMiddleware<
    Record<never, never>,
    Record<string, unknown>,
    LLMToolSelectorConfig
  >;
}

/**
 * A selection the schema refused only for its names: the answer `{ tools: [...] }` itself, so
 * that the unknown names are reported as LangChain.js reports them (`Model selected invalid
 * tools: …`; its structured output does not validate). Any other failure is rethrown.
 */
function namesOutsideSchema(error: unknown): { tools: unknown[] } {
  if (error instanceof OutputParserException && error.llmOutput !== undefined) {
    let answer: unknown;
    try {
      answer = JSON.parse(error.llmOutput);
    } catch {
      throw error;
    }
    const tools = (answer as { tools?: unknown } | null)?.tools;
    if (Array.isArray(tools)) return { tools };
  }
  throw error;
}

function selectTools(
  request: ModelRequest,
  chosen: unknown,
  candidates: readonly NamedTool[],
  alwaysInclude: readonly string[],
  maxTools: number | undefined,
): AgentTool[] {
  const valid = new Set(candidates.map((t) => t.name));
  const selected: string[] = [];
  const invalid: string[] = [];
  for (const name of Array.isArray(chosen) ? (chosen as unknown[]) : []) {
    if (typeof name !== "string" || !valid.has(name)) {
      invalid.push(String(name));
      continue;
    }
    if (!selected.includes(name) && (maxTools === undefined || selected.length < maxTools))
      selected.push(name);
  }
  if (invalid.length > 0) throw new Error(`Model selected invalid tools: ${invalid.join(", ")}`);
  const tools = request.tools ?? [];
  const kept = (candidates as readonly AgentTool[]).filter((t) =>
    selected.includes((t as unknown as NamedTool).name),
  );
  const always = tools.filter((t) => isNamedTool(t) && alwaysInclude.includes(t.name));
  const providerTools = tools.filter((t) => !isNamedTool(t));
  return [...kept, ...always, ...providerTools];
}
