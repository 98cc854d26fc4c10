import { copyOf, getAsyncContext, promiseTry, runInAsyncContext } from "../shared/index.js";
import { ToolInputParsingException } from "./errors.js";
import {
  type InferSchemaInput,
  type InferSchemaOutput,
  isStandardSchema,
  type JsonSchema,
  type StandardSchemaLike,
} from "./schema/standard-schema.js";
import {
  applyConfigDefaults,
  StructuredTool,
  type StructuredToolInterface,
  type ToolParams,
  type ToolSchema,
  type ToolSchemaInput,
  type ToolSchemaOutput,
} from "./structured-tool.js";
import type { ToolRunManager } from "./tool-callbacks.js";
import { buildToolRuntime } from "./tool-runtime.js";
import type { ResponseFormat, ToolRunnableConfig, ToolRuntime } from "./types.js";

/**
 * The function behind a tool: validated arguments in, result out. The second argument is
 * the {@link ToolRuntime}, whose state and context types are `TState` and `TContext` (so a
 * function may annotate its runtime as `ToolRuntime<MyState, MyContext>`).
 *
 * @example
 * ```ts
 * const fn: ToolFunction<{ city: string }, string> = async ({ city }) => `Sunny in ${city}`;
 * const who: ToolFunction<{}, string, unknown, { userId: string }> = async (_args, runtime) => runtime.context.userId;
 * ```
 */
export type ToolFunction<Args, Output, TState = unknown, TContext = unknown> = (
  args: Args,
  runtime: ToolRuntime<TState, TContext>,
) => Output | Promise<Output> | AsyncGenerator<unknown, Output, undefined>;

/**
 * A tool function whose second parameter is annotated with a config type rather than
 * {@link ToolRuntime}: any type whose fields are all optional, such as `Partial<Runtime<C>>`,
 * `LangGraphRunnableConfig`, `RunnableConfig` or `ToolRunnableConfig` (LangChain.js's `tool()`
 * takes these too). The function still receives the tool's runtime.
 *
 * @example
 * ```ts
 * const fn: ToolConfigFunction<{ city: string }, string> = async ({ city }, config: Partial<Runtime<{ units?: string }>>) =>
 *   `${city} in ${config.context?.units ?? "celsius"}`;
 * ```
 */
export type ToolConfigFunction<Args, Output> = (
  args: Args,
  config: Record<string, never>,
) => Output | Promise<Output> | AsyncGenerator<unknown, Output, undefined>;

/**
 * The second argument of {@link tool}.
 *
 * @example
 * ```ts
 * const fields: ToolFields<typeof schema> = { name: "get_weather", description: "Get weather.", schema };
 * ```
 */
export interface ToolFields<SchemaT extends ToolSchema = ToolSchema, NameT extends string = string>
  extends ToolParams {
  /** The tool's name, kept as its literal type (so an agent's tool calls are typed by name). */
  name: NameT;
  description?: string | undefined;
  schema: SchemaT;
  responseFormat?: ResponseFormat | undefined;
}

/** What {@link DynamicTool} and {@link DynamicStructuredTool} take besides their function and schema. */
export interface BaseDynamicToolInput extends ToolParams {
  name: string;
  description: string;
  returnDirect?: boolean | undefined;
}

/**
 * The constructor input of {@link DynamicTool}: a name, a description and a function of the
 * input string.
 *
 * @example
 * ```ts
 * const fields: DynamicToolInput<string> = { name: "shout", description: "Upper-cases text.", func: async (s) => s.toUpperCase() };
 * const shout = new DynamicTool(fields);
 * ```
 */
export interface DynamicToolInput<ToolOutputT = unknown, ToolEventT = unknown> extends BaseDynamicToolInput {
  func: DynamicToolFunction<string, ToolOutputT, ToolEventT>;
}

/**
 * The fields {@link tool} takes (LangChain.js's `ToolWrapperParams`): {@link ToolFields} with
 * the schema optional (a tool without one takes a string).
 */
export interface ToolWrapperParams<RunInput = ToolSchema | undefined, NameT extends string = string>
  extends ToolParams {
  name: NameT;
  description?: string | undefined;
  schema?: RunInput;
  responseFormat?: ResponseFormat | undefined;
  returnDirect?: boolean | undefined;
}

/** A provider's built-in tool, as `bindTools` takes it (`{ type: "web_search_preview" }`, ...). */
export type ServerTool = Record<string, unknown>;

/** A tool that runs in this program: any tool object. */
export type ClientTool = StructuredToolInterface | DynamicTool;

/**
 * The constructor input of {@link DynamicStructuredTool}: {@link ToolFields} plus `func`.
 *
 * @example
 * ```ts
 * new DynamicStructuredTool({ name: "add", description: "Add.", schema, func: async ({ a, b }) => a + b });
 * ```
 */
export interface DynamicStructuredToolInput<
  SchemaT extends ToolSchema = ToolSchema,
  SchemaOutputT = ToolSchemaOutput<SchemaT>,
  ToolOutputT = unknown,
  ToolEventT = unknown,
> extends ToolFields<SchemaT> {
  func: DynamicToolFunction<SchemaOutputT, ToolOutputT, ToolEventT>;
}

/**
 * The function given to the {@link DynamicStructuredTool} and {@link DynamicTool} constructors,
 * called as in LangChain.js: validated arguments, the callback run (`undefined` when no handler
 * listens) and the {@link ToolRuntime} (the config, with `toolCall`, `state`, `context`…).
 * {@link tool} functions take the runtime as their second argument instead.
 *
 * @example
 * ```ts
 * const fn: DynamicToolFunction<{ city: string }, string> = async ({ city }, _run, runtime) =>
 *   `Sunny in ${city} (call ${runtime.toolCallId})`;
 * ```
 */
export type DynamicToolFunction<Args, Output, Event = unknown> = (
  args: Args,
  runManager: ToolRunManager | undefined,
  runtime: ToolRuntime,
) => Output | Promise<Output> | AsyncGenerator<Event, Output, undefined>;

/**
 * The type of a tool's `func` field: {@link DynamicToolFunction} with its arguments compared
 * both ways (as a method's are), so that a tool with typed arguments is still a
 * `DynamicStructuredTool` (and a `DynamicTool` a `Tool`) of the default type arguments.
 */
type ToolFuncField<Args, Output, Event> = {
  func(
    args: Args,
    runManager: ToolRunManager | undefined,
    runtime: ToolRuntime,
  ): Output | Promise<Output> | AsyncGenerator<Event, Output, undefined>;
}["func"];

/**
 * A tool made from a function and a schema; what {@link tool} returns.
 *
 * @example
 * ```ts
 * const add = new DynamicStructuredTool({
 *   name: "add", description: "Add two numbers.",
 *   schema: z.object({ a: z.number(), b: z.number() }),
 *   func: async ({ a, b }, _runManager, runtime) => `${a + b} (call ${runtime.toolCallId})`,
 * });
 * ```
 */
export class DynamicStructuredTool<
  SchemaT extends ToolSchema = ToolSchema,
  SchemaOutputT = ToolSchemaOutput<SchemaT>,
  SchemaInputT = ToolSchemaInput<SchemaT>,
  ToolOutputT = unknown,
  ToolEventT = unknown,
  NameT extends string = string,
> extends StructuredTool<SchemaT, SchemaOutputT, SchemaInputT, ToolOutputT, ToolEventT> {
  name: NameT;
  description: string;
  schema: SchemaT;
  func: ToolFuncField<SchemaOutputT, ToolOutputT, ToolEventT>;

  static lc_name(): string {
    return "DynamicStructuredTool";
  }

  constructor(
    fields: DynamicStructuredToolInput<SchemaT, SchemaOutputT, ToolOutputT, ToolEventT> & { name: NameT },
  ) {
    super(fields);
    this.name = fields.name;
    // as given: LangChain.js leaves a missing description undefined here (tool() fills one in)
    this.description = fields.description as string;
    this.schema = fields.schema;
    this.func = fields.func;
  }

  protected override defaultRunName(): string {
    return this.name;
  }

  protected _call(
    arg: SchemaOutputT,
    runManager?: ToolRunManager,
    parentConfig: ToolRunnableConfig = {},
  ): Promise<ToolOutputT> {
    // an `async function*` tool hands back its generator, which the tool's run drains to its result
    const config = childConfig(parentConfig, runManager, this.func);
    return promiseTry(() =>
      this.func(arg, runManager, buildToolRuntime(config, writerFor(config, runManager))),
    ) as Promise<ToolOutputT>;
  }
}

/**
 * The JSON Schema of a string-input tool's arguments: `{ input?: string }` (optional, as in
 * LangChain.js: a call without it passes `undefined`).
 */
const STRING_INPUT_SCHEMA: JsonSchema = {
  type: "object",
  properties: { input: { type: "string" } },
};

/**
 * The base class of tools that take one string (LangChain.js `Tool`): subclass it and implement
 * `name`, `description` and `_call(input)`. `invoke("text")` passes the string; a tool call (or
 * `{ input }`) passes `args.input`.
 *
 * @example
 * ```ts
 * class Shout extends Tool<string> {
 *   name = "shout";
 *   description = "Upper-cases text.";
 *   protected async _call(input: string) { return input.toUpperCase(); }
 * }
 * await new Shout().invoke("hi"); // "HI"
 * ```
 */
export abstract class Tool<Output = unknown, ToolEventT = unknown> extends StructuredTool<
  JsonSchema,
  string,
  string | { input?: string | undefined },
  Output,
  ToolEventT
> {
  schema: JsonSchema = STRING_INPUT_SCHEMA;

  static lc_name(): string {
    return "Tool";
  }

  /** LangChain.js reports a string (or no input) as `{ input }`, the object its schema reads. */
  protected override callbackInput(arg: unknown): unknown {
    return typeof arg === "string" || arg === undefined || arg === null ? { input: arg } : arg;
  }

  protected override async parseArgs(arg: unknown): Promise<string> {
    if (typeof arg === "string") return arg;
    // no input at all reaches `_call` as `undefined`, as in LangChain.js
    if (arg === undefined) return arg as unknown as string;
    // LangChain.js reads `null` as `{ input: null }`, which its schema then refuses
    const args = arg === null ? { input: null } : arg;
    const issue = stringInputIssue(args);
    if (issue === undefined) return (args as { input?: string }).input as string;
    let message = "Received tool input did not match expected schema";
    // the verbose form shows the `zod/v3` issue as its error's message does
    if (this.verboseParsingErrors) message += `\nDetails: ${JSON.stringify([issue], null, 2)}`;
    message += `\n\n✖ ${issue.message}`;
    if (issue.path.length > 0) message += "\n  → at input";
    throw new ToolInputParsingException(message, jsonOrText(args));
  }
}

/**
 * What is wrong with the arguments of a string-input tool, as the `zod/v3` issue LangChain.js's
 * schema for these tools reports (`Expected object, received number`, or `Expected string,
 * received number` at `input`); `undefined` when they fit.
 */
function stringInputIssue(
  args: unknown,
): { code: "invalid_type"; expected: string; received: string; path: string[]; message: string } | undefined {
  const kind = zod3Kind(args);
  if (kind !== "object") return zod3TypeIssue("object", kind, []);
  const input = (args as { input?: unknown }).input;
  if (input === undefined || typeof input === "string") return undefined;
  return zod3TypeIssue("string", zod3Kind(input), ["input"]);
}

function zod3TypeIssue(expected: string, received: string, path: string[]) {
  const message = `Expected ${expected}, received ${received}`;
  return { code: "invalid_type" as const, expected, received, path, message };
}

/** The name Zod 3 gives a value's type in its messages (`nan`, `array`, `null`, `date`, …). */
function zod3Kind(value: unknown): string {
  if (typeof value === "number") return Number.isNaN(value) ? "nan" : "number";
  if (typeof value !== "object") return typeof value;
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value instanceof Date) return "date";
  if (value instanceof Map) return "map";
  if (value instanceof Set) return "set";
  if (value instanceof Promise) return "promise";
  return "object";
}

function jsonOrText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * A tool whose function takes one string (LangChain.js `DynamicTool`): `invoke("text")`
 * passes the string; a tool call passes `args.input`. Made by {@link tool} without a schema.
 *
 * @example
 * ```ts
 * const shout = new DynamicTool({ name: "shout", description: "Upper-cases text.", func: async (s) => s.toUpperCase() });
 * await shout.invoke("hi"); // "HI"
 * ```
 */
export class DynamicTool<Output = unknown, ToolEventT = unknown> extends Tool<Output, ToolEventT> {
  name: string;
  description: string;
  func: ToolFuncField<string, Output, ToolEventT>;

  static override lc_name(): string {
    return "DynamicTool";
  }

  constructor(
    fields: ToolParams & {
      name: string;
      description?: string | undefined;
      func: DynamicToolFunction<string, Output, ToolEventT>;
    },
  ) {
    super(fields);
    this.name = fields.name;
    // as given, as in LangChain.js (tool() fills a missing one in)
    this.description = fields.description as string;
    this.func = fields.func;
  }

  protected override defaultRunName(): string {
    return this.name;
  }

  protected async _call(
    arg: string,
    runManager?: ToolRunManager,
    parentConfig: ToolRunnableConfig = {},
  ): Promise<Output> {
    // (a generator, as above, is drained by the tool's run)
    const config = childConfig(parentConfig, runManager, this.func);
    return (await this.func(
      arg,
      runManager,
      buildToolRuntime(config, writerFor(config, runManager)),
    )) as Output;
  }
}

/** The functions `tool()` wraps a user's function in (LangChain.js patches their config). */
const TOOL_FUNCTIONS = new WeakSet<object>();

/**
 * The config a tool function gets, without the `runId` given for the tool's own run. For a
 * `tool()` whose run is reported to callbacks, the run name names that run only too: left out,
 * so that a model invoked with the config is reported under its own name (LangChain.js's
 * `tool()` patches the config with the run's child callbacks, which drops it; without callbacks,
 * or for a `DynamicStructuredTool` made directly, it is kept). A `tool()` function's config also
 * gets the defaults (`tags: []`, `metadata: {}`, `recursionLimit: 25`) it lacks, and a `timeout`
 * (given to `call()`) as its signal, as LangChain.js's patch adds them. A key left undefined reads as absent.
 */
function childConfig(
  config: ToolRunnableConfig,
  runManager: ToolRunManager | undefined,
  func: object,
): ToolRunnableConfig {
  const patched = TOOL_FUNCTIONS.has(func);
  const dropName = patched && runManager !== undefined && config.runName !== undefined;
  // a `tool()` function's config has LangChain.js's defaults even when `call()` was given none
  const fill =
    patched &&
    (config.tags === undefined ||
      config.metadata === undefined ||
      config.recursionLimit === undefined ||
      config.timeout !== undefined ||
      (typeof config.configurable?.model === "string" && config.metadata.model === undefined));
  if (!dropName && !fill && config.runId === undefined) return config;
  const out = copyOf(config) as unknown as Record<string, unknown>;
  if (dropName) out.runName = undefined;
  if (fill) applyConfigDefaults(out as ToolRunnableConfig);
  // the run id was the tool run's own (LangChain.js deletes it once the run has started)
  out.runId = undefined;
  return out as ToolRunnableConfig;
}

/**
 * The writer a tool's runtime gets: the run's (the graph's `custom` stream), as in LangChain.js.
 * Progress for the `tools` stream comes from what an `async function*` tool yields.
 */
function writerFor(
  config: ToolRunnableConfig,
  _run: ToolRunManager | undefined,
): ((chunk: unknown) => void) | null {
  return config.writer ?? null;
}

function describeSchema(schema: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const description = (schema as { description?: unknown }).description;
  return typeof description === "string" ? description : undefined;
}

/** A Zod 4 or Zod 3 string schema (from any copy of zod): `tool()` makes a string tool of it. */
type ZodStringSchema = StandardSchemaLike &
  (
    | { readonly _zod: { readonly def: { readonly type: "string" } } }
    | { readonly _def: { readonly typeName: "ZodString" } }
  );

/**
 * Makes a tool from a function, as LangChain.js `tool()` does. `schema` is a Zod 4 object
 * (any copy of zod) or a JSON Schema object; the function receives the validated arguments
 * and the {@link ToolRuntime}. Without a schema, or with a string schema (`z.string()`, JSON Schema
 * `{ type: "string" }`), the tool is a {@link DynamicTool} taking a single string.
 *
 * The function may return a string, content blocks, any JSON-serialisable value (sent as
 * JSON text), `[content, artifact]` with `responseFormat: "content_and_artifact"`, a
 * `ToolMessage`, or a graph `Command`.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * const getWeather = tool(async ({ city }) => `It's always sunny in ${city}!`, {
 *   name: "get_weather",
 *   description: "Get weather for a given city.",
 *   schema: z.object({ city: z.string() }),
 * });
 * ```
 */
export function tool<SchemaT extends ZodStringSchema, Output, TState = unknown, TContext = unknown>(
  func: ToolFunction<string, Output, TState, TContext>,
  fields: ToolFields<SchemaT>,
): DynamicTool<Output>;
export function tool<
  SchemaT extends StandardSchemaLike,
  NameT extends string,
  Output,
  TState = unknown,
  TContext = unknown,
>(
  func: ToolFunction<InferSchemaOutput<SchemaT>, Output, TState, TContext>,
  fields: ToolFields<SchemaT, NameT>,
): DynamicStructuredTool<
  SchemaT,
  InferSchemaOutput<SchemaT>,
  InferSchemaInput<SchemaT>,
  Output,
  unknown,
  NameT
>;
export function tool<Output, TState = unknown, TContext = unknown>(
  func: ToolFunction<string, Output, TState, TContext>,
  fields: ToolFields<JsonSchema & { type: "string" }>,
): DynamicTool<Output>;
export function tool<
  Args extends Record<string, unknown> = Record<string, unknown>,
  Output = unknown,
  TState = unknown,
  TContext = unknown,
  NameT extends string = string,
>(
  func: ToolFunction<Args, Output, TState, TContext>,
  fields: ToolFields<JsonSchema, NameT>,
): DynamicStructuredTool<JsonSchema, Args, Args, Output, unknown, NameT>;
export function tool<Output, TState = unknown, TContext = unknown>(
  func: ToolFunction<string, Output, TState, TContext>,
  fields: ToolParams & { name: string; description?: string | undefined },
): DynamicTool<Output>;
// the same, for a function whose second parameter is a config type (see ToolConfigFunction)
export function tool<SchemaT extends ZodStringSchema, Output>(
  func: ToolConfigFunction<string, Output>,
  fields: ToolFields<SchemaT>,
): DynamicTool<Output>;
export function tool<SchemaT extends StandardSchemaLike, NameT extends string, Output>(
  func: ToolConfigFunction<InferSchemaOutput<SchemaT>, Output>,
  fields: ToolFields<SchemaT, NameT>,
): DynamicStructuredTool<
  SchemaT,
  InferSchemaOutput<SchemaT>,
  InferSchemaInput<SchemaT>,
  Output,
  unknown,
  NameT
>;
export function tool<Output>(
  func: ToolConfigFunction<string, Output>,
  fields: ToolFields<JsonSchema & { type: "string" }>,
): DynamicTool<Output>;
export function tool<
  Args extends Record<string, unknown> = Record<string, unknown>,
  Output = unknown,
  NameT extends string = string,
>(
  func: ToolConfigFunction<Args, Output>,
  fields: ToolFields<JsonSchema, NameT>,
): DynamicStructuredTool<JsonSchema, Args, Args, Output, unknown, NameT>;
export function tool<Output>(
  func: ToolConfigFunction<string, Output>,
  fields: ToolParams & { name: string; description?: string | undefined },
): DynamicTool<Output>;
export function tool(
  func: ToolFunction<never, unknown> | ToolConfigFunction<never, unknown>,
  fields: ToolParams & { name: string; description?: string | undefined; schema?: ToolSchema },
): DynamicStructuredTool | DynamicTool {
  const schema = fields.schema;
  // as in LangChain.js: no description falls back to the schema's, then to "<name> tool"
  const description = fields.description ?? describeSchema(schema) ?? `${fields.name} tool`;
  // a `tool()` function takes the runtime second (the constructors' functions take it third)
  const run = func as ToolFunction<unknown, unknown>;
  // Outside any run (a tool invoked directly), the function runs with its config as the ambient
  // one, as LangChain.js's `tool()` does, so `getConfig()` returns it and `getStore()` /
  // `getWriter()` find none rather than throw. Inside a graph task it keeps the task's.
  const withRuntime = (args: unknown, _runManager: ToolRunManager | undefined, runtime: ToolRuntime) =>
    getAsyncContext() === undefined
      ? runInAsyncContext(runtime.config, () => run(args, runtime))
      : run(args, runtime);
  TOOL_FUNCTIONS.add(withRuntime);
  if (schema === undefined || acceptsOnlyStrings(schema)) {
    // a string schema makes a string tool, as in LangChain.js (`{ input }` or a bare string)
    const { schema: _schema, ...rest } = fields;
    return new DynamicTool({ ...rest, description, func: withRuntime });
  }
  return new DynamicStructuredTool({ ...fields, description, schema, func: withRuntime });
}

/**
 * True for a schema that accepts only strings: a zod string (without refinements of its
 * type) or a JSON Schema of `type: "string"`, a string enum or const, a union of those, an
 * `allOf` with one of those (LangChain.js's `validatesOnlyStrings`, whose `$ref`s never resolve).
 */
function acceptsOnlyStrings(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return false;
  const zod4 = (schema as { _zod?: { def?: { type?: unknown } } })._zod;
  if (zod4 !== undefined) return zod4.def?.type === "string";
  const zod3 = (schema as { _def?: { typeName?: unknown } })._def;
  if (zod3 !== undefined) return zod3.typeName === "ZodString";
  if (isStandardSchema(schema)) return false;
  const json = schema as Record<string, unknown>;
  if ("type" in json) {
    if (typeof json.type === "string") return json.type === "string";
    return Array.isArray(json.type) && json.type.every((t) => t === "string");
  }
  if ("enum" in json) {
    return Array.isArray(json.enum) && json.enum.length > 0 && json.enum.every((v) => typeof v === "string");
  }
  if ("const" in json) return typeof json.const === "string";
  // as LangChain.js reads them: one string-only part of an allOf is enough
  if (Array.isArray(json.allOf)) return json.allOf.some(acceptsOnlyStrings);
  const union = Array.isArray(json.anyOf) ? json.anyOf : Array.isArray(json.oneOf) ? json.oneOf : undefined;
  if (union !== undefined) return union.length > 0 && union.every(acceptsOnlyStrings);
  return false;
}
