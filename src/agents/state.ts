import {
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
  validateStateField,
  withFieldCheck,
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
 * for one step), then the fields of the user's `stateSchema` and of each middleware's
 * `stateSchema` (the first definition of a key wins, so the user's schema takes precedence), then
 * `structuredResponse` (a `LastValue`, output only), in LangChain.js's order.
 */
export function buildAgentState(
  stateSchema: unknown,
  middleware: readonly AnyAgentMiddleware[],
): AgentStateLayout {
  const messages = new BinaryOperatorAggregate<BaseMessage[], Messages>(messagesStateReducer, () => []);
  const state: StateDefinition = { messages, jumpTo: new EphemeralValue() };
  const input: StateDefinition = { messages };
  const output: StateDefinition = { messages };
  const extraKeys: string[] = [];
  const checks = new Map<string, (value: unknown) => unknown>();
  const add = (schema: unknown, owner: string) => {
    for (const [key, channel] of Object.entries(schemaChannels(schema, owner))) {
      if (BUILT_IN.has(key) || key in state) continue;
      state[key] = channel;
      extraKeys.push(key);
      const check = fieldCheck(schema, key, channel);
      if (check !== undefined) checks.set(key, check);
      if (isPrivateKey(key)) continue;
      input[key] = channel;
      output[key] = channel;
    }
  };
  if (stateSchema !== undefined) add(stateSchema, "createAgent");
  for (const m of middleware) if (m.stateSchema !== undefined) add(m.stateSchema, `middleware "${m.name}"`);
  const structuredResponse = new LastValue();
  state.structuredResponse = structuredResponse;
  output.structuredResponse = structuredResponse;
  // every write of a schema field (input, hook updates, commands) is validated and parsed by its
  // schema, as LangChain.js's agent state (a StateSchema) does
  if (checks.size > 0) {
    withFieldCheck(state, (key, value) => {
      const check = checks.get(key);
      return check === undefined ? value : check(value);
    });
  }
  return { state, input, output, extraKeys };
}

/**
 * How a write of `key`, a field of `schema`, is validated: a StateSchema's own check; a Zod
 * field's schema (a field with a reducer: the reducer's update schema, when it has one); nothing
 * for an Annotation or a field without a Standard Schema.
 */
function fieldCheck(
  schema: unknown,
  key: string,
  channel: unknown,
): ((value: unknown) => unknown) | undefined {
  if (StateSchema.isInstance(schema)) return (value) => schema.validateValue(key, value);
  if (!isAnyZodObject(schema)) return undefined;
  const field = zodObjectShape(schema)[key];
  const target =
    channel instanceof LastValue
      ? field
      : typeof field === "object" && field !== null
        ? schemaMetaRegistry.get(field)?.reducer?.schema
        : undefined;
  if (!isStandardSchema(target)) return undefined;
  return (value) => validateStateField(target, key, value);
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
 * middleware's fields do not validate: a public field that has no default is missing, or a given
 * value is invalid (its issues of type `invalid_type` are listed, as LangChain.js lists them).
 * Private (`_`) fields may always be missing.
 */
export async function initialMiddlewareValues(
  middleware: readonly AnyAgentMiddleware[],
  values: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const defaults: Record<string, unknown> = {};
  for (const m of middleware) {
    const fields = schemaFields(m.stateSchema);
    if (fields === undefined) continue;
    const listed: string[] = [];
    let firstPath: string | undefined;
    for (const [key, field] of Object.entries(fields)) {
      const given = values[key] !== undefined ? values[key] : defaults[key];
      // a default registered with `withLangGraph` is the channel's initial value: nothing is missing
      if (given === undefined && hasRegisteredDefault(field)) continue;
      if (!isStandardSchema(field)) continue;
      if (given === undefined && isPrivateKey(key)) continue;
      const result = await (field as StandardSchemaLike)["~standard"].validate(given);
      if (result.issues === undefined) {
        if (given === undefined && result.value !== undefined) defaults[key] = result.value;
        continue;
      }
      for (const issue of result.issues) {
        const path = [key, ...(issue.path ?? []).map((part) => String(pathKey(part)))].join(".");
        firstPath ??= path;
        if ((issue as { code?: unknown }).code === "invalid_type") listed.push(`  - ${path}: Required`);
      }
    }
    if (firstPath !== undefined) throw missingFieldsError(m.name, listed, firstPath);
  }
  return defaults;
}

/** The key of one segment of a Standard Schema issue's path. */
function pathKey(part: unknown): unknown {
  return typeof part === "object" && part !== null && "key" in part ? (part as { key: unknown }).key : part;
}

/** True for a field schema with a default registered in the graph's schema registry (`withLangGraph`). */
function hasRegisteredDefault(field: unknown): boolean {
  if (typeof field !== "object" || field === null) return false;
  return schemaMetaRegistry.get(field)?.default !== undefined;
}

function missingFieldsError(name: string, lines: readonly string[], example: string): InvalidArgumentError {
  // LangChain.js's text, word for word
  return new InvalidArgumentError(
    `Middleware "${name}" has required state fields that must be initialized:\n${lines.join("\n")}\n\n` +
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
      `     ${example}: "value"\n` +
      "   })",
    { code: "MIDDLEWARE_STATE_REQUIRED" },
  );
}
