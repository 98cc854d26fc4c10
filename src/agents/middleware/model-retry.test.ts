import { afterEach, describe, expect, it, vi } from "vitest";
import { GraphInterrupt } from "../../index.js";
import { AIMessage, type BaseMessage, HumanMessage } from "../../messages/index.js";
import { ModelAuthenticationError } from "../../models/index.js";
import { FakeChatModel } from "../../testing/index.js";
import { createAgent } from "../create-agent.js";
import { MiddlewareError } from "../errors.js";
import type { ModelCallHandler, ModelRequest } from "../types.js";
import { type ModelRetryMiddlewareConfig, modelRetryMiddleware } from "./model-retry.js";
import { InvalidRetryConfigError } from "./retry-options.js";

class MyError extends Error {}
class MySubError extends MyError {}

/** A scripted model whose first calls throw the given errors. */
class FlakyModel extends FakeChatModel {
  attempts = 0;
  constructor(
    private readonly failures: unknown[],
    responses: Array<AIMessage | string> = ["ok"],
  ) {
    super({ responses });
  }
  override async _generate(messages: BaseMessage[]) {
    this.attempts += 1;
    if (this.failures.length > 0) throw this.failures.shift();
    return super._generate(messages);
  }
}

async function run(model: FlakyModel, config: ModelRetryMiddlewareConfig) {
  const agent = createAgent({ model, middleware: [modelRetryMiddleware({ initialDelayMs: 1, ...config })] });
  return agent.invoke({ messages: [new HumanMessage("hi")] });
}

/** Calls the middleware's wrapModelCall directly with a scripted handler. */
function wrapOf(config: ModelRetryMiddlewareConfig) {
  const wrap = modelRetryMiddleware(config).wrapModelCall;
  if (wrap === undefined) throw new Error("no wrapModelCall");
  return (handler: ModelCallHandler, request: Partial<ModelRequest> = {}) =>
    wrap({ runtime: { signal: undefined }, ...request } as never, handler);
}

afterEach(() => {
  vi.useRealTimers();
});

describe("modelRetryMiddleware", () => {
  it("retries until the model answers", async () => {
    const model = new FlakyModel([new MyError("m1"), new MyError("m2")]);
    const result = await run(model, { maxRetries: 2 });
    expect(model.attempts).toBe(3);
    expect(result.messages.at(-1)?.text).toBe("ok");
    expect(result.messages).toHaveLength(2);
  });

  it("answers with the reference's failure message when the retries run out", async () => {
    const model = new FlakyModel([new MyError("m1"), new MyError("m2"), new MyError("m3")]);
    const result = await run(model, {});
    expect(model.attempts).toBe(3);
    const last = result.messages.at(-1);
    expect(last).toBeInstanceOf(AIMessage);
    expect(last?.text).toBe("Model call failed after 3 attempts with MyError: m3");
  });

  it("checks what retryOn and onFailure functions return, as LangChain.js's Zod 3 schemas do", async () => {
    // LangChain.js 1.5.14: a retryOn giving no boolean, or an onFailure giving no string, fails the
    // call with the schema's ZodError (wrapped in a MiddlewareError); it was read as truthy/falsy
    // (retrying or not) and the number became the answer's content
    const cases: ModelRetryMiddlewareConfig[] = [
      { maxRetries: 2, retryOn: (() => undefined) as never },
      { maxRetries: 2, retryOn: (() => "yes") as never },
      { maxRetries: 0, onFailure: (() => 5) as never },
    ];
    for (const config of cases) {
      const model = new FlakyModel([new MyError("m1")]);
      const failure = await run(model, config).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(MiddlewareError);
      expect((failure as Error).name).toBe("ZodError");
      expect((failure as Error).message).toContain('"code": "invalid_return_type"');
      expect(model.attempts).toBe(1);
    }
  });

  it("says '1 attempt' when nothing is retried", async () => {
    const model = new FlakyModel([new TypeError("bad")]);
    const result = await run(model, { maxRetries: 0 });
    expect(model.attempts).toBe(1);
    expect(result.messages.at(-1)?.text).toBe("Model call failed after 1 attempt with TypeError: bad");
  });

  it("rethrows the last error with onFailure 'error'", async () => {
    const model = new FlakyModel([new MyError("m1"), new MyError("m2")]);
    const error = await run(model, { maxRetries: 1, onFailure: "error" }).catch((e: unknown) => e);
    expect(model.attempts).toBe(2);
    // the model's own error, possibly wrapped by createAgent in a MiddlewareError naming the middleware
    if (error instanceof MiddlewareError) expect(error.middlewareName).toBe("modelRetryMiddleware");
    const root = error instanceof MiddlewareError ? error.cause : error;
    expect(root).toBeInstanceOf(MyError);
    expect((root as Error).message).toBe("m2");
  });

  it("formats the failure with an onFailure function", async () => {
    const model = new FlakyModel([new MyError("down")]);
    const result = await run(model, { maxRetries: 0, onFailure: (e) => `Sorry: ${e.message}` });
    expect(result.messages.at(-1)?.text).toBe("Sorry: down");
  });

  it("retries only the exact classes listed in retryOn", async () => {
    const listed = new FlakyModel([new MyError("a")]);
    expect((await run(listed, { retryOn: [MyError] })).messages.at(-1)?.text).toBe("ok");
    const subclass = new FlakyModel([new MySubError("b")]);
    const result = await run(subclass, { retryOn: [MyError] });
    expect(subclass.attempts).toBe(1);
    expect(result.messages.at(-1)?.text).toBe("Model call failed after 1 attempt with MySubError: b");
  });

  it("asks a retryOn predicate", async () => {
    const seen: string[] = [];
    const model = new FlakyModel([new Error("retry me"), new Error("stop")]);
    const result = await run(model, {
      retryOn: (error) => {
        seen.push(error.message);
        return error.message === "retry me";
      },
    });
    expect(seen).toEqual(["retry me", "stop"]);
    expect(result.messages.at(-1)?.text).toBe("Model call failed after 2 attempts with Error: stop");
  });

  it("does not retry errors marked non-retryable by default", async () => {
    const model = new FlakyModel([
      new ModelAuthenticationError("bad key", { provider: "openai", isRetryable: false }),
    ]);
    const result = await run(model, {});
    expect(model.attempts).toBe(1);
    expect(result.messages.at(-1)?.text).toBe(
      "Model call failed after 1 attempt with ModelAuthenticationError: bad key",
    );
  });

  it("waits initialDelayMs * backoffFactor ** n between attempts", async () => {
    vi.useFakeTimers({ now: 0 });
    const times: number[] = [];
    const wrap = wrapOf({
      maxRetries: 3,
      jitter: false,
      initialDelayMs: 100,
      backoffFactor: 3,
      maxDelayMs: 500,
    });
    const pending = wrap(async () => {
      times.push(Date.now());
      throw new Error("x");
    });
    await vi.runAllTimersAsync();
    const message = await pending;
    expect(times).toEqual([0, 100, 400, 900]);
    expect((message as AIMessage).text).toBe("Model call failed after 4 attempts with Error: x");
  });

  it("waits at least what the server asked for", async () => {
    vi.useFakeTimers({ now: 0 });
    const times: number[] = [];
    const wrap = wrapOf({ maxRetries: 1, jitter: false, initialDelayMs: 10 });
    const pending = wrap(async () => {
      times.push(Date.now());
      if (times.length === 1) throw Object.assign(new Error("busy"), { retryAfterMs: 750 });
      return new AIMessage("ok");
    });
    await vi.runAllTimersAsync();
    await pending;
    expect(times).toEqual([0, 750]);
  });

  it("hands the model maxRetries: 0 unless the request sets it", async () => {
    const seen: unknown[] = [];
    const handler: ModelCallHandler = async (request) => {
      seen.push(request.modelSettings);
      return new AIMessage("ok");
    };
    await wrapOf({})(handler);
    await wrapOf({})(handler, { modelSettings: { maxRetries: 5, temperature: 0 } });
    expect(seen).toEqual([{ maxRetries: 0 }, { maxRetries: 5, temperature: 0 }]);
  });

  it("never retries interrupts or aborted runs", async () => {
    let calls = 0;
    const interrupt = new GraphInterrupt([]);
    await expect(
      wrapOf({ initialDelayMs: 1 })(async () => {
        calls += 1;
        throw interrupt;
      }),
    ).rejects.toBe(interrupt);
    expect(calls).toBe(1);
    const controller = new AbortController();
    controller.abort();
    const failure = new Error("network down");
    await expect(
      wrapOf({ initialDelayMs: 1 })(
        async () => {
          calls += 1;
          throw failure;
        },
        { runtime: { signal: controller.signal } as never },
      ),
    ).rejects.toBe(failure);
    expect(calls).toBe(2);
  });

  it("wraps thrown non-errors", async () => {
    const message = await wrapOf({ maxRetries: 0 })(async () => {
      throw "plain";
    });
    expect((message as AIMessage).text).toBe("Model call failed after 1 attempt with Error: plain");
  });

  it("rejects invalid options", () => {
    expect(() => modelRetryMiddleware({ maxRetries: -1 })).toThrow(InvalidRetryConfigError);
    expect(() => modelRetryMiddleware({ maxRetries: -1 })).toThrow(
      "Number must be greater than or equal to 0\n  → at maxRetries",
    );
    expect(() => modelRetryMiddleware({ onFailure: "nope" as never })).toThrow(
      "Invalid input\n  → at onFailure",
    );
    expect(modelRetryMiddleware().name).toBe("modelRetryMiddleware");
  });
});
