/**
 * Zod support for graph state (mirrors `@langchain/langgraph/zod`): declare state with a Zod 4
 * object schema and attach reducers and defaults to its fields.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { registry, MessagesZodMeta } from "agentgraph/zod";
 *
 * const State = z.object({
 *   messages: z.custom<BaseMessage[]>().register(registry, MessagesZodMeta),
 *   notes: z.array(z.string()).register(registry, { reducer: { fn: (a, b) => a.concat(b) }, default: () => [] }),
 *   question: z.string(),
 * });
 * const graph = new StateGraph(State);
 * ```
 */

import type { SchemaUpdate } from "../graph/index.js";

export type { ReducedZodChannel, SchemaMeta } from "../graph/index.js";

/**
 * What a node may return for a Zod object state (LangGraph.js's `UpdateType` of
 * `@langchain/langgraph/zod`): each field optional, a field with a reducer taking the reducer's
 * update type.
 *
 * @example
 * ```ts
 * const update: UpdateType<typeof State> = { messages: "hello" };
 * ```
 */
export type UpdateType<Schema> = SchemaUpdate<Schema>;

import "./plugin.js";

export { MessagesZodMeta, MessagesZodState } from "./messages-zod.js";
export type { ZodLangGraphPlugin } from "./plugin.js";
export {
  LanggraphZodMetaRegistry,
  META_EXTRAS_DESCRIPTION_PREFIX,
  registry,
  SchemaMetaRegistry,
  schemaMetaRegistry,
  withLangGraph,
} from "./registry.js";
