import { z } from "zod";
import { z as z3 } from "zod/v3";
import {
  type BaseMessage,
  getBufferString,
  HumanMessage,
  isAIMessage,
  isSystemMessage,
  isToolMessage,
  REMOVE_ALL_MESSAGES,
  RemoveMessage,
} from "../../messages/index.js";
import { initChatModel } from "../../models/index.js";
import { InvalidArgumentError, randomId } from "../../shared/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentChatModel, AgentMiddleware } from "../types.js";
import {
  type ContextSize,
  countTokensApproximately,
  type KeepSize,
  maxInputTokens,
  parseKeep,
  parseTrigger,
  sizeErrorPath,
  type TokenCounter,
  triggerReached,
} from "./context-size.js";
import { contentText } from "./message-copy.js";
import { DEFAULT_SUMMARY_PROMPT } from "./summarization-prompt.js";
import { trimHistoryForSummary } from "./summarization-trim.js";

export { DEFAULT_SUMMARY_PROMPT };

/**
 * The text put before the summary in the message that replaces the summarized history.
 *
 * @example
 * ```ts
 * summarizationMiddleware({ model, trigger: { tokens: 4000 }, summaryPrefix: `${DEFAULT_SUMMARY_PREFIX} (auto)` });
 * ```
 */
export const DEFAULT_SUMMARY_PREFIX = "Here is a summary of the conversation to date:";
const DEFAULT_MESSAGES_TO_KEEP = 20;
const DEFAULT_TRIM_TOKEN_LIMIT = 4000;
const TOOL_PAIR_SEARCH_RANGE = 5;

/**
 * Options of {@link summarizationMiddleware}.
 *
 * - `model`: the model that writes the summary (an instance or a `"provider:model"` string).
 * - `trigger`: when to summarize, a {@link ContextSize} (all its keys must be reached) or a
 *   list of them (any one); without a trigger it never summarizes.
 * - `keep`: how much recent history to keep verbatim (one key; default `{ messages: 20 }`).
 * - `tokenCounter`: counts tokens (default {@link countTokensApproximately}).
 * - `summaryPrompt`: the prompt, with a `{messages}` placeholder (default {@link DEFAULT_SUMMARY_PROMPT}).
 * - `trimTokensToSummarize`: token budget of the history shown to the summarizer (default 4000).
 * - `summaryPrefix`: text before the summary (default {@link DEFAULT_SUMMARY_PREFIX}).
 * - `maxTokensBeforeSummary`, `messagesToKeep`: deprecated spellings of `trigger: { tokens }` and `keep: { messages }`.
 *
 * Every option but `model` may also come from the run's context.
 *
 * @example
 * ```ts
 * const options: SummarizationMiddlewareConfig = { model, trigger: { tokens: 4000 }, keep: { messages: 20 } };
 * ```
 */
export interface SummarizationMiddlewareConfig {
  model: string | AgentChatModel;
  trigger?: ContextSize | ContextSize[];
  keep?: KeepSize;
  tokenCounter?: TokenCounter;
  summaryPrompt?: string;
  trimTokensToSummarize?: number;
  summaryPrefix?: string;
  /** @deprecated Use `trigger: { tokens: value }`. */
  maxTokensBeforeSummary?: number;
  /** @deprecated Use `keep: { messages: value }`. */
  messagesToKeep?: number;
}

const contextSchema = z.object({
  trigger: z.unknown().optional(),
  keep: z.unknown().optional(),
  tokenCounter: z.unknown().optional(),
  summaryPrompt: z.string().optional(),
  trimTokensToSummarize: z.number().optional(),
  summaryPrefix: z.string().optional(),
});

type SummarizationContext = Partial<Omit<SummarizationMiddlewareConfig, "model">>;

/**
 * Summarizes older history when the conversation grows too long, as LangChain.js's
 * `summarizationMiddleware`. Before each model call it counts the state's tokens; when
 * `trigger` is reached it asks `model` for a summary of everything but the kept tail, and
 * replaces the history with one `HumanMessage` (`"<summaryPrefix>\n\n<summary>"`, tagged
 * `additional_kwargs.lc_source: "summarization"`) followed by the kept messages. The cut never
 * separates an AI message with tool calls from its tool messages.
 *
 * @example
 * ```ts
 * import { createAgent, summarizationMiddleware } from "agentgraph/agents";
 *
 * const agent = createAgent({
 *   model: "openai:gpt-4.1",
 *   tools: [getWeather],
 *   middleware: [
 *     summarizationMiddleware({ model: "openai:gpt-4.1-mini", trigger: { tokens: 4000, messages: 10 }, keep: { messages: 20 } }),
 *   ],
 * });
 * ```
 */
export function summarizationMiddleware(
  options: SummarizationMiddlewareConfig,
): AgentMiddleware<Record<never, never>, Record<string, unknown>, SummarizationContext> {
  validateOptions(options);
  let resolvedModel: Promise<AgentChatModel> | undefined;
  const summarizer = (): Promise<AgentChatModel> => {
    if (typeof options.model !== "string") return Promise.resolve(options.model);
    resolvedModel ??= initChatModel(options.model) as unknown as Promise<AgentChatModel>;
    return resolvedModel;
  };
  const middleware = createMiddleware({
    name: "SummarizationMiddleware",
    contextSchema,
    beforeModel: async (state, runtime) => {
      const context = (runtime.context ?? {}) as SummarizationContext;
      const settings = resolveSettings(options, context);
      const model = await summarizer();
      const needsWindow =
        settings.trigger.some((c) => c.fraction !== undefined) || "fraction" in settings.keep;
      if (needsWindow && maxInputTokens(model) === undefined) {
        // a run-time error: a plain Error, as LangChain.js throws it
        throw new Error(
          "Model profile information is required to use fractional token limits. Use absolute token counts instead.",
        );
      }
      const messages = state.messages;
      const total = await settings.tokenCounter(messages);
      if (!triggerReached(settings.trigger, messages.length, total, model)) return undefined;

      const first = messages[0];
      const system = first !== undefined && isSystemMessage(first) ? first : undefined;
      const conversation = system === undefined ? messages : messages.slice(1);
      const cutoff = await findCutoff(conversation, settings.keep, settings.tokenCounter, model);
      if (cutoff <= 0) return undefined;
      const toSummarize = conversation.slice(0, cutoff);
      if (system !== undefined) toSummarize.unshift(system);
      const preserved = conversation.slice(cutoff);
      const summary = await summarize(toSummarize, model, settings, runtime);
      return {
        messages: [
          new RemoveMessage({ id: REMOVE_ALL_MESSAGES }),
          new HumanMessage({
            content: `${settings.summaryPrefix}\n\n${summary}`,
            id: conversation[0]?.id ?? randomId(),
            additional_kwargs: { lc_source: "summarization" },
          }),
          ...preserved,
        ],
      };
    },
  });
  return middleware as unknown as AgentMiddleware<
    Record<never, never>,
    Record<string, unknown>,
    SummarizationContext
  >;
}

interface Settings {
  trigger: ContextSize[];
  keep: KeepSize;
  tokenCounter: TokenCounter;
  summaryPrompt: string;
  summaryPrefix: string;
  trimTokensToSummarize: number;
}

/**
 * Checks the options as LangChain.js's Zod schema does, and reports the problems as Zod's
 * `prettifyError` prints them (`✖ <message>\n  → at <path>`), after LangChain.js's opening.
 */
function validateOptions(options: SummarizationMiddlewareConfig): void {
  const problems: string[] = [];
  const problem = (message: string, path: string) => problems.push(`✖ ${message}\n  → at ${path}`);
  if (options === undefined || options === null || options.model === undefined || options.model === null) {
    problem("Required", "model");
  }
  const check = (label: string, fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      problem((error as Error).message, `${label}${sizeErrorPath(error)}`);
    }
  };
  if (options?.trigger !== undefined) check("trigger", () => parseTrigger(options.trigger));
  if (options?.keep !== undefined) check("keep", () => parseKeep(options.keep));
  if (options?.tokenCounter !== undefined && typeof options.tokenCounter !== "function") {
    problem(`Expected function, received ${typeof options.tokenCounter}`, "tokenCounter");
  }
  if (problems.length > 0) {
    throw new InvalidArgumentError(`Invalid summarization middleware options: ${problems.join("\n")}`);
  }
}

function resolveSettings(options: SummarizationMiddlewareConfig, context: SummarizationContext): Settings {
  let trigger = options.trigger;
  let keep = options.keep;
  if (options.maxTokensBeforeSummary !== undefined) {
    console.warn("maxTokensBeforeSummary is deprecated. Use `trigger: { tokens: value }` instead.");
    trigger ??= { tokens: options.maxTokensBeforeSummary };
  }
  if (options.messagesToKeep !== undefined) {
    console.warn("messagesToKeep is deprecated. Use `keep: { messages: value }` instead.");
    if (keep === undefined || ("messages" in keep && keep.messages === DEFAULT_MESSAGES_TO_KEEP)) {
      keep = { messages: options.messagesToKeep };
    }
  }
  return {
    trigger: parseTrigger(context.trigger !== undefined ? context.trigger : trigger),
    keep: parseKeep(context.keep ?? keep ?? { messages: DEFAULT_MESSAGES_TO_KEEP }),
    tokenCounter: checkedCounter(context.tokenCounter ?? options.tokenCounter) ?? countTokensApproximately,
    summaryPrompt: context.summaryPrompt ?? options.summaryPrompt ?? DEFAULT_SUMMARY_PROMPT,
    summaryPrefix: context.summaryPrefix ?? options.summaryPrefix ?? DEFAULT_SUMMARY_PREFIX,
    trimTokensToSummarize:
      context.trimTokensToSummarize ?? options.trimTokensToSummarize ?? DEFAULT_TRIM_TOKEN_LIMIT,
  };
}

/** Where the kept tail starts (0: nothing to summarize). */
async function findCutoff(
  messages: readonly BaseMessage[],
  keep: KeepSize,
  count: TokenCounter,
  model: unknown,
): Promise<number> {
  if ("messages" in keep) return safeCutoffForCount(messages, keep.messages);
  const byTokens = await tokenCutoff(messages, keep, count, model);
  return byTokens ?? safeCutoffForCount(messages, DEFAULT_MESSAGES_TO_KEEP);
}

/** The earliest index whose suffix fits the token budget (binary search), moved to a safe point. */
async function tokenCutoff(
  messages: readonly BaseMessage[],
  keep: { fraction: number } | { tokens: number },
  count: TokenCounter,
  model: unknown,
): Promise<number | undefined> {
  if (messages.length === 0) return 0;
  let budget: number;
  if ("fraction" in keep) {
    const window = maxInputTokens(model);
    if (window === undefined) return undefined;
    budget = Math.floor(window * keep.fraction);
  } else {
    budget = Math.floor(keep.tokens);
  }
  if (budget <= 0) budget = 1;
  if ((await count([...messages])) <= budget) return 0;
  let left = 0;
  let right = messages.length;
  let candidate = messages.length;
  const rounds = Math.floor(Math.log2(messages.length)) + 1;
  for (let i = 0; i < rounds && left < right; i++) {
    const mid = Math.floor((left + right) / 2);
    if ((await count(messages.slice(mid))) <= budget) {
      candidate = mid;
      right = mid;
    } else {
      left = mid + 1;
    }
  }
  if (candidate === messages.length) candidate = left;
  if (candidate >= messages.length) {
    if (messages.length === 1) return 0;
    candidate = messages.length - 1;
  }
  return settleCutoff(messages, candidate);
}

function safeCutoffForCount(messages: readonly BaseMessage[], keepCount: number): number {
  if (messages.length <= keepCount) return 0;
  return settleCutoff(messages, messages.length - keepCount);
}

/**
 * Moves a cutoff that lands on tool messages back to the AI message that made those calls;
 * failing that, walks back to the first index that separates no call from its result.
 */
function settleCutoff(messages: readonly BaseMessage[], target: number): number {
  const moved = cutoffBeforeToolResults(messages, target);
  if (moved <= target) return moved;
  for (let i = target; i >= 0; i--) if (isSafeCutoff(messages, i)) return i;
  return 0;
}

function toolCallIds(message: BaseMessage | undefined): Set<string> {
  const ids = new Set<string>();
  if (message !== undefined && isAIMessage(message)) {
    for (const call of message.tool_calls) if (call.id) ids.add(call.id);
  }
  return ids;
}

function hasToolCalls(message: BaseMessage | undefined): boolean {
  return message !== undefined && isAIMessage(message) && message.tool_calls.length > 0;
}

function cutoffBeforeToolResults(messages: readonly BaseMessage[], cutoff: number): number {
  const atCut = messages[cutoff];
  if (atCut === undefined || !isToolMessage(atCut)) return cutoff;
  const answered = new Set<string>();
  let index = cutoff;
  for (let m = messages[index]; m !== undefined && isToolMessage(m); m = messages[++index]) {
    if (m.tool_call_id) answered.add(m.tool_call_id);
  }
  for (let i = cutoff - 1; i >= 0; i--) {
    if (!hasToolCalls(messages[i])) continue;
    const ids = toolCallIds(messages[i]);
    for (const id of answered) if (ids.has(id)) return i;
  }
  return index;
}

function isSafeCutoff(messages: readonly BaseMessage[], cutoff: number): boolean {
  if (cutoff >= messages.length) return true;
  if (hasToolCalls(messages[cutoff])) return false;
  const start = Math.max(0, cutoff - TOOL_PAIR_SEARCH_RANGE);
  const end = Math.min(messages.length, cutoff + TOOL_PAIR_SEARCH_RANGE);
  for (let i = start; i < end; i++) {
    if (!hasToolCalls(messages[i])) continue;
    const ids = toolCallIds(messages[i]);
    for (let j = i + 1; j < messages.length; j++) {
      const m = messages[j];
      if (m !== undefined && isToolMessage(m) && ids.has(m.tool_call_id) && i < cutoff !== j < cutoff)
        return false;
    }
  }
  return true;
}

/**
 * The options of the summarizer's call, as LangChain.js builds them: the run's config keys
 * found on the hook's runtime (its `configurable` and `signal`, and `tags`/`metadata` when a
 * caller's runtime carries them), plus the `lc_source: "summarization"` metadata and the
 * `nostream` tag that keep the call out of the `messages` stream.
 */
function summarizerOptions(runtime: unknown): Record<string, unknown> {
  const parent = (typeof runtime === "object" && runtime !== null ? runtime : {}) as {
    configurable?: unknown;
    signal?: unknown;
    tags?: unknown;
    metadata?: unknown;
  };
  const options: Record<string, unknown> = {};
  if (typeof parent.configurable === "object" && parent.configurable !== null) {
    options.configurable = parent.configurable;
  }
  if (parent.signal instanceof AbortSignal) options.signal = parent.signal;
  const tags = Array.isArray(parent.tags)
    ? parent.tags.filter((t): t is string => typeof t === "string")
    : [];
  options.tags = [...new Set([...tags, "nostream"])];
  const metadata = typeof parent.metadata === "object" && parent.metadata !== null ? parent.metadata : {};
  options.metadata = { ...metadata, lc_source: "summarization" };
  return options;
}

async function summarize(
  messages: BaseMessage[],
  model: AgentChatModel,
  settings: Settings,
  runtime: unknown,
): Promise<string> {
  if (messages.length === 0) return "No previous conversation history.";
  let trimmed: BaseMessage[];
  try {
    trimmed = await trimHistoryForSummary(messages, settings.trimTokensToSummarize, settings.tokenCounter);
  } catch {
    trimmed = messages.slice(-15);
  }
  if (trimmed.length === 0) return "Previous conversation was too long to summarize.";
  const history = getBufferString(trimmed);
  try {
    const prompt = settings.summaryPrompt.replace("{messages}", () => history);
    // LangChain.js passes the prompt as a string (a chat model reads it as one human message)
    const answer = await model.invoke(prompt, summarizerOptions(runtime));
    const content = answer?.content;
    if (typeof content !== "string" && !Array.isArray(content)) {
      return "Error generating summary: Invalid response format";
    }
    return contentText(content).trim();
  } catch (error) {
    return `Error generating summary: ${String(error)}`;
  }
}

// LangChain.js passes a given `tokenCounter` through a Zod 3 function schema: the counter must
// take a list and give a number (or a promise of one), else the run fails with that ZodError.
const counterCheck = z3
  .function()
  .args(z3.array(z3.custom()))
  .returns(z3.union([z3.number(), z3.promise(z3.number())]));

/** A given token counter wrapped in LangChain.js's check (`undefined` stays `undefined`). */
function checkedCounter(counter: TokenCounter | undefined): TokenCounter | undefined {
  return counter === undefined ? undefined : (counterCheck.parse(counter) as TokenCounter);
}
