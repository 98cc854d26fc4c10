import type { MessageContent, ToolCall, ToolMessage } from "../messages/index.js";
import {
  AbortError,
  type BatchOptions,
  type CallbackHandler,
  failedBeforeThen,
  INVOKE_THEN,
  InvalidArgumentError,
  isStreamedRunWriter,
  promiseTry,
  raceSignal,
  resolveConfig,
  runBatch,
  runInAsyncContext,
  TOOL_RUN_ID,
  thenThroughInvoke,
} from "../shared/index.js";
import { ToolInputParsingException } from "./errors.js";
import { formatToolOutput, isCommandLike } from "./format-tool-output.js";
import { formatIssues } from "./schema/format-issues.js";
import { type InferSchemaInput, type InferSchemaOutput, isStandardSchema } from "./schema/standard-schema.js";
import { validateArgsNow } from "./schema/validate-args.js";
import { startToolRun, type ToolRunManager } from "./tool-callbacks.js";
import type { ResponseFormat, ToolRunnableConfig } from "./types.js";

/**
 * A graph `Command`, seen structurally (tools cannot import the graph package).
 *
 * @example
 * ```ts
 * const returnsCommand = tool(async (): Promise<CommandLike> => new Command({ update: { done: true } }), fields);
 * ```
 */
export type CommandLike = { readonly lg_name: "Command" };

/**
 * What `invoke` returns for a tool call: a `ToolMessage`, unless the tool returns a
 * `Command` (or a `ToolMessage`) itself, which passes through.
 *
 * @example
 * ```ts
 * const message: ToolCallOutput<string> = await weather.invoke(call); // ToolMessage
 * ```
 */
export type ToolCallOutput<Output> =
  // (read through `infer`, so that a tool's type stays covariant in its output type: a tool
  // returning strings is a `StructuredTool` of `unknown` output)
  [Output] extends [infer Out]
    ? unknown extends Out
      ? ToolMessage | CommandLike
      : Out extends CommandLike
        ? Out
        : ToolMessage
    : never;

/**
 * What `invoke(input, config)` of a tool returning `TOutput` resolves to (LangChain.js's
 * `ToolReturnType`): a `ToolMessage` (or the tool's own `Command`) for a tool call, or a config
 * whose `toolCall` has an id; the tool's output otherwise.
 */
export type ToolReturnType<TInput, TConfig, TOutput> = TConfig extends { toolCall: { id: string } }
  ? ToolCallOutput<TOutput>
  : TInput extends ToolCall
    ? ToolCallOutput<TOutput>
    : TOutput;

/**
 * What a tool with `responseFormat: "content_and_artifact"` returns: the `ToolMessage`'s content
 * and its artifact.
 *
 * @example
 * ```ts
 * const search = tool(async ({ q }): Promise<ContentAndArtifact> => [`2 hits for ${q}`, hits], {
 *   name: "search", schema, responseFormat: "content_and_artifact",
 * });
 * ```
 */
export type ContentAndArtifact = [MessageContent, unknown];

/**
 * The schema types a tool accepts: a Zod 4 (or other Standard Schema) object, or a JSON
 * Schema object.
 *
 * @example
 * ```ts
 * const schema: ToolSchema = { type: "object", properties: { q: { type: "string" } } };
 * ```
 */
export type ToolSchema = object;

/** LangChain.js's name for {@link ToolSchema}. */
export type ToolSchemaBase = ToolSchema;

/**
 * Options shared by every tool class.
 *
 * @example
 * ```ts
 * const params: ToolParams = { returnDirect: true, tags: ["search"], verboseParsingErrors: true };
 * ```
 */
export interface ToolParams {
  returnDirect?: boolean | undefined;
  responseFormat?: ResponseFormat | undefined;
  verboseParsingErrors?: boolean | undefined;
  tags?: string[] | undefined;
  metadata?: Record<string, unknown> | undefined;
  callbacks?: CallbackHandler[] | undefined;
  /** Provider-specific extras (LangChain.js `extras`), e.g. Anthropic `cache_control`. */
  extras?: Record<string, unknown> | undefined;
}

/**
 * The shape every tool has, whatever class made it: what `bindTools`, the ToolNode and
 * `createAgent` rely on.
 *
 * @example
 * ```ts
 * function describeTools(tools: StructuredToolInterface[]) {
 *   return tools.map((t) => `${t.name}: ${t.description}`).join("\n");
 * }
 * ```
 */
export interface StructuredToolInterface {
  name: string;
  description: string;
  schema: ToolSchema;
  returnDirect?: boolean;
  responseFormat?: ResponseFormat;
  invoke(input: unknown, config?: ToolRunnableConfig): Promise<unknown>;
}

/** A tool's shape with its deprecated `call` (LangChain.js's `ToolInterface`): every tool class's. */
export interface ToolInterface extends StructuredToolInterface {
  /** @deprecated Use `invoke`. */
  call(arg: unknown, config?: ToolRunnableConfig): Promise<unknown>;
}

/**
 * A tool described by its name and schema only, as `bindTools` takes it (no code to run).
 *
 * @example
 * ```ts
 * const search: StructuredToolParams = { name: "search", schema: z.object({ q: z.string() }) };
 * ```
 */
export interface StructuredToolParams {
  name: string;
  schema: ToolSchema;
  description?: string;
  extras?: Record<string, unknown>;
}

/**
 * The parsed arguments of a tool with schema type `SchemaT` ({@link InferSchemaOutput}):
 * `unknown` for any schema (`ToolSchema`), so that a tool of the default type arguments
 * (`StructuredTool`, `DynamicStructuredTool`) stands for every tool, as in LangChain.js.
 *
 * @example
 * ```ts
 * type Args = ToolSchemaOutput<typeof weatherSchema>; // { city: string }
 * ```
 */
export type ToolSchemaOutput<SchemaT> = [ToolSchema] extends [SchemaT] ? unknown : InferSchemaOutput<SchemaT>;

/**
 * The arguments a tool with schema type `SchemaT` accepts before parsing
 * ({@link InferSchemaInput}); `unknown` for any schema, as {@link ToolSchemaOutput}.
 *
 * @example
 * ```ts
 * type Raw = ToolSchemaInput<typeof weatherSchema>; // { city: string }
 * ```
 */
export type ToolSchemaInput<SchemaT> = [ToolSchema] extends [SchemaT] ? unknown : InferSchemaInput<SchemaT>;

const TOOL_BRAND: unique symbol = Symbol.for("agentgraph.tool") as never;

/**
 * True for a tool object: an agentgraph tool from any copy of the package, or any object with
 * a `name`, a `schema` and an `invoke` method (such as a LangChain.js tool).
 *
 * @example
 * ```ts
 * isStructuredTool(weather); // true
 * isStructuredTool({ name: "x", description: "", parameters: {} }); // false (a descriptor)
 * ```
 */
export function isStructuredTool(value: unknown): value is StructuredToolInterface {
  if (typeof value !== "object" || value === null) return false;
  if ((value as { [TOOL_BRAND]?: unknown })[TOOL_BRAND] === true) return true;
  const v = value as { name?: unknown; schema?: unknown; invoke?: unknown };
  return typeof v.name === "string" && typeof v.invoke === "function" && typeof v.schema === "object";
}

/** The JSON Schema types LangChain.js's `isStructuredToolParams` recognises (not `integer`). */
const JSON_SCHEMA_TYPES: ReadonlySet<string> = new Set([
  "null",
  "boolean",
  "object",
  "array",
  "number",
  "string",
]);

/**
 * True for a tool description with a `name` and a `schema` (a Zod / Standard Schema, or a
 * JSON Schema with a `type`), the form `bindTools` accepts besides tool objects
 * (LangChain.js `isStructuredToolParams`).
 *
 * @example
 * ```ts
 * isStructuredToolParams({ name: "search", schema: z.object({ q: z.string() }) }); // true
 * isStructuredToolParams({ name: "search" }); // false
 * ```
 */
export function isStructuredToolParams(value: unknown): value is StructuredToolParams {
  if (typeof value !== "object" || value === null || !("name" in value) || !("schema" in value)) return false;
  const schema = (value as { schema: unknown }).schema;
  if (isStandardSchema(schema)) return true;
  if (typeof schema !== "object" || schema === null) return false;
  const type = (schema as { type?: unknown }).type;
  return typeof type === "string" && JSON_SCHEMA_TYPES.has(type);
}

/**
 * True for a LangChain.js `RunnableToolLike` (what `runnable.asTool()` returns there): a
 * runnable (`lc_runnable`) whose class's `lc_name()` is `"RunnableToolLike"`. agentgraph has no
 * runnables of its own, so this recognises such objects coming from LangChain.js code.
 * Always a boolean (LangChain.js may answer `undefined` for a non-runnable).
 *
 * @example
 * ```ts
 * isRunnableToolLike(runnable.asTool({ name: "echo", schema: z.object({ text: z.string() }) })); // true
 * isRunnableToolLike(weather); // false: a tool, not a runnable tool
 * ```
 */
export function isRunnableToolLike(value?: unknown): value is StructuredToolInterface {
  if (value === undefined || value === null || !(value as { lc_runnable?: unknown }).lc_runnable)
    return false;
  const ctor = (value as { constructor?: { lc_name?: unknown } }).constructor;
  return (
    typeof ctor?.lc_name === "function" &&
    (ctor as { lc_name: () => unknown }).lc_name() === "RunnableToolLike"
  );
}

/**
 * True for anything LangChain.js treats as a tool: a tool object ({@link isStructuredTool}),
 * a runnable tool ({@link isRunnableToolLike}) or a `{ name, schema }` description
 * ({@link isStructuredToolParams}).
 *
 * @example
 * ```ts
 * isLangChainTool(weather); // true
 * isLangChainTool({ name: "search", schema: { type: "object", properties: {} } }); // true
 * isLangChainTool({}); // false
 * ```
 */
export function isLangChainTool(value: unknown): value is StructuredToolInterface | StructuredToolParams {
  return isStructuredToolParams(value) || isRunnableToolLike(value) || isStructuredTool(value);
}

/**
 * True for a tool call `{ name, args, id, type: "tool_call" }` (as opposed to plain arguments).
 *
 * @example
 * ```ts
 * isToolCall({ name: "f", args: {}, id: "1", type: "tool_call" }); // true
 * ```
 */
export function isToolCall(value: unknown): value is ToolCall {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { type?: unknown }).type === "tool_call" &&
    "args" in value
  );
}

/**
 * The base class of tools, as in LangChain.js: subclass it with `name`, `description`,
 * `schema` and `_call(args, runManager?, config?)`.
 *
 * `invoke(toolCall)` validates `toolCall.args` against the schema, runs `_call`, and wraps
 * the result in a `ToolMessage` answering the call; `invoke(args)` returns the raw result.
 * Errors thrown by `_call` propagate (a ToolNode decides how to report them).
 *
 * @example
 * ```ts
 * class WeatherTool extends StructuredTool {
 *   name = "get_weather";
 *   description = "Get weather for a given city.";
 *   schema = z.object({ city: z.string() });
 *   protected async _call({ city }: { city: string }) {
 *     return `It's always sunny in ${city}!`;
 *   }
 * }
 * await new WeatherTool().invoke({ name: "get_weather", args: { city: "Suzhou" }, id: "call_1", type: "tool_call" });
 * ```
 */
export abstract class StructuredTool<
  SchemaT extends ToolSchema = ToolSchema,
  SchemaOutputT = ToolSchemaOutput<SchemaT>,
  SchemaInputT = ToolSchemaInput<SchemaT>,
  ToolOutputT = unknown,
  ToolEventT = unknown,
> implements StructuredToolInterface
{
  abstract name: string;
  abstract description: string;
  abstract schema: SchemaT;
  /** When true, an agent stops after this tool runs and returns its result. */
  returnDirect = false;
  responseFormat: ResponseFormat = "content";
  /** Append the received arguments to argument-validation errors. */
  verboseParsingErrors = false;
  /** Tags the tool's callback runs carry (after the config's); `[]` by default, as in LangChain.js. */
  tags: string[] | undefined;
  /** Metadata the tool's callback runs carry and its `ToolMessage`s copy; `{}` by default. */
  metadata: Record<string, unknown> | undefined;
  callbacks: CallbackHandler[] | undefined;
  extras: Record<string, unknown> | undefined;
  readonly lc_namespace: string[] = ["langchain", "tools"];

  constructor(fields: ToolParams = {}) {
    Object.defineProperty(this, TOOL_BRAND, { value: true });
    if (fields.returnDirect !== undefined) this.returnDirect = fields.returnDirect;
    if (fields.responseFormat !== undefined) this.responseFormat = fields.responseFormat;
    if (fields.verboseParsingErrors !== undefined) this.verboseParsingErrors = fields.verboseParsingErrors;
    this.tags = fields.tags ?? [];
    this.metadata = fields.metadata ?? {};
    this.callbacks = fields.callbacks;
    this.extras = fields.extras;
  }

  /**
   * Runs the tool on validated arguments: its result, or an async generator whose yields are
   * progress (the `tools` stream's `on_tool_event`) and whose return value is the result.
   */
  protected abstract _call(
    arg: SchemaOutputT,
    runManager?: ToolRunManager,
    parentConfig?: ToolRunnableConfig,
  ): Promise<ToolOutputT> | AsyncGenerator<ToolEventT, ToolOutputT>;

  /** The tool's name (LangChain.js `getName()`). */
  getName(): string {
    return this.name;
  }

  invoke(input: ToolCall, config?: ToolRunnableConfig): Promise<ToolCallOutput<ToolOutputT>>;
  invoke(input: SchemaInputT, config?: ToolRunnableConfig): Promise<ToolOutputT>;
  invoke(input: unknown, config?: ToolRunnableConfig): Promise<ToolOutputT>;
  invoke(input: unknown, config?: ToolRunnableConfig): Promise<unknown> {
    return promiseTry(() => this.start(input, config));
  }

  /**
   * `invoke`, with the result handed to `then` (a failure to `onError`) in the continuation that
   * finishes the call (see `invokeThen` in shared/: a ToolNode saves a promise per tool call this
   * way). A subclass that replaces `invoke` or `call` is called through them.
   *
   * @internal
   */
  [INVOKE_THEN]<R>(
    input: unknown,
    config: ToolRunnableConfig | undefined,
    then: (output: unknown) => R | PromiseLike<R>,
    onError?: (error: unknown) => R | PromiseLike<R>,
  ): Promise<R> {
    if (this.invoke !== StructuredTool.prototype.invoke || this.call !== StructuredTool.prototype.call)
      return thenThroughInvoke(this, input, config, then, onError);
    try {
      // with `then` given, the call's promise is what `then` (or `onError`) returns
      return this.start(input, config, then, onError) as Promise<R>;
    } catch (error) {
      return failedBeforeThen(error, onError);
    }
  }

  /** What `invoke` does; throws at once what fails before the tool runs. */
  private start<R>(
    input: unknown,
    config: ToolRunnableConfig | undefined,
    then?: (output: unknown) => R | PromiseLike<R>,
    onError?: (error: unknown) => R | PromiseLike<R>,
  ): Promise<unknown> {
    // outside any graph task resolveConfig hands back the caller's own object: copied then
    let resolved: ToolRunnableConfig = resolveConfig(config);
    if (resolved === config) resolved = { ...resolved };
    applyConfigDefaults(resolved);
    if (resolved.runName === undefined) {
      const runName = this.defaultRunName();
      if (runName !== undefined) resolved.runName = runName;
    }
    let args = input;
    // as in LangChain.js, `type: "tool_call"` alone marks a call (its `args` may be missing)
    if (isToolCallTyped(input)) {
      args = input.args;
      resolved.toolCall = input;
    }
    if (then === undefined) return this.call(args, resolved);
    return this.validated(args, resolved, then, onError);
  }

  /**
   * Validates `arg`, runs the tool and formats the result (a `ToolMessage` when
   * `config.toolCall` has an id). Prefer {@link invoke}.
   */
  call(arg: unknown, config: ToolRunnableConfig = {}): Promise<unknown> {
    let resolved = config;
    if (config.runName === undefined) {
      const runName = this.defaultRunName();
      if (runName !== undefined) resolved = { ...config, runName };
    }
    return promiseTry(() => this.validated(arg, resolved));
  }

  /**
   * The run name a call gets when its config has none: `undefined` here (a subclass's runs are
   * reported without one, as in LangChain.js), the tool's name for the `Dynamic…Tool`s.
   */
  protected defaultRunName(): string | undefined {
    return undefined;
  }

  /**
   * What `handleToolStart` receives as the tool's input (as JSON text unless a string): the
   * arguments as given. A string-input tool reports `{ input }`, as LangChain.js does.
   */
  protected callbackInput(arg: unknown): unknown {
    return arg;
  }

  /** `call` without its promise: throws at once what fails before the tool runs. */
  private validated<R>(
    arg: unknown,
    config: ToolRunnableConfig,
    then?: (output: unknown) => R | PromiseLike<R>,
    onError?: (error: unknown) => R | PromiseLike<R>,
  ): Promise<unknown> {
    if (config.signal?.aborted)
      throw new AbortError("The tool call was aborted.", { cause: config.signal.reason });
    // validation is synchronous for most schemas: then no turn is spent on it
    const parsed =
      this.parseArgs === StructuredTool.prototype.parseArgs ? this.checkArgs(arg) : this.parseArgs(arg);
    if (parsed instanceof Promise) {
      const ran = parsed.then((value) => this.runParsed(value, arg, config));
      return then === undefined ? ran : ran.then(then, onError);
    }
    return this.runParsed(parsed, arg, config, then, onError);
  }

  /**
   * Runs the tool on validated arguments and formats its output, with one continuation on the
   * tool's promise (not an `async` function: under Node's `AsyncLocalStorage` every promise and
   * every resumption runs hooks).
   */
  private runParsed<R>(
    parsed: SchemaOutputT,
    arg: unknown,
    config: ToolRunnableConfig,
    then?: (output: unknown) => R | PromiseLike<R>,
    onError?: (error: unknown) => R | PromiseLike<R>,
  ): Promise<unknown> {
    const toolCallId = config.toolCall?.id;
    let run: ReturnType<typeof startToolRun>;
    // a handler with `raiseError` and `awaitHandlers` that fails hearing the tool's error fails
    // the call with its own error, as in LangChain.js
    const fail = (error: unknown): Promise<never> => {
      const raised = run?.handleToolError(error);
      if (raised === undefined) throw error;
      return raised.then(() => Promise.reject(error));
    };
    // such a handler that fails hearing the start: the tool does not run, nor reports an error
    let vetoed = false;
    try {
      run = startToolRun(config, this, this.callbackInput(arg), toolCallId, this.constructor.name);
      // a subclass's `_call` may return a plain value
      const finish = (output: unknown) => {
        const formatted = formatToolOutput({
          output,
          name: this.name,
          responseFormat: this.responseFormat,
          toolCallId: isCommandLike(output) ? undefined : toolCallId,
          metadata: this.metadata,
        });
        const raised = run?.handleToolEnd(formatted);
        return raised === undefined ? formatted : raised.then(() => formatted);
      };
      // with handlers listening, the tool's function starts a turn after its start was reported,
      // as in LangChain.js (which awaits `handleToolStart`): tools called together all report
      // their start before any of them runs; in a run streamed to a consumer it starts a turn
      // after the call too, as LangChain.js's tools do (see streamed-run.ts in shared/)
      const started = run;
      const raced = raceWithSignal(
        started === undefined
          ? isStreamedRunWriter(config.writer)
            ? Promise.resolve().then((): unknown => this._call(parsed, run, config))
            : Promise.resolve(this._call(parsed, run, config))
          : started.startRaised === undefined
            ? Promise.resolve().then(() => this.callInRun(parsed, started, config))
            : started.startRaised.then(
                () => this.callInRun(parsed, started, config),
                (error: unknown) => {
                  vetoed = true;
                  throw error;
                },
              ),
        config.signal,
      );
      // the caller's `then` (or `onError`), if any, in the same continuation; what `then` throws is
      // the caller's, not the tool's
      const failed = (error: unknown): R | PromiseLike<R> => {
        const raised = vetoed ? undefined : run?.handleToolError(error);
        if (raised !== undefined)
          return raised.then(
            () => failedBeforeThen(error, onError),
            (raisedError: unknown) => failedBeforeThen(raisedError, onError),
          );
        if (onError === undefined) throw error;
        return onError(error);
      };
      return raced.then((output) => {
        // an `async function*` tool: what it yields is progress, what it returns the result
        if (isGeneratorLike(output)) {
          const drained = raceWithSignal(drainToolGenerator(output, run), config.signal).then(finish, fail);
          return then === undefined ? drained : drained.then(then, onError);
        }
        let formatted: unknown;
        try {
          formatted = finish(output);
          // a handler with `raiseError` and `awaitHandlers` that fails hearing the end fails the
          // call (no tool error callback), as in LangChain.js
          if (formatted instanceof Promise)
            return then === undefined ? formatted : formatted.then(then, onError);
        } catch (error) {
          // an output the response format rejects fails the call without a tool error callback
          // (nor an end), as in LangChain.js, which checks it after the tool's run
          if (onError === undefined) throw error;
          return onError(error);
        }
        return then === undefined ? formatted : then(formatted);
      }, failed);
    } catch (error) {
      const raised = run?.handleToolError(error);
      if (raised !== undefined)
        return raised.then(
          () => failedBeforeThen(error, onError),
          (raisedError: unknown) => failedBeforeThen(raisedError, onError),
        );
      return failedBeforeThen(error, onError);
    }
  }

  /**
   * `_call` in a tool run with handlers: with a config, and an ambient one, that name the tool's
   * run, so the model and tool calls made in it are its children (LangChain.js runs a tool's
   * function in its child config).
   */
  private callInRun(parsed: SchemaOutputT, run: ToolRunManager, config: ToolRunnableConfig): unknown {
    const child = Object.assign({}, config, { [TOOL_RUN_ID]: run.runId }) as ToolRunnableConfig;
    return runInAsyncContext(child, () => this._call(parsed, run, child));
  }

  /**
   * Invokes the tool on each input (all at once unless `maxConcurrency` says otherwise), with one
   * config for all or one per input. With `returnExceptions: true` a failed input's error takes
   * its place in the results instead of rejecting the batch (LangChain.js's `Runnable.batch`).
   */
  async batch(
    inputs: unknown[],
    config?: ToolRunnableConfig | ToolRunnableConfig[],
    options?: BatchOptions,
  ): Promise<unknown[]> {
    return runBatch<unknown, ToolRunnableConfig, unknown>(inputs, config, options, (input, runConfig) =>
      this.invoke(input, runConfig),
    );
  }

  /**
   * Runs the tool and streams its result, as a LangChain.js tool (a runnable) does: the stream
   * yields one value, what {@link invoke} returns.
   *
   * @example
   * ```ts
   * for await (const message of await weather.stream(call)) console.log(message.content);
   * ```
   */
  async stream(
    input: unknown,
    config?: ToolRunnableConfig,
  ): Promise<AsyncGenerator<unknown, void, undefined>> {
    return streamOnce(() => this.invoke(input, config));
  }

  /** Validates arguments against the schema; throws {@link ToolInputParsingException}. */
  protected async parseArgs(arg: unknown): Promise<SchemaOutputT> {
    return this.checkArgs(arg);
  }

  /** {@link parseArgs}, synchronous when the schema validates synchronously. */
  private checkArgs(arg: unknown): SchemaOutputT | Promise<SchemaOutputT> {
    const pending = validateArgsNow(this.schema, arg);
    if (pending instanceof Promise) return pending.then((result) => this.argsOf(result, arg));
    return this.argsOf(pending, arg);
  }

  private argsOf(result: Awaited<ReturnType<typeof validateArgsNow>>, arg: unknown): SchemaOutputT {
    if (result.success) return result.value as SchemaOutputT;
    // LangChain.js's `output` is `JSON.stringify(arg)`: undefined for missing arguments
    const received = arg === undefined ? undefined : safeJson(arg);
    let message = "Received tool input did not match expected schema";
    // LangChain.js's verbose form: the issues as JSON after `Details:`, then the readable list
    if (this.verboseParsingErrors) message += `\nDetails: ${safeJson(result.issues, 2)}`;
    // LangChain.js lists the problems only for a Zod schema: a plain JSON Schema's refusal is
    // the bare sentence (what the model reads in the error ToolMessage)
    if (isStandardSchema(this.schema)) message += `\n\n${formatIssues(result.issues)}`;
    throw new ToolInputParsingException(message, received);
  }
}

/**
 * What LangChain.js's `ensureConfig` gives every tool call, set on `config` (an object of the
 * caller's own): `tags` `[]`, `metadata` `{}`, `recursionLimit` 25 when missing, `metadata.model`
 * from `configurable.model`, and the `timeout` made part of the signal.
 *
 * @internal
 */
export function applyConfigDefaults(config: ToolRunnableConfig): void {
  config.tags ??= [];
  config.metadata = withModelMetadata(config.metadata ?? {}, config.configurable);
  config.recursionLimit ??= 25;
  if (config.timeout !== undefined) applyTimeout(config);
}

/**
 * The metadata with `model` added from `configurable.model` when it is a string and the
 * metadata has none (what LangChain.js's `ensureConfig` adds); the same object otherwise.
 */
function withModelMetadata(
  metadata: Record<string, unknown>,
  configurable: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const model = configurable?.model;
  return typeof model === "string" && metadata.model === undefined ? { ...metadata, model } : metadata;
}

/**
 * A call's `timeout` (milliseconds) becomes part of its `signal`, recorded as
 * `metadata.timeoutMs` unless set there, and is not passed on, as LangChain.js's `ensureConfig`
 * does; a timeout that is not a positive number is refused.
 */
function applyTimeout(config: ToolRunnableConfig): void {
  const ms = config.timeout;
  if (typeof ms !== "number" || !(ms > 0)) {
    throw new InvalidArgumentError(
      `Timeout must be a positive number (got ${String(ms)}): \`timeout\` is the call's time limit in milliseconds; leave it out for no limit.`,
    );
  }
  const timer = AbortSignal.timeout(ms);
  config.signal = config.signal === undefined ? timer : AbortSignal.any([config.signal, timer]);
  if (config.metadata?.timeoutMs === undefined) config.metadata = { ...config.metadata, timeoutMs: ms };
  (config as { timeout?: number | undefined }).timeout = undefined;
}

function safeJson(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, jsonSafe, indent) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A stream of one value: the tool runs when the stream is first read. */
async function* streamOnce(run: () => Promise<unknown>): AsyncGenerator<unknown, void, undefined> {
  yield await run();
}

/** Writes bigints (which `JSON.stringify` rejects) as their decimal text. */
function jsonSafe(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

/** The input of `invoke` is a tool call: an object with `type: "tool_call"`. */
function isToolCallTyped(value: unknown): value is ToolCall {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "tool_call";
}

function raceWithSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return raceSignal(
    promise,
    signal,
    () => new AbortError("The tool call was aborted.", { cause: (signal as AbortSignal).reason }),
  );
}

/** An object with a `next` method: what an `async function*` (or `function*`) tool returns, as LangChain.js detects it. */
function isGeneratorLike(value: unknown): value is AsyncGenerator<unknown, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { next?: unknown }).next === "function" &&
    !isCommandLike(value)
  );
}

/**
 * Runs a tool's generator to its end: each value it yields goes to the run's `handleToolEvent`
 * (the `tools` stream's `on_tool_event`), and its return value is the tool's result. A handler
 * with `raiseError` that throws there reports a tool error and the generator goes on, as in
 * LangChain.js (see `ToolRunManager.handleToolEvent`).
 */
async function drainToolGenerator(
  generator: AsyncGenerator<unknown, unknown>,
  run: ToolRunManager | undefined,
): Promise<unknown> {
  try {
    let step = await generator.next();
    while (step.done !== true) {
      run?.handleToolEvent(step.value);
      step = await generator.next();
    }
    return step.value;
  } finally {
    await generator.return?.(undefined);
  }
}
