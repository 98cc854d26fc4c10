import { z } from "zod";
import type { SchemaMeta } from "../graph/index.js";
import { type BaseMessage, type Messages, messagesStateReducer } from "../messages/index.js";
import { registry } from "./registry.js";

/**
 * Field metadata for a Zod `messages` list: merged with `messagesStateReducer`, empty by default.
 *
 * @example
 * ```ts
 * const State = z.object({ messages: z.custom<BaseMessage[]>().register(registry, MessagesZodMeta) });
 * ```
 */
export const MessagesZodMeta: SchemaMeta<BaseMessage[], Messages> = {
  reducer: { fn: messagesStateReducer },
  jsonSchemaExtra: { langgraph_type: "messages" },
  default: () => [],
};

/**
 * A Zod state with just a `messages` list (the Zod twin of `MessagesAnnotation`); extend it
 * with `MessagesZodState.extend({ ... })`.
 */
export const MessagesZodState = z.object({
  messages: z.custom<BaseMessage[]>().register(registry, MessagesZodMeta as SchemaMeta),
});
