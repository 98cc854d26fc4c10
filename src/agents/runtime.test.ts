import { describe, expect, it } from "vitest";
import type { LangGraphRunnableConfig } from "../graph/index.js";
import { agentRuntime } from "./runtime.js";

describe("agentRuntime", () => {
  it("is a frozen object with the runtime's fields, its signal read from the config when asked for", () => {
    let made = 0;
    const controller = new AbortController();
    const interrupt = (value: unknown) => value;
    const config = {
      configurable: { thread_id: "t" },
      writer: () => undefined,
      interrupt,
      get signal() {
        made += 1;
        return controller.signal;
      },
    } as unknown as LangGraphRunnableConfig<unknown>;
    const runtime = agentRuntime(config, { user: "u1" });
    expect(Object.keys(runtime)).toEqual([
      "context",
      "store",
      "configurable",
      "writer",
      "interrupt",
      "signal",
    ]);
    expect(Object.isFrozen(runtime)).toBe(true);
    expect(made).toBe(0);
    expect(runtime.signal).toBe(controller.signal);
    expect(made).toBe(1);
    expect(runtime.context).toEqual({ user: "u1" });
    expect(runtime.configurable).toBe(config.configurable);
    expect(runtime.interrupt).toBe(interrupt);
    // a spread copy carries the signal, as a plain object with an own getter would
    expect({ ...runtime }.signal).toBe(controller.signal);
    // each runtime reads its own config
    const other = agentRuntime({} as LangGraphRunnableConfig<unknown>, undefined);
    expect(other.signal).toBeUndefined();
    expect(runtime.signal).toBe(controller.signal);
  });
});
