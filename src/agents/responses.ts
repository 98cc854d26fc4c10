import type { AIMessage } from "../messages/index.js";
import { InvalidArgumentError } from "../shared/index.js";
import {
  type InferSchemaOutput,
  isStandardSchema,
  isZod3Schema,
  isZodSchema,
  type JsonSchema,
  mapJsonSchema,
  type StandardSchemaLike,
  toJsonSchema,
  toStrictJsonSchema,
} from "../tools/index.js";
import { StructuredOutputParsingError } from "./errors.js";
import { schemaErrors } from "./schema-check.js";

/** Description of a structured-output tool whose schema has none (LangChain.js's text). */
export const DEFAULT_STRUCTURED_TOOL_DESCRIPTION =
  "Tool for extracting structured output from the model's response.";

let extractCounter = 0;

/** Strategies whose tool name was minted (`extract-<n>`), not taken from the schema. */
const mintedNames = new WeakSet<object>();

/**
 * What `handleError` of {@link toolStrategy} may be: `true` (default: show the error's message
 * to the model and ask again), `false` (throw), a fixed message, or a function of the error
 * returning the message.
 *
 * @example
 * ```ts
 * const handleError: StructuredOutputErrorHandler = (error) => `Try again: ${(error as Error).message}`;
 * ```
 */
export type StructuredOutputErrorHandler = boolean | string | ((error: unknown) => string | Promise<string>);

/**
 * Options of {@link toolStrategy}.
 *
 * @example
 * ```ts
 * const options: ToolStrategyOptions = { toolMessageContent: "Done.", handleError: false };
 * ```
 */
export interface ToolStrategyOptions {
  /** Content of the AI message the agent adds after a successful parse (default `Returning structured response: <json>`). */
  toolMessageContent?: string;
  /** What happens when the model's structured answer is invalid (default `true`: retry). */
  handleError?: StructuredOutputErrorHandler;
}

/**
 * A schema the agent can ask for: a Zod 4 (Standard Schema) schema or a JSON Schema object.
 *
 * @example
 * ```ts
 * const schema: ResponseSchema = { title: "Person", type: "object", properties: { name: { type: "string" } } };
 * ```
 */
export type ResponseSchema<T = unknown> = StandardSchemaLike<T> | JsonSchema;

/**
 * Structured output through a tool call: the schema is offered to the model as a tool (named by
 * the JSON Schema's `title`, else `extract-<n>`), the model is made to call a tool
 * (`tool_choice: "any"`), and the call's arguments, validated, become `structuredResponse`.
 * Made by {@link toolStrategy}.
 *
 * @example
 * ```ts
 * const [strategy] = toolStrategy(z.object({ city: z.string() }).meta({ title: "Weather" }));
 * strategy.name; // "Weather"
 * ```
 */
export class ToolStrategy<T = Record<string, unknown>> {
  readonly kind = "tool" as const;
  /**
   * The schema as JSON Schema, as LangChain.js keeps it: a Zod or Standard Schema converted
   * (the same object as {@link jsonSchema}), a JSON Schema or function definition as given
   * (without `$schema`).
   */
  readonly schema: JsonSchema;
  /** The JSON Schema the tool call's arguments are checked against (the tool's `parameters`). */
  readonly jsonSchema: JsonSchema;
  /** The tool offered to the model, in OpenAI's function format. */
  readonly tool: {
    type: "function";
    function: { name: string; description: string; parameters: JsonSchema; strict?: boolean };
  };
  /** The options given to {@link toolStrategy} (`undefined` when none were, as in LangChain.js). */
  readonly options: ToolStrategyOptions | undefined;

  constructor(schema: ResponseSchema<T>, options?: ToolStrategyOptions) {
    this.options = options;
    // a schema library's schema (zod 3 releases before Standard Schema included) is converted
    const standard = isStandardSchema(schema) || isZod3Schema(schema);
    const named = !standard ? functionShape(schema as JsonSchema) : undefined;
    if (named !== undefined) {
      this.schema = toJsonSchema(schema);
      this.jsonSchema = named.parameters;
      this.tool = { type: "function", function: named };
      return;
    }
    this.jsonSchema = structuredJsonSchema(schema);
    this.schema = this.jsonSchema;
    const title = this.jsonSchema.title;
    const description = this.jsonSchema.description;
    const titled = typeof title === "string" && title !== "";
    if (!titled) mintedNames.add(this);
    const name = titled ? title : `extract-${++extractCounter}`;
    // as LangChain.js: a converted schema gets a default description and `strict: false`, a
    // JSON Schema given by the user becomes a plain function definition (empty description)
    this.tool = standard
      ? {
          type: "function",
          function: {
            name,
            description: typeof description === "string" ? description : DEFAULT_STRUCTURED_TOOL_DESCRIPTION,
            parameters: this.jsonSchema,
            strict: false,
          },
        }
      : {
          type: "function",
          function: {
            name,
            description: typeof description === "string" ? description : "",
            parameters: this.jsonSchema,
          },
        };
  }

  /** The strategy of one schema (LangChain.js's static constructor; `toolStrategy` makes a list). */
  static fromSchema<T = Record<string, unknown>>(
    schema: ResponseSchema<T>,
    options?: ToolStrategyOptions,
  ): ToolStrategy<T> {
    return new ToolStrategy(schema, options);
  }

  /** The tool's name. */
  get name(): string {
    return this.tool.function.name;
  }

  /**
   * Checks a tool call's arguments against {@link jsonSchema} and returns them as they are
   * (as LangChain.js does: Zod defaults and transforms are not applied); throws
   * {@link StructuredOutputParsingError} listing the problems.
   */
  parse(args: unknown): T {
    const errors = schemaErrors(this.jsonSchema, args);
    if (errors.length > 0) throw new StructuredOutputParsingError(this.name, errors);
    return args as T;
  }
}

/**
 * Structured output through the provider's native JSON-schema mode: the schema is sent as the
 * request's response format and the model's JSON text, validated, becomes
 * `structuredResponse`. Made by {@link providerStrategy}.
 *
 * @example
 * ```ts
 * const strategy = providerStrategy(z.object({ city: z.string() }), { strict: false });
 * strategy.strict; // false
 * ```
 */
export class ProviderStrategy<T = Record<string, unknown>> {
  readonly kind = "provider" as const;
  /** The schema as JSON Schema, as LangChain.js keeps it (the same object as {@link jsonSchema}). */
  readonly schema: JsonSchema;
  /** The JSON Schema sent as the response format and checked against the model's answer. */
  readonly jsonSchema: JsonSchema;
  /** Ask the provider to follow the schema strictly (default `true`). */
  readonly strict: boolean;

  constructor(schema: ResponseSchema<T>, strict = true) {
    this.jsonSchema = structuredJsonSchema(schema);
    this.schema = this.jsonSchema;
    this.strict = strict;
  }

  /** The strategy of `schema` (LangChain.js's static constructor); `strict` defaults to `true`. */
  static fromSchema<T = Record<string, unknown>>(
    schema: ResponseSchema<T>,
    strict = true,
  ): ProviderStrategy<T> {
    return new ProviderStrategy(schema, strict);
  }

  /** The name sent with the schema (its `title`, else `"extract"`). */
  get name(): string {
    const title = this.jsonSchema.title;
    return typeof title === "string" && title !== "" ? title : "extract";
  }

  /**
   * Parses the first text block of `message` as JSON and checks it against
   * {@link jsonSchema}; the parsed value as it is, or `undefined` when there is no text, the
   * text is not JSON, or it does not satisfy the schema.
   */
  parse(message: AIMessage): T | undefined {
    const text = firstText(message);
    if (text === undefined || text === "") return undefined;
    try {
      const data: unknown = JSON.parse(text);
      return schemaErrors(this.jsonSchema, data).length === 0 ? (data as T) : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Either strategy. */
export type ResponseStrategy<T = unknown> = ToolStrategy<T> | ProviderStrategy<T>;

/**
 * The `responseFormat` option of `createAgent`: a schema (Zod 4 or JSON Schema; provider-native
 * output when the model's profile supports it, else a tool), a list of schemas (one tool
 * each), `toolStrategy(...)` or `providerStrategy(...)`.
 *
 * @example
 * ```ts
 * const format: ResponseFormatInput = toolStrategy([Weather, Forecast]);
 * ```
 */
export type ResponseFormatInput =
  | ResponseSchema
  | readonly ResponseSchema[]
  | readonly ToolStrategy<unknown>[]
  | ToolStrategy<unknown>
  | ProviderStrategy<unknown>;

/**
 * The type of `structuredResponse` for a `responseFormat`.
 *
 * @example
 * ```ts
 * type Out = InferResponse<ProviderStrategy<{ city: string }>>; // { city: string }
 * ```
 */
export type InferResponse<F> =
  F extends ToolStrategy<infer T>
    ? T
    : F extends ProviderStrategy<infer T>
      ? T
      : F extends readonly ToolStrategy<infer T>[]
        ? T
        : F extends StandardSchemaLike
          ? InferSchemaOutput<F>
          : F extends readonly (infer S)[]
            ? S extends StandardSchemaLike
              ? InferSchemaOutput<S>
              : Record<string, unknown>
            : Record<string, unknown>;

/**
 * Structured output through tool calling, as LangChain.js's `toolStrategy`: one tool per schema
 * (a list lets the model choose among several shapes). `handleError` decides what happens when
 * the model's arguments are invalid or it calls several structured tools at once.
 *
 * @example
 * ```ts
 * const agent = createAgent({
 *   model,
 *   tools: [],
 *   responseFormat: toolStrategy(z.object({ city: z.string(), sunny: z.boolean() }), {
 *     handleError: "Please answer with a city and whether it is sunny.",
 *   }),
 * });
 * const { structuredResponse } = await agent.invoke({ messages: [{ role: "user", content: "Suzhou?" }] });
 * ```
 */
export function toolStrategy<S extends ResponseSchema>(
  schema: S | readonly S[],
  options?: ToolStrategyOptions,
): ToolStrategy<InferResponse<S>>[] {
  checkSchemas(schema);
  const list = (isSchemaList(schema) ? schema : [schema]) as readonly S[];
  return list.map((item) => new ToolStrategy(item as ResponseSchema<InferResponse<S>>, options));
}

/**
 * Structured output through the provider's native JSON-schema mode, as LangChain.js's
 * `providerStrategy`. `strict` defaults to `true`.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools: [], responseFormat: providerStrategy(Weather, { strict: true }) });
 * ```
 */
export function providerStrategy<S extends ResponseSchema>(
  schema: S | { schema: S; strict?: boolean },
  options: { strict?: boolean } = {},
): ProviderStrategy<InferResponse<S>> {
  if (isSchemaWrapper(schema)) {
    return new ProviderStrategy(
      schema.schema as ResponseSchema<InferResponse<S>>,
      schema.strict ?? options.strict,
    );
  }
  return new ProviderStrategy(schema as ResponseSchema<InferResponse<S>>, options.strict);
}

/**
 * Resolves `responseFormat` for one model call: strategies stay; a list of schemas becomes one
 * tool strategy each; a single bare schema becomes a provider strategy when `nativeSupported`
 * (the model's profile says `structuredOutput`), else a tool strategy. As in LangChain.js, a
 * bare schema is made into a strategy anew at every call, so an untitled one is offered under a
 * new `extract-<n>` name each time; `cache` keeps the converted JSON Schema, so only the name
 * is new.
 */
export function resolveResponseFormat(
  format: unknown,
  nativeSupported: boolean,
  cache: WeakMap<object, ResponseStrategy[]>,
): ResponseStrategy[] {
  if (format === undefined || format === null) return [];
  if (isStrategy(format)) return [format];
  checkResponseFormat(format);
  if (Array.isArray(format)) {
    if (format.length === 0) return [];
    if (format.every(isStrategy)) return format as ResponseStrategy[];
    return renamed(cache, format, () => format.map((item) => new ToolStrategy(item as ResponseSchema)));
  }
  const entry = cached(cache, format as object, () => []);
  const found = entry.find((s) => (nativeSupported ? s.kind === "provider" : s.kind === "tool"));
  if (found !== undefined) return [found.kind === "tool" ? withNewName(found) : found];
  const made: ResponseStrategy = nativeSupported
    ? new ProviderStrategy(format as ResponseSchema)
    : new ToolStrategy(format as ResponseSchema);
  entry.push(made);
  return [made];
}

/**
 * Throws the error {@link resolveResponseFormat} would throw for `format`, without making
 * strategies (so no `extract-<n>` name is used up); `createAgent` checks its option this way.
 */
export function checkResponseFormat(format: unknown): void {
  if (format === undefined || format === null || isStrategy(format)) return;
  if (Array.isArray(format) && format.every(isStrategy)) return;
  checkSchemas(format);
}

/**
 * Throws unless `format` is a schema or a list of schemas of one kind, as LangChain.js checks
 * `responseFormat` and `toolStrategy`'s argument: a single schema is a Standard Schema (Zod 4),
 * a Zod 3 object or a JSON Schema with `properties`; a list holds only Standard Schemas, only
 * Zod objects, or only JSON Schema objects.
 */
function checkSchemas(format: unknown): void {
  if (Array.isArray(format)) {
    const items: unknown[] = format;
    const kinds = [isSerializableSchema, isZodObject, isPlainSchema];
    if (items.length === 0 || kinds.some((kind) => items.every(kind))) return;
    throw new InvalidArgumentError(
      "Invalid response format: list contains mixed types.\nAll items must be either InteropZodObject, Standard Schema, or plain JSON schema objects.",
    );
  }
  const single =
    isSerializableSchema(format) || isZodObject(format) || (isPlainSchema(format) && "properties" in format);
  if (!single) throw new InvalidArgumentError(`Invalid response format: ${String(format)}`);
}

/** A Standard Schema that converts to JSON Schema (any Zod 4 schema; Zod 3 schemas do not). */
function isSerializableSchema(value: unknown): boolean {
  return isStandardSchema(value) && !isZod3Schema(value);
}

/** A Zod object schema, Zod 4 or Zod 3. */
function isZodObject(value: unknown): boolean {
  const zod = value as { _zod?: { def?: { type?: unknown } }; _def?: { typeName?: unknown } } | null;
  if (isZodSchema(value)) return zod?._zod?.def?.type === "object";
  return isZod3Schema(value) && zod?._def?.typeName === "ZodObject";
}

/** An object that is neither a Standard Schema nor a Zod schema: a JSON Schema or function definition. */
function isPlainSchema(value: unknown): value is object {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !isStandardSchema(value) &&
    !isZod3Schema(value)
  );
}

/** The cached strategies of `key` (made by `make` the first time), each under a new name where minted. */
function renamed(
  cache: WeakMap<object, ResponseStrategy[]>,
  key: object,
  make: () => ResponseStrategy[],
): ResponseStrategy[] {
  const entry = cache.get(key);
  if (entry !== undefined) return entry.map((s) => (s.kind === "tool" ? withNewName(s) : s));
  const made = make();
  cache.set(key, made);
  return made;
}

/** `strategy` itself when its name comes from the schema, else a copy under the next `extract-<n>`. */
function withNewName<T>(strategy: ToolStrategy<T>): ToolStrategy<T> {
  if (!mintedNames.has(strategy)) return strategy;
  const copy = Object.assign(Object.create(ToolStrategy.prototype) as ToolStrategy<T>, strategy, {
    tool: { ...strategy.tool, function: { ...strategy.tool.function, name: `extract-${++extractCounter}` } },
  });
  mintedNames.add(copy);
  return copy;
}

function cached(
  cache: WeakMap<object, ResponseStrategy[]>,
  key: object,
  make: () => ResponseStrategy[],
): ResponseStrategy[] {
  let entry = cache.get(key);
  if (entry === undefined) {
    entry = make();
    cache.set(key, entry);
  }
  return entry;
}

/** True for a {@link ToolStrategy} or {@link ProviderStrategy} from any copy of the package. */
export function isStrategy(value: unknown): value is ResponseStrategy {
  if (value instanceof ToolStrategy || value instanceof ProviderStrategy) return true;
  const kind = (value as { kind?: unknown } | null)?.kind;
  return (
    typeof value === "object" &&
    value !== null &&
    (kind === "tool" || kind === "provider") &&
    typeof (value as { parse?: unknown }).parse === "function" &&
    typeof (value as { jsonSchema?: unknown }).jsonSchema === "object"
  );
}

function isSchemaList<S>(value: S | readonly S[]): value is readonly S[] {
  return Array.isArray(value);
}

function isSchemaWrapper<S>(
  value: S | { schema: S; strict?: boolean },
): value is { schema: S; strict?: boolean } {
  return (
    typeof value === "object" &&
    value !== null &&
    !isStandardSchema(value) &&
    "schema" in value &&
    typeof (value as { schema?: unknown }).schema === "object" &&
    !("type" in value)
  );
}

/** A `{ name, parameters }` function definition given as the schema, used as is. */
function functionShape(
  schema: JsonSchema,
): { name: string; description: string; parameters: JsonSchema } | undefined {
  const { name, parameters, description } = schema as {
    name?: unknown;
    parameters?: unknown;
    description?: unknown;
  };
  if (typeof name !== "string" || typeof parameters !== "object" || parameters === null) return undefined;
  return {
    name,
    description: typeof description === "string" ? description : "",
    parameters: parameters as JsonSchema,
  };
}

/** The dialect Zod 4's `toJSONSchema` writes. */
const JSON_SCHEMA_2020_12 = "https://json-schema.org/draft/2020-12/schema";
/** The dialect `zod-to-json-schema` writes for a Zod 3 schema. */
const JSON_SCHEMA_DRAFT_07 = "http://json-schema.org/draft-07/schema#";

/**
 * The JSON Schema of a structured-output schema, as LangChain.js makes it (naming its dialect
 * in `$schema` for a Zod schema): a Zod 4 schema's
 * input side with every object closed (`additionalProperties: false`) and fields with a default
 * required (zod's output-side schema of a strict copy); a Zod 3 (`zod/v3`) schema with every
 * object closed (what `zod-to-json-schema` gives LangChain.js), defaulted fields optional; so
 * the model's arguments are checked as LangChain.js checks them. Other schemas as given
 * (without `$schema`).
 */
function structuredJsonSchema(schema: ResponseSchema): JsonSchema {
  const json = toJsonSchema(schema);
  if (isZodSchema(schema)) {
    return withDialect(
      JSON_SCHEMA_2020_12,
      mapJsonSchema(toStrictJsonSchema(json), requireDefaults) as JsonSchema,
    );
  }
  return isZod3Schema(schema) ? withDialect(JSON_SCHEMA_DRAFT_07, toStrictJsonSchema(json)) : json;
}

/** `json` naming its dialect first (`$schema`), as the converters LangChain.js uses write it. */
function withDialect(dialect: string, json: JsonSchema): JsonSchema {
  return "$schema" in json ? json : { $schema: dialect, ...json };
}

/** A schema node with every field that has a default listed as required (as zod's output side lists them). */
function requireDefaults(node: Record<string, unknown>): Record<string, unknown> {
  if (isRecord(node.properties)) {
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    const list = Object.entries(node.properties)
      .filter(([key, sub]) => required.has(key) || (isRecord(sub) && "default" in sub))
      .map(([key]) => key);
    if (list.length > 0 || "required" in node) node.required = list;
  }
  return node;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function firstText(message: AIMessage): string | undefined {
  const content = message.content;
  if (typeof content === "string") return content;
  for (const block of content) {
    if (typeof block !== "object" || block === null) continue;
    const b = block as { type?: unknown; text?: unknown; thought?: unknown };
    if (b.type === "text" && b.thought !== true && typeof b.text === "string") return b.text;
  }
  return undefined;
}
