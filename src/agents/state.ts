import {
  type BaseChannel,
  BinaryOperatorAggregate,
  channelsFromZodObject,
  EphemeralValue,
  getSchemaDefaultGetter,
  isAnnotationRoot,
  isZodObjectSchema,
  LastValue,
  type StateDefinition,
  StateSchema,
  schemaMetaRegistry,
  zodObjectShape,
} from "../graph/index.js";
import { type BaseMessage, type Messages, messagesStateReducer } from "../messages/index.js";
import { InvalidArgumentError } from "../shared/index.js";
import { isStandardSchema, type StandardSchemaLike } from "../tools/index.js";
import type { AnyAgentMiddleware } from "./types.js";

/** The agent's channels, and which keys are its input and output. */
export interface AgentStateLayout {
  /** Every channel of the state, in print order. */
  readonly state: StateDefinition;
  /** Channels the agent accepts as input (no `jumpTo`, `structuredResponse` or `_` fields). */
  readonly input: StateDefinition;
  /** Channels the agent returns (no `jumpTo` or `_` fields). */
  readonly output: StateDefinition;
  /** The keys of `state` other than `messages`, `jumpTo` and `structuredResponse`. */
  readonly extraKeys: readonly string[];
}

const BUILT_IN = new Set(["messages", "jumpTo", "structuredResponse"]);

/** True for a private state field (kept out of the agent's input and output). */
export function isPrivateKey(key: string): boolean {
  return key.startsWith("_");
}

/**
 * Builds the agent state: `messages` (messages reducer), `jumpTo` (an `EphemeralValue`: visible
 * for one step), `structuredResponse` (a `LastValue`, output only), then the fields of the
 * user's `stateSchema` and of each middleware's `stateSchema`; the first definition of a key
 * wins, so the user's schema takes precedence.
 */
export function buildAgentState(
  stateSchema: unknown,
  middleware: readonly AnyAgentMiddleware[],
): AgentStateLayout {
  const messages = new BinaryOperatorAggregate<BaseMessage[], Messages>(messagesStateReducer, () => []);
  const state: StateDefinition = {
    messages,
    jumpTo: new EphemeralValue(),
    structuredResponse: new LastValue(),
  };
  const input: StateDefinition = { messages };
  const output: StateDefinition = { messages, structuredResponse: state.structuredResponse as BaseChannel };
  const extraKeys: string[] = [];
  const add = (schema: unknown, owner: string) => {
    for (const [key, channel] of Object.entries(schemaChannels(schema, owner))) {
      if (BUILT_IN.has(key) || key in state) continue;
      state[key] = channel;
      extraKeys.push(key);
      if (isPrivateKey(key)) continue;
      input[key] = channel;
      output[key] = channel;
    }
  };
  if (stateSchema !== undefined) add(stateSchema, "createAgent");
  for (const m of middleware) if (m.stateSchema !== undefined) add(m.stateSchema, `middleware "${m.name}"`);
  return { state, input, output, extraKeys };
}

function schemaChannels(schema: unknown, owner: string): StateDefinition {
  if (StateSchema.isInstance(schema)) return schema.getChannels();
  if (isAnnotationRoot(schema)) return { ...schema.spec };
  if (isAnyZodObject(schema)) return withZodDefaults(channelsFromZodObject(schema), zodObjectShape(schema));
  throw new InvalidArgumentError(
    `The stateSchema of ${owner} must be a StateSchema, a Zod object schema or an Annotation.Root({...}); got ${
      schema === null ? "null" : typeof schema
    }.`,
  );
}

/**
 * Gives the plain channels of Zod fields with a `.default()` that default as their initial
 * value, as LangChain.js's agent state does: the field has its default from the first
 * checkpoint on, and is in the result even when no one wrote it.
 */
function withZodDefaults(channels: StateDefinition, shape: Record<string, unknown>): StateDefinition {
  for (const [key, channel] of Object.entries(channels)) {
    if (!(channel instanceof LastValue) || channel.initialValueFactory !== undefined) continue;
    const initial = zodDefault(shape[key]);
    if (initial !== undefined) channels[key] = new LastValue(initial);
  }
  return channels;
}

/** A factory of the default of a Zod field, when it has one (not `undefined`) that needs no async work. */
function zodDefault(field: unknown): (() => unknown) | undefined {
  const initial = getSchemaDefaultGetter(field);
  return initial === undefined || initial() === undefined ? undefined : initial;
}

/**
 * The state fields of a middleware that its hook nodes write back with their updates (as
 * LangChain.js does): the fields of its Zod state schema held by plain `LastValue` channels
 * (a field with a reducer would apply its own value twice).
 */
export function ownStateKeys(middleware: AnyAgentMiddleware, layout: AgentStateLayout): string[] {
  const fields = schemaFields(middleware.stateSchema);
  if (fields === undefined) return [];
  return Object.keys(fields).filter((key) => !BUILT_IN.has(key) && layout.state[key] instanceof LastValue);
}

/** The fields of a middleware's state schema: a Zod object's field schemas, or a StateSchema's fields. */
function schemaFields(schema: unknown): Record<string, unknown> | undefined {
  if (StateSchema.isInstance(schema)) return schema.fields;
  return isAnyZodObject(schema) ? zodObjectShape(schema) : undefined;
}

/**
 * True for a Zod object schema of Zod 4 or of Zod 3 (`zod/v3`, or the zod 3 package):
 * LangChain.js takes both as a `stateSchema` ("interop" Zod objects).
 */
function isAnyZodObject(schema: unknown): boolean {
  if (isZodObjectSchema(schema)) return true;
  if (typeof schema !== "object" || schema === null) return false;
  const v3 = schema as { _def?: { typeName?: unknown }; shape?: unknown };
  return v3._def?.typeName === "ZodObject" && typeof v3.shape === "object" && v3.shape !== null;
}

/**
 * Fills in the defaults of the middleware state fields missing from `values` (Zod
 * `.default()`s), as LangChain.js does before each run, and throws the reference's error when a
 * public field that has no default is missing. Private (`_`) fields may always be missing.
 */
export async function initialMiddlewareValues(
  middleware: readonly AnyAgentMiddleware[],
  values: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const defaults: Record<string, unknown> = {};
  for (const m of middleware) {
    const fields = schemaFields(m.stateSchema);
    if (fields === undefined) continue;
    const missing: string[] = [];
    for (const [key, field] of Object.entries(fields)) {
      if (values[key] !== undefined || defaults[key] !== undefined) continue;
      // a default registered with `withLangGraph` is the channel's initial value: nothing is missing
      if (hasRegisteredDefault(field)) continue;
      if (!isStandardSchema(field)) continue;
      const result = await (field as StandardSchemaLike)["~standard"].validate(undefined);
      if (result.issues === undefined) {
        if (result.value !== undefined) defaults[key] = result.value;
      } else if (!isPrivateKey(key)) {
        missing.push(key);
      }
    }
    if (missing.length > 0) throw missingFieldsError(m.name, missing);
  }
  return defaults;
}

/** True for a field schema with a default registered in the graph's schema registry (`withLangGraph`). */
function hasRegisteredDefault(field: unknown): boolean {
  if (typeof field !== "object" || field === null) return false;
  return schemaMetaRegistry.get(field)?.default !== undefined;
}

function missingFieldsError(name: string, keys: readonly string[]): InvalidArgumentError {
  // LangChain.js's text, word for word
  const lines = keys.map((key) => `  - ${key}: Required`).join("\n");
  return new InvalidArgumentError(
    `Middleware "${name}" has required state fields that must be initialized:\n${lines}\n\n` +
      "To fix this, either:\n" +
      "1. Provide default values in your middleware's state schema using .default():\n" +
      "   stateSchema: z.object({\n" +
      '     myField: z.string().default("default value")\n' +
      "   })\n\n" +
      "2. Or make the fields optional using .optional():\n" +
      "   stateSchema: z.object({\n" +
      "     myField: z.string().optional()\n" +
      "   })\n\n" +
      "3. Or ensure you pass these values when invoking the agent:\n" +
      "   agent.invoke({\n" +
      "     messages: [...],\n" +
      `     ${keys[0] ?? "field"}: "value"\n` +
      "   })",
    { code: "MIDDLEWARE_STATE_REQUIRED" },
  );
}
