import { langchainMatchers } from "../agents/index.js";

// `@langchain/core/testing` also exports each of `langchainMatchers` on its own, and the stream
// matchers as `streamMatchers`: the same functions, so `expect.extend` works with any mix.

/** Passes for a `HumanMessage`, optionally with this content (a string) or these fields. */
export const toBeHumanMessage = langchainMatchers.toBeHumanMessage;
/** Passes for an `AIMessage`, optionally with this content (a string) or these fields. */
export const toBeAIMessage = langchainMatchers.toBeAIMessage;
/** Passes for a `SystemMessage`, optionally with this content (a string) or these fields. */
export const toBeSystemMessage = langchainMatchers.toBeSystemMessage;
/** Passes for a `ToolMessage`, optionally with this content (a string) or these fields. */
export const toBeToolMessage = langchainMatchers.toBeToolMessage;
/** Passes when an `AIMessage` has exactly as many tool calls as given, each matching one. */
export const toHaveToolCalls = langchainMatchers.toHaveToolCalls;
/** Passes when an `AIMessage` has this many tool calls. */
export const toHaveToolCallCount = langchainMatchers.toHaveToolCallCount;
/** Passes when one of an `AIMessage`'s tool calls matches these fields. */
export const toContainToolCall = langchainMatchers.toContainToolCall;
/** Passes when the `ToolMessage`s of a message list match the given fields, in order. */
export const toHaveToolMessages = langchainMatchers.toHaveToolMessages;
/** Passes when a run result has `__interrupt__`s, optionally the first with this value. */
export const toHaveBeenInterrupted = langchainMatchers.toHaveBeenInterrupted;
/** Passes when a run result has a `structuredResponse`, optionally matching these fields. */
export const toHaveStructuredResponse = langchainMatchers.toHaveStructuredResponse;

/**
 * The chat-model stream matchers of {@link langchainMatchers} alone, for
 * `expect.extend(streamMatchers)`: `toHaveStreamText`, `toHaveStreamReasoning`,
 * `toHaveStreamToolCalls`, `toHaveStreamUsage`, `toHaveStreamOutput`. Each takes an object
 * exposing `text`, `toolCalls`, `reasoning`, `usage` and `output` (values or promises) that is
 * async-iterable, and folds `.not` into its result.
 *
 * @example
 * ```ts
 * import { expect } from "vitest";
 * import { streamMatchers } from "agentgraph/testing";
 *
 * expect.extend(streamMatchers);
 * await expect(stream).toHaveStreamText("Hello world");
 * ```
 */
export const streamMatchers = {
  toHaveStreamText: langchainMatchers.toHaveStreamText,
  toHaveStreamReasoning: langchainMatchers.toHaveStreamReasoning,
  toHaveStreamToolCalls: langchainMatchers.toHaveStreamToolCalls,
  toHaveStreamUsage: langchainMatchers.toHaveStreamUsage,
  toHaveStreamOutput: langchainMatchers.toHaveStreamOutput,
};
