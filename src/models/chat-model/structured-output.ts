import { AIMessage, type AIMessageChunk, parsePartialJson } from "../../messages/index.js";
import { type BatchOptions, InvalidArgumentError, runBatch, sameJsonValue } from "../../shared/index.js";
import {
  type BindToolsInput,
  formatIssues,
  isStandardSchema,
  type JsonSchema,
  type StandardSchemaLike,
  toJsonSchema,
  toStrictJsonSchema,
  validateArgs,
} from "../../tools/index.js";
import { OutputParserException } from "../errors/configuration-errors.js";
import { mergeCallOptions } from "./merge-options.js";
import { toAIMessage } from "./message-conversion.js";
import type { BaseLanguageModelInput, BindToolsOptions, StructuredOutputOptions } from "./types.js";

/** What structured output needs from a model (`stream`, when there, is what `stream()` uses). */
export interface StructuredOutputModel {
  getName(): string;
  invoke(input: BaseLanguageModelInput, options?: Record<string, unknown>): Promise<AIMessage>;
  stream?(
    input: BaseLanguageModelInput,
    options?: Record<string, unknown>,
  ): Promise<AsyncIterable<AIMessageChunk>>;
  bindTools(
    tools: BindToolsInput[],
    options?: BindToolsOptions,
  ): {
    invoke(input: BaseLanguageModelInput, options?: Record<string, unknown>): Promise<AIMessage>;
    stream?(
      input: BaseLanguageModelInput,
      options?: Record<string, unknown>,
    ): Promise<AsyncIterable<AIMessageChunk>>;
  };
}

type Invoker = (input: BaseLanguageModelInput, options?: Record<string, unknown>) => Promise<AIMessage>;
type Streamer = (
  input: BaseLanguageModelInput,
  options?: Record<string, unknown>,
) => Promise<AsyncIterable<AIMessageChunk>>;

/**
 * How `stream()` reads the streamed answer, as LangChain.js's parsers do: `"final"` parses the
 * joined answer once (as `invoke`), `"toolArgs"` yields the partial arguments of the first call
 * of the tool `name` as they arrive, `"json"` the partial JSON of the text (a Markdown fence
 * around it is skipped). The partial forms yield a value only when it differs from the last one
 * and do not validate it.
 */
export type StructuredStreamMode = { kind: "final" } | { kind: "toolArgs"; name: string } | { kind: "json" };

/** How a structured-output runnable streams: the model call that streams, and how to read it. */
export interface StructuredStreaming {
  call: Streamer;
  mode: StructuredStreamMode;
}

/**
 * What `withStructuredOutput` returns: a runnable whose `invoke` makes one model call and
 * returns the parsed data (or `{ raw, parsed }` with `includeRaw`), and whose `stream` streams
 * that call (see {@link StructuredOutputRunnable.stream}). Without `streaming`, `stream`
 * yields the `invoke` result once.
 *
 * @example
 * ```ts
 * const person = await model.withStructuredOutput(Person).invoke("Ada is 36");
 * ```
 */
export class StructuredOutputRunnable<RunOutput> {
  constructor(
    private readonly call: Invoker,
    private readonly parse: (message: AIMessage) => Promise<unknown>,
    private readonly includeRaw: boolean,
    private readonly config: Record<string, unknown> = {},
    private readonly streaming?: StructuredStreaming,
  ) {}

  async invoke(input: BaseLanguageModelInput, options?: Record<string, unknown>): Promise<RunOutput> {
    const raw = await this.call(input, mergeCallOptions(this.config, options));
    if (!this.includeRaw) return (await this.parse(raw)) as RunOutput;
    return (await this.withParsed(raw, { raw })) as RunOutput;
  }

  /**
   * `result` with `parsed` set to what `raw` parses to, or to `null` with a non-enumerable
   * `parsing_error` when parsing fails.
   */
  private async withParsed<T extends object>(raw: AIMessage, result: T): Promise<T & { parsed: unknown }> {
    try {
      return Object.assign(result, { parsed: await this.parse(raw) });
    } catch (error) {
      // `parsing_error` is Python's field; LangChain.js answers `{ raw, parsed: null }`, so it is
      // kept out of the keys (and out of deep equality) while staying readable.
      const answer = Object.assign(result, { parsed: null });
      Object.defineProperty(answer, "parsing_error", { value: error, writable: true, configurable: true });
      return answer;
    }
  }

  batch(
    inputs: BaseLanguageModelInput[],
    options?: Record<string, unknown> | Record<string, unknown>[],
    batchOptions?: BatchOptions & { returnExceptions?: false },
  ): Promise<RunOutput[]>;
  batch(
    inputs: BaseLanguageModelInput[],
    options: Record<string, unknown> | Record<string, unknown>[] | undefined,
    batchOptions: BatchOptions & { returnExceptions: true },
  ): Promise<(RunOutput | Error)[]>;
  batch(
    inputs: BaseLanguageModelInput[],
    options?: Record<string, unknown> | Record<string, unknown>[],
    batchOptions?: BatchOptions,
  ): Promise<(RunOutput | Error)[]>;
  batch(
    inputs: BaseLanguageModelInput[],
    options?: Record<string, unknown> | Record<string, unknown>[],
    batchOptions?: BatchOptions,
  ): Promise<(RunOutput | Error)[]> {
    return runBatch<BaseLanguageModelInput, Record<string, unknown>, RunOutput>(
      inputs,
      options,
      batchOptions,
      (input, opts) => this.invoke(input, opts),
    );
  }

  /**
   * Streams the model's answer and yields what LangChain.js's structured-output parsers yield:
   * with function calling on a provider that streams arguments (`ChatOpenAI`), each new partial
   * object as the call's arguments arrive (`{}`, `{ name: "Ad" }`, `{ name: "Ada" }`, …, not
   * validated; nothing when the answer has no call of the tool); with a JSON method and a plain
   * JSON Schema, each new partial value of the text; otherwise the one result `invoke` returns.
   * With `includeRaw`, a `{ raw }` chunk (the joined answer) then a `{ parsed }` one (`null` when
   * parsing fails). As in LangChain.js, await the call, then iterate: the first value is
   * computed before `stream` resolves, so its errors surface there.
   *
   * @example
   * ```ts
   * for await (const partial of await model.withStructuredOutput(Person, { method: "functionCalling" }).stream("Ada is 36"))
   *   console.log(partial); // {}, { name: "Ad" }, { name: "Ada" }, { name: "Ada", age: 36 }
   * ```
   */
  async stream(
    input: BaseLanguageModelInput,
    options?: Record<string, unknown>,
  ): Promise<AsyncGenerator<RunOutput>> {
    const streaming = this.streaming;
    if (streaming === undefined) {
      const value = await this.invoke(input, options);
      return (async function* () {
        yield value;
      })();
    }
    const chunks = await streaming.call(input, mergeCallOptions(this.config, options));
    const generator = this.read(chunks, streaming.mode);
    const first = await generator.next();
    return (async function* () {
      if (first.done) return;
      yield first.value;
      yield* generator;
    })();
  }

  private async *read(
    chunks: AsyncIterable<AIMessageChunk>,
    mode: StructuredStreamMode,
  ): AsyncGenerator<RunOutput> {
    let whole: AIMessageChunk | undefined;
    // the partial forms (LangChain.js's cumulative parsers) read the answer so far after each
    // chunk that can change it; `includeRaw` and "final" only need the joined answer
    const partial = this.includeRaw ? undefined : mode.kind === "final" ? undefined : mode;
    let text = "";
    let previous: unknown;
    for await (const chunk of chunks) {
      whole = whole === undefined ? chunk : whole.concat(chunk);
      if (partial === undefined) continue;
      let value: unknown;
      if (partial.kind === "toolArgs") {
        if (chunk.tool_call_chunks.length === 0 && chunk.tool_calls.length === 0) continue;
        value = whole.tool_calls.find((call) => call.name === partial.name)?.args;
      } else {
        const piece = chunk.text;
        if (piece.length === 0) continue;
        text += piece;
        value = parseJsonMarkdown(text);
      }
      if (value === undefined || value === null || sameJsonValue(value, previous)) continue;
      previous = value;
      yield value as RunOutput;
    }
    if (partial !== undefined) return;
    const raw = whole === undefined ? new AIMessage({ content: "" }) : toAIMessage(whole);
    if (!this.includeRaw) {
      yield (await this.parse(raw)) as RunOutput;
      return;
    }
    yield { raw } as RunOutput;
    yield (await this.withParsed(raw, {})) as RunOutput;
  }

  withConfig(config: Record<string, unknown>): StructuredOutputRunnable<RunOutput> {
    return new StructuredOutputRunnable(
      this.call,
      this.parse,
      this.includeRaw,
      mergeCallOptions(this.config, config),
      this.streaming,
    );
  }
}

type Method = "functionCalling" | "jsonSchema" | "jsonMode";

/**
 * A model's `withStructuredOutput` defaults: the default method, the methods it supports,
 * whether a JSON Schema's own `name` names the tool even over `options.name` (LangChain.js's
 * base implementation, used by custom models), and whether `stream()` with function calling
 * yields the call's partial arguments (`streamsToolArgs`, as `@langchain/openai` does) rather
 * than the one parsed result.
 */
export interface StructuredOutputDefaults {
  method: Method;
  supported: ReadonlyArray<Method>;
  strictJsonSchema?: boolean;
  nameFromSchema?: boolean;
  streamsToolArgs?: boolean;
  /**
   * LangChain.js's `ls_structured_output_format` call option for a method, its tool's or
   * output's name and JSON Schema: what the provider's `withStructuredOutput` adds to the calls'
   * options (callbacks see it in `handleChatModelStart`'s `extraParams.options`); none when unset.
   */
  tracingFormat?: (method: Method, name: string, schema: JsonSchema) => Record<string, unknown>;
  /** The first words of the error for an answer without tool calls (`"No tool calls found in the response."`). */
  noToolCallText?: string;
}

/**
 * Builds the structured-output runnable of a model (see `BaseChatModel.withStructuredOutput`).
 *
 * @example
 * ```ts
 * structuredOutputFor(model, schema, { name: "person" }, { method: "functionCalling", supported: ["functionCalling"] });
 * ```
 */
export function structuredOutputFor(
  model: StructuredOutputModel,
  schema: StandardSchemaLike | JsonSchema,
  options: StructuredOutputOptions,
  defaults: StructuredOutputDefaults,
): StructuredOutputRunnable<unknown> {
  let method = options.method ?? defaults.method;
  const baseOnly = defaults.supported.length === 1 && defaults.supported[0] === "functionCalling";
  // LangChain.js's base implementation rejects only "jsonMode" and answers every other method
  // with function calling.
  if (baseOnly && method === "jsonSchema") method = "functionCalling";
  if (!defaults.supported.includes(method)) {
    throw new InvalidArgumentError(
      (baseOnly
        ? 'Base withStructuredOutput implementation only supports "functionCalling" as a method. '
        : "") +
        `${model.getName()} does not support withStructuredOutput method "${method}". ` +
        `Use one of: ${defaults.supported.map((m) => `"${m}"`).join(", ")}.`,
    );
  }
  // An OpenAI-style function definition `{ name, description?, parameters }` names itself.
  const fn = asFunctionDefinition(schema);
  const jsonSchema = fn === undefined ? toJsonSchema(schema) : fn.parameters;
  const schemaDescription = fn === undefined ? jsonSchema.description : fn.description;
  // LangChain.js's base implementation names the tool "extract" unless told otherwise, and a
  // JSON Schema's own `name` wins even over `options.name` (`nameFromSchema`, custom models
  // only); provider models take a JSON Schema's title
  const ownName =
    !isStandardSchema(schema) && typeof (schema as { name?: unknown }).name === "string"
      ? (schema as { name: string }).name
      : undefined;
  // a provider model's tool: a plain JSON Schema's title names it even over `options.name`, as
  // LangChain.js's ChatOpenAI names it; its json_schema output is named by `options.name` only
  const title = typeof jsonSchema.title === "string" ? jsonSchema.title : undefined;
  const plainTitle = fn === undefined && !isStandardSchema(schema) ? title : undefined;
  const name =
    baseOnly && defaults.nameFromSchema === true
      ? (ownName ?? options.name ?? "extract")
      : baseOnly
        ? (options.name ?? fn?.name ?? ownName ?? "extract")
        : method === "functionCalling"
          ? (plainTitle ?? options.name ?? fn?.name ?? title ?? "extract")
          : (options.name ?? fn?.name ?? "extract");
  const validate = async (value: unknown, raw: string) => {
    if (!isStandardSchema(schema)) return value;
    const result = await validateArgs(schema, value);
    if (result.success) return result.value;
    // LangChain.js's parsers' words first
    throw new OutputParserException(
      `Failed to parse. Text: "${raw}". Error: The model's structured output does not match the schema:\n${formatIssues(result.issues)}`,
      raw,
    );
  };
  const includeRaw = options.includeRaw === true;
  const tracing = (kind: Method) =>
    defaults.tracingFormat === undefined
      ? {}
      : { ls_structured_output_format: defaults.tracingFormat(kind, name, jsonSchema) };
  if (method === "functionCalling") {
    // a plain JSON Schema without a description is described "" to a provider, as LangChain.js does
    const description =
      typeof schemaDescription === "string"
        ? schemaDescription
        : !baseOnly && fn === undefined && !isStandardSchema(schema)
          ? ""
          : undefined;
    // the base implementation binds the tool in OpenAI's form, described as LangChain.js
    // describes it, so a custom model's own bindTools gets what it gets there
    const tool: BindToolsInput = baseOnly
      ? {
          type: "function",
          function: {
            name,
            description: description ?? "A function available to call.",
            parameters: jsonSchema,
          },
        }
      : { name, ...(description === undefined ? {} : { description }), parameters: jsonSchema };
    const bound = model.bindTools([tool], {
      tool_choice: name,
      ...(options.strict === undefined ? {} : { strict: options.strict }),
      ...tracing("functionCalling"),
    });
    const parse = async (message: AIMessage) => {
      const call = message.tool_calls.find((c) => c.name === name);
      if (call === undefined) {
        const invalid = message.invalid_tool_calls.find((c) => c.name === name);
        if (invalid !== undefined) {
          throw new OutputParserException(
            `The model called "${name}" with arguments that are not valid JSON.`,
            invalid.args,
          );
        }
        // LangChain.js's texts first (the provider's parser's, when it has its own), then what to check
        throw new OutputParserException(
          `${message.tool_calls.length === 0 ? (defaults.noToolCallText ?? "No tool calls found in the response.") : `No tool call found with name ${name}.`} ` +
            `There is no structured output: check that the model supports tool calling and follows tool_choice (it was told to call "${name}").`,
          message.text,
        );
      }
      // the arguments as LangChain.js's tools parser quotes them
      return validate(call.args, JSON.stringify(call.args, null, 2));
    };
    const stream = bound.stream;
    return new StructuredOutputRunnable(
      (input, opts) => bound.invoke(input, opts),
      parse,
      includeRaw,
      {},
      stream === undefined
        ? undefined
        : {
            call: (input, opts) => stream.call(bound, input, opts),
            mode: defaults.streamsToolArgs === true ? { kind: "toolArgs", name } : { kind: "final" },
          },
    );
  }
  // A model's strict default applies to Zod schemas (3 or 4), not to other Standard Schemas nor to
  // plain JSON Schema, as LangChain.js's ChatOpenAI has it.
  const zod = isStandardSchema(schema) && schema["~standard"].vendor === "zod";
  const strict = options.strict ?? (defaults.strictJsonSchema === true && zod ? true : undefined);
  const responseFormat =
    method === "jsonMode"
      ? { type: "json_object" }
      : {
          type: "json_schema",
          json_schema: {
            name,
            ...(typeof schemaDescription === "string" ? { description: schemaDescription } : {}),
            schema: strict === true ? toStrictJsonSchema(jsonSchema) : jsonSchema,
            ...(strict === undefined ? {} : { strict }),
          },
        };
  const parse = async (message: AIMessage) => {
    const refusal = message.additional_kwargs.refusal;
    if (typeof refusal === "string") {
      throw new OutputParserException(`The model refused to answer: ${refusal}`, message.text);
    }
    const text = message.text.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, "$1");
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new OutputParserException(
        `Failed to parse. Text: "${message.text}". Error: ${String(error)}. The model's answer is not valid JSON.`,
        message.text,
        error,
      );
    }
    return validate(value, message.text);
  };
  const callOptions = { response_format: responseFormat, ...tracing(method) };
  const stream = model.stream;
  return new StructuredOutputRunnable(
    (input, opts) => model.invoke(input, mergeCallOptions(callOptions, opts)),
    parse,
    includeRaw,
    {},
    stream === undefined
      ? undefined
      : {
          call: (input, opts) => stream.call(model, input, mergeCallOptions(callOptions, opts)),
          // a schema object's result is validated, so it comes whole; a plain JSON Schema's
          // streams as partial JSON (LangChain.js's JsonOutputParser)
          mode: isStandardSchema(schema) ? { kind: "final" } : { kind: "json" },
        },
  );
}

function asFunctionDefinition(
  schema: unknown,
): { name: string; description?: unknown; parameters: JsonSchema } | undefined {
  if (isStandardSchema(schema) || typeof schema !== "object" || schema === null) return undefined;
  const candidate = schema as { name?: unknown; description?: unknown; parameters?: unknown };
  if (
    typeof candidate.name !== "string" ||
    typeof candidate.parameters !== "object" ||
    candidate.parameters === null
  ) {
    return undefined;
  }
  return {
    name: candidate.name,
    description: candidate.description,
    parameters: candidate.parameters as JsonSchema,
  };
}

/**
 * The JSON value a model's text holds so far (`null` when it cannot be the start of one): the
 * text inside the first Markdown code fence when there is one (its `json` tag dropped), parsed
 * as partial JSON, as LangChain.js's `parseJsonMarkdown` reads it.
 */
function parseJsonMarkdown(text: string): unknown {
  const trimmed = text.trim();
  const fence = trimmed.indexOf("```");
  if (fence === -1) return parsePartialJson(trimmed);
  let inside = trimmed.slice(fence + 3);
  if (inside.startsWith("json\n")) inside = inside.slice(5);
  else if (inside.startsWith("json")) inside = inside.slice(4);
  else if (inside.startsWith("\n")) inside = inside.slice(1);
  const closing = inside.indexOf("```");
  return parsePartialJson((closing === -1 ? inside : inside.slice(0, closing)).trim());
}
