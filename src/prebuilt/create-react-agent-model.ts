import type { LangGraphRunnableConfig } from "../graph/index.js";
import {
  type BaseMessage,
  type BaseMessageLike,
  isBaseMessage,
  isSystemMessage,
  SystemMessage,
} from "../messages/index.js";
import type { BaseLanguageModelInput } from "../models/index.js";
import { InvalidArgumentError, type RunnableConfig } from "../shared/index.js";
import type { BindToolsInput, JsonSchema, StandardSchemaLike } from "../tools/index.js";
import { addInlineAgentName, removeInlineAgentName } from "./create-react-agent-name.js";

/**
 * What `createReactAgent` needs from a chat model: `invoke`, and `bindTools` unless the model
 * already has its tools bound. `withStructuredOutput` is needed only with `responseFormat`.
 * Every `BaseChatModel` (and what its `bindTools` returns) fits.
 *
 * @example
 * ```ts
 * const llm: ReactAgentChatModel = new FakeChatModel({ responses: ["Hi!"] });
 * ```
 */
export interface ReactAgentChatModel {
  /** Answers the prompt; `config` is the agent node's run config (see {@link modelCallConfig}). */
  invoke(input: BaseLanguageModelInput, config?: RunnableConfig): Promise<BaseMessage>;
  bindTools?(tools: BindToolsInput[]): ReactAgentChatModel;
  withStructuredOutput?(
    schema: StandardSchemaLike | JsonSchema,
    options?: { name?: string },
  ): ReactAgentRunnable;
}

/**
 * Anything with `invoke(input, config)`: a prompt template, a structured-output runnable, a
 * hand-written object.
 *
 * @example
 * ```ts
 * const prompt: ReactAgentRunnable<{ messages: BaseMessage[] }, BaseMessage[]> = {
 *   invoke: async (state) => [new SystemMessage("Be brief."), ...state.messages],
 * };
 * ```
 */
export interface ReactAgentRunnable<Input = BaseLanguageModelInput, Output = unknown> {
  invoke(input: Input, config?: LangGraphRunnableConfig): Promise<Output> | Output;
}

/**
 * The `prompt` option: a system prompt (a string or a `SystemMessage`), a function of the
 * state returning the model's input (sync or async), or an object whose `invoke(state)` does.
 *
 * @example
 * ```ts
 * const prompt: ReactAgentPrompt<{ messages: BaseMessage[]; user: string }> = (state) => [
 *   new SystemMessage(`The user is ${state.user}.`),
 *   ...state.messages,
 * ];
 * ```
 */
export type ReactAgentPrompt<State = Record<string, unknown>, Context = Record<string, unknown>> =
  | string
  | SystemMessage
  | ((
      state: State,
      config: LangGraphRunnableConfig<Context>,
    ) => BaseLanguageModelInput | Promise<BaseLanguageModelInput>)
  | ReactAgentRunnable<State, BaseLanguageModelInput>;

/** The model's input from the agent's state view, as `prompt` asks. */
export type PromptStep = (
  state: { messages: BaseMessage[] } & Record<string, unknown>,
  config: LangGraphRunnableConfig,
) => Promise<BaseLanguageModelInput>;

/** Turns the `prompt` option into one step (LangGraph.js's prompt runnable). */
export function promptStep(prompt: unknown): PromptStep {
  if (prompt === undefined || prompt === null) return async (state) => state.messages;
  if (typeof prompt === "string") {
    const system = new SystemMessage(prompt);
    return async (state) => [system, ...(state.messages ?? [])];
  }
  if (isBaseMessage(prompt) && isSystemMessage(prompt)) return async (state) => [prompt, ...state.messages];
  if (typeof prompt === "function") {
    const fn = prompt as (state: unknown, config: unknown) => BaseLanguageModelInput;
    return async (state, config) => fn(state, config);
  }
  if (typeof prompt === "object" && typeof (prompt as ReactAgentRunnable<unknown>).invoke === "function") {
    const runnable = prompt as ReactAgentRunnable<unknown, BaseLanguageModelInput>;
    return async (state, config) => runnable.invoke(state, config);
  }
  throw new InvalidArgumentError(`Got unexpected type for 'prompt': ${typeof prompt}`);
}

/**
 * The deprecated `messageModifier` option: a system prompt, or a function or runnable of the
 * messages alone returning the model's input.
 *
 * @example
 * ```ts
 * const keepLastTen: ReactAgentMessageModifier = (messages) => messages.slice(-10);
 * ```
 */
export type ReactAgentMessageModifier =
  | string
  | SystemMessage
  | ((messages: BaseMessage[]) => BaseMessageLike[] | Promise<BaseMessageLike[]>)
  | ReactAgentRunnable<BaseMessage[], BaseLanguageModelInput>;

/**
 * The one prompt among `prompt` and its deprecated spellings `stateModifier` (the same values)
 * and `messageModifier` (given the messages, not the state), as LangGraph.js picks it.
 */
export function chooseReactAgentPrompt(
  prompt: unknown,
  stateModifier: unknown,
  messageModifier: unknown,
): unknown {
  const given = [prompt, stateModifier, messageModifier].filter(
    (option) => option !== undefined && option !== null,
  );
  if (given.length > 1) {
    throw new InvalidArgumentError(
      "Expected only one of prompt, stateModifier, or messageModifier, got multiple values. Pass the prompt as `prompt` only (the other two are its deprecated names).",
    );
  }
  if (stateModifier !== undefined && stateModifier !== null) return stateModifier;
  if (messageModifier === undefined || messageModifier === null) return prompt;
  if (typeof messageModifier === "string") return messageModifier;
  if (isBaseMessage(messageModifier) && isSystemMessage(messageModifier)) return messageModifier;
  if (typeof messageModifier === "function") {
    const fn = messageModifier as (messages: BaseMessage[]) => BaseLanguageModelInput;
    return async (state: { messages: BaseMessage[] }) => fn(state.messages);
  }
  if (
    typeof messageModifier === "object" &&
    typeof (messageModifier as ReactAgentRunnable).invoke === "function"
  ) {
    const runnable = messageModifier as ReactAgentRunnable<BaseMessage[], BaseLanguageModelInput>;
    return (state: { messages: BaseMessage[] }, config: LangGraphRunnableConfig) =>
      runnable.invoke(state.messages, config);
  }
  throw new InvalidArgumentError(
    `Unexpected type for messageModifier: ${typeof messageModifier}. Pass a string, a SystemMessage, or a function of the messages.`,
  );
}

/**
 * The run config the agent node hands to its model and structured-output calls, as LangGraph.js
 * passes the node's config on: `configurable`, `signal`, `callbacks`, `tags` and `metadata`.
 * The graph-only fields (`store`, `writer`, `context`, …) stay out, so a chat model never
 * takes them for call options. For agentgraph's own models this is the ambient config they
 * would inherit anyway; a hand-written model or structured-output runnable gets it as its
 * second argument. `stepTag` adds the tag LangChain.js gives a runnable inside a composition
 * (`seq:step:<n>` for a step of a sequence, `map:key:<key>` for a branch of a map), in place
 * of any such tag the node's config carries.
 */
export function modelCallConfig(config: LangGraphRunnableConfig, stepTag?: string): RunnableConfig {
  const out: RunnableConfig = {};
  if (config.configurable !== undefined) out.configurable = config.configurable;
  if (config.signal !== undefined) out.signal = config.signal;
  if (config.callbacks !== undefined) out.callbacks = config.callbacks;
  if (stepTag !== undefined) {
    // LangGraph.js runs the model inside a composition (`prompt.pipe(model)`, the structured-
    // output pipeline), which tags it
    out.tags = [
      ...(config.tags ?? []).filter((tag) => !tag.startsWith("seq:step:") && !tag.startsWith("map:key:")),
      stepTag,
    ];
  } else if (config.tags !== undefined) out.tags = config.tags;
  if (config.metadata !== undefined) out.metadata = config.metadata;
  return out;
}

/** A model that is a `bindTools` result: its bound call options, when it has any. */
interface BoundLike {
  bound?: unknown;
  kwargs?: { tools?: unknown };
  config?: { tools?: unknown };
}

function boundTools(model: unknown): unknown[] | undefined {
  if (typeof model !== "object" || model === null) return undefined;
  const { kwargs, config } = model as BoundLike;
  let tools: unknown[] | undefined;
  if (Array.isArray(kwargs?.tools)) tools = kwargs.tools;
  else if (Array.isArray(config?.tools)) tools = config.tools;
  const first = tools?.[0] as { functionDeclarations?: unknown } | undefined;
  if (tools?.length === 1 && Array.isArray(first?.functionDeclarations)) tools = first.functionDeclarations;
  return tools;
}

function boundToolName(tool: unknown): string | undefined {
  if (typeof tool !== "object" || tool === null) return undefined;
  const t = tool as {
    type?: unknown;
    function?: { name?: unknown };
    name?: unknown;
    toolSpec?: { name?: unknown };
  };
  let name: unknown;
  if (t.type === "function" && t.function !== undefined) name = t.function.name;
  else if ("name" in t) name = t.name;
  else if (t.toolSpec !== undefined) name = t.toolSpec.name;
  return typeof name === "string" && name !== "" ? name : undefined;
}

/** A tool the agent runs itself (not a provider-side tool given as a plain definition). */
export function isClientTool(tool: unknown): tool is BindToolsInput & { name: string } {
  return (
    typeof tool === "object" && tool !== null && typeof (tool as { invoke?: unknown }).invoke === "function"
  );
}

/**
 * The static model with the agent's tools: bound with `bindTools` unless it already is, in
 * which case the bound tools must be the agent's (LangGraph.js's checks and messages).
 */
export function bindAgentTools(
  llm: ReactAgentChatModel,
  tools: readonly BindToolsInput[],
): ReactAgentChatModel {
  const already = boundTools(llm);
  if (already === undefined) {
    if (typeof llm.bindTools === "function") return llm.bindTools([...tools]);
    if (tools.length === 0) return llm;
    throw new InvalidArgumentError(`llm ${String(llm)} must define bindTools method.`);
  }
  if (tools.length !== already.length) {
    throw new InvalidArgumentError(
      "Number of tools in the model.bindTools() and tools passed to createReactAgent must match",
    );
  }
  const names = new Set(already.map(boundToolName).filter((n): n is string => n !== undefined));
  const missing = tools
    .filter(isClientTool)
    .map((tool) => tool.name)
    .filter((name) => !names.has(name));
  if (missing.length > 0) {
    throw new InvalidArgumentError(
      `Missing tools '${missing.join(",")}' in the model.bindTools().Tools in the model.bindTools() must match the tools passed to createReactAgent.`,
    );
  }
  return llm;
}

/**
 * The model with `includeAgentName: "inline"` applied, or as it is for any other value (as
 * LangGraph.js's `createReactAgent` ignores a mode it does not know).
 */
export function withInlineAgentName(
  model: ReactAgentChatModel,
  mode: "inline" | undefined,
): ReactAgentChatModel {
  if (mode !== "inline") return model;
  return {
    invoke: async (input, config) => {
      const messages = Array.isArray(input)
        ? input.map((m: BaseMessageLike) => (isBaseMessage(m) ? addInlineAgentName(m) : m))
        : input;
      return removeInlineAgentName(await model.invoke(messages, config));
    },
  };
}

/** The chat model under a `bindTools` result (structured output starts from the plain model). */
export function unboundModel(model: unknown): unknown {
  const bound = (model as BoundLike | null)?.bound;
  return typeof bound === "object" && bound !== null ? bound : model;
}
