import type {
  BaseStore,
  Command,
  SchemaState,
  StreamTransformerFactory,
  StreamWriter,
} from "../graph/index.js";
import type { AIMessage, BaseMessage, Messages, SystemMessage } from "../messages/index.js";
import type { BindToolsOptions, ModelProfile, ToolChoice } from "../models/index.js";
import type { ToolCallHandler, ToolCallRequest, ToolCallResult } from "../prebuilt/index.js";
import type { BindToolsInput, StructuredToolInterface } from "../tools/index.js";
import type { ResponseFormatInput } from "./responses.js";

/**
 * Where a middleware node hook may send the agent next: `"model"` (the model node), `"tools"`
 * (the tools node, which then runs every pending call of the last AI message) or `"end"` (the
 * exit: the `afterAgent` hooks, then the end). A hook must declare its targets in `canJumpTo`.
 *
 * @example
 * ```ts
 * const stop = { canJumpTo: ["end"] as JumpTo[], hook: () => ({ jumpTo: "end" as const }) };
 * ```
 */
export type JumpTo = "model" | "tools" | "end";

/**
 * What a chat model must offer the agent: `invoke`, and `bindTools` when there are tools (or a
 * structured-output tool) to bind. Every `BaseChatModel` fits.
 *
 * @example
 * ```ts
 * const model: AgentChatModel = new FakeChatModel({ responses: ["Hello!"] });
 * ```
 */
export interface AgentChatModel {
  invoke(input: string | BaseMessage[], options?: Record<string, unknown>): Promise<AIMessage>;
  bindTools?(tools: BindToolsInput[], options?: BindToolsOptions): AgentChatModel;
  withConfig?(config: Record<string, unknown>): AgentChatModel;
  readonly profile?: ModelProfile;
}

/**
 * A plain function offered as a tool: it is wrapped with `tool()`, named after the function
 * (`fn.name`), described by its `description` property and its arguments by its `schema`
 * property when present (any object otherwise).
 *
 * @example
 * ```ts
 * const getWeather: ToolFunctionLike = Object.assign(
 *   async function get_weather({ city }: { city: string }) { return `Sunny in ${city}`; },
 *   { description: "Get weather for a given city." },
 * );
 * ```
 */
export type ToolFunctionLike = ((args: never, runtime?: never) => unknown) & {
  description?: string;
  schema?: unknown;
};

/**
 * A tool the agent accepts: a tool object (run by the tools node), a plain function (wrapped
 * as a tool) or a provider-side tool descriptor (a plain object with no implementation: bound to
 * the model and executed by the provider, never locally).
 *
 * @example
 * ```ts
 * const tools: AgentTool[] = [getWeather, { name: "web_search", description: "Search.", parameters: {} }];
 * ```
 */
export type AgentTool = StructuredToolInterface | BindToolsInput | ToolFunctionLike;

/**
 * What every middleware hook gets besides the state: the run's `context` (narrowed to and
 * validated by the middleware's `contextSchema` when it has one), `store`, `configurable`,
 * the custom-stream `writer`, `interrupt` and the run's abort `signal`. It is frozen.
 *
 * @example
 * ```ts
 * const hook = (_state: AgentState, runtime: AgentRuntime<{ userId: string }>) => {
 *   runtime.writer?.({ user: runtime.context.userId });
 * };
 * ```
 */
export interface AgentRuntime<Context = unknown> {
  readonly context: Context;
  readonly store: BaseStore | undefined;
  /** The run's `configurable` (its `thread_id` typed as LangChain.js types it). */
  readonly configurable: { thread_id?: string; [key: string]: unknown } | undefined;
  readonly writer: StreamWriter | undefined;
  readonly interrupt: ((value: unknown) => unknown) | undefined;
  readonly signal: AbortSignal | undefined;
}

/**
 * The state a hook sees: the agent's messages plus the fields of its state schema.
 *
 * @example
 * ```ts
 * const hook = (state: AgentState<{ turns: number }>) => ({ turns: state.turns + 1 });
 * ```
 */
export type AgentState<State = Record<string, unknown>> = State & {
  messages: BaseMessage[];
  structuredResponse?: unknown;
};

/**
 * What a node hook may return: an update of the state (messages are added through the
 * messages reducer), optionally with `jumpTo`; a `Command`; or nothing.
 *
 * @example
 * ```ts
 * const update: HookResult<{ turns: number }> = { turns: 2, jumpTo: "end" };
 * ```
 */
export type HookResult<State = Record<string, unknown>> =
  | (Partial<State> & { messages?: Messages; jumpTo?: JumpTo | undefined })
  | Command
  | undefined
  // biome-ignore lint/suspicious/noConfusingVoidType: hooks written as `() => { … }` return void
  | void;

type Bivariant<F extends (...args: never[]) => unknown> = { fn(...args: Parameters<F>): ReturnType<F> }["fn"];

/**
 * A node hook function: `(state, runtime) => update | Command | void` (sync or async).
 *
 * @example
 * ```ts
 * const log: HookFunction = (state) => { console.log(state.messages.length); };
 * ```
 */
export type HookFunction<State = Record<never, never>, Context = unknown> = Bivariant<
  (state: AgentState<State>, runtime: AgentRuntime<Context>) => HookResult<State> | Promise<HookResult<State>>
>;

/**
 * A node hook: a function, or `{ hook, canJumpTo }` to allow `jumpTo` targets.
 *
 * @example
 * ```ts
 * const guard: NodeHook = { canJumpTo: ["end"], hook: (state) => (state.messages.length > 20 ? { jumpTo: "end" } : undefined) };
 * ```
 */
export type NodeHook<State = Record<never, never>, Context = unknown> =
  | HookFunction<State, Context>
  | { hook: HookFunction<State, Context>; canJumpTo?: readonly JumpTo[] };

/**
 * One model call as `wrapModelCall` sees it. Hand the handler a modified copy to change the
 * call: `{ ...request, model: other }` (dynamic model), `{ ...request, tools: fewer }` (tool
 * filtering), `{ ...request, messages: trimmed }`, a new `systemMessage` (or `systemPrompt`,
 * not both), `toolChoice`, `responseFormat` or `modelSettings` (extra call options).
 *
 * @example
 * ```ts
 * const onlySearch = (request: ModelRequest, handler: ModelCallHandler) =>
 *   handler({ ...request, tools: request.tools.filter((t) => (t as { name?: string }).name === "search") });
 * ```
 */
export interface ModelRequest<State = Record<string, unknown>, Context = unknown> {
  model: AgentChatModel;
  /** The conversation, without the system message. */
  messages: BaseMessage[];
  /** The system prompt's text (`""` when there is none). */
  systemPrompt: string;
  /** The system message (an empty one when there is no prompt; an empty one is not sent). */
  systemMessage: SystemMessage;
  tools: AgentTool[];
  toolChoice?: ToolChoice | undefined;
  /**
   * The structured output of this call; left undefined, the agent's `responseFormat` applies
   * (as in LangChain.js), and `null` asks for none.
   */
  responseFormat?: ResponseFormatInput | null | undefined;
  state: AgentState<State>;
  runtime: AgentRuntime<Context>;
  /** Extra options for this call (bound with the tools). */
  modelSettings?: Record<string, unknown> | undefined;
}

/**
 * Calls the model (through the inner middleware) with a request and resolves to its answer.
 *
 * @example
 * ```ts
 * const answer: AIMessage = await handler(request);
 * ```
 */
export type ModelCallHandler<State = Record<string, unknown>, Context = unknown> = (
  request: ModelRequest<State, Context>,
) => Promise<AIMessage>;

/**
 * A `wrapModelCall` hook: runs around each model call, the first middleware outermost. It may
 * call `handler` zero times (answer itself), once, or several times one after the other
 * (retries), and returns an `AIMessage` or a `Command` (whose update is applied after the
 * model's message).
 *
 * @example
 * ```ts
 * const retry: WrapModelCallHook = async (request, handler) => {
 *   try { return await handler(request); } catch { return handler(request); }
 * };
 * ```
 */
export type WrapModelCallHook<State = Record<string, unknown>, Context = unknown> = Bivariant<
  (
    request: ModelRequest<State, Context>,
    handler: ModelCallHandler<State, Context>,
  ) => AIMessage | Command | Promise<AIMessage | Command>
>;

/**
 * A `wrapToolCall` hook: runs around each tool call, the first middleware outermost, and
 * returns a `ToolMessage` or a `Command`; `handler` runs the tool (it may be called zero, one or
 * several times).
 *
 * @example
 * ```ts
 * const logCalls: WrapToolCallHook = async (request, handler) => {
 *   console.log(request.toolCall.name);
 *   return handler(request);
 * };
 * ```
 */
export type WrapToolCallHook<State = Record<string, unknown>, Context = unknown> = Bivariant<
  (
    request: ToolCallRequest<AgentState<State>, Context>,
    handler: ToolCallHandler<AgentState<State>, Context>,
  ) => ToolCallResult | Promise<ToolCallResult>
>;

/** Brand of middleware objects (shared with LangChain.js). */
export const MIDDLEWARE_BRAND: unique symbol = Symbol.for("AgentMiddleware") as never;

/**
 * A middleware, as {@link createMiddleware} makes it: a name, optional state and context
 * schemas and tools, and any of the hooks.
 *
 * @example
 * ```ts
 * const m: AgentMiddleware<{ turns: number }> = createMiddleware({
 *   name: "Counter",
 *   stateSchema: z.object({ turns: z.number().default(0) }),
 *   beforeModel: (state) => ({ turns: state.turns + 1 }),
 * });
 * ```
 */
export interface AgentMiddleware<
  State = Record<string, unknown>,
  Context = unknown,
  ContextInput = Context,
  Transformers extends readonly StreamTransformerFactory[] = readonly StreamTransformerFactory[],
  Tools extends readonly AgentTool[] = readonly AgentTool[],
> {
  readonly [MIDDLEWARE_BRAND]: true;
  readonly name: string;
  readonly stateSchema?: unknown;
  readonly contextSchema?: unknown;
  /** Tools the middleware adds to the agent's (their types join the agent's tool types). */
  readonly tools?: Tools;
  /** Stream transformers the agent compiles in, for its `streamEvents(…, { version: "v3" })` runs. */
  readonly streamTransformers?: Transformers;
  readonly beforeAgent?: NodeHook<State, Context>;
  readonly beforeModel?: NodeHook<State, Context>;
  readonly afterModel?: NodeHook<State, Context>;
  readonly afterAgent?: NodeHook<State, Context>;
  readonly wrapModelCall?: WrapModelCallHook<State, Context>;
  readonly wrapToolCall?: WrapToolCallHook<State, Context>;
  /**
   * Type-level only: the state, the context hooks see (`context`) and the context a run must
   * pass for this middleware (`contextInput`: the schema's input type).
   */
  readonly "~types"?: { state: State; context: Context; contextInput: ContextInput };
}

/**
 * Any middleware, whatever its state and context types (what `createAgent` accepts). Hooks
 * are seen here as functions of unknown arguments; the agent calls them with its state.
 *
 * @example
 * ```ts
 * const list: AnyAgentMiddleware[] = [counter, logger];
 * ```
 */
export interface AnyAgentMiddleware {
  readonly [MIDDLEWARE_BRAND]: true;
  readonly name: string;
  readonly stateSchema?: unknown;
  readonly contextSchema?: unknown;
  readonly tools?: readonly AgentTool[];
  /** Stream transformers the agent compiles in, for its `streamEvents(…, { version: "v3" })` runs. */
  readonly streamTransformers?: readonly StreamTransformerFactory[];
  readonly beforeAgent?: AnyNodeHook;
  readonly beforeModel?: AnyNodeHook;
  readonly afterModel?: AnyNodeHook;
  readonly afterAgent?: AnyNodeHook;
  readonly wrapModelCall?: (request: never, handler: never) => unknown;
  readonly wrapToolCall?: (request: never, handler: never) => unknown;
  readonly "~types"?: { state: unknown; context: unknown; contextInput: unknown };
}

/**
 * A node hook of any state (see {@link NodeHook}).
 *
 * @example
 * ```ts
 * const hook: AnyNodeHook = { canJumpTo: ["end"], hook: () => ({ jumpTo: "end" }) };
 * ```
 */
export type AnyNodeHook =
  | ((state: never, runtime: never) => unknown)
  | { hook: (state: never, runtime: never) => unknown; canJumpTo?: readonly JumpTo[] };

/**
 * The state type a state schema describes (`{}` for none).
 *
 * @example
 * ```ts
 * type S = StateOfSchema<typeof Schema>; // z.infer<typeof Schema>
 * ```
 */
export type StateOfSchema<S> = [S] extends [undefined]
  ? Record<never, never>
  : S extends { _zod: unknown }
    ? SchemaState<S>
    : S extends Zod3ObjectLike<infer Output>
      ? Output
      : SchemaState<S>;

/** A Zod 3 object schema (`zod/v3`, or the zod 3 package), seen by its output type and `shape`. */
type Zod3ObjectLike<Output> = { _output: Output; _input: unknown; shape: object };
