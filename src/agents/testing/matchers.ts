import type {} from "vitest";
import {
  isAIMessage,
  isBaseMessage,
  isHumanMessage,
  isSystemMessage,
  isToolMessage,
} from "../../messages/index.js";

/**
 * What Vitest and Jest hand a custom matcher as `this` (`expect.extend`).
 *
 * @example
 * ```ts
 * function toBeShort(this: ExpectExtendThis, received: string) { return { pass: received.length < 5, message: () => "…" }; }
 * ```
 */
export interface ExpectExtendThis {
  isNot?: boolean;
  equals(a: unknown, b: unknown): boolean;
  utils: {
    matcherHint(name: string, received?: string, expected?: string, options?: { isNot?: boolean }): string;
    printReceived(value: unknown): string;
    printExpected(value: unknown): string;
  };
}

/**
 * What a matcher returns.
 *
 * @example
 * ```ts
 * const result: ExpectationResult = { pass: true, message: () => "ok" };
 * ```
 */
export interface ExpectationResult {
  pass: boolean;
  message: () => string;
  actual?: unknown;
  expected?: unknown;
}

/**
 * The matchers of {@link langchainMatchers} as assertion methods (LangChain.js's
 * `LangChainMatchers`), each returning `R`. Vitest's `expect(…)` has them already (this module
 * augments its `Matchers`); declare them on another test framework's assertions to have them
 * typed there after `expect.extend(langchainMatchers)`.
 *
 * @example
 * ```ts
 * import type { LangChainMatchers } from "agentgraph/agents";
 *
 * declare global {
 *   namespace jest {
 *     interface Matchers<R> extends LangChainMatchers<R> {}
 *   }
 * }
 * ```
 */
export interface LangChainMatchers<R = unknown> extends StreamMatchers<R> {
  toBeHumanMessage(expected?: string | { content?: string; id?: string }): R;
  toBeAIMessage(expected?: string | { content?: string; name?: string }): R;
  toBeSystemMessage(expected?: string | { content?: string; additional_kwargs?: object }): R;
  toBeToolMessage(
    expected?: string | { content?: string; name?: string; status?: string; tool_call_id?: string },
  ): R;
  toHaveToolCalls(expected: Array<{ name?: string; id?: string; args?: Record<string, unknown> }>): R;
  toHaveToolCallCount(expected: number): R;
  toContainToolCall(expected: { name?: string; id?: string; args?: Record<string, unknown> }): R;
  toHaveToolMessages(
    expected: Array<{ content?: string; name?: string; status?: string; tool_call_id?: string }>,
  ): R;
  toHaveBeenInterrupted(expectedValue?: unknown): R;
  toHaveStructuredResponse(expected?: Record<string, unknown>): R;
}

/**
 * One expected tool call of `toHaveStreamToolCalls` and `toHaveStreamOutput`: its name and
 * arguments (compared with the framework's `equals`).
 *
 * @example
 * ```ts
 * const call: StreamToolCallExpectation = { name: "web_search", args: { query: "weather" } };
 * ```
 */
export type StreamToolCallExpectation = {
  name: string;
  args: Record<string, unknown>;
};

/**
 * The usage fields `toHaveStreamUsage` checks (those given must be equal).
 *
 * @example
 * ```ts
 * const usage: StreamUsageExpectation = { input_tokens: 10, output_tokens: 2 };
 * ```
 */
export type StreamUsageExpectation = {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  input_token_details?: Record<string, unknown>;
  output_token_details?: Record<string, unknown>;
};

/**
 * What `toHaveStreamOutput` checks of a stream's final message: its `id`, the text of its first
 * text block, its tool calls (in order), usage fields and response-metadata fields.
 *
 * @example
 * ```ts
 * const output: StreamOutputExpectation = { text: "Hello world", usage: { total_tokens: 12 } };
 * ```
 */
export type StreamOutputExpectation = {
  id?: string;
  text?: string;
  toolCalls?: StreamToolCallExpectation[];
  usage?: StreamUsageExpectation;
  responseMetadata?: Record<string, unknown>;
};

/**
 * The chat-model stream matchers as assertion methods (`@langchain/core/testing`'s
 * `StreamMatchers`), each returning `R`; {@link LangChainMatchers} includes them.
 *
 * @example
 * ```ts
 * import type { StreamMatchers } from "agentgraph/testing";
 *
 * const assertions: Array<keyof StreamMatchers> = ["toHaveStreamText", "toHaveStreamOutput"];
 * ```
 */
export interface StreamMatchers<R = unknown> {
  /** The stream's whole text is `expected`. */
  toHaveStreamText(expected: string): R;
  /** The stream's whole reasoning text is `expected`. */
  toHaveStreamReasoning(expected: string): R;
  /** The stream's tool calls have these names and arguments, in order. */
  toHaveStreamToolCalls(expected: StreamToolCallExpectation[]): R;
  /** The stream's usage has these fields. */
  toHaveStreamUsage(expected: StreamUsageExpectation): R;
  /** The stream's final message matches these fields. */
  toHaveStreamOutput(expected: StreamOutputExpectation): R;
}

// As `@langchain/core/testing` does, type the matchers on Vitest's `expect(…)` for programs that
// use Vitest. The type-only import (erased from the JavaScript and from the emitted declaration)
// lets the build resolve the augmented module; the published declaration applies only where the
// program loads "vitest" itself, and a program without Vitest ignores it.
declare module "vitest" {
  // biome-ignore lint/suspicious/noExplicitAny: must repeat vitest's own declaration
  interface Matchers<T = any> extends LangChainMatchers<T> {}
}

type Fields = Record<string, unknown>;

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Fields)[key] : undefined;
}

function typeNameOf(value: unknown): string {
  if (!isBaseMessage(value)) return typeof value;
  return value.constructor.name || value.getType();
}

function pick(value: unknown, keys: readonly string[]): Fields {
  const out: Fields = {};
  for (const key of keys) out[key] = field(value, key);
  return out;
}

function matchesFields(ctx: ExpectExtendThis, value: unknown, expected: Fields): boolean {
  return Object.entries(expected).every(([key, want]) => ctx.equals(field(value, key), want));
}

function messageTypeMatcher(typeName: string, isInstance: (value: unknown) => boolean) {
  const hint = `toBe${typeName}`;
  return function (
    this: ExpectExtendThis,
    received: unknown,
    expected?: string | Record<string, unknown>,
  ): ExpectationResult {
    const { isNot, utils } = this;
    if (!isInstance(received)) {
      return {
        pass: false,
        message: () =>
          `${utils.matcherHint(hint, undefined, undefined)}\n\nExpected: ${isNot ? "not " : ""}${typeName}\nReceived: ${typeNameOf(received)}`,
        actual: typeNameOf(received),
        expected: typeName,
      };
    }
    if (expected === undefined) {
      return {
        pass: true,
        message: () =>
          `${utils.matcherHint(hint, undefined, undefined)}\n\nExpected: not ${typeName}\nReceived: ${typeName}`,
      };
    }
    const content = field(received, "content");
    if (typeof expected === "string") {
      return {
        pass: content === expected,
        message: () =>
          `${utils.matcherHint(hint, undefined, undefined)}\n\nExpected: ${typeName} with content ${utils.printExpected(expected)}\nReceived: ${typeName} with content ${utils.printReceived(content)}`,
        actual: content,
        expected,
      };
    }
    const actual = pick(received, Object.keys(expected));
    return {
      pass: matchesFields(this, received, expected),
      message: () =>
        `${utils.matcherHint(hint, undefined, undefined)}\n\nExpected: ${typeName} matching ${utils.printExpected(expected)}\nReceived: ${typeName} with ${utils.printReceived(actual)}`,
      actual,
      expected,
    };
  };
}

/** Passes for a `HumanMessage`, optionally with this content (a string) or these fields. */
export const toBeHumanMessage = messageTypeMatcher("HumanMessage", isHumanMessage);
/** Passes for an `AIMessage`, optionally with this content (a string) or these fields. */
export const toBeAIMessage = messageTypeMatcher("AIMessage", isAIMessage);
/** Passes for a `SystemMessage`, optionally with this content (a string) or these fields. */
export const toBeSystemMessage = messageTypeMatcher("SystemMessage", isSystemMessage);
/** Passes for a `ToolMessage`, optionally with this content (a string) or these fields. */
export const toBeToolMessage = messageTypeMatcher("ToolMessage", isToolMessage);

function toolCallsOf(received: unknown): Fields[] {
  const calls = field(received, "tool_calls");
  return Array.isArray(calls) ? (calls as Fields[]) : [];
}

function notAIMessage(ctx: ExpectExtendThis, hint: string, received: unknown): ExpectationResult {
  return {
    pass: false,
    message: () => `${ctx.utils.matcherHint(hint)}\n\nExpected: AIMessage\nReceived: ${typeNameOf(received)}`,
  };
}

/** Passes when an `AIMessage` has exactly as many tool calls as given, each matching one. */
export function toHaveToolCalls(
  this: ExpectExtendThis,
  received: unknown,
  expected: Array<Record<string, unknown>>,
): ExpectationResult {
  const { isNot, utils } = this;
  if (!isAIMessage(received)) return notAIMessage(this, "toHaveToolCalls", received);
  const actual = toolCallsOf(received);
  if (actual.length !== expected.length) {
    return {
      pass: false,
      message: () =>
        `${utils.matcherHint("toHaveToolCalls")}\n\nExpected ${isNot ? "not " : ""}${expected.length} tool call(s), received ${actual.length}`,
      actual: actual.length,
      expected: expected.length,
    };
  }
  const unmatched = expected.filter((want) => !actual.some((call) => matchesFields(this, call, want)));
  if (unmatched.length > 0) {
    const summary = actual.map((call) => pick(call, ["name", "id", "args"]));
    return {
      pass: false,
      message: () =>
        `${utils.matcherHint("toHaveToolCalls")}\n\nCould not find matching tool call(s) for:\n${utils.printExpected(unmatched)}\nReceived tool calls: ${utils.printReceived(summary)}`,
      actual: summary,
      expected,
    };
  }
  return {
    pass: true,
    message: () =>
      `${utils.matcherHint("toHaveToolCalls")}\n\nExpected AIMessage not to have matching tool calls`,
  };
}

/** Passes when an `AIMessage` has this many tool calls. */
export function toHaveToolCallCount(
  this: ExpectExtendThis,
  received: unknown,
  expected: number,
): ExpectationResult {
  const { isNot, utils } = this;
  if (!isAIMessage(received)) return notAIMessage(this, "toHaveToolCallCount", received);
  const actual = toolCallsOf(received).length;
  return {
    pass: actual === expected,
    message: () =>
      `${utils.matcherHint("toHaveToolCallCount")}\n\nExpected ${isNot ? "not " : ""}${expected} tool call(s)\nReceived: ${actual}`,
    actual,
    expected,
  };
}

/** Passes when one of an `AIMessage`'s tool calls matches these fields. */
export function toContainToolCall(
  this: ExpectExtendThis,
  received: unknown,
  expected: Record<string, unknown>,
): ExpectationResult {
  const { isNot, utils } = this;
  if (!isAIMessage(received)) return notAIMessage(this, "toContainToolCall", received);
  const actual = toolCallsOf(received);
  const summary = actual.map((call) => pick(call, ["name", "id"]));
  return {
    pass: actual.some((call) => matchesFields(this, call, expected)),
    message: () =>
      `${utils.matcherHint("toContainToolCall")}\n\nExpected AIMessage ${isNot ? "not " : ""}to contain a tool call matching ${utils.printExpected(expected)}\nReceived tool calls: ${utils.printReceived(summary)}`,
    actual: summary,
    expected,
  };
}

/** Passes when the `ToolMessage`s of a message list match the given fields, in order. */
export function toHaveToolMessages(
  this: ExpectExtendThis,
  received: unknown,
  expected: Array<Record<string, unknown>>,
): ExpectationResult {
  const { isNot, utils } = this;
  if (!Array.isArray(received)) {
    return {
      pass: false,
      message: () =>
        `${utils.matcherHint("toHaveToolMessages")}\n\nExpected an array of messages\nReceived: ${typeof received}`,
    };
  }
  const toolMessages = received.filter(isToolMessage);
  if (toolMessages.length !== expected.length) {
    return {
      pass: false,
      message: () =>
        `${utils.matcherHint("toHaveToolMessages")}\n\nExpected ${isNot ? "not " : ""}${expected.length} tool message(s), found ${toolMessages.length}`,
      actual: toolMessages.length,
      expected: expected.length,
    };
  }
  for (const [i, want] of expected.entries()) {
    const message = toolMessages[i];
    if (matchesFields(this, message, want)) continue;
    return {
      pass: false,
      message: () =>
        `${utils.matcherHint("toHaveToolMessages")}\n\nTool message at index ${i} did not match:\nExpected: ${utils.printExpected(want)}\nReceived: ${utils.printReceived(pick(message, Object.keys(want)))}`,
      actual: message,
      expected: want,
    };
  }
  return {
    pass: true,
    message: () =>
      `${utils.matcherHint("toHaveToolMessages")}\n\nExpected messages not to contain matching tool messages`,
  };
}

/** Passes when a run result has `__interrupt__`s, optionally the first with this value. */
export function toHaveBeenInterrupted(
  this: ExpectExtendThis,
  received: unknown,
  expectedValue?: unknown,
): ExpectationResult {
  const { isNot, utils } = this;
  const interrupts = field(received, "__interrupt__");
  if (!Array.isArray(interrupts) || interrupts.length === 0) {
    return {
      pass: false,
      message: () =>
        `${utils.matcherHint("toHaveBeenInterrupted")}\n\nExpected result ${isNot ? "not " : ""}to have been interrupted\nReceived __interrupt__: ${utils.printReceived(interrupts)}`,
    };
  }
  if (expectedValue === undefined) {
    return {
      pass: true,
      message: () =>
        `${utils.matcherHint("toHaveBeenInterrupted")}\n\nExpected result not to have been interrupted\nReceived ${interrupts.length} interrupt(s)`,
    };
  }
  const actualValue = field(interrupts[0], "value");
  return {
    pass: this.equals(actualValue, expectedValue),
    message: () =>
      `${utils.matcherHint("toHaveBeenInterrupted")}\n\nExpected interrupt value: ${utils.printExpected(expectedValue)}\nReceived interrupt value: ${utils.printReceived(actualValue)}`,
    actual: actualValue,
    expected: expectedValue,
  };
}

/** Passes when a run result has a `structuredResponse`, optionally matching these fields. */
export function toHaveStructuredResponse(
  this: ExpectExtendThis,
  received: unknown,
  expected?: Record<string, unknown>,
): ExpectationResult {
  const { isNot, utils } = this;
  const structured = field(received, "structuredResponse");
  if (structured === undefined) {
    return {
      pass: false,
      message: () =>
        `${utils.matcherHint("toHaveStructuredResponse")}\n\nExpected result ${isNot ? "not " : ""}to have a structured response\nReceived structuredResponse: undefined`,
    };
  }
  if (expected === undefined) {
    return {
      pass: true,
      message: () =>
        `${utils.matcherHint("toHaveStructuredResponse")}\n\nExpected result not to have a structured response`,
    };
  }
  return {
    pass: matchesFields(this, structured, expected),
    message: () =>
      `${utils.matcherHint("toHaveStructuredResponse")}\n\nExpected structured response: ${utils.printExpected(expected)}\nReceived structured response: ${utils.printReceived(structured)}`,
    actual: structured,
    expected,
  };
}

// Stream matchers: for a chat-model stream object exposing `text`, `toolCalls`, `reasoning`,
// `usage` and `output` promises and async iteration (LangChain.js `ChatModelStream`). As in
// LangChain.js they fold `.not` into `pass` themselves.

interface ChatModelStreamLike {
  text: PromiseLike<string> | string;
  toolCalls: PromiseLike<Fields[]> | Fields[];
  reasoning: PromiseLike<string> | string;
  usage: PromiseLike<unknown> | unknown;
  output: PromiseLike<Fields> | Fields;
}

function isChatModelStream(value: unknown): value is ChatModelStreamLike {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Fields & { [Symbol.asyncIterator]?: unknown };
  return (
    v.text !== undefined &&
    v.toolCalls !== undefined &&
    v.reasoning !== undefined &&
    v.usage !== undefined &&
    v.output !== undefined &&
    typeof v[Symbol.asyncIterator] === "function"
  );
}

function notAStream(ctx: ExpectExtendThis, hint: string, received: unknown): ExpectationResult {
  return {
    pass: false,
    message: () =>
      `${ctx.utils.matcherHint(hint)}\n\nExpected: ChatModelStream (return value of model.streamEvents("Hello"))\nReceived: ${ctx.utils.printReceived(received)}`,
    actual: received,
    expected: "ChatModelStream",
  };
}

const applyNot = (pass: boolean, isNot: boolean | undefined) => (isNot ? !pass : pass);

function partialMatch(ctx: ExpectExtendThis, actual: unknown, expected: Fields): boolean {
  return actual !== null && actual !== undefined && matchesFields(ctx, actual, expected);
}

function outputText(message: Fields): unknown {
  const content = message.content;
  if (!Array.isArray(content)) return undefined;
  const block = content.find((b) => field(b, "type") === "text");
  return field(block, "text");
}

function streamTextMatcher(hint: string, label: string, key: "text" | "reasoning") {
  return async function (
    this: ExpectExtendThis,
    received: unknown,
    expected: string,
  ): Promise<ExpectationResult> {
    const { isNot, utils } = this;
    if (!isChatModelStream(received)) return notAStream(this, hint, received);
    const actual = await received[key];
    return {
      pass: applyNot(actual === expected, isNot),
      message: () =>
        `${utils.matcherHint(hint, undefined, undefined, { isNot: isNot === true })}\n\nExpected stream ${label}: ${isNot ? "not " : ""}${utils.printExpected(expected)}\nReceived stream ${label}: ${utils.printReceived(actual)}`,
      actual,
      expected,
    };
  };
}

/** Passes when a chat-model stream's text is `expected`. */
export const toHaveStreamText = streamTextMatcher("toHaveStreamText", "text", "text");
/** Passes when a chat-model stream's reasoning is `expected`. */
export const toHaveStreamReasoning = streamTextMatcher("toHaveStreamReasoning", "reasoning", "reasoning");

/** Passes when a chat-model stream's tool calls have these names and arguments, in order. */
export async function toHaveStreamToolCalls(
  this: ExpectExtendThis,
  received: unknown,
  expected: StreamToolCallExpectation[],
): Promise<ExpectationResult> {
  const { isNot, utils } = this;
  const hint = "toHaveStreamToolCalls";
  if (!isChatModelStream(received)) return notAStream(this, hint, received);
  const actual = await received.toolCalls;
  const pass =
    actual.length === expected.length &&
    expected.every((want, i) => {
      const call = actual[i];
      return call?.name === want.name && this.equals(call.args, want.args);
    });
  const summary = actual.map((call) => pick(call, ["name", "args"]));
  return {
    pass: applyNot(pass, isNot),
    message: () =>
      `${utils.matcherHint(hint, undefined, undefined, { isNot: isNot === true })}\n\nExpected stream tool calls: ${utils.printExpected(expected)}\nReceived stream tool calls: ${utils.printReceived(summary)}`,
    actual: summary,
    expected,
  };
}

/** Passes when a chat-model stream's usage has these fields. */
export async function toHaveStreamUsage(
  this: ExpectExtendThis,
  received: unknown,
  expected: StreamUsageExpectation,
): Promise<ExpectationResult> {
  const { isNot, utils } = this;
  const hint = "toHaveStreamUsage";
  if (!isChatModelStream(received)) return notAStream(this, hint, received);
  const actual = await received.usage;
  return {
    pass: applyNot(partialMatch(this, actual, expected), isNot),
    message: () =>
      `${utils.matcherHint(hint, undefined, undefined, { isNot: isNot === true })}\n\nExpected stream usage: ${utils.printExpected(expected)}\nReceived stream usage: ${utils.printReceived(actual)}`,
    actual,
    expected,
  };
}

/**
 * Passes when a chat-model stream's final message matches: `id`, `text` (of the first text
 * block), `toolCalls` (names and arguments, in order), `usage`, `responseMetadata`.
 */
export async function toHaveStreamOutput(
  this: ExpectExtendThis,
  received: unknown,
  expected: StreamOutputExpectation,
): Promise<ExpectationResult> {
  const { isNot, utils } = this;
  const hint = "toHaveStreamOutput";
  if (!isChatModelStream(received)) return notAStream(this, hint, received);
  const message = await received.output;
  const matches = (): boolean => {
    if (expected.id !== undefined && message.id !== expected.id) return false;
    if (expected.text !== undefined && outputText(message) !== expected.text) return false;
    if (expected.toolCalls !== undefined) {
      const calls = toolCallsOf(message);
      if (calls.length !== expected.toolCalls.length) return false;
      for (const [i, want] of expected.toolCalls.entries()) {
        const call = calls[i];
        if (call?.name !== want.name || !this.equals(call.args, want.args)) return false;
      }
    }
    if (expected.usage !== undefined && !partialMatch(this, message.usage_metadata, expected.usage))
      return false;
    if (
      expected.responseMetadata !== undefined &&
      !partialMatch(this, message.response_metadata, expected.responseMetadata)
    )
      return false;
    return true;
  };
  return {
    pass: applyNot(matches(), isNot),
    message: () =>
      `${utils.matcherHint(hint, undefined, undefined, { isNot: isNot === true })}\n\nExpected stream output: ${utils.printExpected(expected)}\nReceived stream output: ${utils.printReceived(
        {
          id: message.id,
          text: outputText(message),
          tool_calls: Array.isArray(message.tool_calls)
            ? toolCallsOf(message).map((call) => pick(call, ["name", "args"]))
            : undefined,
          usage_metadata: message.usage_metadata,
          response_metadata: message.response_metadata,
        },
      )}`,
    actual: message,
    expected,
  };
}

/**
 * LangChain.js's test matchers for `expect.extend(langchainMatchers)` (Vitest or Jest):
 * `toBeHumanMessage`, `toBeAIMessage`, `toBeSystemMessage`, `toBeToolMessage` (optionally with
 * a content string or fields), `toHaveToolCalls`, `toHaveToolCallCount`, `toContainToolCall`,
 * `toHaveToolMessages`, `toHaveBeenInterrupted`, `toHaveStructuredResponse`, and the
 * chat-model stream matchers.
 *
 * @example
 * ```ts
 * import { expect } from "vitest";
 * import { langchainMatchers } from "agentgraph/agents";
 *
 * expect.extend(langchainMatchers);
 * expect(result.messages.at(-1)).toBeAIMessage("Sunny and warm.");
 * expect(result).toHaveBeenInterrupted();
 * ```
 */
export const langchainMatchers = {
  toBeHumanMessage,
  toBeAIMessage,
  toBeSystemMessage,
  toBeToolMessage,
  toHaveToolCalls,
  toHaveToolCallCount,
  toContainToolCall,
  toHaveToolMessages,
  toHaveBeenInterrupted,
  toHaveStructuredResponse,
  toHaveStreamText,
  toHaveStreamReasoning,
  toHaveStreamToolCalls,
  toHaveStreamUsage,
  toHaveStreamOutput,
};
