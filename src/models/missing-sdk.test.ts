import { afterEach, describe, expect, it, vi } from "vitest";
import { ModelConfigurationError } from "./errors/configuration-errors.js";
import { initChatModel } from "./init-chat-model.js";

afterEach(() => {
  vi.doUnmock("openai");
  vi.doUnmock("@anthropic-ai/sdk");
});

describe("a provider SDK that is not installed", () => {
  it("makes the first call fail with an error naming the package to install", async () => {
    vi.doMock("openai", () => {
      throw new Error("Cannot find package 'openai'");
    });
    vi.doMock("@anthropic-ai/sdk", () => {
      throw new Error("Cannot find package '@anthropic-ai/sdk'");
    });
    const gpt = await initChatModel("openai:gpt-4.1-mini", { apiKey: "sk-test", maxRetries: 0 });
    const gptError = await gpt.invoke("hi").catch((e: unknown) => e);
    expect(gptError).toBeInstanceOf(ModelConfigurationError);
    expect((gptError as Error).message).toBe(
      'Could not load the "openai" package, which ChatOpenAI uses. Install it with `npm install openai`.',
    );
    const claude = await initChatModel("anthropic:claude-sonnet-4-6", {
      apiKey: "sk-ant-test",
      maxRetries: 0,
    });
    const claudeError = await claude.invoke("hi").catch((e: unknown) => e);
    expect(claudeError).toBeInstanceOf(ModelConfigurationError);
    expect((claudeError as Error).message).toBe(
      'Could not load the "@anthropic-ai/sdk" package, which ChatAnthropic uses. ' +
        "Install it with `npm install @anthropic-ai/sdk`.",
    );
  });
});
