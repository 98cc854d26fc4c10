// What `langchain` re-exports from its own root, so `import { createAgent, tool, HumanMessage }
// from "langchain"` ports to one import from "agentgraph/agents".
export type { Interrupt } from "../graph/index.js";
export type { ContentBlock, ToolCall } from "../messages/index.js";
export {
  AIMessage,
  AIMessageChunk,
  BaseMessage,
  BaseMessageChunk,
  filterMessages,
  HumanMessage,
  HumanMessageChunk,
  SystemMessage,
  SystemMessageChunk,
  ToolMessage,
  ToolMessageChunk,
  trimMessages,
} from "../messages/index.js";
export { initChatModel } from "../models/index.js";
export type { ToolCallHandler, ToolCallRequest } from "../prebuilt/index.js";
export {
  DynamicStructuredTool,
  DynamicTool,
  StructuredTool,
  Tool,
  type ToolRuntime,
} from "../tools/index.js";
export {
  type AgentContext,
  type CreateAgentParams,
  createAgent,
  type MiddlewareContexts,
  type MiddlewareStates,
  type MiddlewareTools,
} from "./create-agent.js";
export { Document, type DocumentInput } from "./document.js";
export {
  MiddlewareError,
  MultipleStructuredOutputsError,
  MultipleToolsBoundError,
  StructuredOutputError,
  StructuredOutputParsingError,
  ToolInvocationError,
} from "./errors.js";
export {
  type HeadlessTool,
  type HeadlessToolFields,
  type HeadlessToolImplementation,
  type HeadlessToolInterrupt,
  tool,
} from "./headless-tool.js";
export { InMemoryStore } from "./key-value-store.js";
export type {
  AfterAgentHook,
  AfterModelHook,
  BeforeAgentHook,
  BeforeModelHook,
  BuiltInState,
  DynamicSystemPromptMiddlewareConfig,
  InferAgentContext,
  InferAgentResponse,
  InferAgentState,
  InferAgentTools,
  InferMergedState,
  InferMiddlewareContext,
  InferMiddlewareContexts,
  InferMiddlewareState,
  InferMiddlewareStates,
  InferSchemaInput,
  JumpToTarget,
  MiddlewareResult,
  ResponseFormat,
  Runtime,
  ToolResult,
  TypedToolStrategy,
  UserInput,
  WrapModelCallHandler,
} from "./langchain-types.js";
export {
  ClearToolUsesEdit,
  type ClearToolUsesEditConfig,
  type ContextEdit,
  type ContextEditingMiddlewareConfig,
  contextEditingMiddleware,
} from "./middleware/context-editing.js";
export {
  type ContextSize,
  countTokensApproximately,
  type KeepSize,
  type TokenCounter,
} from "./middleware/context-size.js";
export {
  type DynamicSystemPromptFunction,
  dynamicSystemPromptMiddleware,
} from "./middleware/dynamic-system-prompt.js";
export {
  type Action,
  type ActionRequest,
  type ApproveDecision,
  type Decision,
  type DecisionType,
  type DescriptionFactory,
  type EditDecision,
  type HITLRequest,
  type HITLResponse,
  type HumanInTheLoopMiddlewareConfig,
  humanInTheLoopMiddleware,
  type InterruptOnConfig,
  type RejectDecision,
  type ReviewConfig,
  type WhenPredicate,
} from "./middleware/human-in-the-loop.js";
export {
  DEFAULT_TOOL_SELECTOR_PROMPT,
  type LLMToolSelectorConfig,
  llmToolSelectorMiddleware,
  type StructuredOutputCapableModel,
} from "./middleware/llm-tool-selector.js";
export {
  type ModelCallLimitExitBehavior,
  type ModelCallLimitMiddlewareConfig,
  ModelCallLimitMiddlewareError,
  type ModelCallLimitState,
  modelCallLimitMiddleware,
} from "./middleware/model-call-limit.js";
export { type FallbackModel, modelFallbackMiddleware } from "./middleware/model-fallback.js";
export { type ModelRetryMiddlewareConfig, modelRetryMiddleware } from "./middleware/model-retry.js";
export {
  type ModerationModel,
  type ModerationResponse,
  type ModerationResult,
  type OpenAIModelLike,
  OpenAIModerationError,
  type OpenAIModerationMiddlewareOptions,
  openAIModerationMiddleware,
} from "./middleware/openai-moderation.js";
export {
  applyStrategy,
  type BuiltInPIIType,
  detectCreditCard,
  detectEmail,
  detectIP,
  detectMacAddress,
  detectUrl,
  PIIDetectionError,
  type PIIDetector,
  type PIIMatch,
  type PIIMiddlewareConfig,
  type PIIStrategy,
  piiMiddleware,
  type RedactionRuleConfig,
  type ResolvedRedactionRule,
  resolveRedactionRule,
} from "./middleware/pii.js";
export { type PIIRedactionMiddlewareConfig, piiRedactionMiddleware } from "./middleware/pii-redaction.js";
export {
  anthropicPromptCachingMiddleware,
  BedrockPromptCachingMiddlewareError,
  bedrockPromptCachingMiddleware,
  type PromptCachingMiddlewareConfig,
  PromptCachingMiddlewareError,
} from "./middleware/prompt-caching.js";
export {
  type ProviderToolSearchMiddlewareConfig,
  providerToolSearchMiddleware,
} from "./middleware/provider-tool-search.js";
export {
  InvalidRetryConfigError,
  type RetryConfigIssue,
  type RetryOn,
  type RetryOptions,
} from "./middleware/retry-options.js";
export {
  DEFAULT_SUMMARY_PREFIX,
  DEFAULT_SUMMARY_PROMPT,
  type SummarizationMiddlewareConfig,
  summarizationMiddleware,
} from "./middleware/summarization.js";
export {
  TODO_LIST_MIDDLEWARE_SYSTEM_PROMPT,
  type Todo,
  type TodoListMiddlewareOptions,
  todoListMiddleware,
  WRITE_TODOS_TOOL_DESCRIPTION,
} from "./middleware/todo-list.js";
export {
  ToolCallLimitExceededError,
  type ToolCallLimitExitBehavior,
  type ToolCallLimitMiddlewareConfig as ToolCallLimitConfig,
  type ToolCallLimitMiddlewareConfig,
  type ToolCallLimitState,
  toolCallLimitMiddleware,
} from "./middleware/tool-call-limit.js";
export { type ToolEmulatorOptions, toolEmulatorMiddleware } from "./middleware/tool-emulator.js";
export {
  type ToolErrorHandler,
  type ToolErrorMiddlewareConfig,
  toolErrorMiddleware,
} from "./middleware/tool-error.js";
export { type ToolRetryMiddlewareConfig, toolRetryMiddleware } from "./middleware/tool-retry.js";
export {
  type ContextInputOfSchema,
  type ContextOfSchema,
  createMiddleware,
  type MiddlewareConfig,
} from "./middleware.js";
export { context } from "./prompt-context.js";
export {
  type AgentInput,
  type AgentOutput,
  type AgentRunOptions,
  type AgentStreamChunk,
  type AgentStreamPayloads,
  type AgentTypeConfigOf,
  type AgentTypes,
  type AnyAgentTypes,
  ReactAgent,
} from "./react-agent.js";
export {
  type InferResponse,
  ProviderStrategy,
  providerStrategy,
  type ResponseFormatInput,
  type ResponseSchema,
  type StructuredOutputErrorHandler,
  ToolStrategy,
  type ToolStrategyOptions,
  toolStrategy,
} from "./responses.js";
export {
  type AgentRunStream,
  createSubagentTransformer,
  createToolCallTransformer,
  type SubagentRunStream,
  type ToolCallStreamUnion,
} from "./stream-transformers.js";
export {
  FakeBuiltModel,
  type FakeModelCall,
  type FakeToolCallInput,
  fakeModel,
  type ResponseFactory,
} from "./testing/fake-model.js";
export {
  type FakeToolCall,
  FakeToolCallingModel,
  type FakeToolCallingModelFields,
} from "./testing/fake-tool-calling-model.js";
export {
  type ExpectationResult,
  type ExpectExtendThis,
  type LangChainMatchers,
  langchainMatchers,
  type StreamMatchers,
  type StreamOutputExpectation,
  type StreamToolCallExpectation,
  type StreamUsageExpectation,
} from "./testing/matchers.js";
export type {
  AgentChatModel,
  AgentMiddleware,
  AgentRuntime,
  AgentState,
  AgentTool,
  AnyAgentMiddleware,
  AnyNodeHook,
  HookFunction,
  HookResult,
  JumpTo,
  ModelCallHandler,
  ModelRequest,
  NodeHook,
  StateOfSchema,
  ToolFunctionLike,
  WrapModelCallHook,
  WrapToolCallHook,
} from "./types.js";
export { MIDDLEWARE_BRAND } from "./types.js";
