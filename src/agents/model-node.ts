import { Command, isCommand, type LangGraphRunnableConfig } from "../graph/index.js";
import {
  type AIMessage,
  type BaseMessage,
  isAIMessage,
  isBaseMessage,
  isMergedMessageList,
  SystemMessage,
} from "../messages/index.js";
import { ConfiguredChatModel, initChatModel, nameAnswer } from "../models/index.js";
import {
  getAmbientConfig,
  handOver,
  INVOKE_THEN,
  InvalidArgumentError,
  invokeThen,
  isThenable,
  promiseTry,
} from "../shared/index.js";
import type { BindToolsInput, StructuredToolInterface } from "../tools/index.js";
import { raceAgentSignal } from "./abort-reason.js";
import { assertNoBoundTools, isClientTool, normalizeTools, systemPromptMessage } from "./agent-tools.js";
import { MiddlewareError } from "./errors.js";
import { inlineAgentNames, stripInlineAgentName } from "./inline-name.js";
import { type ResponseStrategy, resolveResponseFormat, type ToolStrategy } from "./responses.js";
import { agentRuntime, middlewareRuntime } from "./runtime.js";
import { applyStructuredOutput, type StructuredOutcome } from "./structured-output.js";
import type {
  AgentChatModel,
  AgentState,
  AgentTool,
  AnyAgentMiddleware,
  ModelRequest,
  WrapModelCallHook,
} from "./types.js";

/** What the model node is built from. */
export interface ModelNodeOptions {
  readonly model: string | AgentChatModel;
  readonly systemMessage: SystemMessage;
  /** The default `request.tools`: the agent's and the middleware's tools, in order. */
  readonly tools: readonly BindToolsInput[];
  /** Client tools by name (what the tools node can run). */
  readonly registered: ReadonlyMap<string, StructuredToolInterface>;
  readonly responseFormat: unknown;
  /** Middleware with `wrapModelCall`, in order. */
  readonly wraps: readonly AnyAgentMiddleware[];
  readonly hasWrapToolCall: boolean;
  /** Name stamped on the model's messages (the agent's name, else `"model"`). */
  readonly messageName: string;
  readonly includeAgentName: "inline" | undefined;
  readonly signal: AbortSignal | undefined;
  /** Names of structured-output tools seen so far (shared with the routers). */
  readonly structuredNames: Set<string>;
  /** Strategies made from bare schemas, shared with the graph builder (stable tool names). */
  readonly formatCache: WeakMap<object, ResponseStrategy[]>;
  /**
   * Whether the edge out of this node reads `jumpTo` (no `afterModel` hook follows), so a jump
   * left over from the step before must be cleared here. With `afterModel` hooks the first hook
   * writes `jumpTo` itself, and the node's update stays LangChain.js's `{ messages }`.
   */
  readonly clearsJump: boolean;
}

type AgentNodeState = AgentState & { jumpTo?: unknown };

const NO_FORMAT = Symbol("no response format");

/** The model's answer after the middleware onion, with the `Command`s middleware returned. */
interface WrapResult {
  message: AIMessage;
  commands: Command[];
}

/** What the node returns: the state update, or `Command`s (the update first) when middleware returned some. */
type NodeResult = Record<string, unknown> | Command[];

/** Internal: what the innermost handler last used, so structured output is parsed with the same strategies. */
interface CallRecord {
  strategies: readonly ResponseStrategy[] | undefined;
  /** The model's own (last) answer inside the `wrapModelCall` onion. */
  answer?: AIMessage | undefined;
}

/** How many structured-output tool names an agent keeps for routing (bare schemas get new ones at every call). */
const STRUCTURED_NAMES_KEPT = 256;

/**
 * Adds the tool names of `strategies` to `names`, forgetting the oldest beyond
 * {@link STRUCTURED_NAMES_KEPT}: the router needs only the names of the call it routes.
 */
function rememberStructuredNames(names: Set<string>, strategies: readonly ResponseStrategy[]): void {
  for (const s of strategies) {
    if (s.kind !== "tool") continue;
    names.delete(s.name);
    names.add(s.name);
  }
  if (names.size <= STRUCTURED_NAMES_KEPT) return;
  for (const name of names) {
    if (names.size <= STRUCTURED_NAMES_KEPT) break;
    names.delete(name);
  }
}

/**
 * The `model_request` node: builds a {@link ModelRequest} from the state, passes it through the
 * `wrapModelCall` onion (the first middleware outermost) to the model, applies structured
 * output to the final answer, and returns the update (then any `Command`s from middleware).
 */
export function createModelNode(options: ModelNodeOptions) {
  let resolvedModel: Promise<AgentChatModel> | undefined;
  const formatCache = options.formatCache;
  const resolveModel = (): Promise<AgentChatModel> => {
    if (typeof options.model !== "string") return Promise.resolve(options.model);
    resolvedModel ??= initChatModel(options.model) as unknown as Promise<AgentChatModel>;
    return resolvedModel;
  };
  // as in LangChain.js, a request whose `responseFormat` is undefined (a middleware spread it
  // away, or set it so) uses the agent's; `null` turns structured output off for the call
  const effectiveFormat = (request: ModelRequest): unknown =>
    request.responseFormat === undefined ? options.responseFormat : request.responseFormat;
  const strategiesFor = (model: AgentChatModel, format: unknown) =>
    resolveResponseFormat(format, model.profile?.structuredOutput === true, formatCache);

  /**
   * Calls the model of `request` (a continuation on its answer, not an `async` layer: under
   * Node's `AsyncLocalStorage` every promise and every resumption runs hooks), and remembers
   * the answer in `record` as the model's own (told apart from one a middleware made).
   */
  const callModel = (request: ModelRequest, record: CallRecord): Promise<AIMessage> =>
    promiseTry(() =>
      invokeModel(request, record, (message: AIMessage) => {
        record.answer = message;
        return message;
      }),
    );
  /**
   * `then` runs on the checked answer in the same continuation (the node's update, when no
   * middleware wraps the call), rather than on a second promise.
   */
  const invokeModel = <R>(
    request: ModelRequest,
    record: CallRecord,
    then: (message: AIMessage) => R | PromiseLike<R>,
    onError?: (error: unknown) => R | PromiseLike<R>,
  ): Promise<R> => {
    assertNoBoundTools(request.model);
    const strategies = strategiesFor(request.model, effectiveFormat(request));
    record.strategies = strategies;
    if (strategies.length > 0) rememberStructuredNames(options.structuredNames, strategies);
    const bound = boundModel(request, strategies);
    const system = request.systemMessage;
    let messages: BaseMessage[] = system.text === "" ? [...request.messages] : [system, ...request.messages];
    // the thread's history as the reducer built it holds messages only: the model need not check
    const coerced = isBaseMessage(system) && isMergedMessageList(request.messages);
    if (options.includeAgentName === "inline") messages = inlineAgentNames(messages);
    const callOptions: Record<string, unknown> = {};
    // the node's tags, passed as LangChain.js passes the node's config: a model bound with tags
    // of its own (`withConfig({ tags })`) lists those first. Only such a model needs them: for
    // any other the call's tags are the node's either way, and a call with no options of its own
    // reuses the node's config instead of merging one
    if (bound instanceof ConfiguredChatModel && (bound.config.tags?.length ?? 0) > 0) {
      const tags = getAmbientConfig()?.tags;
      if (tags !== undefined && tags.length > 0) callOptions.tags = tags;
    }
    if (options.signal !== undefined) {
      const run = request.runtime.signal;
      callOptions.signal = run === undefined ? options.signal : AbortSignal.any([options.signal, run]);
    }
    const checked = (answer: unknown): R | PromiseLike<R> => {
      if (!isAIMessage(answer)) {
        const error = new InvalidArgumentError(
          `The model returned ${typeof answer === "object" && answer !== null ? answer.constructor?.name : typeof answer}, not an AIMessage.`,
        );
        if (onError === undefined) throw error;
        return onError(error);
      }
      return then(options.includeAgentName === "inline" ? stripInlineAgentName(answer) : answer);
    };
    // the list is this call's alone: the model need not copy it. Without a signal to race, the
    // answer is checked (and the node's update made) in the model's own last continuation.
    if (options.signal === undefined)
      return invokeThen(bound, handOver(messages, coerced), callOptions, checked, onError);
    return raceAgentSignal(
      Promise.resolve(bound.invoke(handOver(messages, coerced), callOptions)),
      options.signal,
    ).then(checked);
  };

  // binding converts every tool schema to JSON Schema: reuse the binding of the default tools
  const bindings = new WeakMap<object, Map<unknown, Binding>>();
  const boundModel = (request: ModelRequest, strategies: readonly ResponseStrategy[]): AgentChatModel => {
    const reusable =
      request.toolChoice === undefined &&
      request.modelSettings === undefined &&
      request.tools.length === options.tools.length &&
      request.tools.every((t, i) => t === options.tools[i]);
    if (!reusable) return bindModel(request, strategies);
    let perModel = bindings.get(request.model);
    if (perModel === undefined) {
      perModel = new Map();
      bindings.set(request.model, perModel);
    }
    const key = effectiveFormat(request) ?? NO_FORMAT;
    const found = perModel.get(key);
    // an untitled bare schema is offered under a new name at each call: bind again then
    if (found !== undefined && sameStrategies(found.strategies, strategies)) return found.model;
    const model = bindModel(request, strategies);
    perModel.set(key, { strategies, model });
    return model;
  };

  const runLayer = async (
    index: number,
    request: ModelRequest,
    record: CallRecord,
    config: LangGraphRunnableConfig<unknown>,
  ): Promise<WrapResult> => {
    const middleware = options.wraps[index];
    if (middleware === undefined) return { message: await callModel(request, record), commands: [] };
    const wrap = middleware.wrapModelCall as unknown as WrapModelCallHook;
    let innerCommands: Command[] = [];
    let lastMessage: AIMessage | undefined;
    let busy = false;
    const handler = async (next: ModelRequest): Promise<AIMessage> => {
      if (busy) {
        throw new InvalidArgumentError(
          `Middleware "${middleware.name}" called the model handler again before its previous call finished. Call it one call at a time (await each call).`,
        );
      }
      busy = true;
      try {
        const checked = checkRequest(next, request, middleware.name, options);
        const inner = await runLayer(index + 1, checked, record, config);
        // commands of earlier attempts are dropped: only the attempt whose answer is kept counts
        innerCommands = inner.commands;
        lastMessage = inner.message;
        return inner.message;
      } finally {
        busy = false;
      }
    };
    const runtime = await middlewareRuntime(config, middleware.contextSchema, middleware.name, false);
    let out: unknown;
    try {
      out = await wrap({ ...request, runtime }, handler);
    } catch (error) {
      // as in LangChain.js, whatever leaves a wrap (the model's errors too) names the middleware;
      // an inner middleware's error keeps its own name
      throw MiddlewareError.wrap(error, middleware.name, "wrapModelCall");
    }
    if (isAIMessage(out)) return { message: out, commands: innerCommands };
    if (isCommand(out)) {
      if (lastMessage === undefined) {
        throw new InvalidArgumentError(
          `Middleware "${middleware.name}" returned a Command from "wrapModelCall" without calling the model: return an AIMessage, or call handler(request) first.`,
        );
      }
      return { message: lastMessage, commands: [...innerCommands, out] };
    }
    // a MiddlewareError, as in LangChain.js (the InvalidArgumentError as its cause)
    throw new MiddlewareError(
      new InvalidArgumentError(
        `Invalid response from "wrapModelCall" in middleware "${middleware.name}": expected AIMessage or Command, got ${typeof out}`,
      ),
      middleware.name,
      "wrapModelCall",
    );
  };

  /** The update of the node once the (wrapped) model call has answered. */
  const update = (
    wrapped: WrapResult,
    model: AgentChatModel,
    state: AgentNodeState,
    record: CallRecord,
  ): NodeResult | Promise<NodeResult> => {
    // The node names the answer once the wraps are done (a middleware may have made it without
    // the model); as in LangChain.js, an answer that carried the structured response keeps the
    // name the model gave it.
    const strategies = record.strategies ?? strategiesFor(model, options.responseFormat);
    if (strategies.length === 0) {
      nameAnswer(wrapped.message, options.messageName);
      return toUpdate(
        { messages: [wrapped.message], hasStructuredResponse: false, structuredResponse: undefined },
        wrapped,
        state,
      );
    }
    // an answer a middleware made instead of the model's (say modelRetryMiddleware's failure
    // message) is not held to the provider strategy's schema: LangChain.js parses only the
    // model's own answers, inside the onion
    const madeByMiddleware = options.wraps.length > 0 && record.answer !== wrapped.message;
    return applyStructuredOutput(wrapped.message, strategies, madeByMiddleware).then((outcome) => {
      if (!outcome.hasStructuredResponse) nameAnswer(wrapped.message, options.messageName);
      return toUpdate(outcome, wrapped, state);
    });
  };
  const toUpdate = (outcome: StructuredOutcome, wrapped: WrapResult, state: AgentNodeState): NodeResult => {
    const update: Record<string, unknown> = { messages: outcome.messages };
    if (outcome.hasStructuredResponse) {
      // LangChain.js writes the whole conversation with a structured response (the reducer
      // keeps one copy of each message; `updates` streams show them all)
      update.messages = [...state.messages, ...outcome.messages];
      update.structuredResponse = outcome.structuredResponse;
    } else if (options.responseFormat !== undefined && state.structuredResponse !== undefined) {
      // a structured response of an earlier turn must not survive this one
      update.structuredResponse = undefined;
    }
    // a structured-output retry writes the answer, then the answer with its error messages, as
    // LangChain.js's two commands do (an `updates` stream shows both)
    const retry = !outcome.hasStructuredResponse && outcome.messages.length > 1;
    // a leftover jump here can only be a beforeModel hook's "model": a retry goes back to the
    // model anyway, so only a plain answer clears it (a third write would be a third entry of
    // the retry's `updates` chunk, which LangChain.js's does not have)
    if (options.clearsJump && state.jumpTo !== undefined && !retry) {
      const commandJumps = wrapped.commands.some(
        (c) => (c.update as { jumpTo?: unknown } | undefined)?.jumpTo !== undefined,
      );
      if (!commandJumps) update.jumpTo = undefined;
    }
    const first = retry ? { ...update, messages: outcome.messages.slice(0, 1) } : update;
    const rest = retry
      ? [new Command({ update: { messages: outcome.messages } }), ...wrapped.commands]
      : wrapped.commands;
    // as LangChain.js's node returns them: a structured response as a plain update, any other
    // answer as a list of commands (what `streamEvents` shows as the node's output)
    if (rest.length === 0 && outcome.hasStructuredResponse) return first;
    return [new Command({ update: first }), ...rest];
  };

  /** The request a step starts from: the agent's model, prompt and tools, and the state. */
  const requestFor = (
    model: AgentChatModel,
    state: AgentNodeState,
    config: LangGraphRunnableConfig<unknown>,
  ): ModelRequest => {
    const system = options.systemMessage;
    const request: ModelRequest = {
      model,
      messages: state.messages,
      systemPrompt: system.text,
      systemMessage: system,
      tools: [...options.tools] as AgentTool[],
      state,
      runtime: agentRuntime(config, config.context),
    };
    // the key is there even without a format, as in LangChain.js
    request.responseFormat = options.responseFormat as never;
    return request;
  };

  const respond = (
    model: AgentChatModel,
    state: AgentNodeState,
    config: LangGraphRunnableConfig<unknown>,
  ): Promise<NodeResult> => {
    const request = requestFor(model, state, config);
    const record: CallRecord = { strategies: undefined };
    if (options.wraps.length === 0) {
      return promiseTry(() =>
        invokeModel(request, record, (message) => update({ message, commands: [] }, model, state, record)),
      );
    }
    return runLayer(0, request, record, config).then((wrapped) => update(wrapped, model, state, record));
  };

  const node = (state: AgentNodeState, config: LangGraphRunnableConfig<unknown>): Promise<NodeResult> =>
    promiseTry(() =>
      // a model object needs no await (a string names one initChatModel resolves once)
      typeof options.model === "string"
        ? resolveModel().then((model) => respond(model, state, config))
        : respond(options.model, state, config),
    );

  /**
   * The node with the engine's continuation (see `invokeThen` in shared/): for the common call (a
   * model object, no `wrapModelCall`, no agent signal to race), the update goes to `then` in the
   * model's own last continuation; the node's failures go to `onError`.
   */
  const fused = <R>(
    state: AgentNodeState,
    config: LangGraphRunnableConfig<unknown>,
    then: (update: NodeResult) => R | PromiseLike<R>,
    onError: (error: unknown) => R | PromiseLike<R> = rethrow,
  ): Promise<R> => {
    const model = options.model;
    if (typeof model === "string" || options.wraps.length > 0 || options.signal !== undefined)
      return node(state, config).then(then, onError);
    try {
      const request = requestFor(model, state, config);
      const record: CallRecord = { strategies: undefined };
      const answered = (message: AIMessage): R | PromiseLike<R> => {
        let result: NodeResult | Promise<NodeResult>;
        try {
          result = update({ message, commands: [] }, model, state, record);
        } catch (error) {
          return onError(error);
        }
        return isThenable(result) ? Promise.resolve(result).then(then, onError) : then(result);
      };
      return invokeModel(request, record, answered, onError);
    } catch (error) {
      return promiseTry(() => onError(error));
    }
  };
  Object.defineProperty(node, INVOKE_THEN, { value: fused });
  return node;
}

function rethrow(error: unknown): never {
  throw error;
}

/**
 * Checks what a middleware hands its handler: tools it added must be runnable (some middleware
 * has `wrapToolCall`), registered tools must not be swapped, and only one of `systemPrompt` and
 * `systemMessage` may change (the other is brought in line).
 */
function checkRequest(
  given: ModelRequest,
  previous: ModelRequest,
  middlewareName: string,
  options: ModelNodeOptions,
): ModelRequest {
  // `tools: undefined` means the agent's tools, as in LangChain.js
  const next: ModelRequest =
    given.tools === undefined ? { ...given, tools: [...options.tools] as AgentTool[] } : given;
  const tools = next.tools;
  const added: string[] = [];
  const replaced: string[] = [];
  for (const t of tools) {
    if (!isClientTool(t)) continue;
    const original = options.registered.get(t.name);
    if (original === undefined) added.push(t.name);
    else if (original !== t) replaced.push(t.name);
  }
  if (added.length > 0 && !options.hasWrapToolCall) {
    throw new InvalidArgumentError(
      `You have added a new tool in "wrapModelCall" hook of middleware "${middlewareName}": ${added.join(", ")}. This is not supported unless a middleware provides a "wrapToolCall" handler to execute it.`,
    );
  }
  if (replaced.length > 0) {
    throw new InvalidArgumentError(
      `You have modified a tool in "wrapModelCall" hook of middleware "${middlewareName}": ${replaced.join(", ")}. This is not supported.`,
    );
  }
  const promptChanged = next.systemPrompt !== previous.systemPrompt;
  const messageChanged = next.systemMessage !== previous.systemMessage;
  if (promptChanged && messageChanged) {
    throw new InvalidArgumentError("Cannot change both systemPrompt and systemMessage in the same request.");
  }
  if (promptChanged) {
    const systemMessage = systemPromptMessage(next.systemPrompt ?? "");
    return { ...next, systemMessage, systemPrompt: systemMessage.text };
  }
  if (messageChanged) {
    // `systemMessage: undefined` removes the system message, as LangChain.js does
    const systemMessage = next.systemMessage ?? new SystemMessage("");
    return { ...next, systemMessage, systemPrompt: systemMessage.text };
  }
  return next;
}

/** A model bound with the tools of a request, and the structured-output strategies it was bound for. */
interface Binding {
  readonly strategies: readonly ResponseStrategy[];
  readonly model: AgentChatModel;
}

function sameStrategies(a: readonly ResponseStrategy[], b: readonly ResponseStrategy[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** Binds the request's tools (plus structured-output tools) and settings to its model. */
function bindModel(request: ModelRequest, strategies: readonly ResponseStrategy[]): AgentChatModel {
  const { model } = request;
  const structuredTools = strategies.filter((s): s is ToolStrategy<unknown> => s.kind === "tool");
  const tools: BindToolsInput[] = [
    ...normalizeTools(request.tools ?? []).all,
    ...structuredTools.map((s) => s.tool),
  ];
  const settings: Record<string, unknown> = {};
  const provider = strategies.find((s) => s.kind === "provider");
  if (provider !== undefined) {
    const strict =
      (request.modelSettings?.strict as boolean | undefined) ?? (provider as { strict: boolean }).strict;
    const schema = provider.jsonSchema;
    const description = schema.description;
    // the option each provider family reads, as LangChain.js passes them all: OpenAI-style
    // `response_format`, Anthropic-style `outputConfig`, Google-style `responseSchema`, and the
    // LangSmith tracing metadata; `strict` itself only when the call's settings give one (below)
    settings.response_format = {
      type: "json_schema",
      json_schema: {
        // LangChain.js names it by the schema's `name` only, else "extract"
        name: typeof schema.name === "string" ? schema.name : "extract",
        ...(typeof description === "string" ? { description } : {}),
        schema,
        strict,
      },
    };
    settings.outputConfig = { format: { type: "json_schema", schema } };
    settings.responseSchema = schema;
    settings.ls_structured_output_format = { kwargs: { method: "json_schema" }, schema };
  }
  Object.assign(settings, request.modelSettings ?? {});
  // an empty tool choice falls back as an undefined one does (LangChain.js tests it with `||`)
  const toolChoice = request.toolChoice || (structuredTools.length > 0 ? "any" : undefined);
  // as LangChain.js, the tools (even none) and settings are bound with `bindTools`; a model
  // without it can still run without tools
  if (typeof model.bindTools === "function") {
    return model.bindTools(
      tools,
      toolChoice === undefined ? settings : { ...settings, tool_choice: toolChoice },
    );
  }
  if (tools.length > 0) {
    throw new InvalidArgumentError(`The model ${String(model)} must define a bindTools method.`);
  }
  if (Object.keys(settings).length > 0 && typeof model.withConfig === "function")
    return model.withConfig(settings);
  return model;
}
