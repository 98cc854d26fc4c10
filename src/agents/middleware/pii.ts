import { z } from "zod";
import {
  type BaseMessage,
  isAIMessage,
  isHumanMessage,
  isToolMessage,
  type MessageContent,
} from "../../messages/index.js";
import { AgentGraphError, InvalidArgumentError } from "../../shared/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentMiddleware } from "../types.js";
import { copyAIMessage, copyWithContent } from "./message-copy.js";
import { sha256Hex } from "./sha256.js";

/**
 * The PII kinds with a built-in detector.
 *
 * @example
 * ```ts
 * const kind: BuiltInPIIType = "credit_card";
 * ```
 */
export type BuiltInPIIType = "email" | "credit_card" | "ip" | "mac_address" | "url";

/**
 * What to do with detected PII: `"redact"` (`[REDACTED_EMAIL]`), `"mask"` (keep a few
 * characters: `j***@example.com`, `****-****-****-1111`), `"hash"` (`<email_hash:1a2b3c4d>`,
 * the first 8 hex digits of the SHA-256) or `"block"` (throw {@link PIIDetectionError}).
 *
 * @example
 * ```ts
 * const strategy: PIIStrategy = "mask";
 * ```
 */
export type PIIStrategy = "block" | "redact" | "mask" | "hash";

/**
 * One detected piece of PII: its text and its position (`start` inclusive, `end` exclusive).
 *
 * @example
 * ```ts
 * const match: PIIMatch = { text: "a@b.io", start: 5, end: 11 };
 * ```
 */
export interface PIIMatch {
  text: string;
  start: number;
  end: number;
}

/**
 * A detector: finds the PII in a text.
 *
 * @example
 * ```ts
 * const apiKeys: PIIDetector = (text) =>
 *   [...text.matchAll(/sk-[a-z0-9]{20}/g)].map((m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }));
 * ```
 */
export type PIIDetector = (content: string) => PIIMatch[];

/**
 * Options of {@link piiMiddleware}: the `strategy` (default `"redact"`), a custom `detector`
 * (a function, a `RegExp` or a regular-expression source string; required for a type that
 * has no built-in detector), and where to look: `applyToInput` (the last human message before
 * each model call, default `true`), `applyToOutput` (the model's last AI message, default
 * `false`), `applyToToolResults` (tool messages after the last AI message, default `false`).
 * The three `applyTo*` flags may also come from the run's context.
 *
 * @example
 * ```ts
 * const options: PIIMiddlewareConfig = { strategy: "mask", applyToOutput: true };
 * ```
 */
export interface PIIMiddlewareConfig {
  strategy?: PIIStrategy;
  detector?: PIIDetector | RegExp | string;
  applyToInput?: boolean;
  applyToOutput?: boolean;
  applyToToolResults?: boolean;
}

/**
 * A redaction rule as given: the PII type, the strategy and an optional detector.
 *
 * @example
 * ```ts
 * const rule: RedactionRuleConfig = { piiType: "api_key", strategy: "block", detector: "sk-[a-z0-9]{20}" };
 * ```
 */
export interface RedactionRuleConfig {
  piiType: string;
  strategy: PIIStrategy;
  detector?: PIIDetector | RegExp | string | undefined;
}

/**
 * A redaction rule with its detector resolved to a function.
 *
 * @example
 * ```ts
 * const rule: ResolvedRedactionRule = resolveRedactionRule({ piiType: "email", strategy: "redact" });
 * rule.detector("a@b.io"); // [{ text: "a@b.io", start: 0, end: 6 }]
 * ```
 */
export interface ResolvedRedactionRule {
  piiType: string;
  strategy: PIIStrategy;
  detector: PIIDetector;
}

/**
 * Thrown by the `"block"` strategy when PII is found: `PII detected: <type> found <n>
 * occurrence(s)`, with the type and the matches. Inside an agent it reaches the caller as it was
 * thrown (its stack trace naming the middleware), as in LangChain.js.
 *
 * @example
 * ```ts
 * try { applyStrategy(text, matches, "block", "email"); } catch (e) { if (e instanceof PIIDetectionError) e.matches; }
 * ```
 */
export class PIIDetectionError extends AgentGraphError {
  static override readonly brandName: string = "PIIDetectionError";
  readonly piiType: string;
  readonly matches: PIIMatch[];

  constructor(piiType: string, matches: PIIMatch[]) {
    super(`PII detected: ${piiType} found ${matches.length} occurrence(s)`, { code: "PII_DETECTED" });
    this.piiType = piiType;
    this.matches = matches;
  }
}

const EMAIL = /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g;
const CREDIT_CARD = /\b(?:\d{4}[-\s]?){3}\d{4}\b/g;
const IPV4 = /\b(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\b/g;
const MAC_ADDRESS = /\b(?:[0-9A-Fa-f]{2}[:-]){5}(?:[0-9A-Fa-f]{2})\b/g;
const URL_PATTERN = /(?:https?:\/\/|www\.)[^\s<>"{}|\\^`[\]]+/gi;

/** Every match of `pattern` in `content` (a global copy is used, so the caller's regex is untouched). */
function findAll(
  pattern: RegExp,
  content: string,
  accept: (text: string) => boolean = () => true,
): PIIMatch[] {
  const flags = pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`;
  const regex = new RegExp(pattern.source, flags);
  const matches: PIIMatch[] = [];
  for (let m = regex.exec(content); m !== null; m = regex.exec(content)) {
    if (m[0] === "") {
      regex.lastIndex += 1;
      continue;
    }
    if (accept(m[0])) matches.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  }
  return matches;
}

function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = Number(digits[i]);
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * Finds email addresses.
 *
 * @example
 * ```ts
 * detectEmail("mail a@b.io"); // [{ text: "a@b.io", start: 5, end: 11 }]
 * ```
 */
export function detectEmail(content: string): PIIMatch[] {
  return findAll(EMAIL, content);
}

/**
 * Finds credit card numbers (four groups of four digits, optionally separated by a space or
 * dash) that pass the Luhn check.
 *
 * @example
 * ```ts
 * detectCreditCard("card 4111 1111 1111 1111").length; // 1
 * ```
 */
export function detectCreditCard(content: string): PIIMatch[] {
  return findAll(CREDIT_CARD, content, (text) => {
    const digits = text.replace(/\D/g, "");
    return digits.length >= 13 && digits.length <= 19 && passesLuhn(digits);
  });
}

/**
 * Finds IPv4 addresses (each part 0–255).
 *
 * @example
 * ```ts
 * detectIP("from 192.168.1.1").map((m) => m.text); // ["192.168.1.1"]
 * ```
 */
export function detectIP(content: string): PIIMatch[] {
  return findAll(IPV4, content, (text) => text.split(".").every((part) => Number(part) <= 255));
}

/**
 * Finds MAC addresses (six hex pairs separated by `:` or `-`).
 *
 * @example
 * ```ts
 * detectMacAddress("mac 00:1A:2b:3C:4d:5E").length; // 1
 * ```
 */
export function detectMacAddress(content: string): PIIMatch[] {
  return findAll(MAC_ADDRESS, content);
}

/**
 * Finds URLs starting with `http://`, `https://` or `www.`.
 *
 * @example
 * ```ts
 * detectUrl("see https://example.com").map((m) => m.text); // ["https://example.com"]
 * ```
 */
export function detectUrl(content: string): PIIMatch[] {
  return findAll(URL_PATTERN, content);
}

const BUILT_IN_DETECTORS: Readonly<Record<BuiltInPIIType, PIIDetector>> = {
  email: detectEmail,
  credit_card: detectCreditCard,
  ip: detectIP,
  mac_address: detectMacAddress,
  url: detectUrl,
};

/**
 * Resolves a rule's detector: a custom detector (function, `RegExp` or pattern string) wins;
 * otherwise the built-in one of its type; an unknown type without a detector throws.
 *
 * @example
 * ```ts
 * resolveRedactionRule({ piiType: "ticket", strategy: "redact", detector: "TICKET-\\d+" }).detector("TICKET-42");
 * ```
 */
export function resolveRedactionRule(config: RedactionRuleConfig): ResolvedRedactionRule {
  const { detector } = config;
  let resolved: PIIDetector;
  if (typeof detector === "string") {
    const pattern = new RegExp(detector, "g");
    resolved = (content) => findAll(pattern, content);
  } else if (detector instanceof RegExp) {
    resolved = (content) => findAll(detector, content);
  } else if (typeof detector === "function") {
    resolved = detector;
  } else {
    const builtIn = BUILT_IN_DETECTORS[config.piiType as BuiltInPIIType] as PIIDetector | undefined;
    if (builtIn === undefined || !Object.hasOwn(BUILT_IN_DETECTORS, config.piiType)) {
      throw new InvalidArgumentError(
        `Unknown PII type: ${config.piiType}. Must be one of: ${Object.keys(BUILT_IN_DETECTORS).join(", ")}, or provide a custom detector.`,
      );
    }
    resolved = builtIn;
  }
  return { piiType: config.piiType, strategy: config.strategy, detector: resolved };
}

function mask(text: string, piiType: string): string {
  if (piiType === "credit_card") return `****-****-****-${text.replace(/\D/g, "").slice(-4)}`;
  if (piiType === "email") {
    const [local, domain] = text.split("@");
    return local && domain ? `${local[0]}***@${domain}` : "***";
  }
  const visible = Math.min(4, text.length);
  return `${"*".repeat(text.length - visible)}${text.slice(text.length - visible)}`;
}

/**
 * Applies a strategy to the matches found in `content` and returns the new text (`"block"`
 * throws {@link PIIDetectionError} instead). No matches: the text is returned unchanged.
 *
 * @example
 * ```ts
 * applyStrategy("mail a@b.io", detectEmail("mail a@b.io"), "redact", "email"); // "mail [REDACTED_EMAIL]"
 * ```
 */
export function applyStrategy(
  content: string,
  matches: readonly PIIMatch[],
  strategy: PIIStrategy,
  piiType: string,
): string {
  if (matches.length === 0) return content;
  if (strategy === "block") throw new PIIDetectionError(piiType, [...matches]);
  let replace: (match: PIIMatch) => string;
  if (strategy === "redact") replace = () => `[REDACTED_${piiType.toUpperCase()}]`;
  else if (strategy === "mask") replace = (match) => mask(match.text, piiType);
  else if (strategy === "hash") replace = (match) => `<${piiType}_hash:${sha256Hex(match.text).slice(0, 8)}>`;
  else throw new InvalidArgumentError(`Unknown strategy: ${String(strategy)}`);
  let result = content;
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i] as PIIMatch;
    result = result.slice(0, match.start) + replace(match) + result.slice(match.end);
  }
  return result;
}

/** The content with PII handled, or `undefined` when nothing was found. Text blocks are processed one by one. */
function processContent(content: MessageContent, rule: ResolvedRedactionRule): MessageContent | undefined {
  const processText = (text: string): string | undefined => {
    const matches = rule.detector(text);
    return matches.length === 0 ? undefined : applyStrategy(text, matches, rule.strategy, rule.piiType);
  };
  if (typeof content === "string") return content === "" ? undefined : processText(content);
  let changed = false;
  const blocks = (content as readonly unknown[]).map((block) => {
    const part = block as { type?: unknown; text?: unknown };
    if (part?.type !== "text" || typeof part.text !== "string") return block;
    const text = processText(part.text);
    if (text === undefined) return block;
    changed = true;
    return { ...part, text };
  });
  return changed ? (blocks as MessageContent) : undefined;
}

const contextSchema = z.object({
  applyToInput: z.boolean().optional(),
  applyToOutput: z.boolean().optional(),
  applyToToolResults: z.boolean().optional(),
});

type PIIContext = z.infer<typeof contextSchema>;

/**
 * Detects and handles one kind of PII in the conversation, as LangChain.js's `piiMiddleware`.
 * Before each model call it checks the last human message (`applyToInput`, default on) and
 * the tool results after the last AI message (`applyToToolResults`); after each model call,
 * the AI message (`applyToOutput`). Found PII is redacted, masked or hashed in place (the
 * message is replaced in state under the same id) or, with `"block"`, stops the run with a
 * {@link PIIDetectionError}. Named `PIIMiddleware[<type>]`, so one agent can have one per type.
 *
 * @example
 * ```ts
 * import { createAgent, piiMiddleware } from "agentgraph/agents";
 *
 * const agent = createAgent({
 *   model: "openai:gpt-4.1-mini",
 *   middleware: [
 *     piiMiddleware("email", { strategy: "redact" }),
 *     piiMiddleware("credit_card", { strategy: "mask", applyToOutput: true }),
 *     piiMiddleware("api_key", { strategy: "block", detector: /sk-[a-zA-Z0-9]{32}/ }),
 *   ],
 * });
 * ```
 */
export function piiMiddleware(
  piiType: BuiltInPIIType | (string & {}),
  options: PIIMiddlewareConfig = {},
): AgentMiddleware<Record<never, never>, Record<string, unknown>, PIIContext> {
  const rule = resolveRedactionRule({
    piiType,
    strategy: options.strategy ?? "redact",
    detector: options.detector,
  });
  const middleware = createMiddleware({
    name: `PIIMiddleware[${rule.piiType}]`,
    contextSchema,
    beforeModel: (state, runtime) => {
      const context = (runtime.context ?? {}) as PIIContext;
      const input = context.applyToInput ?? options.applyToInput ?? true;
      const toolResults = context.applyToToolResults ?? options.applyToToolResults ?? false;
      if (!input && !toolResults) return undefined;
      const messages = state.messages;
      // as in LangChain.js, the update is the whole list with the redacted messages in place
      const updated = [...messages];
      let changed = false;
      if (input) {
        const lastHuman = findLastIndex(messages, isHumanMessage);
        const human = messages[lastHuman];
        if (human !== undefined) {
          const content = processContent(human.content, rule);
          if (content !== undefined) {
            changed = true;
            updated[lastHuman] = copyWithContent(human, content);
          }
        }
      }
      if (toolResults) {
        const lastAI = findLastIndex(messages, isAIMessage);
        if (lastAI >= 0) {
          for (let i = lastAI + 1; i < messages.length; i += 1) {
            const message = messages[i];
            if (message === undefined || !isToolMessage(message)) continue;
            const content = processContent(message.content, rule);
            if (content === undefined) continue;
            changed = true;
            updated[i] = copyWithContent(message, content);
          }
        }
      }
      return changed ? { messages: updated } : undefined;
    },
    afterModel: (state, runtime) => {
      const context = (runtime.context ?? {}) as PIIContext;
      if (!(context.applyToOutput ?? options.applyToOutput ?? false)) return undefined;
      const messages = state.messages;
      const index = findLastIndex(messages, isAIMessage);
      const last = messages[index];
      if (last === undefined || !isAIMessage(last)) return undefined;
      const content = processContent(last.content, rule);
      if (content === undefined) return undefined;
      const updated = [...messages];
      updated[index] = copyAIMessage(last, { content });
      return { messages: updated };
    },
  });
  return middleware as unknown as AgentMiddleware<Record<never, never>, Record<string, unknown>, PIIContext>;
}

function findLastIndex(messages: readonly BaseMessage[], test: (message: BaseMessage) => boolean): number {
  for (let i = messages.length - 1; i >= 0; i--) if (test(messages[i] as BaseMessage)) return i;
  return -1;
}
