import {
  type Command,
  type ExecutionInfo,
  type LangGraphRunnableConfig,
  readCurrentState,
  setTaskInputView,
} from "../graph/index.js";
import type { BaseMessage, ToolCall, ToolMessage } from "../messages/index.js";
import {
  copyOf,
  copyWith,
  failedBeforeThen,
  getAmbientConfig,
  INVOKE_THEN,
  invokeThen,
  mergeOf,
  promiseTry,
  resolveConfig,
  shareNodeRun,
  thenThroughInvoke,
} from "../shared/index.js";
import { buildToolRuntime, type StructuredToolInterface, type ToolRunnableConfig } from "../tools/index.js";
import { type HandleToolErrors, ToolNotFoundError, toolErrorResult } from "./tool-node-errors.js";
import { parseToolNodeInput } from "./tool-node-input.js";
import { combineResults, toToolCallResult } from "./tool-node-output.js";
import type { ToolCallRequest, ToolCallResult, WrapToolCall } from "./tool-node-wrap.js";

/**
 * Options of {@link ToolNode}.
 *
 * @example
 * ```ts
 * const options: ToolNodeOptions = { name: "tools", handleToolErrors: false };
 * ```
 */
/**
 * Set to `true` on a ToolNode (createAgent's) whose tools should see `getCurrentTaskInput()`
 * answer LangChain.js's `Send` payload `{ ...state, lg_tool_call }` although the `Send` carries
 * the call alone.
 *
 * @internal
 */
export const SHOWS_SEND_PAYLOAD: unique symbol = Symbol("agentgraph.toolNodeShowsSendPayload");

export interface ToolNodeOptions {
  /** The node's runnable name (default `"func"`, as in LangGraph.js); the graph names the node itself. */
  name?: string;
  /** Tags added to the config every tool runs with. */
  tags?: string[];
  /** How tool errors reach the model (default `true`); see {@link HandleToolErrors}. */
  handleToolErrors?: HandleToolErrors;
  /** A hook around each tool call: retry, short-circuit, rewrite arguments or results. */
  wrapToolCall?: WrapToolCall;
}

/**
 * What a ToolNode returns: `{ messages }` (or, for a message-list input, the list of
 * `ToolMessage`s); when tools return `Command`s, a list of the commands and of one update per
 * `ToolMessage`, which the graph applies in order.
 *
 * @example
 * ```ts
 * const out = (await toolNode.invoke({ messages })) as { messages: ToolMessage[] };
 * ```
 */
export type ToolNodeOutput =
  | { messages: ToolMessage[] }
  | ToolMessage[]
  | Array<Command | { messages: ToolMessage[] } | ToolMessage[]>;

/**
 * What a ToolNode returns for a state input (`{ messages }`, tool calls, a `Send` payload): a
 * graph node's update, so `return new ToolNode(tools).invoke(state)` type-checks in a node.
 *
 * @example
 * ```ts
 * const out: ToolNodeStateOutput = await new ToolNode(tools).invoke(state);
 * ```
 */
export type ToolNodeStateOutput = { messages: ToolMessage[] } | Array<Command | { messages: ToolMessage[] }>;

/**
 * A graph node that runs the tools the last `AIMessage` asks for, as LangGraph.js's
 * `ToolNode` does. Every call of that message not yet answered by a `ToolMessage` runs, all at
 * once; the `ToolMessage`s come back in call order, each with the call's `tool_call_id` and the
 * tool's `name`. Tools receive the graph state, context, store, writer and call id in their
 * runtime (the model never sees those). A tool error becomes an error `ToolMessage` (see
 * {@link HandleToolErrors}); interrupts and aborts propagate. A tool may return a `Command` to
 * update state and route (`graph: Command.PARENT` addresses the parent graph).
 *
 * It accepts `{ messages }` state, a list of messages, a list of tool calls, or the `Send`
 * payload `{ ...state, lg_tool_call }`, and is added to a graph like any node.
 *
 * @example
 * ```ts
 * import { MessagesAnnotation, StateGraph, START } from "agentgraph";
 * import { ToolNode, toolsCondition } from "agentgraph/prebuilt";
 *
 * const graph = new StateGraph(MessagesAnnotation)
 *   .addNode("agent", callModel)
 *   .addNode("tools", new ToolNode([getWeather]))
 *   .addEdge(START, "agent")
 *   .addConditionalEdges("agent", toolsCondition, ["tools", "__end__"])
 *   .addEdge("tools", "agent")
 *   .compile();
 * ```
 *
 * `T` is what `invoke` is typed to return for a state input (LangGraph.js's `ToolNode<T>` types
 * it by the state: `new ToolNode<typeof State.State>(tools)`); it defaults to
 * {@link ToolNodeStateOutput}. A message-list input is answered with a list.
 */
export class ToolNode<T = ToolNodeStateOutput> {
  /** The node's runnable name (LangGraph.js's; default `"func"`). */
  readonly name: string;
  readonly tags: readonly string[];
  readonly tools: readonly StructuredToolInterface[];
  readonly handleToolErrors: HandleToolErrors;
  readonly wrapToolCall: WrapToolCall | undefined;
  private readonly toolsByName: ReadonlyMap<string, StructuredToolInterface>;
  /** The config {@link withConfig} bound, under each call's own. */
  private boundConfig: LangGraphRunnableConfig<unknown> | undefined;
  /** @internal See {@link SHOWS_SEND_PAYLOAD}. */
  [SHOWS_SEND_PAYLOAD] = false;

  constructor(tools: readonly StructuredToolInterface[], options: ToolNodeOptions = {}) {
    this.name = options.name ?? "func";
    this.tags = options.tags ?? [];
    this.tools = [...tools];
    this.handleToolErrors = options.handleToolErrors ?? true;
    this.wrapToolCall = options.wrapToolCall;
    const byName = new Map<string, StructuredToolInterface>();
    for (const tool of tools) if (!byName.has(tool.name)) byName.set(tool.name, tool);
    this.toolsByName = byName;
  }

  /** How LangChain.js identifies the runnable (`getGraph().toJSON()` reports it for the node). */
  get lc_id(): string[] {
    return ["langgraph", "ToolNode"];
  }

  /** The runnable name (LangChain.js `getName()`). */
  getName(): string {
    return this.name;
  }

  /**
   * A copy of this node that runs with `config` under each call's own (LangChain.js's
   * `withConfig`): its `configurable`, `metadata` and `tags` are added to the call's, so the tools
   * see them in their config. A second `withConfig` replaces the keys it gives (its
   * `configurable` replaces the first's), as LangChain.js's `RunnableBinding.withConfig` does.
   *
   * @example
   * ```ts
   * const node = new ToolNode(tools).withConfig({ configurable: { messages: state.messages } });
   * await node.invoke(state); // the tools read config.configurable.messages
   * ```
   */
  withConfig(config: LangGraphRunnableConfig<unknown>): ToolNode<T> {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as ToolNode<T>;
    Object.assign(copy, this);
    copy.boundConfig = mergeOf(this.boundConfig, config);
    return copy;
  }

  /**
   * Runs the tool calls of `input` (a {@link ToolNodeInput}) and returns the answers (a
   * {@link ToolNodeOutput}). Inside a graph the engine passes the node's config.
   */
  invoke(
    input: readonly BaseMessage[],
    config?: LangGraphRunnableConfig<unknown>,
  ): Promise<ToolMessage[] | Array<Command | ToolMessage[]>>;
  invoke(input: unknown, config?: LangGraphRunnableConfig<unknown>): Promise<T>;
  invoke(input: unknown, config?: LangGraphRunnableConfig<unknown>): Promise<T | ToolNodeOutput> {
    // one continuation per call, not `async` layers: under Node's `AsyncLocalStorage` every
    // promise and every resumption runs hooks
    return promiseTry(() => this.runPrepared(this.prepare(input, config)));
  }

  /**
   * `invoke` with the engine's continuation (see `invokeThen` in shared/): the node's only call
   * without a `wrapToolCall` hook hands its output to `then` in the tool's own last continuation;
   * the node's failures go to `onError`.
   *
   * @internal
   */
  [INVOKE_THEN]<R>(
    input: unknown,
    config: LangGraphRunnableConfig<unknown> | undefined,
    then: (output: ToolNodeOutput) => R | PromiseLike<R>,
    onError?: (error: unknown) => R | PromiseLike<R>,
  ): Promise<R> {
    if (this.invoke !== ToolNode.prototype.invoke)
      return thenThroughInvoke(this as ToolNode, input, config, then, onError);
    let prepared: ReturnType<ToolNode["prepare"]>;
    try {
      prepared = this.prepare(input, config);
    } catch (error) {
      return failedBeforeThen(error, onError);
    }
    return this.runPrepared(prepared, then, onError);
  }

  /** Runs the prepared calls; `then` and `onError`, when given, take the node's output or failure. */
  private runPrepared(prepared: ReturnType<ToolNode["prepare"]>): Promise<ToolNodeOutput>;
  private runPrepared<R>(
    prepared: ReturnType<ToolNode["prepare"]>,
    then: (output: ToolNodeOutput) => R | PromiseLike<R>,
    onError: ((error: unknown) => R | PromiseLike<R>) | undefined,
  ): Promise<R>;
  private runPrepared<R>(
    prepared: ReturnType<ToolNode["prepare"]>,
    then?: (output: ToolNodeOutput) => R | PromiseLike<R>,
    onError?: (error: unknown) => R | PromiseLike<R>,
  ): Promise<ToolNodeOutput | R> {
    const { calls, listOutput, base, state } = prepared;
    const combine = (results: ToolCallResult[]) => combineResults(results, listOutput) as ToolNodeOutput;
    let output: Promise<ToolNodeOutput>;
    if (calls.length === 1) {
      // the only call (always, for a Send per call) takes the node's copy as its own config
      const only = calls[0] as ToolCall;
      if (this.wrapToolCall === undefined) return this.runOnly(only, base, listOutput, then, onError);
      output = this.runCall(only, base, state, true).then((result) => combine([result]));
    } else {
      output = Promise.all(calls.map((call) => this.runCall(call, base, state, false))).then(combine);
    }
    return then === undefined ? output : output.then(then, onError);
  }

  /** The calls of `input`, the config the tools get, and the state they see. */
  private prepare(input: unknown, config: LangGraphRunnableConfig<unknown> | undefined) {
    const parsed = parseToolNodeInput(input);
    const { calls, listOutput } = parsed;
    // the task's own config (what the engine passes) needs no merging: baseConfig copies it
    const ambient = getAmbientConfig();
    const bound = this.boundConfig;
    const explicit = bound === undefined ? config : overConfig(bound, config);
    const resolved = (
      explicit === undefined || explicit === ambient ? (ambient ?? {}) : resolveConfig(explicit)
    ) as LangGraphRunnableConfig<unknown>;
    // tool calls alone (one Send per call): the tools see the graph's state, read from its channels
    const state = parsed.stateFromGraph ? (readCurrentState(resolved) ?? parsed.state) : parsed.state;
    // createAgent's Send carries the call alone; its tools still see LangChain.js's Send payload
    // `{ ...state, lg_tool_call }`, as `runtime.state` and from `getCurrentTaskInput()` (one
    // object), while a wrapToolCall hook's `request.state` is the state alone
    let toolState = state;
    if (this[SHOWS_SEND_PAYLOAD] && parsed.stateFromGraph && calls.length === 1) {
      const payload = { ...(state as object), lg_tool_call: calls[0] };
      setTaskInputView(resolved, () => payload);
      toolState = payload;
    }
    // a node's signal lives on its config's prototype, so spreading the config would lose it
    const signal = (config ?? ambient)?.signal;
    const base = this.baseConfig(resolved, signal, toolState);
    return { calls, listOutput, base, state };
  }

  /** `ownsBase`: `base` is this call's alone (the node's only call), so it is not copied again. */
  private runCall(
    call: ToolCall,
    base: ToolRunnableConfig,
    state: unknown,
    ownsBase: boolean,
  ): Promise<ToolCallResult> {
    // a request that cannot be built is the node's failure, not an error the model is shown
    return promiseTry(() => {
      const config = ownsBase ? base : copyOf(base);
      config.toolCall = call;
      const request: ToolCallRequest = {
        toolCall: call,
        tool: this.toolsByName.get(call.name),
        state,
        runtime: buildToolRuntime(withCallIdentity(config, call)),
      };
      const wrap = this.wrapToolCall;
      return promiseTry(() =>
        wrap === undefined ? this.execute(request) : wrap(request, this.execute),
      ).then(undefined, (error: unknown) => toolErrorResult(error, call, this.handleToolErrors, base.signal));
    });
  }

  /**
   * The node's only call when no `wrapToolCall` hook stands between (`config` is the node's copy,
   * this call's own): what {@link runCall} and {@link execute} do, with the tool's answer (or
   * failure) turned into the node's output in one continuation rather than one per layer (under
   * Node's `AsyncLocalStorage` each promise runs hooks).
   */
  private runOnly<R>(
    call: ToolCall,
    config: ToolRunnableConfig,
    listOutput: boolean,
    then?: (output: ToolNodeOutput) => R | PromiseLike<R>,
    onError?: (error: unknown) => R | PromiseLike<R>,
  ): Promise<ToolNodeOutput | R> {
    // a failed call becomes an error ToolMessage (the node's output), or fails the node
    const answered = (error: unknown): Promise<ToolNodeOutput> =>
      toolErrorResult(error, call, this.handleToolErrors, config.signal).then(
        (answer) => combineResults([answer], listOutput) as ToolNodeOutput,
      );
    const fail =
      then === undefined
        ? answered
        : (error: unknown): Promise<ToolNodeOutput | R> => answered(error).then(then, onError);
    const output =
      then === undefined ? (result: ToolNodeOutput): ToolNodeOutput | R | PromiseLike<R> => result : then;
    // no `runtime` object: only a wrapToolCall hook would see it (the tool builds its own), and
    // its config is this one
    config.toolCall = call;
    const own = withCallIdentity(config, call);
    const tool = this.toolsByName.get(call.name);
    if (tool === undefined) return fail(new ToolNotFoundError(call.name));
    const name = tool.name;
    // the tool's answer becomes the node's output (and goes to `then`) in the tool's own last
    // continuation
    return invokeThen(
      tool,
      typedCall(call),
      own,
      (answer): ToolNodeOutput | R | PromiseLike<ToolNodeOutput | R> => {
        let result: ToolCallResult;
        try {
          result = toToolCallResult(answer, call, name);
        } catch (error) {
          return fail(error);
        }
        return output(combineResults([result], listOutput) as ToolNodeOutput);
      },
      fail,
    );
  }

  /** Runs the tool of a request; what `wrapToolCall` hooks receive as `execute`. */
  private readonly execute = (request: ToolCallRequest): Promise<ToolCallResult> =>
    promiseTry(() => {
      const { tool, toolCall, runtime } = request;
      // the runtime's config is this call's own; a copy only when a wrapToolCall changed the request
      let config: ToolRunnableConfig = runtime.config;
      // createAgent's tools see the Send payload whatever state the hook passes on (as in LangChain.js)
      const ownState = this[SHOWS_SEND_PAYLOAD];
      if (
        config.toolCall !== toolCall ||
        (!ownState && config.state !== request.state) ||
        (runtime.context !== undefined && config.context !== runtime.context)
      ) {
        config = copyOf(config);
        config.toolCall = toolCall;
        if (!ownState) config.state = request.state;
        if (runtime.context !== undefined) config.context = runtime.context;
      }
      return Promise.resolve(invokeTool(tool, toolCall, config)).then((output) =>
        toToolCallResult(output, toolCall, tool?.name ?? toolCall.name),
      );
    });

  /**
   * The config tools run with: the node's, without its run id, plus the runtime fields. Its run
   * name stays (the node's, when callbacks do not hear the run), as LangGraph.js's tools get it.
   */
  private baseConfig(
    config: LangGraphRunnableConfig<unknown>,
    signal: AbortSignal | undefined,
    state: unknown,
  ): ToolRunnableConfig {
    // a copy, not a rest pattern (which takes V8's slow path on a task config) nor a spread (see
    // copyOf); the node's run id is not the tools' (a key left undefined reads as absent)
    const out = copyOf(config) as unknown as Record<string, unknown>;
    out.state = state;
    // `interrupt` lives on a task config's prototype until first read: tools see it, as in LangGraph.js
    if (out.interrupt === undefined && config.interrupt !== undefined) out.interrupt = config.interrupt;
    // so does the run's `control` (LangGraph.js's tools find it on their config and runtime)
    if (out.control === undefined && config.control !== undefined) out.control = config.control;
    out.runId = undefined;
    if (signal !== undefined) out.signal = signal;
    if (this.tags.length > 0) out.tags = [...new Set([...(config.tags ?? []), ...this.tags])];
    if (out.store === null) out.store = undefined;
    // outside a graph too, tools find a `configurable` object (as in LangGraph.js)
    if (out.configurable === undefined) out.configurable = {};
    return out as ToolRunnableConfig;
  }
}

/** `extra` over `base`, their `configurable`, `metadata` and `tags` joined (as LangChain.js merges configs). */
function overConfig(
  base: LangGraphRunnableConfig<unknown>,
  extra: LangGraphRunnableConfig<unknown> | undefined,
): LangGraphRunnableConfig<unknown> {
  if (extra === undefined) return base;
  const out = mergeOf(base, extra);
  if (base.configurable !== undefined) out.configurable = mergeOf(base.configurable, extra.configurable);
  if (base.metadata !== undefined) out.metadata = mergeOf(base.metadata, extra.metadata);
  if (base.tags !== undefined && extra.tags !== undefined)
    out.tags = [...new Set([...base.tags, ...extra.tags])];
  return out;
}

/** Invokes the tool a call names (a `ToolNotFoundError` when the node has none by that name). */
function invokeTool(
  tool: StructuredToolInterface | undefined,
  call: ToolCall,
  config: ToolRunnableConfig,
): unknown {
  if (tool === undefined) throw new ToolNotFoundError(call.name);
  return tool.invoke(typedCall(call), config);
}

/** The call as a tool receives it: typed `tool_call` (as in LangChain.js, the type marks a call). */
function typedCall(call: ToolCall): ToolCall & { type: "tool_call" } {
  return call.type === "tool_call"
    ? (call as ToolCall & { type: "tool_call" })
    : { ...call, type: "tool_call" };
}

/**
 * Gives each call its own idempotency key (`executionInfo.idempotencyKey`): the task's key plus
 * the call id, both stable across retries and resumes, so a side-effecting tool can deduplicate
 * when its node runs again.
 */
function withCallIdentity(config: ToolRunnableConfig, call: ToolCall): ToolRunnableConfig {
  const own = config as ToolRunnableConfig & { executionInfo?: ExecutionInfo };
  const info = own.executionInfo;
  if (info === undefined || call.id === undefined) return config;
  own.executionInfo = copyWith(info, "idempotencyKey", `${info.idempotencyKey ?? info.taskId}:${call.id}`);
  // the tool's run is still the child of the tools node's run
  shareNodeRun(own.executionInfo, info);
  return own;
}
