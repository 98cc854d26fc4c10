import type { AIMessage } from "../../messages/index.js";
import { type BatchOptions, InvalidArgumentError, runBatch } from "../../shared/index.js";
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
import type { BaseLanguageModelInput, BindToolsOptions, StructuredOutputOptions } from "./types.js";

/** What structured output needs from a model. */
export interface StructuredOutputModel {
  getName(): string;
  invoke(input: BaseLanguageModelInput, options?: Record<string, unknown>): Promise<AIMessage>;
  bindTools(
    tools: BindToolsInput[],
    options?: BindToolsOptions,
  ): {
    invoke(input: BaseLanguageModelInput, options?: Record<string, unknown>): Promise<AIMessage>;
  };
}

type Invoker = (input: BaseLanguageModelInput, options?: Record<string, unknown>) => Promise<AIMessage>;

/**
 * What `withStructuredOutput` returns: a runnable whose `invoke` makes one model call and
 * returns the parsed data (or `{ raw, parsed }` with `includeRaw`).
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
  ) {}

  async invoke(input: BaseLanguageModelInput, options?: Record<string, unknown>): Promise<RunOutput> {
    const raw = await this.call(input, mergeCallOptions(this.config, options));
    if (!this.includeRaw) return (await this.parse(raw)) as RunOutput;
    try {
      return { raw, parsed: await this.parse(raw) } as RunOutput;
    } catch (error) {
      // `parsing_error` is Python's field; LangChain.js answers `{ raw, parsed: null }`, so it is
      // kept out of the keys (and out of deep equality) while staying readable.
      const result = { raw, parsed: null };
      Object.defineProperty(result, "parsing_error", { value: error, writable: true, configurable: true });
      return result as RunOutput;
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

  /** Yields the parsed result once (structured output is not streamed piecewise). */
  async stream(
    input: BaseLanguageModelInput,
    options?: Record<string, unknown>,
  ): Promise<AsyncGenerator<RunOutput>> {
    const value = await this.invoke(input, options);
    return (async function* () {
      yield value;
    })();
  }

  withConfig(config: Record<string, unknown>): StructuredOutputRunnable<RunOutput> {
    return new StructuredOutputRunnable(
      this.call,
      this.parse,
      this.includeRaw,
      mergeCallOptions(this.config, config),
    );
  }
}

type Method = "functionCalling" | "jsonSchema" | "jsonMode";

/**
 * A model's `withStructuredOutput` defaults: the default method, the methods it supports, and
 * whether a JSON Schema's own `name` names the tool even over `options.name` (LangChain.js's
 * base implementation, used by custom models).
 */
export interface StructuredOutputDefaults {
  method: Method;
  supported: ReadonlyArray<Method>;
  strictJsonSchema?: boolean;
  nameFromSchema?: boolean;
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
    throw new OutputParserException(
      `The model's structured output does not match the schema:\n${formatIssues(result.issues)}`,
      raw,
    );
  };
  const includeRaw = options.includeRaw === true;
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
        // LangChain.js's texts first, then what to check
        throw new OutputParserException(
          `${message.tool_calls.length === 0 ? "No tool calls found in the response." : `No tool call found with name ${name}.`} ` +
            `There is no structured output: check that the model supports tool calling and follows tool_choice (it was told to call "${name}").`,
          message.text,
        );
      }
      return validate(call.args, JSON.stringify(call.args));
    };
    return new StructuredOutputRunnable((input, opts) => bound.invoke(input, opts), parse, includeRaw);
  }
  // A model's strict default applies to schema objects (Zod, Standard Schema), not to plain JSON Schema.
  const strict =
    options.strict ?? (defaults.strictJsonSchema === true && isStandardSchema(schema) ? true : undefined);
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
        `The model's answer is not valid JSON: ${(error as Error).message}`,
        message.text,
        error,
      );
    }
    return validate(value, message.text);
  };
  return new StructuredOutputRunnable(
    (input, opts) => model.invoke(input, mergeCallOptions({ response_format: responseFormat }, opts)),
    parse,
    includeRaw,
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
