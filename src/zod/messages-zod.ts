import { z } from "zod";
import { type BaseMessage, MessagesZodMeta } from "../messages/index.js";
import { registry } from "./registry.js";

export { MessagesZodMeta };

/**
 * A Zod state with just a `messages` list (the Zod twin of `MessagesAnnotation`); extend it
 * with `MessagesZodState.extend({ ... })`.
 */
export const MessagesZodState = z.object({
  messages: z.custom<BaseMessage[]>().register(registry, MessagesZodMeta),
});
