// Type names that `langchain` (v1) exports from its root and that the official docs import from
// there (`import { tool, type ToolRuntime } from "langchain"`, `type Runtime`, the hook types), so
// the same import from "agentgraph/agents" type-checks. Each is an alias of agentgraph's own type.
import type {
  AnnotationRoot,
  InferStateSchemaUpdate,
  Interrupt,
  StandardSchemaInput,
  StandardSchemaLike,
  StateSchema,
  UpdateType,
} from "../graph/index.js";
import type { BaseMessage, Messages } from "../messages/index.js";
import type { DynamicSystemPromptFunction } from "./middleware/dynamic-system-prompt.js";
import type { AnyAgentTypes, ReactAgent } from "./react-agent.js";
import type { ProviderStrategy, ToolStrategy } from "./responses.js";
import type {
  AgentRuntime,
  AnyAgentMiddleware,
  HookResult,
  JumpTo,
  ModelCallHandler,
  NodeHook,
  StateOfSchema,
} from "./types.js";

/**
 * What middleware hooks receive as their second argument (LangChain.js's `Runtime` from
 * "langchain"): the run `context`, `store`, `writer`, `interrupt`, `signal` and `configurable`.
 *
 * @example
 * ```ts
 * import { createMiddleware, type Runtime } from "agentgraph/agents";
 *
 * const greet = createMiddleware({
 *   name: "Greet",
 *   beforeModel: (_state, runtime: Runtime<{ userName?: string }>) => {
 *     runtime.writer?.(`hello ${runtime.context.userName ?? "anonymous"}`);
 *   },
 * });
 * ```
 */
export type Runtime<Context = unknown> = AgentRuntime<Context>;

/**
 * A target a node hook may name in `jumpTo`: `"model"`, `"tools"` or `"end"`.
 *
 * @example
 * ```ts
 * const target: JumpToTarget = "end";
 * ```
 */
export type JumpToTarget = JumpTo;

/**
 * What a node hook may return: a state update (optionally with `jumpTo`), a `Command`, or nothing.
 *
 * @example
 * ```ts
 * const result: MiddlewareResult<{ turns: number }> = { turns: 1, jumpTo: "end" };
 * ```
 */
export type MiddlewareResult<State = Record<string, unknown>> = HookResult<State>;

/**
 * A `beforeAgent` hook: a function `(state, runtime) => update | void`, or `{ hook, canJumpTo }`.
 *
 * @example
 * ```ts
 * const start: BeforeAgentHook = (state) => { console.log(state.messages.length); };
 * ```
 */
export type BeforeAgentHook<State = Record<never, never>, Context = unknown> = NodeHook<State, Context>;

/**
 * A `beforeModel` hook: a function `(state, runtime) => update | void`, or `{ hook, canJumpTo }`.
 *
 * @example
 * ```ts
 * const guard: BeforeModelHook = { canJumpTo: ["end"], hook: (state) => (state.messages.length > 50 ? { jumpTo: "end" } : undefined) };
 * ```
 */
export type BeforeModelHook<State = Record<never, never>, Context = unknown> = NodeHook<State, Context>;

/**
 * An `afterModel` hook: a function `(state, runtime) => update | void`, or `{ hook, canJumpTo }`.
 *
 * @example
 * ```ts
 * const log: AfterModelHook = (state) => { console.log(state.messages.at(-1)?.text); };
 * ```
 */
export type AfterModelHook<State = Record<never, never>, Context = unknown> = NodeHook<State, Context>;

/**
 * An `afterAgent` hook: a function `(state, runtime) => update | void`, or `{ hook, canJumpTo }`.
 *
 * @example
 * ```ts
 * const done: AfterAgentHook = (state) => { console.log("finished with", state.messages.length); };
 * ```
 */
export type AfterAgentHook<State = Record<never, never>, Context = unknown> = NodeHook<State, Context>;

/**
 * A structured-output strategy object: a `ProviderStrategy`, or one `ToolStrategy` of the list
 * `toolStrategy(…)` returns.
 *
 * @example
 * ```ts
 * const format: ResponseFormat = providerStrategy(z.object({ answer: z.string() }));
 * ```
 */
export type ResponseFormat = ToolStrategy<unknown> | ProviderStrategy<unknown>;

/**
 * The state fields every agent has: its `messages`, the interrupts of a paused run and the
 * `jumpTo` a hook may set.
 *
 * @example
 * ```ts
 * const state: BuiltInState = { messages: [] };
 * ```
 */
export interface BuiltInState {
  messages: BaseMessage[];
  __interrupt__?: Interrupt[];
  jumpTo?: JumpToTarget;
}

/** The type parameters of an agent (a `ReactAgent`), or agent types given as they are. */
type TypesOfAgent<A> = A extends ReactAgent<infer T> ? T : A extends AnyAgentTypes ? A : never;

/**
 * The state fields an agent adds to its messages (its `stateSchema`'s and its middlewares'),
 * without private `_`-prefixed ones.
 *
 * @example
 * ```ts
 * type State = InferAgentState<typeof agent>; // { turns: number; … }
 * ```
 */
export type InferAgentState<A> = {
  [K in keyof TypesOfAgent<A>["state"] as K extends `_${string}` ? never : K]: TypesOfAgent<A>["state"][K];
};

/**
 * The run context an agent takes: its `contextSchema`'s fields and its middlewares'.
 *
 * @example
 * ```ts
 * const context: InferAgentContext<typeof agent> = { userId: "u1" };
 * ```
 */
export type InferAgentContext<A> = TypesOfAgent<A>["context"];

/**
 * The `structuredResponse` of an agent with a `responseFormat` (`never` without one).
 *
 * @example
 * ```ts
 * type Answer = InferAgentResponse<typeof agent>; // { answer: string }
 * ```
 */
export type InferAgentResponse<A> = TypesOfAgent<A>["response"];

/**
 * The tools an agent was made with, as a list type.
 *
 * @example
 * ```ts
 * type Tools = InferAgentTools<typeof agent>;
 * ```
 */
export type InferAgentTools<A> = TypesOfAgent<A>["tools"];

/** A state type without its private `_`-prefixed fields. */
type PublicFields<S> = { [K in keyof S as K extends `_${string}` ? never : K]: S[K] };

/**
 * The input type of a state schema (LangChain.js's `InferSchemaInput`): a Zod object's input
 * type, a `StateSchema`'s or `Annotation.Root`'s update type, `{}` for none.
 *
 * @example
 * ```ts
 * const input: InferSchemaInput<typeof StateSchema> = { turns: 1 };
 * ```
 */
export type InferSchemaInput<Schema> = [Schema] extends [undefined]
  ? Record<never, never>
  : Schema extends StateSchema<infer Fields>
    ? InferStateSchemaUpdate<Fields>
    : Schema extends AnnotationRoot<infer SD>
      ? UpdateType<SD>
      : Schema extends StandardSchemaLike
        ? StandardSchemaInput<Schema>
        : Record<never, never>;

/**
 * What `agent.invoke` takes for a state schema: its input fields and the `messages`.
 *
 * @example
 * ```ts
 * const input: UserInput<typeof StateSchema> = { messages: [{ role: "user", content: "hi" }], turns: 0 };
 * ```
 */
export type UserInput<Schema = undefined> = InferSchemaInput<Schema> & { messages: Messages };

/** The state fields a middleware adds (without private `_`-prefixed ones); `{}` for none. */
export type InferMiddlewareState<M> = M extends { "~types"?: { state: infer S } }
  ? unknown extends S
    ? Record<never, never>
    : PublicFields<S>
  : Record<never, never>;

/** One object type of an intersection's fields. */
type Merged<T> = { [K in keyof T]: T[K] };

type StatesOf<M> = M extends readonly [infer First, ...infer Rest]
  ? InferMiddlewareState<First> & StatesOf<Rest>
  : Record<never, never>;

type ContextsOf<M> = M extends readonly [infer First, ...infer Rest]
  ? InferMiddlewareContext<First> & ContextsOf<Rest>
  : Record<never, never>;

/** The state fields the middleware of a list add, merged. */
export type InferMiddlewareStates<M extends readonly AnyAgentMiddleware[]> = Merged<StatesOf<M>>;

/** The state of an agent with the middleware of a list: theirs and the built-in fields. */
export type InferMergedState<M extends readonly AnyAgentMiddleware[]> = InferMiddlewareStates<M> &
  BuiltInState;

/** The run context a middleware's `contextSchema` asks for (its input type); `{}` for none. */
export type InferMiddlewareContext<M> = M extends { "~types"?: { contextInput: infer C } }
  ? unknown extends C
    ? Record<never, never>
    : C
  : Record<never, never>;

/** The run context the middleware of a list ask for, merged. */
export type InferMiddlewareContexts<M extends readonly AnyAgentMiddleware[]> = Merged<ContextsOf<M>>;

/**
 * The `handler` a `wrapModelCall` hook is given, for a middleware state schema and context
 * (LangChain.js's `WrapModelCallHandler`): calls the model (or the next middleware).
 */
export type WrapModelCallHandler<Schema = undefined, Context = unknown> = ModelCallHandler<
  StateOfSchema<Schema>,
  Context
>;

/** The function `dynamicSystemPromptMiddleware` takes, under LangChain.js's name. */
export type DynamicSystemPromptMiddlewareConfig<Context = Record<string, unknown>> =
  DynamicSystemPromptFunction<Context>;

/**
 * What `toolStrategy(...)` returns: one `ToolStrategy` per schema, typed by the structured
 * response they give.
 */
export interface TypedToolStrategy<T = unknown> extends Array<ToolStrategy<T>> {
  /** Type-level only: the structured response type. */
  _schemaType?: T;
}

/** The result of a tool call, by its id (an error's message when it failed). */
export interface ToolResult {
  id: string;
  result: unknown;
  error?: string;
}
