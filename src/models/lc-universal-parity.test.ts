import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ModelConfigurationError, UnknownModelProviderError } from "./errors/configuration-errors.js";
import { initChatModel } from "./init-chat-model.js";
import { ChatAnthropic } from "./providers/anthropic/chat-anthropic.js";
import { ChatOpenAI } from "./providers/openai/chat-openai.js";

// Parity with LangChain.js 1.5 `initChatModel` (chat_models/universal), as far as a fixed
// (non-configurable) model can show it.

beforeEach(() => {
  vi.stubEnv("OPENAI_API_KEY", "sk-parity");
  vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-parity");
  vi.stubEnv("OPENAI_BASE_URL", "");
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("initChatModel profile option", () => {
  it("reports the given profile instead of the table's, through bindTools and withConfig", async () => {
    const model = await initChatModel("gpt-4o-mini", { profile: { maxInputTokens: 4_096 } });
    expect(model).toBeInstanceOf(ChatOpenAI);
    expect(model.profile).toEqual({ maxInputTokens: 4_096 });
    expect(model.withConfig({ tags: ["t"] }).profile).toEqual({ maxInputTokens: 4_096 });
    const withTools = model.bindTools([
      {
        type: "function",
        function: { name: "noop", description: "does nothing", parameters: { type: "object" } },
      },
    ]);
    expect(withTools.profile.maxInputTokens).toBe(4_096);
  });

  it("an empty profile also replaces the table's one", async () => {
    const claude = await initChatModel("claude-sonnet-4-5", { profile: {} });
    expect(claude).toBeInstanceOf(ChatAnthropic);
    expect(claude.profile).toEqual({});
  });

  it("without the option the model's own profile is reported", async () => {
    const model = await initChatModel("gpt-4o-mini", { temperature: 0 });
    expect(model.profile.maxInputTokens).toBe(128_000);
    expect(model.profile.toolCalling).toBe(true);
  });

  it("the reported profile cannot be changed by mutating what was passed or returned", async () => {
    const given = { maxInputTokens: 10 };
    const model = new ChatAnthropic({ model: "claude-haiku-4-5", apiKey: "sk-ant-test", profile: given });
    given.maxInputTokens = 20;
    const reported = model.profile;
    reported.maxInputTokens = 30;
    expect(model.profile).toEqual({ maxInputTokens: 10 });
  });
});

describe("initChatModel provider prefixes", () => {
  it.each([
    ["google:gemini-2.5-pro", "google"],
    ["mistral:mistral-large-latest", "mistral"],
    ["aws:anthropic.claude-3-5-sonnet", "aws"],
    ["langsmith:moonshotai/kimi-k2", "langsmith"],
    ["groq:llama-3.3-70b", "groq"],
  ])("splits %s as LangChain.js does and names %s as unsupported", async (name, provider) => {
    const attempt = initChatModel(name);
    await expect(attempt).rejects.toThrow(UnknownModelProviderError);
    await expect(initChatModel(name)).rejects.toThrow(
      new RegExp(`^Unsupported \\{ modelProvider: ${provider} \\}\\.\\n\\nSupported model providers are: `),
    );
  });

  it("an unknown prefix stays part of the model name", async () => {
    await expect(initChatModel("acme:gpt-4o")).rejects.toThrow(
      /^Unable to infer model provider for \{ model: acme:gpt-4o \}, please specify modelProvider directly\./,
    );
    const viaOption = await initChatModel("acme:gpt-4o", { modelProvider: "openai" });
    expect(viaOption.model).toBe("acme:gpt-4o");
  });
});

describe("initChatModel without a model name", () => {
  it("asks for a provider instead of failing with a TypeError", async () => {
    await expect(initChatModel()).rejects.toThrow(UnknownModelProviderError);
    await expect(initChatModel(undefined, {})).rejects.toThrow(
      /^Unable to infer model provider for \{ model: undefined \}, please specify modelProvider directly\./,
    );
  });

  it("takes the name from the options' model field", async () => {
    const claude = await initChatModel(undefined, { model: "claude-haiku-4-5", maxTokens: 64 });
    expect(claude).toBeInstanceOf(ChatAnthropic);
    expect([claude.model, claude.maxTokens]).toEqual(["claude-haiku-4-5", 64]);
    const positionalWins = await initChatModel("gpt-4o", { model: "gpt-4.1" });
    expect(positionalWins.model).toBe("gpt-4o");
  });

  it("builds the provider's default model when the provider is given", async () => {
    const model = await initChatModel(undefined, { modelProvider: "openai" });
    expect(model).toBeInstanceOf(ChatOpenAI);
    expect(model.model.length).toBeGreaterThan(0);
  });
});

describe("initChatModel configurable options", () => {
  it("rejects configurableFields and configPrefix instead of ignoring them", async () => {
    const options: Record<string, unknown> = { configurableFields: ["model", "temperature"] };
    await expect(initChatModel("gpt-4o", options)).rejects.toThrow(ModelConfigurationError);
    await expect(initChatModel("gpt-4o", options)).rejects.toThrow(/remove \{ configurableFields \}/);
    const both: Record<string, unknown> = { configurableFields: "any", configPrefix: "first" };
    await expect(initChatModel(undefined, both)).rejects.toThrow(
      /remove \{ configurableFields, configPrefix \}/,
    );
  });

  it("accepts their empty defaults", async () => {
    const options: Record<string, unknown> = { configurableFields: undefined, configPrefix: "" };
    expect(await initChatModel("gpt-4o", options)).toBeInstanceOf(ChatOpenAI);
  });
});

describe("LanguageModelLike (the type ported annotations name)", () => {
  it("is what a chat model, a bound model and a model with retries satisfy", async () => {
    const { FakeChatModel } = await import("../testing/index.js");
    const model = new FakeChatModel({ responses: ["a", "b"] });
    const typed: import("./index.js").LanguageModelLike[] = [model, model.withRetry()];
    expect((await typed[0]?.invoke("hi"))?.text).toBe("a");
    expect((await typed[1]?.invoke("hi"))?.text).toBe("b");
  });
});
