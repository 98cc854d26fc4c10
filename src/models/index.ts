export {
  BaseChatModel,
  type LangSmithParams,
  type SerializedChatModel,
} from "./chat-model/base-chat-model.js";
export { ChatGenerationChunk } from "./chat-model/chat-generation-chunk.js";
export { type BoundChatModel, ConfiguredChatModel } from "./chat-model/configured-chat-model.js";
export { ChatModelRun, ChatModelRun as CallbackManagerForLLMRun } from "./chat-model/llm-run.js";
export { nameAnswer } from "./chat-model/message-conversion.js";
export {
  type ChatModelRunnable,
  type ChatModelRunnable as LanguageModelLike,
  ChatModelWithFallbacks,
  ChatModelWithRetry,
  type RetryFields,
} from "./chat-model/retry-and-fallbacks.js";
export type { BatchOptions } from "./chat-model/run-batch.js";
export { SimpleChatModel } from "./chat-model/simple-chat-model.js";
export type {
  ChatModelStreamEvent,
  StreamContentBlock,
  StreamContentBlockDelta,
  StreamFinishReason,
  StreamUsage,
} from "./chat-model/stream-events.js";
export { StructuredOutputRunnable } from "./chat-model/structured-output.js";
export type {
  BaseChatModelCallOptions,
  BaseChatModelParams,
  BaseLanguageModelInput,
  BindToolsOptions,
  ChatGeneration,
  ChatResult,
  ModelProfile,
  StructuredOutputOptions,
  ToolChoice,
} from "./chat-model/types.js";
export { getEnvironmentVariable } from "./env.js";
export {
  MissingApiKeyError,
  ModelConfigurationError,
  OutputParserException,
  UnknownModelProviderError,
} from "./errors/configuration-errors.js";
export {
  ModelAuthenticationError,
  ModelCallError,
  type ModelCallErrorOptions,
  ModelConnectionError,
  ModelNotFoundError,
  ModelRateLimitError,
  ModelTimeoutError,
} from "./errors/model-call-error.js";
export {
  type ChatModelProvider,
  type ConfigurableModel,
  type InitChatModelFields,
  type InitChatModelOptions,
  inferModelProvider,
  initChatModel,
} from "./init-chat-model.js";
export type { AnthropicClientOptions } from "./providers/anthropic/anthropic-client.js";
export {
  ChatAnthropic,
  type ChatAnthropicCallOptions,
  type ChatAnthropicFields,
} from "./providers/anthropic/chat-anthropic.js";
export { DemoChatModel, type DemoChatModelFields } from "./providers/demo/demo-chat-model.js";
export {
  ChatOpenAI,
  type ChatOpenAICallOptions,
  type ChatOpenAIFields,
  type OpenAIModerationResponse,
} from "./providers/openai/chat-openai.js";
export type { OpenAIClientOptions } from "./providers/openai/openai-client.js";
export { retryDelayMs, serverHintMs } from "./retry/retry-delay.js";
export type * from "./spec/index.js";
export type { ReasoningFormat } from "./spec-adapter/result-to-message.js";
export { SpecChatModel, type SpecChatModelParams } from "./spec-adapter/spec-chat-model.js";
