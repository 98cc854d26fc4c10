import {
  AIMessage,
  type BaseMessage,
  isAIMessage,
  isHumanMessage,
  isToolMessage,
} from "../../messages/index.js";
import { initChatModel } from "../../models/index.js";
import { AgentGraphError, InvalidArgumentError } from "../../shared/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentMiddleware } from "../types.js";
import { copyWithContent } from "./message-copy.js";

/**
 * The OpenAI moderation models.
 *
 * @example
 * ```ts
 * const model: ModerationModel = "omni-moderation-latest";
 * ```
 */
export type ModerationModel =
  | "omni-moderation-latest"
  | "omni-moderation-2024-09-26"
  | "text-moderation-latest"
  | "text-moderation-stable"
  | (string & {});

/**
 * One result of the moderation endpoint (`POST /v1/moderations`).
 *
 * @example
 * ```ts
 * const result: ModerationResult = { flagged: true, categories: { violence: true }, category_scores: { violence: 0.8 } };
 * ```
 */
export interface ModerationResult {
  flagged: boolean;
  categories: Record<string, boolean>;
  category_scores: Record<string, number>;
  category_applied_input_types?: Record<string, string[]>;
}

/** The moderation endpoint's answer. */
export interface ModerationResponse {
  id?: string;
  model?: string;
  results: ModerationResult[];
}

interface ModerationClient {
  moderations: {
    create(body: { input: string; model: string }, options?: object): PromiseLike<ModerationResponse>;
  };
}

/**
 * What the middleware needs of the model: a name with `ChatOpenAI` in it and an OpenAI client,
 * reached through `getClient()` (agentgraph's `ChatOpenAI`) or `client` and
 * `_getClientOptions()` (LangChain.js's).
 */
export interface OpenAIModelLike {
  getName(): string;
}

interface ClientAccess {
  getClient?: () => Promise<unknown>;
  client?: unknown;
  _getClientOptions?: () => unknown;
}

/**
 * Options of {@link openAIModerationMiddleware}.
 *
 * @example
 * ```ts
 * const options: OpenAIModerationMiddlewareOptions = { model: new ChatOpenAI({ model: "gpt-4.1-mini" }), exitBehavior: "replace" };
 * ```
 */
export interface OpenAIModerationMiddlewareOptions {
  /** The OpenAI model whose client calls the moderation endpoint (an instance or an `initChatModel` string). */
  model: string | OpenAIModelLike;
  /** The moderation model; default `"omni-moderation-latest"`. */
  moderationModel?: ModerationModel | undefined;
  /** Check the last human message before each model call; default `true`. */
  checkInput?: boolean | undefined;
  /** Check the model's answer after each model call; default `true`. */
  checkOutput?: boolean | undefined;
  /** Check the tool results after the last AI message before each model call; default `false`. */
  checkToolResults?: boolean | undefined;
  /**
   * On flagged content: `"end"` (default) ends the run with an `AIMessage` carrying the
   * violation message; `"error"` throws {@link OpenAIModerationError}; `"replace"` replaces the
   * flagged message's content with the violation message and goes on.
   */
  exitBehavior?: "error" | "end" | "replace" | undefined;
  /**
   * The violation message; `{categories}`, `{category_scores}` (JSON) and `{original_content}`
   * are filled in. Default: `I'm sorry, but I can't comply with that request. It was flagged for {categories}.`
   */
  violationMessage?: string | undefined;
}

const DEFAULT_VIOLATION_TEMPLATE =
  "I'm sorry, but I can't comply with that request. It was flagged for {categories}.";

/**
 * Flagged content with `exitBehavior: "error"`. The message is the violation message;
 * `content` is the flagged text, `stage` where it was found (`"input"`, `"output"` or
 * `"tool"`), `result` the moderation result.
 *
 * @example
 * ```ts
 * try { await agent.invoke(input); } catch (e) { if (e instanceof OpenAIModerationError) console.log(e.stage); }
 * ```
 */
export class OpenAIModerationError extends AgentGraphError {
  static override readonly brandName: string = "OpenAIModerationError";
  readonly content: string;
  readonly stage: "input" | "output" | "tool";
  readonly result: ModerationResult;
  readonly originalMessage: string;

  constructor(fields: {
    content: string;
    stage: "input" | "output" | "tool";
    result: ModerationResult;
    message: string;
  }) {
    super(fields.message, { code: "OPENAI_MODERATION" });
    this.content = fields.content;
    this.stage = fields.stage;
    this.result = fields.result;
    this.originalMessage = fields.message;
  }
}

function hasModerations(client: unknown): client is ModerationClient {
  if (typeof client !== "object" || client === null) return false;
  const moderations = (client as { moderations?: unknown }).moderations;
  return (
    typeof moderations === "object" &&
    moderations !== null &&
    typeof (moderations as { create?: unknown }).create === "function"
  );
}

type Moderator = (
  input: string,
  model: string,
  signal: AbortSignal | undefined,
) => Promise<ModerationResponse>;

/** The moderation call of an OpenAI chat model, or a typed error saying why there is none. */
async function moderatorOf(given: OpenAIModelLike): Promise<Moderator> {
  const model = given as OpenAIModelLike & ClientAccess;
  const name = typeof model?.getName === "function" ? model.getName() : String(model);
  if (!name.includes("ChatOpenAI")) {
    throw new InvalidArgumentError(
      `Model must be an OpenAI model to use moderation middleware. Got: ${name}. Pass a ChatOpenAI instance or a string such as "openai:gpt-4.1-mini" as \`model\`.`,
    );
  }
  const unsupported = () =>
    new InvalidArgumentError(
      "Model must support moderation to use moderation middleware. Its OpenAI client has no `moderations.create`; use a ChatOpenAI created by agentgraph or LangChain.js.",
    );
  if (typeof model._getClientOptions === "function") {
    // LangChain.js's ChatOpenAI creates its client when asked for the client options
    model._getClientOptions();
    const client = model.client;
    if (!hasModerations(client)) throw unsupported();
    return (input, moderationModel) =>
      Promise.resolve(
        client.moderations.create({ input, model: moderationModel }, model._getClientOptions?.() ?? {}),
      );
  }
  if (typeof model.getClient === "function") {
    const client = await model.getClient();
    if (!hasModerations(client)) throw unsupported();
    return (input, moderationModel, signal) =>
      Promise.resolve(
        client.moderations.create({ input, model: moderationModel }, signal === undefined ? {} : { signal }),
      );
  }
  throw unsupported();
}

/** The text of a message to moderate (`null` for none). */
function textOf(message: BaseMessage): string | null {
  if (message.content === null || message.content === undefined) return null;
  return message.text || null;
}

function lastIndexOf(messages: readonly BaseMessage[], is: (m: BaseMessage) => boolean): number | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message !== undefined && is(message)) return i;
  }
  return null;
}

type Action = { jumpTo: "end"; messages: BaseMessage[] } | { messages: BaseMessage[] };

/**
 * Moderates the agent's traffic with OpenAI's moderation endpoint, as LangChain.js's
 * `openAIModerationMiddleware`. Before each model call it checks the last human message
 * (`checkInput`, default on) and the tool results after the last AI message
 * (`checkToolResults`); after each model call, the last AI message (`checkOutput`, default on).
 * Each check sends `{ input: <text>, model: moderationModel }` to `POST /v1/moderations`
 * through the client of `model` (which must be a `ChatOpenAI`). Flagged content is handled by
 * `exitBehavior`: `"end"` ends the run with the violation message (default
 * `I'm sorry, but I can't comply with that request. It was flagged for <categories>.`, the
 * flagged categories with `_` written as spaces), `"error"` throws
 * {@link OpenAIModerationError}, `"replace"` puts the violation message in place of the
 * flagged content.
 *
 * @throws {InvalidArgumentError} (at the first check) when `model` is not an OpenAI model or its
 *   client cannot moderate.
 *
 * @example
 * ```ts
 * import { createAgent, openAIModerationMiddleware } from "agentgraph/agents";
 * import { ChatOpenAI } from "agentgraph/models";
 *
 * const model = new ChatOpenAI({ model: "gpt-4.1-mini" });
 * const agent = createAgent({
 *   model,
 *   tools: [search],
 *   middleware: [openAIModerationMiddleware({ model, checkInput: true, checkOutput: true, exitBehavior: "end" })],
 * });
 * ```
 */
export function openAIModerationMiddleware(
  options: OpenAIModerationMiddlewareOptions,
): AgentMiddleware<Record<never, never>, Record<string, unknown>> {
  const {
    model,
    moderationModel = "omni-moderation-latest",
    checkInput = true,
    checkOutput = true,
    checkToolResults = false,
    exitBehavior = "end",
    violationMessage,
  } = options ?? ({} as OpenAIModerationMiddlewareOptions);
  let moderator: Promise<Moderator> | undefined;
  const moderate = async (
    text: string,
    signal: AbortSignal | undefined,
  ): Promise<ModerationResult | undefined> => {
    if (moderator === undefined) {
      const pending = (async () => {
        const resolved =
          typeof model === "string" ? ((await initChatModel(model)) as OpenAIModelLike) : model;
        return moderatorOf(resolved);
      })();
      moderator = pending;
      // a failed set-up is tried again at the next check
      pending.catch(() => {
        if (moderator === pending) moderator = undefined;
      });
    }
    const call = await moderator;
    const response = await call(text, moderationModel, signal);
    return response.results.find((result) => result.flagged);
  };

  const format = (content: string, result: ModerationResult): string => {
    const categories = Object.entries(result.categories)
      .filter(([, flagged]) => flagged)
      .map(([name]) => name.replace(/_/g, " "));
    const label = categories.length > 0 ? categories.join(", ") : "OpenAI's safety policies";
    const template = violationMessage || DEFAULT_VIOLATION_TEMPLATE;
    return template
      .replace("{categories}", label)
      .replace("{category_scores}", JSON.stringify(result.category_scores, null, 2))
      .replace("{original_content}", content);
  };

  const violation = (
    messages: readonly BaseMessage[],
    index: number | null,
    stage: "input" | "output" | "tool",
    content: string,
    result: ModerationResult,
  ): Action | undefined => {
    const text = format(content, result);
    if (exitBehavior === "error") throw new OpenAIModerationError({ content, stage, result, message: text });
    if (exitBehavior === "end") return { jumpTo: "end", messages: [new AIMessage({ content: text })] };
    if (index === null) return undefined;
    const next = [...messages];
    const original = next[index];
    if (original !== undefined) next[index] = copyWithContent(original, text);
    return { messages: next };
  };

  const checkUser = async (messages: BaseMessage[], signal: AbortSignal | undefined) => {
    const index = lastIndexOf(messages, isHumanMessage);
    if (index === null) return undefined;
    const message = messages[index] as BaseMessage;
    const text = textOf(message);
    if (!text) return undefined;
    const flagged = await moderate(text, signal);
    return flagged === undefined ? undefined : violation(messages, index, "input", text, flagged);
  };

  const checkTools = async (messages: BaseMessage[], signal: AbortSignal | undefined) => {
    const lastAI = lastIndexOf(messages, isAIMessage);
    if (lastAI === null) return undefined;
    let working = [...messages];
    let modified = false;
    for (let i = lastAI + 1; i < working.length; i++) {
      const message = working[i];
      if (message === undefined || !isToolMessage(message)) continue;
      const text = textOf(message);
      if (!text) continue;
      const flagged = await moderate(text, signal);
      if (flagged === undefined) continue;
      const action = violation(working, i, "tool", text, flagged);
      if (action === undefined) continue;
      if ("jumpTo" in action) return action;
      working = action.messages;
      modified = true;
    }
    return modified ? { messages: working } : undefined;
  };

  const checkOutputMessage = async (messages: BaseMessage[], signal: AbortSignal | undefined) => {
    const index = lastIndexOf(messages, isAIMessage);
    if (index === null) return undefined;
    const text = textOf(messages[index] as BaseMessage);
    if (!text) return undefined;
    const flagged = await moderate(text, signal);
    return flagged === undefined ? undefined : violation(messages, index, "output", text, flagged);
  };

  const checkInputs = async (messages: BaseMessage[], signal: AbortSignal | undefined) => {
    let working = [...messages];
    let modified = false;
    for (const check of [checkToolResults ? checkTools : undefined, checkInput ? checkUser : undefined]) {
      if (check === undefined) continue;
      const action = await check(working, signal);
      if (action === undefined) continue;
      if ("jumpTo" in action) return action;
      working = action.messages;
      modified = true;
    }
    return modified ? { messages: working } : undefined;
  };

  return createMiddleware({
    name: "OpenAIModerationMiddleware",
    beforeModel: {
      canJumpTo: ["end"],
      hook: async (state, runtime) => {
        if (!checkInput && !checkToolResults) return undefined;
        const messages = state.messages ?? [];
        if (messages.length === 0) return undefined;
        return checkInputs(messages, runtime?.signal);
      },
    },
    afterModel: {
      canJumpTo: ["end"],
      hook: async (state, runtime) => {
        if (!checkOutput) return undefined;
        const messages = state.messages ?? [];
        if (messages.length === 0) return undefined;
        return checkOutputMessage(messages, runtime?.signal);
      },
    },
  });
}
