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

export type { ReducedZodChannel, SchemaMeta } from "../graph/index.js";
export { MessagesZodMeta, MessagesZodState } from "./messages-zod.js";
export {
  LanggraphZodMetaRegistry,
  META_EXTRAS_DESCRIPTION_PREFIX,
  registry,
  SchemaMetaRegistry,
  schemaMetaRegistry,
  withLangGraph,
} from "./registry.js";
