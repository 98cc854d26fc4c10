import { z as z3 } from "zod/v3";
import { Command } from "../../graph/index.js";
import {
  type AIMessage,
  type BaseMessage,
  isAIMessage,
  isToolMessage,
  type MessageContent,
  RemoveMessage,
  SystemMessage,
  ToolMessage,
} from "../../messages/index.js";
import { InvalidArgumentError } from "../../shared/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentMiddleware } from "../types.js";
import {
  type ContextSize,
  countTokensApproximately,
  type KeepSize,
  maxInputTokens,
  parseContextSize,
  parseKeep,
} from "./context-size.js";
import { copyAIMessage } from "./message-copy.js";

/**
 * One edit of the messages a model call will see. `apply` changes `messages` in place (it is
 * a copy of the request's messages: the state is never modified); `countTokens` counts with
 * the middleware's `tokenCountMethod`, `model` is the request's model.
 *
 * @example
 * ```ts
 * const dropImages: ContextEdit = {
 *   apply: ({ messages }) => {
 *     for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.getType() === "human" && Array.isArray(messages[i]?.content)) messages.splice(i, 1);
 *   },
 * };
 * ```
 */
export interface ContextEdit {
  apply(params: {
    messages: BaseMessage[];
    model: unknown;
    countTokens: (messages: BaseMessage[]) => number | Promise<number>;
  }): void | Promise<void>;
}

/**
 * Options of {@link ClearToolUsesEdit}.
 *
 * - `trigger`: when to clear, a {@link ContextSize} or a list of them (default `{ tokens: 100000 }`).
 * - `keep`: how many of the most recent tool results stay (default `{ messages: 3 }`; also
 *   `{ tokens }` or `{ fraction }` of the model's input window).
 * - `clearToolInputs`: also empty the arguments of the cleared calls (default `false`).
 * - `excludeTools`: tool names whose results are never cleared.
 * - `placeholder`: the text of a cleared result (default `"[cleared]"`).
 * - `triggerTokens`, `keepMessages`, `clearAtLeast`: deprecated (`clearAtLeast` keeps clearing
 *   recent results until that many tokens were reclaimed).
 *
 * @example
 * ```ts
 * const config: ClearToolUsesEditConfig = { trigger: { tokens: 50000 }, keep: { messages: 5 }, excludeTools: ["memory"] };
 * ```
 */
export interface ClearToolUsesEditConfig {
  trigger?: ContextSize | ContextSize[];
  keep?: KeepSize;
  clearToolInputs?: boolean;
  excludeTools?: string[];
  placeholder?: string;
  /** @deprecated Use `trigger: { tokens: value }`. */
  triggerTokens?: number;
  /** @deprecated Use `keep: { messages: value }`. */
  keepMessages?: number;
  /** @deprecated Use `keep` to control retention. */
  clearAtLeast?: number;
}

const DEFAULT_PLACEHOLDER = "[cleared]";
const DEFAULT_TRIGGER_TOKENS = 100_000;
const DEFAULT_KEEP = 3;

interface Candidate {
  index: number;
  message: ToolMessage;
}

/** How many of the given sizes are set (the checks below want one, or at least one). */
const setSizes = (size: {
  fraction?: number | undefined;
  tokens?: number | undefined;
  messages?: number | undefined;
}): number => [size.fraction, size.tokens, size.messages].filter((v) => v !== undefined).length;

// LangChain.js checks `ClearToolUsesEdit`'s sizes with Zod 3 schemas and lets their `ZodError` out
// of the constructor; the same checks, so a bad size (the bare `keep: 3` of older docs, say) fails
// with the same error, issues and message.
const triggerCheck = z3
  .object({
    fraction: z3
      .number()
      .gt(0, "Fraction must be greater than 0")
      .max(1, "Fraction must be less than or equal to 1")
      .optional(),
    tokens: z3.number().positive("Tokens must be greater than 0").optional(),
    messages: z3
      .number()
      .int("Messages must be an integer")
      .positive("Messages must be greater than 0")
      .optional(),
  })
  .refine((size) => setSizes(size) >= 1, {
    message: "At least one of fraction, tokens, or messages must be provided",
  });
const keepCheck = z3
  .object({
    fraction: z3
      .number()
      .min(0, "Messages must be non-negative")
      .max(1, "Fraction must be less than or equal to 1")
      .optional(),
    tokens: z3.number().min(0, "Tokens must be greater than or equal to 0").optional(),
    messages: z3
      .number()
      .int("Messages must be an integer")
      .min(0, "Messages must be non-negative")
      .optional(),
  })
  .refine((size) => setSizes(size) === 1, {
    message: "Exactly one of fraction, tokens, or messages must be provided",
  });

/**
 * The context edit that replaces old tool results with a placeholder, as LangChain.js's
 * `ClearToolUsesEdit`: once the conversation reaches `trigger`, every tool result but the
 * `keep` most recent becomes `placeholder` (its `artifact` dropped,
 * `response_metadata.context_editing = { cleared: true, strategy: "clear_tool_uses" }`), and
 * with `clearToolInputs` the matching call's `args` become `{}` (the AI message's
 * `response_metadata.context_editing.cleared_tool_inputs` lists the call ids). Tool messages
 * whose call cannot be found are dropped from the request.
 *
 * @example
 * ```ts
 * contextEditingMiddleware({ edits: [new ClearToolUsesEdit({ trigger: { tokens: 50000 }, keep: { messages: 2 } })] });
 * ```
 */
export class ClearToolUsesEdit implements ContextEdit {
  readonly trigger: ContextSize | ContextSize[];
  readonly keep: KeepSize;
  readonly clearToolInputs: boolean;
  readonly excludeTools: Set<string>;
  readonly placeholder: string;
  readonly clearAtLeast: number;
  readonly #clauses: ContextSize[];

  constructor(config: ClearToolUsesEditConfig = {}) {
    let trigger = config.trigger;
    if (config.triggerTokens !== undefined) {
      console.warn("triggerTokens is deprecated. Use `trigger: { tokens: value }` instead.");
      trigger ??= { tokens: config.triggerTokens };
    }
    let keep = config.keep;
    if (config.keepMessages !== undefined) {
      console.warn("keepMessages is deprecated. Use `keep: { messages: value }` instead.");
      keep ??= { messages: config.keepMessages };
    }
    trigger ??= { tokens: DEFAULT_TRIGGER_TOKENS };
    for (const clause of Array.isArray(trigger) ? trigger : [trigger]) triggerCheck.parse(clause);
    keepCheck.parse(keep ?? { messages: DEFAULT_KEEP });
    if (Array.isArray(trigger)) {
      this.#clauses = trigger.map(parseContextSize);
      this.trigger = this.#clauses;
    } else {
      const clause = parseContextSize(trigger);
      this.#clauses = [clause];
      this.trigger = clause;
    }
    this.keep = parseKeep(keep ?? { messages: DEFAULT_KEEP });
    if (config.clearAtLeast !== undefined) {
      console.warn(
        "clearAtLeast is deprecated and will be removed in a future version. It conflicts with the `keep` property. Use `keep: { tokens: value }` or `keep: { messages: value }` instead to control retention.",
      );
    }
    this.clearAtLeast = config.clearAtLeast ?? 0;
    this.clearToolInputs = config.clearToolInputs ?? false;
    this.excludeTools = new Set(config.excludeTools ?? []);
    this.placeholder = config.placeholder ?? DEFAULT_PLACEHOLDER;
  }

  async apply(params: Parameters<ContextEdit["apply"]>[0]): Promise<void> {
    const { messages, model, countTokens } = params;
    let tokens = await countTokens(messages);
    // tool results whose call is not in an earlier AI message are dropped (providers reject them)
    let dropped = false;
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i];
      if (
        message !== undefined &&
        isToolMessage(message) &&
        findCaller(messages, i, message.tool_call_id) === undefined
      ) {
        messages.splice(i, 1);
        dropped = true;
      }
    }
    if (dropped) tokens = await countTokens(messages);
    if (!this.#shouldEdit(messages.length, tokens, model)) return;

    const candidates: Candidate[] = [];
    messages.forEach((message, index) => {
      if (isToolMessage(message)) candidates.push({ index, message });
    });
    if (candidates.length === 0) return;
    const keepCount = await this.#keepCount(candidates, countTokens, model);
    const older = keepCount >= candidates.length ? [] : candidates.slice(0, candidates.length - keepCount);
    let reclaimed = 0;
    for (const candidate of older) {
      if (this.#clear(messages, candidate)) {
        reclaimed = Math.max(0, tokens - (await countTokens(messages)));
      }
    }
    if (this.clearAtLeast > 0 && reclaimed < this.clearAtLeast) {
      const recent = keepCount > 0 && keepCount < candidates.length ? candidates.slice(-keepCount) : [];
      for (let i = recent.length - 1; i >= 0 && reclaimed < this.clearAtLeast; i--) {
        if (this.#clear(messages, recent[i] as Candidate)) {
          reclaimed = Math.max(0, tokens - (await countTokens(messages)));
        }
      }
    }
  }

  /** Clears one tool result (and its call's arguments); false when it is skipped. */
  #clear(messages: BaseMessage[], { index, message }: Candidate): boolean {
    const metadata = message.response_metadata as { context_editing?: { cleared?: boolean } } | undefined;
    if (metadata?.context_editing?.cleared) return false;
    const callerIndex = findCaller(messages, index, message.tool_call_id);
    if (callerIndex === undefined) return false;
    const caller = messages[callerIndex] as AIMessage;
    const call = caller.tool_calls.find((c) => c.id === message.tool_call_id);
    if (call === undefined) return false;
    if (this.excludeTools.has(message.name || call.name)) return false;
    messages[index] = new ToolMessage({
      tool_call_id: message.tool_call_id,
      content: this.placeholder,
      name: message.name,
      status: message.status,
      id: message.id,
      response_metadata: {
        ...message.response_metadata,
        context_editing: { cleared: true, strategy: "clear_tool_uses" },
      },
    });
    if (this.clearToolInputs) messages[callerIndex] = clearedInputs(caller, message.tool_call_id);
    return true;
  }

  #shouldEdit(count: number, tokens: number, model: unknown): boolean {
    for (const clause of this.#clauses) {
      let met = true;
      if (clause.messages !== undefined && count < clause.messages) met = false;
      if (clause.tokens !== undefined && tokens < clause.tokens) met = false;
      if (clause.fraction !== undefined) {
        const window = maxInputTokens(model);
        const threshold = window === undefined ? 0 : Math.floor(window * clause.fraction);
        if (threshold <= 0) continue;
        if (tokens < threshold) met = false;
      }
      if (met) return true;
    }
    return false;
  }

  async #keepCount(
    candidates: readonly Candidate[],
    countTokens: (messages: BaseMessage[]) => number | Promise<number>,
    model: unknown,
  ): Promise<number> {
    if ("messages" in this.keep) return this.keep.messages;
    let budget: number;
    if ("tokens" in this.keep) budget = this.keep.tokens;
    else {
      const window = maxInputTokens(model);
      if (window === undefined) return DEFAULT_KEEP;
      budget = Math.floor(window * this.keep.fraction);
      if (budget <= 0) return DEFAULT_KEEP;
    }
    let used = 0;
    let kept = 0;
    for (let i = candidates.length - 1; i >= 0; i--) {
      const size = await countTokens([(candidates[i] as Candidate).message]);
      if (used + size > budget) break;
      used += size;
      kept += 1;
    }
    return kept;
  }
}

/** The index of the latest AI message before `index` that made the call `toolCallId`. */
function findCaller(messages: readonly BaseMessage[], index: number, toolCallId: string): number | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const message = messages[i];
    if (message !== undefined && isAIMessage(message) && message.tool_calls.some((c) => c.id === toolCallId))
      return i;
  }
  return undefined;
}

function clearedInputs(message: AIMessage, toolCallId: string): AIMessage {
  const metadata = { ...message.response_metadata } as Record<string, unknown>;
  const entry = { ...(metadata.context_editing as Record<string, unknown> | undefined) };
  const ids = new Set<string>((entry.cleared_tool_inputs as string[] | undefined) ?? []);
  ids.add(toolCallId);
  entry.cleared_tool_inputs = [...ids].sort();
  metadata.context_editing = entry;
  return copyAIMessage(message, {
    tool_calls: message.tool_calls.map((call) => (call.id === toolCallId ? { ...call, args: {} } : call)),
    response_metadata: metadata,
  });
}

/**
 * Options of {@link contextEditingMiddleware}: the `edits` to apply in order (default one
 * `new ClearToolUsesEdit()`), and how tokens are counted: `"approx"` (default, characters / 4)
 * or `"model"` (the model's own counter, with the system prompt included).
 *
 * @example
 * ```ts
 * const config: ContextEditingMiddlewareConfig = { edits: [new ClearToolUsesEdit()], tokenCountMethod: "model" };
 * ```
 */
export interface ContextEditingMiddlewareConfig {
  edits?: ContextEdit[];
  tokenCountMethod?: "approx" | "model";
}

interface TokenCountingModel {
  getNumTokensFromMessages?(messages: BaseMessage[]): Promise<{ totalCount: number }>;
  getNumTokens?(content: MessageContent): number | Promise<number>;
  getName?(): string;
}

/**
 * Edits the messages each model call sees, as LangChain.js's `contextEditingMiddleware`, for
 * example clearing old tool results once the context grows ({@link ClearToolUsesEdit}). The
 * edits work on a copy: the agent's state keeps every message.
 *
 * @example
 * ```ts
 * import { ClearToolUsesEdit, contextEditingMiddleware, createAgent } from "agentgraph/agents";
 *
 * const agent = createAgent({
 *   model: "anthropic:claude-sonnet-4-5",
 *   tools: [search],
 *   middleware: [
 *     contextEditingMiddleware({
 *       edits: [new ClearToolUsesEdit({ trigger: { tokens: 50000 }, keep: { messages: 3 }, clearToolInputs: true })],
 *     }),
 *   ],
 * });
 * ```
 */
/**
 * What the edits changed in the state: each message of `before` (that is in the state) that
 * `after` holds as another object under the same id, and a `RemoveMessage` for each one
 * `after` no longer holds.
 */
function stateEdits(
  state: readonly BaseMessage[] | undefined,
  before: readonly BaseMessage[],
  after: readonly BaseMessage[],
): BaseMessage[] {
  if (state === undefined || state.length === 0) return [];
  const inState = new Set<string>();
  for (const m of state) if (m.id !== undefined) inState.add(m.id);
  const kept = new Map<string, BaseMessage>();
  for (const m of after) if (m.id !== undefined) kept.set(m.id, m);
  const update: BaseMessage[] = [];
  for (const original of before) {
    const id = original.id;
    if (id === undefined || !inState.has(id)) continue;
    const now = kept.get(id);
    if (now === undefined) update.push(new RemoveMessage({ id }));
    else if (now !== original) update.push(now);
  }
  return update;
}

export function contextEditingMiddleware(
  config: ContextEditingMiddlewareConfig = {},
): AgentMiddleware<Record<never, never>, Record<string, unknown>> {
  const edits = config.edits ?? [new ClearToolUsesEdit()];
  const method = config.tokenCountMethod ?? "approx";
  const middleware = createMiddleware({
    name: "ContextEditingMiddleware",
    wrapModelCall: async (request, handler) => {
      if (request.messages.length === 0) return handler(request);
      const model = request.model as unknown as TokenCountingModel;
      const system = request.systemPrompt ? [new SystemMessage(request.systemPrompt)] : [];
      const countTokens =
        method === "approx"
          ? (messages: BaseMessage[]) => countTokensApproximately(messages)
          : (messages: BaseMessage[]) => countWithModel(model, [...system, ...messages]);
      const messages = [...request.messages];
      for (const edit of edits) await edit.apply({ messages, model: request.model, countTokens });
      const answer = await handler({ ...request, messages });
      // LangChain.js edits the state's own list, so the edits stay in the agent's state: here
      // they are written back as an update (replaced messages by id, dropped ones removed)
      const update = stateEdits(request.state.messages, request.messages, messages);
      return update.length === 0 ? answer : new Command({ update: { messages: update } });
    },
  });
  return middleware as unknown as AgentMiddleware<Record<never, never>, Record<string, unknown>>;
}

async function countWithModel(model: TokenCountingModel, messages: BaseMessage[]): Promise<number> {
  if (typeof model.getNumTokensFromMessages === "function") {
    return (await model.getNumTokensFromMessages(messages)).totalCount;
  }
  if (typeof model.getNumTokens === "function") {
    let total = 0;
    for (const message of messages) total += await model.getNumTokens(message.content);
    return total;
  }
  throw new InvalidArgumentError(`Model "${model.getName?.() ?? "unknown"}" does not support token counting`);
}
