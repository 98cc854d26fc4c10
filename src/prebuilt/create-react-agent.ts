import {
  type AnnotationRoot,
  type BaseChannel,
  type CompiledStateGraph,
  type CompileOptions,
  END,
  isPregel,
  type LangGraphRunnableConfig,
  type NodeReturn,
  type SchemaState,
  type SchemaUpdate,
  Send,
  START,
  StateGraph,
  type StateSchemaInput,
  type SubgraphLike,
} from "../graph/index.js";
import {
  type AIMessage,
  type BaseMessage,
  isAIMessage,
  isBaseMessage,
  type Messages,
  SystemMessage,
} from "../messages/index.js";
import { nameAnswer } from "../models/index.js";
import { InvalidArgumentError } from "../shared/index.js";
import {
  type BindToolsInput,
  isStandardSchema,
  type JsonSchema,
  type StandardSchemaLike,
  type StructuredToolInterface,
} from "../tools/index.js";
import {
  createReactAgentAnnotation,
  llmInputMessagesChannel,
  type ReactAgentStateDefinition,
} from "./create-react-agent-annotation.js";
import {
  bindAgentTools,
  chooseReactAgentPrompt,
  isClientTool,
  modelCallConfig,
  type PromptStep,
  promptStep,
  type ReactAgentChatModel,
  type ReactAgentMessageModifier,
  type ReactAgentPrompt,
  type ReactAgentRunnable,
  unboundModel,
  withInlineAgentName,
} from "./create-react-agent-model.js";
import {
  answerWithinSteps,
  endsWithReturnDirect,
  type LoopShape,
  pendingToolCalls,
  validateChatHistory,
} from "./create-react-agent-steps.js";
import { ToolNode } from "./tool-node.js";

/** The nodes a `createReactAgent` graph may have. */
export type ReactAgentNodeName =
  | "agent"
  | "tools"
  | "pre_model_hook"
  | "post_model_hook"
  | "generate_structured_response";

/**
 * The state the agent's own steps see (`prompt`, a dynamic `llm`, function hooks): the graph
 * state plus `remainingSteps`, how many supersteps the recursion limit still allows after the
 * current one (Python's `RemainingSteps`). It is not a channel, so it never appears in the
 * graph's output.
 *
 * @example
 * ```ts
 * const prompt = (state: ReactAgentStateView<{ messages: BaseMessage[] }>) =>
 *   state.remainingSteps < 4 ? [new SystemMessage("Answer now."), ...state.messages] : state.messages;
 * ```
 */
export type ReactAgentStateView<State> = State & { remainingSteps: number };

/**
 * A dynamic model: picks the model for each call from the state and the run's runtime
 * (`context`, `store`, …). It must bind the tools itself.
 *
 * @example
 * ```ts
 * const llm: DynamicReactAgentModel<{ messages: BaseMessage[] }, { tier: string }> = (_state, runtime) =>
 *   (runtime.context?.tier === "pro" ? big : small).bindTools([search]);
 * ```
 */
export type DynamicReactAgentModel<State, Context = Record<string, unknown>> = (
  state: ReactAgentStateView<State>,
  runtime: LangGraphRunnableConfig<Context>,
) => ReactAgentChatModel | Promise<ReactAgentChatModel>;

/**
 * A `preModelHook` or `postModelHook`: a node function (it sees {@link ReactAgentStateView}),
 * a compiled graph, or an object with `invoke(state, config)`.
 *
 * @example
 * ```ts
 * const trim: ReactAgentHook<{ messages: BaseMessage[] }, { llmInputMessages: BaseMessage[] }> = (state) => ({
 *   llmInputMessages: state.messages.slice(-10),
 * });
 * ```
 */
export type ReactAgentHook<State, Update, Context = Record<string, unknown>> =
  | ((
      state: ReactAgentStateView<State>,
      config: LangGraphRunnableConfig<Context>,
    ) => NodeReturn<Update> | Promise<NodeReturn<Update>>)
  | SubgraphLike
  | ReactAgentRunnable<State, NodeReturn<Update>>;

/**
 * The `responseFormat` option: a schema (Zod or JSON Schema), or `{ schema, prompt?, ...options }`
 * where `prompt` is a system prompt for the structured-output call only and the other fields
 * are options of `withStructuredOutput` (such as `name`).
 *
 * @example
 * ```ts
 * const format: ReactAgentResponseFormat = { prompt: "Summarise the weather.", schema: z.object({ summary: z.string() }) };
 * ```
 */
export type ReactAgentResponseFormat =
  | StandardSchemaLike
  | JsonSchema
  | { schema: StandardSchemaLike | JsonSchema; prompt?: string; name?: string; [option: string]: unknown };

/**
 * Options of {@link createReactAgent}, named as in LangGraph.js.
 *
 * @example
 * ```ts
 * const params: CreateReactAgentParams = { llm: model, tools: [getWeather], prompt: "Be brief." };
 * ```
 */
export interface CreateReactAgentParams<
  Schema = AnnotationRoot<ReactAgentStateDefinition>,
  Context = Record<string, unknown>,
> {
  /** The chat model (bound to `tools` unless it already is), or a function choosing one per call. */
  llm: ReactAgentChatModel | DynamicReactAgentModel<SchemaState<Schema>, Context>;
  /** The tools, or a ready `ToolNode`. Plain tool definitions are offered to the model but not run. */
  tools: ToolNode | readonly (StructuredToolInterface | BindToolsInput)[];
  /** What the model sees: a system prompt, or a function/runnable of the state returning the input. */
  prompt?: ReactAgentPrompt<ReactAgentStateView<SchemaState<Schema>>, Context>;
  /** @deprecated Use `prompt` (same values): LangGraph.js's name for it before v0.2.46. */
  stateModifier?: ReactAgentPrompt<ReactAgentStateView<SchemaState<Schema>>, Context>;
  /**
   * @deprecated Use `prompt`. A system prompt (string or `SystemMessage`), or a function or
   * runnable of the messages alone (not of the state) returning the model's input.
   */
  messageModifier?: ReactAgentMessageModifier;
  /** The state schema (an `Annotation.Root` or Zod object with a `messages` key); default {@link createReactAgentAnnotation}. */
  stateSchema?: Schema;
  /** Schema of the run context (`invoke(input, { context })`). */
  contextSchema?: unknown;
  /** Saves a checkpoint every step (threads, interrupts, time travel). */
  checkpointer?: CompileOptions["checkpointer"];
  /** @deprecated Use `checkpointer`. */
  checkpointSaver?: CompileOptions["checkpointer"];
  /** Long-term store passed to nodes and tools. */
  store?: CompileOptions["store"];
  /** Pause before these nodes (needs a checkpointer). */
  interruptBefore?: ReactAgentNodeName[] | "*";
  /** Pause after these nodes (needs a checkpointer). */
  interruptAfter?: ReactAgentNodeName[] | "*";
  /** Ask for a structured answer after the loop; it is written to `structuredResponse`. */
  responseFormat?: ReactAgentResponseFormat;
  /** Name of the graph, also stamped on the agent's messages as `name`. */
  name?: string;
  /** Description of the graph. */
  description?: string;
  /** `"inline"`: show the agent's name to the model inside the content of its past messages. */
  includeAgentName?: "inline";
  /** A node run before every model call; it may write `messages` or `llmInputMessages` (what the model sees this time). */
  preModelHook?: ReactAgentHook<
    SchemaState<Schema>,
    SchemaUpdate<Schema> & { llmInputMessages?: Messages },
    Context
  >;
  /** A node run after every model call (human review, guardrails). */
  postModelHook?: ReactAgentHook<SchemaState<Schema>, SchemaUpdate<Schema>, Context>;
  /** `"v1"` (default): one tools step runs every call; `"v2"`: one `Send` per call. */
  version?: "v1" | "v2";
}

/**
 * The compiled graph {@link createReactAgent} returns.
 *
 * @example
 * ```ts
 * const agent: ReactAgent = createReactAgent({ llm: model, tools: [] });
 * ```
 */
export type ReactAgent<
  Schema = AnnotationRoot<ReactAgentStateDefinition>,
  Context = Record<string, unknown>,
> = CompiledStateGraph<SchemaState<Schema>, SchemaUpdate<Schema>, ReactAgentNodeName, Context>;

type AgentState = { messages: BaseMessage[]; llmInputMessages?: BaseMessage[] } & Record<string, unknown>;
type NodeFn = (
  state: AgentState,
  config: LangGraphRunnableConfig,
) => NodeReturn<Record<string, unknown>> | Promise<NodeReturn<Record<string, unknown>>>;

function isFormatWithSchema(
  format: ReactAgentResponseFormat,
): format is { schema: StandardSchemaLike | JsonSchema; prompt?: string } {
  return typeof format === "object" && format !== null && "schema" in format && !isStandardSchema(format);
}

/** A hook as a node: functions see the state with `remainingSteps`; graphs are added as they are. */
function hookNode(hook: unknown): NodeFn | SubgraphLike {
  if (isPregel(hook)) return hook as unknown as SubgraphLike;
  if (typeof hook === "function") {
    const fn = hook as NodeFn;
    return (state, config) => fn(withRemainingSteps(state, config), config);
  }
  if (
    typeof hook === "object" &&
    hook !== null &&
    typeof (hook as ReactAgentRunnable).invoke === "function"
  ) {
    const runnable = hook as ReactAgentRunnable<unknown>;
    return async (state, config) =>
      (await runnable.invoke(state, config)) as NodeReturn<Record<string, unknown>>;
  }
  throw new InvalidArgumentError(
    `Expected a Runnable, function or object. A model hook must be a function, a compiled graph or an object with invoke(); got ${hook === null ? "null" : typeof hook}.`,
  );
}

function withRemainingSteps(
  state: AgentState,
  config: LangGraphRunnableConfig,
): ReactAgentStateView<AgentState> {
  const remaining = config.executionInfo?.remainingSteps ?? Number.POSITIVE_INFINITY;
  return { ...state, remainingSteps: remaining };
}

/**
 * Builds a tool-calling agent graph, as LangGraph.js's `createReactAgent`: the `agent` node
 * calls the model; if the answer has tool calls, the `tools` node runs them and the loop goes
 * back to the model; otherwise the run ends (after `generate_structured_response` when
 * `responseFormat` is set). Optional `pre_model_hook` / `post_model_hook` nodes run before and
 * after each model call. With `version: "v2"` each tool call is its own `Send` task.
 *
 * Unlike LangGraph.js (and like Python), the agent keeps within the recursion limit: when the
 * model asks for tools but too few steps remain to run them and read the results, it answers
 * `"Sorry, need more steps to process this request."` and the run ends normally. It also
 * refuses, with {@link InvalidChatHistoryError}, to call the model with unanswered tool calls.
 *
 * @example
 * ```ts
 * import { createReactAgent } from "agentgraph/prebuilt";
 * import { tool } from "agentgraph/tools";
 * import { z } from "zod";
 *
 * const getWeather = tool(async ({ city }) => `It's sunny in ${city}.`, {
 *   name: "get_weather",
 *   description: "Get the weather for a city.",
 *   schema: z.object({ city: z.string() }),
 * });
 * const agent = createReactAgent({ llm: model, tools: [getWeather], prompt: "You are a weather bot." });
 * const { messages } = await agent.invoke({ messages: [{ role: "user", content: "Weather in Suzhou?" }] });
 * ```
 */
export function createReactAgent<
  Schema = AnnotationRoot<ReactAgentStateDefinition>,
  Context = Record<string, unknown>,
>(params: CreateReactAgentParams<Schema, Context>): ReactAgent<Schema, Context> {
  const { llm, tools, responseFormat, name, preModelHook, postModelHook, includeAgentName } = params;
  const version = params.version ?? "v1";
  if (version !== "v1" && version !== "v2") {
    throw new InvalidArgumentError(
      `Invalid version ${String(version)}. Supported versions are 'v1' and 'v2'.`,
    );
  }
  const toolNode = Array.isArray(tools)
    ? new ToolNode((tools as readonly unknown[]).filter(isClientTool) as unknown as StructuredToolInterface[])
    : (tools as ToolNode);
  const toolList: readonly BindToolsInput[] = Array.isArray(tools)
    ? (tools as readonly BindToolsInput[])
    : (toolNode.tools as readonly BindToolsInput[]);
  const returnDirect = new Set(
    toolList
      .filter((t) => isClientTool(t) && (t as { returnDirect?: unknown }).returnDirect === true)
      .map((t) => (t as { name: string }).name),
  );
  const shape: LoopShape = {
    preModelHook: preModelHook != null,
    postModelHook: postModelHook != null,
    structuredResponse: responseFormat != null,
    returnDirect,
    ...(params.interruptBefore === undefined ? {} : { interruptBefore: params.interruptBefore }),
    ...(params.interruptAfter === undefined ? {} : { interruptAfter: params.interruptAfter }),
  };
  const prompt: PromptStep = promptStep(
    chooseReactAgentPrompt(params.prompt, params.stateModifier, params.messageModifier),
  );
  // LangGraph.js pipes the prompt into the model: the model is step 2 of that sequence (with
  // inline names, step 2 of the name-handling sequence nested there). A runnable
  // messageModifier makes the prompt a two-step sequence (read the messages, then it), which
  // the model follows as step 3, or, with inline names, whose steps the name-handling
  // sequence joins: its model is then step 4.
  const mm = params.messageModifier as unknown;
  const twoStepPrompt =
    typeof mm === "object" &&
    mm !== null &&
    !isBaseMessage(mm) &&
    typeof (mm as { invoke?: unknown }).invoke === "function";
  const modelStep = twoStepPrompt ? (includeAgentName === "inline" ? 4 : 3) : 2;
  const dynamic =
    typeof llm === "function" ? (llm as unknown as DynamicReactAgentModel<AgentState, unknown>) : undefined;
  // bound at the first model call and kept, as LangGraph.js does (so a model bound to other
  // tools fails the first run, and a model whose bindTools binds a copy is copied then)
  let staticModel: ReactAgentChatModel | undefined;
  const boundStaticModel = (): ReactAgentChatModel => {
    staticModel ??= withInlineAgentName(
      bindAgentTools(llm as ReactAgentChatModel, toolList),
      includeAgentName,
    );
    return staticModel;
  };

  const callModel = async (
    state: AgentState,
    config: LangGraphRunnableConfig,
  ): Promise<{ messages: AIMessage[] }> => {
    const { llmInputMessages, ...rest } = state;
    const view = withRemainingSteps(
      {
        ...rest,
        messages:
          llmInputMessages !== undefined && llmInputMessages.length > 0 ? llmInputMessages : state.messages,
      },
      config,
    );
    validateChatHistory(view.messages);
    const model =
      dynamic === undefined
        ? boundStaticModel()
        : withInlineAgentName(
            // (it sees the state itself, `messages` and `llmInputMessages` apart, as in LangGraph.js)
            await (dynamic as DynamicReactAgentModel<AgentState, unknown>)(
              withRemainingSteps(state, config),
              config,
            ),
            includeAgentName,
          );
    // (tagged as the model step of LangGraph.js's `prompt.pipe(model)`, see `modelStep`)
    const response = (await model.invoke(
      await prompt(view, config),
      modelCallConfig(config, `seq:step:${modelStep}`),
    )) as AIMessage;
    nameAnswer(response, name);
    if (!isAIMessage(response)) return { messages: [response] };
    return { messages: [answerWithinSteps(response, config.executionInfo?.remainingSteps, shape)] };
  };

  const generateStructuredResponse = async (state: AgentState, config: LangGraphRunnableConfig) => {
    const format = responseFormat as ReactAgentResponseFormat;
    const messages: BaseMessage[] = [...state.messages];
    const model = (
      dynamic === undefined ? unboundModel(llm) : await dynamic(withRemainingSteps(state, config), config)
    ) as ReactAgentChatModel;
    if (typeof model.withStructuredOutput !== "function") {
      throw new InvalidArgumentError(
        `Expected \`llm\` to be a ChatModel with .withStructuredOutput() method, got ${(model as object).constructor?.name ?? typeof model}`,
      );
    }
    let runnable: ReactAgentRunnable;
    if (isFormatWithSchema(format)) {
      const { prompt: system, schema, ...options } = format;
      runnable = model.withStructuredOutput(schema, options);
      if (system != null) messages.unshift(new SystemMessage({ content: system }));
    } else {
      runnable = model.withStructuredOutput(format);
    }
    // (the model is step 1 of LangGraph.js's structured-output sequence, model then parser;
    // with `includeRaw` it is the `raw` branch of a map that step 1 runs)
    const includeRaw = isFormatWithSchema(format) && (format as { includeRaw?: unknown }).includeRaw === true;
    const response = await runnable.invoke(
      messages,
      modelCallConfig(config, includeRaw ? "map:key:raw" : "seq:step:1"),
    );
    if (response == null) {
      throw new InvalidArgumentError(
        "Failed to parse structured response against the provided `responseFormat` schema: the structured-output parser returned null/undefined, which usually means the model output did not satisfy the schema.",
      );
    }
    return { structuredResponse: response };
  };

  const workflow = new StateGraph(
    (params.stateSchema ?? createReactAgentAnnotation()) as StateSchemaInput,
    params.contextSchema,
  ) as unknown as StateGraph<unknown, AgentState, Record<string, unknown>, string>;
  const channels = (workflow as unknown as { channels: Record<string, BaseChannel> }).channels;
  if (!("messages" in channels))
    throw new InvalidArgumentError("Missing required `messages` key in state schema.");
  // Nodes other than the agent read the state schema only (not the agent's `llmInputMessages`).
  const stateOnly = preModelHook == null ? undefined : { input: { ...channels } };

  // drawn as LangGraph.js draws its tools node (a `ToolNode`), with the names of the tools it
  // runs: the drawing reads them from the node's `tools` (kept out of the node's metadata, which
  // its runs see)
  const runTools: NodeFn = Object.assign(
    async (state: Record<string, unknown>, config: Parameters<NodeFn>[1]) =>
      (await toolNode.invoke(state, config)) as NodeReturn<Record<string, unknown>>,
    { tools: toolNode.tools, lc_id: toolNode.lc_id, getName: () => toolNode.getName() },
  );
  workflow.addNode("tools", runTools, stateOnly);
  let entrypoint = "agent";
  let agentInput: { input: Record<string, BaseChannel> } | undefined;
  if (preModelHook != null) {
    workflow
      .addNode("pre_model_hook", hookNode(preModelHook) as NodeFn, stateOnly)
      .addEdge("pre_model_hook", "agent");
    entrypoint = "pre_model_hook";
    agentInput = { input: { ...channels, llmInputMessages: llmInputMessagesChannel() } };
  }
  workflow.addNode("agent", callModel, agentInput).addEdge(START, entrypoint);

  // (a null responseFormat is none, as LangGraph.js's routing reads it; its builder still adds
  // the node and fails to compile, `generate_structured_response` not being reachable)
  const withFormat = responseFormat != null;
  const finish = withFormat ? "generate_structured_response" : END;
  const pathMap = (entries: Record<string, string | null>) =>
    Object.fromEntries(
      Object.entries(entries).filter((entry): entry is [string, string] => entry[1] !== null),
    );
  const sendEach = (state: AgentState, calls: ReturnType<typeof pendingToolCalls>) =>
    calls.map((call) => new Send("tools", { ...state, lg_tool_call: call }));

  if (postModelHook != null) {
    workflow
      .addNode("post_model_hook", hookNode(postModelHook) as NodeFn, stateOnly)
      .addEdge("agent", "post_model_hook")
      .addConditionalEdges(
        "post_model_hook",
        (state: AgentState) => {
          const pending = pendingToolCalls(state.messages);
          if (pending.length > 0) return version === "v2" ? sendEach(state, pending) : "tools";
          const last = state.messages[state.messages.length - 1];
          if (last !== undefined && last.getType() === "tool") return entrypoint;
          return finish;
        },
        pathMap({
          tools: "tools",
          [entrypoint]: entrypoint,
          generate_structured_response: withFormat ? "generate_structured_response" : null,
          [END]: withFormat ? null : END,
        }),
      );
  }
  if (withFormat) {
    workflow
      .addNode("generate_structured_response", generateStructuredResponse, stateOnly)
      .addEdge("generate_structured_response", END);
  }
  if (postModelHook == null) {
    workflow.addConditionalEdges(
      "agent",
      (state: AgentState) => {
        const last = state.messages[state.messages.length - 1];
        if (!isAIMessage(last) || last.tool_calls.length === 0) return finish;
        return version === "v2" ? sendEach(state, last.tool_calls) : "tools";
      },
      pathMap({
        tools: "tools",
        generate_structured_response: withFormat ? "generate_structured_response" : null,
        [END]: withFormat ? null : END,
      }),
    );
  }
  if (returnDirect.size > 0) {
    workflow.addConditionalEdges(
      "tools",
      (state: AgentState) => (endsWithReturnDirect(state.messages, returnDirect) ? END : entrypoint),
      pathMap({ [entrypoint]: entrypoint, [END]: END }),
    );
  } else {
    workflow.addEdge("tools", entrypoint);
  }

  const compileOptions: CompileOptions<string> = {};
  const checkpointer = params.checkpointer ?? params.checkpointSaver;
  if (checkpointer !== undefined) compileOptions.checkpointer = checkpointer;
  if (params.store !== undefined) compileOptions.store = params.store;
  if (params.interruptBefore !== undefined) compileOptions.interruptBefore = params.interruptBefore;
  if (params.interruptAfter !== undefined) compileOptions.interruptAfter = params.interruptAfter;
  if (name !== undefined) compileOptions.name = name;
  if (params.description !== undefined) compileOptions.description = params.description;
  return workflow.compile(compileOptions) as unknown as ReactAgent<Schema, Context>;
}
