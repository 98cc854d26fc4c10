import { describe, expect, it } from "vitest";
import { ModelAuthenticationError, ModelCallError, ModelRateLimitError } from "../../models/index.js";
import {
  InvalidRetryConfigError,
  isRetryableByDefault,
  type RetryConfigIssue,
  type RetryOptions,
  resolveRetrySettings,
  retryDelayFor,
  serverRetryAfterMs,
  shouldRetry,
  toError,
} from "./retry-options.js";

const settingsOf = (options: RetryOptions) => {
  const issues: RetryConfigIssue[] = [];
  const settings = resolveRetrySettings(options, issues);
  return { settings, issues };
};

describe("retry options", () => {
  it("fills in the reference's defaults", () => {
    const { settings, issues } = settingsOf({});
    expect(issues).toEqual([]);
    expect(settings).toMatchObject({
      maxRetries: 2,
      backoffFactor: 2,
      initialDelayMs: 1000,
      maxDelayMs: 60_000,
      jitter: true,
    });
    expect(typeof settings.retryOn).toBe("function");
  });

  it("reports each invalid option in the reference's words", () => {
    const { issues } = settingsOf({
      maxRetries: -1,
      retryOn: 5 as never,
      backoffFactor: "2" as never,
      initialDelayMs: -5,
      maxDelayMs: Number.NaN,
      jitter: "yes" as never,
    });
    expect(issues.map(({ path, message }) => ({ path, message }))).toEqual([
      { path: "maxRetries", message: "Number must be greater than or equal to 0" },
      { path: "retryOn", message: "Invalid input" },
      { path: "backoffFactor", message: "Expected number, received string" },
      { path: "initialDelayMs", message: "Number must be greater than or equal to 0" },
      { path: "maxDelayMs", message: "Expected number, received nan" },
      { path: "jitter", message: "Expected boolean, received string" },
    ]);
    expect(issues.map((issue) => issue.code)).toEqual([
      "too_small",
      "invalid_union",
      "invalid_type",
      "too_small",
      "invalid_type",
      "invalid_type",
    ]);
    const error = new InvalidRetryConfigError(issues.slice(3, 5));
    expect(error.name).toBe("InvalidRetryConfigError");
    expect(error.message).toBe(
      "Number must be greater than or equal to 0\n  → at initialDelayMs\n✖ Expected number, received nan\n  → at maxDelayMs",
    );
  });

  it("grows the delay exponentially and caps it", () => {
    const { settings } = settingsOf({
      initialDelayMs: 100,
      backoffFactor: 3,
      maxDelayMs: 1000,
      jitter: false,
    });
    expect([0, 1, 2, 3].map((n) => retryDelayFor(settings, n, new Error("x")))).toEqual([
      100, 300, 900, 1000,
    ]);
    const constant = settingsOf({ initialDelayMs: 250, backoffFactor: 0, jitter: false }).settings;
    expect([0, 1, 5].map((n) => retryDelayFor(constant, n, new Error("x")))).toEqual([250, 250, 250]);
  });

  it("moves the delay by at most 25% with jitter", () => {
    const { settings } = settingsOf({ initialDelayMs: 1000, jitter: true });
    expect(retryDelayFor(settings, 0, new Error("x"), () => 0)).toBe(750);
    expect(retryDelayFor(settings, 0, new Error("x"), () => 1)).toBe(1250);
    expect(retryDelayFor(settings, 0, new Error("x"), () => 0.5)).toBe(1000);
  });

  it("never waits less than the server asked", () => {
    const { settings } = settingsOf({ initialDelayMs: 10, jitter: false });
    const hinted = Object.assign(new Error("slow down"), { retryAfterMs: 500 });
    expect(retryDelayFor(settings, 0, hinted)).toBe(500);
    const limited = new ModelRateLimitError("429", {
      provider: "openai",
      isRetryable: true,
      headers: { "retry-after": "2" },
    });
    expect(serverRetryAfterMs(limited)).toBe(2000);
    const ms = new ModelCallError("503", {
      provider: "openai",
      isRetryable: true,
      headers: { "retry-after-ms": "40" },
    });
    expect(serverRetryAfterMs(ms)).toBe(40);
    expect(
      serverRetryAfterMs(new ModelCallError("500", { provider: "openai", isRetryable: true })),
    ).toBeUndefined();
    expect(serverRetryAfterMs("not an error")).toBeUndefined();
  });

  it("retries by default unless the error says it is not retryable", () => {
    expect(isRetryableByDefault(new Error("x"))).toBe(true);
    expect(
      isRetryableByDefault(new ModelAuthenticationError("401", { provider: "openai", isRetryable: false })),
    ).toBe(false);
    expect(
      isRetryableByDefault(new ModelRateLimitError("429", { provider: "openai", isRetryable: true })),
    ).toBe(true);
    const stamped = new Error("stamped");
    Object.defineProperty(stamped, Symbol.for("langchain.errors.retryable"), { value: false });
    expect(isRetryableByDefault(stamped)).toBe(false);
  });

  it("matches class lists exactly or by subclass", () => {
    class Base extends Error {}
    class Derived extends Base {}
    const { settings } = settingsOf({ retryOn: [Base] });
    expect(shouldRetry(settings, new Base("b"), true)).toBe(true);
    expect(shouldRetry(settings, new Derived("d"), true)).toBe(false);
    expect(shouldRetry(settings, new Derived("d"), false)).toBe(true);
    expect(shouldRetry(settings, new Error("e"), false)).toBe(false);
  });

  it("wraps thrown values that are not errors", () => {
    const error = toError("plain string");
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe("plain string");
    const original = new TypeError("t");
    expect(toError(original)).toBe(original);
  });
});
