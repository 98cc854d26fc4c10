import { getEnvironmentVariable } from "./env.js";
import { MissingApiKeyError, UnknownModelProviderError } from "./errors/configuration-errors.js";
import { ChatAnthropic, type ChatAnthropicFields } from "./providers/anthropic/chat-anthropic.js";
import { ChatOpenAI, type ChatOpenAIFields } from "./providers/openai/chat-openai.js";
import type { SpecChatModel } from "./spec-adapter/spec-chat-model.js";

/** Providers `initChatModel` can build. */
const SUPPORTED = ["openai", "anthropic", "ollama"] as const;

/** Providers LangChain.js knows, so that `"<provider>:<model>"` splits the same way. */
const KNOWN = new Set<string>([
  ...SUPPORTED,
  "azure_openai",
  "cohere",
  "google-vertexai",
  "google-vertexai-web",
  "google-genai",
  "bedrock",
  "mistralai",
  "groq",
  "cerebras",
  "deepseek",
  "xai",
  "fireworks",
  "together",
  "perplexity",
]);

const OLLAMA_DEFAULT_URL = "http://127.0.0.1:11434/v1";

/**
 * Options of {@link initChatModel}: `modelProvider` plus the options of the provider's class
 * (`ChatOpenAIFields` or `ChatAnthropicFields`); `baseUrl` also works for Ollama.
 *
 * @example
 * ```ts
 * const options: InitChatModelOptions = { modelProvider: "ollama", temperature: 0, baseUrl: "http://gpu-box:11434" };
 * ```
 */
export type InitChatModelOptions = (ChatOpenAIFields & ChatAnthropicFields) & {
  modelProvider?: string | undefined;
  /** Ollama server URL (`http://host:11434`; `/v1` is added). Defaults to OLLAMA_BASE_URL or 127.0.0.1. */
  baseUrl?: string | undefined;
};

/**
 * Which provider serves a model name, following LangChain.js: `gpt-…`, `o1`/`o3`/`o4`… and
 * `chatgpt…` are OpenAI, `claude…` Anthropic, `command…` Cohere, `gemini…` Google, and so
 * on. `undefined` when the name says nothing.
 *
 * @example
 * ```ts
 * inferModelProvider("gpt-4.1-mini"); // "openai"
 * inferModelProvider("claude-sonnet-4-6"); // "anthropic"
 * ```
 */
export function inferModelProvider(model: string): string | undefined {
  if (/^(gpt-3|gpt-4|gpt-5|o1|o3|o4|chatgpt|text-davinci)/.test(model)) return "openai";
  if (model.startsWith("claude")) return "anthropic";
  if (model.startsWith("command")) return "cohere";
  if (model.startsWith("accounts/fireworks")) return "fireworks";
  if (model.startsWith("gemini")) return "google-vertexai";
  if (model.startsWith("amazon.")) return "bedrock";
  if (model.startsWith("mistral")) return "mistralai";
  if (model.startsWith("sonar") || model.startsWith("pplx")) return "perplexity";
  return undefined;
}

/**
 * Creates a chat model from a name, as LangChain.js `initChatModel` does:
 * `"openai:gpt-4.1-mini"`, `"anthropic:claude-sonnet-4-6"`, `"ollama:llama3.1"` (an
 * OpenAI-compatible server at `http://127.0.0.1:11434/v1` by default, no key needed), or a
 * bare name whose provider is inferred (`"gpt-4.1-mini"`), or `{ modelProvider }`. Keys come
 * from the options or the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY; OPENAI_BASE_URL,
 * ANTHROPIC_BASE_URL, OLLAMA_BASE_URL for servers). A missing key or an unknown provider
 * throws a typed error that says what to set.
 *
 * @example
 * ```ts
 * const model = await initChatModel("openai:gpt-4.1-mini", { temperature: 0 });
 * const local = await initChatModel("ollama:llama3.1");
 * ```
 */
export async function initChatModel(
  model: string,
  options: InitChatModelOptions = {},
): Promise<SpecChatModel> {
  let name = model;
  let provider = options.modelProvider;
  if (provider === undefined && name.includes(":")) {
    const [prefix, ...rest] = name.split(":");
    if (prefix !== undefined && KNOWN.has(prefix)) {
      provider = prefix;
      name = rest.join(":");
    }
  }
  provider ??= inferModelProvider(name);
  if (provider === undefined) {
    throw new UnknownModelProviderError(
      `Unable to infer model provider for { model: ${model} }, please specify modelProvider directly. ` +
        `Write the model as "<provider>:<model>" (e.g. "openai:${model}") or pass { modelProvider }. ` +
        `Supported providers: ${SUPPORTED.join(", ")}.`,
    );
  }
  const { modelProvider: _ignored, baseUrl, ...fields } = options;
  switch (provider) {
    case "openai": {
      const baseURL = fields.configuration?.baseURL ?? getEnvironmentVariable("OPENAI_BASE_URL");
      if (baseURL === undefined) requireKey(fields.apiKey ?? fields.openAIApiKey, "OPENAI_API_KEY", "OpenAI");
      return new ChatOpenAI({ ...fields, model: name });
    }
    case "anthropic":
      requireKey(fields.apiKey ?? fields.anthropicApiKey, "ANTHROPIC_API_KEY", "Anthropic");
      return new ChatAnthropic({ ...fields, model: name });
    case "ollama":
      return new ChatOpenAI({
        ...fields,
        model: name,
        apiKey: fields.apiKey ?? "ollama",
        modelProvider: "ollama",
        configuration: {
          ...fields.configuration,
          baseURL: fields.configuration?.baseURL ?? ollamaUrl(baseUrl),
        },
      });
    default:
      throw new UnknownModelProviderError(
        `Unsupported { modelProvider: ${provider} }.\n\nSupported model providers are: ${SUPPORTED.join(", ")}. ` +
          "For another OpenAI-compatible server, use new ChatOpenAI({ model, configuration: { baseURL } }).",
      );
  }
}

function requireKey(explicit: string | undefined, variable: string, provider: string): void {
  if (explicit !== undefined || getEnvironmentVariable(variable) !== undefined) return;
  throw new MissingApiKeyError(
    `${provider} API key not found. Pass { apiKey } to initChatModel or set the ${variable} environment variable.`,
  );
}

function ollamaUrl(explicit: string | undefined): string {
  const base = explicit ?? getEnvironmentVariable("OLLAMA_BASE_URL");
  if (base === undefined) return OLLAMA_DEFAULT_URL;
  const trimmed = base.replace(/\/+$/, "");
  return trimmed.endsWith("/v1") ? trimmed : `${trimmed}/v1`;
}
