// LangChain.js's test helpers (`@langchain/core/testing`, `langchain`), also on agentgraph/agents.
export {
  type ExpectationResult,
  type ExpectExtendThis,
  FakeBuiltModel,
  type FakeModelCall,
  FakeToolCallingModel,
  fakeModel,
  type LangChainMatchers,
  langchainMatchers,
  type StreamMatchers,
  type StreamOutputExpectation,
  type StreamToolCallExpectation,
  type StreamUsageExpectation,
} from "../agents/index.js";
export { CheckpointMutatedError, MemorySaverAssertImmutable } from "./assert-immutable-saver.js";
export { FakeChatModel, FakeChatModelExhaustedError, type FakeChatModelFields } from "./fake-chat-model.js";
export {
  FakeListChatModel,
  type FakeListChatModelCallOptions,
  type FakeListChatModelFields,
} from "./fake-list-chat-model.js";
export {
  FakeStreamingChatModel,
  type FakeStreamingChatModelCallOptions,
  type FakeStreamingChatModelFields,
  type FakeToolDescriptor,
  type ToolSpec,
} from "./fake-streaming-chat-model.js";
export {
  streamMatchers,
  toBeAIMessage,
  toBeHumanMessage,
  toBeSystemMessage,
  toBeToolMessage,
  toContainToolCall,
  toHaveBeenInterrupted,
  toHaveStructuredResponse,
  toHaveToolCallCount,
  toHaveToolCalls,
  toHaveToolMessages,
} from "./matchers.js";
export {
  asAsyncIterable,
  type OpenAICompletionsStreamChunk,
  openAIReasoningTextChunks,
  openAITextOnlyChunks,
  openAITextOnlyChunksWithUsage,
  openAIToolCallChunks,
  sseResponseFromOpenAIChunks,
} from "./openai-stream-fixtures.js";
export {
  assertSaverConformance,
  findDifference,
  runSaverConformance,
  type SaverCapability,
  type SaverConformanceCase,
  SaverConformanceError,
  type SaverConformanceOptions,
  type SaverConformanceReport,
  SaverConformanceSkipped,
  type SaverFactory,
  saverConformanceCases,
} from "./saver-conformance.js";
