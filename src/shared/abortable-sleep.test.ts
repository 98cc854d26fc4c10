import { describe, expect, it, vi } from "vitest";
import { abortableSleep } from "./abortable-sleep.js";
import { AbortError } from "./errors.js";

describe("abortableSleep", () => {
  it("stops sleeping when the signal aborts", async () => {
    const controller = new AbortController();
    const pending = abortableSleep(60_000, controller.signal);
    controller.abort(new Error("cancelled"));
    await expect(pending).rejects.toThrow("cancelled");
    await expect(abortableSleep(10, controller.signal)).rejects.toThrow("cancelled");
    await expect(abortableSleep(1, undefined)).resolves.toBeUndefined();
  });

  it("rejects with an AbortError when the signal has no reason", async () => {
    const signal = { aborted: true, reason: undefined } as unknown as AbortSignal;
    await expect(abortableSleep(10, signal)).rejects.toBeInstanceOf(AbortError);
  });

  it("adds one listener to a signal many sleeps share (a step's tasks waiting to retry), and wakes them all", async () => {
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, "addEventListener");
    const sleeps = Array.from({ length: 30 }, () => abortableSleep(60_000, controller.signal));
    expect(add).toHaveBeenCalledTimes(1);
    controller.abort(new Error("stop"));
    const outcomes = await Promise.allSettled(sleeps);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(new Array(30).fill("rejected"));
    await expect(abortableSleep(5, new AbortController().signal)).resolves.toBeUndefined();
  });
});
