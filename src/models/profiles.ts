import type { ModelProfile } from "./chat-model/types.js";

/** Known model families, most specific prefix first. Numbers are the providers' published limits. */
const PROFILES: ReadonlyArray<readonly [provider: string, prefix: string, profile: ModelProfile]> = [
  // the whole context window, as LangChain.js's profiles give it
  ["openai", "gpt-5", { maxInputTokens: 400_000, maxOutputTokens: 128_000, reasoningOutput: true }],
  ["openai", "gpt-4.1", { maxInputTokens: 1_047_576, maxOutputTokens: 32_768, reasoningOutput: false }],
  ["openai", "gpt-4o", { maxInputTokens: 128_000, maxOutputTokens: 16_384, reasoningOutput: false }],
  ["openai", "gpt-4-turbo", { maxInputTokens: 128_000, maxOutputTokens: 4_096, reasoningOutput: false }],
  [
    "openai",
    "gpt-3.5-turbo",
    { maxInputTokens: 16_385, maxOutputTokens: 4_096, imageInputs: false, reasoningOutput: false },
  ],
  ["openai", "o4-mini", { maxInputTokens: 200_000, maxOutputTokens: 100_000, reasoningOutput: true }],
  [
    "openai",
    "o3-mini",
    { maxInputTokens: 200_000, maxOutputTokens: 100_000, imageInputs: false, reasoningOutput: true },
  ],
  ["openai", "o3", { maxInputTokens: 200_000, maxOutputTokens: 100_000, reasoningOutput: true }],
  ["openai", "o1", { maxInputTokens: 200_000, maxOutputTokens: 100_000, reasoningOutput: true }],
  [
    "anthropic",
    "claude-opus-4-5",
    { maxInputTokens: 200_000, maxOutputTokens: 64_000, reasoningOutput: true },
  ],
  ["anthropic", "claude-opus-4", { maxInputTokens: 200_000, maxOutputTokens: 32_000, reasoningOutput: true }],
  // the 1M-token context window, as LangChain.js's profiles give it
  [
    "anthropic",
    "claude-sonnet-4-6",
    { maxInputTokens: 1_000_000, maxOutputTokens: 128_000, reasoningOutput: true },
  ],
  [
    "anthropic",
    "claude-sonnet-4-5",
    { maxInputTokens: 1_000_000, maxOutputTokens: 64_000, reasoningOutput: true },
  ],
  [
    "anthropic",
    "claude-sonnet-4",
    { maxInputTokens: 200_000, maxOutputTokens: 64_000, reasoningOutput: true },
  ],
  [
    "anthropic",
    "claude-haiku-4",
    { maxInputTokens: 200_000, maxOutputTokens: 64_000, reasoningOutput: true },
  ],
  [
    "anthropic",
    "claude-3-7-sonnet",
    { maxInputTokens: 200_000, maxOutputTokens: 64_000, reasoningOutput: true },
  ],
  ["anthropic", "claude-3-5-haiku", { maxInputTokens: 200_000, maxOutputTokens: 8_192 }],
  ["anthropic", "claude-3-5-sonnet", { maxInputTokens: 200_000, maxOutputTokens: 8_192 }],
];

/** What every model of a provider can do. */
const PROVIDER_DEFAULTS: Readonly<Record<string, ModelProfile>> = {
  openai: {
    toolCalling: true,
    toolChoice: true,
    structuredOutput: true,
    imageInputs: true,
    imageUrlInputs: true,
    midConversationSystemMessages: true,
  },
  anthropic: {
    toolCalling: true,
    toolChoice: true,
    structuredOutput: false,
    imageInputs: true,
    imageUrlInputs: true,
    pdfInputs: true,
    imageToolMessage: true,
    midConversationSystemMessages: false,
  },
};

/**
 * The profile of a model: what its provider supports plus the limits of its family, as far
 * as this table knows (unknown models get only the provider defaults).
 *
 * @example
 * ```ts
 * modelProfile("openai", "gpt-4.1-mini").maxInputTokens; // 1047576
 * ```
 */
export function modelProfile(provider: string, modelId: string): ModelProfile {
  const family = PROFILES.find(([p, prefix]) => p === provider && modelId.startsWith(prefix))?.[2];
  return { ...PROVIDER_DEFAULTS[provider], ...family };
}
