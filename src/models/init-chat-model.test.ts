import { afterEach, describe, expect, it, vi } from "vitest";
import { FixtureServer } from "./__tests__/fixture-server.js";
import { MissingApiKeyError, UnknownModelProviderError } from "./errors/configuration-errors.js";
import type { LangSmithParams } from "./index.js";
import {
  type ChatModelProvider,
  type ConfigurableModel,
  type InitChatModelFields,
  inferModelProvider,
  initChatModel,
} from "./init-chat-model.js";
import { ChatAnthropic } from "./providers/anthropic/chat-anthropic.js";
import { ChatOpenAI } from "./providers/openai/chat-openai.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("initChatModel", () => {
  it("builds the provider's model from '<provider>:<model>' and from an inferred name", async () => {
    vi.stubEnv("OPENAI_API_KEY", "sk-env");
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-env");
    const openai = await initChatModel("openai:gpt-4.1-mini", { temperature: 0 });
    expect(openai).toBeInstanceOf(ChatOpenAI);
    expect([openai.model, openai.temperature]).toEqual(["gpt-4.1-mini", 0]);
    const inferred = await initChatModel("gpt-4.1-mini");
    expect(inferred).toBeInstanceOf(ChatOpenAI);
    const claude = await initChatModel("claude-sonnet-4-6", { maxTokens: 512 });
    expect(claude).toBeInstanceOf(ChatAnthropic);
    expect([claude.model, claude.maxTokens]).toEqual(["claude-sonnet-4-6", 512]);
    const explicit = await initChatModel("my-finetune", { modelProvider: "anthropic" });
    expect(explicit).toBeInstanceOf(ChatAnthropic);
  });

  it("infers providers as LangChain.js does", () => {
    expect(
      [
        "gpt-5",
        "o3-mini",
        "o4-mini",
        "chatgpt-4o-latest",
        "claude-opus-4-6",
        "command-r",
        "gemini-2.5-pro",
        "mistral-large",
      ].map(inferModelProvider),
    ).toEqual([
      "openai",
      "openai",
      "openai",
      "openai",
      "anthropic",
      "cohere",
      "google-vertexai",
      "mistralai",
    ]);
    expect(inferModelProvider("llama3.1")).toBeUndefined();
  });

  it("'ollama:<model>' talks to an OpenAI-compatible server without a key", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    vi.stubEnv("OLLAMA_BASE_URL", "");
    const defaultModel = await initChatModel("ollama:llama3.1:8b");
    expect(defaultModel).toBeInstanceOf(ChatOpenAI);
    expect((defaultModel as ChatOpenAI).configuration.baseURL).toBe("http://127.0.0.1:11434/v1");
    expect(defaultModel.model).toBe("llama3.1:8b");

    const server = await FixtureServer.start();
    try {
      server.reply({
        kind: "json",
        body: {
          id: "chatcmpl-ollama",
          model: "llama3.1",
          choices: [{ index: 0, finish_reason: "stop", message: { content: "hi" } }],
        },
      });
      const model = await initChatModel("ollama:llama3.1", { baseUrl: server.url });
      const reply = await model.invoke("hello");
      expect(server.requests[0]?.path).toBe("/v1/chat/completions");
      expect(server.requests[0]?.body).toMatchObject({ model: "llama3.1" });
      expect(reply.response_metadata).toMatchObject({ model_provider: "ollama" });
    } finally {
      await server.close();
    }
    vi.stubEnv("OLLAMA_BASE_URL", "http://gpu-box:11434/");
    expect(((await initChatModel("ollama:qwen3")) as ChatOpenAI).configuration.baseURL).toBe(
      "http://gpu-box:11434/v1",
    );
  });

  it("says which environment variable to set when a key is missing", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    vi.stubEnv("OPENAI_BASE_URL", "");
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    await expect(initChatModel("openai:gpt-4.1-mini")).rejects.toThrow(MissingApiKeyError);
    await expect(initChatModel("openai:gpt-4.1-mini")).rejects.toThrow(
      "OpenAI API key not found. Pass { apiKey } to initChatModel or set the OPENAI_API_KEY environment variable.",
    );
    await expect(initChatModel("anthropic:claude-sonnet-4-6")).rejects.toThrow(/ANTHROPIC_API_KEY/);
    expect(await initChatModel("openai:gpt-4.1-mini", { apiKey: "sk-given" })).toBeInstanceOf(ChatOpenAI);
  });

  it("lists the supported providers for an unknown or unsupported one", async () => {
    await expect(initChatModel("mystery-model")).rejects.toThrow(UnknownModelProviderError);
    await expect(initChatModel("mystery-model")).rejects.toThrow(
      'Unable to infer model provider for { model: mystery-model }, please specify modelProvider directly. Write the model as "<provider>:<model>" (e.g. "openai:mystery-model") or pass { modelProvider }. Supported providers: openai, anthropic, ollama.',
    );
    await expect(initChatModel("cohere:command-r")).rejects.toThrow(
      /^Unsupported \{ modelProvider: cohere \}\.\n\nSupported model providers are: openai, anthropic, ollama/,
    );
  });
});

describe("langchain/chat_models/universal's and @langchain/core's type names", () => {
  it("type initChatModel's fields and result, its providers and a model's LangSmith parameters", async () => {
    vi.stubEnv("OPENAI_API_KEY", "sk-env");
    const fields: InitChatModelFields = { modelProvider: "openai", temperature: 0 };
    const provider: ChatModelProvider = "google-genai";
    const model: ConfigurableModel = await initChatModel("gpt-4.1-mini", fields);
    const params: LangSmithParams = { ls_model_type: "chat", ls_provider: "openai", ls_stop: undefined };
    class Acme extends ChatOpenAI {
      override getLsParams(options: this["ParsedCallOptions"]): LangSmithParams {
        return { ...params, ls_provider: "acme", ls_stop: options.stop };
      }
    }
    expect(new Acme({ model: "m", apiKey: "k" }).getLsParams({})).toMatchObject({ ls_provider: "acme" });
    expect([model.model, provider]).toEqual(["gpt-4.1-mini", "google-genai"]);
  });
});
