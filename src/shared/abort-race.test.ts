import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { neverAborted, onAbort, raceSignal } from "./abort-race.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

describe("raceSignal and onAbort", () => {
  it("does not race a signal that can never abort: the same promise, no listener", async () => {
    const signal = neverAborted(new AbortController().signal);
    const add = vi.spyOn(signal, "addEventListener");
    const work = Promise.resolve(7);
    expect(raceSignal(work, signal, () => "aborted")).toBe(work);
    const cancel = onAbort(signal, () => {});
    cancel();
    expect(add).not.toHaveBeenCalled();
    await expect(work).resolves.toBe(7);
  });

  it("uses one listener per signal however many waits there are", async () => {
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, "addEventListener");
    const remove = vi.spyOn(controller.signal, "removeEventListener");
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        raceSignal(Promise.resolve(i), controller.signal, () => "aborted"),
      ),
    );
    expect(results).toHaveLength(50);
    expect(add).toHaveBeenCalledTimes(1);
    expect(remove).not.toHaveBeenCalled();
  });

  it("rejects every pending wait with its own reason when the signal aborts, and no settled one", async () => {
    const controller = new AbortController();
    const settled = raceSignal(Promise.resolve("done"), controller.signal, () => new Error("late"));
    await expect(settled).resolves.toBe("done");
    const never = new Promise<string>(() => {});
    const a = raceSignal(never, controller.signal, () => new Error("a aborted"));
    const b = raceSignal(never, controller.signal, () => new Error("b aborted"));
    controller.abort("stop");
    await expect(a).rejects.toThrow("a aborted");
    await expect(b).rejects.toThrow("b aborted");
  });

  it("rejects at once on a signal that already aborted, and ignores the work's later failure", async () => {
    const controller = new AbortController();
    controller.abort();
    const failing = Promise.reject(new Error("work failed"));
    await expect(raceSignal(failing, controller.signal, () => new Error("aborted"))).rejects.toThrow(
      "aborted",
    );
  });

  it("passes the work's own outcome through without a signal", async () => {
    await expect(raceSignal(Promise.reject(new Error("boom")), undefined, () => "x")).rejects.toThrow("boom");
  });

  it("does not call a cancelled callback, and calls one registered twice twice", () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const cancel = onAbort(controller.signal, () => calls.push("cancelled"));
    const twice = () => calls.push("twice");
    onAbort(controller.signal, twice);
    onAbort(controller.signal, twice);
    cancel();
    controller.abort();
    expect(calls).toEqual(["twice", "twice"]);
  });

  it("keeps nothing of a finished wait on a signal that stays: not even the one that installed the listener", async () => {
    const controller = new AbortController();
    const refs: WeakRef<object>[] = [];
    const wait = () => {
      const state = { big: new Array(1000).fill(0) };
      refs.push(new WeakRef(state));
      return raceSignal(
        Promise.resolve(state),
        controller.signal,
        () => "aborted",
        () => state,
      );
    };
    await wait();
    await wait();
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    expect(refs.map((ref) => ref.deref() === undefined)).toEqual([true, true]);
  });
});
