import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { LangGraphRunnableConfig } from "../graph/index.js";
import { FakeChatModel } from "../testing/index.js";
import { createAgent } from "./create-agent.js";
import { createMiddleware } from "./middleware.js";
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

describe("the context middleware hooks see", () => {
  const writes = (target: Record<string, unknown>, key: string): string => {
    try {
      target[key] = 1;
      return "written";
    } catch (error) {
      return (error as Error).message;
    }
  };

  it("is a frozen copy in node hooks (an empty one without a run context); wrapModelCall may write to it", async () => {
    const context: Record<string, unknown> = { user: "u" };
    const seen: Record<string, unknown> = {};
    const recorder = createMiddleware({
      name: "Recorder",
      beforeModel: (_state, runtime) => {
        const hookContext = runtime.context as Record<string, unknown>;
        seen.same = hookContext === context;
        seen.user = hookContext.user;
        seen.hook = writes(hookContext, "fromHook");
      },
      wrapModelCall: (request, handler) => {
        seen.wrap = writes(request.runtime.context as Record<string, unknown>, "fromWrap");
        return handler(request);
      },
    });
    const model = new FakeChatModel({ responses: ["a", "b"] });
    const agent = createAgent({ model, middleware: [recorder] });
    await agent.invoke({ messages: [{ role: "user", content: "hi" }] }, { context });
    expect(seen).toEqual({
      same: false,
      user: "u",
      hook: "Cannot add property fromHook, object is not extensible",
      wrap: "written",
    });
    // the caller's object changed only through wrapModelCall, as in LangChain.js
    expect(context).toEqual({ user: "u", fromWrap: 1 });

    let empty: unknown;
    const reader = createMiddleware({
      name: "Reader",
      beforeModel: (_state, runtime) => {
        empty = (runtime.context as { missing?: unknown }).missing;
      },
    });
    await createAgent({ model, middleware: [reader] }).invoke({
      messages: [{ role: "user", content: "hi" }],
    });
    expect(empty).toBeUndefined();
  });

  it("is the caller's own object when that is an instance of a class (its methods kept)", async () => {
    class Session {
      constructor(readonly user: string) {}
      greeting(): string {
        return `hello ${this.user}`;
      }
    }
    const session = new Session("u");
    let greeting: unknown;
    const greeter = createMiddleware({
      name: "Greeter",
      beforeModel: (_state, runtime) => {
        greeting = (runtime.context as unknown as Session).greeting();
      },
    });
    await createAgent({ model: new FakeChatModel({ responses: ["a"] }), middleware: [greeter] }).invoke(
      { messages: [{ role: "user", content: "hi" }] },
      { context: session as unknown as Record<string, unknown> },
    );
    expect(greeting).toBe("hello u");
  });

  it("is the schema's plain parse in wrapModelCall when the middleware has a contextSchema", async () => {
    let wrap = "";
    const typed = createMiddleware({
      name: "Typed",
      contextSchema: z.object({ user: z.string() }),
      wrapModelCall: (request, handler) => {
        wrap = writes(request.runtime.context as Record<string, unknown>, "note");
        return handler(request);
      },
    });
    const context = { user: "u" };
    await createAgent({ model: new FakeChatModel({ responses: ["a"] }), middleware: [typed] }).invoke(
      { messages: [{ role: "user", content: "hi" }] },
      { context },
    );
    expect(wrap).toBe("written");
    expect(context).toEqual({ user: "u" });
  });
});
