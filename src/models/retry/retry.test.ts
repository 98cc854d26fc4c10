import { describe, expect, it, vi } from "vitest";
import { AbortError } from "../../shared/index.js";
import { ModelCallError, ModelRateLimitError, ModelTimeoutError } from "../errors/model-call-error.js";
import { callWithRetry } from "./call-with-retry.js";
import { retryDelayMs } from "./retry-delay.js";

const settings = { maxRetries: 2, provider: "test", displayName: "Test" };
const retryable = (status: number, headers: Record<string, string> = {}) =>
  new ModelCallError(`failed ${status}`, { provider: "test", status, isRetryable: true, headers });

describe("retryDelayMs", () => {
  it("doubles from 500 ms up to 8 s, minus up to 25 % jitter", () => {
    expect([0, 1, 2, 3, 4, 5].map((i) => retryDelayMs(i, {}, () => 0))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000,
    ]);
    expect(retryDelayMs(0, {}, () => 1)).toBe(375);
  });

  it("honours retry-after-ms, then retry-after (seconds or date), within 60 s", () => {
    expect(retryDelayMs(3, { "retry-after-ms": "20" })).toBe(20);
    expect(retryDelayMs(3, { "retry-after": "2" })).toBe(2000);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(
      retryDelayMs(
        0,
        { "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" },
        () => 0,
        () => now,
      ),
    ).toBe(3000);
    expect(retryDelayMs(0, { "retry-after": "120" }, () => 0)).toBe(500);
    expect(retryDelayMs(0, { "retry-after": "soon" }, () => 0)).toBe(500);
  });
});

describe("callWithRetry", () => {
  it("retries retryable errors and returns the first success", async () => {
    let attempts = 0;
    const result = await callWithRetry(async () => {
      attempts += 1;
      if (attempts < 3) throw retryable(503, { "retry-after-ms": "1" });
      return "ok";
    }, settings);
    expect([result, attempts]).toEqual(["ok", 3]);
  });

  it("keeps the error class and records the attempts when retries run out", async () => {
    let attempts = 0;
    const error = await callWithRetry(async () => {
      attempts += 1;
      throw new ModelRateLimitError("limited", {
        provider: "test",
        status: 429,
        isRetryable: true,
        headers: { "retry-after-ms": "1" },
      });
    }, settings).catch((e: unknown) => e);
    expect(attempts).toBe(3);
    expect(error).toBeInstanceOf(ModelRateLimitError);
    expect((error as ModelRateLimitError).attempts).toBe(3);
    expect((error as Error).message).toBe(
      "limited Gave up after 3 attempts (raise `maxRetries` to try longer).",
    );
  });

  it("calls sharing a signal (a step's parallel tasks) add one listener to it, and its abort reaches each", async () => {
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, "addEventListener");
    const calls = Array.from({ length: 20 }, () =>
      callWithRetry(
        (signal) =>
          new Promise<string>((_resolve, reject) =>
            signal.addEventListener("abort", () => reject(signal.reason), { once: true }),
          ),
        { ...settings, signal: controller.signal },
      ),
    );
    expect(add).toHaveBeenCalledTimes(1);
    controller.abort(new Error("stop"));
    const outcomes = await Promise.allSettled(calls);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(new Array(20).fill("rejected"));
  });

  it("never retries non-retryable or foreign errors", async () => {
    let attempts = 0;
    const fail = (error: Error) => async () => {
      attempts += 1;
      throw error;
    };
    await expect(
      callWithRetry(
        fail(new ModelCallError("400", { provider: "t", status: 400, isRetryable: false })),
        settings,
      ),
    ).rejects.toThrow("400");
    await expect(callWithRetry(fail(new TypeError("bug")), settings)).rejects.toThrow(TypeError);
    expect(attempts).toBe(2);
  });

  it("times out a slow attempt and retries it", async () => {
    let attempts = 0;
    const result = await callWithRetry(
      (signal) => {
        attempts += 1;
        if (attempts === 1) {
          return new Promise((_resolve, reject) =>
            signal.addEventListener("abort", () => reject(new Error("aborted"))),
          );
        }
        return Promise.resolve("second");
      },
      { ...settings, timeoutMs: 30 },
    );
    expect([result, attempts]).toEqual(["second", 2]);
    await expect(
      callWithRetry(
        (signal) =>
          new Promise((_r, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")))),
        { ...settings, maxRetries: 0, timeoutMs: 10 },
      ),
    ).rejects.toBeInstanceOf(ModelTimeoutError);
  });

  it("stops on abort, including during the backoff wait", async () => {
    const controller = new AbortController();
    let attempts = 0;
    const pending = callWithRetry(
      async () => {
        attempts += 1;
        throw retryable(500, { "retry-after-ms": "5000" });
      },
      { ...settings, signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(attempts).toBe(1);
  });
});
