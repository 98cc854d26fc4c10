import { describe, expect, it } from "vitest";
import { splitCallOptions } from "./call-setup.js";

describe("splitCallOptions", () => {
  it("splits config keys from call options, drops undefined values and ignores inherited keys", () => {
    const inherited = Object.create({ stop: ["inherited"] }) as Record<string, unknown>;
    inherited.tags = ["t"];
    inherited.temperature = 0;
    inherited.seed = undefined;
    const { config, callOptions, signal } = splitCallOptions(inherited);
    expect(callOptions).toEqual({ temperature: 0 });
    expect(config.tags).toEqual(["t"]);
    expect(signal).toBeUndefined();
  });

  it("merges the config's signal and the timeout into the call's signal", () => {
    const controller = new AbortController();
    const { callOptions, signal } = splitCallOptions({
      signal: controller.signal,
      timeout: 60_000,
      stop: ["\n"],
    });
    expect(callOptions.stop).toEqual(["\n"]);
    expect(callOptions.signal).toBe(signal);
    expect(signal?.aborted).toBe(false);
    controller.abort();
    expect(signal?.aborted).toBe(true);
  });

  it("takes no options at all", () => {
    expect(splitCallOptions(undefined).callOptions).toStrictEqual({ signal: undefined });
  });

  it("the call options always have a signal key, which a model call's handleChatModelStart shows (LangChain.js)", () => {
    const { callOptions } = splitCallOptions({ stop: ["\n"], tags: ["t"] });
    expect(Object.keys(callOptions)).toEqual(["stop", "signal"]);
    expect(callOptions.signal).toBeUndefined();
  });
});
