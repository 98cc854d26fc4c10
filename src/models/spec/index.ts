export type { ChatModelV1CallOptions } from "./call-options.js";
export type { ChatModelV1 } from "./chat-model-v1.js";
export type { ChatModelV1Content } from "./content.js";
export type { ChatModelV1FilePart } from "./file-part.js";
export type { ChatModelV1FinishReason } from "./finish-reason.js";
export type {
  ChatModelV1FunctionTool,
  ChatModelV1ProviderTool,
  ChatModelV1Tool,
} from "./function-tool.js";
export type { ChatModelV1GenerateResult } from "./generate-result.js";
export type { JSONValue } from "./json-value.js";
export type { ChatModelV1Message, ChatModelV1Prompt } from "./prompt.js";
export type { ChatModelV1ProviderMetadata } from "./provider-metadata.js";
export type { ChatModelV1ReasoningPart } from "./reasoning-part.js";
export type { ChatModelV1ResponseFormat } from "./response-format.js";
export type { ChatModelV1ResponseMetadata } from "./response-metadata.js";
export type { ChatModelV1StreamPart } from "./stream-part.js";
export type { ChatModelV1TextPart } from "./text-part.js";
export type { ChatModelV1ToolCallPart } from "./tool-call-part.js";
export type { ChatModelV1ToolChoice } from "./tool-choice.js";
export type { ChatModelV1ToolResultPart } from "./tool-result-part.js";
export type { ChatModelV1Usage } from "./usage.js";
