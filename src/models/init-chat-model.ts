import { getEnvironmentVariable } from "./env.js";
import {
  MissingApiKeyError,
  ModelConfigurationError,
  UnknownModelProviderError,
} from "./errors/configuration-errors.js";
import { ChatAnthropic, type ChatAnthropicFields } from "./providers/anthropic/chat-anthropic.js";
import { ChatOpenAI, type ChatOpenAIFields } from "./providers/openai/chat-openai.js";
import type { SpecChatModel } from "./spec-adapter/spec-chat-model.js";

/** Providers `initChatModel` can build. */
const SUPPORTED = ["openai", "anthropic", "ollama"] as const;

/**
 * Providers LangChain.js 1.5 knows (its `MODEL_PROVIDER_CONFIG` keys), so that
 * `"<provider>:<model>"` splits the same way and an unsupported one is named as such.
 */
const PROVIDERS = [
  ...SUPPORTED,
  "azure_openai",
  "langsmith",
  "cohere",
  "google",
  "google-vertexai",
  "google-vertexai-web",
  "google-genai",
  "mistralai",
  "mistral",
  "groq",
  "bedrock",
  "aws",
  "deepseek",
  "xai",
  "cerebras",
  "fireworks",
  "together",
  "perplexity",
] as const;
const KNOWN: ReadonlySet<string> = new Set<string>(PROVIDERS);

/**
 * The providers LangChain.js's `initChatModel` knows (`"openai"`, `"anthropic"`, `"google-genai"`,
 * ...); agentgraph's builds `openai`, `anthropic` and `ollama` models and names the others as
 * unsupported.
 */
export type ChatModelProvider = (typeof PROVIDERS)[number];

/** LangChain.js options that make a configurable model, which agentgraph does not build. */
const CONFIGURABLE_OPTIONS = ["configurableFields", "configPrefix"] as const;

const OLLAMA_DEFAULT_URL = "http://127.0.0.1:11434/v1";

/**
 * Options of {@link initChatModel}: `modelProvider` plus the options of the provider's class
 * (`ChatOpenAIFields` or `ChatAnthropicFields`, including `profile`, which replaces the
 * model's reported profile); `baseUrl` also works for Ollama.
 *
 * @example
 * ```ts
 * const options: InitChatModelOptions = { modelProvider: "ollama", temperature: 0, baseUrl: "http://gpu-box:11434" };
 * const small: InitChatModelOptions = { profile: { maxInputTokens: 32_000 } };
 * ```
 */
export type InitChatModelOptions = (ChatOpenAIFields & ChatAnthropicFields) & {
  modelProvider?: string | undefined;
  /** Ollama server URL (`http://host:11434`; `/v1` is added). Defaults to OLLAMA_BASE_URL or 127.0.0.1. */
  baseUrl?: string | undefined;
};

/** LangChain.js's name for {@link InitChatModelOptions}. */
export type InitChatModelFields = InitChatModelOptions;

/**
 * What {@link initChatModel} returns, under LangChain.js's name for it: the provider's model
 * itself (a `ChatOpenAI`, `ChatAnthropic`…), not a configurable model (a type only: nothing is
 * an instance of it).
 */
export type ConfigurableModel = SpecChatModel;

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
 * throws a typed error that says what to set. The result is the provider's model itself, not
 * LangChain.js's configurable model: `configurableFields` and `configPrefix` are rejected
 * with a `ModelConfigurationError` rather than silently ignored.
 *
 * @example
 * ```ts
 * const model = await initChatModel("openai:gpt-4.1-mini", { temperature: 0 });
 * const local = await initChatModel("ollama:llama3.1");
 * ```
 */
export async function initChatModel(
  model?: string,
  options: InitChatModelOptions = {},
): Promise<SpecChatModel> {
  rejectConfigurableOptions(options);
  let name = model;
  let provider = options.modelProvider;
  if (provider === undefined && name?.includes(":") === true) {
    const [prefix, ...rest] = name.split(":");
    if (prefix !== undefined && KNOWN.has(prefix)) {
      provider = prefix;
      name = rest.join(":");
    }
  }
  // As in LangChain.js, `{ model }` in the options stands in for a missing positional name.
  name ??= options.model;
  provider ??= name === undefined ? undefined : inferModelProvider(name);
  if (provider === undefined) {
    throw new UnknownModelProviderError(
      `Unable to infer model provider for { model: ${model} }, please specify modelProvider directly. ` +
        `Write the model as "<provider>:<model>" (e.g. "openai:${model ?? "gpt-4.1-mini"}") or pass { modelProvider }. ` +
        `Supported providers: ${SUPPORTED.join(", ")}.`,
    );
  }
  const { modelProvider: _ignored, baseUrl, ...fields } = options;
  switch (provider) {
    case "openai": {
      const baseURL =
        fields.configuration?.baseURL ??
        getEnvironmentVariable("OPENAI_API_BASE") ??
        getEnvironmentVariable("OPENAI_BASE_URL");
      const configuredKey = fields.configuration?.apiKey;
      if (baseURL === undefined) {
        requireKey(
          fields.apiKey ??
            fields.openAIApiKey ??
            (typeof configuredKey === "string" ? configuredKey : undefined),
          "OPENAI_API_KEY",
          "OpenAI",
        );
      }
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

/**
 * LangChain.js's `configurableFields` / `configPrefix` let call-time `configurable` values pick
 * the model; agentgraph returns a fixed model, so say so instead of ignoring them.
 */
function rejectConfigurableOptions(options: InitChatModelOptions): void {
  const given: Readonly<Record<string, unknown>> = options;
  const used = CONFIGURABLE_OPTIONS.filter((key) => {
    const value = given[key];
    return value !== undefined && value !== "";
  });
  if (used.length === 0) return;
  throw new ModelConfigurationError(
    `initChatModel does not build a configurable model: remove { ${used.join(", ")} }. ` +
      "agentgraph returns the provider's model itself, so `configurable` values given at call time " +
      "cannot change it; call initChatModel once per model you need (a createAgent middleware's " +
      "wrapModelCall can pick one per request).",
  );
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
