import { interrupt } from "../graph/index.js";
import {
  tool as coreTool,
  type DynamicStructuredTool,
  type InferSchemaInput,
  type InferSchemaOutput,
  type StandardSchemaLike,
  type ToolRuntime,
} from "../tools/index.js";

/**
 * What `tool({ name, description, schema })` takes: a tool's definition without a function
 * (see {@link tool}).
 *
 * @example
 * ```ts
 * const fields: HeadlessToolFields<typeof schema, "get_location"> = { name: "get_location", description: "…", schema };
 * ```
 */
export interface HeadlessToolFields<SchemaT extends StandardSchemaLike, NameT extends string = string> {
  name: NameT;
  description: string;
  schema: SchemaT;
}

/**
 * The payload a headless tool's call interrupts the run with: `{ type: "tool", toolCall }`,
 * the call's `id`, the tool's `name` and the parsed `args`.
 *
 * @example
 * ```ts
 * const request = result.__interrupt__[0].value as HeadlessToolInterrupt;
 * request.toolCall.name; // "get_location"
 * ```
 */
export interface HeadlessToolInterrupt<Args = Record<string, unknown>> {
  type: "tool";
  toolCall: { id: string | undefined; name: string; args: Args };
}

/**
 * A headless tool paired with the function that runs it where the app runs (`execute`), as
 * `headlessTool.implement(execute)` returns it.
 *
 * @example
 * ```ts
 * const { tool, execute } = getLocation.implement(async () => navigator.geolocation…);
 * ```
 */
export interface HeadlessToolImplementation<
  SchemaT extends StandardSchemaLike,
  Output,
  NameT extends string,
> {
  tool: HeadlessTool<SchemaT, NameT>;
  execute: (args: InferSchemaOutput<SchemaT>) => Output | Promise<Output>;
}

/**
 * A tool with a definition but no function on the server: calling it interrupts the run with a
 * {@link HeadlessToolInterrupt}, and the value the run is resumed with is the tool's result.
 *
 * @example
 * ```ts
 * const getLocation: HeadlessTool<typeof schema, "get_location"> = tool({ name: "get_location", description: "…", schema });
 * ```
 */
export type HeadlessTool<
  SchemaT extends StandardSchemaLike,
  NameT extends string = string,
> = DynamicStructuredTool<
  SchemaT,
  InferSchemaOutput<SchemaT>,
  InferSchemaInput<SchemaT>,
  unknown,
  unknown,
  NameT
> & {
  /** Pairs the tool with the function that runs it on the client. */
  implement<Output>(
    execute: (args: InferSchemaOutput<SchemaT>) => Output | Promise<Output>,
  ): HeadlessToolImplementation<SchemaT, Output, NameT>;
};

function headlessTool<SchemaT extends StandardSchemaLike, NameT extends string>(
  fields: HeadlessToolFields<SchemaT, NameT>,
): HeadlessTool<SchemaT, NameT> {
  const { name, description, schema } = fields;
  const wrapped = coreTool(
    (args: InferSchemaOutput<SchemaT>, runtime: ToolRuntime) =>
      interrupt({ type: "tool", toolCall: { id: runtime.toolCall?.id, name, args } }),
    { name, description, schema, metadata: { headlessTool: true } },
  );
  const out = Object.assign(wrapped, {
    implement: <Output>(execute: (args: InferSchemaOutput<SchemaT>) => Output | Promise<Output>) => ({
      tool: out,
      execute,
    }),
  }) as unknown as HeadlessTool<SchemaT, NameT>;
  return out;
}

function agentTool(funcOrFields: unknown, fields?: unknown): unknown {
  if (typeof funcOrFields !== "function") {
    return headlessTool(funcOrFields as HeadlessToolFields<StandardSchemaLike>);
  }
  return (coreTool as (func: unknown, fields: unknown) => unknown)(funcOrFields, fields);
}

/**
 * `tool()` as `langchain` exports it: `tool(func, fields)` makes a tool (see the `tool` of
 * `agentgraph/tools`); `tool({ name, description, schema })`, without a function, makes a
 * headless tool whose calls interrupt the run with `{ type: "tool", toolCall: { id, name, args } }`
 * so the app runs it (where the user is) and resumes with the result.
 *
 * @example
 * ```ts
 * const getLocation = tool({ name: "get_location", description: "The user's location.", schema: z.object({}) });
 * const agent = createAgent({ model, tools: [getLocation], checkpointer });
 * const paused = await agent.invoke({ messages: [{ role: "user", content: "Where am I?" }] }, config);
 * await agent.invoke(new Command({ resume: { city: "Suzhou" } }), config); // the tool's result
 * ```
 */
export const tool = agentTool as typeof coreTool &
  (<SchemaT extends StandardSchemaLike, NameT extends string>(
    fields: HeadlessToolFields<SchemaT, NameT>,
  ) => HeadlessTool<SchemaT, NameT>);
