import {
  type CompiledStateGraph,
  type CompileOptions,
  END,
  type LangGraphRunnableConfig,
  type PregelOptions,
  START,
  StateGraph,
  type StateGraphArgs,
  type StreamTransformerFactory,
} from "../graph/index.js";
import type { SystemMessage } from "../messages/index.js";
import { chainWrapToolCall, SHOWS_SEND_PAYLOAD, ToolNode, type WrapToolCall } from "../prebuilt/index.js";
import { InvalidArgumentError } from "../shared/index.js";
import { raceAgentSignal } from "./abort-reason.js";
import { assertNoBoundTools, normalizeSystemPrompt, normalizeTools } from "./agent-tools.js";
import { createHookNode, type HookKind, hookNodeName } from "./hook-node.js";
import type { ContextInputOfSchema } from "./middleware.js";
import { hookTargets } from "./middleware.js";
import { createModelNode } from "./model-node.js";
import { type AgentTypes, ReactAgent } from "./react-agent.js";
import {
  checkResponseFormat,
  type InferResponse,
  isStrategy,
  type ResponseFormatInput,
  type ResponseStrategy,
} from "./responses.js";
import {
  type AgentAnchors,
  jumpDestinations,
  jumpRouter,
  MODEL_NODE,
  modelRouter,
  TOOLS_NODE,
  type ToolKinds,
  toolsRouter,
} from "./routing.js";
import { buildAgentState, ownStateKeys } from "./state.js";
import { createSubagentTransformer, createToolCallTransformer } from "./stream-transformers.js";
import { agentToolErrorHandler, agentToolExecutor, isolateToolCall } from "./tool-errors.js";
import type { AgentChatModel, AgentTool, AnyAgentMiddleware, JumpTo, StateOfSchema } from "./types.js";
import { wrapToolCallChain } from "./wrap-tool-call.js";

/**
 * Options of {@link createAgent}, named as in LangChain.js.
 *
 * @example
 * ```ts
 * const params: CreateAgentParams = { model: "openai:gpt-4.1-mini", tools: [getWeather], systemPrompt: "Be brief." };
 * ```
 */
export interface CreateAgentParams<
  StateSchema = undefined,
  ContextSchema = undefined,
  Middleware extends readonly AnyAgentMiddleware[] = readonly AnyAgentMiddleware[],
  Format extends ResponseFormatInput | undefined = undefined,
  Tools extends readonly AgentTool[] = readonly AgentTool[],
  Transformers extends readonly StreamTransformerFactory[] = readonly StreamTransformerFactory[],
> {
  /** A chat model without bound tools, or a `"provider:model"` string (resolved with `initChatModel`). */
  model: string | AgentChatModel;
  /** Tools: tool objects, plain functions, or provider-side tool descriptors (bound, not run here). */
  tools?: Tools;
  /** Sent before the messages on every model call; never stored in the state. */
  systemPrompt?: string | SystemMessage;
  /** Middleware, in order (before-hooks run in this order, after-hooks in reverse, wraps first outermost). */
  middleware?: Middleware;
  /** Ask for a structured answer; it is returned as `structuredResponse`. */
  responseFormat?: Format;
  /** Extra state fields (a Zod 4 object or an `Annotation.Root`); `_`-prefixed fields stay private. */
  stateSchema?: StateSchema;
  /** Schema of the run context (`invoke(input, { context })`). */
  contextSchema?: ContextSchema;
  /** Saves a checkpoint every step (threads, interrupts, time travel). */
  checkpointer?: CompileOptions["checkpointer"];
  /** Long-term store passed to nodes, hooks and tools. */
  store?: CompileOptions["store"];
  /** Node cache. */
  cache?: CompileOptions["cache"];
  /** Pause before these nodes (needs a checkpointer). */
  interruptBefore?: string[] | "*";
  /** Pause after these nodes (needs a checkpointer). */
  interruptAfter?: string[] | "*";
  /** Name of the agent: its graph's name and the `name` of its AI messages (default `"model"`). */
  name?: string;
  /** Description of the agent's graph. */
  description?: string;
  /** `"inline"`: show AI messages' names to the model inside their content. */
  includeAgentName?: "inline";
  /** Aborts every model call of the agent. */
  signal?: AbortSignal;
  /** Print each superstep to the console (a default of every run). */
  debug?: boolean;
  /**
   * How pending tool calls run: `"v2"` (default) dispatches each call as its own task of the
   * tools node; `"v1"` runs all the calls of an AI message in one tools task, concurrently.
   */
  version?: "v1" | "v2";
  /**
   * Stream transformers for the agent's `streamEvents(…, { version: "v3" })` runs, after those of
   * its middleware (their projections appear on `run.extensions`).
   */
  streamTransformers?: Transformers;
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;

/**
 * The state fields the middleware of a list add (the intersection of their states).
 *
 * @example
 * ```ts
 * type S = MiddlewareStates<[typeof counter, typeof logger]>; // { turns: number } & …
 * ```
 */
export type MiddlewareStates<M extends readonly AnyAgentMiddleware[]> = UnionToIntersection<
  M[number] extends infer X
    ? X extends { "~types"?: { state: infer S } }
      ? unknown extends S
        ? Record<string, unknown>
        : S
      : never
    : never
>;

/**
 * The tools the middleware of a list add, in order, as a list type (as LangChain.js's
 * `InferMiddlewareToolsArray`; a middleware whose tools are not known as a tuple adds none).
 *
 * @example
 * ```ts
 * type T = MiddlewareTools<[typeof withSearch]>; // readonly [typeof search]
 * ```
 */
export type MiddlewareTools<M extends readonly unknown[]> = M extends readonly [infer H, ...infer R]
  ? readonly [
      ...(H extends { readonly tools?: infer T extends readonly AgentTool[] }
        ? number extends T["length"]
          ? []
          : T
        : []),
      ...MiddlewareTools<R>,
    ]
  : readonly [];

/** A context type with named fields, or `{}` for none (`unknown`, an index signature). */
type NamedContext<C> = unknown extends C
  ? Record<never, never>
  : string extends keyof C
    ? Record<never, never>
    : C;

/**
 * The context fields the middleware of a list need (the intersection of their context schemas'
 * input types; middleware without a context schema add nothing).
 *
 * @example
 * ```ts
 * type C = MiddlewareContexts<[typeof auth, typeof logger]>; // { userId: string }
 * ```
 */
export type MiddlewareContexts<M extends readonly AnyAgentMiddleware[]> = UnionToIntersection<
  M[number] extends infer X
    ? X extends { "~types"?: { contextInput: infer C } }
      ? NamedContext<C>
      : Record<never, never>
    : never
>;

/**
 * The context an agent's runs take: the input type of the agent's `contextSchema` (any object
 * when it has none, as in LangChain.js) merged with the context fields every middleware's
 * `contextSchema` declares; `context` is required in the run options when a field is.
 *
 * @example
 * ```ts
 * type C = AgentContext<typeof Context, [typeof auth]>; // { locale: string; userId: string }
 * ```
 */
export type AgentContext<ContextSchema, M extends readonly AnyAgentMiddleware[]> = Flat<
  ContextInputOfSchema<ContextSchema> & MiddlewareContexts<M>
>;

type Flat<C> = { [K in keyof C]: C[K] };

type ResponseOf<F> = [F] extends [undefined] ? never : InferResponse<Exclude<F, undefined>>;

/**
 * Builds an agent, as LangChain.js's `createAgent`: a graph whose `model_request` node calls
 * the model (through any `wrapModelCall` middleware) and whose `tools` node runs the tool calls
 * (one `Send` per call, carrying only the call), looping until the model answers without tool
 * calls. Middleware hooks become nodes around them (`"<Name>.before_model"`, …). With
 * `responseFormat`, the answer's structured form is returned as `structuredResponse`.
 *
 * @example
 * ```ts
 * import { createAgent } from "agentgraph/agents";
 * import { tool } from "agentgraph/tools";
 * import { z } from "zod";
 *
 * const getWeather = tool(async ({ city }) => `It's always sunny in ${city}!`, {
 *   name: "get_weather",
 *   description: "Get weather for a given city.",
 *   schema: z.object({ city: z.string() }),
 * });
 * const agent = createAgent({ model: "openai:gpt-4.1-mini", tools: [getWeather], systemPrompt: "You are a helpful assistant" });
 * const { messages } = await agent.invoke({ messages: [{ role: "user", content: "What is the weather in Suzhou?" }] });
 * ```
 */
export function createAgent<
  StateSchema = undefined,
  ContextSchema = undefined,
  const Middleware extends readonly AnyAgentMiddleware[] = readonly [],
  const Format extends ResponseFormatInput | undefined = undefined,
  const Tools extends readonly AgentTool[] = readonly AgentTool[],
  const Transformers extends readonly StreamTransformerFactory[] = readonly [],
>(
  params: CreateAgentParams<StateSchema, ContextSchema, Middleware, Format, Tools, Transformers>,
): ReactAgent<
  AgentTypes<
    StateOfSchema<StateSchema> & MiddlewareStates<Middleware>,
    AgentContext<ContextSchema, Middleware>,
    ResponseOf<Format>,
    readonly [...Tools, ...MiddlewareTools<Middleware>],
    { middleware: Middleware; agent: Transformers }
  >
> {
  const graph = buildAgentGraph(params as CreateAgentParams);
  // LangChain.js tags every run of an agent (callbacks and `messages` stream metadata show it)
  const defaults: PregelOptions<unknown> = {
    metadata: {
      ls_integration: "langchain_create_agent",
      ...(params.name === undefined ? {} : { lc_agent_name: params.name }),
    },
    configurable: { ls_agent_type: "root" },
  };
  if (params.debug === true) defaults.debug = true;
  return new ReactAgent(graph, params as CreateAgentParams, defaults);
}

type AnyGraph = CompiledStateGraph<Record<string, unknown>, Record<string, unknown>, string, unknown>;

interface HookEntry {
  readonly name: string;
  readonly targets: readonly JumpTo[];
}

/** Builds and compiles the agent graph (the work behind {@link createAgent}). */
export function buildAgentGraph(params: CreateAgentParams): AnyGraph {
  if (params.model === undefined || params.model === null) {
    throw new InvalidArgumentError("`model` option is required to create an agent.");
  }
  if (typeof params.model !== "string") assertNoBoundTools(params.model);
  const middleware = [...(params.middleware ?? [])];
  const seen = new Set<string>();
  for (const m of middleware) {
    if (seen.has(m.name)) throw new InvalidArgumentError(`Middleware ${m.name} is defined multiple times`);
    seen.add(m.name);
  }
  const tools = normalizeTools([...(params.tools ?? []), ...middleware.flatMap((m) => m.tools ?? [])]);
  const registered = new Map(tools.client.map((t) => [t.name, t] as const));
  const wrapToolCalls = middleware.filter((m) => m.wrapToolCall !== undefined);
  const hasTools = tools.client.length > 0 || wrapToolCalls.length > 0;
  // one cache for the whole agent: a bare schema is converted to JSON Schema once (its
  // strategies, and their `extract-<n>` names, are made at each model call, as in LangChain.js)
  const formatCache = new WeakMap<object, ResponseStrategy[]>();
  const structured = new Set<string>();
  const format: unknown = params.responseFormat;
  checkResponseFormat(format);
  const given: readonly unknown[] = Array.isArray(format) ? format : [format];
  for (const s of given) if (isStrategy(s) && s.kind === "tool") structured.add(s.name);
  const kinds: ToolKinds = {
    structured,
    provider: new Set(
      tools.all.filter((t) => !registered.has(descriptorName(t) ?? "")).map((t) => descriptorName(t) ?? ""),
    ),
    returnDirect: new Set(tools.client.filter((t) => t.returnDirect === true).map((t) => t.name)),
    client: new Set(registered.keys()),
  };

  const layout = buildAgentState(params.stateSchema, middleware);
  const args: StateGraphArgs = { state: layout.state, input: layout.input, output: layout.output };
  if (params.contextSchema !== undefined) args.context = params.contextSchema;
  const graph = new StateGraph(args) as unknown as StateGraph<
    unknown,
    Record<string, unknown>,
    Record<string, unknown>,
    string
  >;

  const hooks: Record<HookKind, HookEntry[]> = {
    beforeAgent: [],
    beforeModel: [],
    afterModel: [],
    afterAgent: [],
  };
  for (const m of middleware) {
    for (const kind of ["beforeAgent", "beforeModel", "afterModel", "afterAgent"] as const) {
      if (m[kind] === undefined) continue;
      const name = hookNodeName(m, kind);
      hooks[kind].push({ name, targets: hookTargets(m[kind]) });
      const Kind = `${kind[0]?.toUpperCase() ?? ""}${kind.slice(1)}`;
      const node = drawnAs(createHookNode(m, kind, ownStateKeys(m, layout)), {
        id: ["langchain", "agents", `${kind}Nodes`, `${Kind}Node`],
        name: `${Kind}Node_${m.name}`,
      });
      graph.addNode(name, node as never);
    }
  }
  const wraps = middleware.filter((m) => m.wrapModelCall !== undefined);
  const modelNode = createModelNode({
    model: params.model,
    systemMessage: normalizeSystemPrompt(params.systemPrompt),
    tools: tools.all,
    registered,
    responseFormat: params.responseFormat,
    wraps,
    hasWrapToolCall: wrapToolCalls.length > 0,
    messageName: params.name ?? "model",
    includeAgentName: params.includeAgentName,
    signal: params.signal,
    structuredNames: structured,
    formatCache,
    clearsJump: hooks.afterModel.length === 0,
  });
  graph.addNode(
    MODEL_NODE,
    drawnAs(modelNode, { id: ["langgraph", "AgentNode"], name: params.name ?? "model" }) as never,
  );
  if (hasTools) {
    const available = tools.client.map((t) => t.name);
    const wrapped = wrapToolCalls.length > 0;
    const toolNode = new ToolNode(tools.client, {
      handleToolErrors: agentToolErrorHandler(available, wrapped),
      ...(wrapped
        ? {
            wrapToolCall: chainWrapToolCall(
              isolateToolCall,
              ...wrapToolCalls.map(wrapToolCallChain),
              agentToolExecutor(available),
            ) as WrapToolCall,
          }
        : {}),
    });
    toolNode[SHOWS_SEND_PAYLOAD] = true;
    // the agent's own signal fails the tools step at once (the run's signal is the engine's)
    const agentSignal = params.signal;
    const toolsStep =
      agentSignal === undefined
        ? toolNode
        : {
            invoke: (input: unknown, config?: LangGraphRunnableConfig<unknown>) =>
              raceAgentSignal(toolNode.invoke(input, config), agentSignal),
            tools: toolNode.tools,
            lc_id: toolNode.lc_id,
            getName: () => toolNode.getName(),
          };
    graph.addNode(TOOLS_NODE, toolsStep as never);
  }

  const first = <T>(list: readonly T[]): T | undefined => list[0];
  const last = <T>(list: readonly T[]): T | undefined => list[list.length - 1];
  const anchors: AgentAnchors = {
    entry: first(hooks.beforeAgent)?.name ?? first(hooks.beforeModel)?.name ?? MODEL_NODE,
    loopEntry: first(hooks.beforeModel)?.name ?? MODEL_NODE,
    loopExit: first(hooks.afterModel)?.name ?? MODEL_NODE,
    exit: last(hooks.afterAgent)?.name ?? END,
    hasTools,
  };
  graph.addEdge(START, anchors.entry);

  const link = (entry: HookEntry, next: string, endNode: string = anchors.exit) => {
    if (entry.targets.length === 0) {
      graph.addEdge(entry.name, next);
      return;
    }
    const destinations = unique([next, ...jumpDestinations(entry.targets, anchors, endNode)]);
    graph.addConditionalEdges(entry.name, jumpRouter(anchors, next, endNode) as never, destinations);
  };
  hooks.beforeAgent.forEach((entry, i) => {
    link(entry, hooks.beforeAgent[i + 1]?.name ?? anchors.loopEntry);
  });
  hooks.beforeModel.forEach((entry, i) => {
    link(entry, hooks.beforeModel[i + 1]?.name ?? MODEL_NODE);
  });
  const lastAfterModel = last(hooks.afterModel);
  if (lastAfterModel !== undefined) graph.addEdge(MODEL_NODE, lastAfterModel.name);
  for (let i = hooks.afterModel.length - 1; i > 0; i -= 1) {
    link(hooks.afterModel[i] as HookEntry, (hooks.afterModel[i - 1] as HookEntry).name);
  }
  const loopExitTargets = first(hooks.afterModel)?.targets ?? [];
  const modelReachable =
    params.responseFormat !== undefined ||
    wraps.length > 0 ||
    hooks.afterModel.length > 0 ||
    loopExitTargets.includes("model");
  const modelDestinations = unique([
    ...(hasTools ? [TOOLS_NODE] : []),
    ...(modelReachable ? [MODEL_NODE] : []),
    anchors.exit,
  ]);
  if (modelDestinations.length === 1) graph.addEdge(anchors.loopExit, anchors.exit);
  else
    graph.addConditionalEdges(
      anchors.loopExit,
      modelRouter(
        anchors,
        kinds,
        modelReachable,
        hooks.afterModel.length === 0,
        params.version === "v1",
      ) as never,
      modelDestinations,
    );
  for (let i = hooks.afterAgent.length - 1; i > 0; i -= 1) {
    link(hooks.afterAgent[i] as HookEntry, (hooks.afterAgent[i - 1] as HookEntry).name, END);
  }
  const firstAfterAgent = first(hooks.afterAgent);
  if (firstAfterAgent !== undefined) link(firstAfterAgent, END, END);
  if (hasTools) {
    if (kinds.returnDirect.size > 0) {
      graph.addConditionalEdges(
        TOOLS_NODE,
        toolsRouter(anchors, kinds) as never,
        unique([anchors.loopEntry, anchors.exit]),
      );
    } else {
      graph.addEdge(TOOLS_NODE, anchors.loopEntry);
    }
  }

  const compileOptions: CompileOptions = {};
  if (params.checkpointer !== undefined) compileOptions.checkpointer = params.checkpointer;
  if (params.store !== undefined) compileOptions.store = params.store;
  if (params.cache !== undefined) compileOptions.cache = params.cache;
  if (params.interruptBefore !== undefined) compileOptions.interruptBefore = params.interruptBefore;
  if (params.interruptAfter !== undefined) compileOptions.interruptAfter = params.interruptAfter;
  if (params.name !== undefined) compileOptions.name = params.name;
  if (params.description !== undefined) compileOptions.description = params.description;
  // the agent's own projections (`run.toolCalls`, `run.subagents`) first, then the middleware's
  // stream transformers in middleware order, then the agent's
  compileOptions.transformers = [
    createToolCallTransformer([]),
    createSubagentTransformer([]),
    ...(params.middleware ?? []).flatMap((m) => m.streamTransformers ?? []),
    ...(params.streamTransformers ?? []),
  ];
  return graph.compile(compileOptions) as unknown as AnyGraph;
}

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}

function descriptorName(tool: unknown): string | undefined {
  const t = tool as { name?: unknown; function?: { name?: unknown } };
  if (typeof t.name === "string") return t.name;
  if (typeof t.function?.name === "string") return t.function.name;
  return undefined;
}

/**
 * Names `node` as the LangChain.js runnable it stands for (`lc_id` and `getName()`), which
 * `getGraph().toJSON()` reports as the node's `data`.
 */
function drawnAs<T extends object>(node: T, runnable: { id: string[]; name: string }): T {
  return Object.assign(node, { lc_id: runnable.id, getName: () => runnable.name });
}
