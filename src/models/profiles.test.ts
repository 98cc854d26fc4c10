import { describe, expect, it } from "vitest";
import { AIMessage, type BaseMessage } from "../messages/index.js";
import { FakeChatModel } from "../testing/index.js";
import { BaseChatModel, ChatAnthropic, ChatOpenAI, type ChatResult } from "./index.js";
import { modelProfile } from "./profiles.js";

class EchoModel extends BaseChatModel {
  _llmType(): string {
    return "echo";
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const text = messages.at(-1)?.text ?? "";
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}

describe("model profiles", () => {
  it("describe what a provider model can do and its token limits", () => {
    const gpt = new ChatOpenAI({ model: "gpt-4.1-mini", apiKey: "sk-test" });
    expect(gpt.profile).toMatchObject({
      toolCalling: true,
      toolChoice: true,
      structuredOutput: true,
      maxInputTokens: 1_047_576,
      maxOutputTokens: 32_768,
    });
    const claude = new ChatAnthropic({ model: "claude-sonnet-4-20250514", apiKey: "sk-ant-test" });
    expect(claude.profile).toMatchObject({
      toolCalling: true,
      toolChoice: true,
      maxInputTokens: 200_000,
      maxOutputTokens: 64_000,
      reasoningOutput: true,
    });
  });

  it("give an unknown model only its provider's capabilities, without limits", () => {
    const local = new ChatOpenAI({ model: "llama3.1", configuration: { baseURL: "http://127.0.0.1:1/v1" } });
    expect(local.profile.toolCalling).toBe(true);
    expect(local.profile.structuredOutput).toBe(true);
    expect(local.profile.maxInputTokens).toBeUndefined();
    expect(local.profile.maxOutputTokens).toBeUndefined();
    expect(modelProfile("mystery", "m")).toEqual({});
  });

  it("give LangChain.js's limits and capabilities for the families it knows", () => {
    const limits = (provider: string, model: string) => {
      const p = modelProfile(provider, model);
      return [p.maxInputTokens, p.maxOutputTokens, p.imageInputs, p.reasoningOutput];
    };
    expect(limits("openai", "gpt-5")).toEqual([400_000, 128_000, true, true]);
    expect(limits("openai", "gpt-4o")).toEqual([128_000, 16_384, true, false]);
    expect(limits("openai", "gpt-4-turbo")).toEqual([128_000, 4_096, true, false]);
    expect(limits("openai", "gpt-3.5-turbo")).toEqual([16_385, 4_096, false, false]);
    expect(limits("openai", "o3-mini")).toEqual([200_000, 100_000, false, true]);
    expect(limits("anthropic", "claude-sonnet-4-6")).toEqual([1_000_000, 128_000, true, true]);
    expect(limits("anthropic", "claude-sonnet-4-5-20250929")).toEqual([1_000_000, 64_000, true, true]);
    expect(limits("anthropic", "claude-opus-4-5")).toEqual([200_000, 64_000, true, true]);
  });

  it("match the most specific model family", () => {
    expect(modelProfile("openai", "gpt-4o-mini").maxOutputTokens).toBe(16_384);
    expect(modelProfile("openai", "gpt-5-mini")).toMatchObject({
      maxInputTokens: 400_000,
      reasoningOutput: true,
    });
    expect(modelProfile("anthropic", "claude-3-5-haiku-latest").maxOutputTokens).toBe(8_192);
  });

  it("survive bindTools and withConfig, and are empty for custom and fake models", () => {
    const gpt = new ChatOpenAI({ model: "gpt-4o", apiKey: "sk-test" });
    expect(gpt.bindTools([]).profile).toEqual(gpt.profile);
    expect(gpt.withConfig({ tags: ["x"] }).profile).toEqual(gpt.profile);
    expect(new EchoModel().profile).toEqual({});
    expect(new FakeChatModel({ responses: [] }).profile).toEqual({});
  });
});
