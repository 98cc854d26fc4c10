import type { ToolCall } from "../messages/index.js";
import type { RunnableConfig } from "../shared/index.js";
import type { StandardSchemaLike } from "./schema/standard-schema.js";

/**
 * An item of a long-term store, as `runtime.store.get()` returns it (the LangGraph `Item`
 * shape).
 *
 * @example
 * ```ts
 * const item = await runtime.store?.get(["users", userId], "prefs");
 * item?.value.theme;
 * ```
 */
export interface ToolStoreItem {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  createdAt?: Date;
  updatedAt?: Date;
}

/**
 * The long-term store a tool can use, typed by shape so that tools need not import the graph
 * package: any store with LangGraph's `get` / `put` / `delete` / `search` methods fits.
 *
 * @example
 * ```ts
 * await runtime.store?.put(["users", "u1"], "prefs", { theme: "dark" });
 * ```
 */
export interface ToolStore {
  get(namespace: string[], key: string): Promise<ToolStoreItem | null | undefined>;
  put(namespace: string[], key: string, value: Record<string, unknown>): Promise<void>;
  delete(namespace: string[], key: string): Promise<void>;
  search(namespacePrefix: string[], options?: Record<string, unknown>): Promise<ToolStoreItem[]>;
}

/**
 * The config a tool is invoked with: a {@link RunnableConfig} plus what the caller (the
 * ToolNode) knows about the call — the tool call itself, the graph state, the run context,
 * the store and the custom-stream writer. All optional: a tool can be invoked on its own.
 *
 * @example
 * ```ts
 * await weather.invoke(call, { toolCall: call, state, context: { userId: "u1" } });
 * ```
 */
export interface ToolRunnableConfig extends RunnableConfig {
  toolCall?: ToolCall;
  state?: unknown;
  context?: unknown;
  /** The store; `null` reads as none (so a tool's runtime can be passed on as a config). */
  store?: ToolStore | null;
  /** The custom-stream writer; `null` reads as none. */
  writer?: ((chunk: unknown) => void) | null;
}

type Resolve<T> = T extends StandardSchemaLike<infer Output> ? Output : T;

/**
 * The second argument of a tool function: the config fields plus `state`, `context`,
 * `store`, `writer`, `toolCallId` and `config`. Type parameters give the state and context
 * types (or zod schemas of them).
 *
 * `toolCallId` is the empty string when the tool is invoked with plain arguments rather than
 * a tool call; `store` and `writer` are `null` when the caller provides none.
 *
 * @example
 * ```ts
 * const whoami = tool(
 *   async (_args, runtime: ToolRuntime<{ messages: unknown[] }, { userId: string }>) =>
 *     `user ${runtime.context.userId}, ${runtime.state.messages.length} messages`,
 *   { name: "whoami", description: "Who is asking?", schema: z.object({}) },
 * );
 * ```
 */
export type ToolRuntime<TState = unknown, TContext = unknown> = RunnableConfig & {
  state: Resolve<TState>;
  context: Resolve<TContext>;
  store: ToolStore | null;
  writer: ((chunk: unknown) => void) | null;
  toolCallId: string;
  toolCall?: ToolCall;
  config: ToolRunnableConfig;
};

/**
 * How a tool's return value becomes a `ToolMessage`: `"content"` (the value is the content)
 * or `"content_and_artifact"` (the function returns `[content, artifact]`).
 *
 * @example
 * ```ts
 * tool(async () => ["3 rows", rows], { name: "query", description: "…", schema, responseFormat: "content_and_artifact" });
 * ```
 */
export type ResponseFormat = "content" | "content_and_artifact";
