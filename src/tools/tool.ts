import { promiseTry } from "../shared/index.js";
import type { InferSchemaOutput, JsonSchema, StandardSchemaLike } from "./schema/standard-schema.js";
import { StructuredTool, type ToolParams, type ToolSchema } from "./structured-tool.js";
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
 * The second argument of {@link tool}.
 *
 * @example
 * ```ts
 * const fields: ToolFields<typeof schema> = { name: "get_weather", description: "Get weather.", schema };
 * ```
 */
export interface ToolFields<SchemaT extends ToolSchema = ToolSchema> extends ToolParams {
  name: string;
  description?: string | undefined;
  schema: SchemaT;
  responseFormat?: ResponseFormat | undefined;
}

/**
 * The constructor input of {@link DynamicStructuredTool}: {@link ToolFields} plus `func`.
 *
 * @example
 * ```ts
 * new DynamicStructuredTool({ name: "add", description: "Add.", schema, func: async ({ a, b }) => a + b });
 * ```
 */
export interface DynamicStructuredToolInput<SchemaT extends ToolSchema, Output> extends ToolFields<SchemaT> {
  func: ToolFunction<InferSchemaOutput<SchemaT>, Output>;
}

/**
 * A tool made from a function and a schema; what {@link tool} returns.
 *
 * @example
 * ```ts
 * const add = new DynamicStructuredTool({
 *   name: "add", description: "Add two numbers.",
 *   schema: z.object({ a: z.number(), b: z.number() }),
 *   func: async ({ a, b }) => String(a + b),
 * });
 * ```
 */
export class DynamicStructuredTool<
  SchemaT extends ToolSchema = ToolSchema,
  Output = unknown,
> extends StructuredTool<SchemaT, InferSchemaOutput<SchemaT>, Output> {
  name: string;
  description: string;
  schema: SchemaT;
  func: ToolFunction<InferSchemaOutput<SchemaT>, Output>;

  constructor(fields: DynamicStructuredToolInput<SchemaT, Output>) {
    super(fields);
    this.name = fields.name;
    this.description = fields.description ?? describeSchema(fields.schema) ?? "";
    this.schema = fields.schema;
    this.func = fields.func;
  }

  protected _call(
    arg: InferSchemaOutput<SchemaT>,
    runManager?: ToolRunManager,
    parentConfig: ToolRunnableConfig = {},
  ): Promise<Output> {
    // an `async function*` tool hands back its generator, which the tool's run drains to its result
    return promiseTry(() =>
      this.func(arg, buildToolRuntime(parentConfig, writerFor(parentConfig, runManager))),
    ) as Promise<Output>;
  }
}

/** The JSON Schema of a string-input tool's arguments: `{ input: string }`. */
const STRING_INPUT_SCHEMA: JsonSchema = {
  type: "object",
  properties: { input: { type: "string" } },
  required: ["input"],
};

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
export class DynamicTool<Output = unknown> extends StructuredTool<JsonSchema, string, Output> {
  name: string;
  description: string;
  schema: JsonSchema = STRING_INPUT_SCHEMA;
  func: ToolFunction<string, Output>;

  constructor(
    fields: ToolParams & {
      name: string;
      description?: string | undefined;
      func: ToolFunction<string, Output>;
    },
  ) {
    super(fields);
    this.name = fields.name;
    this.description = fields.description ?? "";
    this.func = fields.func;
  }

  protected override async parseArgs(arg: unknown): Promise<string> {
    if (typeof arg === "string") return arg;
    const input = await super.parseArgs(arg);
    return (input as unknown as { input: string }).input;
  }

  protected async _call(
    arg: string,
    runManager?: ToolRunManager,
    parentConfig: ToolRunnableConfig = {},
  ): Promise<Output> {
    // (a generator, as above, is drained by the tool's run)
    return (await this.func(
      arg,
      buildToolRuntime(parentConfig, writerFor(parentConfig, runManager)),
    )) as Output;
  }
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

/**
 * Makes a tool from a function, as LangChain.js `tool()` does. `schema` is a Zod 4 object
 * (any copy of zod) or a JSON Schema object; the function receives the validated arguments
 * and the {@link ToolRuntime}. Without a schema the tool takes a single string.
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
export function tool<SchemaT extends StandardSchemaLike, Output, TState = unknown, TContext = unknown>(
  func: ToolFunction<InferSchemaOutput<SchemaT>, Output, TState, TContext>,
  fields: ToolFields<SchemaT>,
): DynamicStructuredTool<SchemaT, Output>;
export function tool<
  Args extends Record<string, unknown> = Record<string, unknown>,
  Output = unknown,
  TState = unknown,
  TContext = unknown,
>(
  func: ToolFunction<Args, Output, TState, TContext>,
  fields: ToolFields<JsonSchema>,
): DynamicStructuredTool<JsonSchema, Output>;
export function tool<Output, TState = unknown, TContext = unknown>(
  func: ToolFunction<string, Output, TState, TContext>,
  fields: ToolParams & { name: string; description?: string | undefined },
): DynamicTool<Output>;
export function tool(
  func: ToolFunction<never, unknown>,
  fields: ToolParams & { name: string; description?: string | undefined; schema?: ToolSchema },
): DynamicStructuredTool | DynamicTool {
  if (fields.schema === undefined) {
    return new DynamicTool({ ...fields, func: func as ToolFunction<string, unknown> });
  }
  return new DynamicStructuredTool({
    ...fields,
    schema: fields.schema,
    func: func as ToolFunction<unknown, unknown> as ToolFunction<InferSchemaOutput<ToolSchema>, unknown>,
  });
}
