import { type BaseMessage, isAIMessage, isToolMessage } from "../../messages/index.js";
import { InvalidArgumentError } from "../../shared/index.js";
import { convertToOpenAITool, isLangChainTool } from "../../tools/index.js";
import { contentText } from "./message-copy.js";

/**
 * A size of the conversation: a `fraction` of the model's input window (from
 * `model.profile.maxInputTokens`, else from the model's name), a number of `tokens`, or a number of `messages`. As a
 * trigger, every key given must be reached (AND); a list of sizes fires when any one does (OR).
 *
 * @example
 * ```ts
 * const trigger: ContextSize = { tokens: 4000, messages: 10 };
 * ```
 */
export interface ContextSize {
  fraction?: number;
  tokens?: number;
  messages?: number;
}

/**
 * How much of the conversation to keep: exactly one of `fraction`, `tokens` or `messages`.
 *
 * @example
 * ```ts
 * const keep: KeepSize = { messages: 20 };
 * ```
 */
export type KeepSize = { fraction: number } | { tokens: number } | { messages: number };

/**
 * Counts the tokens of a list of messages (sync or async).
 *
 * @example
 * ```ts
 * const byMessages: TokenCounter = (messages) => messages.length * 100;
 * ```
 */
export type TokenCounter = (messages: BaseMessage[]) => number | Promise<number>;

/**
 * An estimate of the tokens of `messages`, as LangChain.js's `countTokensApproximately`: one
 * token per four characters of their text, counting an AI message's tool calls (as JSON) and a
 * tool message's `tool_call_id`, plus the JSON of any `tools` given (a LangChain tool counted
 * as its OpenAI function definition, as `convertToOpenAITool` gives it).
 *
 * @example
 * ```ts
 * countTokensApproximately([new HumanMessage("What is the weather in Suzhou?")]); // 8
 * ```
 */
export function countTokensApproximately(
  messages: readonly BaseMessage[],
  tools?: readonly unknown[],
): number {
  let chars = 0;
  for (const t of tools ?? []) {
    chars += JSON.stringify(isLangChainTool(t) ? convertToOpenAITool(t) : t)?.length ?? 0;
  }
  for (const message of messages) {
    let text = contentText(message.content);
    if (isAIMessage(message) && message.tool_calls.length > 0) text += JSON.stringify(message.tool_calls);
    if (isToolMessage(message)) text += message.tool_call_id ?? "";
    chars += text.length;
  }
  return Math.ceil(chars / 4);
}

/**
 * The model's input window, as LangChain.js's `getProfileLimits`: `profile.maxInputTokens` when
 * the profile declares that key (`null` meaning unknown); otherwise looked up from the model's
 * `model` (or `modelName`) string with {@link modelContextSize}.
 */
export function maxInputTokens(model: unknown): number | undefined {
  if (typeof model !== "object" || model === null) return undefined;
  const { profile } = model as { profile?: unknown };
  if (typeof profile === "object" && profile !== null && "maxInputTokens" in profile) {
    const value = (profile as { maxInputTokens?: unknown }).maxInputTokens;
    if (typeof value === "number") return value;
    if (value === null || value === undefined) return undefined;
  }
  const { model: name, modelName } = model as { model?: unknown; modelName?: unknown };
  if (typeof name === "string") return modelContextSize(name);
  if (typeof modelName === "string") return modelContextSize(modelName);
  return undefined;
}

const CONTEXT_SIZES: ReadonlyArray<readonly [number, readonly string[]]> = [
  [400_000, ["gpt-5", "gpt-5-turbo", "gpt-5-turbo-preview"]],
  [
    128_000,
    [
      "gpt-4o",
      "gpt-4o-mini",
      "gpt-4o-2024-05-13",
      "gpt-4o-2024-08-06",
      "gpt-4-turbo",
      "gpt-4-turbo-preview",
      "gpt-4-turbo-2024-04-09",
      "gpt-4-0125-preview",
      "gpt-4-1106-preview",
    ],
  ],
  [32_768, ["gpt-4-32k", "gpt-4-32k-0314", "gpt-4-32k-0613", "gemini-pro", "gemini-pro-vision"]],
  [8192, ["gpt-4", "gpt-4-0314", "gpt-4-0613"]],
  [16_384, ["gpt-3.5-turbo-16k", "gpt-3.5-turbo-16k-0613"]],
  [
    4096,
    ["gpt-3.5-turbo", "gpt-3.5-turbo-0301", "gpt-3.5-turbo-0613", "gpt-3.5-turbo-1106", "gpt-3.5-turbo-0125"],
  ],
  [4097, ["text-davinci-003", "text-davinci-002"]],
  [2049, ["text-davinci-001"]],
  [2048, ["text-curie-001", "text-babbage-001", "text-ada-001", "code-cushman-001"]],
  [8000, ["code-davinci-002", "code-davinci-001"]],
  [
    200_000,
    [
      "claude-3-5-sonnet-20241022",
      "claude-3-5-sonnet-20240620",
      "claude-3-opus-20240229",
      "claude-3-sonnet-20240229",
      "claude-3-haiku-20240307",
      "claude-2.1",
    ],
  ],
  [100_000, ["claude-2.0", "claude-instant-1.2"]],
  [1_000_000, ["gemini-1.5-pro", "gemini-1.5-pro-latest", "gemini-1.5-flash", "gemini-1.5-flash-latest"]],
];

const CONTEXT_SIZE_BY_NAME: ReadonlyMap<string, number> = new Map(
  CONTEXT_SIZES.flatMap(([size, names]) => names.map((name) => [name, size] as const)),
);

/**
 * The input window of a model known by name, as `@langchain/core`'s `getModelContextSize`
 * (the same table: dated names fold into their family, e.g. `gpt-4o-…` → `gpt-4o`); 4097 for a
 * name it does not know.
 *
 * @example
 * ```ts
 * modelContextSize("gpt-4o-2024-11-20"); // 128000
 * modelContextSize("my-local-model"); // 4097
 * ```
 */
export function modelContextSize(name: string): number {
  return CONTEXT_SIZE_BY_NAME.get(tiktokenFamily(name)) ?? 4097;
}

function tiktokenFamily(name: string): string {
  if (name.startsWith("gpt-5")) return "gpt-5";
  if (name.startsWith("gpt-3.5-turbo-16k")) return "gpt-3.5-turbo-16k";
  if (name.startsWith("gpt-3.5-turbo-")) return "gpt-3.5-turbo";
  if (name.startsWith("gpt-4-32k")) return "gpt-4-32k";
  if (name.startsWith("gpt-4-")) return "gpt-4";
  if (name.startsWith("gpt-4o")) return "gpt-4o";
  return name;
}

function isNumber(value: unknown): value is number {
  return typeof value === "number" && !Number.isNaN(value);
}

/** Where in a size option each error from the parsers below is (see {@link sizeErrorPath}). */
const errorPaths = new WeakMap<object, string>();

function sizeError(message: string, path: string): InvalidArgumentError {
  const error = new InvalidArgumentError(message);
  errorPaths.set(error, path);
  return error;
}

/**
 * Where the problem an error of {@link parseContextSize}, {@link parseTrigger} or
 * {@link parseKeep} reports is, inside the option parsed: `".tokens"`, `"[1].fraction"`, or `""`
 * for the size as a whole (LangChain.js's Zod paths, as its option errors print them).
 */
export function sizeErrorPath(error: unknown): string {
  return typeof error === "object" && error !== null ? (errorPaths.get(error) ?? "") : "";
}

/** Validates a trigger size (the reference's messages), returning a clean copy. */
export function parseContextSize(value: unknown): ContextSize {
  if (typeof value !== "object" || value === null) {
    throw sizeError("At least one of fraction, tokens, or messages must be provided", "");
  }
  const { fraction, tokens, messages } = value as Record<string, unknown>;
  const out: ContextSize = {};
  if (fraction !== undefined) {
    if (!isNumber(fraction) || fraction <= 0) throw sizeError("Fraction must be greater than 0", ".fraction");
    if (fraction > 1) throw sizeError("Fraction must be less than or equal to 1", ".fraction");
    out.fraction = fraction;
  }
  if (tokens !== undefined) {
    if (!isNumber(tokens) || tokens <= 0) throw sizeError("Tokens must be greater than 0", ".tokens");
    out.tokens = tokens;
  }
  if (messages !== undefined) {
    if (!isNumber(messages) || !Number.isInteger(messages))
      throw sizeError("Messages must be an integer", ".messages");
    if (messages <= 0) throw sizeError("Messages must be greater than 0", ".messages");
    out.messages = messages;
  }
  if (Object.keys(out).length === 0) {
    throw sizeError("At least one of fraction, tokens, or messages must be provided", "");
  }
  return out;
}

/** Validates a trigger: one size or a list of them. */
export function parseTrigger(value: unknown): ContextSize[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return [parseContextSize(value)];
  return value.map((size, index) => {
    try {
      return parseContextSize(size);
    } catch (error) {
      throw sizeError((error as Error).message, `[${index}]${sizeErrorPath(error)}`);
    }
  });
}

/** Validates a keep size (exactly one key). */
export function parseKeep(value: unknown): KeepSize {
  const record = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const given = (["fraction", "tokens", "messages"] as const).filter((key) => record[key] !== undefined);
  if (given.length !== 1) {
    throw sizeError("Exactly one of fraction, tokens, or messages must be provided", "");
  }
  const key = given[0] as "fraction" | "tokens" | "messages";
  const amount = record[key];
  if (!isNumber(amount)) throw sizeError(`${key} must be a number`, `.${key}`);
  if (key === "fraction") {
    if (amount < 0) throw sizeError("Messages must be non-negative", ".fraction");
    if (amount > 1) throw sizeError("Fraction must be less than or equal to 1", ".fraction");
    return { fraction: amount };
  }
  if (key === "tokens") {
    if (amount < 0) throw sizeError("Tokens must be greater than or equal to 0", ".tokens");
    return { tokens: amount };
  }
  if (!Number.isInteger(amount)) throw sizeError("Messages must be an integer", ".messages");
  if (amount < 0) throw sizeError("Messages must be non-negative", ".messages");
  return { messages: amount };
}

/**
 * Whether any trigger clause holds (every key of a clause must). A `fraction` clause without
 * a known input window does not hold.
 */
export function triggerReached(
  clauses: readonly ContextSize[],
  messageCount: number,
  tokens: number,
  model: unknown,
): boolean {
  for (const clause of clauses) {
    let met = true;
    if (clause.messages !== undefined && messageCount < clause.messages) met = false;
    if (clause.tokens !== undefined && tokens < clause.tokens) met = false;
    if (clause.fraction !== undefined) {
      const window = maxInputTokens(model);
      if (window === undefined || tokens < Math.floor(window * clause.fraction)) met = false;
    }
    if (met) return true;
  }
  return false;
}
