import { describe, expect, it } from "vitest";
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
});
