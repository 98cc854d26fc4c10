import { z as z3 } from "zod/v3";
import { isGraphBubbleUp } from "../../graph/index.js";
import { ModelCallError, serverHintMs } from "../../models/index.js";
import {
  AgentGraphError,
  type AgentGraphErrorOptions,
  abortableSleep,
  isAbortError,
} from "../../shared/index.js";

/**
 * Which errors a retry middleware retries: a list of error classes, or a predicate that gets
 * the error and answers `true` to retry it.
 *
 * @example
 * ```ts
 * const onlyTimeouts: RetryOn = [ModelTimeoutError];
 * const onlyServerErrors: RetryOn = (error) => (error as { status?: number }).status === 503;
 * ```
 */
export type RetryOn = ReadonlyArray<abstract new (...args: never[]) => Error> | ((error: Error) => boolean);

/**
 * The backoff options shared by `modelRetryMiddleware` and `toolRetryMiddleware`, named and
 * defaulted as in LangChain.js.
 *
 * @example
 * ```ts
 * const options: RetryOptions = { maxRetries: 3, initialDelayMs: 500, backoffFactor: 2, maxDelayMs: 10_000, jitter: true };
 * ```
 */
export interface RetryOptions {
  /** Retries after the first attempt (default 2, so at most 3 attempts). Must be >= 0. */
  maxRetries?: number;
  /**
   * Error classes to retry, or a predicate. By default every error is retried except one
   * marked as not retryable (a `ModelCallError` with `isRetryable: false`, such as a 401, or an
   * error stamped non-retryable the LangChain.js way).
   */
  retryOn?: RetryOn;
  /** Multiplier of the delay after each retry: `initialDelayMs * backoffFactor ** retry` (default 2; 0 = constant). */
  backoffFactor?: number;
  /** Delay before the first retry, in milliseconds (default 1000). */
  initialDelayMs?: number;
  /** Upper bound of the computed delay, in milliseconds (default 60000). */
  maxDelayMs?: number;
  /** Add ±25 % random jitter to each delay (default `true`). */
  jitter?: boolean;
}

/** {@link RetryOptions} with every default filled in. */
export interface RetrySettings {
  readonly maxRetries: number;
  readonly retryOn: RetryOn;
  readonly backoffFactor: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly jitter: boolean;
}

/**
 * The options given to a retry middleware are not valid. The message lists each problem and
 * the option it concerns, one per line pair, as LangChain.js prints them. `cause` holds the
 * problems in the shape of a schema validator's error (`cause.issues[i].path` is a list,
 * `cause.issues[i].code` e.g. `"too_small"`), as LangChain.js's `error.cause` (a `ZodError`).
 *
 * @example
 * ```ts
 * try {
 *   modelRetryMiddleware({ maxRetries: -1 });
 * } catch (error) {
 *   if (error instanceof InvalidRetryConfigError) {
 *     console.log(error.message);
 *     // Number must be greater than or equal to 0
 *     //   → at maxRetries
 *     console.log(error.cause.issues[0].code); // "too_small"
 *   }
 * }
 * ```
 */
export class InvalidRetryConfigError extends AgentGraphError {
  static override readonly brandName: string = "InvalidRetryConfigError";
  /** Each problem: the option's name and what is wrong with it. */
  readonly issues: readonly RetryConfigIssue[];
  /** The problems as a schema validator reports them (LangChain.js: the `ZodError`). */
  declare readonly cause: RetryConfigValidationError;

  constructor(issues: readonly RetryConfigIssue[], options: Omit<AgentGraphErrorOptions, "cause"> = {}) {
    super(issues.map((issue) => `${issue.message}\n  → at ${issue.path}`).join("\n✖ "), {
      code: "INVALID_RETRY_CONFIG",
      ...options,
      cause: new RetryConfigValidationError(issues),
    });
    this.issues = issues;
  }
}

/**
 * One problem found in retry options: the option (`path`), the message, and the validator's
 * issue `code` with its details (`minimum` for `"too_small"`, `expected` and `received` for
 * `"invalid_type"`), named as a Zod 3 issue names them.
 *
 * @example
 * ```ts
 * const issue: RetryConfigIssue = {
 *   path: "maxRetries",
 *   message: "Number must be greater than or equal to 0",
 *   code: "too_small",
 *   minimum: 0,
 * };
 * ```
 */
export interface RetryConfigIssue {
  readonly path: string;
  readonly message: string;
  readonly code?: RetryConfigIssueCode | undefined;
  /** The smallest allowed value (`"too_small"`). */
  readonly minimum?: number | undefined;
  /** The expected type (`"invalid_type"`). */
  readonly expected?: string | undefined;
  /** The type received (`"invalid_type"`). */
  readonly received?: string | undefined;
}

/** The kinds of problem a retry option can have, as a schema validator names them. */
export type RetryConfigIssueCode = "too_small" | "invalid_type" | "invalid_union";

/**
 * One problem of {@link RetryConfigValidationError}, in a schema validator's shape: `path` is
 * the list of keys leading to the option.
 */
export interface RetryConfigValidationIssue {
  readonly code: RetryConfigIssueCode | "custom";
  readonly path: readonly string[];
  readonly message: string;
  readonly minimum?: number;
  readonly type?: "number";
  readonly inclusive?: boolean;
  readonly exact?: boolean;
  readonly expected?: string;
  readonly received?: string;
}

/**
 * The `cause` of an {@link InvalidRetryConfigError}: every problem as a schema validator
 * reports it (`issues[i].code`, `issues[i].path`), so code written against LangChain.js's
 * `error.cause.issues` (a `ZodError`) reads the same fields here.
 *
 * @example
 * ```ts
 * const details = new RetryConfigValidationError([{ path: "maxDelayMs", message: "Number must be greater than or equal to 0", code: "too_small", minimum: 0 }]);
 * details.issues[0].path; // ["maxDelayMs"]
 * ```
 */
export class RetryConfigValidationError extends Error {
  /** The problems, in option order. */
  readonly issues: readonly RetryConfigValidationIssue[];

  constructor(issues: readonly RetryConfigIssue[]) {
    super(issues.map((issue) => `${issue.path}: ${issue.message}`).join("; "));
    this.name = "RetryConfigValidationError";
    this.issues = issues.map(validationIssueOf);
  }
}

function validationIssueOf(issue: RetryConfigIssue): RetryConfigValidationIssue {
  const base = { path: [issue.path], message: issue.message };
  switch (issue.code) {
    case "too_small":
      return {
        code: "too_small",
        minimum: issue.minimum ?? 0,
        type: "number",
        inclusive: true,
        exact: false,
        ...base,
      };
    case "invalid_type":
      return {
        code: "invalid_type",
        ...(issue.expected === undefined ? {} : { expected: issue.expected }),
        ...(issue.received === undefined ? {} : { received: issue.received }),
        ...base,
      };
    case "invalid_union":
      return { code: "invalid_union", ...base };
    default:
      return { code: "custom", ...base };
  }
}

const DEFAULTS = {
  maxRetries: 2,
  backoffFactor: 2,
  initialDelayMs: 1000,
  maxDelayMs: 60_000,
  jitter: true,
} as const;

/** The type name a schema validator would print for a value. */
function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isNaN(value)) return "nan";
  return typeof value;
}

/** The `invalid_type` problem of option `key`, which should be an `expected` and is `value`. */
function invalidType(key: string, expected: string, value: unknown): RetryConfigIssue {
  const received = typeName(value);
  return {
    path: key,
    message: `Expected ${expected}, received ${received}`,
    code: "invalid_type",
    expected,
    received,
  };
}

/** Collects problems of the shared options into `issues`, in option order. */
function checkNumber(config: Record<string, unknown>, key: string, issues: RetryConfigIssue[]): void {
  const value = config[key];
  if (value === undefined) return;
  if (typeof value !== "number" || Number.isNaN(value)) {
    issues.push(invalidType(key, "number", value));
  } else if (value < 0) {
    issues.push({
      path: key,
      message: "Number must be greater than or equal to 0",
      code: "too_small",
      minimum: 0,
    });
  }
}

/**
 * Validates `onFailure` against the allowed literals (or a function) and records an issue
 * when it is something else.
 */
export function checkOnFailure(value: unknown, allowed: readonly string[], issues: RetryConfigIssue[]): void {
  if (value === undefined || typeof value === "function") return;
  if (typeof value === "string" && allowed.includes(value)) return;
  issues.push({ path: "onFailure", message: "Invalid input", code: "invalid_union" });
}

/**
 * Fills in the defaults of the shared retry options and records a problem for each invalid
 * one in `issues` (the caller throws {@link InvalidRetryConfigError} when there are any).
 */
export function resolveRetrySettings(config: RetryOptions, issues: RetryConfigIssue[]): RetrySettings {
  const raw = config as Record<string, unknown>;
  checkNumber(raw, "maxRetries", issues);
  const retryOn = raw.retryOn;
  if (retryOn !== undefined && typeof retryOn !== "function" && !Array.isArray(retryOn)) {
    issues.push({ path: "retryOn", message: "Invalid input", code: "invalid_union" });
  }
  checkNumber(raw, "backoffFactor", issues);
  checkNumber(raw, "initialDelayMs", issues);
  checkNumber(raw, "maxDelayMs", issues);
  if (raw.jitter !== undefined && typeof raw.jitter !== "boolean") {
    issues.push(invalidType("jitter", "boolean", raw.jitter));
  }
  return {
    maxRetries: config.maxRetries ?? DEFAULTS.maxRetries,
    retryOn: config.retryOn ?? isRetryableByDefault,
    backoffFactor: config.backoffFactor ?? DEFAULTS.backoffFactor,
    initialDelayMs: config.initialDelayMs ?? DEFAULTS.initialDelayMs,
    maxDelayMs: config.maxDelayMs ?? DEFAULTS.maxDelayMs,
    jitter: config.jitter ?? DEFAULTS.jitter,
  };
}

/** LangChain.js marks errors with this registered symbol to say whether a retry may succeed. */
const LANGCHAIN_RETRYABLE = Symbol.for("langchain.errors.retryable");

/**
 * The default `retryOn`: retry unless the error says it is not worth it — our
 * `ModelCallError.isRetryable` (false for 400/401/403/404 and the like), or LangChain.js's
 * retryable stamp.
 */
export function isRetryableByDefault(error: Error): boolean {
  const stamp = Object.getOwnPropertyDescriptor(error, LANGCHAIN_RETRYABLE)?.value;
  if (typeof stamp === "boolean") return stamp;
  if (error instanceof ModelCallError) return error.isRetryable;
  return true;
}

// LangChain.js passes a `retryOn` or `onFailure` function through a Zod 3 function schema, which
// checks the argument is an Error and what the function returns (a boolean, a string): one that
// returns anything else fails the call with that schema's ZodError (a MiddlewareError's cause).
const retryOnCheck = z3.function().args(z3.instanceof(Error)).returns(z3.boolean());
const onFailureCheck = z3.function().args(z3.instanceof(Error)).returns(z3.string());

/** The text an `onFailure` function gives for `error`, checked as LangChain.js checks it. */
export function onFailureText(onFailure: (error: Error) => string, error: Error): string {
  return onFailureCheck.parse(onFailure)(error);
}

/**
 * True when the settings' `retryOn` accepts `error`. A class list matches the error's exact
 * class (`exactClass`, as LangChain.js's model retry does) or any subclass (`instanceof`, as its
 * tool retry does).
 */
export function shouldRetry(settings: RetrySettings, error: Error, exactClass: boolean): boolean {
  const { retryOn } = settings;
  if (typeof retryOn === "function") return retryOnCheck.parse(retryOn)(error);
  return retryOn.some((ErrorClass) =>
    exactClass ? error.constructor === ErrorClass : error instanceof ErrorClass,
  );
}

/**
 * The wait before retry number `retryNumber` (0 for the first retry):
 * `initialDelayMs * backoffFactor ** retryNumber` (just `initialDelayMs` when the factor is 0),
 * capped at `maxDelayMs`, moved by up to ±25 % when `jitter` is on, and never shorter than
 * the wait the server asked for (`retryAfterMs` on the error, or a `retry-after-ms` /
 * `retry-after` response header of a `ModelCallError`).
 *
 * @example
 * ```ts
 * retryDelayFor(settings, 2, new Error("x"), () => 0.5); // 4000 with the defaults (no jitter at 0.5)
 * ```
 */
export function retryDelayFor(
  settings: RetrySettings,
  retryNumber: number,
  error: unknown,
  random: () => number = Math.random,
): number {
  const { backoffFactor, initialDelayMs, maxDelayMs, jitter } = settings;
  let delay = backoffFactor === 0 ? initialDelayMs : initialDelayMs * backoffFactor ** retryNumber;
  delay = Math.min(delay, maxDelayMs);
  if (jitter && delay > 0) delay = Math.max(0, delay + (random() * 2 - 1) * delay * 0.25);
  return Math.max(delay, serverRetryAfterMs(error) ?? 0);
}

/** The wait a server asked for, read from the error (`retryAfterMs`, or the response headers). */
export function serverRetryAfterMs(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const own = (error as { retryAfterMs?: unknown }).retryAfterMs;
  if (typeof own === "number" && own >= 0) return own;
  if (!(error instanceof ModelCallError)) return undefined;
  const hinted = serverHintMs(error.headers);
  return hinted !== undefined && hinted >= 0 ? hinted : undefined;
}

/** The thrown value as an `Error` (anything without a `message` is wrapped). */
export function toError(thrown: unknown): Error {
  if (typeof thrown === "object" && thrown !== null && "message" in thrown) return thrown as Error;
  return new Error(String(thrown));
}

/** "1 attempt", "3 attempts". */
export function attemptsText(attempts: number): string {
  return `${attempts} ${attempts === 1 ? "attempt" : "attempts"}`;
}

/**
 * Runs `attempt` until it succeeds, retrying what {@link shouldRetry} allows with the backoff of
 * `settings`; when the retries run out (or the error is not retried) returns `giveUp(error,
 * attempts)`. Interrupts and other control-flow signals, aborts and a run whose signal aborted
 * are rethrown at once, never retried; a backoff wait ends early when the signal aborts.
 *
 * @example
 * ```ts
 * return retrying(settings, signal, true, () => handler(request), (error, n) => failureMessage(error, n));
 * ```
 */
export async function retrying<T>(
  settings: RetrySettings,
  signal: AbortSignal | undefined,
  exactClass: boolean,
  attempt: () => Promise<T>,
  giveUp: (error: Error, attempts: number) => T,
): Promise<T> {
  for (let retry = 0; ; retry += 1) {
    try {
      return await attempt();
    } catch (thrown) {
      if (isGraphBubbleUp(thrown) || isAbortError(thrown) || signal?.aborted === true) throw thrown;
      const error = toError(thrown);
      if (!shouldRetry(settings, error, exactClass) || retry >= settings.maxRetries) {
        return giveUp(error, retry + 1);
      }
      const delay = retryDelayFor(settings, retry, thrown);
      if (delay > 0) await abortableSleep(delay, signal);
    }
  }
}
