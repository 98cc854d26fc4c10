import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { GraphInterrupt } from "../../index.js";
import { AIMessage, HumanMessage, ToolMessage } from "../../messages/index.js";
import type { ToolCallHandler } from "../../prebuilt/index.js";
import { FakeChatModel } from "../../testing/index.js";
import { tool } from "../../tools/index.js";
import { createAgent } from "../create-agent.js";
import { MiddlewareError } from "../errors.js";
import { InvalidRetryConfigError } from "./retry-options.js";
import { type ToolRetryMiddlewareConfig, toolRetryMiddleware } from "./tool-retry.js";

class FlakyError extends Error {}
class FlakierError extends FlakyError {}

/** A tool that throws the scripted errors first, then answers. */
function flakyTool(name: string, failures: unknown[]) {
  const state = { attempts: 0 };
  const t = tool(
    async () => {
      state.attempts += 1;
      if (failures.length > 0) throw failures.shift();
      return `${name} ok`;
    },
    { name, description: `The ${name} tool.`, schema: z.object({}) },
  );
  return { tool: t, state };
}

const asking = (name: string, id = "call_1") =>
  new AIMessage({ content: "", tool_calls: [{ name, args: {}, id, type: "tool_call" }] });

async function run(tools: ReturnType<typeof flakyTool>[], config: ToolRetryMiddlewareConfig, name = "flaky") {
  const model = new FakeChatModel({ responses: [asking(name), "done"] });
  const agent = createAgent({
    model,
    tools: tools.map((t) => t.tool),
    middleware: [toolRetryMiddleware({ initialDelayMs: 1, ...config })],
  });
  const result = await agent.invoke({ messages: [new HumanMessage("hi")] });
  const answer = result.messages.find((m): m is ToolMessage => m instanceof ToolMessage);
  return { result, answer, model };
}

/** Calls the middleware's wrapToolCall directly with a scripted handler. */
function wrapOf(config: ToolRetryMiddlewareConfig) {
  const wrap = toolRetryMiddleware(config).wrapToolCall;
  if (wrap === undefined) throw new Error("no wrapToolCall");
  return (handler: ToolCallHandler, signal?: AbortSignal) =>
    wrap(
      {
        toolCall: { name: "flaky", args: {}, id: "call_1", type: "tool_call" },
        tool: undefined,
        state: { messages: [] },
        runtime: { signal },
      } as never,
      handler as never,
    );
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("toolRetryMiddleware", () => {
  it("checks what retryOn and onFailure functions return, as LangChain.js's Zod 3 schemas do", async () => {
    // a retryOn giving no boolean, or an onFailure giving no string, fails the run with the
    // schema's ZodError (in a MiddlewareError), as in LangChain.js 1.5.14
    const cases: ToolRetryMiddlewareConfig[] = [
      { maxRetries: 1, retryOn: (() => undefined) as never },
      { maxRetries: 0, onFailure: (() => 5) as never },
    ];
    for (const config of cases) {
      const flaky = flakyTool("flaky", [new FlakyError("boom")]);
      const failure = await run([flaky], config).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(MiddlewareError);
      expect((failure as Error).name).toBe("ZodError");
      expect((failure as Error).message).toContain('"code": "invalid_return_type"');
      expect(flaky.state.attempts).toBe(1);
    }
  });

  it("retries a failing tool until it answers", async () => {
    const flaky = flakyTool("flaky", [new FlakyError("1"), new FlakyError("2")]);
    const { answer, result } = await run([flaky], { maxRetries: 2 });
    expect(flaky.state.attempts).toBe(3);
    expect(answer?.text).toBe("flaky ok");
    expect(answer?.status).toBe("success");
    expect(result.messages.at(-1)?.text).toBe("done");
  });

  it("answers with the reference's error message when the retries run out", async () => {
    const flaky = flakyTool("flaky", [new TypeError("a"), new TypeError("b")]);
    const { answer, model } = await run([flaky], { maxRetries: 1 });
    expect(flaky.state.attempts).toBe(2);
    expect(answer?.text).toBe("Tool 'flaky' failed after 2 attempts with TypeError");
    expect(answer).toMatchObject({ status: "error", name: "flaky", tool_call_id: "call_1" });
    // the model got the failure and answered
    expect(model.calls[1]?.at(-1)?.text).toBe("Tool 'flaky' failed after 2 attempts with TypeError");
  });

  it("says '1 attempt' with maxRetries 0", async () => {
    const flaky = flakyTool("flaky", [new TypeError("a")]);
    const { answer } = await run([flaky], { maxRetries: 0 });
    expect(answer?.text).toBe("Tool 'flaky' failed after 1 attempt with TypeError");
  });

  it("fails the run with onFailure 'error'", async () => {
    const flaky = flakyTool("flaky", [new FlakyError("first"), new FlakyError("second")]);
    const error = await run([flaky], { maxRetries: 1, onFailure: "error" }).catch((e: unknown) => e);
    expect(flaky.state.attempts).toBe(2);
    // the tool's last error itself, as LangChain.js rethrows it
    expect(error).toBeInstanceOf(FlakyError);
    expect(error).not.toBeInstanceOf(MiddlewareError);
    expect((error as Error).message).toBe("second");
  });

  it("formats the failure with an onFailure function", async () => {
    const flaky = flakyTool("flaky", [new Error("db down")]);
    const { answer } = await run([flaky], { maxRetries: 0, onFailure: (e) => `Unavailable: ${e.message}` });
    expect(answer?.text).toBe("Unavailable: db down");
    expect(answer?.status).toBe("error");
  });

  it("accepts the deprecated onFailure spellings with a warning", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const flaky = flakyTool("flaky", [new Error("x")]);
    const { answer } = await run([flaky], { maxRetries: 0, onFailure: "return_message" });
    expect(answer?.text).toBe("Tool 'flaky' failed after 1 attempt with Error");
    const again = flakyTool("flaky", [new Error("y")]);
    await expect(run([again], { maxRetries: 0, onFailure: "raise" })).rejects.toThrow("y");
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      "⚠️ `onFailure: 'return_message'` is deprecated. Use `onFailure: 'continue'` instead.",
      "⚠️ `onFailure: 'raise'` is deprecated. Use `onFailure: 'error'` instead.",
    ]);
  });

  it("only retries the listed tools", async () => {
    const flaky = flakyTool("flaky", [new Error("x"), new Error("y")]);
    const other = flakyTool("other", [new Error("z")]);
    const listed = await run([flaky, other], { tools: ["flaky"] });
    expect(listed.answer?.text).toBe("flaky ok");
    expect(flaky.state.attempts).toBe(3);
    // not retried: the error leaves the middleware and, as in LangChain.js, fails the run
    await expect(run([flaky, other], { tools: [flaky.tool] }, "other")).rejects.toThrow(/^z$/);
    expect(other.state.attempts).toBe(1);
  });

  it("matches retryOn classes by subclass", async () => {
    const sub = flakyTool("flaky", [new FlakierError("sub")]);
    expect((await run([sub], { retryOn: [FlakyError] })).answer?.text).toBe("flaky ok");
    const unrelated = flakyTool("flaky", [new RangeError("range")]);
    const { answer } = await run([unrelated], { retryOn: [FlakyError] });
    expect(unrelated.state.attempts).toBe(1);
    expect(answer?.text).toBe("Tool 'flaky' failed after 1 attempt with RangeError");
  });

  it("asks a retryOn predicate", async () => {
    const flaky = flakyTool("flaky", [new Error("transient"), new Error("fatal")]);
    const { answer } = await run([flaky], { retryOn: (e) => e.message === "transient" });
    expect(flaky.state.attempts).toBe(2);
    expect(answer?.text).toBe("Tool 'flaky' failed after 2 attempts with Error");
  });

  it("waits with exponential backoff between attempts", async () => {
    vi.useFakeTimers({ now: 0 });
    const times: number[] = [];
    const pending = wrapOf({ maxRetries: 2, jitter: false, initialDelayMs: 50, backoffFactor: 2 })(
      async () => {
        times.push(Date.now());
        throw new Error("x");
      },
    );
    await vi.runAllTimersAsync();
    const message = (await pending) as ToolMessage;
    expect(times).toEqual([0, 50, 150]);
    expect(message.text).toBe("Tool 'flaky' failed after 3 attempts with Error");
    expect(message.tool_call_id).toBe("call_1");
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
    const controller = new AbortController();
    controller.abort();
    const failure = new Error("x");
    await expect(
      wrapOf({ initialDelayMs: 1 })(async () => {
        calls += 1;
        throw failure;
      }, controller.signal),
    ).rejects.toBe(failure);
    expect(calls).toBe(2);
  });

  it("rejects invalid options", () => {
    expect(() => toolRetryMiddleware({ initialDelayMs: -1 })).toThrow(InvalidRetryConfigError);
    expect(() => toolRetryMiddleware({ onFailure: "ignore" as never })).toThrow(
      "Invalid input\n  → at onFailure",
    );
    expect(() => toolRetryMiddleware({ tools: [5 as never] })).toThrow(
      "Expected a tool name string or tool instance to be passed to toolRetryMiddleware",
    );
    expect(toolRetryMiddleware().name).toBe("toolRetryMiddleware");
  });
});
