// Type names that `langchain` (v1) exports from its root and that the official docs import from
// there (`import { tool, type ToolRuntime } from "langchain"`, `type Runtime`, the hook types), so
// the same import from "agentgraph/agents" type-checks. Each is an alias of agentgraph's own type.
import type { Interrupt } from "../graph/index.js";
import type { BaseMessage } from "../messages/index.js";
import type { AnyAgentTypes, ReactAgent } from "./react-agent.js";
import type { ProviderStrategy, ToolStrategy } from "./responses.js";
import type { AgentRuntime, HookResult, JumpTo, NodeHook } from "./types.js";

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
