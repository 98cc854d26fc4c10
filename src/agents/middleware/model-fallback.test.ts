import { afterEach, describe, expect, it, vi } from "vitest";
import { GraphInterrupt } from "../../index.js";
import { AIMessage, type BaseMessage, HumanMessage } from "../../messages/index.js";
import { ChatOpenAI, UnknownModelProviderError } from "../../models/index.js";
import { FakeChatModel } from "../../testing/index.js";
import { createAgent } from "../create-agent.js";
import { MiddlewareError } from "../errors.js";
import type { AgentChatModel, ModelCallHandler, ModelRequest } from "../types.js";
import { modelFallbackMiddleware } from "./model-fallback.js";
import { modelRetryMiddleware } from "./model-retry.js";

/** A scripted model that throws `error` on every call when given one. */
class ScriptedModel extends FakeChatModel {
  attempts = 0;
  constructor(
    readonly label: string,
    private readonly error?: Error,
  ) {
    super({ responses: [`answer from ${label}`, `second answer from ${label}`] });
  }
  override async _generate(messages: BaseMessage[]) {
    this.attempts += 1;
    if (this.error !== undefined) throw this.error;
    return super._generate(messages);
  }
}

const hi = { messages: [new HumanMessage("hi")] };

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("modelFallbackMiddleware", () => {
  it("uses the primary model when it answers", async () => {
    const primary = new ScriptedModel("primary");
    const fallback = new ScriptedModel("fallback");
    const agent = createAgent({ model: primary, middleware: [modelFallbackMiddleware(fallback)] });
    const result = await agent.invoke(hi);
    expect(result.messages.at(-1)?.text).toBe("answer from primary");
    expect(fallback.attempts).toBe(0);
  });

  it("tries the fallbacks in order until one answers", async () => {
    const primary = new ScriptedModel("primary", new Error("primary down"));
    const first = new ScriptedModel("first", new Error("first down"));
    const second = new ScriptedModel("second");
    const third = new ScriptedModel("third");
    const agent = createAgent({
      model: primary,
      middleware: [modelFallbackMiddleware(first, second, third)],
    });
    const result = await agent.invoke(hi);
    expect(result.messages.at(-1)?.text).toBe("answer from second");
    expect([primary.attempts, first.attempts, second.attempts, third.attempts]).toEqual([1, 1, 1, 0]);
    // the fallback got the same conversation
    expect(second.calls[0]?.map((m) => m.text)).toEqual(["hi"]);
  });

  it("throws the last fallback's error when every model fails", async () => {
    const agent = createAgent({
      model: new ScriptedModel("primary", new Error("primary down")),
      middleware: [
        modelFallbackMiddleware(
          new ScriptedModel("a", new Error("a down")),
          new ScriptedModel("b", new Error("b down")),
        ),
      ],
    });
    const error = await agent.invoke(hi).catch((e: unknown) => e);
    const root = error instanceof MiddlewareError ? error.cause : error;
    expect((root as Error).message).toBe("b down");
  });

  it("rethrows the primary's error when there are no fallbacks", async () => {
    const agent = createAgent({
      model: new ScriptedModel("primary", new Error("primary down")),
      middleware: [modelFallbackMiddleware()],
    });
    await expect(agent.invoke(hi)).rejects.toThrow("primary down");
  });

  it("keeps the rest of the request for the fallback", async () => {
    const seen: Array<{ model: AgentChatModel; settings: unknown }> = [];
    const primary = new ScriptedModel("primary");
    const fallback = new ScriptedModel("fallback");
    const wrap = modelFallbackMiddleware(fallback).wrapModelCall;
    const handler: ModelCallHandler = async (request) => {
      seen.push({ model: request.model, settings: request.modelSettings });
      if (request.model === primary) throw new Error("down");
      return new AIMessage("ok");
    };
    const request = {
      model: primary,
      modelSettings: { temperature: 0 },
      runtime: {},
    } as unknown as ModelRequest;
    await wrap?.(request as never, handler);
    expect(seen).toEqual([
      { model: primary, settings: { temperature: 0 } },
      { model: fallback, settings: { temperature: 0 } },
    ]);
  });

  it("does not fall back on an interrupt", async () => {
    const fallback = new ScriptedModel("fallback");
    const interrupt = new GraphInterrupt([]);
    const wrap = modelFallbackMiddleware(fallback).wrapModelCall;
    const request = { model: new ScriptedModel("primary"), runtime: {} } as unknown as ModelRequest;
    await expect(
      wrap?.(request as never, async () => {
        throw interrupt;
      }),
    ).rejects.toBe(interrupt);
    expect(fallback.attempts).toBe(0);
  });

  it("resolves string fallbacks with initChatModel, once", async () => {
    vi.stubEnv("OPENAI_API_KEY", "sk-test");
    const wrap = modelFallbackMiddleware("openai:gpt-4.1-mini").wrapModelCall;
    if (wrap === undefined) throw new Error("no wrapModelCall");
    const primary = new ScriptedModel("primary");
    const used: AgentChatModel[] = [];
    const handler: ModelCallHandler = async (request) => {
      if (request.model === primary) throw new Error("down");
      used.push(request.model);
      return new AIMessage("ok");
    };
    const request = { model: primary, runtime: {} } as unknown as ModelRequest;
    await wrap(request as never, handler);
    await wrap(request as never, handler);
    expect(used).toHaveLength(2);
    expect(used[0]).toBeInstanceOf(ChatOpenAI);
    expect(used[1]).toBe(used[0]);
  });

  it("reports a string fallback that cannot be resolved", async () => {
    const wrap = modelFallbackMiddleware("nope:some-model").wrapModelCall;
    if (wrap === undefined) throw new Error("no wrapModelCall");
    const request = { model: new ScriptedModel("primary"), runtime: {} } as unknown as ModelRequest;
    const failing: ModelCallHandler = async () => {
      throw new Error("down");
    };
    const error = await Promise.resolve(wrap(request as never, failing)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownModelProviderError);
  });

  it("composes with modelRetryMiddleware inside it", async () => {
    const primary = new ScriptedModel("primary", new Error("primary down"));
    const fallback = new ScriptedModel("fallback");
    const agent = createAgent({
      model: primary,
      middleware: [
        modelFallbackMiddleware(fallback),
        modelRetryMiddleware({ maxRetries: 1, initialDelayMs: 1, onFailure: "error" }),
      ],
    });
    const result = await agent.invoke(hi);
    expect(primary.attempts).toBe(2);
    expect(result.messages.at(-1)?.text).toBe("answer from fallback");
  });
});

describe("modelFallbackMiddleware called directly", () => {
  it("falls back for a hand-built request that carries no runtime", async () => {
    const primary = new ScriptedModel("primary");
    const fallback = new ScriptedModel("fallback");
    const wrap = modelFallbackMiddleware(fallback).wrapModelCall;
    if (wrap === undefined) throw new Error("expected a wrapModelCall hook");
    const seen: AgentChatModel[] = [];
    const handler: ModelCallHandler = async (request) => {
      seen.push(request.model);
      if (request.model === primary) throw new Error("primary down");
      return new AIMessage("from the fallback");
    };
    const request = { model: primary, messages: [], tools: [] } as unknown as Parameters<typeof wrap>[0];
    const answer = await wrap(request, handler);
    expect(seen).toEqual([primary, fallback]);
    expect(AIMessage.isInstance(answer) ? answer.text : undefined).toBe("from the fallback");
  });
});
