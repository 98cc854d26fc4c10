import type { RunnableConfig } from "../shared/index.js";
import { InvalidArgumentError } from "../shared/index.js";
import type { BaseMessage } from "./base.js";
import type { BaseMessageLike } from "./coerce.js";
import { coerceMessageLikeToMessage } from "./coerce.js";
import type { MessageContent } from "./content.js";
import { chunkToMessage } from "./convert.js";
import type { MessageTypeOrClass } from "./message-types.js";
import { toTypeSet } from "./message-types.js";
import { type MessageUnit, splitIntoUnits, unitMessages } from "./trim-units.js";

/**
 * Counts the tokens of a list of messages: a function over the list (`(msgs) => msgs.length`
 * counts messages), or a model-like object whose `getNumTokens(content)` is summed over the
 * messages.
 *
 * @example
 * ```ts
 * const byChars: TokenCounter = (msgs) => msgs.reduce((n, m) => n + m.text.length, 0);
 * ```
 */
export type TokenCounter =
  | ((messages: BaseMessage[]) => number | Promise<number>)
  | { getNumTokens(content: MessageContent): number | Promise<number> };

/**
 * Splits a text into pieces for partial trimming: a function, or an object with
 * `splitText` (as LangChain text splitters have). The default splits after each newline.
 *
 * @example
 * ```ts
 * const bySentence: TextSplitter = (text) => text.split(/(?<=\. )/);
 * ```
 */
export type TextSplitter =
  | ((text: string) => string[] | Promise<string[]>)
  | { splitText(text: string): string[] | Promise<string[]> };

/**
 * Options of {@link trimMessages}.
 *
 * @example
 * ```ts
 * const options: TrimMessagesOptions = {
 *   maxTokens: 4,
 *   tokenCounter: (msgs) => msgs.length,
 *   strategy: "last",
 *   includeSystem: true,
 *   startOn: "human",
 * };
 * ```
 */
export interface TrimMessagesOptions {
  /** The budget the kept messages must fit in. */
  maxTokens: number;
  /** How to count tokens. */
  tokenCounter: TokenCounter;
  /** Keep the first messages or (default) the last ones. */
  strategy?: "first" | "last" | undefined;
  /** May the message at the cut be shortened (its first/last blocks or text pieces) to fill the budget? */
  allowPartial?: boolean | undefined;
  /** The kept messages must end with a message of one of these kinds. */
  endOn?: MessageTypeOrClass | readonly MessageTypeOrClass[] | undefined;
  /** (`"last"` only) The kept messages must start with a message of one of these kinds. */
  startOn?: MessageTypeOrClass | readonly MessageTypeOrClass[] | undefined;
  /** (`"last"` only) Always keep a leading system message. */
  includeSystem?: boolean | undefined;
  /** How to split text for `allowPartial`. */
  textSplitter?: TextSplitter | undefined;
}

/**
 * A reusable message transformer, as `trimMessages(options)` returns: call it (or its
 * `invoke`, for code written against LangChain runnables) with a list of messages.
 *
 * @example
 * ```ts
 * const trimmer: MessagesTransformer<Promise<BaseMessage[]>> = trimMessages({ maxTokens: 10, tokenCounter: (m) => m.length });
 * const kept = await trimmer.invoke(messages);
 * ```
 */
export interface MessagesTransformer<Out> {
  (messages: readonly BaseMessageLike[]): Out;
  invoke(messages: readonly BaseMessageLike[], config?: RunnableConfig): Promise<Awaited<Out>>;
}

/** Builds a transformer from a function over messages. */
export function messagesTransformer<Out>(fn: (messages: BaseMessage[]) => Out): MessagesTransformer<Out> {
  const transformer = (messages: readonly BaseMessageLike[]): Out =>
    fn(messages.map(coerceMessageLikeToMessage));
  transformer.invoke = async (messages: readonly BaseMessageLike[]): Promise<Awaited<Out>> =>
    await transformer(messages);
  return transformer;
}

interface Plan {
  maxTokens: number;
  count: (messages: BaseMessage[]) => Promise<number>;
  split: (text: string) => Promise<string[]>;
  allowPartial: boolean;
  endOn: ReadonlySet<string> | undefined;
  startOn: ReadonlySet<string> | undefined;
  includeSystem: boolean;
}

/** Splits after each newline, keeping the newlines. */
function splitLines(text: string): string[] {
  const pieces = text.split("\n");
  return pieces.map((piece, i) => (i < pieces.length - 1 ? `${piece}\n` : piece));
}

/**
 * The text splitter `trimMessages` uses with `allowPartial` when none is given: splits after
 * each newline, keeping the newlines (LangChain.js `defaultTextSplitter`).
 *
 * @example
 * ```ts
 * await defaultTextSplitter("a\nb"); // ["a\n", "b"]
 * ```
 */
export function defaultTextSplitter(text: string): Promise<string[]> {
  return Promise.resolve(splitLines(text));
}

function makePlan(options: TrimMessagesOptions | undefined): { plan: Plan; strategy: "first" | "last" } {
  if (options === undefined || options === null) {
    throw new InvalidArgumentError("Options parameter is required when providing messages.");
  }
  const strategy = options.strategy ?? "last";
  if (strategy !== "first" && strategy !== "last") {
    throw new InvalidArgumentError(
      `Unrecognized strategy: '${String(strategy)}'. Must be one of 'first' or 'last'.`,
    );
  }
  if (options.startOn && strategy === "first") {
    throw new InvalidArgumentError("`startOn` should only be specified if `strategy` is 'last'.");
  }
  if (options.includeSystem && strategy === "first") {
    throw new InvalidArgumentError("`includeSystem` should only be specified if `strategy` is 'last'.");
  }
  if (typeof options.maxTokens !== "number" || Number.isNaN(options.maxTokens)) {
    throw new InvalidArgumentError(`\`maxTokens\` must be a number, got ${String(options.maxTokens)}.`);
  }
  return {
    strategy,
    plan: {
      maxTokens: options.maxTokens,
      count: toListCounter(options.tokenCounter),
      split: toSplitter(options.textSplitter),
      allowPartial: options.allowPartial === true,
      endOn: toTypeSet(options.endOn),
      startOn: toTypeSet(options.startOn),
      includeSystem: options.includeSystem === true,
    },
  };
}

function toListCounter(counter: TokenCounter): (messages: BaseMessage[]) => Promise<number> {
  if (typeof counter === "function") return async (messages) => await counter(messages);
  if (counter !== null && typeof counter === "object" && typeof counter.getNumTokens === "function") {
    return async (messages) => {
      const counts = await Promise.all(messages.map((m) => counter.getNumTokens(m.content)));
      return counts.reduce((sum, n) => sum + n, 0);
    };
  }
  throw new InvalidArgumentError(
    "`tokenCounter` must be a function of the message list (e.g. (msgs) => msgs.length) or an object with getNumTokens(content).",
  );
}

function toSplitter(splitter: TextSplitter | undefined): (text: string) => Promise<string[]> {
  if (splitter === undefined) return async (text) => splitLines(text);
  if (typeof splitter === "function") return async (text) => await splitter(text);
  if (typeof splitter.splitText === "function") return async (text) => await splitter.splitText(text);
  throw new InvalidArgumentError("`textSplitter` must be a function or an object with splitText(text).");
}

/** Largest n in [lo, hi] with fits(n), assuming fits is monotone (true up to some n); lo - 1 if none. */
async function largestFitting(
  lo: number,
  hi: number,
  fits: (n: number) => Promise<boolean>,
): Promise<number> {
  let best = lo - 1;
  let low = lo;
  let high = hi;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (await fits(mid)) {
      best = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return best;
}

/** A shallow copy of a message (same class, same fields) with other content. */
function withContent(message: BaseMessage, content: MessageContent): BaseMessage {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(message)) as BaseMessage, message);
  copy.content = content;
  return copy;
}

/**
 * The largest part of `message` that still fits next to `kept`: a run of whole content
 * blocks first, else a run of text pieces. `fromEnd` keeps the end of the message (for the
 * "last" strategy) instead of its beginning.
 */
async function partialMessage(
  message: BaseMessage,
  fromEnd: boolean,
  plan: Plan,
  fitsWith: (candidate: BaseMessage) => Promise<boolean>,
): Promise<BaseMessage | undefined> {
  const content = message.content;
  const slice = <T>(items: readonly T[], size: number): T[] =>
    fromEnd ? items.slice(items.length - size) : items.slice(0, size);
  if (Array.isArray(content) && content.length > 1) {
    // a chunk cut to whole blocks becomes a whole message, as in LangChain.js
    const whole = chunkToMessage(message);
    let found: BaseMessage | undefined;
    await largestFitting(1, content.length - 1, async (size) => {
      const candidate = withContent(whole, slice(content, size));
      const fits = await fitsWith(candidate);
      if (fits) found = candidate;
      return fits;
    });
    if (found) return found;
  }
  const text = textToSplit(content, fromEnd);
  if (!text) return undefined;
  const pieces = await plan.split(text);
  let found: BaseMessage | undefined;
  await largestFitting(1, pieces.length - 1, async (size) => {
    const candidate = withContent(message, slice(pieces, size).join(""));
    const fits = await fitsWith(candidate);
    if (fits) found = candidate;
    return fits;
  });
  return found;
}

function textToSplit(content: MessageContent, fromEnd: boolean): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter((b) => b.type === "text" && typeof b.text === "string" && b.text !== "");
  const block = fromEnd ? texts[texts.length - 1] : texts[0];
  return block?.text as string | undefined;
}

async function keepFirst(messages: readonly BaseMessage[], plan: Plan): Promise<BaseMessage[]> {
  const units = splitIntoUnits(messages);
  const prefix = (n: number): BaseMessage[] =>
    n === 0 ? [] : messages.slice(0, (units[n - 1] as MessageUnit).end);
  const fits = async (list: BaseMessage[]) => (await plan.count(list)) <= plan.maxTokens;
  const kept = await countFittingUnits(units.length, (n) => fits(prefix(n)));
  const groups = units.slice(0, kept).map((unit) => unitMessages(messages, unit));
  const next = units[kept];
  if (plan.allowPartial && next !== undefined && next.end - next.start === 1) {
    const before = prefix(kept);
    const partial = await partialMessage(messages[next.start] as BaseMessage, false, plan, (c) =>
      fits([...before, c]),
    );
    if (partial) groups.push([partial]);
  }
  const endOn = plan.endOn;
  if (endOn !== undefined) {
    while (groups.length > 0 && !endOn.has(lastType(groups[groups.length - 1] as BaseMessage[])))
      groups.pop();
  }
  return groups.flat();
}

async function keepLast(messages: readonly BaseMessage[], plan: Plan): Promise<BaseMessage[]> {
  let units = splitIntoUnits(messages);
  const endOn = plan.endOn;
  if (endOn !== undefined) {
    let count = units.length;
    while (count > 0 && !endOn.has((messages[(units[count - 1] as MessageUnit).end - 1] as BaseMessage).type))
      count -= 1;
    units = units.slice(0, count);
  }
  const first = messages[0];
  const system = plan.includeSystem && units.length > 0 && first?.type === "system" ? first : undefined;
  if (system) units = units.slice(1);
  const head = system ? [system] : [];
  const suffix = (n: number): BaseMessage[] =>
    n === 0
      ? []
      : messages.slice((units[units.length - n] as MessageUnit).start, (units.at(-1) as MessageUnit).end);
  const fits = async (list: BaseMessage[]) => (await plan.count([...head, ...list])) <= plan.maxTokens;
  const kept = await countFittingUnits(units.length, (n) => fits(suffix(n)));
  const groups = units.slice(units.length - kept).map((unit) => unitMessages(messages, unit));
  const previous = units[units.length - kept - 1];
  if (plan.allowPartial && previous !== undefined && previous.end - previous.start === 1) {
    const after = suffix(kept);
    const partial = await partialMessage(messages[previous.start] as BaseMessage, true, plan, (c) =>
      fits([c, ...after]),
    );
    if (partial) groups.unshift([partial]);
  }
  const startOn = plan.startOn;
  if (startOn !== undefined) {
    while (groups.length > 0 && !startOn.has((groups[0] as BaseMessage[])[0]?.type as string)) groups.shift();
  }
  return [...head, ...groups.flat()];
}

/** How many units fit: all of them (one count in the common case), else by binary search. */
async function countFittingUnits(total: number, fits: (n: number) => Promise<boolean>): Promise<number> {
  if (total === 0) return 0;
  if (await fits(total)) return total;
  return largestFitting(1, total - 1, fits);
}

function lastType(group: readonly BaseMessage[]): string {
  return (group[group.length - 1] as BaseMessage).type;
}

function runTrim(
  messages: readonly BaseMessage[],
  strategy: "first" | "last",
  plan: Plan,
): Promise<BaseMessage[]> {
  return strategy === "first" ? keepFirst(messages, plan) : keepLast(messages, plan);
}

/**
 * Trims a conversation to a token budget, keeping the first or (default) the last messages
 * that fit. Count tokens with any function of the message list — `(msgs) => msgs.length`
 * trims by message count — or a model-like object with `getNumTokens`.
 *
 * An AI message with tool calls and the tool messages answering it are kept or dropped
 * together, so trimming never leaves a tool call without its result or a result without
 * its call. With `"last"`: `includeSystem` always keeps a leading system message, `startOn`
 * makes the kept messages start on a given kind (e.g. `"human"`); `endOn` makes them end on
 * one. `allowPartial` fills the remaining budget with part of the message at the cut (whole
 * content blocks, else pieces of its text from `textSplitter`).
 *
 * Call it with messages to get a promise of the kept messages, or with options alone to get
 * a reusable transformer (callable, with an `invoke` method). Messages are not copied unless
 * shortened.
 *
 * @example
 * ```ts
 * const kept = await trimMessages(messages, {
 *   maxTokens: 5,
 *   tokenCounter: (msgs) => msgs.length,
 *   strategy: "last",
 *   includeSystem: true,
 *   startOn: "human",
 * });
 * const trimmer = trimMessages({ maxTokens: 5, tokenCounter: (msgs) => msgs.length });
 * const sameKept = await trimmer.invoke(messages);
 * ```
 */
export function trimMessages(
  messages: readonly BaseMessageLike[],
  options: TrimMessagesOptions,
): Promise<BaseMessage[]>;
export function trimMessages(options: TrimMessagesOptions): MessagesTransformer<Promise<BaseMessage[]>>;
export function trimMessages(
  messagesOrOptions: readonly BaseMessageLike[] | TrimMessagesOptions,
  options?: TrimMessagesOptions,
): Promise<BaseMessage[]> | MessagesTransformer<Promise<BaseMessage[]>> {
  if (Array.isArray(messagesOrOptions)) {
    const list = messagesOrOptions as readonly BaseMessageLike[];
    return (async () => {
      const { plan, strategy } = makePlan(options);
      return runTrim(list.map(coerceMessageLikeToMessage), strategy, plan);
    })();
  }
  const { plan, strategy } = makePlan(messagesOrOptions as TrimMessagesOptions);
  return messagesTransformer((messages) => runTrim(messages, strategy, plan));
}
