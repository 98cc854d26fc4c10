import { createRequire } from "node:module";
import { type SchemaMeta, schemaMetaRegistry } from "../graph/index.js";
import { MessagesZodMeta } from "../messages/index.js";

/*
 * `MessagesZodState` as the package root exports it (LangGraph.js exports it from
 * `@langchain/langgraph`, so a ported `import { MessagesZodState } from "…"` must find it here).
 *
 * Zod is an optional peer dependency and costs more to load than the whole engine, so the root
 * does not load it up front: the schema is built with the installed `zod` the first time the
 * object is used (read, extended, handed to a `StateGraph`), and every use after that goes to that
 * schema. It is the same schema as `agentgraph/zod`'s: a `messages` field with the messages
 * reducer (`MessagesZodMeta`).
 */

type MinimalZod = {
  object(shape: Record<string, unknown>): object;
  custom(): object;
};

let built: object | undefined;

function schema(): object {
  if (built !== undefined) return built;
  let zod: MinimalZod;
  try {
    zod = createRequire(import.meta.url)("zod") as MinimalZod;
  } catch (error) {
    throw new Error(
      'MessagesZodState needs the "zod" package (version 4), which is not installed: install it (npm install zod), or declare the state with MessagesAnnotation instead.',
      { cause: error },
    );
  }
  const messages = zod.custom();
  schemaMetaRegistry.add(messages, MessagesZodMeta as SchemaMeta);
  built = zod.object({ messages });
  return built;
}

// Every operation goes to the built schema. Descriptors are reported as configurable because the
// (empty) target does not hold them, which a proxy may only do for configurable properties.
const forward: ProxyHandler<object> = {
  get: (_target, key) => Reflect.get(schema(), key),
  set: (_target, key, value) => Reflect.set(schema(), key, value),
  has: (_target, key) => Reflect.has(schema(), key),
  ownKeys: () => Reflect.ownKeys(schema()),
  getOwnPropertyDescriptor: (_target, key) => {
    const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
    return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
  },
  defineProperty: (_target, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
  deleteProperty: (_target, key) => Reflect.deleteProperty(schema(), key),
  getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
};

/**
 * The root's `MessagesZodState`, untyped here: the package root gives it the type of
 * `agentgraph/zod`'s schema (this folder does not depend on the Zod one).
 */
export const lazyMessagesZodState: object = new Proxy({}, forward);
